// The uniform blocks of a frame (shaders/gpu_interface.h): what every program reads the same
// way for every draw of the frame, worked out once here instead of per program.
#include "render/frame.h"

#include <cmath>
#include <cstring>

namespace render {

namespace {

// The liquid ripple's phase at `time` (game::WarpRule::phase_steps): the time itself, or the
// whole steps of 2 pi / `steps` it has reached (QuakeSpasm gl_warp.c WARPCALC truncates
// time * 128 / pi to index its 256-step sine table), taken modulo one turn so that the float
// stays exact.
float warpPhase(double time, int steps) {
    if (steps <= 0)
        return static_cast<float>(std::fmod(time, 4096.0));
    const double step = std::floor(time * steps / (2.0 * 3.14159265358979));
    return static_cast<float>(std::fmod(step, double(steps)) * (2.0 * 3.14159265358979 / steps));
}

} // namespace

FrameBlock frameBlock(const Frame& f) {
    FrameBlock b{};
    b.view_projection = f.view_projection;
    // World direction -> box direction: the inverse (transpose) of the box's turn.
    const glm::mat3 sky_to_box = glm::transpose(f.gpu.sky_rotation.orientation(f.options.time));
    for (int c = 0; c < 3; ++c)
        b.sky_rotation.columns[c] = glm::vec4(sky_to_box[c], 0.0f);
    b.eye = f.camera.position;
    b.time = static_cast<float>(std::fmod(f.options.time, 4096.0));
    // Quake's view axes: forward, left (the camera's right negated), up.
    b.view_forward = f.camera.forward();
    b.view_left = -f.camera.right();
    b.view_up = f.camera.up();
    // tr_sky.c RB_StageIteratorSky: the far box at tr.identityLight.
    b.frame_scale = f.frame_scale;
    b.light_shift = f.lightShift();
    b.warp_phase = warpPhase(f.options.time, f.gpu.rules.warp.phase_steps);
    b.tone_scale = f.tone_scale;
    b.clip_plane = f.clip_plane;
    static_assert(sizeof(b.style_values) == sizeof(f.options.style_values));
    std::memcpy(b.style_values, f.options.style_values.data(), sizeof(b.style_values));
    return b;
}

MapBlock mapBlock(const Frame& f) {
    // The map's lighting rule (game::LightRule, the numbers of game::apply): light scaled,
    // saturated and, with overbright (ioquake3), scaled down by its largest channel; the texel
    // and the lit colour curved; the output doubled by the display ramp pass in the lit view
    // (Frame::frame_scale 1/2), here in the others. Neutral lighting leaves out the colour
    // curves and the overbright doubling.
    const game::LightRule& rule = f.gpu.rules.light;
    const bool neutral = f.options.neutral_lighting || !rule.overbright;
    const bool curves = !f.options.neutral_lighting;
    // Without the display's gamma ramp ioquake3 shifts the light by two, not one, and shows the
    // framebuffer as drawn (Frame::lightShift: 4 / 2).
    const float ramp_shift =
        rule.overbright && !f.options.neutral_lighting && !f.overbrightBits() ? 2.0f : 1.0f;
    MapBlock b{};
    b.light_scale = rule.lightmap_scale * rule.light_style_scale * ramp_shift;
    b.light_max = rule.light_max;
    b.texture_scale = curves ? rule.texture_scale : 1.0f;
    b.texture_max = curves ? rule.texture_max : 0.0f;
    // Quake 2's output curve; the sky takes it too (yquake2 GL3 fragmentSrc3Dsky).
    b.output_gamma = curves ? rule.output_gamma : 1.0f;
    b.light_normalize = rule.overbright || rule.light_normalize ? 1 : 0;
    // The lightmap-only view's exposure (View > Picture) scales the light before the shader's
    // clamp to 1, so overbright areas show their detail instead of white.
    const float exposure =
        f.options.view == ViewMode::Lightmap ? std::exp2(f.options.picture.exposure) : 1.0f;
    const float doubling = neutral || !f.overbrightBits() ? 1.0f : 2.0f * f.frame_scale;
    b.output_scale = doubling * exposure;
    const game::WarpRule& warp = f.gpu.rules.warp;
    b.warp_amplitude = warp.amplitude;
    b.warp_frequency = 2.0f * 3.14159265f / warp.period;
    b.warp_knot = warp.knot_spacing;
    b.warp_tile = warp.tile;
    b.sky_edge = f.gpu.rules.sky_box_edge.inset;
    const game::DistanceFog& fog = f.gpu.rules.fog;
    b.distance_fog = glm::vec4(fog.colour * f.frame_scale, fog.density);
    // QuakeSpasm gl_sky.c: a quad of the fog colour at r_skyfog's opacity over the sky.
    b.sky_fog = glm::vec4(fog.colour, distanceFogged(f) ? fog.sky : 0.0f);
    if (f.linear_fog) { // a linear fog (Source's world or sky region) instead of the map's
        const scene::LinearFog& linear = *f.linear_fog;
        b.distance_fog = glm::vec4(linear.colour * f.frame_scale, 0.0f);
        b.linear_fog =
            glm::vec4(linear.start, linear.end, linear.max_density, linear.radial ? 2.0f : 1.0f);
        b.sky_fog.a = 0.0f;
    }
    return b;
}

uint8_t lightCurves(const MapBlock& b) {
    uint8_t curves = 0;
    if (b.texture_max > 0.0f)
        curves |= kCurveTextureMax;
    if (b.light_max > 0.0f)
        curves |= kCurveLightMax;
    if (b.light_normalize != 0)
        curves |= kCurveLightNormalize;
    if (b.output_gamma != 1.0f)
        curves |= kCurveOutputGamma;
    return curves;
}

void useBlocks(const Frame& f) {
    UniformBlocks& blocks = f.programs.blocks();
    blocks.setFrame(frameBlock(f));
    blocks.setMap(mapBlock(f));
    blocks.bind();
}

} // namespace render
