// Batched debug lines and translucent triangles: one streaming vertex buffer and one tiny
// program, two draws per list (the occluded part dim, the visible part bright), so any number
// of boxes, frusta, arrows or portal polygons costs two draw calls.
#pragma once

#include "render/gl.h"
#include "render/gl_state.h"
#include "render/glsl_library.h"
#include "scene/debug/debug_geometry.h"

#include <string>

namespace render {

class DebugDraw {
public:
    // Compiles the line program; false (with *error) when it fails.
    bool init(const GlslLibrary& shaders, std::string* error);
    // Compiles the line program again (shader hot reload); the current one stays when it fails.
    bool reloadProgram(const GlslLibrary& shaders, std::string* error);
    bool ready() const { return static_cast<bool>(m_program); }

    // Draws the segments over what is in the framebuffer, seen through the frame block's view
    // (render::UniformBlocks: the frame drawn before, whose blocks must be bound). Segments
    // behind the scene's depth are drawn at occluded_alpha (0: hidden), the rest at full
    // strength. State goes through `state` (the world renderer's); leaves depth test on, blend
    // off, no program, no VAO.
    void draw(const scene::LineList& lines, GlState& state, float occluded_alpha = 0.3f);
    // Translucent triangles (both sides, blended by their vertex alpha, no depth writes), the
    // occluded part at occluded_alpha as above. Leaves the same state as draw().
    void drawTriangles(const scene::TriangleList& triangles, GlState& state,
                       float occluded_alpha = 0.0f);

    // Of the last draw() (segments) and drawTriangles() (triangles).
    uint32_t segmentsDrawn() const { return m_segments; }
    uint32_t trianglesDrawn() const { return m_triangles; }

private:
    // Uploads `count` vertices and draws them as `mode` in the two depth passes; returns
    // false (nothing drawn) when there is no program.
    bool drawVertices(GLenum mode, const scene::LineVertex* vertices, size_t count, GlState& state,
                      float occluded_alpha);

    Program m_program;
    VertexArray m_vao;
    Buffer m_vbo;
    size_t m_capacity = 0; // vertices the buffer holds
    GLint m_alpha = -1;
    uint32_t m_segments = 0, m_triangles = 0;
};

} // namespace render
