#include "scene/world/flares.h"

#include "bsp/tree.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

namespace scene {

std::vector<Flare> extractFlares(const bsp::Map& map) {
    return extractFlares(map, resolveMaterials(map));
}

std::vector<Flare> extractFlares(const bsp::Map& map, const MaterialTable& materials) {
    std::vector<Flare> out;
    for (size_t i = 0; i < map.faces.size(); ++i) {
        const bsp::Face& f = map.faces[i];
        if (f.kind != bsp::FaceKind::Billboard || f.submodel != 0 || f.num_vertices == 0 ||
            f.first_vertex >= map.vertices.size())
            continue;
        if (f.material >= 0 && static_cast<size_t>(f.material) < materials.size() &&
            (materials[static_cast<size_t>(f.material)].flags & bsp::kSurfNoDraw))
            continue;
        const bsp::Vertex& v = map.vertices[f.first_vertex];
        Flare fl;
        fl.origin = v.position;
        fl.colour = glm::vec3(v.colour) / 255.0f;
        const float len = glm::length(f.normal);
        fl.normal = std::isfinite(len) && len > 1e-6f ? f.normal / len : glm::vec3(0.0f);
        // q3map2 also writes colourless flares at the origin (one per sky box image in
        // cbctf1, islandctf, ...); drawn additively they add nothing, so they are dropped.
        if (fl.colour == glm::vec3(0.0f))
            continue;
        fl.material = f.material;
        fl.face = static_cast<uint32_t>(i);
        const int32_t leaf = bsp::pointLeaf(map, fl.origin);
        if (leaf >= 0 && static_cast<size_t>(leaf) < map.leaves.size()) {
            fl.leaf = leaf;
            fl.cluster = map.leaves[static_cast<size_t>(leaf)].cluster;
        }
        if (std::isfinite(fl.origin.x) && std::isfinite(fl.origin.y) && std::isfinite(fl.origin.z))
            out.push_back(fl);
    }
    return out;
}

bool flareInPvs(const bsp::Vis& vis, const Flare& flare, int32_t camera_cluster) {
    if (!vis.present() || flare.cluster < 0 || camera_cluster < 0 ||
        camera_cluster >= vis.num_clusters)
        return true;
    return vis.visible(camera_cluster, flare.cluster);
}

FlareShape flareShape(float distance, float viewport_width) {
    FlareShape s;
    s.half_size = viewport_width * (kFlareSize / 640.0f + 8.0f / distance);
    const float factor = distance + s.half_size * std::sqrt(kFlareCoeff);
    s.intensity = kFlareCoeff * s.half_size * s.half_size / (factor * factor);
    return s;
}

float flareFacing(const Flare& flare, const glm::vec3& eye) {
    if (flare.normal == glm::vec3(0.0f))
        return 1.0f;
    const glm::vec3 to_eye = eye - flare.origin;
    const float len = glm::length(to_eye);
    if (!(len > 0.0f))
        return 0.0f;
    return std::max(0.0f, glm::dot(to_eye / len, flare.normal));
}

float FlareFade::update(bool visible_now, double now, float fade_rate) {
    if (visible_now != visible) {
        visible = visible_now;
        changed_at = now;
    }
    const float t = static_cast<float>(std::max(0.0, now - changed_at)) * fade_rate;
    return std::clamp(visible ? t : 1.0f - t, 0.0f, 1.0f);
}

} // namespace scene
