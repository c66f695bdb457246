// The depth pre-pass: opaque surfaces with a position-only program, so the shaded passes run
// each pixel's fragment shader once (overdraw is the cost on software GL).
#include "render/frame.h"

#include <glm/gtc/type_ptr.hpp>

namespace render {

void drawDepthPrepass(Frame& f) {
    DebugGroup group("depth prepass");
    const DepthProgram& p = f.programs.depth();
    f.useProgram(p.program);
    GlState& s = f.state;
    s.colourMask(false);
    s.depthMask(true);
    s.enable(GL_BLEND, false);
    // Culled like the colour pass; two-sided materials are left to it (a face culled here but
    // drawn there would find no depth of its own, which LEQUAL handles; the other way round
    // would leave holes).
    s.cullBackFaces(true);
    // One multi-draw per brush model: consecutive opaque batches of the same model merge.
    f.submitByModel(p.model, [&f](const scene::DrawBatch& b) {
        if (b.pass != scene::Pass::Opaque || f.gpu.materialHas(b.material, bsp::kSurfNoCull))
            return false;
        // Deformed surfaces move in the vertex shader: undeformed depth here would hide them
        // (or show holes); their first stage writes their own depth.
        const GpuStagedMaterial* sm = f.gpu.stagedMaterial(b.material);
        return !(sm && sm->deformed);
    });
    s.colourMask(true);
}

} // namespace render
