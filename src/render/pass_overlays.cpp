// Debug overlays drawn over the world in the same frame: "why culled" and the wireframe.
#include "render/frame.h"

#include <glm/gtc/type_ptr.hpp>

namespace render {

void drawCulled(Frame& f) {
    DebugGroup group("why culled");
    const WorldProgram& p = f.programs.flat();
    f.useProgram(p.program);
    const glm::mat4 identity(1.0f);
    glUniformMatrix4fv(p.model, 1, GL_FALSE, glm::value_ptr(identity));
    glUniform2f(p.uv_scroll, 0.0f, 0.0f);
    f.state.enable(GL_BLEND, false);
    f.state.depthMask(true);
    const auto drawFaces = [&](const std::vector<uint32_t>& faces, glm::vec3 colour) {
        glUniform4f(p.flat_colour, colour.r, colour.g, colour.b, 1.0f);
        for (uint32_t face : faces) {
            if (face >= f.gpu.face_ranges.size())
                continue;
            const scene::DrawRange& range = f.gpu.face_ranges[face];
            f.submitter.append(range.first_index, range.count);
        }
        f.submitter.flush();
    };
    drawFaces(f.list.culled_pvs, {0.85f, 0.15f, 0.15f});
    drawFaces(f.list.culled_frustum, {0.2f, 0.35f, 0.95f});
}

void drawWireframe(Frame& f) {
    DebugGroup wire("wireframe");
    const WorldProgram& p = f.programs.flat();
    f.useProgram(p.program);
    GlState& s = f.state;
    glUniform4f(p.flat_colour, 0.1f, 1.0f, 0.3f, 1.0f);
    glUniform1f(p.alpha, 1.0f);
    glUniform2f(p.uv_scroll, 0.0f, 0.0f);
    s.enable(GL_BLEND, false);
    s.depthMask(false);
    s.enable(GL_POLYGON_OFFSET_LINE, true);
    s.polygonOffset(-1.0f, -1.0f);
    s.polygonMode(GL_LINE);
    f.submitByModel(p.model, [](const scene::DrawBatch&) { return true; });
    s.polygonMode(GL_FILL);
    s.enable(GL_POLYGON_OFFSET_LINE, false);
}

} // namespace render
