// OpenGL basics: capabilities, move-only object handles, labels, debug output.
// Only the render and app libraries include this (and glad).
#pragma once

#include <glad/gl.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace render {

// Queried once after the context is made current. The 3.3 path and the 4.3+ path are chosen
// from here, not by scattered version checks.
struct GlCaps {
    int major = 0, minor = 0;
    std::string version, renderer, vendor, glsl;
    bool khr_debug = false;
    bool multi_draw_indirect = false; // 4.3+
    bool direct_state_access = false; // 4.5+
    bool texture_s3tc = false;        // EXT_texture_compression_s3tc: DXT images kept compressed
    // A software rasteriser (Mesa's llvmpipe, softpipe and swrast, SwiftShader), from
    // GL_RENDERER: it decodes a compressed texture's block at every fetch.
    bool software = false;
    float max_anisotropy = 1.0f;

    bool atLeast(int ma, int mi) const { return major > ma || (major == ma && minor >= mi); }
};

// Whether a GL_RENDERER string names a software rasteriser (GlCaps::software).
bool isSoftwareRenderer(std::string_view renderer);

// Loads GL entry points through glad with the given loader; false when GL < 3.3.
bool loadGl(GLADloadfunc loader, std::string* error);
const GlCaps& caps();

// Installs a synchronous KHR_debug callback (when available) that logs every message and
// counts errors. Tests assert that glErrorCount() stays zero.
void installDebugOutput();
uint64_t glErrorCount();
// Also drains glGetError() into the count; returns the running total.
uint64_t checkGlErrors(const char* where);

void label(GLenum identifier, GLuint name, const char* text);

// RAII debug group around a pass (shows in RenderDoc/apitrace captures).
class DebugGroup {
public:
    explicit DebugGroup(const char* name);
    ~DebugGroup();
    DebugGroup(const DebugGroup&) = delete;
    DebugGroup& operator=(const DebugGroup&) = delete;
};

// Move-only owner of one GL object name.
template <void (*Delete)(GLuint)> class GlHandle {
public:
    GlHandle() = default;
    explicit GlHandle(GLuint id) : m_id(id) {}
    ~GlHandle() { reset(); }
    GlHandle(GlHandle&& o) noexcept : m_id(std::exchange(o.m_id, 0)) {}
    GlHandle& operator=(GlHandle&& o) noexcept {
        if (this != &o) {
            reset();
            m_id = std::exchange(o.m_id, 0);
        }
        return *this;
    }
    GlHandle(const GlHandle&) = delete;
    GlHandle& operator=(const GlHandle&) = delete;

    GLuint id() const { return m_id; }
    explicit operator bool() const { return m_id != 0; }
    void reset() {
        if (m_id)
            Delete(m_id);
        m_id = 0;
    }

private:
    GLuint m_id = 0;
};

void deleteBuffer(GLuint id);
void deleteTexture(GLuint id);
void deleteVertexArray(GLuint id);
void deleteProgram(GLuint id);
void deleteFramebuffer(GLuint id);
void deleteRenderbuffer(GLuint id);

using Buffer = GlHandle<deleteBuffer>;
using Texture = GlHandle<deleteTexture>;
using VertexArray = GlHandle<deleteVertexArray>;
using Program = GlHandle<deleteProgram>;
using Framebuffer = GlHandle<deleteFramebuffer>;
using Renderbuffer = GlHandle<deleteRenderbuffer>;

Buffer makeBuffer(const char* label_text);
Texture makeTexture(GLenum target, const char* label_text);
VertexArray makeVertexArray(const char* label_text);

} // namespace render
