#include "scene/world/fog.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

namespace scene {

std::vector<FogVolume> buildFogVolumes(const bsp::Map& map, const content::ShaderLibrary& shaders) {
    std::vector<FogVolume> out;
    out.reserve(map.fogs.size());
    for (const bsp::Fog& f : map.fogs) {
        FogVolume v;
        v.mins = f.mins;
        v.maxs = f.maxs;
        v.has_surface = f.visible_side >= 0;
        v.surface = glm::vec4(f.surface.normal, f.surface.dist);
        if (const content::ShaderDef* def = shaders.find(f.shader); def && def->fog.present) {
            v.colour = def->fog.colour;
            v.distance = std::max(def->fog.distance, 1.0f);
            v.valid = true;
        }
        out.push_back(v);
    }
    return out;
}

float fogAmount(const FogVolume& fog, const glm::vec3& eye, const glm::vec3& point, float depth) {
    float clip = 1.0f;
    if (fog.has_surface) {
        const glm::vec3 n(fog.surface);
        const float eye_t = glm::dot(n, eye) - fog.surface.w;
        const float t = glm::dot(n, point) - fog.surface.w;
        if (eye_t < 0.0f) // eye outside: only the part of the ray inside the plane fogs
            clip = t < 1.0f ? 0.0f : t / (t - eye_t);
        else
            clip = t < 0.0f ? 0.0f : 1.0f;
    }
    const float s = std::clamp(depth / fog.distance * clip, 0.0f, 1.0f);
    return std::sqrt(s);
}

glm::vec4 fogFadeMask(const content::ShaderStage& d) {
    using content::BlendFactor;
    if (!d.blend)
        return glm::vec4(0.0f);
    if ((d.src == BlendFactor::One && d.dst == BlendFactor::One) ||
        (d.src == BlendFactor::Zero && d.dst == BlendFactor::OneMinusSrcColor))
        return {1.0f, 1.0f, 1.0f, 0.0f};
    if (d.src == BlendFactor::SrcAlpha && d.dst == BlendFactor::OneMinusSrcAlpha)
        return {0.0f, 0.0f, 0.0f, 1.0f};
    if (d.src == BlendFactor::One && d.dst == BlendFactor::OneMinusSrcAlpha)
        return glm::vec4(1.0f);
    return glm::vec4(0.0f);
}

} // namespace scene
