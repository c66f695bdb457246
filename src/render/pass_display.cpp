// The display ramp: ioquake3 (renderergl1 with r_overBrightBits 1, in fullscreen) draws every
// surface at tr.identityLight 1/2 and lets the video card's gamma table double the finished
// frame (tr_image.c R_SetColorMappings: s_gammatable[i] = min(255, i << tr.overbrightBits),
// handed to GLimp_SetGamma), so between stages the 8-bit framebuffer holds half the shown
// value and a sum of stages clamps at what is shown as 2. Where the map asks for that
// (Frame::frame_scale 1/2) the passes draw those halved values into the bound framebuffer,
// whose 8 bits round as ioquake3's do, and this pass doubles it once, in place.
#include "render/frame.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace render {

namespace {

// A full-screen program made current with the state every pass here wants: no depth test or
// writes, no culling or polygon offset, filled, colour written; blending is the caller's.
void useFullScreen(GlState& s, GLuint program, GLuint vao) {
    s.useProgram(program);
    s.bindVertexArray(vao); // the flares may have left none bound
    s.enable(GL_DEPTH_TEST, false);
    s.enable(GL_CULL_FACE, false);
    s.enable(GL_POLYGON_OFFSET_FILL, false);
    s.polygonMode(GL_FILL);
    s.depthMask(false);
    s.colourMask(true);
}

// The bound framebuffer's viewport (the window's back buffer or an offscreen target) copied into
// `copy` on kUnitTexture, made or resized here to the viewport (*copy_w x *copy_h) and sampled
// with `filter`, clamped to its edges. False for an empty viewport.
bool copyViewport(GlState& s, Texture& copy, int* copy_w, int* copy_h, GLint filter,
                  const char* label, std::array<GLint, 4>& vp) {
    glGetIntegerv(GL_VIEWPORT, vp.data());
    if (vp[2] <= 0 || vp[3] <= 0)
        return false;
    if (!copy)
        copy = makeTexture(GL_TEXTURE_2D, label);
    s.bindTexture(kUnitTexture, GL_TEXTURE_2D, copy.id());
    if (*copy_w != vp[2] || *copy_h != vp[3]) {
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, vp[2], vp[3], 0, GL_RGBA, GL_UNSIGNED_BYTE,
                     nullptr);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, filter);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, filter);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
        *copy_w = vp[2];
        *copy_h = vp[3];
    }
    glCopyTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, vp[0], vp[1], vp[2], vp[3]);
    return true;
}

} // namespace

void drawDisplayRamp(Frame& f) {
    if (f.frame_scale == 1.0f)
        return;
    const DisplayRampProgram* p = f.programs.displayRamp();
    if (!p)
        return;
    DebugGroup group("display ramp");
    GlState& s = f.state;
    useFullScreen(s, p->program.id(), p->vao.id());
    // frame * 1 + frame: the framebuffer's unorm clamp is the table's min(255, 2 i); alpha is
    // 0 * a + a.
    s.enable(GL_BLEND, true);
    s.blendFunc(GL_DST_COLOR, GL_ONE);
    glDrawArrays(GL_TRIANGLES, 0, 3);
}

// The display ramp's program writes (1, 1, 1, 0); the constant colour (rgb * a, a) turns the
// blend into frame * (1 - a) + rgb * a, the polygon QuakeSpasm's V_PolyBlend and yquake2's
// R_PolyBlend / GL3_Draw_Flash draw with (GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA); the frame's
// alpha is kept.
void drawViewBlend(Frame& f, const glm::vec4& blend) {
    if (!(blend.a > 0.0f))
        return;
    const DisplayRampProgram* p = f.programs.displayRamp();
    if (!p)
        return;
    DebugGroup group("view blend");
    GlState& s = f.state;
    useFullScreen(s, p->program.id(), p->vao.id());
    s.enable(GL_BLEND, true);
    const float a = std::clamp(blend.a, 0.0f, 1.0f);
    glBlendColor(blend.r * a, blend.g * a, blend.b * a, a);
    s.blendFuncSeparate(GL_CONSTANT_COLOR, GL_ONE_MINUS_CONSTANT_ALPHA, GL_ZERO, GL_ONE);
    glDrawArrays(GL_TRIANGLES, 0, 3);
}

void drawScreenWarp(Frame& f, const glm::vec3& warp, FrameCopy& copy) {
    if (!(warp.x > 0.0f))
        return;
    const ScreenWarpProgram* p = f.programs.screenWarp();
    if (!p)
        return;
    DebugGroup group("screen warp");
    GlState& s = f.state;
    std::array<GLint, 4> vp{};
    if (!copyViewport(s, copy.texture, &copy.width, &copy.height, GL_LINEAR,
                      "screen warp/frame copy", vp))
        return;
    useFullScreen(s, p->program.id(), p->vao.id());
    glUniform2i(p->origin, vp[0], vp[1]);
    glUniform2f(p->size, static_cast<float>(vp[2]), static_cast<float>(vp[3]));
    glUniform3f(p->warp, warp.x, warp.y, warp.z);
    s.enable(GL_BLEND, false);
    glDrawArrays(GL_TRIANGLES, 0, 3);
}

void drawPicture(Frame& f, FrameCopy& copy) {
    const PictureAdjust& pic = f.options.picture;
    // The lightmap view scales its light by the exposure before the clamp (mapBlock).
    const float exposure = f.options.view == ViewMode::Lightmap ? 0.0f : pic.exposure;
    if (exposure == 0.0f && pic.gamma == 1.0f && pic.brightness == 0.0f)
        return;
    const PictureProgram* p = f.programs.picture();
    if (!p)
        return;
    DebugGroup group("picture");
    GlState& s = f.state;
    std::array<GLint, 4> vp{};
    if (!copyViewport(s, copy.texture, &copy.width, &copy.height, GL_NEAREST, "picture/frame copy",
                      vp))
        return;
    useFullScreen(s, p->program.id(), p->vao.id());
    glUniform2i(p->origin, vp[0], vp[1]);
    glUniform1f(p->exposure_scale, std::exp2(exposure));
    glUniform1f(p->inverse_gamma, 1.0f / std::max(pic.gamma, 0.05f));
    glUniform1f(p->brightness, pic.brightness);
    s.enable(GL_BLEND, false);
    glDrawArrays(GL_TRIANGLES, 0, 3);
}

} // namespace render
