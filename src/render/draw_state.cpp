#include "render/draw_state.h"

namespace render {

std::pair<GLenum, GLenum> blendFactors(scene::Blend blend) {
    switch (blend) {
    case scene::Blend::Off:
        break;
    case scene::Blend::Alpha:
        return {GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA};
    case scene::Blend::AlphaAdd:
        return {GL_SRC_ALPHA, GL_ONE};
    case scene::Blend::Add:
        return {GL_ONE, GL_ONE};
    }
    return {GL_ONE, GL_ZERO};
}

void applyDrawState(GlState& state, const scene::DrawState& s) {
    state.enable(GL_DEPTH_TEST, s.depth_test);
    state.depthMask(s.depth_write);
    // At the far plane: the first layer over a pixel is drawn, the ones after it fail "less".
    state.depthAtFarPlane(s.at_far_plane);
    state.depthFunc(s.at_far_plane ? GL_LESS : GL_LEQUAL);
    const bool blended = s.blend != scene::Blend::Off;
    state.enable(GL_BLEND, blended);
    if (blended) {
        const auto [src, dst] = blendFactors(s.blend);
        state.blendFunc(src, dst);
    }
    state.cullBackFaces(s.cull);
}

} // namespace render
