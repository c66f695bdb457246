// Sky surfaces: the far box (Quake 2, Half-Life, Quake 3 skyParms), Quake 1's two scrolling
// layers, a textured sky or a flat colour; a Quake 3 sky's cloud layers drawn over the box by
// the stage pass, or folded with it into one program.
#include "render/frame.h"

#include <cmath>
#include <glm/gtc/type_ptr.hpp>

namespace render {

namespace {

SkyMode skyModeOf(const WorldGpu& gpu, const scene::DrawBatch& b) {
    if (gpu.skybox)
        return SkyMode::Box;
    const bool textured = b.material >= 0 &&
                          static_cast<size_t>(b.material) < gpu.textures.size() &&
                          !gpu.missing[static_cast<size_t>(b.material)];
    if (!textured)
        return SkyMode::Flat;
    return gpu.materialHas(b.material, bsp::kSurfSkyLayers) ? SkyMode::Layers : SkyMode::Textured;
}

// A staged sky whose first drawn cloud layer replaces everything behind it: the base under it
// need not be drawn.
bool skyFullyCovered(const WorldGpu& gpu, int32_t material) {
    const GpuStagedMaterial* sm = gpu.stagedMaterial(material);
    if (!sm)
        return false;
    const DrawnStages drawn = drawnStages(*sm);
    return drawn.count > 0 && !drawn.stages[0]->def.blend &&
           drawn.stages[0]->def.alpha_func == content::AlphaFunc::None;
}

// A sky program made current: its flat colour and no scroll.
void useSkyProgram(Frame& f, const SkyProgram& u) {
    f.useProgram(u.program);
    glUniform4fv(u.flat_colour, 1, glm::value_ptr(kSkyFlatColour));
    glUniform2f(u.uv_scroll, 0.0f, 0.0f);
}

// With folding, a Quake 3 sky's cloud layers drawn over a base computed in their own program,
// or without a base when the first layer covers it; true when that drew the batch.
bool drawFoldedSky(Frame& f, const scene::DrawBatch& b) {
    if (!f.staged || !f.gpu.material(b.material) || !f.options.fold_stages)
        return false;
    const bool covered = skyFullyCovered(f.gpu, b.material);
    const SkyMode mode = skyModeOf(f.gpu, b);
    const SkyBase base = covered                 ? SkyBase::None
                         : mode == SkyMode::Box  ? SkyBase::Box
                         : mode == SkyMode::Flat ? SkyBase::Flat
                                                 : SkyBase::None;
    if (base == SkyBase::None && !covered)
        return false;
    return drawStagedBatch(f, b, base);
}

} // namespace

bool drawSkyBatch(Frame& f, const scene::DrawBatch& b, SurfaceCursor& cursor) {
    if (drawFoldedSky(f, b)) {
        cursor = {};
        return true;
    }
    const SkyProgram* program =
        f.programs.sky(skyModeOf(f.gpu, b), (f.light_curves & kCurveOutputGamma) != 0);
    if (!program)
        return false;
    if (program->program.id() != cursor.program) {
        useSkyProgram(f, *program);
        cursor = {program->program.id(), -1};
    }
    if (b.submodel != cursor.submodel) {
        const glm::mat4 model = f.modelMatrix(b.submodel);
        glUniformMatrix4fv(program->model, 1, GL_FALSE, glm::value_ptr(model));
        cursor.submodel = b.submodel;
    }
    const WorldGpu& gpu = f.gpu;
    const bool textured = b.material >= 0 && static_cast<size_t>(b.material) < gpu.textures.size();
    const int32_t frame = textured ? gpu.animationFrame(b.material, f.options.time) : b.material;
    if (const GLuint glow = textured ? gpu.glows[static_cast<size_t>(frame)] : 0)
        f.state.bindTexture(kUnitGlow, GL_TEXTURE_2D, glow);
    f.state.bindTexture(kUnitTexture, GL_TEXTURE_2D,
                        textured ? gpu.textures[static_cast<size_t>(frame)] : 0);
    f.submit(b);
    // The sky shader's cloud layers, over the far box just drawn.
    if (f.staged && gpu.material(b.material) && drawStagedBatch(f, b))
        cursor = {};
    return true;
}

} // namespace render
