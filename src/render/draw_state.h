// The one place a scene::DrawState (scene/world/draw_state.h) becomes GL state: world batches,
// brush models (through the world's passes), model draw ranges and sprites all draw through
// applyDrawState. It goes through GlState, so a state equal to the last reaches GL not at all.
// Depth function and the culled face stay as the frame set them (GL_LEQUAL, GL_FRONT: the
// meshes wind front faces clockwise); Quake 3 shader stages set their own blending per stage
// (pass_stages.cpp) after the batch's state.
#pragma once

#include "render/gl.h"
#include "render/gl_state.h"
#include "scene/world/draw_state.h"

#include <utility>

namespace render {

// The glBlendFunc factors of a blend (source, destination); Off: (GL_ONE, GL_ZERO).
std::pair<GLenum, GLenum> blendFactors(scene::Blend blend);

// Depth test, depth writes, blending (its factors only when on) and back-face culling of `s`.
// Alpha cut-off and lighting are the shaders' (a program variant or a uniform) and the order is
// the caller's.
void applyDrawState(GlState& state, const scene::DrawState& s);

} // namespace render
