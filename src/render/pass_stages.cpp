// Quake 3 shader stages (scene/world/material_stages.h): a batch drawn stage by stage as ioquake3's
// RB_StageIteratorGeneric does, or with runs of stages folded into one program where the
// result is the same (scene::foldableRun), blends and alpha tests then done in the shader.
#include "render/frame.h"

#include "scene/world/deforms.h"

#include <algorithm>
#include <array>
#include <glm/gtc/type_ptr.hpp>
#include <span>

namespace render {

namespace {

GLenum glBlendFactor(content::BlendFactor f) {
    // In content::BlendFactor's order.
    static constexpr GLenum kFactors[] = {GL_ZERO,
                                          GL_ONE,
                                          GL_SRC_COLOR,
                                          GL_ONE_MINUS_SRC_COLOR,
                                          GL_DST_COLOR,
                                          GL_ONE_MINUS_DST_COLOR,
                                          GL_SRC_ALPHA,
                                          GL_ONE_MINUS_SRC_ALPHA,
                                          GL_DST_ALPHA,
                                          GL_ONE_MINUS_DST_ALPHA,
                                          GL_SRC_ALPHA_SATURATE};
    static_assert(std::size(kFactors) ==
                  static_cast<size_t>(content::BlendFactor::SrcAlphaSaturate) + 1);
    return kFactors[static_cast<size_t>(f)];
}

// deformVertexes: the same values for every stage of a surface (their depths must match).
struct DeformUniforms {
    std::array<GLint, content::kMaxDeforms> code{}, func{};
    std::array<glm::vec4, content::kMaxDeforms> wave{}, extra{};
};

DeformUniforms deformUniforms(const GpuStagedMaterial& sm, double time) {
    DeformUniforms d;
    const auto frames = scene::evalDeforms(sm.deform_def, time);
    for (size_t i = 0; i < frames.size(); ++i) {
        d.code[i] = static_cast<GLint>(frames[i].code);
        d.func[i] = static_cast<GLint>(frames[i].func);
        d.wave[i] = frames[i].wave;
        d.extra[i] = frames[i].extra;
    }
    return d;
}

// Per-stage uniform arrays of one program (one run of folded stages).
struct RunUniforms {
    std::array<GLint, kMaxFoldedStages> tc_gen{}, colour_gen{};
    std::array<glm::vec3, kMaxFoldedStages> tc_vector0{}, tc_vector1{};
    std::array<glm::mat3, kMaxFoldedStages> tc_matrix{};
    std::array<glm::vec4, kMaxFoldedStages> turb{}, colour{};
    std::array<float, kMaxFoldedStages> vertex_scale{};
    bool depth_write = false;
};

// The stages of a run at this time, their images bound to the stage units.
// ioquake3 with r_overBrightBits 1 in fullscreen: identityLight 0.5, lightmaps and vertex
// colours shifted left by one, the finished frame doubled by the gamma ramp. Stages write
// what ioquake3's framebuffer holds; the ramp is the display ramp pass (pass_display.cpp).
// Without the ramp (RenderOptions::hardware_gamma false): identityLight 1, shifted by two.
RunUniforms runUniforms(Frame& f, std::span<const scene::RenderStage* const> run) {
    const float identity_light = f.identityLight();
    RunUniforms u;
    for (size_t k = 0; k < run.size(); ++k) {
        const scene::RenderStage& stage = *run[k];
        const content::ShaderStage& sd = stage.def;
        const scene::StageFrame sf = scene::evalStage(stage, f.options.time, identity_light);
        u.tc_gen[k] = static_cast<GLint>(sd.tc_gen);
        u.tc_vector0[k] = sd.tc_vectors[0];
        u.tc_vector1[k] = sd.tc_vectors[1];
        u.tc_matrix[k] = sf.tc_matrix;
        u.turb[k] = sf.turb;
        u.colour[k] = sf.colour;
        u.colour_gen[k] = (sf.vertex_rgb ? 1 : 0) | (sf.one_minus_vertex ? 2 : 0) |
                          (sf.vertex_alpha ? 4 : 0) | (sf.one_minus_vertex_alpha ? 8 : 0);
        u.vertex_scale[k] = sf.vertex_scale;
        u.depth_write = u.depth_write || sd.depth_write;
        GLuint texture = f.gpu.white.id();
        if (sf.image >= 0 && static_cast<size_t>(sf.image) < f.gpu.stage_textures.size() &&
            f.gpu.stage_textures[static_cast<size_t>(sf.image)])
            texture = f.gpu.stage_textures[static_cast<size_t>(sf.image)].id();
        f.state.bindTexture(kUnitStage0 + static_cast<GLuint>(k), GL_TEXTURE_2D, texture);
    }
    return u;
}

void setRunUniforms(const StageProgram& v, const RunUniforms& u, size_t count,
                    const glm::mat4& model, float cloud_height) {
    const auto n = static_cast<GLsizei>(count);
    glUniformMatrix4fv(v.model, 1, GL_FALSE, glm::value_ptr(model));
    glUniform1iv(v.tc_gen, n, u.tc_gen.data());
    glUniform3fv(v.tc_vector0, n, glm::value_ptr(u.tc_vector0[0]));
    glUniform3fv(v.tc_vector1, n, glm::value_ptr(u.tc_vector1[0]));
    glUniformMatrix3fv(v.tc_matrix, n, GL_FALSE, glm::value_ptr(u.tc_matrix[0]));
    glUniform4fv(v.turb, n, glm::value_ptr(u.turb[0]));
    glUniform4fv(v.colour, n, glm::value_ptr(u.colour[0]));
    glUniform1iv(v.colour_gen, n, u.colour_gen.data());
    glUniform1fv(v.vertex_scale, n, u.vertex_scale.data());
    glUniform1f(v.cloud_height, cloud_height);
}

void setSkyBaseUniforms(const Frame& f, const StageProgram& v) {
    const glm::vec4 flat(glm::vec3(kSkyFlatColour) * f.frame_scale, kSkyFlatColour.a);
    glUniform4fv(v.flat_colour, 1, glm::value_ptr(flat));
}

void setDeformUniforms(const StageProgram& v, const DeformUniforms& d) {
    glUniform1iv(v.deform_code, content::kMaxDeforms, d.code.data());
    glUniform1iv(v.deform_func, content::kMaxDeforms, d.func.data());
    glUniform4fv(v.deform_wave, content::kMaxDeforms, glm::value_ptr(d.wave[0]));
    glUniform4fv(v.deform_extra, content::kMaxDeforms, glm::value_ptr(d.extra[0]));
}

// A faded stage (`fade_mask` non-zero: ioquake3's adjustColorsForFog) or the fog folded in.
void setFogUniforms(const Frame& f, const StageProgram& v, const scene::FogVolume& fog,
                    const glm::vec4* fade_mask) {
    glUniform1f(v.fog_distance, fog.distance);
    glUniform1i(v.fog_has_surface, fog.has_surface ? 1 : 0);
    glUniform4fv(v.fog_surface, 1, glm::value_ptr(fog.surface));
    if (fade_mask)
        glUniform4fv(v.fog_mask, 1, glm::value_ptr(*fade_mask));
    else {
        const glm::vec3 colour = fog.colour * f.frame_scale; // tr_bsp.c R_LoadFogs
        glUniform3fv(v.fog_colour, 1, glm::value_ptr(colour));
    }
}

// Cull mode and polygon offset of a staged surface.
void setSurfaceState(GlState& s, const GpuStagedMaterial& sm) {
    if (sm.polygon_offset) {
        s.enable(GL_POLYGON_OFFSET_FILL, true);
        s.polygonOffset(-1.0f, -2.0f); // ioquake3 r_offsetFactor, r_offsetUnits
    }
    const bool cull = sm.cull != content::CullMode::None && !sm.sky;
    s.enable(GL_CULL_FACE, cull);
    if (cull)
        s.cullFace(sm.cull == content::CullMode::Front ? GL_FRONT : GL_BACK);
}

// Blending of a run: a folded run starts with a stage that replaces the frame (or on the sky's
// base) and its later stages blend in the shader; a run of additive stages adds its sum; a
// stage alone blends here.
void setRunBlend(GlState& s, const content::ShaderStage& lead, size_t count, bool on_base,
                 bool additive_run) {
    if (additive_run) {
        s.enable(GL_BLEND, true);
        s.blendFunc(GL_ONE, GL_ONE);
    } else if (lead.blend && count == 1 && !on_base) {
        s.enable(GL_BLEND, true);
        s.blendFunc(glBlendFactor(lead.src), glBlendFactor(lead.dst));
    } else {
        s.enable(GL_BLEND, false);
    }
}

} // namespace

bool drawStagedBatch(Frame& f, const scene::DrawBatch& b, SkyBase base,
                     const scene::FogVolume* fog_pass) {
    const GpuStagedMaterial* staged = f.gpu.stagedMaterial(b.material);
    if (!staged || staged->stages.empty())
        return false;
    const GpuStagedMaterial& sm = *staged;
    const DrawnStages drawn = drawnStages(sm);
    if (drawn.count == 0 && base != SkyBase::None)
        return false; // every layer switched off: the caller draws the sky's base alone
    setSurfaceState(f.state, sm);
    const DeformUniforms deforms =
        sm.deformed ? deformUniforms(sm, f.options.time) : DeformUniforms{};
    if (sm.deformed && !f.gpu.sprite_vbo)
        glVertexAttrib4f(kAttribSprite0, 0.0f, 0.0f, 0.0f, 0.0f); // no sprite data: a = 0
    const scene::FogVolume* fog = blendedFaceFog(f, b);
    const glm::mat4 model = f.modelMatrix(b.submodel);
    for (size_t first = 0; first < drawn.count;) {
        const bool on_base = base != SkyBase::None && first == 0;
        const std::span<const scene::RenderStage* const> rest = drawn.span().subspan(first);
        // A faded stage (fog) keeps a pass of its own.
        const size_t count =
            f.options.fold_stages && !fog ? scene::foldableRun(rest, kMaxFoldedStages, on_base) : 1;
        const content::ShaderStage& lead = rest[0]->def;
        // Only a stage blended onto what is behind the face fades in a fog (one stage alone).
        const glm::vec4 fade_mask =
            fog && count == 1 && !on_base ? scene::fogFadeMask(lead) : glm::vec4(0.0f);
        const bool faded = fade_mask != glm::vec4(0.0f);
        // A run of additive stages: summed in the shader, the sum added to the frame here.
        const bool additive_run = count > 1 && !on_base && lead.blend;
        // The fog pass folded in: only when this program draws the whole surface.
        const scene::FogVolume* pass_fog = first == 0 && count == drawn.count ? fog_pass : nullptr;
        const StageProgram* v =
            f.programs.stage({rest.data(), count, sm.sky, on_base ? base : SkyBase::None,
                              sm.deformed, faded, additive_run, pass_fog != nullptr});
        first += count;
        if (!v)
            continue;
        const RunUniforms u = runUniforms(f, rest.first(count));
        f.state.useProgram(v->program.id());
        setRunUniforms(*v, u, count, model, sm.cloud_height);
        if (on_base)
            setSkyBaseUniforms(f, *v);
        if (sm.deformed)
            setDeformUniforms(*v, deforms);
        if (faded || pass_fog)
            setFogUniforms(f, *v, faded ? *fog : *pass_fog, faded ? &fade_mask : nullptr);
        setRunBlend(f.state, lead, count, on_base, additive_run);
        f.state.depthMask(on_base || u.depth_write);
        f.state.depthFunc(lead.depth_func == content::DepthFunc::Equal && !on_base ? GL_EQUAL
                                                                                   : GL_LEQUAL);
        f.submit(b);
        ++f.stage_draws;
    }
    f.state.depthFunc(GL_LEQUAL);
    f.state.enable(GL_POLYGON_OFFSET_FILL, false);
    f.state.cullFace(GL_FRONT);
    return true;
}

} // namespace render
