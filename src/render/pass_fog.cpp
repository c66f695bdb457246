// Quake 3 fog volumes (scene/world/fog.h). As ioquake3 (tr_shader.c FinishShader): opaque surfaces
// get a fog pass with depth EQUAL, so only the texels an alpha test kept are fogged; the fog's
// own surfaces with LEQUAL; blended surfaces fade their stages' colours instead (stage pass).
// An opaque surface whose whole shader is one program fogs there (FOG_PASS) and is skipped here.
#include "render/frame.h"

#include <algorithm>
#include <glm/gtc/type_ptr.hpp>

namespace render {

bool fogInProgram(const WorldGpu& gpu, int32_t material, scene::Pass pass,
                  const RenderOptions& options) {
    if (!options.fold_stages || !options.fog || options.view != ViewMode::Lit ||
        (pass != scene::Pass::Opaque && pass != scene::Pass::AlphaTest) ||
        !gpu.material(material) || gpu.materialHas(material, bsp::kSurfFog | bsp::kSurfSky))
        return false;
    const GpuStagedMaterial* sm = gpu.stagedMaterial(material);
    if (!options.shader_stages || !sm || sm->stages.empty())
        return true; // the single-texture path: one program
    // Drawn stage by stage: only a shader whose drawn stages fold into one run, from a stage
    // that replaces the frame, is one program (drawStagedBatch).
    const DrawnStages drawn = drawnStages(*sm);
    return drawn.count > 0 && !drawn.stages[0]->def.blend &&
           scene::foldableRun(drawn.span(), kMaxFoldedStages, false) == drawn.count;
}

// The fog of a blended face whose shader is blended from its first stage (ioquake3 fades only
// those). A translucent batch holds faces of one fog (DrawBatch::fog, however many faces it
// merged); other batches are looked up per face.
const scene::FogVolume* blendedFaceFog(const Frame& f, const scene::DrawBatch& b) {
    const WorldGpu& gpu = f.gpu;
    const GpuStagedMaterial* sm = gpu.stagedMaterial(b.material);
    if (!f.options.fog || gpu.fogs.empty() || b.num_ranges == 0 || !sm || sm->stages.empty() ||
        !sm->stages[0].def.blend || sm->sky)
        return nullptr;
    int32_t fog_index = b.fog;
    if (b.pass != scene::Pass::Translucent) {
        if (b.num_faces != 1)
            return nullptr;
        const auto it = gpu.fog_by_first_index.find(f.list.ranges[b.first_range].first_index);
        fog_index = it == gpu.fog_by_first_index.end() ? -1 : it->second;
    }
    if (fog_index < 0 || static_cast<size_t>(fog_index) >= gpu.fogs.size())
        return nullptr;
    const scene::FogVolume& fog = gpu.fogs[static_cast<size_t>(fog_index)];
    return fog.valid ? &fog : nullptr;
}

namespace {

// A visible fogged face, sorted into runs of one fog, placement, culling (as the face was
// drawn: a back face that was culled must not be fogged over what lies behind it) and depth
// test.
struct FogFace {
    int32_t fog, submodel, cull; // cull: 0 none, 1 GL_FRONT, 2 GL_BACK
    bool fog_surface;
    uint32_t face;
    auto operator<=>(const FogFace&) const = default;
    bool sameRun(const FogFace& o) const {
        return fog == o.fog && submodel == o.submodel && cull == o.cull &&
               fog_surface == o.fog_surface;
    }
};

std::vector<FogFace> fogFaces(const Frame& f) {
    const WorldGpu& gpu = f.gpu;
    std::vector<FogFace> faces;
    for (const uint32_t face : f.list.faces) {
        if (face >= gpu.face_info.size() || gpu.face_ranges[face].count == 0)
            continue;
        const WorldGpu::FaceInfo& info = gpu.face_info[face];
        if (info.fog < 0 || static_cast<size_t>(info.fog) >= gpu.fogs.size() ||
            !gpu.fogs[static_cast<size_t>(info.fog)].valid)
            continue;
        const scene::ResolvedMaterial* m = gpu.material(info.material);
        const bool fog_surface = m && (m->flags & bsp::kSurfFog);
        const bool opaque = info.pass == scene::Pass::Opaque || info.pass == scene::Pass::AlphaTest;
        if ((m && (m->flags & bsp::kSurfSky)) || !(opaque || fog_surface))
            continue;
        if (opaque && !fog_surface && fogInProgram(gpu, info.material, info.pass, f.options))
            continue; // fogged by its own program already
        // The fog's own surfaces are seen from both sides: from inside they lay the fog over
        // what lies behind them.
        const bool two_sided = m && (m->flags & (bsp::kSurfNoCull | bsp::kSurfFog));
        int32_t cull = two_sided ? 0 : 1;
        const GpuStagedMaterial* sm = gpu.stagedMaterial(info.material);
        if (!two_sided && m && sm && !sm->stages.empty() && sm->cull == content::CullMode::Back)
            cull = 2;
        faces.push_back({info.fog, info.submodel, cull, fog_surface, face});
    }
    std::sort(faces.begin(), faces.end());
    return faces;
}

void setFogRunState(Frame& f, const FogProgram& p, const FogFace& first) {
    const scene::FogVolume& fog = f.gpu.fogs[static_cast<size_t>(first.fog)];
    // tr_bsp.c R_LoadFogs: the fog's colour at tr.identityLight, as the frame holds it.
    const glm::vec3 colour = fog.colour * f.frame_scale;
    glUniform3fv(p.colour, 1, glm::value_ptr(colour));
    glUniform1f(p.distance, fog.distance);
    glUniform1i(p.has_surface, fog.has_surface ? 1 : 0);
    glUniform4fv(p.surface, 1, glm::value_ptr(fog.surface));
    const glm::mat4 model = f.modelMatrix(first.submodel);
    glUniformMatrix4fv(p.model, 1, GL_FALSE, glm::value_ptr(model));
    f.state.enable(GL_CULL_FACE, first.cull != 0);
    if (first.cull != 0)
        f.state.cullFace(first.cull == 1 ? GL_FRONT : GL_BACK);
    f.state.depthFunc(first.fog_surface ? GL_LEQUAL : GL_EQUAL);
}

} // namespace

void drawFogPass(Frame& f) {
    if (f.gpu.fogs.empty())
        return;
    const std::vector<FogFace> faces = fogFaces(f);
    if (faces.empty())
        return;
    const FogProgram* p = f.programs.fog();
    if (!p)
        return;
    DebugGroup group("fog");
    GlState& s = f.state;
    f.useProgram(p->program);
    s.enable(GL_BLEND, true);
    s.blendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    s.depthMask(false);
    for (size_t i = 0; i < faces.size();) {
        const FogFace& first = faces[i];
        setFogRunState(f, *p, first);
        for (; i < faces.size() && faces[i].sameRun(first); ++i) {
            const scene::DrawRange& r = f.gpu.face_ranges[faces[i].face];
            f.submitter.append(r.first_index, r.count);
        }
        f.submitter.flush();
    }
    s.cullFace(GL_FRONT);
    s.depthFunc(GL_LEQUAL);
    s.enable(GL_BLEND, false);
    s.depthMask(true);
}

} // namespace render
