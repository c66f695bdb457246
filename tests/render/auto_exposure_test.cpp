// Auto exposure's arithmetic (render/tone_map.h), GL-free: the client's luminance bins, where
// the brightest pixels begin, the target scale, the moving average and the step toward the goal
// (Source SDK 2013 viewpostprocess.cpp, docs/source.md "HDR tone mapping"). Frames of one known
// luminance; every expected number worked out here by hand from the engine's rules.
#include "render/exposure_meter.h"
#include "render/tone_map.h"

#include <gtest/gtest.h>

#include <cmath>

namespace {

// A frame of `n` pixels all of luminance `l`.
render::LuminanceHistogram uniform(float l, uint32_t n = 4096) {
    render::LuminanceHistogram h;
    for (uint32_t i = 0; i < n; ++i)
        render::addLuminance(h, l);
    return h;
}

game::ToneMapRule defaults() {
    game::ToneMapRule t;
    t.enabled = true;
    return t;
}

constexpr float kEps = 1e-5f;

} // namespace

TEST(AutoExposure, BinsAreTheClientsRanges) {
    // (b/16)^1.5: 0, (1/16)^1.5 = 1/64, ..., (4/16)^1.5 = 1/8, (8/16)^1.5 = 0.35355, 1.
    EXPECT_EQ(render::exposureBinMin(0), 0.0f);
    EXPECT_FLOAT_EQ(render::exposureBinMax(0), 1.0f / 64.0f);
    EXPECT_FLOAT_EQ(render::exposureBinMin(4), 0.125f);
    EXPECT_FLOAT_EQ(render::exposureBinMin(8), 0.35355339f);
    EXPECT_FLOAT_EQ(render::exposureBinMax(15), 1.0f);
    // Luminance of the frame's colour: (0.2125, 0.7154, 0.0721); grey keeps its value.
    EXPECT_FLOAT_EQ(render::pixelLuminance(1, 0, 0), 0.2125f);
    EXPECT_FLOAT_EQ(render::pixelLuminance(0.5f, 0.5f, 0.5f), 0.5f);
    // Both ends inclusive: 1/8 counts in bins 3 and 4; above 1 in the top bin only.
    const render::LuminanceHistogram edge = uniform(0.125f, 1);
    EXPECT_EQ(edge.counts[3], 1u);
    EXPECT_EQ(edge.counts[4], 1u);
    EXPECT_EQ(edge.total(), 2u);
    EXPECT_EQ(uniform(2.0f, 1).counts[15], 1u);
    EXPECT_EQ(uniform(2.0f, 1).total(), 1u);
}

TEST(AutoExposure, BrightBorderWithinTheBin) {
    // All pixels at 0.1: bin 3, [0.0811899, 0.125]. The brightest 2 % begin 2 % down its
    // range, the median half way: 0.125 - 0.0438101 * 0.02 = 0.1241238, and 0.1030950.
    const render::LuminanceHistogram h = uniform(0.1f);
    EXPECT_EQ(h.counts[3], 4096u);
    EXPECT_NEAR(render::brightBorder(h, 0.02f), 0.1241238f, kEps);
    EXPECT_NEAR(render::brightBorder(h, 0.5f), 0.1030950f, kEps);
    // The target 0.6 is not in this bin: no snap.
    EXPECT_NEAR(render::brightBorder(h, 0.02f, 0.6f), 0.1241238f, kEps);
    // All at 0.6: bin 11, [0.5700449, 0.6495191], holds the target: the border is the target.
    EXPECT_EQ(render::brightBorder(uniform(0.6f), 0.02f, 0.6f), 0.6f);
    EXPECT_EQ(render::brightBorder(render::LuminanceHistogram{}, 0.02f), -1.0f);
    // 98 % at 0.05 (bin 2, [0.0441942, 0.0811899]), 2 % at 0.95 (bin 15, [0.9077305, 1]):
    // the 2 % fill the top bin, whose border is its bottom, 0.9077305; the
    // median is in bin 2, past the ranges of bins 15..3 (1 - 0.0811899) and 0.48 / 0.98 of
    // bin 2's 0.0369957: 1 - (0.9188101 + 0.0181204) = 0.0630695.
    render::LuminanceHistogram mixed = uniform(0.05f, 98);
    render::addLuminance(mixed, 0.95f);
    render::addLuminance(mixed, 0.95f);
    EXPECT_NEAR(render::brightBorder(mixed, 0.02f), 0.9077305f, kEps);
    EXPECT_NEAR(render::brightBorder(mixed, 0.5f), 0.0630695f, kEps);
}

TEST(AutoExposure, TargetForAKnownLuminance) {
    const game::ToneMapRule rule = defaults();
    // 0.1: 0.6 / 0.1241238 = 4.833884 (the median's 0.03 / 0.1030950 = 0.29099 asks for less),
    // times the scale it was drawn at.
    EXPECT_NEAR(render::exposureTarget(uniform(0.1f), rule, 1.0f), 4.833884f, 1e-4f);
    EXPECT_NEAR(render::exposureTarget(uniform(0.1f), rule, 0.5f), 2.416942f, 1e-4f);
    // 0.9: bin 14 [0.8184876, 0.9077305]: 0.6 / (0.9077305 - 0.0892429 * 0.02) = 0.6622914.
    EXPECT_NEAR(render::exposureTarget(uniform(0.9f), rule, 1.0f), 0.6622914f, 1e-5f);
    // On target (0.6's bin): the scale stays.
    EXPECT_FLOAT_EQ(render::exposureTarget(uniform(0.6f), rule, 1.5f), 1.5f);
    // No pixels: as if on target.
    EXPECT_FLOAT_EQ(render::exposureTarget(render::LuminanceHistogram{}, rule, 0.75f), 0.75f);
    // A dark frame with a few bright pixels: the bright ones set it, 0.6 / 0.9077305 (the
    // median's 0.03 / 0.0630695 = 0.4757 asks for less).
    render::LuminanceHistogram mixed = uniform(0.05f, 98);
    render::addLuminance(mixed, 0.95f);
    render::addLuminance(mixed, 0.95f);
    EXPECT_NEAR(render::exposureTarget(mixed, rule, 1.0f), 0.6609892f, 1e-5f);
    // All black (bin 0, [0, 1/64]): the bright border 0.98 / 64 asks for 0.6 / 0.0153125 =
    // 39.18, more than the median's 0.03 * 128 = 3.84.
    EXPECT_NEAR(render::exposureTarget(uniform(0.0f), rule, 1.0f), 0.6f / (0.98f / 64.0f), 1e-3f);
}

TEST(AutoExposure, StepTowardTheGoal) {
    // A share rate * seconds of the way, at most all of it.
    EXPECT_FLOAT_EQ(render::exposureStep(1.0f, 2.0f, 1.0f, 0.25f), 1.25f);
    EXPECT_FLOAT_EQ(render::exposureStep(1.0f, 0.5f, 1.0f, 0.1f), 0.95f);
    EXPECT_FLOAT_EQ(render::exposureStep(1.0f, 2.0f, 4.0f, 0.5f), 2.0f);
    EXPECT_EQ(render::exposureStep(1.0f, 2.0f, 0.0f, 0.5f), 1.0f);
    EXPECT_EQ(render::exposureStep(1.0f, 2.0f, 1.0f, 0.0f), 1.0f);

    // A frame of luminance 0.1 at scale 1: the target 4.83 clamped to the maximum 2; a quarter
    // second at rate 1 moves a quarter of the way, twice: 1.25, then 1.4375.
    const game::ToneMapRule rule = defaults();
    render::AutoExposure e;
    e.reset(1.0f);
    e.advance(0.25f, rule);
    EXPECT_EQ(e.scale(), 1.0f); // nothing measured: the goal is where it started
    e.measured(uniform(0.1f), rule);
    EXPECT_EQ(e.goal(), 2.0f);
    e.advance(0.25f, rule);
    EXPECT_FLOAT_EQ(e.scale(), 1.25f);
    e.advance(0.25f, rule);
    EXPECT_FLOAT_EQ(e.scale(), 1.4375f);
    // Luminance 0.9 at scale 1: the goal 0.6622914, half a second at rate 1 halves the way.
    e.reset(1.0f);
    e.measured(uniform(0.9f), rule);
    EXPECT_NEAR(e.goal(), 0.6622914f, 1e-5f);
    e.advance(0.5f, rule);
    EXPECT_NEAR(e.scale(), 0.8311457f, 1e-5f);
    // A controller's range clamps the goal: at least 0.8 here.
    game::ToneMapRule narrow = rule;
    narrow.auto_min = 0.8f;
    e.reset(1.0f);
    e.measured(uniform(0.9f), narrow);
    EXPECT_EQ(e.goal(), 0.8f);
}

TEST(AutoExposure, MovingAverageOfTenGoals) {
    // Five frames at 0.9 (goal 0.6622914 each, the scale held at 1), then five at 0.1 (goal 2).
    // Until ten are in, the goal is the last; then the weights |i - 5| / 5 of the oldest first,
    // 1 .8 .6 .4 .2 0 .2 .4 .6 .8 (sum 5): (0.6622914 * 3 + 2 * 2) / 5 = 1.1973748.
    const game::ToneMapRule rule = defaults();
    render::AutoExposure e;
    e.reset(1.0f);
    for (int i = 0; i < 5; ++i)
        e.measured(uniform(0.9f), rule);
    for (int i = 0; i < 4; ++i)
        e.measured(uniform(0.1f), rule);
    EXPECT_EQ(e.goal(), 2.0f);
    e.measured(uniform(0.1f), rule);
    EXPECT_NEAR(e.goal(), 1.1973748f, 1e-5f);
    // One more 0.1 frame drops the oldest: four 0.9 goals under weights 1 .8 .6 .4 (2.8), six
    // 2s under .2 0 .2 .4 .6 .8 (2.2): (0.6622914 * 2.8 + 2 * 2.2) / 5 = 1.2508832.
    e.measured(uniform(0.1f), rule);
    EXPECT_NEAR(e.goal(), 1.2508832f, 1e-5f);
}

TEST(AutoExposure, MeasuredRegionIsTheClientsCentre) {
    // IssueQuery skips int(width * 0.5 * (1 - 0.9f)) columns and int(height * 0.5 * (1 -
    // 0.85f)) rows each side, in float: 0.85f is a little above 0.85, so 720 rows skip
    // int(53.99999) = 53, not 54.
    EXPECT_EQ(render::exposureRegion(0, 0, 160, 90), (render::PixelRect{8, 6, 144, 78}));
    EXPECT_EQ(render::exposureRegion(10, 20, 1280, 720), (render::PixelRect{74, 73, 1152, 614}));
    EXPECT_EQ(render::exposureRegion(0, 0, 5, 5), (render::PixelRect{0, 0, 5, 5}));
}
