#include "render/debug_draw.h"

#include <algorithm>
#include <cstddef>

namespace render {

bool DebugDraw::reloadProgram(const GlslLibrary& shaders, std::string* error) {
    Program program =
        shaders.build("debug/lines", "debug_line.vert.glsl", "debug_line.frag.glsl", "", error);
    if (!program)
        return false;
    m_program = std::move(program);
    m_alpha = glGetUniformLocation(m_program.id(), "u_alpha");
    return true;
}

bool DebugDraw::init(const GlslLibrary& shaders, std::string* error) {
    if (!reloadProgram(shaders, error))
        return false;
    m_vao = makeVertexArray("debug/lines/vao");
    m_vbo = makeBuffer("debug/lines/vertices");
    glBindVertexArray(m_vao.id());
    glBindBuffer(GL_ARRAY_BUFFER, m_vbo.id());
    const GLsizei stride = sizeof(scene::LineVertex);
    glEnableVertexAttribArray(kAttribPosition);
    glVertexAttribPointer(kAttribPosition, 3, GL_FLOAT, GL_FALSE, stride,
                          reinterpret_cast<const void*>(offsetof(scene::LineVertex, position)));
    glEnableVertexAttribArray(kAttribColour);
    glVertexAttribPointer(kAttribColour, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride,
                          reinterpret_cast<const void*>(offsetof(scene::LineVertex, colour)));
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    return true;
}

void DebugDraw::draw(const scene::LineList& lines, GlState& state, float occluded_alpha) {
    m_segments = 0;
    const size_t count = lines.vertices.size() & ~size_t(1);
    if (count < 2)
        return;
    DebugGroup group("debug lines");
    if (drawVertices(GL_LINES, lines.vertices.data(), count, state, occluded_alpha))
        m_segments = static_cast<uint32_t>(count / 2);
}

void DebugDraw::drawTriangles(const scene::TriangleList& triangles, GlState& state,
                              float occluded_alpha) {
    m_triangles = 0;
    const size_t count = triangles.vertices.size() / 3 * 3;
    if (count < 3)
        return;
    DebugGroup group("debug triangles");
    state.enable(GL_CULL_FACE, false); // portals and ribbons are seen from both sides
    if (drawVertices(GL_TRIANGLES, triangles.vertices.data(), count, state, occluded_alpha))
        m_triangles = static_cast<uint32_t>(count / 3);
}

bool DebugDraw::drawVertices(GLenum mode, const scene::LineVertex* vertices, size_t count,
                             GlState& state, float occluded_alpha) {
    if (!m_program)
        return false;
    state.bindVertexArray(m_vao.id());
    glBindBuffer(GL_ARRAY_BUFFER, m_vbo.id());
    const auto bytes = static_cast<GLsizeiptr>(count * sizeof(scene::LineVertex));
    // Grow geometrically; re-specifying (orphaning) the storage each draw avoids waiting on
    // the previous one.
    if (count > m_capacity)
        m_capacity = std::max(count, m_capacity * 2);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(m_capacity * sizeof(scene::LineVertex)),
                 nullptr, GL_STREAM_DRAW);
    glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, vertices);
    state.useProgram(m_program.id());
    state.enable(GL_BLEND, true);
    state.blendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    state.depthMask(false);
    state.enable(GL_DEPTH_TEST, true);
    if (occluded_alpha > 0.0f) {
        state.depthFunc(GL_GREATER);
        glUniform1f(m_alpha, occluded_alpha);
        glDrawArrays(mode, 0, static_cast<GLsizei>(count));
    }
    state.depthFunc(GL_LEQUAL);
    glUniform1f(m_alpha, 1.0f);
    glDrawArrays(mode, 0, static_cast<GLsizei>(count));

    state.depthMask(true);
    state.enable(GL_BLEND, false);
    state.bindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    state.useProgram(0);
    return true;
}

} // namespace render
