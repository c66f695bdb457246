#include "render/exposure_meter.h"

#include <cstdint>

namespace render {

namespace {

constexpr size_t kSampleBytes = size_t{kExposureGrid} * kExposureGrid * 4;

} // namespace

PixelRect exposureRegion(int x, int y, int width, int height) {
    // The skipped edges as IssueQuery works them out: (1 + last - first) pixels times
    // 0.5 * (1 - region), truncated to an int.
    const int skip_x = static_cast<int>(static_cast<float>(width) * (0.5f * (1.0f - 0.9f)));
    const int skip_y = static_cast<int>(static_cast<float>(height) * (0.5f * (1.0f - 0.85f)));
    return {x + skip_x, y + skip_y, width - 2 * skip_x, height - 2 * skip_y};
}

ExposureMeter::~ExposureMeter() {
    reset();
}

void ExposureMeter::reset() {
    if (m_fence)
        glDeleteSync(m_fence);
    m_fence = nullptr;
}

bool ExposureMeter::create() {
    if (m_fbo)
        return true;
    GLuint fbo = 0, rb = 0;
    glGenFramebuffers(1, &fbo);
    glGenRenderbuffers(1, &rb);
    m_fbo = Framebuffer(fbo);
    m_colour = Renderbuffer(rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, kExposureGrid, kExposureGrid);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    label(GL_FRAMEBUFFER, fbo, "exposure/samples");
    m_pixels = makeBuffer("exposure/readback");
    glBindBuffer(GL_PIXEL_PACK_BUFFER, m_pixels.id());
    glBufferData(GL_PIXEL_PACK_BUFFER, static_cast<GLsizeiptr>(kSampleBytes), nullptr,
                 GL_STREAM_READ);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    return glCheckFramebufferStatus(GL_DRAW_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
}

void ExposureMeter::capture() {
    GLint draw_fb = 0, read_fb = 0, vp[4] = {0, 0, 0, 0};
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw_fb);
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read_fb);
    glGetIntegerv(GL_VIEWPORT, vp);
    const PixelRect r = exposureRegion(vp[0], vp[1], vp[2], vp[3]);
    if (r.width <= 0 || r.height <= 0)
        return;
    DebugGroup group("exposure samples");
    reset();
    const bool made = create();
    const GLboolean scissor = glIsEnabled(GL_SCISSOR_TEST);
    if (made) {
        glDisable(GL_SCISSOR_TEST);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(draw_fb));
        if (draw_fb == 0)
            glReadBuffer(GL_BACK);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, m_fbo.id());
        glBlitFramebuffer(r.x, r.y, r.x + r.width, r.y + r.height, 0, 0, kExposureGrid,
                          kExposureGrid, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, m_fbo.id());
        glBindBuffer(GL_PIXEL_PACK_BUFFER, m_pixels.id());
        glPixelStorei(GL_PACK_ALIGNMENT, 4);
        glReadPixels(0, 0, kExposureGrid, kExposureGrid, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
        glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
        m_fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    }
    if (scissor)
        glEnable(GL_SCISSOR_TEST);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(draw_fb));
    glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(read_fb));
}

std::optional<LuminanceHistogram> ExposureMeter::poll() {
    if (!m_fence)
        return std::nullopt;
    const GLenum status = glClientWaitSync(m_fence, 0, 0);
    if (status != GL_ALREADY_SIGNALED && status != GL_CONDITION_SATISFIED)
        return std::nullopt;
    reset();
    glBindBuffer(GL_PIXEL_PACK_BUFFER, m_pixels.id());
    const auto* px = static_cast<const uint8_t*>(glMapBufferRange(
        GL_PIXEL_PACK_BUFFER, 0, static_cast<GLsizeiptr>(kSampleBytes), GL_MAP_READ_BIT));
    std::optional<LuminanceHistogram> h;
    if (px) {
        h.emplace();
        for (size_t i = 0; i < kSampleBytes; i += 4)
            addLuminance(*h,
                         pixelLuminance(px[i] / 255.0f, px[i + 1] / 255.0f, px[i + 2] / 255.0f));
        glUnmapBuffer(GL_PIXEL_PACK_BUFFER);
    }
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    return h;
}

} // namespace render
