// A hidden SDL window's GL context for a whole test suite (Mesa llvmpipe under xvfb-run in CI),
// and a check after every test that the KHR_debug callback saw no GL error.
#pragma once

#include "app/window.h"
#include "render/gl.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace gltest {

class GlFixture : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        auto w = app::Window::create("bspview tests", 320, 180, true);
        ASSERT_TRUE(w.ok()) << w.error().message();
        s_window = std::move(*w).release();
    }
    static void TearDownTestSuite() {
        delete s_window;
        s_window = nullptr;
    }
    void SetUp() override {
        ASSERT_NE(s_window, nullptr) << "no GL context (run under xvfb-run)";
        m_errors_before = render::glErrorCount();
    }
    void TearDown() override {
        render::checkGlErrors("test");
        EXPECT_EQ(render::glErrorCount(), m_errors_before) << "GL errors";
    }

    static inline app::Window* s_window = nullptr;
    uint64_t m_errors_before = 0;
};

// RGBA8 pixel at (x, y), top row first.
inline const uint8_t* pixelAt(const std::vector<uint8_t>& rgba, int width, int x, int y) {
    return &rgba[(static_cast<size_t>(y) * static_cast<size_t>(width) + static_cast<size_t>(x)) *
                 4];
}

} // namespace gltest
