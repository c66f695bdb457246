// One render against its golden image in tests/golden/<name>.png (golden_test.cpp says how the
// images are made and why the tolerance is what it is): BSPV_UPDATE_GOLDEN=1 rewrites the image
// first; a failing comparison writes <name>.actual.png and <name>.diff.png into
// BSPV_GOLDEN_OUT_DIR and names them in the failure. For the GL tests that define
// BSPV_SOURCE_DIR and BSPV_GOLDEN_OUT_DIR (test_golden).
#pragma once

#include "content/image/image.h"
#include "core/file.h"
#include "golden_diff.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

namespace golden {

inline void expectMatchesGolden(const std::string& name, const content::Image& got) {
    const std::filesystem::path golden =
        std::filesystem::path(BSPV_SOURCE_DIR) / "tests/golden" / (name + ".png");
    if (const char* update = std::getenv("BSPV_UPDATE_GOLDEN"); update && *update == '1') {
        ASSERT_TRUE(content::writePng(golden, got)) << golden;
        std::printf("golden image written: %s\n", golden.string().c_str());
    }
    auto bytes = core::readFile(golden);
    ASSERT_TRUE(bytes.ok()) << "missing golden image " << golden;
    auto want = content::decodeImage(*bytes, golden.string());
    ASSERT_TRUE(want.ok()) << want.error().message();
    ASSERT_EQ(want->width, got.width);
    ASSERT_EQ(want->height, got.height);

    const Difference d = compare(got.rgba, want->rgba);
    if (d.mean < 1.5 && d.far_fraction < 0.01)
        return;
    // This render and where it differs, in the build tree (tests/golden stays clean).
    const std::filesystem::path dir = BSPV_GOLDEN_OUT_DIR;
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    const std::filesystem::path actual = dir / (name + ".actual.png");
    const std::filesystem::path diff = dir / (name + ".diff.png");
    content::Image diff_image;
    diff_image.width = got.width;
    diff_image.height = got.height;
    diff_image.rgba = diffImage(got.rgba, want->rgba);
    const bool written = content::writePng(actual, got) && content::writePng(diff, diff_image);
    ADD_FAILURE() << name << ": mean difference " << d.mean << ", " << d.far_fraction * 100.0
                  << "% of pixels off by more than " << kFarLevels << "; expected: " << golden
                  << ", actual: " << actual << ", difference: " << diff
                  << (written ? "" : " (could not write them)");
}

} // namespace golden
