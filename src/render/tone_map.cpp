#include "render/tone_map.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

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

uint64_t LuminanceHistogram::total() const {
    uint64_t n = 0;
    for (const uint32_t c : counts)
        n += c;
    return n;
}

float exposureBinMin(int bin) {
    return std::pow(static_cast<float>(bin) / kExposureBins, 1.5f);
}

float exposureBinMax(int bin) {
    return std::pow(static_cast<float>(bin + 1) / kExposureBins, 1.5f);
}

float pixelLuminance(float r, float g, float b) {
    return 0.2125f * r + 0.7154f * g + 0.0721f * b;
}

void addLuminance(LuminanceHistogram& h, float luminance) {
    for (int b = 0; b < kExposureBins; ++b) {
        // The top bin's range ends at 10000 (IssueQuery: "count all pixels > 1.0 as 1.0").
        const float max = b == kExposureBins - 1 ? 10000.0f : exposureBinMax(b);
        if (luminance >= exposureBinMin(b) && luminance <= max)
            ++h.counts[static_cast<size_t>(b)];
    }
}

float brightBorder(const LuminanceHistogram& h, float share, float snap) {
    const uint64_t total = h.total();
    if (total == 0)
        return -1.0f;
    float share_passed = 0.0f, range_passed = 0.0f;
    for (int b = kExposureBins - 1; b >= 0; --b) {
        const float needed = share - share_passed;
        const float here = static_cast<float>(h.counts[static_cast<size_t>(b)]) / total;
        const float lo = exposureBinMin(b), hi = exposureBinMax(b);
        if (here >= needed) {
            if (snap >= 0.0f && lo <= snap && hi >= snap)
                return snap;
            const float border = 1.0f - (range_passed + (hi - lo) * (needed / here));
            return std::clamp(border, lo, hi);
        }
        share_passed += here;
        range_passed += hi - lo;
    }
    return -1.0f;
}

float exposureTarget(const LuminanceHistogram& h, const game::ToneMapRule& rule, float scale) {
    float at = brightBorder(h, rule.bright_share, rule.target);
    if (at < 0.0f)
        at = rule.target; // no pixels: pretend the frame is on target
    float target = rule.target / std::max(0.0001f, at);
    // The median, where it asks for more light than the bright pixels do.
    const float median = brightBorder(h, 0.5f);
    if (median > 0.0f)
        target = std::max(target, rule.min_average / median);
    return std::max(0.001f, target * scale);
}

float exposureStep(float scale, float goal, float rate, float seconds) {
    const float share = std::clamp(rate * seconds, 0.0f, 1.0f);
    return share > 0.0f ? scale + (goal - scale) * share : scale;
}

void AutoExposure::reset(float scale) {
    m_scale = m_goal = scale;
    m_count = 0;
}

void AutoExposure::measured(const LuminanceHistogram& h, const game::ToneMapRule& rule) {
    const float goal = std::max(
        0.001f, std::clamp(exposureTarget(h, rule, m_scale), rule.auto_min, rule.auto_max));
    constexpr int kSize = static_cast<int>(std::tuple_size_v<decltype(m_history)>);
    if (m_count < kSize) {
        m_history[static_cast<size_t>(m_count++)] = goal;
    } else {
        std::rotate(m_history.begin(), m_history.begin() + 1, m_history.end());
        m_history.back() = goal;
    }
    m_goal = goal;
    if (m_count == kSize) {
        // The weights |i - 5| / 5 (an integer distance, as the client's abs()).
        float sum = 0.0f, weights = 0.0f;
        for (int i = 0; i < kSize; ++i) {
            const float w = static_cast<float>(std::abs(i - kSize / 2)) / (kSize / 2);
            weights += w;
            sum += w * m_history[static_cast<size_t>(i)];
        }
        m_goal = std::clamp(sum / weights, rule.auto_min, rule.auto_max);
    }
}

void AutoExposure::advance(float seconds, const game::ToneMapRule& rule) {
    m_scale = exposureStep(m_scale, m_goal, rule.rate, seconds);
}

} // namespace render
