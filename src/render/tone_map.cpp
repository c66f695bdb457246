#include "render/tone_map.h"

#include <cmath>

namespace render {

bool toneMapped(const game::ToneMapRule& rule, ViewMode view, bool neutral_lighting) {
    return rule.enabled && !neutral_lighting &&
           (view == ViewMode::Lit || view == ViewMode::Lightmap);
}

float toneScaleFactor(const game::ToneMapRule& rule, float scale) {
    if (scale == 1.0f)
        return 1.0f;
    if (!(scale > 0.0f))
        return 0.0f;
    return std::pow(scale, 1.0f / (rule.gamma > 0.0f ? rule.gamma : 1.0f));
}

} // namespace render
