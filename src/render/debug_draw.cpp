#include "render/debug_draw.h"

#include <algorithm>
#include <cstddef>
#include <glm/gtc/type_ptr.hpp>

namespace render {

bool DebugDraw::init(const GlslLibrary& shaders, std::string* error) {
    m_program =
        shaders.build("debug/lines", "debug_line.vert.glsl", "debug_line.frag.glsl", "", error);
    if (!m_program)
        return false;
    m_view_projection = glGetUniformLocation(m_program.id(), "u_view_projection");
    m_alpha = glGetUniformLocation(m_program.id(), "u_alpha");
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

void DebugDraw::draw(const scene::LineList& lines, const glm::mat4& vp, float occluded_alpha) {
    m_segments = 0;
    if (!m_program || lines.vertices.size() < 2)
        return;
    DebugGroup group("debug lines");
    const size_t count = lines.vertices.size() & ~size_t(1);
    glBindVertexArray(m_vao.id());
    glBindBuffer(GL_ARRAY_BUFFER, m_vbo.id());
    const auto bytes = static_cast<GLsizeiptr>(count * sizeof(scene::LineVertex));
    // Grow geometrically; re-specifying (orphaning) the storage each frame avoids waiting on
    // the previous frame's draw.
    if (count > m_capacity)
        m_capacity = std::max(count, m_capacity * 2);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(m_capacity * sizeof(scene::LineVertex)),
                 nullptr, GL_STREAM_DRAW);
    glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, lines.vertices.data());
    glUseProgram(m_program.id());
    glUniformMatrix4fv(m_view_projection, 1, GL_FALSE, glm::value_ptr(vp));
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDepthMask(GL_FALSE);
    glEnable(GL_DEPTH_TEST);
    if (occluded_alpha > 0.0f) {
        glDepthFunc(GL_GREATER);
        glUniform1f(m_alpha, occluded_alpha);
        glDrawArrays(GL_LINES, 0, static_cast<GLsizei>(count));
    }
    glDepthFunc(GL_LEQUAL);
    glUniform1f(m_alpha, 1.0f);
    glDrawArrays(GL_LINES, 0, static_cast<GLsizei>(count));
    m_segments = static_cast<uint32_t>(count / 2);

    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glUseProgram(0);
}

} // namespace render
