// What a frame of the world is drawn with: the view mode and the switches the overlay, the
// command line and the tests set.
#pragma once

#include "render/draw_submitter.h"
#include "render/view_mode.h"
#include "scene/world/light_styles.h"

#include <array>

#include <glm/vec4.hpp>

namespace render {

class GpuTimers;

struct RenderOptions {
    ViewMode view = ViewMode::Lit;
    bool wireframe = false;
    bool neutral_lighting = false; // ignore the map's overbright rules
    // Lay down depth for opaque surfaces first with a position-only program, so the shaded
    // pass runs each pixel's fragment shader once (overdraw is the cost on software GL).
    bool depth_prepass = true;
    // How index ranges are submitted (multi-draw indirect on GL 4.3+, or the GL 3.3
    // glMultiDrawElements fallback); the images are the same, tests and benches compare both.
    DrawPath draw_path = DrawPath::Auto;
    float liquid_alpha = 1.0f; // opacity of liquid surfaces (r_wateralpha)
    // "Why culled": also draw DrawList::culled_pvs (red) and culled_frustum (blue) faces;
    // meant for a locked visibility set seen from outside.
    bool show_culled = false;
    // Quake 3 materials drawn stage by stage from their shader scripts (lit view only);
    // false: every material through the single-texture path (its first image x lightmap).
    bool shader_stages = true;
    // Fold runs of a material's stages into one program where the result is the same
    // (scene::foldableRun; the sky's far box too); false: one pass per stage, as ioquake3.
    bool fold_stages = true;
    // When set, each pass of draw() (depth pre-pass, opaque, alpha-test, sky, liquid,
    // translucent, overlays, flares) is timed with it; the caller must not have a timer running.
    GpuTimers* timers = nullptr;
    double time = 0.0;  // seconds: styles, scrolling, shader stages, sky rotation, flare fades
    bool flares = true; // Quake 3 flares (face type 4), see render/flare_renderer.h
    bool fog = true; // Quake 3 fog volumes (scene/world/fog.h) and bsp::Map::distance_fog, lit view
    std::array<float, scene::kNumLightStyles> style_values{};
    glm::vec4 clear_colour{0.05f, 0.05f, 0.07f, 1.0f};
};

} // namespace render
