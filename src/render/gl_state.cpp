#include "render/gl_state.h"

namespace render {

void GlState::invalidate() {
    m_caps.fill(kUnknown);
    m_blend = {};
    m_depth_mask = m_colour_mask = m_depth_far = kUnknown;
    m_depth_func = m_cull_face = m_polygon_mode = 0;
    m_offset_known = m_program_known = m_vao_known = m_active_known = false;
    m_tex2d_known.fill(false);
    m_tex_array_known.fill(false);
}

void GlState::enable(GLenum cap, bool on) {
    Cap slot = kBlend;
    switch (cap) {
    case GL_BLEND:
        slot = kBlend;
        break;
    case GL_DEPTH_TEST:
        slot = kDepthTest;
        break;
    case GL_CULL_FACE:
        slot = kCullFace;
        break;
    case GL_POLYGON_OFFSET_FILL:
        slot = kOffsetFill;
        break;
    case GL_POLYGON_OFFSET_LINE:
        slot = kOffsetLine;
        break;
    default: // not cached
        on ? glEnable(cap) : glDisable(cap);
        return;
    }
    const int8_t want = on ? 1 : 0;
    if (m_caps[slot] == want)
        return;
    m_caps[slot] = want;
    on ? glEnable(cap) : glDisable(cap);
    ++m_changes;
}

void GlState::blendFuncSeparate(GLenum src, GLenum dst, GLenum src_alpha, GLenum dst_alpha) {
    const std::array<GLenum, 4> want{src, dst, src_alpha, dst_alpha};
    if (m_blend == want)
        return;
    m_blend = want;
    glBlendFuncSeparate(src, dst, src_alpha, dst_alpha);
    ++m_changes;
}

void GlState::depthMask(bool write) {
    const int8_t want = write ? 1 : 0;
    if (m_depth_mask == want)
        return;
    m_depth_mask = want;
    glDepthMask(write ? GL_TRUE : GL_FALSE);
    ++m_changes;
}

void GlState::depthFunc(GLenum func) {
    if (m_depth_func == func)
        return;
    m_depth_func = func;
    glDepthFunc(func);
    ++m_changes;
}

void GlState::depthAtFarPlane(bool on) {
    const int8_t want = on ? 1 : 0;
    if (m_depth_far == want)
        return;
    m_depth_far = want;
    on ? glDepthRange(kFarPlaneDepth, kFarPlaneDepth) : glDepthRange(0.0, 1.0);
    // No near or far clipping while at the far plane (GL 3.2 ARB_depth_clamp): a far plane the
    // map pulls in (Source's farz) cuts the world, not the sky drawn behind it.
    on ? glEnable(GL_DEPTH_CLAMP) : glDisable(GL_DEPTH_CLAMP);
    ++m_changes;
}

void GlState::cullFace(GLenum face) {
    if (m_cull_face == face)
        return;
    m_cull_face = face;
    glCullFace(face);
    ++m_changes;
}

void GlState::colourMask(bool write) {
    const int8_t want = write ? 1 : 0;
    if (m_colour_mask == want)
        return;
    m_colour_mask = want;
    const GLboolean w = write ? GL_TRUE : GL_FALSE;
    glColorMask(w, w, w, w);
    ++m_changes;
}

void GlState::polygonOffset(float factor, float units) {
    if (m_offset_known && m_offset_factor == factor && m_offset_units == units)
        return;
    m_offset_known = true;
    m_offset_factor = factor;
    m_offset_units = units;
    glPolygonOffset(factor, units);
    ++m_changes;
}

void GlState::polygonMode(GLenum mode) {
    if (m_polygon_mode == mode)
        return;
    m_polygon_mode = mode;
    glPolygonMode(GL_FRONT_AND_BACK, mode);
    ++m_changes;
}

void GlState::useProgram(GLuint program) {
    if (m_program_known && m_program == program)
        return;
    m_program_known = true;
    m_program = program;
    glUseProgram(program);
    ++m_changes;
}

void GlState::bindVertexArray(GLuint vao) {
    if (m_vao_known && m_vao == vao)
        return;
    m_vao_known = true;
    m_vao = vao;
    glBindVertexArray(vao);
    ++m_changes;
}

void GlState::activeTexture(GLuint unit) {
    if (m_active_known && m_active_unit == unit)
        return;
    m_active_known = true;
    m_active_unit = unit;
    glActiveTexture(GL_TEXTURE0 + unit);
    ++m_changes;
}

void GlState::bindTexture(GLuint unit, GLenum target, GLuint texture) {
    const bool array = target == GL_TEXTURE_2D_ARRAY;
    if (unit >= kUnits || (target != GL_TEXTURE_2D && !array)) { // not cached
        activeTexture(unit);
        glBindTexture(target, texture);
        return;
    }
    auto& names = array ? m_tex_array : m_tex2d;
    auto& known = array ? m_tex_array_known : m_tex2d_known;
    if (known[unit] && names[unit] == texture)
        return;
    activeTexture(unit);
    known[unit] = true;
    names[unit] = texture;
    glBindTexture(target, texture);
    ++m_changes;
}

void GlState::restoreDefaults() {
    activeTexture(0);
    useProgram(0);
    bindVertexArray(0);
    enable(GL_BLEND, false);
    depthMask(true);
    depthAtFarPlane(false);
}

} // namespace render
