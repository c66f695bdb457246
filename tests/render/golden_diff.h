// Comparison of a render with its golden image, GL-free (golden_test.cpp, and unit-tested in
// tests/unit/golden_diff_test.cpp): the tolerance figures and the difference image written
// next to the actual render when a comparison fails.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

namespace golden {

// A pixel is "far" when some colour channel differs by more than this many levels.
inline constexpr int kFarLevels = 24;

// Largest absolute difference over the colour channels (alpha is ignored) of pixel `i` of two
// RGBA8 buffers.
inline int worstChannel(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b, size_t i) {
    int worst = 0;
    for (size_t k = 0; k < 3; ++k)
        worst = std::max(worst, std::abs(int(a[i * 4 + k]) - int(b[i * 4 + k])));
    return worst;
}

struct Difference {
    double mean = 0.0;         // mean absolute difference per colour channel, in levels
    double far_fraction = 0.0; // fraction of the pixels off by more than kFarLevels
};

// `got` and `want` are RGBA8 buffers of the same size.
inline Difference compare(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want) {
    Difference d;
    const size_t pixels = std::min(got.size(), want.size()) / 4;
    if (pixels == 0)
        return d;
    double total = 0.0;
    size_t far = 0;
    for (size_t i = 0; i < pixels; ++i) {
        for (size_t k = 0; k < 3; ++k)
            total += std::abs(int(got[i * 4 + k]) - int(want[i * 4 + k]));
        far += worstChannel(got, want, i) > kFarLevels ? 1 : 0;
    }
    d.mean = total / (static_cast<double>(pixels) * 3.0);
    d.far_fraction = static_cast<double>(far) / static_cast<double>(pixels);
    return d;
}

// A picture of where two RGBA8 buffers of the same size differ, as opaque RGBA8: pure red where
// a pixel is off by more than kFarLevels, else grey at 8 times its worst channel difference
// (black: equal; small rounding differences stay visible).
inline std::vector<uint8_t> diffImage(const std::vector<uint8_t>& got,
                                      const std::vector<uint8_t>& want) {
    const size_t pixels = std::min(got.size(), want.size()) / 4;
    std::vector<uint8_t> out(pixels * 4, 255);
    for (size_t i = 0; i < pixels; ++i) {
        const int worst = worstChannel(got, want, i);
        uint8_t* p = &out[i * 4];
        if (worst > kFarLevels) {
            p[0] = 255;
            p[1] = p[2] = 0;
        } else {
            p[0] = p[1] = p[2] = static_cast<uint8_t>(std::min(255, worst * 8));
        }
    }
    return out;
}

} // namespace golden
