// The display ramp: ioquake3 (renderergl1 with r_overBrightBits 1, in fullscreen) draws every
// surface at tr.identityLight 1/2 and lets the video card's gamma table double the finished
// frame (tr_image.c R_SetColorMappings: s_gammatable[i] = min(255, i << tr.overbrightBits),
// handed to GLimp_SetGamma), so between stages the 8-bit framebuffer holds half the shown
// value and a sum of stages clamps at what is shown as 2. Where the map asks for that
// (Frame::frame_scale 1/2) the passes draw those halved values into the bound framebuffer,
// whose 8 bits round as ioquake3's do, and this pass doubles it once, in place.
#include "render/frame.h"

namespace render {

void drawDisplayRamp(Frame& f) {
    if (f.frame_scale == 1.0f)
        return;
    const DisplayRampProgram* p = f.programs.displayRamp();
    if (!p)
        return;
    DebugGroup group("display ramp");
    GlState& s = f.state;
    s.useProgram(p->program.id());
    s.bindVertexArray(p->vao.id()); // the flares may have left none bound
    s.enable(GL_DEPTH_TEST, false);
    s.enable(GL_CULL_FACE, false);
    s.enable(GL_POLYGON_OFFSET_FILL, false);
    s.polygonMode(GL_FILL);
    s.depthMask(false);
    s.colourMask(true);
    // frame * 1 + frame: the framebuffer's unorm clamp is the table's min(255, 2 i); alpha is
    // 0 * a + a.
    s.enable(GL_BLEND, true);
    s.blendFunc(GL_DST_COLOR, GL_ONE);
    glDrawArrays(GL_TRIANGLES, 0, 3);
}

} // namespace render
