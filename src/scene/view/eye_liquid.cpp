#include "scene/view/eye_liquid.h"

#include "bsp/tree.h"

#include <cmath>
#include <glm/trigonometric.hpp>

namespace scene {

std::string_view liquidName(Liquid l) {
    switch (l) {
    case Liquid::Water:
        return "water";
    case Liquid::Slime:
        return "slime";
    case Liquid::Lava:
        return "lava";
    case Liquid::None:
        break;
    }
    return "none";
}

Liquid liquidAt(const bsp::Map& map, const glm::vec3& eye) {
    const int32_t leaf = bsp::pointLeaf(map, eye);
    if (leaf < 0 || static_cast<size_t>(leaf) >= map.leaves.size())
        return Liquid::None;
    const uint32_t c = map.leaves[static_cast<size_t>(leaf)].contents;
    if (!(c & bsp::kContentsLiquid))
        return Liquid::None;
    if (c & bsp::kContentsLava)
        return Liquid::Lava;
    if (c & bsp::kContentsSlime)
        return Liquid::Slime;
    return Liquid::Water;
}

glm::vec4 liquidBlend(const game::LiquidView& rule, Liquid liquid) {
    switch (liquid) {
    case Liquid::Water:
        return rule.water;
    case Liquid::Slime:
        return rule.slime;
    case Liquid::Lava:
        return rule.lava;
    case Liquid::None:
        break;
    }
    return glm::vec4(0.0f);
}

Camera liquidCamera(const game::LiquidView& rule, Liquid liquid, Camera camera, double time) {
    if (liquid == Liquid::None || rule.fov_rate == 0.0f)
        return camera;
    const float s = static_cast<float>(std::sin(static_cast<double>(rule.fov_rate) * time));
    const glm::vec2 k = rule.fov_base + rule.fov_amplitude * s;
    if (!(k.x > 0.0f) || !(k.y > 0.0f))
        return camera;
    const float half_x = std::tan(glm::radians(camera.fov_x) * 0.5f) * k.x;
    camera.fov_x = glm::degrees(2.0f * std::atan(half_x));
    // tan(fov_y / 2) = tan(fov_x / 2) / aspect: scaling it by k.y while tan(fov_x / 2) scales by
    // k.x takes an aspect k.x / k.y times the old.
    camera.aspect *= k.x / k.y;
    return camera;
}

EyeLiquid eyeLiquid(const bsp::Map& map, const game::LiquidView& rule, const Camera& camera,
                    double time) {
    EyeLiquid e;
    e.liquid = liquidAt(map, camera.position);
    e.blend = liquidBlend(rule, e.liquid);
    e.camera = liquidCamera(rule, e.liquid, camera, time);
    if (e.liquid != Liquid::None)
        e.screen_warp = {rule.warp_amplitude, rule.warp_rate, rule.warp_waves};
    return e;
}

} // namespace scene
