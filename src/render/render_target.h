// An offscreen colour + depth target with readback, for --screenshot, --bench and tests.
#pragma once

#include "render/gl.h"

#include <cstdint>
#include <string>
#include <vector>

namespace render {

// RGBA8 pixels of `framebuffer` (0: the window's back buffer) from (0, 0), width x height, top
// row first, as PNG writers and tests want them.
std::vector<uint8_t> readFramebuffer(GLuint framebuffer, int width, int height);

class RenderTarget {
public:
    bool create(int width, int height, std::string* error);
    void bind() const;
    // RGBA8, top row first.
    std::vector<uint8_t> readPixels() const;
    int width() const { return m_width; }
    int height() const { return m_height; }

private:
    Framebuffer m_fbo;
    Renderbuffer m_colour, m_depth;
    int m_width = 0, m_height = 0;
};

} // namespace render
