// The eye inside water, slime or lava, as the map's game shows it (game::LiquidView): a colour
// blended over the finished frame and a field of view that breathes. Every mode that draws a
// frame (the viewer, --screenshot, --bench) takes its camera and blend from here.
#pragma once

#include "bsp/map.h"
#include "game/profile.h"
#include "scene/view/camera.h"

#include <glm/vec4.hpp>
#include <string_view>

namespace scene {

enum class Liquid : uint8_t { None, Water, Slime, Lava };
std::string_view liquidName(Liquid l); // "none", "water", "slime", "lava"

// The liquid of the leaf holding `eye` (bsp::LeafContents; lava before slime before water).
Liquid liquidAt(const bsp::Map& map, const glm::vec3& eye);

// The colour `rule` blends over a frame whose eye is in `liquid`: rgb and alpha in 0..1, alpha 0
// when nothing is blended.
glm::vec4 liquidBlend(const game::LiquidView& rule, Liquid liquid);

// `camera` with its field of view breathing at game time `time` (seconds) when `liquid` holds
// the eye: tan(fov / 2) across and up scaled by the rule's factors, the picture's shape kept by
// the aspect (fov_x and aspect are all a Camera has). Unchanged outside a liquid or when the rule
// has no wobble.
Camera liquidCamera(const game::LiquidView& rule, Liquid liquid, Camera camera, double time);

// What the frame whose camera is `camera` does with its eye where it is.
struct EyeLiquid {
    Liquid liquid = Liquid::None;
    glm::vec4 blend{0.0f}; // liquidBlend
    // The rule's screen warp (amplitude, rate, waves) with the eye in a liquid, else 0.
    glm::vec3 screen_warp{0.0f};
    Camera camera; // liquidCamera: the camera to cull and draw the frame with
};
EyeLiquid eyeLiquid(const bsp::Map& map, const game::LiquidView& rule, const Camera& camera,
                    double time);

} // namespace scene
