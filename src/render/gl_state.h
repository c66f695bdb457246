// The GL state the world passes set, kept in one place (as ironwail's GL_SetState and imgui's GL
// backend do): every pass asks for the state it needs, and only changes reach GL. What it has
// not been told is unknown, so the first request after invalidate() always reaches GL; call
// invalidate() after code that changes state behind its back (the flare renderer, ImGui) and
// at the start of each frame, since object names may have been deleted and reused.
#pragma once

#include "render/gl.h"

#include <array>
#include <cstdint>

namespace render {

// The window depth of a fragment drawn at the far plane (GlState::depthAtFarPlane): just short of
// the cleared 1.0, so the first such fragment over a pixel passes a "less" test and writes it,
// and those after it fail before shading; 16 steps of a 24-bit depth buffer below 1.
inline constexpr double kFarPlaneDepth = 1.0 - 1.0 / double(1 << 20);

class GlState {
public:
    GlState() { invalidate(); }

    void invalidate();

    // The capabilities the passes switch: GL_BLEND, GL_DEPTH_TEST, GL_CULL_FACE,
    // GL_POLYGON_OFFSET_FILL, GL_POLYGON_OFFSET_LINE.
    void enable(GLenum cap, bool on);
    void blendFunc(GLenum src, GLenum dst) { blendFuncSeparate(src, dst, src, dst); }
    void blendFuncSeparate(GLenum src, GLenum dst, GLenum src_alpha, GLenum dst_alpha);
    void depthMask(bool write);
    void depthFunc(GLenum func);
    // The window depth range: [0, 1], or every fragment at `kFarPlaneDepth` with depth clamping
    // on, so that nothing is clipped by the near or far plane (scene::DrawState at_far_plane).
    void depthAtFarPlane(bool on);
    void cullFace(GLenum face);
    // Face culling on (back faces of the meshes' clockwise winding: GL_FRONT) or off.
    void cullBackFaces(bool on) {
        enable(GL_CULL_FACE, on);
        if (on)
            cullFace(GL_FRONT);
    }
    void colourMask(bool write);
    void polygonOffset(float factor, float units);
    void polygonMode(GLenum mode);
    void useProgram(GLuint program);
    void bindVertexArray(GLuint vao);
    // GL_TEXTURE_2D or GL_TEXTURE_2D_ARRAY on a texture unit (render/glsl_library.h units).
    void bindTexture(GLuint unit, GLenum target, GLuint texture);
    void activeTexture(GLuint unit);

    // The state the code outside the world passes expects: unit 0 active, no program or vertex
    // array bound, blending off, depth writes on.
    void restoreDefaults();

    // State changes that reached GL since construction, for tests.
    uint64_t changes() const { return m_changes; }

private:
    enum Cap { kBlend, kDepthTest, kCullFace, kOffsetFill, kOffsetLine, kNumCaps };
    static constexpr int kUnits = 16;
    static constexpr int8_t kUnknown = -1;
    std::array<int8_t, kNumCaps> m_caps{};
    std::array<GLenum, 4> m_blend{}; // source, destination, source alpha, destination alpha
    int8_t m_depth_mask = kUnknown, m_colour_mask = kUnknown, m_depth_far = kUnknown;
    GLenum m_depth_func = 0, m_cull_face = 0, m_polygon_mode = 0;
    float m_offset_factor = 0.0f, m_offset_units = 0.0f;
    bool m_offset_known = false;
    GLuint m_program = 0, m_vao = 0;
    bool m_program_known = false, m_vao_known = false;
    GLuint m_active_unit = 0;
    bool m_active_known = false;
    std::array<GLuint, kUnits> m_tex2d{}, m_tex_array{};
    std::array<bool, kUnits> m_tex2d_known{}, m_tex_array_known{};
    uint64_t m_changes = 0;
};

} // namespace render
