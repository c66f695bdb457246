// A hidden SDL window's GL context for a whole test suite (Mesa llvmpipe under xvfb-run in CI),
// and a check after every test that the KHR_debug callback saw no GL error. The context is made
// here, not through app::Window, so that the render tests do not link the app library; it asks
// for what app::Window asks for (3.3 core, forward compatible, a debug context in debug builds,
// 24-bit depth) and, with no display server, takes SDL's offscreen driver as it does.
#pragma once

#include "render/gl.h"

#include <SDL.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace gltest {

// A hidden window and its current GL context with GL loaded; destroyed with the object.
class GlContext {
public:
    GlContext(const GlContext&) = delete;
    GlContext& operator=(const GlContext&) = delete;
    ~GlContext() {
        if (m_context)
            SDL_GL_DeleteContext(m_context);
        if (m_window)
            SDL_DestroyWindow(m_window);
        SDL_QuitSubSystem(SDL_INIT_VIDEO);
    }
    // nullptr with *error set when no context can be made.
    static GlContext* create(std::string* error) {
        const auto unset = [](const char* name) {
            const char* value = SDL_getenv(name);
            return !value || !*value;
        };
        if (unset("SDL_VIDEODRIVER") && unset("DISPLAY") && unset("WAYLAND_DISPLAY"))
            SDL_SetHint(SDL_HINT_VIDEODRIVER, "offscreen");
        auto* c = new GlContext();
        if (SDL_InitSubSystem(SDL_INIT_VIDEO) != 0)
            return c->fail("SDL video", error);
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, SDL_GL_CONTEXT_FORWARD_COMPATIBLE_FLAG
#ifndef NDEBUG
                                                      | SDL_GL_CONTEXT_DEBUG_FLAG
#endif
        );
        SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
        SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
        c->m_window =
            SDL_CreateWindow("bspview tests", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, 64,
                             64, SDL_WINDOW_OPENGL | SDL_WINDOW_HIDDEN);
        if (!c->m_window)
            return c->fail("window", error);
        c->m_context = SDL_GL_CreateContext(c->m_window);
        if (!c->m_context)
            return c->fail("OpenGL 3.3 core context", error);
        SDL_GL_MakeCurrent(c->m_window, c->m_context);
        if (!render::loadGl(reinterpret_cast<GLADloadfunc>(SDL_GL_GetProcAddress), error)) {
            delete c;
            return nullptr;
        }
        render::installDebugOutput();
        return c;
    }

private:
    GlContext() = default;
    GlContext* fail(const char* what, std::string* error) {
        *error = std::string(what) + ": " + SDL_GetError();
        delete this;
        return nullptr;
    }
    SDL_Window* m_window = nullptr;
    SDL_GLContext m_context = nullptr;
};

class GlFixture : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        std::string error;
        s_window = GlContext::create(&error);
        ASSERT_NE(s_window, nullptr) << error;
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

    static inline GlContext* s_window = nullptr;
    uint64_t m_errors_before = 0;
};

// RGBA8 pixel at (x, y), top row first.
inline const uint8_t* pixelAt(const std::vector<uint8_t>& rgba, int width, int x, int y) {
    return &rgba[(static_cast<size_t>(y) * static_cast<size_t>(width) + static_cast<size_t>(x)) *
                 4];
}

} // namespace gltest
