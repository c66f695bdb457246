#include "scene/view/water_reflection.h"

#include <cmath>
#include <limits>

namespace scene {

namespace {

bool planarWater(const MaterialTable& materials, int32_t material) {
    if (material < 0 || static_cast<size_t>(material) >= materials.size())
        return false;
    const content::WaterShading& w = materials[static_cast<size_t>(material)].water;
    return w.enabled && w.planar;
}

} // namespace

std::vector<float> planarWaterHeights(const bsp::Map& map, const MaterialTable& materials) {
    std::vector<float> heights(materials.size(), std::numeric_limits<float>::quiet_NaN());
    for (const bsp::Face& face : map.faces) {
        if (face.submodel != 0 || face.num_vertices == 0 || face.normal.z < 0.99f ||
            face.first_vertex >= map.vertices.size() || !planarWater(materials, face.material) ||
            !std::isnan(heights[static_cast<size_t>(face.material)]))
            continue;
        heights[static_cast<size_t>(face.material)] = map.vertices[face.first_vertex].position.z;
    }
    return heights;
}

std::optional<float> reflectedWaterPlane(const DrawList& list, std::span<const float> heights,
                                         const Camera& camera) {
    for (const DrawBatch& b : list.batches) {
        if (b.submodel != 0 || b.material < 0 || static_cast<size_t>(b.material) >= heights.size())
            continue;
        const float h = heights[static_cast<size_t>(b.material)];
        if (!std::isnan(h) && camera.position.z > h)
            return h;
    }
    return std::nullopt;
}

Camera reflectionCamera(const Camera& world, float plane) {
    Camera c = world;
    c.position.z = 2.0f * plane - world.position.z;
    c.pitch = -world.pitch;
    return c;
}

bool updateReflectionView(const Camera& world, const DrawList& world_list,
                          std::span<const float> heights, Visibility& vis,
                          const VisOptions& options, ReflectionView& out) {
    const std::optional<float> plane = reflectedWaterPlane(world_list, heights, world);
    if (!plane)
        return false;
    out.plane = *plane;
    out.camera = reflectionCamera(world, *plane);
    VisOptions reflection_options = options;
    reflection_options.pvs_point = world.position; // the eye's PVS: what it sees through the water
    reflection_options.classify = false;
    reflection_options.lock = false;
    reflection_options.models = false;
    vis.update(out.camera, reflection_options, out.list);
    return true;
}

} // namespace scene
