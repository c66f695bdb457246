// The tone map of a map whose rule has one (game::ToneMapRule: Source's HDR): the linear scale a
// frame is drawn with, as the factor of the frame's display-space colours, and auto exposure,
// which moves the scale from the frame's luminance as the Source SDK 2013's client does
// (game/client/viewpostprocess.cpp, new algorithm, mat_tonemap_algorithm 1). GL-free: the
// frame's pixels reach it through render/exposure_meter.h.
#pragma once

#include "game/profile.h"
#include "render/view_mode.h"

#include <array>
#include <cstdint>

namespace render {

// Whether a view shows the tone-mapped frame: the lit and lightmap views with the map's own
// rules. The fullbright view is the engine's mat_fullbright 1, for which the client forces the
// scale to 1 (viewpostprocess.cpp SetToneMapScale); neutral lighting leaves out the map's rules.
bool toneMapped(const game::ToneMapRule& rule, ViewMode view, bool neutral_lighting);

// The factor a linear scale `scale` is for colours in the rule's display space:
// scale^(1 / rule.gamma) (mathlib/color_conversion.cpp LinearToGammaFullRange, which the client
// applies to the fog colour it clears with, viewrender.cpp SetClearColorToFogColor). Exactly 1
// for a scale of 1; 0 for a scale at or below 0.
float toneScaleFactor(const game::ToneMapRule& rule, float scale);

// --- Auto exposure -------------------------------------------------------------------------

// The client's luminance histogram (CLuminanceHistogramSystem, N_LUMINANCE_RANGES_NEW 17: 16
// bins and a last one that only counts): bin b holds the pixels whose luminance lies in
// [(b/16)^1.5, ((b+1)/16)^1.5] (UpdateLuminanceRanges: "slightly more bins in the low range"),
// the top bin also everything above 1. Both ends are inclusive (luminance_compare_ps2x.fxc
// counts step(min, L) * step(L, max)), so a pixel on an edge counts in both bins.
inline constexpr int kExposureBins = 16;
struct LuminanceHistogram {
    std::array<uint32_t, kExposureBins> counts{};
    uint64_t total() const;
};
float exposureBinMin(int bin);
float exposureBinMax(int bin);

// A pixel's luminance as the histogram's shader takes it from the finished frame's colour
// (0..1 per channel): dot(rgb, (0.2125, 0.7154, 0.0721)).
float pixelLuminance(float r, float g, float b);
void addLuminance(LuminanceHistogram& h, float luminance);

// Where the brightest `share` (0..1) of the pixels begins (FindLocationOfPercentBrightPixels):
// walking the bins down from the top, the bin that completes the share, and within it the
// luminance as far down its range as the share needs of it, measured from 1 by the ranges of
// the bins passed (clamped into the bin). `snap` >= 0: when that bin holds `snap`, `snap`
// itself (the "sticky bin": the scale stays). -1: no pixels.
float brightBorder(const LuminanceHistogram& h, float share, float snap = -1.0f);

// The scale the client aims for from a frame drawn at `scale` (GetTargetTonemapScalar): the
// one that puts the brightest rule.bright_share of the pixels at rule.target (no pixels: as if
// they were there), or, where brighter, the median at rule.min_average; times `scale`, at least
// 0.001. Not yet clamped to the rule's range.
float exposureTarget(const LuminanceHistogram& h, const game::ToneMapRule& rule, float scale);

// One frame's move of the scale toward its goal: `rate` (per second) times `seconds` of the
// way, at most all of it; nothing for a rate or time at or below 0. The engine's chase lives in
// its material system, which the SDK does not hold; this is bspview's reading of
// mat_hdr_manual_tonemap_rate (docs/source.md, "HDR tone mapping").
float exposureStep(float scale, float goal, float rate, float seconds);

// The client's auto exposure over frames (DoPreBloomTonemapping, SetToneMapScale): each
// measured frame's target, clamped to the rule's range, becomes the goal; once ten have been
// measured the goal is their weighted average (the weights |i - 5| / 5 of the oldest i = 0 to
// the newest 9, as s_MovingAverageToneMapScale), clamped again. The scale moves toward the
// goal by exposureStep each frame.
class AutoExposure {
public:
    // Starts over at `scale` (ResetToneMapping: the level's start), the goal there too.
    void reset(float scale);
    // A measured frame (drawn at the current scale).
    void measured(const LuminanceHistogram& h, const game::ToneMapRule& rule);
    // A frame `seconds` after the last one.
    void advance(float seconds, const game::ToneMapRule& rule);
    float scale() const { return m_scale; }
    float goal() const { return m_goal; }

private:
    float m_scale = 1.0f;
    float m_goal = 1.0f;
    std::array<float, 10> m_history{};
    int m_count = 0;
};

} // namespace render
