#include "scene/models/model_pick.h"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace scene {

std::optional<EntityModelHit> pickEntityModel(const EntityModelSet& set, const glm::vec3& origin,
                                              const glm::vec3& dir_in, float max_distance) {
    const float len = glm::length(dir_in);
    if (!(len > 0.0f))
        return std::nullopt;
    const glm::vec3 dir = dir_in / len;
    std::optional<EntityModelHit> best;
    for (uint32_t i = 0; i < set.instances.size(); ++i) {
        const EntityModelInstance& inst = set.instances[i];
        const glm::vec3 to = inst.origin - origin;
        const float along = glm::dot(to, dir);
        const float miss2 = glm::dot(to, to) - along * along;
        const float r2 = inst.radius * inst.radius;
        if (miss2 > r2)
            continue;
        const float t = std::max(0.0f, along - std::sqrt(r2 - miss2));
        if (along < -inst.radius || t > max_distance || (best && t >= best->distance))
            continue;
        best = EntityModelHit{i, t};
    }
    return best;
}

std::vector<std::string> describeInstance(const EntityModelSet& set, uint32_t instance,
                                          std::optional<uint32_t> drawn_lod) {
    std::vector<std::string> lines;
    if (instance >= set.instances.size())
        return lines;
    const EntityModelInstance& inst = set.instances[instance];
    const LoadedModel& model = set.models[inst.model];
    char buf[256];
    lines.push_back("model " + model.path + "  skin " + std::to_string(inst.skin) +
                    (model.skin.empty() ? std::string() : "  (" + model.skin + ")"));
    if (model.mesh && inst.first_frame < model.mesh->frames.size()) {
        const content::ModelFrame& frame = model.mesh->frames[inst.first_frame];
        if (inst.frame_count > 1)
            std::snprintf(buf, sizeof(buf), "frames %u..%u at %g Hz  (%u poses in frame %u \"%s\")",
                          inst.first_frame, inst.first_frame + inst.frame_count - 1,
                          double(inst.frame_rate), frame.poses.count, inst.first_frame,
                          frame.name.c_str());
        else
            std::snprintf(buf, sizeof(buf), "frame %u \"%s\"  %u poses", inst.first_frame,
                          frame.name.c_str(), frame.poses.count);
        lines.emplace_back(buf);
    }
    if (!inst.lighting.empty()) {
        // Source props (source_props.h): the LOD drawn, where the light comes from, the cube.
        const size_t lods = model.mesh ? model.mesh->lod_switch_points.size() : 0;
        lines.push_back("LOD " + std::to_string(drawn_lod.value_or(inst.lod)) +
                        (lods > 1 ? " of " + std::to_string(lods) : std::string()) +
                        "  light: " + inst.lighting);
        if (inst.cube_lit) {
            const char* sides[6] = {"+x", "-x", "+y", "-y", "+z", "-z"};
            std::string cube = "cube";
            for (size_t k = 0; k < 6; ++k) {
                const glm::vec3& c = inst.ambient_cube[k];
                std::snprintf(buf, sizeof(buf), "  %s %.3f %.3f %.3f", sides[k], double(c.r),
                              double(c.g), double(c.b));
                cube += buf;
            }
            lines.push_back(cube);
        }
        return lines;
    }
    if (inst.fullbright) {
        lines.emplace_back("light: full bright");
        return lines;
    }
    std::snprintf(buf, sizeof(buf), "ambient %.2f %.2f %.2f", double(inst.light.r),
                  double(inst.light.g), double(inst.light.b));
    lines.emplace_back(buf);
    if (inst.directed_light != glm::vec3(0.0f)) {
        std::snprintf(buf, sizeof(buf), "directed %.2f %.2f %.2f toward %.2f %.2f %.2f",
                      double(inst.directed_light.r), double(inst.directed_light.g),
                      double(inst.directed_light.b), double(inst.light_dir.x),
                      double(inst.light_dir.y), double(inst.light_dir.z));
        lines.emplace_back(buf);
    }
    return lines;
}

} // namespace scene
