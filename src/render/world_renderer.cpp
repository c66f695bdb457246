#include "render/world_renderer.h"

#include "content/mipmap.h"
#include "render/flare_renderer.h"
#include "render/gpu_timers.h"

#include "core/log.h"
#include "scene/deforms.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <map>
#include <span>
#include <unordered_map>

namespace render {

const char* viewModeName(ViewMode mode) {
    switch (mode) {
    case ViewMode::Lit:
        return "lit";
    case ViewMode::Lightmap:
        return "lightmap";
    case ViewMode::Fullbright:
        return "fullbright";
    case ViewMode::Flat:
        return "flat";
    case ViewMode::Normals:
        return "normals";
    case ViewMode::Overdraw:
        return "overdraw";
    }
    return "lit";
}

bool parseViewMode(std::string_view name, ViewMode* out) {
    for (int i = 0; i <= static_cast<int>(ViewMode::Overdraw); ++i) {
        if (name == viewModeName(static_cast<ViewMode>(i))) {
            *out = static_cast<ViewMode>(i);
            return true;
        }
    }
    return false;
}

// Sky looks of the programs without shader stages (sky.frag.glsl SKY_MODE).
enum class SkyMode { Box, Flat, Textured, Layers, Count };

// Most stages one stage program folds (stage.frag.glsl u_texture0..5).
constexpr size_t kMaxFoldedStages = 6;
// Texture unit of stage k's image: after the world's texture, lightmaps, glow and sky box.
constexpr GLint kStageTextureUnit = 4;
// Sky surfaces with no box and no texture.
constexpr glm::vec4 kSkyFlatColour{0.32f, 0.40f, 0.55f, 1.0f};

struct WorldRenderer::Programs {
    Program world;
    Program depth;
    GLint depth_view_projection = -1, depth_model = -1;
    struct WorldUniforms {
        GLint view_projection, model, uv_scroll, style_values, light_scale, light_normalize,
            output_scale, alpha, alpha_cutoff, flat_colour, time;
        // FOG_PASS variants only
        GLint eye, fog_forward, fog_distance, fog_has_surface, fog_surface, fog_colour;
    };
    WorldUniforms w{};
    // World programs by variant key (see variantKey), compiled on first use: what a software
    // rasteriser would otherwise pay for in every pixel is decided at compile time.
    struct Variant {
        Program program;
        WorldUniforms u{};
    };
    std::unordered_map<uint32_t, Variant> variants;
    // Stage programs by StageKey (see stageProgram), compiled on first use.
    std::map<std::pair<uint64_t, uint64_t>, StageVariant> stage_variants;
    ShaderLibrary shaders;
    Program luxel; // drawFaceGroups' LuxelGrid overlay, compiled on first use
    GLint luxel_view_projection = -1, luxel_model = -1, luxel_colour = -1;
    bool luxel_failed = false;
    Program fog; // drawFog's program, compiled on first use
    GLint fog_view_projection = -1, fog_model = -1, fog_eye = -1, fog_view_forward = -1,
          fog_colour = -1, fog_distance = -1, fog_has_surface = -1, fog_surface = -1;
    bool fog_failed = false;
    struct SkyUniforms {
        GLint view_projection = -1, model = -1, uv_scroll = -1, eye = -1, time = -1,
              flat_colour = -1, sky_rotation = -1;
    };
    // One sky program per SkyMode, compiled on first use (failed: compile error logged).
    struct SkyProgram {
        Program program;
        SkyUniforms u;
        bool failed = false;
    };
    std::array<SkyProgram, static_cast<size_t>(SkyMode::Count)> sky;
};

struct WorldRenderer::StageVariant {
    Program program;
    GLint view_projection = -1, model = -1, eye = -1, tc_gen = -1, tc_vector0 = -1, tc_vector1 = -1,
          tc_matrix = -1, turb = -1, light_shift = -1, colour = -1, colour_gen = -1,
          vertex_scale = -1, output_scale = -1, cloud_height = -1;
    // SKY_BASE variants only.
    GLint sky_rotation = -1, flat_colour = -1;
    // DEFORMS variants only.
    GLint deform_code = -1, deform_func = -1, deform_wave = -1, deform_extra = -1,
          view_forward = -1, view_left = -1, view_up = -1;
    // FOG variants only (adjustColorsForFog)
    GLint fog_forward = -1, fog_distance = -1, fog_has_surface = -1, fog_surface = -1,
          fog_mask = -1;
    // FOG_PASS variants only
    GLint fog_colour = -1;
};

// A material's shader stages as uploaded (copied from scene::StagedMaterial: the renderer
// keeps nothing that points into the bundle).
struct GpuStagedMaterial {
    std::vector<scene::RenderStage> stages;
    bool sky = false;
    bool polygon_offset = false;
    content::CullMode cull = content::CullMode::Front;
    float cloud_height = 512.0f;
    uint32_t disabled = 0; // bit per shader stage index
    // deformVertexes (scene/deforms.h): the shader's deforms, copied; `deformed` when any is
    // drawn (such surfaces stay out of the depth pre-pass: it would write undeformed depth).
    content::ShaderDef deform_def;
    bool deformed = false;
};

namespace {

// A material's stages the overlay has not switched off, in order.
struct DrawnStages {
    std::array<const scene::RenderStage*, content::kMaxShaderStages> stages{};
    size_t count = 0;
    std::span<const scene::RenderStage* const> span() const { return {stages.data(), count}; }
};

DrawnStages drawnStages(const GpuStagedMaterial& sm) {
    DrawnStages d;
    for (const scene::RenderStage& stage : sm.stages)
        if (!(sm.disabled & (1u << std::min(stage.shader_stage, 31))) && d.count < d.stages.size())
            d.stages[d.count++] = &stage;
    return d;
}

} // namespace

struct WorldRenderer::WorldGpu {
    VertexArray vao;
    Buffer vbo, ibo;
    Texture lightmaps;
    // Per material, by GL name: materials with identical images share one texture (Quake 2
    // has a material per texinfo, many naming the same .wal). `owned` holds them.
    struct TextureRef {
        GLuint name = 0;
        GLuint id() const { return name; }
        explicit operator bool() const { return name != 0; }
    };
    std::vector<Texture> owned;
    std::vector<TextureRef> textures; // per material
    std::vector<TextureRef> glows;    // per material; 0: none (the black texture)
    Texture skybox;                   // 2D array of 6 faces, empty when the map has none
    std::vector<bool> missing;        // per material
    // The sky box's turn over time (Quake 2 skyrotate / skyaxis).
    content::SkyRotation sky_rotation;
    // Texture animation (Quake 1 "+0..+9", Quake 2 texinfo chains): the frames of each
    // material's chain, starting at itself; a single entry when it does not animate.
    std::vector<std::vector<int32_t>> anim_frames;
    std::vector<scene::DrawRange> face_ranges; // per face: its run in the index buffer
    std::vector<bsp::Material> materials;
    std::vector<bsp::Submodel> submodels;
    std::vector<GpuStagedMaterial> staged; // per material; empty until uploadStages
    std::vector<Texture> stage_textures;   // per scene::StageImage
    Buffer sprite_vbo; // scene::SpriteVertex per vertex (attributes 8, 9); empty: none
    struct FogFaceInfo {
        int32_t fog = -1; // bsp::Face::fog
        int32_t material = -1, submodel = 0;
        scene::Pass pass = scene::Pass::Opaque;
    };
    std::vector<FogFaceInfo> face_fog;  // per face, for drawFog
    std::vector<scene::FogVolume> fogs; // empty until uploadFogs
    // Fogged faces by the first index of their run: a blended face is a batch of its own, and
    // this finds its fog for drawStages' colour fading.
    std::unordered_map<uint32_t, int32_t> fog_by_first_index;
    Texture white; // $whiteimage, and unbound stage images
    bool overbright = false;
    int style_count = 1; // most light styles any face uses (1..4)
    GpuStats stats;
};

WorldRenderer::WorldRenderer() = default;
WorldRenderer::~WorldRenderer() = default;

const GpuStats& WorldRenderer::gpuStats() const {
    static const GpuStats kEmpty;
    return m_gpu ? m_gpu->stats : kEmpty;
}

namespace {

void locateWorldUniforms(GLuint w, auto& wu) {
    wu.view_projection = glGetUniformLocation(w, "u_view_projection");
    wu.model = glGetUniformLocation(w, "u_model");
    wu.uv_scroll = glGetUniformLocation(w, "u_uv_scroll");
    wu.style_values = glGetUniformLocation(w, "u_style_values");
    wu.light_scale = glGetUniformLocation(w, "u_light_scale");
    wu.light_normalize = glGetUniformLocation(w, "u_light_normalize");
    wu.output_scale = glGetUniformLocation(w, "u_output_scale");
    wu.alpha = glGetUniformLocation(w, "u_alpha");
    wu.alpha_cutoff = glGetUniformLocation(w, "u_alpha_cutoff");
    wu.flat_colour = glGetUniformLocation(w, "u_flat_colour");
    wu.time = glGetUniformLocation(w, "u_time");
    wu.eye = glGetUniformLocation(w, "u_eye");
    wu.fog_forward = glGetUniformLocation(w, "u_fog_forward");
    wu.fog_distance = glGetUniformLocation(w, "u_fog_distance");
    wu.fog_has_surface = glGetUniformLocation(w, "u_fog_has_surface");
    wu.fog_surface = glGetUniformLocation(w, "u_fog_surface");
    wu.fog_colour = glGetUniformLocation(w, "u_fog_colour");
    // GLSL 330 has no layout(binding): bind samplers to units after linking.
    glUseProgram(w);
    glUniform1i(glGetUniformLocation(w, "u_texture"), 0);
    glUniform1i(glGetUniformLocation(w, "u_lightmaps"), 1);
    glUniform1i(glGetUniformLocation(w, "u_glow"), 2);
}

} // namespace

bool WorldRenderer::init(const ShaderLibrary& shaders, std::string* error) {
    auto p = std::make_unique<Programs>();
    // The flat-shaded variant doubles as the program of the debug overlays (wireframe, why
    // culled); building it here also proves the world shaders compile.
    p->world = shaders.build("world|VIEW=VIEW_FLAT", "world.vert.glsl", "world.frag.glsl",
                             "VIEW=VIEW_FLAT", error);
    if (!p->world)
        return false;
    p->shaders = shaders;
    locateWorldUniforms(p->world.id(), p->w);
    p->depth = shaders.build("depth", "depth.vert.glsl", "depth.frag.glsl", "", error);
    if (!p->depth)
        return false;
    p->depth_view_projection = glGetUniformLocation(p->depth.id(), "u_view_projection");
    p->depth_model = glGetUniformLocation(p->depth.id(), "u_model");
    glUseProgram(0);
    m_programs = std::move(p);
    // Quake 3 flares: their own module, drawn after the world (render/flare_renderer.h).
    auto flares = std::make_unique<FlareRenderer>();
    if (!flares->init(shaders, error))
        return false;
    m_flares = std::move(flares);
    return true;
}

namespace {

void setupVertexFormat() {
    const GLsizei stride = sizeof(scene::WorldVertex);
    auto attrib = [&](GLuint loc, GLint n, GLenum type, GLboolean norm, size_t offset) {
        glEnableVertexAttribArray(loc);
        glVertexAttribPointer(loc, n, type, norm, stride, reinterpret_cast<const void*>(offset));
    };
    attrib(kAttribPosition, 3, GL_FLOAT, GL_FALSE, offsetof(scene::WorldVertex, position));
    attrib(kAttribUv, 2, GL_FLOAT, GL_FALSE, offsetof(scene::WorldVertex, uv));
    attrib(kAttribLmUv, 2, GL_FLOAT, GL_FALSE, offsetof(scene::WorldVertex, lm_uv));
    attrib(kAttribNormal, 3, GL_FLOAT, GL_FALSE, offsetof(scene::WorldVertex, normal));
    attrib(kAttribColour, 4, GL_UNSIGNED_BYTE, GL_TRUE, offsetof(scene::WorldVertex, colour));
    attrib(kAttribStyles, 4, GL_UNSIGNED_BYTE, GL_FALSE, offsetof(scene::WorldVertex, styles));
    attrib(kAttribLmLayer, 1, GL_FLOAT, GL_FALSE, offsetof(scene::WorldVertex, lm_layer));
    attrib(kAttribLmStep, 1, GL_FLOAT, GL_FALSE, offsetof(scene::WorldVertex, lm_step));
}

// `mips`: levels 1.. from content::mipChain (glGenerateMipmap costs llvmpipe ~15x the upload);
// with `mipmaps` false (Quake 3 nomipmaps) only level 0 is made.
Texture uploadImage(const content::Image& img, const std::vector<content::Image>& mips,
                    const std::string& name, uint64_t* bytes, bool clamp = false,
                    bool mipmaps = true) {
    Texture t = makeTexture(GL_TEXTURE_2D, ("texture/" + name).c_str());
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, img.width, img.height, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 img.rgba.data());
    if (mipmaps)
        for (size_t level = 0; level < mips.size(); ++level)
            glTexImage2D(GL_TEXTURE_2D, static_cast<GLint>(level + 1), GL_RGBA8, mips[level].width,
                         mips[level].height, 0, GL_RGBA, GL_UNSIGNED_BYTE, mips[level].rgba.data());
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL,
                    mipmaps ? static_cast<GLint>(mips.size()) : 0);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER,
                    mipmaps ? GL_LINEAR_MIPMAP_LINEAR : GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    const GLint wrap = clamp ? GL_CLAMP_TO_EDGE : GL_REPEAT;
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, wrap);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, wrap);
    *bytes += static_cast<uint64_t>(img.width) * static_cast<uint64_t>(img.height) * 4 * 4 / 3;
    return t;
}

glm::mat4 submodelMatrix(const std::vector<bsp::Submodel>& submodels, int32_t index) {
    glm::mat4 model(1.0f);
    if (index > 0 && static_cast<size_t>(index) < submodels.size()) {
        const bsp::Submodel& sm = submodels[static_cast<size_t>(index)];
        model = glm::translate(model, sm.origin);
        model = glm::rotate(model, glm::radians(sm.angles.y), glm::vec3(0, 0, 1));
        model = glm::rotate(model, glm::radians(-sm.angles.x), glm::vec3(0, 1, 0));
        model = glm::rotate(model, glm::radians(sm.angles.z), glm::vec3(1, 0, 0));
    }
    return model;
}

// Opacity of a batch: the material's own (Quake 2 TRANS33/66, Half-Life renderamt), times the
// adjustable liquid opacity for liquids.
// adjustable liquid opacity for liquids, times the brush model's own (Half-Life renderamt).
float batchAlpha(scene::Pass pass, const bsp::Material* material, const bsp::Submodel* submodel,
                 const RenderOptions& options) {
    if (pass < scene::Pass::Liquid || !material)
        return 1.0f;
    float alpha =
        pass == scene::Pass::Liquid ? material->alpha * options.liquid_alpha : material->alpha;
    if (submodel && submodel->blend != bsp::BlendMode::Opaque)
        alpha *= submodel->alpha;
    return alpha;
}

} // namespace

void WorldRenderer::appendRanges(const scene::DrawList& list, const scene::DrawBatch& b) {
    for (uint32_t r = 0; r < b.num_ranges; ++r) {
        const scene::DrawRange& range = list.ranges[b.first_range + r];
        m_submitter.append(range.first_index, range.count);
    }
}

void WorldRenderer::flushRanges() {
    m_submitter.flush();
}

void WorldRenderer::depthPrepass(const scene::DrawList& list, const glm::mat4& vp) {
    DebugGroup group("depth prepass");
    const Programs& p = *m_programs;
    glUseProgram(p.depth.id());
    glUniformMatrix4fv(p.depth_view_projection, 1, GL_FALSE, glm::value_ptr(vp));
    glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
    // One multi-draw per brush model: consecutive opaque batches of the same model merge.
    int32_t submodel = -1;
    // Culled like the colour pass; two-sided materials are left to it (a face culled here but
    // drawn there would find no depth of its own, which LEQUAL handles; the other way round
    // would leave holes).
    glEnable(GL_CULL_FACE);
    glCullFace(GL_FRONT);
    for (const scene::DrawBatch& b : list.batches) {
        if (b.pass != scene::Pass::Opaque)
            continue;
        if (b.material >= 0 && static_cast<size_t>(b.material) < m_gpu->materials.size() &&
            (m_gpu->materials[static_cast<size_t>(b.material)].flags & bsp::kSurfNoCull))
            continue;
        // Deformed surfaces move in the vertex shader: undeformed depth here would hide them
        // (or show holes); their first stage writes their own depth.
        if (b.material >= 0 && static_cast<size_t>(b.material) < m_gpu->staged.size() &&
            m_gpu->staged[static_cast<size_t>(b.material)].deformed)
            continue;
        if (b.submodel != submodel) {
            flushRanges();
            const glm::mat4 model = submodelMatrix(m_gpu->submodels, b.submodel);
            glUniformMatrix4fv(p.depth_model, 1, GL_FALSE, glm::value_ptr(model));
            submodel = b.submodel;
        }
        appendRanges(list, b);
    }
    flushRanges();
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
}

void WorldRenderer::uploadSkyBox(const content::SkyBox* sky) {
    if (!m_gpu)
        return;
    m_gpu->skybox.reset();
    m_gpu->sky_rotation = {};
    if (!sky)
        return;
    m_gpu->sky_rotation = sky->rotation;
    int size = 0;
    for (const content::Image& f : sky->faces) {
        if (f.width <= 0 || f.height <= 0 ||
            f.rgba.size() != static_cast<size_t>(f.width) * static_cast<size_t>(f.height) * 4)
            return;
        size = std::max({size, f.width, f.height});
    }
    size = std::min(size, 4096);
    m_gpu->skybox = makeTexture(GL_TEXTURE_2D_ARRAY, "world/skybox");
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage3D(GL_TEXTURE_2D_ARRAY, 0, GL_RGBA8, size, size, 6, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 nullptr);
    std::vector<uint8_t> scaled(static_cast<size_t>(size) * static_cast<size_t>(size) * 4);
    for (int face = 0; face < 6; ++face) {
        const content::Image& f = sky->faces[static_cast<size_t>(face)];
        // Nearest-neighbour scaling to the common size (faces nearly always match already).
        for (int y = 0; y < size; ++y) {
            const size_t sy =
                static_cast<size_t>(y) * static_cast<size_t>(f.height) / static_cast<size_t>(size);
            for (int x = 0; x < size; ++x) {
                const size_t sx = static_cast<size_t>(x) * static_cast<size_t>(f.width) /
                                  static_cast<size_t>(size);
                std::memcpy(&scaled[(static_cast<size_t>(y) * static_cast<size_t>(size) +
                                     static_cast<size_t>(x)) *
                                    4],
                            &f.rgba[(sy * static_cast<size_t>(f.width) + sx) * 4], 4);
            }
        }
        glTexSubImage3D(GL_TEXTURE_2D_ARRAY, 0, 0, 0, face, size, size, 1, GL_RGBA,
                        GL_UNSIGNED_BYTE, scaled.data());
    }
    // No mipmaps: the face switch would make the derivatives jump and pick a blurry level
    // along every seam.
    glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindTexture(GL_TEXTURE_2D_ARRAY, 0);
}

void WorldRenderer::drawCulled(const scene::DrawList& list, const glm::mat4& vp) {
    DebugGroup group("why culled");
    const Programs& p = *m_programs;
    glUseProgram(p.world.id());
    glUniformMatrix4fv(p.w.view_projection, 1, GL_FALSE, glm::value_ptr(vp));
    const glm::mat4 identity(1.0f);
    glUniformMatrix4fv(p.w.model, 1, GL_FALSE, glm::value_ptr(identity));
    glUniform2f(p.w.uv_scroll, 0.0f, 0.0f);
    glDisable(GL_BLEND);
    glDepthMask(GL_TRUE);
    const auto drawFaces = [&](const std::vector<uint32_t>& faces, float r, float g, float b) {
        glUniform4f(p.w.flat_colour, r, g, b, 1.0f);
        for (uint32_t face : faces) {
            if (face >= m_gpu->face_ranges.size())
                continue;
            const scene::DrawRange& range = m_gpu->face_ranges[face];
            m_submitter.append(range.first_index, range.count);
        }
        flushRanges();
    };
    drawFaces(list.culled_pvs, 0.85f, 0.15f, 0.15f);
    drawFaces(list.culled_frustum, 0.2f, 0.35f, 0.95f);
}

void WorldRenderer::drawFaceGroups(const std::vector<FaceGroup>& groups,
                                   const scene::Camera& camera, FaceOverlay overlay) {
    if (!m_gpu || !m_programs || groups.empty())
        return;
    DebugGroup group(overlay == FaceOverlay::Fill ? "face groups" : "luxel grid");
    Programs& p = *m_programs;
    const glm::mat4 vp = camera.viewProjection();
    GLint model_location = p.w.model, colour_location = p.w.flat_colour;
    if (overlay == FaceOverlay::LuxelGrid) {
        if (!p.luxel && !p.luxel_failed) {
            std::string error;
            p.luxel = p.shaders.build("world|luxel grid", "world.vert.glsl", "luxel.frag.glsl", "",
                                      &error);
            if (!p.luxel) {
                core::logError(error);
                p.luxel_failed = true;
                return;
            }
            p.luxel_view_projection = glGetUniformLocation(p.luxel.id(), "u_view_projection");
            p.luxel_model = glGetUniformLocation(p.luxel.id(), "u_model");
            p.luxel_colour = glGetUniformLocation(p.luxel.id(), "u_flat_colour");
            glUseProgram(p.luxel.id());
            glUniform1i(glGetUniformLocation(p.luxel.id(), "u_lightmaps"), 1);
        }
        if (!p.luxel)
            return;
        glUseProgram(p.luxel.id());
        glUniformMatrix4fv(p.luxel_view_projection, 1, GL_FALSE, glm::value_ptr(vp));
        model_location = p.luxel_model;
        colour_location = p.luxel_colour;
        glActiveTexture(GL_TEXTURE1);
        glBindTexture(GL_TEXTURE_2D_ARRAY, m_gpu->lightmaps.id());
        glActiveTexture(GL_TEXTURE0);
        glEnable(GL_BLEND);
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        glDepthMask(GL_FALSE);
    } else {
        glUseProgram(p.world.id());
        glUniformMatrix4fv(p.w.view_projection, 1, GL_FALSE, glm::value_ptr(vp));
        glUniform2f(p.w.uv_scroll, 0.0f, 0.0f);
        glUniform1f(p.w.alpha, 1.0f);
        glDisable(GL_BLEND);
        glDepthMask(GL_TRUE);
    }
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    // Both sides: a locked set seen from outside the map shows the backs of its walls.
    glDisable(GL_CULL_FACE);
    glBindVertexArray(m_gpu->vao.id());
    // Called outside draw()'s submitter frame (overlays come after the world), so these
    // debug draws use plain glMultiDrawElements rather than the frame's indirect ring.
    std::vector<GLsizei> counts;
    std::vector<const void*> offsets;
    for (const FaceGroup& g : groups) {
        const glm::mat4 model = submodelMatrix(m_gpu->submodels, g.submodel);
        glUniformMatrix4fv(model_location, 1, GL_FALSE, glm::value_ptr(model));
        glUniform4f(colour_location, g.colour.r, g.colour.g, g.colour.b, g.colour.a);
        counts.clear();
        offsets.clear();
        for (uint32_t face : g.faces) {
            if (face >= m_gpu->face_ranges.size() || m_gpu->face_ranges[face].count == 0)
                continue;
            const scene::DrawRange& range = m_gpu->face_ranges[face];
            counts.push_back(static_cast<GLsizei>(range.count));
            offsets.push_back(
                reinterpret_cast<const void*>(static_cast<uintptr_t>(range.first_index) * 4));
        }
        if (!counts.empty())
            glMultiDrawElements(GL_TRIANGLES, counts.data(), GL_UNSIGNED_INT, offsets.data(),
                                static_cast<GLsizei>(counts.size()));
    }
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
    glBindVertexArray(0);
    glUseProgram(0);
}

bool WorldRenderer::upload(const bsp::Map& map, const scene::WorldMesh& mesh,
                           const std::vector<content::TextureInfo>& textures, std::string* error) {
    if (textures.size() != map.materials.size()) {
        if (error)
            *error = "texture list does not match the map's materials";
        return false;
    }
    checkGlErrors("before upload");
    const uint64_t errors_before = glErrorCount();
    auto gpu = std::make_unique<WorldGpu>();
    gpu->vao = makeVertexArray("world/vao");
    gpu->vbo = makeBuffer("world/vertices");
    gpu->ibo = makeBuffer("world/indices");
    glBindVertexArray(gpu->vao.id());
    glBindBuffer(GL_ARRAY_BUFFER, gpu->vbo.id());
    glBufferData(GL_ARRAY_BUFFER,
                 static_cast<GLsizeiptr>(mesh.vertices.size() * sizeof(scene::WorldVertex)),
                 mesh.vertices.data(), GL_STATIC_DRAW);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, gpu->ibo.id());
    glBufferData(GL_ELEMENT_ARRAY_BUFFER,
                 static_cast<GLsizeiptr>(mesh.indices.size() * sizeof(uint32_t)),
                 mesh.indices.data(), GL_STATIC_DRAW);
    setupVertexFormat();
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    gpu->stats.vertex_bytes = mesh.vertices.size() * sizeof(scene::WorldVertex);
    gpu->face_ranges.reserve(mesh.faces.size());
    for (const scene::MeshFace& f : mesh.faces) {
        gpu->face_ranges.push_back({f.first_index, f.num_indices});
        gpu->face_fog.push_back({-1, f.material, f.submodel, f.pass});
    }
    for (size_t i = 0; i < map.faces.size() && i < gpu->face_fog.size(); ++i) {
        gpu->face_fog[i].fog = map.faces[i].fog;
        if (map.faces[i].fog >= 0 && gpu->face_ranges[i].count > 0)
            gpu->fog_by_first_index[gpu->face_ranges[i].first_index] = map.faces[i].fog;
    }
    gpu->stats.index_bytes = mesh.indices.size() * sizeof(uint32_t);

    // Lightmaps: one array texture, a layer per page (a white layer when there are none).
    gpu->lightmaps = makeTexture(GL_TEXTURE_2D_ARRAY, "world/lightmaps");
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    const bool have_pages =
        !map.lightmap_pages.empty() && map.lightmap_width > 0 && map.lightmap_height > 0;
    const GLsizei lw = have_pages ? map.lightmap_width : 1;
    const GLsizei lh = have_pages ? map.lightmap_height : 1;
    const GLsizei layers = have_pages ? static_cast<GLsizei>(map.lightmap_pages.size()) : 1;
    glTexImage3D(GL_TEXTURE_2D_ARRAY, 0, GL_RGB8, lw, lh, layers, 0, GL_RGB, GL_UNSIGNED_BYTE,
                 nullptr);
    if (have_pages) {
        const size_t page_bytes = static_cast<size_t>(lw) * static_cast<size_t>(lh) * 3;
        for (size_t i = 0; i < map.lightmap_pages.size(); ++i) {
            if (map.lightmap_pages[i].rgb.size() < page_bytes)
                continue;
            glTexSubImage3D(GL_TEXTURE_2D_ARRAY, 0, 0, 0, static_cast<GLint>(i), lw, lh, 1, GL_RGB,
                            GL_UNSIGNED_BYTE, map.lightmap_pages[i].rgb.data());
        }
    } else {
        const uint8_t white[3] = {255, 255, 255};
        glTexSubImage3D(GL_TEXTURE_2D_ARRAY, 0, 0, 0, 0, 1, 1, 1, GL_RGB, GL_UNSIGNED_BYTE, white);
    }
    glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    gpu->stats.lightmap_pages = static_cast<uint32_t>(layers);
    gpu->stats.texture_bytes +=
        static_cast<uint64_t>(lw) * static_cast<uint64_t>(lh) * 4 * static_cast<uint64_t>(layers);

    gpu->textures.reserve(textures.size());
    // Identical images (same size and texels) are uploaded once; candidates are found by
    // source name and size, then compared texel by texel.
    std::vector<const content::Image*> unique;
    std::vector<std::string> labels;
    std::unordered_map<std::string, std::vector<uint32_t>> seen;
    const auto slotOf = [&](const content::Image& img, const std::string& source,
                            const std::string& label) -> int32_t {
        if (!img.valid())
            return -1;
        const std::string key =
            source + "|" + std::to_string(img.width) + "x" + std::to_string(img.height);
        auto& candidates = seen[key];
        for (const uint32_t u : candidates)
            if (unique[u]->rgba == img.rgba)
                return static_cast<int32_t>(u);
        candidates.push_back(static_cast<uint32_t>(unique.size()));
        unique.push_back(&img);
        labels.push_back(label);
        return static_cast<int32_t>(unique.size() - 1);
    };
    std::vector<int32_t> tex_slot(textures.size()), glow_slot(textures.size());
    for (size_t i = 0; i < textures.size(); ++i) {
        tex_slot[i] = slotOf(textures[i].image, textures[i].source, map.materials[i].name);
        glow_slot[i] =
            slotOf(textures[i].glow, textures[i].source + "/glow", map.materials[i].name + "/glow");
    }
    // Mip chains on worker threads, then upload.
    std::vector<std::vector<content::Image>> chains = content::mipChains(unique);
    gpu->owned.reserve(unique.size());
    for (size_t u = 0; u < unique.size(); ++u) {
        gpu->owned.push_back(
            uploadImage(*unique[u], chains[u], labels[u], &gpu->stats.texture_bytes));
        chains[u] = {};
    }
    const auto nameOf = [&](int32_t slot) {
        return slot >= 0 ? gpu->owned[static_cast<size_t>(slot)].id() : 0u;
    };
    for (size_t i = 0; i < textures.size(); ++i) {
        // A material always has a texture; an invalid image (never produced by the loaders)
        // would leave it unbound, like before.
        gpu->textures.push_back({nameOf(tex_slot[i])});
        gpu->missing.push_back(textures[i].missing);
        gpu->glows.push_back({nameOf(glow_slot[i])});
    }
    gpu->stats.textures = static_cast<uint32_t>(gpu->owned.size());
    gpu->anim_frames.resize(map.materials.size());
    for (size_t i = 0; i < map.materials.size(); ++i) {
        std::vector<int32_t>& frames = gpu->anim_frames[i];
        int32_t m = static_cast<int32_t>(i);
        // Follow the chain until it returns to the start; bounded in case it never does.
        for (size_t n = 0; n < 64 && m >= 0 && static_cast<size_t>(m) < map.materials.size(); ++n) {
            frames.push_back(m);
            m = map.materials[static_cast<size_t>(m)].anim_next;
            if (m == static_cast<int32_t>(i))
                break;
        }
    }
    glBindTexture(GL_TEXTURE_2D, 0);
    glBindTexture(GL_TEXTURE_2D_ARRAY, 0);
    gpu->materials = map.materials;
    gpu->submodels = map.submodels;
    gpu->overbright = map.overbright_lighting;
    for (const bsp::Face& f : map.faces)
        gpu->style_count = std::max(gpu->style_count, f.numStyles());

    if (checkGlErrors("upload") != errors_before) {
        if (error)
            *error = "OpenGL reported errors while uploading the map";
        return false;
    }
    m_gpu = std::move(gpu);
    if (m_flares)
        m_flares->upload(map, textures);
    return true;
}

void WorldRenderer::uploadStages(const scene::MaterialStages& stages) {
    if (!m_gpu)
        return;
    WorldGpu& gpu = *m_gpu;
    gpu.staged.clear();
    gpu.stage_textures.clear();
    if (stages.materials.size() != gpu.materials.size())
        return;
    const content::Image white_image{1, 1, {255, 255, 255, 255}};
    gpu.white = uploadImage(white_image, {}, "$whiteimage", &gpu.stats.texture_bytes, false, false);
    std::vector<const content::Image*> mipmapped(stages.images.size(), nullptr);
    for (size_t i = 0; i < stages.images.size(); ++i)
        if (stages.images[i].mipmaps)
            mipmapped[i] = &stages.images[i].image;
    const std::vector<std::vector<content::Image>> chains = content::mipChains(mipmapped);
    gpu.stage_textures.reserve(stages.images.size());
    for (size_t i = 0; i < stages.images.size(); ++i) {
        const scene::StageImage& img = stages.images[i];
        gpu.stage_textures.push_back(img.image.valid() ? uploadImage(img.image, chains[i], img.name,
                                                                     &gpu.stats.texture_bytes,
                                                                     img.clamp, img.mipmaps)
                                                       : Texture());
    }
    gpu.staged.resize(stages.materials.size());
    for (size_t i = 0; i < stages.materials.size(); ++i) {
        const scene::StagedMaterial& sm = stages.materials[i];
        GpuStagedMaterial& g = gpu.staged[i];
        g.stages = sm.stages;
        g.sky = sm.sky;
        if (sm.shader) {
            g.polygon_offset = sm.shader->polygon_offset;
            g.cull = sm.shader->cull;
            g.cloud_height = sm.shader->sky.cloud_height;
            g.deformed = !sm.stages.empty() && scene::hasDrawnDeform(*sm.shader);
            if (g.deformed)
                g.deform_def.deforms = sm.shader->deforms;
        }
    }
    glBindTexture(GL_TEXTURE_2D, 0);
    gpu.sprite_vbo.reset();
    if (!stages.sprites.empty()) {
        gpu.sprite_vbo = makeBuffer("world/sprites");
        glBindVertexArray(gpu.vao.id());
        glBindBuffer(GL_ARRAY_BUFFER, gpu.sprite_vbo.id());
        glBufferData(GL_ARRAY_BUFFER,
                     static_cast<GLsizeiptr>(stages.sprites.size() * sizeof(scene::SpriteVertex)),
                     stages.sprites.data(), GL_STATIC_DRAW);
        constexpr GLsizei kStride = sizeof(scene::SpriteVertex);
        glEnableVertexAttribArray(kAttribSprite0);
        glVertexAttribPointer(kAttribSprite0, 4, GL_FLOAT, GL_FALSE, kStride,
                              reinterpret_cast<const void*>(offsetof(scene::SpriteVertex, centre)));
        glEnableVertexAttribArray(kAttribSprite1);
        glVertexAttribPointer(kAttribSprite1, 4, GL_FLOAT, GL_FALSE, kStride,
                              reinterpret_cast<const void*>(offsetof(scene::SpriteVertex, major)));
        glBindVertexArray(0);
        glBindBuffer(GL_ARRAY_BUFFER, 0);
        gpu.stats.vertex_bytes += stages.sprites.size() * sizeof(scene::SpriteVertex);
    }
}

void WorldRenderer::uploadFogs(const std::vector<scene::FogVolume>& fogs) {
    if (m_gpu)
        m_gpu->fogs = fogs;
}

void WorldRenderer::drawFog(const scene::DrawList& list, const scene::Camera& camera,
                            const RenderOptions& options) {
    WorldGpu& gpu = *m_gpu;
    Programs& p = *m_programs;
    if (gpu.fogs.empty())
        return;
    // The visible fogged faces, grouped by fog, placement, culling (as the face was drawn: a
    // back face that was culled must not be fogged over what lies behind it) and depth test.
    // As ioquake3 (tr_shader.c FinishShader): opaque surfaces get the pass with depth EQUAL,
    // so only the texels an alpha test kept are fogged; the fog's own surfaces with LEQUAL;
    // blended surfaces none (ioquake3 fades their colours instead, not done here).
    struct FogFace {
        int32_t fog, submodel, cull; // cull: 0 none, 1 GL_FRONT, 2 GL_BACK
        bool fog_surface;
        uint32_t face;
        auto operator<=>(const FogFace&) const = default;
    };
    std::vector<FogFace> faces;
    for (const uint32_t f : list.faces) {
        if (f >= gpu.face_fog.size() || gpu.face_ranges[f].count == 0)
            continue;
        const WorldGpu::FogFaceInfo& info = gpu.face_fog[f];
        if (info.fog < 0 || static_cast<size_t>(info.fog) >= gpu.fogs.size() ||
            !gpu.fogs[static_cast<size_t>(info.fog)].valid)
            continue;
        const bsp::Material* m =
            info.material >= 0 && static_cast<size_t>(info.material) < gpu.materials.size()
                ? &gpu.materials[static_cast<size_t>(info.material)]
                : nullptr;
        const bool fog_surface = m && (m->flags & bsp::kSurfFog);
        const bool opaque = info.pass == scene::Pass::Opaque || info.pass == scene::Pass::AlphaTest;
        if ((m && (m->flags & bsp::kSurfSky)) || !(opaque || fog_surface))
            continue;
        if (opaque && !fog_surface && fogInProgram(info.material, info.pass, options))
            continue; // fogged by its own program already
        // The fog's own surfaces are seen from both sides: from inside they lay the fog over
        // what lies behind them.
        const bool two_sided = m && (m->flags & (bsp::kSurfNoCull | bsp::kSurfFog));
        int32_t cull = two_sided ? 0 : 1;
        if (!two_sided && m && static_cast<size_t>(info.material) < gpu.staged.size() &&
            !gpu.staged[static_cast<size_t>(info.material)].stages.empty() &&
            gpu.staged[static_cast<size_t>(info.material)].cull == content::CullMode::Back)
            cull = 2;
        faces.push_back({info.fog, info.submodel, cull, fog_surface, f});
    }
    if (faces.empty())
        return;
    if (!p.fog && !p.fog_failed) {
        std::string error;
        p.fog = p.shaders.build("fog", "fog.vert.glsl", "fog.frag.glsl", "", &error);
        if (!p.fog) {
            core::logError(error);
            p.fog_failed = true;
            return;
        }
        const GLuint id = p.fog.id();
        p.fog_view_projection = glGetUniformLocation(id, "u_view_projection");
        p.fog_model = glGetUniformLocation(id, "u_model");
        p.fog_eye = glGetUniformLocation(id, "u_eye");
        p.fog_view_forward = glGetUniformLocation(id, "u_view_forward");
        p.fog_colour = glGetUniformLocation(id, "u_fog_colour");
        p.fog_distance = glGetUniformLocation(id, "u_fog_distance");
        p.fog_has_surface = glGetUniformLocation(id, "u_has_surface");
        p.fog_surface = glGetUniformLocation(id, "u_surface");
    }
    if (!p.fog)
        return;
    std::sort(faces.begin(), faces.end());
    DebugGroup group("fog");
    glUseProgram(p.fog.id());
    const glm::mat4 vp = camera.viewProjection();
    const glm::vec3 forward = camera.forward();
    glUniformMatrix4fv(p.fog_view_projection, 1, GL_FALSE, glm::value_ptr(vp));
    glUniform3f(p.fog_eye, camera.position.x, camera.position.y, camera.position.z);
    glUniform3f(p.fog_view_forward, forward.x, forward.y, forward.z);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDepthMask(GL_FALSE);
    for (size_t i = 0; i < faces.size();) {
        const FogFace& first = faces[i];
        const scene::FogVolume& fog = gpu.fogs[static_cast<size_t>(first.fog)];
        glUniform3fv(p.fog_colour, 1, glm::value_ptr(fog.colour));
        glUniform1f(p.fog_distance, fog.distance);
        glUniform1i(p.fog_has_surface, fog.has_surface ? 1 : 0);
        glUniform4fv(p.fog_surface, 1, glm::value_ptr(fog.surface));
        const glm::mat4 model = submodelMatrix(gpu.submodels, first.submodel);
        glUniformMatrix4fv(p.fog_model, 1, GL_FALSE, glm::value_ptr(model));
        if (first.cull == 0) {
            glDisable(GL_CULL_FACE);
        } else {
            glEnable(GL_CULL_FACE);
            glCullFace(first.cull == 1 ? GL_FRONT : GL_BACK);
        }
        glDepthFunc(first.fog_surface ? GL_LEQUAL : GL_EQUAL);
        for (;
             i < faces.size() && faces[i].fog == first.fog && faces[i].submodel == first.submodel &&
             faces[i].cull == first.cull && faces[i].fog_surface == first.fog_surface;
             ++i) {
            const scene::DrawRange& r = gpu.face_ranges[faces[i].face];
            m_submitter.append(r.first_index, r.count);
        }
        flushRanges();
    }
    glCullFace(GL_FRONT);
    glDepthFunc(GL_LEQUAL);
    glDisable(GL_BLEND);
    glDepthMask(GL_TRUE);
}

void WorldRenderer::setStageEnabled(int32_t material, int shader_stage, bool enabled) {
    if (!m_gpu || material < 0 || static_cast<size_t>(material) >= m_gpu->staged.size() ||
        shader_stage < 0 || shader_stage >= 32)
        return;
    uint32_t& bits = m_gpu->staged[static_cast<size_t>(material)].disabled;
    const uint32_t bit = 1u << shader_stage;
    bits = enabled ? bits & ~bit : bits | bit;
}

bool WorldRenderer::stageEnabled(int32_t material, int shader_stage) const {
    if (!m_gpu || material < 0 || static_cast<size_t>(material) >= m_gpu->staged.size() ||
        shader_stage < 0 || shader_stage >= 32)
        return true;
    return !(m_gpu->staged[static_cast<size_t>(material)].disabled & (1u << shader_stage));
}

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

} // namespace

WorldRenderer::StageVariant* WorldRenderer::stageProgram(const scene::RenderStage* const* stages,
                                                         size_t count, bool sky, SkyBase base,
                                                         bool deforms, bool fog, bool additive,
                                                         bool fog_pass) {
    Programs& p = *m_programs;
    // Key: per stage 14 bits (source, times lightmap, alphaFunc, blend, src, dst), stages 0-3
    // in the low word with the program's flags, 4-5 in the high word.
    const auto stageBits = [](const scene::RenderStage& st) {
        const content::ShaderStage& d = st.def;
        return static_cast<uint64_t>(st.source) | (st.times_lightmap ? 1u << 2 : 0u) |
               static_cast<uint64_t>(d.alpha_func) << 3 | (d.blend ? 1u << 5 : 0u) |
               static_cast<uint64_t>(d.src) << 6 | static_cast<uint64_t>(d.dst) << 10;
    };
    uint64_t lo = count | (sky ? 1u << 3 : 0u) | static_cast<uint64_t>(base) << 4 |
                  (deforms ? 1u << 6 : 0u) | (fog ? 1u << 7 : 0u);
    uint64_t hi = (additive ? uint64_t{1} << 40 : 0) | (fog_pass ? uint64_t{1} << 41 : 0);
    for (size_t k = 0; k < count; ++k) {
        if (k < 4)
            lo |= stageBits(*stages[k]) << (8 + 14 * k);
        else
            hi |= stageBits(*stages[k]) << (14 * (k - 4));
    }
    const auto key = std::make_pair(lo, hi);
    auto it = p.stage_variants.find(key);
    if (it == p.stage_variants.end()) {
        static constexpr const char* kSources[] = {"SOURCE_TEXTURE", "SOURCE_LIGHTMAP",
                                                   "SOURCE_WHITE"};
        static constexpr const char* kAlpha[] = {"ALPHA_NONE", "ALPHA_GT0", "ALPHA_LT128",
                                                 "ALPHA_GE128"};
        std::string defines = "NSTAGES=" + std::to_string(count);
        for (size_t k = 0; k < count; ++k) {
            const scene::RenderStage& st = *stages[k];
            const std::string n = "S" + std::to_string(k) + "_";
            defines += " " + n + "SOURCE=" + kSources[static_cast<size_t>(st.source)];
            defines += " " + n + "TLM=" + (st.times_lightmap ? "1" : "0");
            defines += " " + n + "ALPHA=" + kAlpha[static_cast<size_t>(st.def.alpha_func)];
            defines += " " + n + "BLEND=" + (st.def.blend ? "1" : "0");
            defines += " " + n + "SRC=" + std::to_string(static_cast<int>(st.def.src));
            defines += " " + n + "DST=" + std::to_string(static_cast<int>(st.def.dst));
        }
        if (sky)
            defines += " SKY_CLOUDS";
        if (base != SkyBase::None)
            defines += base == SkyBase::Box ? " SKY_BASE=SKY_BASE_BOX" : " SKY_BASE=SKY_BASE_FLAT";
        if (deforms)
            defines += " DEFORMS";
        if (fog)
            defines += " FOG";
        if (additive)
            defines += " ADDITIVE_RUN";
        if (fog_pass)
            defines += " FOG_PASS";
        std::string label = "stage|" + defines;
        std::replace(label.begin(), label.end(), ' ', '|');
        StageVariant v;
        std::string error;
        v.program = p.shaders.build(label, "stage.vert.glsl", "stage.frag.glsl", defines, &error);
        if (v.program) {
            const GLuint id = v.program.id();
            const auto loc = [id](const char* name) { return glGetUniformLocation(id, name); };
            v.view_projection = loc("u_view_projection");
            v.model = loc("u_model");
            v.eye = loc("u_eye");
            v.tc_gen = loc("u_tc_gen");
            v.tc_vector0 = loc("u_tc_vector0");
            v.tc_vector1 = loc("u_tc_vector1");
            v.tc_matrix = loc("u_tc_matrix");
            v.turb = loc("u_turb");
            v.light_shift = loc("u_light_shift");
            v.colour = loc("u_colour");
            v.colour_gen = loc("u_colour_gen");
            v.vertex_scale = loc("u_vertex_scale");
            v.output_scale = loc("u_output_scale");
            v.cloud_height = loc("u_cloud_height");
            v.sky_rotation = loc("u_sky_rotation");
            v.flat_colour = loc("u_flat_colour");
            v.deform_code = loc("u_deform_code");
            v.deform_func = loc("u_deform_func");
            v.deform_wave = loc("u_deform_wave");
            v.deform_extra = loc("u_deform_extra");
            v.view_forward = loc("u_view_forward");
            v.view_left = loc("u_view_left");
            v.view_up = loc("u_view_up");
            v.fog_forward = loc("u_fog_forward");
            v.fog_distance = loc("u_fog_distance");
            v.fog_has_surface = loc("u_fog_has_surface");
            v.fog_surface = loc("u_fog_surface");
            v.fog_mask = loc("u_fog_mask");
            v.fog_colour = loc("u_fog_colour");
            glUseProgram(id);
            for (size_t k = 0; k < count; ++k) {
                const std::string name = "u_texture" + std::to_string(k);
                glUniform1i(loc(name.c_str()), kStageTextureUnit + static_cast<GLint>(k));
            }
            glUniform1i(loc("u_lightmaps"), 1);
            glUniform1i(loc("u_skybox"), 3);
        } else {
            core::logError(error);
        }
        it = p.stage_variants.emplace(key, std::move(v)).first;
    }
    return it->second.program ? &it->second : nullptr;
}

// The fog of a blended face whose shader is blended from its first stage (ioquake3 fades only
// those; opaque surfaces get the fog pass instead). A translucent batch holds faces of one fog
// (DrawBatch::fog, however many faces it merged); other batches are looked up per face.
const scene::FogVolume* WorldRenderer::blendedFaceFog(const scene::DrawList& list,
                                                      const scene::DrawBatch& b,
                                                      const RenderOptions& options) const {
    const WorldGpu& gpu = *m_gpu;
    if (!options.fog || gpu.fogs.empty() || b.num_ranges == 0 || b.material < 0 ||
        static_cast<size_t>(b.material) >= gpu.staged.size())
        return nullptr;
    const GpuStagedMaterial& sm = gpu.staged[static_cast<size_t>(b.material)];
    if (sm.stages.empty() || !sm.stages[0].def.blend || sm.sky)
        return nullptr;
    int32_t fog_index = b.fog;
    if (b.pass != scene::Pass::Translucent) {
        if (b.num_faces != 1)
            return nullptr;
        const auto it = gpu.fog_by_first_index.find(list.ranges[b.first_range].first_index);
        fog_index = it == gpu.fog_by_first_index.end() ? -1 : it->second;
    }
    if (fog_index < 0 || static_cast<size_t>(fog_index) >= gpu.fogs.size())
        return nullptr;
    const scene::FogVolume& fog = gpu.fogs[static_cast<size_t>(fog_index)];
    return fog.valid ? &fog : nullptr;
}

bool WorldRenderer::fogInProgram(int32_t material, scene::Pass pass,
                                 const RenderOptions& options) const {
    if (!m_gpu || !options.fold_stages || !options.fog || options.view != ViewMode::Lit ||
        (pass != scene::Pass::Opaque && pass != scene::Pass::AlphaTest) || material < 0 ||
        static_cast<size_t>(material) >= m_gpu->materials.size())
        return false;
    if (m_gpu->materials[static_cast<size_t>(material)].flags & (bsp::kSurfFog | bsp::kSurfSky))
        return false;
    if (!options.shader_stages || static_cast<size_t>(material) >= m_gpu->staged.size() ||
        m_gpu->staged[static_cast<size_t>(material)].stages.empty())
        return true; // the single-texture path: one program
    // Drawn stage by stage: only a shader whose drawn stages fold into one run, from a stage
    // that replaces the frame, is one program (drawStages).
    const DrawnStages drawn = drawnStages(m_gpu->staged[static_cast<size_t>(material)]);
    return drawn.count > 0 && !drawn.stages[0]->def.blend &&
           scene::foldableRun(drawn.span(), kMaxFoldedStages, false) == drawn.count;
}

bool WorldRenderer::drawStages(const scene::DrawList& list, const scene::DrawBatch& b,
                               const glm::mat4& vp, const glm::mat4& model,
                               const scene::Camera& camera, const RenderOptions& options,
                               SkyBase base, const scene::FogVolume* fog_pass) {
    WorldGpu& gpu = *m_gpu;
    if (b.material < 0 || static_cast<size_t>(b.material) >= gpu.staged.size())
        return false;
    const GpuStagedMaterial& sm = gpu.staged[static_cast<size_t>(b.material)];
    if (sm.stages.empty())
        return false;
    const DrawnStages drawn_stages = drawnStages(sm);
    const auto& drawn = drawn_stages.stages;
    const size_t num_drawn = drawn_stages.count;
    if (num_drawn == 0 && base != SkyBase::None)
        return false; // every layer switched off: the caller draws the sky's base alone
    // ioquake3 with r_overBrightBits 1 in fullscreen: identityLight 0.5, lightmaps and vertex
    // colours shifted left by one, the frame doubled by the gamma ramp. The ramp is folded
    // into each stage that adds its colour to the frame; a stage that multiplies the frame
    // (its source factor is the frame's colour or zero) must not be doubled again.
    const bool neutral = options.neutral_lighting || !gpu.overbright;
    const float identity_light = gpu.overbright ? 0.5f : 1.0f;
    const float light_shift = gpu.overbright ? 2.0f : 1.0f;
    if (sm.polygon_offset) {
        glEnable(GL_POLYGON_OFFSET_FILL);
        glPolygonOffset(-1.0f, -2.0f); // ioquake3 r_offsetFactor, r_offsetUnits
    }
    if (sm.cull != content::CullMode::None && !sm.sky) {
        glEnable(GL_CULL_FACE);
        glCullFace(sm.cull == content::CullMode::Front ? GL_FRONT : GL_BACK);
    } else {
        glDisable(GL_CULL_FACE);
    }
    // deformVertexes: the same values for every stage (their depths must match exactly).
    std::array<GLint, content::kMaxDeforms> deform_code{}, deform_func{};
    std::array<glm::vec4, content::kMaxDeforms> deform_wave{}, deform_extra{};
    if (sm.deformed) {
        const auto frames = scene::evalDeforms(sm.deform_def, options.time);
        for (size_t i = 0; i < frames.size(); ++i) {
            deform_code[i] = static_cast<GLint>(frames[i].code);
            deform_func[i] = static_cast<GLint>(frames[i].func);
            deform_wave[i] = frames[i].wave;
            deform_extra[i] = frames[i].extra;
        }
    }
    // Quake's view axes: forward, left (the camera's right negated), up.
    const glm::vec3 view_forward = camera.forward(), view_left = -camera.right(),
                    view_up = camera.up();
    if (sm.deformed && !gpu.sprite_vbo)
        glVertexAttrib4f(kAttribSprite0, 0.0f, 0.0f, 0.0f, 0.0f); // no sprite data: a = 0
    const scene::FogVolume* fog = blendedFaceFog(list, b, options);
    // Per-stage uniform arrays of one program.
    std::array<GLint, kMaxFoldedStages> tc_gen{}, colour_gen{};
    std::array<glm::vec3, kMaxFoldedStages> tc_vector0{}, tc_vector1{};
    std::array<glm::mat3, kMaxFoldedStages> tc_matrix{};
    std::array<glm::vec4, kMaxFoldedStages> turb{}, colour{};
    std::array<float, kMaxFoldedStages> vertex_scale{}, output_scale{};
    for (size_t first = 0; first < num_drawn;) {
        const bool on_base = base != SkyBase::None && first == 0;
        // A faded stage (fog) keeps a pass of its own.
        const size_t count =
            options.fold_stages && !fog
                ? scene::foldableRun(std::span(drawn.data() + first, num_drawn - first),
                                     kMaxFoldedStages, on_base)
                : 1;
        const scene::RenderStage& lead = *drawn[first];
        const content::ShaderStage& d = lead.def;
        // Only a stage blended onto what is behind the face fades in a fog (one stage alone).
        const glm::vec4 fog_mask =
            fog && count == 1 && !on_base ? scene::fogFadeMask(d) : glm::vec4(0.0f);
        const bool fogged = fog_mask != glm::vec4(0.0f);
        // A run of additive stages: summed in the shader, the sum added to the frame here.
        const bool additive_run = count > 1 && !on_base && lead.def.blend;
        // The fog pass folded in: only when this program draws the whole surface.
        const scene::FogVolume* pass_fog = first == 0 && count == num_drawn ? fog_pass : nullptr;
        StageVariant* v =
            stageProgram(drawn.data() + first, count, sm.sky, on_base ? base : SkyBase::None,
                         sm.deformed, fogged, additive_run, pass_fog != nullptr);
        const size_t run = first;
        first += count;
        if (!v)
            continue;
        bool depth_write = on_base;
        for (size_t k = 0; k < count; ++k) {
            const scene::RenderStage& stage = *drawn[run + k];
            const content::ShaderStage& sd = stage.def;
            const scene::StageFrame f = scene::evalStage(stage, options.time, identity_light);
            tc_gen[k] = static_cast<GLint>(sd.tc_gen);
            tc_vector0[k] = sd.tc_vectors[0];
            tc_vector1[k] = sd.tc_vectors[1];
            tc_matrix[k] = f.tc_matrix;
            turb[k] = f.turb;
            colour[k] = f.colour;
            colour_gen[k] = (f.vertex_rgb ? 1 : 0) | (f.one_minus_vertex ? 2 : 0) |
                            (f.vertex_alpha ? 4 : 0) | (f.one_minus_vertex_alpha ? 8 : 0);
            vertex_scale[k] = f.vertex_scale;
            const bool multiplies = sd.blend && (sd.src == content::BlendFactor::Zero ||
                                                 sd.src == content::BlendFactor::DstColor ||
                                                 sd.src == content::BlendFactor::OneMinusDstColor);
            output_scale[k] = neutral || multiplies ? 1.0f : 2.0f;
            depth_write = depth_write || sd.depth_write;
            GLuint texture = gpu.white.id();
            if (f.image >= 0 && static_cast<size_t>(f.image) < gpu.stage_textures.size() &&
                gpu.stage_textures[static_cast<size_t>(f.image)])
                texture = gpu.stage_textures[static_cast<size_t>(f.image)].id();
            glActiveTexture(GL_TEXTURE0 + static_cast<GLenum>(kStageTextureUnit) +
                            static_cast<GLenum>(k));
            glBindTexture(GL_TEXTURE_2D, texture);
        }
        glActiveTexture(GL_TEXTURE0);
        const auto n = static_cast<GLsizei>(count);
        glUseProgram(v->program.id());
        glUniformMatrix4fv(v->view_projection, 1, GL_FALSE, glm::value_ptr(vp));
        glUniformMatrix4fv(v->model, 1, GL_FALSE, glm::value_ptr(model));
        glUniform3f(v->eye, camera.position.x, camera.position.y, camera.position.z);
        glUniform1iv(v->tc_gen, n, tc_gen.data());
        glUniform3fv(v->tc_vector0, n, glm::value_ptr(tc_vector0[0]));
        glUniform3fv(v->tc_vector1, n, glm::value_ptr(tc_vector1[0]));
        glUniformMatrix3fv(v->tc_matrix, n, GL_FALSE, glm::value_ptr(tc_matrix[0]));
        glUniform4fv(v->turb, n, glm::value_ptr(turb[0]));
        glUniform1f(v->light_shift, light_shift);
        glUniform4fv(v->colour, n, glm::value_ptr(colour[0]));
        glUniform1iv(v->colour_gen, n, colour_gen.data());
        glUniform1fv(v->vertex_scale, n, vertex_scale.data());
        glUniform1fv(v->output_scale, n, output_scale.data());
        glUniform1f(v->cloud_height, sm.cloud_height);
        if (on_base) {
            const glm::mat3 sky_to_box = glm::transpose(gpu.sky_rotation.orientation(options.time));
            glUniformMatrix3fv(v->sky_rotation, 1, GL_FALSE, glm::value_ptr(sky_to_box));
            glUniform4fv(v->flat_colour, 1, glm::value_ptr(kSkyFlatColour));
        }
        if (sm.deformed) {
            glUniform1iv(v->deform_code, content::kMaxDeforms, deform_code.data());
            glUniform1iv(v->deform_func, content::kMaxDeforms, deform_func.data());
            glUniform4fv(v->deform_wave, content::kMaxDeforms, glm::value_ptr(deform_wave[0]));
            glUniform4fv(v->deform_extra, content::kMaxDeforms, glm::value_ptr(deform_extra[0]));
            glUniform3fv(v->view_forward, 1, glm::value_ptr(view_forward));
            glUniform3fv(v->view_left, 1, glm::value_ptr(view_left));
            glUniform3fv(v->view_up, 1, glm::value_ptr(view_up));
        }
        if (fogged || pass_fog) {
            const scene::FogVolume& fv = fogged ? *fog : *pass_fog;
            const glm::vec3 forward = camera.forward();
            glUniform3f(v->fog_forward, forward.x, forward.y, forward.z);
            glUniform1f(v->fog_distance, fv.distance);
            glUniform1i(v->fog_has_surface, fv.has_surface ? 1 : 0);
            glUniform4fv(v->fog_surface, 1, glm::value_ptr(fv.surface));
            if (fogged)
                glUniform4fv(v->fog_mask, 1, glm::value_ptr(fog_mask));
            else
                glUniform3fv(v->fog_colour, 1, glm::value_ptr(fv.colour));
        }
        // A folded run starts with a stage that replaces the frame (or on the sky's base):
        // its later stages blend in the shader. A stage alone blends here.
        if (additive_run) {
            glEnable(GL_BLEND);
            glBlendFunc(GL_ONE, GL_ONE);
        } else if (d.blend && count == 1 && !on_base) {
            glEnable(GL_BLEND);
            glBlendFunc(glBlendFactor(d.src), glBlendFactor(d.dst));
        } else {
            glDisable(GL_BLEND);
        }
        glDepthMask(depth_write ? GL_TRUE : GL_FALSE);
        glDepthFunc(d.depth_func == content::DepthFunc::Equal && !on_base ? GL_EQUAL : GL_LEQUAL);
        appendRanges(list, b);
        flushRanges();
        ++m_stage_draws;
    }
    glDepthFunc(GL_LEQUAL);
    glDisable(GL_POLYGON_OFFSET_FILL);
    glCullFace(GL_FRONT);
    return true;
}

void WorldRenderer::setPassState(scene::Pass pass, const bsp::Material* material, float alpha,
                                 bool additive_model) {
    switch (pass) {
    case scene::Pass::Opaque:
    case scene::Pass::AlphaTest:
    case scene::Pass::Sky:
        glDisable(GL_BLEND);
        glDepthMask(GL_TRUE);
        break;
    case scene::Pass::Liquid:
    case scene::Pass::Translucent: {
        const bool additive =
            additive_model || (material && (material->flags & bsp::kSurfAdditive));
        const bool blended =
            alpha < 1.0f || additive || (material && (material->flags & bsp::kSurfTranslucent));
        if (blended) {
            glEnable(GL_BLEND);
            glBlendFunc(GL_SRC_ALPHA, additive ? GL_ONE : GL_ONE_MINUS_SRC_ALPHA);
            glDepthMask(GL_FALSE);
        } else {
            glDisable(GL_BLEND);
            glDepthMask(GL_TRUE);
        }
        break;
    }
    case scene::Pass::Count:
        break;
    }
}

void WorldRenderer::draw(const scene::DrawList& list, const scene::Camera& camera,
                         const RenderOptions& options) {
    glClearColor(options.clear_colour.r, options.clear_colour.g, options.clear_colour.b,
                 options.clear_colour.a);
    glDepthMask(GL_TRUE);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    if (!m_gpu || !m_programs)
        return;
    DebugGroup group("world");
    m_submitter.beginFrame(options.draw_path);
    const WorldGpu& gpu = *m_gpu;
    Programs& p = *m_programs;
    const glm::mat4 vp = camera.viewProjection();

    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    // Back faces are culled as the engines do (a face seen from behind is not drawn), except
    // for two-sided materials (Quake 3 `cull none`). The meshes wind front faces clockwise.
    glCullFace(GL_FRONT);
    int current_cull = -1;
    const auto setCull = [&current_cull](bool cull) {
        if (static_cast<int>(cull) == current_cull)
            return;
        if (cull)
            glEnable(GL_CULL_FACE);
        else
            glDisable(GL_CULL_FACE);
        current_cull = cull ? 1 : 0;
    };
    glBindVertexArray(gpu.vao.id());
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D_ARRAY, gpu.lightmaps.id());
    glActiveTexture(GL_TEXTURE3);
    glBindTexture(GL_TEXTURE_2D_ARRAY, gpu.skybox.id());
    glActiveTexture(GL_TEXTURE0);

    const bool neutral = options.neutral_lighting || !gpu.overbright;
    auto useWorld = [&](GLuint program, const Programs::WorldUniforms& u) {
        glUseProgram(program);
        glUniformMatrix4fv(u.view_projection, 1, GL_FALSE, glm::value_ptr(vp));
        glUniform1fv(u.style_values, scene::kNumLightStyles, options.style_values.data());

        // Quake 3 (ioquake3 opengl1, fullscreen, r_mapOverBrightBits 2, r_overBrightBits 1):
        // lighting shifted left by one with hue-keeping clamp, output doubled by the gamma
        // ramp. Other games: quakespasm/yquake2-style 2x overbright lightmaps.
        glUniform1f(u.light_scale, 2.0f);
        glUniform1i(u.light_normalize, gpu.overbright ? 1 : 0);
        glUniform1f(u.output_scale, neutral ? 1.0f : 2.0f);
        glUniform4f(u.flat_colour, 1.0f, 1.0f, 1.0f, 1.0f);
        glUniform1f(u.time, static_cast<float>(std::fmod(options.time, 4096.0)));
    };
    // A staged sky whose first drawn cloud layer replaces everything behind it: the base
    // under it need not be drawn.
    const auto skyFullyCovered = [&](int32_t material) {
        if (material < 0 || static_cast<size_t>(material) >= gpu.staged.size())
            return false;
        const DrawnStages drawn = drawnStages(gpu.staged[static_cast<size_t>(material)]);
        return drawn.count > 0 && !drawn.stages[0]->def.blend &&
               drawn.stages[0]->def.alpha_func == content::AlphaFunc::None;
    };
    // The sky program of a sky batch's look, compiled on first use.
    const auto skyModeOf = [&](const scene::DrawBatch& b, const bsp::Material* material) {
        if (gpu.skybox)
            return SkyMode::Box;
        const bool textured = b.material >= 0 &&
                              static_cast<size_t>(b.material) < gpu.textures.size() &&
                              !gpu.missing[static_cast<size_t>(b.material)];
        if (!textured)
            return SkyMode::Flat;
        return material && (material->flags & bsp::kSurfSkyLayers) ? SkyMode::Layers
                                                                   : SkyMode::Textured;
    };
    const auto skyProgram = [&](SkyMode mode) -> Programs::SkyProgram* {
        Programs::SkyProgram& sp = p.sky[static_cast<size_t>(mode)];
        if (!sp.program && !sp.failed) {
            static constexpr const char* kModes[] = {"SKY_BOX", "SKY_FLAT", "SKY_TEXTURE",
                                                     "SKY_LAYERS"};
            const std::string defines = std::string("SKY_MODE=") + kModes[static_cast<int>(mode)];
            std::string error;
            sp.program = p.shaders.build("sky|" + defines, "world.vert.glsl", "sky.frag.glsl",
                                         defines, &error);
            if (!sp.program) {
                core::logError(error);
                sp.failed = true;
                return nullptr;
            }
            const GLuint id = sp.program.id();
            sp.u.view_projection = glGetUniformLocation(id, "u_view_projection");
            sp.u.model = glGetUniformLocation(id, "u_model");
            sp.u.uv_scroll = glGetUniformLocation(id, "u_uv_scroll");
            sp.u.flat_colour = glGetUniformLocation(id, "u_flat_colour");
            sp.u.sky_rotation = glGetUniformLocation(id, "u_sky_rotation");
            sp.u.eye = glGetUniformLocation(id, "u_eye");
            sp.u.time = glGetUniformLocation(id, "u_time");
            glUseProgram(id);
            glUniform1i(glGetUniformLocation(id, "u_texture"), 0);
            glUniform1i(glGetUniformLocation(id, "u_skybox"), 3);
        }
        return sp.program ? &sp : nullptr;
    };
    auto useSky = [&](const Programs::SkyProgram& sp) {
        const Programs::SkyUniforms& u = sp.u;
        glUseProgram(sp.program.id());
        glUniformMatrix4fv(u.view_projection, 1, GL_FALSE, glm::value_ptr(vp));
        glUniform4fv(u.flat_colour, 1, glm::value_ptr(kSkyFlatColour));
        glUniform3f(u.eye, camera.position.x, camera.position.y, camera.position.z);
        // World direction -> box direction: the inverse (transpose) of the box's turn.
        const glm::mat3 sky_to_box = glm::transpose(gpu.sky_rotation.orientation(options.time));
        glUniformMatrix3fv(u.sky_rotation, 1, GL_FALSE, glm::value_ptr(sky_to_box));
        glUniform1f(u.time, static_cast<float>(std::fmod(options.time, 4096.0)));
        glUniform2f(u.uv_scroll, 0.0f, 0.0f);
    };
    GpuTimers* timers = options.timers;
    const bool overdraw = options.view == ViewMode::Overdraw;
    if (options.depth_prepass && !overdraw) {
        if (timers)
            timers->begin("depth prepass");
        depthPrepass(list, vp);
        if (timers)
            timers->end();
    }
    scene::Pass timed_pass = scene::Pass::Count;

    // Program variant of a batch: view mode, light styles, alpha test, warp, glow.
    const auto variantFor = [&](bool alpha_tested, bool warp, bool glow,
                                bool fogged) -> Programs::Variant* {
        const uint32_t key = static_cast<uint32_t>(options.view) | (alpha_tested ? 1u << 3 : 0u) |
                             (warp ? 1u << 4 : 0u) | (glow ? 1u << 5 : 0u) |
                             (static_cast<uint32_t>(gpu.style_count - 1) << 6) |
                             (fogged ? 1u << 9 : 0u);
        auto it = p.variants.find(key);
        if (it == p.variants.end()) {
            static constexpr const char* kViews[] = {"VIEW_LIT",        "VIEW_LIGHTMAP",
                                                     "VIEW_FULLBRIGHT", "VIEW_FLAT",
                                                     "VIEW_NORMALS",    "VIEW_OVERDRAW"};
            std::string defines = std::string("VIEW=") + kViews[static_cast<int>(options.view)] +
                                  " STYLES=" + std::to_string(gpu.style_count);
            if (alpha_tested)
                defines += " ALPHA_TEST";
            if (fogged)
                defines += " FOG_PASS";
            if (warp)
                defines += " WARP";
            if (glow)
                defines += " GLOW";
            std::string label = "world|" + defines;
            std::replace(label.begin(), label.end(), ' ', '|');
            Programs::Variant v;
            std::string error;
            v.program =
                p.shaders.build(label, "world.vert.glsl", "world.frag.glsl", defines, &error);
            if (v.program)
                locateWorldUniforms(v.program.id(), v.u);
            else
                core::logError(error);
            it = p.variants.emplace(key, std::move(v)).first;
        }
        return it->second.program ? &it->second : nullptr;
    };

    // Quake 3 materials with shader stages are drawn stage by stage in the lit view; the
    // debug views show them through the single-texture path.
    const bool staged =
        options.shader_stages && options.view == ViewMode::Lit && !m_gpu->staged.empty();
    m_stage_draws = 0;
    // Quake 3 fog volumes: a pass over the fogged faces once the opaque ones are drawn.
    const bool fog = options.fog && options.view == ViewMode::Lit && !m_gpu->fogs.empty();
    bool fogged_opaque = false;
    GLuint current_program = 0;
    int32_t current_submodel = -1;
    scene::Pass current_pass = scene::Pass::Count;
    for (const scene::DrawBatch& b : list.batches) {
        const bsp::Material* material =
            b.material >= 0 && static_cast<size_t>(b.material) < gpu.materials.size()
                ? &gpu.materials[static_cast<size_t>(b.material)]
                : nullptr;
        const bsp::Submodel* submodel =
            b.submodel > 0 && static_cast<size_t>(b.submodel) < gpu.submodels.size()
                ? &gpu.submodels[static_cast<size_t>(b.submodel)]
                : nullptr;
        const bool alpha_tested = b.pass == scene::Pass::AlphaTest;
        const bool sky = b.pass == scene::Pass::Sky && !overdraw;
        const bool textured =
            b.material >= 0 && static_cast<size_t>(b.material) < gpu.textures.size();
        int32_t frame = b.material;
        if (textured && material && material->anim_fps > 0.0f) {
            const std::vector<int32_t>& frames = gpu.anim_frames[static_cast<size_t>(b.material)];
            const auto step = static_cast<size_t>(std::floor(options.time * material->anim_fps));
            frame = frames[step % frames.size()];
        }
        const GLuint glow = textured ? gpu.glows[static_cast<size_t>(frame)].id() : 0;
        if (fog && !fogged_opaque && b.pass >= scene::Pass::Liquid) {
            if (timers) {
                timers->end();
                timers->begin("fog");
            }
            drawFog(list, camera, options); // after the opaque surfaces, before the blended ones
            if (timers)
                timers->end();
            timed_pass = scene::Pass::Count;
            fogged_opaque = true;
            current_program = 0;
            current_pass = scene::Pass::Count;
            current_cull = -1;
        }
        if (material && (material->flags & bsp::kSurfFog) && !(material->flags & bsp::kSurfSky))
            continue; // a fog volume's surface: only the fog pass draws it
        if (timers && b.pass != timed_pass) {
            timers->end();
            timers->begin(scene::passName(b.pass));
            timed_pass = b.pass;
        }
        // A fogged opaque surface drawn by one program fogs there, not in the fog pass.
        const scene::FogVolume* batch_fog = fog && !sky && b.fog >= 0 &&
                                                    static_cast<size_t>(b.fog) < gpu.fogs.size() &&
                                                    gpu.fogs[static_cast<size_t>(b.fog)].valid &&
                                                    fogInProgram(b.material, b.pass, options)
                                                ? &gpu.fogs[static_cast<size_t>(b.fog)]
                                                : nullptr;
        setCull(!sky && !(material && (material->flags & bsp::kSurfNoCull)));
        if (staged && !sky && material) {
            // Quake 3 shader stages: each stage sets its own program, blend and depth state.
            if (b.pass != current_pass) {
                setPassState(b.pass, material, 1.0f, false);
                current_pass = b.pass;
            }
            if (drawStages(list, b, vp, submodelMatrix(gpu.submodels, b.submodel), camera, options,
                           SkyBase::None, batch_fog)) {
                current_program = 0;
                current_pass = scene::Pass::Count;
                current_cull = -1;
                continue;
            }
        }
        if (sky && staged && material) {
            // A Quake 3 sky's cloud layers: over the far box (or flat colour) folded into
            // their own program, or, when the first layer replaces everything, without it.
            const SkyMode mode = skyModeOf(b, material);
            const SkyBase base = !options.fold_stages          ? SkyBase::None
                                 : skyFullyCovered(b.material) ? SkyBase::None
                                 : mode == SkyMode::Box        ? SkyBase::Box
                                 : mode == SkyMode::Flat       ? SkyBase::Flat
                                                               : SkyBase::None;
            const bool skip_base =
                options.fold_stages && (base != SkyBase::None || skyFullyCovered(b.material));
            if (skip_base) {
                setPassState(b.pass, material, 1.0f, false);
                if (drawStages(list, b, vp, submodelMatrix(gpu.submodels, b.submodel), camera,
                               options, base)) {
                    current_program = 0;
                    current_pass = scene::Pass::Count;
                    current_cull = -1;
                    continue;
                }
            }
        }
        Programs::Variant* variant = nullptr;
        Programs::SkyProgram* sky_program = nullptr;
        if (sky) {
            sky_program = skyProgram(skyModeOf(b, material));
            if (!sky_program)
                continue;
        } else {
            variant = variantFor(alpha_tested, material && (material->flags & bsp::kSurfWarp),
                                 glow != 0, batch_fog != nullptr);
            if (!variant)
                continue; // its compile error was logged
        }
        const GLuint want = sky ? sky_program->program.id() : variant->program.id();
        if (want != current_program) {
            if (sky)
                useSky(*sky_program);
            else
                useWorld(want, variant->u);
            current_program = want;
            current_submodel = -1;
        }
        if (b.pass != current_pass || b.pass == scene::Pass::Translucent ||
            b.pass == scene::Pass::Liquid) {
            setPassState(b.pass, material, batchAlpha(b.pass, material, submodel, options),
                         submodel && submodel->blend == bsp::BlendMode::Additive);
            current_pass = b.pass;
            if (overdraw) {
                glDisable(GL_DEPTH_TEST);
                glEnable(GL_BLEND);
                glBlendFunc(GL_ONE, GL_ONE);
            }
        }
        if (b.submodel != current_submodel) {
            const glm::mat4 model = submodelMatrix(gpu.submodels, b.submodel);
            glUniformMatrix4fv(sky ? sky_program->u.model : variant->u.model, 1, GL_FALSE,
                               glm::value_ptr(model));
            current_submodel = b.submodel;
        }
        if (glow) {
            glActiveTexture(GL_TEXTURE2);
            glBindTexture(GL_TEXTURE_2D, glow);
            glActiveTexture(GL_TEXTURE0);
        }
        glBindTexture(GL_TEXTURE_2D, textured ? gpu.textures[static_cast<size_t>(frame)].id() : 0);
        if (!sky) {
            const Programs::WorldUniforms& u = variant->u;
            float scroll = 0.0f;
            if (material && (material->flags & bsp::kSurfFlowing))
                scroll = static_cast<float>(-0.5 * std::fmod(options.time, 128.0));
            glUniform2f(u.uv_scroll, scroll, 0.0f);
            glUniform1f(u.alpha_cutoff, 0.5f);
            glUniform1f(u.alpha, batchAlpha(b.pass, material, submodel, options));
            if (batch_fog) {
                const glm::vec3 forward = camera.forward();
                glUniform3f(u.eye, camera.position.x, camera.position.y, camera.position.z);
                glUniform3f(u.fog_forward, forward.x, forward.y, forward.z);
                glUniform1f(u.fog_distance, batch_fog->distance);
                glUniform1i(u.fog_has_surface, batch_fog->has_surface ? 1 : 0);
                glUniform4fv(u.fog_surface, 1, glm::value_ptr(batch_fog->surface));
                glUniform3fv(u.fog_colour, 1, glm::value_ptr(batch_fog->colour));
            }
            if (options.view == ViewMode::Flat) {
                // A stable colour per material.
                const uint32_t h = static_cast<uint32_t>(b.material) * 2654435761u;
                glUniform4f(u.flat_colour, 0.35f + 0.65f * static_cast<float>(h & 255) / 255.0f,
                            0.35f + 0.65f * static_cast<float>((h >> 8) & 255) / 255.0f,
                            0.35f + 0.65f * static_cast<float>((h >> 16) & 255) / 255.0f, 1.0f);
            }
        }
        appendRanges(list, b);
        flushRanges();
        if (sky && staged &&
            drawStages(list, b, vp, submodelMatrix(gpu.submodels, b.submodel), camera, options)) {
            // The sky shader's cloud layers, over the far box just drawn.
            current_program = 0;
            current_pass = scene::Pass::Count;
            current_cull = -1;
        }
    }

    if (timers)
        timers->end();
    if (fog && !fogged_opaque) {
        if (timers)
            timers->begin("fog");
        drawFog(list, camera, options);
        if (timers)
            timers->end();
    }

    glEnable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE); // the overlays show every face, and later passes expect no culling
    if (timers && (options.show_culled || options.wireframe))
        timers->begin("world overlays");
    if (options.show_culled)
        drawCulled(list, vp);
    if (options.wireframe) {
        DebugGroup wire("wireframe");
        useWorld(p.world.id(), p.w);
        glUniform4f(p.w.flat_colour, 0.1f, 1.0f, 0.3f, 1.0f);
        glUniform1f(p.w.alpha, 1.0f);
        glUniform2f(p.w.uv_scroll, 0.0f, 0.0f);
        glDisable(GL_BLEND);
        glDepthMask(GL_FALSE);
        glEnable(GL_POLYGON_OFFSET_LINE);
        glPolygonOffset(-1.0f, -1.0f);
        glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
        int32_t sub = -1;
        for (const scene::DrawBatch& b : list.batches) {
            if (b.submodel != sub) {
                flushRanges();
                const glm::mat4 model = submodelMatrix(gpu.submodels, b.submodel);
                glUniformMatrix4fv(p.w.model, 1, GL_FALSE, glm::value_ptr(model));
                sub = b.submodel;
            }
            appendRanges(list, b);
        }
        flushRanges();
        glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
        glDisable(GL_POLYGON_OFFSET_LINE);
    }

    if (timers)
        timers->end();
    if (m_flares && options.flares && !overdraw) {
        const bool timed = timers && m_flares->count() > 0;
        if (timed)
            timers->begin("flares");
        m_flares->draw(camera, options.time, list);
        if (timed)
            timers->end();
    }

    m_submitter.endFrame();
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
    glBindVertexArray(0);
    glUseProgram(0);
}

bool RenderTarget::create(int width, int height, std::string* error) {
    m_width = width;
    m_height = height;
    GLuint fbo = 0, rb[2] = {0, 0};
    glGenFramebuffers(1, &fbo);
    glGenRenderbuffers(2, rb);
    m_fbo = Framebuffer(fbo);
    m_colour = Renderbuffer(rb[0]);
    m_depth = Renderbuffer(rb[1]);
    glBindRenderbuffer(GL_RENDERBUFFER, rb[0]);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    glBindRenderbuffer(GL_RENDERBUFFER, rb[1]);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, width, height);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb[0]);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, rb[1]);
    label(GL_FRAMEBUFFER, fbo, "offscreen/target");
    const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (status != GL_FRAMEBUFFER_COMPLETE) {
        if (error)
            *error = "offscreen framebuffer incomplete (status " + std::to_string(status) + ")";
        return false;
    }
    return true;
}

void RenderTarget::bind() const {
    glBindFramebuffer(GL_FRAMEBUFFER, m_fbo.id());
    glViewport(0, 0, m_width, m_height);
}

std::vector<uint8_t> RenderTarget::readPixels() const {
    std::vector<uint8_t> pixels(static_cast<size_t>(m_width) * static_cast<size_t>(m_height) * 4);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, m_fbo.id());
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, m_width, m_height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    // GL's first row is the bottom one.
    const size_t row = static_cast<size_t>(m_width) * 4;
    std::vector<uint8_t> tmp(row);
    for (int y = 0; y < m_height / 2; ++y) {
        uint8_t* a = pixels.data() + static_cast<size_t>(y) * row;
        uint8_t* b = pixels.data() + static_cast<size_t>(m_height - 1 - y) * row;
        std::memcpy(tmp.data(), a, row);
        std::memcpy(a, b, row);
        std::memcpy(b, tmp.data(), row);
    }
    return pixels;
}

} // namespace render
