// What a frame of the world is drawn with: the view mode and the switches the overlay, the
// command line and the tests set.
#pragma once

#include "game/profile.h"
#include "render/draw_submitter.h"
#include "render/view_mode.h"
#include "scene/world/light_styles.h"

#include <array>
#include <optional>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

namespace render {

class GpuTimers;

// The viewer's choice over the game's texture filter (View menu, --texture-mode,
// --anisotropy): unset / 0 take the game's (game::MapRules::textures).
struct TextureFilterChoice {
    std::optional<game::TextureMode> mode;
    float anisotropy = 0.0f;
    bool operator==(const TextureFilterChoice&) const = default;
};

// What the viewer's View > Picture controls do to the finished frame, after the engine's own
// look (issue 33): exposure in stops (x 2^exposure; in the lightmap-only view it scales the light
// before the 8-bit clamp, so bright areas come back instead of staying white), a display gamma
// (colour^(1/gamma), as ioquake3's r_gamma table) and a brightness added last. The defaults
// change nothing and skip the pass (golden images stay byte-identical).
struct PictureAdjust {
    float exposure = 0.0f;   // stops, -4..4
    float gamma = 1.0f;      // 0.4..3
    float brightness = 0.0f; // -0.5..0.5, added to the 0..1 colour
    bool identity() const { return exposure == 0.0f && gamma == 1.0f && brightness == 0.0f; }
    bool operator==(const PictureAdjust&) const = default;
};

struct RenderOptions {
    ViewMode view = ViewMode::Lit;
    bool wireframe = false;
    bool neutral_lighting = false; // ignore the map's overbright rules
    // Lay down depth for opaque surfaces first with a position-only program, so the shaded
    // pass runs each pixel's fragment shader once (overdraw is the cost on software GL).
    bool depth_prepass = true;
    // The full-screen pass that doubles an overbright map's frame (pass_display.cpp). Off
    // (--no-display-ramp) such a map shows at half brightness: a switch to measure the pass's
    // cost, not a picture setting.
    bool display_ramp = true;
    // Quake 3 as ioquake3 shows it with the display's gamma ramp (fullscreen with hardware
    // gamma, tr.overbrightBits 1: what most players and ../shared/refrender see). False
    // (--no-hardware-gamma): as it shows windowed or where the driver has no gamma ramp
    // (tr.overbrightBits 0): lightmaps shifted by two, no doubling, no display ramp pass.
    bool hardware_gamma = true;
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
    // Water with the expensive path (content::WaterShading::planar) drawn with its planar
    // reflection and refraction (lit and fullbright views, given a scene::ReflectionView);
    // false: as its cheap path.
    bool water_reflection = true;
    // Fold runs of a material's stages into one program where the result is the same
    // (scene::foldableRun; the sky's far box too); false: one pass per stage, as ioquake3.
    bool fold_stages = true;
    // When set, each pass of draw() is timed with it under the names of render::kTimedPasses
    // (render/gpu_timers.h); a pass the caller was timing ends where draw() starts timing.
    GpuTimers* timers = nullptr;
    double time = 0.0;  // seconds: styles, scrolling, shader stages, sky rotation, flare fades
    bool flares = true; // Quake 3 flares (face type 4), see render/flare_renderer.h
    // Quake 3 fog volumes (scene/world/fog.h) and the map rules' distance fog, lit view
    bool fog = true;
    // A sky region handed to draw() (Source's 3D sky box) drawn behind the world; false: the
    // sky surfaces show the sky box alone (the engine's r_3dsky 0, --no-3d-sky).
    bool sky_region = true;
    // The eye inside a liquid as the map's game shows it (game::LiquidView: the colour blended
    // over the view, the breathing field of view); false: the view as in air (--no-liquid-view).
    // The callers read it (scene::eyeLiquid); draw() blends `view_blend`.
    bool liquid_view = true;
    // Blended over the finished frame in the lit and fullbright views, after the display ramp
    // (drawViewBlend): rgb and alpha in 0..1, alpha 0 for none. Set per frame by the caller.
    glm::vec4 view_blend{0.0f};
    // The finished frame moved by two sine waves before that blend (drawScreenWarp): amplitude (a
    // share of the screen), rate (radians a second), waves (radians across the screen); an
    // amplitude of 0 for none. Set per frame by the caller (scene::EyeLiquid).
    glm::vec3 screen_warp{0.0f};
    std::array<float, scene::kNumLightStyles> style_values{};
    PictureAdjust picture; // applied last, by the picture pass (pass_display.cpp)
    // A map with a tone map (game::ToneMapRule, Source's HDR) exposed by auto exposure
    // (render/tone_map.h: the scale follows the frames' luminance) instead of its fixed scale
    // (--auto-exposure, View > Picture's "auto exposure").
    bool auto_exposure = false;
    // Seconds since the previous frame: how far auto exposure moves this frame (0: not at all).
    float frame_seconds = 0.0f;
    // Texture mode and anisotropy over the map's own (render/world_gpu.h applyTextureFilter).
    TextureFilterChoice texture_filter;
    glm::vec4 clear_colour{0.05f, 0.05f, 0.07f, 1.0f};
};

} // namespace render
