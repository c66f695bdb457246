// The golden test's comparison and difference image (tests/render/golden_diff.h), on small
// pixel buffers.
#include "render/golden_diff.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace {

std::vector<uint8_t> pixels(std::initializer_list<std::array<uint8_t, 4>> list) {
    std::vector<uint8_t> out;
    for (const auto& p : list)
        out.insert(out.end(), p.begin(), p.end());
    return out;
}

} // namespace

TEST(GoldenDiff, ImageIsBlackWhereEqualGreyWhereCloseRedWhereFar) {
    const auto want = pixels({{10, 20, 30, 255},
                              {10, 20, 30, 255},
                              {10, 20, 30, 255},
                              {100, 100, 100, 255},
                              {0, 0, 0, 255}});
    const auto got = pixels({{10, 20, 30, 255},      // equal
                             {12, 17, 30, 255},      // worst channel 3 levels off
                             {10, 20, 54, 0},        // 24 levels: still close; alpha ignored
                             {100, 125, 100, 255},   // 25 levels: far
                             {255, 255, 255, 255}}); // far
    const auto diff = golden::diffImage(got, want);
    EXPECT_EQ(diff, pixels({{0, 0, 0, 255},
                            {24, 24, 24, 255},
                            {192, 192, 192, 255},
                            {255, 0, 0, 255},
                            {255, 0, 0, 255}}));
}

TEST(GoldenDiff, CompareGivesTheMeanAndTheFarFraction) {
    const auto want = pixels({{0, 0, 0, 255}, {0, 0, 0, 255}, {0, 0, 0, 255}, {0, 0, 0, 255}});
    const auto got = pixels({{0, 0, 0, 255}, {3, 3, 3, 0}, {0, 0, 30, 255}, {0, 0, 0, 255}});
    const golden::Difference d = golden::compare(got, want);
    EXPECT_DOUBLE_EQ(d.mean, (3.0 * 3.0 + 30.0) / 12.0);
    EXPECT_DOUBLE_EQ(d.far_fraction, 0.25);
    const golden::Difference same = golden::compare(want, want);
    EXPECT_EQ(same.mean, 0.0);
    EXPECT_EQ(same.far_fraction, 0.0);
}
