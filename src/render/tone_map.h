// The tone map of a map whose rule has one (game::ToneMapRule: Source's HDR): the linear scale a
// frame is drawn with, as the factor of the frame's display-space colours. GL-free.
#pragma once

#include "game/profile.h"
#include "render/view_mode.h"

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

} // namespace render
