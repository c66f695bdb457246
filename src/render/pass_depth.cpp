// The depth pre-pass: opaque surfaces with a position-only program, so the shaded passes run
// each pixel's fragment shader once (overdraw is the cost on software GL).
#include "render/frame.h"

#include <glm/gtc/type_ptr.hpp>

namespace render {

void drawDepthPrepass(Frame& f) {
    DebugGroup group("depth prepass");
    const DepthProgram& p = f.programs.depth();
    GlState& s = f.state;
    s.useProgram(p.program.id());
    glUniformMatrix4fv(p.view_projection, 1, GL_FALSE, glm::value_ptr(f.view_projection));
    s.colourMask(false);
    s.depthMask(true);
    s.enable(GL_BLEND, false);
    // Culled like the colour pass; two-sided materials are left to it (a face culled here but
    // drawn there would find no depth of its own, which LEQUAL handles; the other way round
    // would leave holes).
    s.cullBackFaces(true);
    // One multi-draw per brush model: consecutive opaque batches of the same model merge.
    int32_t submodel = -1;
    for (const scene::DrawBatch& b : f.list.batches) {
        if (b.pass != scene::Pass::Opaque || f.gpu.materialHas(b.material, bsp::kSurfNoCull))
            continue;
        // Deformed surfaces move in the vertex shader: undeformed depth here would hide them
        // (or show holes); their first stage writes their own depth.
        if (const GpuStagedMaterial* sm = f.gpu.stagedMaterial(b.material); sm && sm->deformed)
            continue;
        if (b.submodel != submodel) {
            f.submitter.flush();
            const glm::mat4 model = f.gpu.modelMatrix(b.submodel);
            glUniformMatrix4fv(p.model, 1, GL_FALSE, glm::value_ptr(model));
            submodel = b.submodel;
        }
        f.append(b);
    }
    f.submitter.flush();
    s.colourMask(true);
}

} // namespace render
