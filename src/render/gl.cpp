#include "render/gl.h"

#include "core/log.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>

namespace render {

namespace {
GlCaps g_caps;
std::atomic<uint64_t> g_errors{0};

const char* str(GLenum name) {
    const GLubyte* s = glGetString(name);
    return s ? reinterpret_cast<const char*>(s) : "";
}

void GLAPIENTRY debugCallback(GLenum source, GLenum type, GLuint id, GLenum severity,
                              GLsizei length, const GLchar* message, const void* user) {
    (void)source;
    (void)id;
    (void)user;
    if (severity == GL_DEBUG_SEVERITY_NOTIFICATION)
        return;
    const std::string text(message,
                           length > 0 ? static_cast<size_t>(length) : std::strlen(message));
    if (type == GL_DEBUG_TYPE_ERROR) {
        ++g_errors;
        core::logError("GL: " + text);
    } else if (type != GL_DEBUG_TYPE_PUSH_GROUP && type != GL_DEBUG_TYPE_POP_GROUP) {
        core::log(core::LogLevel::Debug, "GL: " + text);
    }
}
} // namespace

bool isSoftwareRenderer(std::string_view renderer) {
    for (const std::string_view name : {"llvmpipe", "softpipe", "swrast", "SwiftShader"})
        if (renderer.find(name) != std::string_view::npos)
            return true;
    return false;
}

bool loadGl(GLADloadfunc loader, std::string* error) {
    const int version = gladLoadGL(loader);
    if (!version) {
        if (error)
            *error = "cannot load OpenGL entry points";
        return false;
    }
    g_caps = GlCaps();
    g_caps.major = GLAD_VERSION_MAJOR(version);
    g_caps.minor = GLAD_VERSION_MINOR(version);
    g_caps.version = str(GL_VERSION);
    g_caps.renderer = str(GL_RENDERER);
    g_caps.vendor = str(GL_VENDOR);
    g_caps.glsl = str(GL_SHADING_LANGUAGE_VERSION);
    if (!g_caps.atLeast(3, 3)) {
        if (error)
            *error = "OpenGL 3.3 or newer is required; this context offers " + g_caps.version +
                     " (" + g_caps.renderer + ")";
        return false;
    }
    g_caps.khr_debug = GLAD_GL_KHR_debug || g_caps.atLeast(4, 3);
    g_caps.multi_draw_indirect = g_caps.atLeast(4, 3);
    g_caps.direct_state_access = g_caps.atLeast(4, 5);
    g_caps.texture_s3tc = GLAD_GL_EXT_texture_compression_s3tc != 0;
    g_caps.software = isSoftwareRenderer(g_caps.renderer);
    if (GLAD_GL_EXT_texture_filter_anisotropic || GLAD_GL_ARB_texture_filter_anisotropic)
        glGetFloatv(GL_MAX_TEXTURE_MAX_ANISOTROPY_EXT, &g_caps.max_anisotropy);
    return true;
}

const GlCaps& caps() {
    return g_caps;
}

void installDebugOutput() {
    if (!g_caps.khr_debug || !glDebugMessageCallback)
        return;
    glEnable(GL_DEBUG_OUTPUT);
    glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
    glDebugMessageCallback(debugCallback, nullptr);
}

uint64_t glErrorCount() {
    return g_errors.load();
}

uint64_t checkGlErrors(const char* where) {
    for (GLenum e = glGetError(); e != GL_NO_ERROR; e = glGetError()) {
        ++g_errors;
        core::logError(std::string("GL error 0x") + std::to_string(e) + " at " + where);
    }
    return g_errors.load();
}

void label(GLenum identifier, GLuint name, const char* text) {
    if (!g_caps.khr_debug || !glObjectLabel || !name || !text)
        return;
    // Longer labels are an error (GL_MAX_LABEL_LENGTH, 256 at least): keep the start.
    GLint max_length = 0;
    glGetIntegerv(GL_MAX_LABEL_LENGTH, &max_length);
    const size_t length = std::strlen(text);
    const GLsizei n = static_cast<GLsizei>(
        std::min<size_t>(length, max_length > 1 ? static_cast<size_t>(max_length - 1) : 0));
    glObjectLabel(identifier, name, n, text);
}

DebugGroup::DebugGroup(const char* name) {
    if (g_caps.khr_debug && glPushDebugGroup)
        glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 0, -1, name);
}

DebugGroup::~DebugGroup() {
    if (g_caps.khr_debug && glPopDebugGroup)
        glPopDebugGroup();
}

void deleteBuffer(GLuint id) {
    glDeleteBuffers(1, &id);
}
void deleteTexture(GLuint id) {
    glDeleteTextures(1, &id);
}
void deleteVertexArray(GLuint id) {
    glDeleteVertexArrays(1, &id);
}
void deleteProgram(GLuint id) {
    glDeleteProgram(id);
}
void deleteFramebuffer(GLuint id) {
    glDeleteFramebuffers(1, &id);
}
void deleteRenderbuffer(GLuint id) {
    glDeleteRenderbuffers(1, &id);
}

Buffer makeBuffer(const char* label_text) {
    GLuint id = 0;
    glGenBuffers(1, &id);
    // A buffer has no object until first bound; bind so the label attaches.
    glBindBuffer(GL_ARRAY_BUFFER, id);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    label(GL_BUFFER, id, label_text);
    return Buffer(id);
}

Texture makeTexture(GLenum target, const char* label_text) {
    GLuint id = 0;
    glGenTextures(1, &id);
    glBindTexture(target, id);
    label(GL_TEXTURE, id, label_text);
    return Texture(id);
}

VertexArray makeVertexArray(const char* label_text) {
    GLuint id = 0;
    glGenVertexArrays(1, &id);
    glBindVertexArray(id);
    label(GL_VERTEX_ARRAY, id, label_text);
    glBindVertexArray(0);
    return VertexArray(id);
}

} // namespace render
