#include "scene/world/material_stages.h"

#include "content/image/image.h"
#include "content/material/textures.h"
#include "core/file.h"
#include "core/parallel.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <unordered_map>

namespace scene {

using content::AlphaGen;
using content::BlendFactor;
using content::MapKind;
using content::RgbGen;
using content::ShaderDef;
using content::ShaderStage;

namespace {

bool isFilter(const ShaderStage& s) {
    return s.blend && ((s.src == BlendFactor::DstColor && s.dst == BlendFactor::Zero) ||
                       (s.src == BlendFactor::Zero && s.dst == BlendFactor::SrcColor));
}

bool isTextureStage(const ShaderStage& s) {
    return s.map == MapKind::Texture || s.map == MapKind::Clamp || s.map == MapKind::Animated ||
           s.map == MapKind::Video;
}

// ioquake3 CollapseMultitexture's conditions, for the lightmap pairs we fold: one stage is
// $lightmap, the other a texture; the second blends as a filter; both share the state bits
// that are not blend or depth mask (alpha test, depth func) and the same rgbGen and alphaGen
// (equal waves for rgbGen wave); no alphaGen wave. Other pairs ioquake3 folds (two textures,
// GL_ADD) draw the same as two passes.
bool collapsible(const ShaderStage& a, const ShaderStage& b) {
    if (!isFilter(b))
        return false;
    const bool a_lm = a.map == MapKind::Lightmap, b_lm = b.map == MapKind::Lightmap;
    if (a_lm == b_lm || !(a_lm ? isTextureStage(b) : isTextureStage(a)))
        return false;
    if (a.alpha_func != b.alpha_func || a.depth_func != b.depth_func)
        return false;
    // ioquake3 keeps the pair apart when the colours differ (it could only colour the product
    // with one of them).
    if (a.rgb_gen != b.rgb_gen || a.alpha_gen != b.alpha_gen)
        return false;
    const auto same_wave = [](const content::Wave& x, const content::Wave& y) {
        return x.func == y.func && x.base == y.base && x.amplitude == y.amplitude &&
               x.phase == y.phase && x.frequency == y.frequency;
    };
    if (a.rgb_gen == RgbGen::Wave && !same_wave(a.rgb_wave, b.rgb_wave))
        return false;
    if (a.alpha_gen == AlphaGen::Wave)
        return false;
    // A video stage would need its cinematic; a viewer shows its first frame like a texture.
    return true;
}

int32_t imageIndex(std::vector<StageImage>& images, const std::string& name, bool clamp,
                   bool mipmaps) {
    const std::string key = core::toLower(name);
    for (size_t i = 0; i < images.size(); ++i)
        if (core::toLower(images[i].name) == key && images[i].clamp == clamp &&
            images[i].mipmaps == mipmaps)
            return static_cast<int32_t>(i);
    StageImage img;
    img.name = name;
    img.clamp = clamp;
    img.mipmaps = mipmaps;
    images.push_back(std::move(img));
    return static_cast<int32_t>(images.size() - 1);
}

RenderStage makeStage(const ShaderDef& def, const ShaderStage& s, int index,
                      std::vector<StageImage>& images) {
    RenderStage r;
    r.def = s;
    r.shader_stage = index;
    r.rgb_gen = s.rgb_gen;
    r.alpha_gen = s.alpha_gen;
    switch (s.map) {
    case MapKind::Lightmap:
        r.source = StageSource::Lightmap;
        break;
    case MapKind::White:
    case MapKind::None:
        r.source = StageSource::White;
        break;
    case MapKind::Texture:
    case MapKind::Clamp:
    case MapKind::Animated:
    case MapKind::Video:
        r.source = StageSource::Texture;
        for (const std::string& name : s.images)
            r.frames.push_back(imageIndex(images, name, s.map == MapKind::Clamp, !def.no_mipmaps));
        if (r.frames.empty())
            r.source = StageSource::White;
        break;
    }
    return r;
}

glm::mat3 affine(float m00, float m01, float m10, float m11, float t0, float t1) {
    // s' = s * m00 + t * m10 + t0, t' = s * m01 + t * m11 + t1 (ioquake3's transform order),
    // as a column-major matrix acting on (s, t, 1).
    return glm::mat3(glm::vec3(m00, m01, 0.0f), glm::vec3(m10, m11, 0.0f), glm::vec3(t0, t1, 1.0f));
}

} // namespace

bool isPlainLightmapped(const std::vector<RenderStage>& stages) {
    if (stages.size() != 1)
        return false;
    const RenderStage& r = stages[0];
    const ShaderStage& s = r.def;
    return r.times_lightmap && r.source == StageSource::Texture && r.frames.size() == 1 &&
           !s.blend &&
           (s.alpha_func == content::AlphaFunc::None ||
            s.alpha_func == content::AlphaFunc::Ge128) &&
           s.tc_mods.empty() && s.tc_gen == content::TcGen::Base && r.rgb_gen == RgbGen::Identity &&
           (r.alpha_gen == AlphaGen::Identity || r.alpha_gen == AlphaGen::Vertex) &&
           s.map != MapKind::Clamp;
}

bool isAdditive(const ShaderStage& stage) {
    if (!stage.blend || stage.dst != BlendFactor::One)
        return false;
    switch (stage.src) {
    case BlendFactor::Zero:
    case BlendFactor::One:
    case BlendFactor::SrcColor:
    case BlendFactor::OneMinusSrcColor:
    case BlendFactor::SrcAlpha:
    case BlendFactor::OneMinusSrcAlpha:
        return true;
    default:
        return false;
    }
}

size_t foldableRun(std::span<const RenderStage* const> drawn, size_t max_stages, bool opaque_base) {
    if (drawn.empty() || max_stages == 0)
        return 0;
    const ShaderStage& first = drawn[0]->def;
    if (!opaque_base && isAdditive(first) && !first.depth_write) {
        size_t n = 1;
        while (n < drawn.size() && n < max_stages && isAdditive(drawn[n]->def) &&
               !drawn[n]->def.depth_write && drawn[n]->def.depth_func == first.depth_func)
            ++n;
        return n;
    }
    if (!opaque_base && first.blend)
        return 1; // blends with whatever is behind the surface: only the framebuffer has that
    // The cut-out pixels of an alpha-tested first stage show what is behind; on those, later
    // stages must not draw (depthFunc equal) for the fold to match.
    const bool cut_out = !opaque_base && first.alpha_func != content::AlphaFunc::None;
    size_t n = 1;
    while (n < drawn.size() && n < max_stages) {
        if (cut_out && drawn[n]->def.depth_func != content::DepthFunc::Equal)
            break;
        ++n;
    }
    return n;
}

std::vector<RenderStage> buildRenderStages(const ShaderDef& def, std::vector<StageImage>& images) {
    std::vector<RenderStage> out;
    const bool sky = def.isSky();
    for (size_t i = 0; i < def.stages.size(); ++i) {
        const ShaderStage& s = def.stages[i];
        if (s.map == MapKind::None)
            continue; // ioquake3: "shader has a stage with no image"
        if (sky) {
            if (isTextureStage(s))
                out.push_back(makeStage(def, s, static_cast<int>(i), images));
            continue;
        }
        // Only the first two stages: ioquake3 collapses stages[0] and stages[1] and nothing
        // later. A later texture + lightmap-filter pair must stay two passes, because the
        // filter multiplies everything drawn before it (an environment stage under an added
        // texture, for one), not just the stage it follows.
        if (i == 0 && def.stages.size() > 1 && collapsible(s, def.stages[1])) {
            const ShaderStage& n = def.stages[i + 1];
            const ShaderStage& tex = s.map == MapKind::Lightmap ? n : s;
            RenderStage r = makeStage(def, tex, static_cast<int>(i), images);
            r.times_lightmap = true;
            r.shader_stage_count = 2;
            // The pair draws with the first stage's blend, depth write and colour.
            r.def.blend = s.blend;
            r.def.src = s.src;
            r.def.dst = s.dst;
            r.def.depth_write = s.depth_write;
            r.rgb_gen = s.rgb_gen;
            r.alpha_gen = s.alpha_gen;
            r.def.rgb_wave = s.rgb_wave;
            r.def.rgb_const = s.rgb_const;
            r.def.alpha_wave = s.alpha_wave;
            r.def.alpha_const = s.alpha_const;
            out.push_back(std::move(r));
            ++i;
            continue;
        }
        out.push_back(makeStage(def, s, static_cast<int>(i), images));
    }
    return out;
}

void loadStageImages(std::vector<StageImage>& images, const content::FileSystem& fs) {
    // Decoded on worker threads (FileSystem reads are safe from several; each image is its
    // own slot), as the material textures are.
    core::parallelFor(images.size(), [&](size_t i) {
        StageImage& img = images[i];
        if (img.image.width > 0)
            return;
        content::TextureInfo found = content::loadImageTexture(fs, img.name);
        img.image = std::move(found.image);
        img.source = std::move(found.source);
        img.missing = found.missing;
    });
}

namespace {

// How the blended faces of a material may be ordered (BlendOrder), from how the renderer
// draws them: its stages (staged) or the single-texture path (no stages).
BlendOrder blendOrderOf(const ResolvedMaterial& material, const StagedMaterial& staged) {
    // Sky and fog surfaces are drawn by their own passes; nodraw never.
    if (material.flags & (bsp::kSurfSky | bsp::kSurfFog | bsp::kSurfNoDraw))
        return BlendOrder::Ordered;
    // The single-texture path (debug views, stages off, unstaged materials) blends a
    // kSurfAdditive face as GL_SRC_ALPHA GL_ONE with a constant alpha per material and model
    // and no depth writes: an addition. It is what draws every face of an unstaged material.
    const bool additive_flat = (material.flags & bsp::kSurfAdditive) != 0;
    if (staged.stages.empty())
        return additive_flat ? BlendOrder::Commutes : BlendOrder::CommutesInAdditiveModel;
    // Stage by stage: each stage must add (GL_ONE GL_ONE) without writing depth. alphaFunc
    // only discards fragments, and every stage's colour comes from the face alone (rgbGen,
    // alphaGen, tcMod, deforms, fog fading), never from the frame.
    if (!additive_flat || staged.sky)
        return BlendOrder::Ordered;
    for (const RenderStage& r : staged.stages) {
        const ShaderStage& s = r.def;
        if (!s.blend || s.src != BlendFactor::One || s.dst != BlendFactor::One || s.depth_write)
            return BlendOrder::Ordered;
    }
    return BlendOrder::Commutes;
}

} // namespace

MaterialStages buildMaterialStages(const bsp::Map& map, MaterialTable& table,
                                   const content::ShaderLibrary& shaders,
                                   const content::FileSystem& fs) {
    MaterialStages out;
    out.materials.resize(map.materials.size());
    for (size_t i = 0; i < map.materials.size() && i < table.size(); ++i) {
        ResolvedMaterial& m = table[i];
        const ShaderDef* def = shaders.find(map.materials[i].name);
        m.blend_order = blendOrderOf(m, out.materials[i]); // no stages so far
        if (!def)
            continue;
        m.sort = def->sort;
        StagedMaterial& sm = out.materials[i];
        sm.shader = def;
        if (m.flags & (bsp::kSurfNoDraw | bsp::kSurfFog) && !(m.flags & bsp::kSurfSky))
            continue;
        sm.sky = def->isSky();
        std::vector<RenderStage> stages = buildRenderStages(*def, out.images);
        // Deformed surfaces need the stage path (its vertex shader deforms).
        if (!sm.sky && isPlainLightmapped(stages) && !hasDrawnDeform(*def))
            continue; // the single-texture path draws it (its image is the primary image)
        sm.stages = std::move(stages);
        out.staged += sm.stages.empty() ? 0 : 1;
        m.blend_order = blendOrderOf(m, sm);
    }
    loadStageImages(out.images, fs);
    for (const StageImage& img : out.images)
        out.missing_images += img.missing ? 1 : 0;
    return out;
}

WorldMesh buildMapMesh(const bsp::Map& map, const MaterialTable& materials,
                       const MaterialStages& stages, const WorldMeshOptions& options) {
    WorldMesh mesh = buildWorldMesh(map, materials, options);
    std::vector<const ShaderDef*> shaders;
    shaders.reserve(stages.materials.size());
    for (const StagedMaterial& m : stages.materials)
        shaders.push_back(m.stages.empty() ? nullptr : m.shader);
    mesh.sprites = buildSpriteVertices(mesh, shaders);
    return mesh;
}

namespace {

// The image a stage shows at `time`: its animMap frame (anim_frequency frames a second).
void applyStageImage(const RenderStage& r, double time, StageFrame& f) {
    const ShaderStage& s = r.def;
    if (r.source == StageSource::Texture && !r.frames.empty()) {
        size_t frame = 0;
        if (r.frames.size() > 1 && s.anim_frequency > 0.0f) {
            const double step = std::floor(time * s.anim_frequency);
            frame = step > 0.0 ? static_cast<size_t>(std::fmod(step, 1e9)) % r.frames.size() : 0;
        }
        f.image = r.frames[frame];
    }
}

// The stage's rgbGen: a constant colour or the vertex colours, scaled as ioquake3 scales them.
void applyRgbGen(const RenderStage& r, double time, float identity_light, StageFrame& f) {
    const ShaderStage& s = r.def;
    switch (r.rgb_gen) {
    case RgbGen::Identity:
        break;
    case RgbGen::IdentityLighting:
        // tr.identityLightByte, an int: 255 * 1/2 is 127.
        f.colour = glm::vec4(glm::vec3(std::floor(255.0f * identity_light) / 255.0f), 1.0f);
        break;
    case RgbGen::Vertex:
        f.vertex_rgb = true;
        f.vertex_scale = identity_light;
        break;
    case RgbGen::ExactVertex:
        f.vertex_rgb = true;
        break;
    case RgbGen::OneMinusVertex:
        f.vertex_rgb = true;
        f.one_minus_vertex = true;
        f.vertex_scale = identity_light;
        break;
    case RgbGen::Wave: {
        float glow = evalWave(s.rgb_wave, time);
        if (s.rgb_wave.func != content::WaveFunc::Noise)
            glow *= identity_light;
        f.colour = glm::vec4(glm::vec3(std::clamp(glow, 0.0f, 1.0f)), 1.0f);
        break;
    }
    case RgbGen::Const:
        f.colour = glm::vec4(glm::clamp(s.rgb_const, glm::vec3(0.0f), glm::vec3(1.0f)), 1.0f);
        break;
    }
}

// The stage's alphaGen: a constant alpha or the vertex alphas.
void applyAlphaGen(const RenderStage& r, double time, StageFrame& f) {
    const ShaderStage& s = r.def;
    switch (r.alpha_gen) {
    case AlphaGen::Identity:
    case AlphaGen::LightingSpecular: // needs a light direction; drawn opaque
        f.colour.a = 1.0f;
        break;
    case AlphaGen::Const:
        f.colour.a = std::clamp(s.alpha_const, 0.0f, 1.0f);
        break;
    case AlphaGen::Wave:
        f.colour.a = std::clamp(evalWave(s.alpha_wave, time), 0.0f, 1.0f);
        break;
    case AlphaGen::Vertex:
        f.vertex_alpha = true;
        break;
    case AlphaGen::OneMinusVertex:
        f.vertex_alpha = true;
        f.one_minus_vertex_alpha = true;
        break;
    }
}

// One tcMod's texture matrix at `time`; turb is not a matrix and goes to `f.turb`.
glm::mat3 tcModStep(const content::TcMod& mod, double time, StageFrame& f) {
    glm::mat3 step(1.0f);
    switch (mod.kind) {
    case content::TcModKind::Scroll: {
        double ss = mod.s * time, ts = mod.t * time;
        ss -= std::floor(ss); // ioquake3 keeps the offset small for precision
        ts -= std::floor(ts);
        step = affine(1, 0, 0, 1, static_cast<float>(ss), static_cast<float>(ts));
        break;
    }
    case content::TcModKind::Scale:
        step = affine(mod.s, 0, 0, mod.t, 0, 0);
        break;
    case content::TcModKind::Rotate: {
        const double degs = -mod.s * time;
        const double rad = (degs - 360.0 * std::floor(degs / 360.0)) * std::numbers::pi / 180.0;
        const auto sn = static_cast<float>(std::sin(rad)), cs = static_cast<float>(std::cos(rad));
        // ioquake3 RB_CalcRotateTexCoords: matrix {cos, sin, -sin, cos}, about (0.5, 0.5).
        step = affine(cs, sn, -sn, cs, 0.5f - 0.5f * cs + 0.5f * sn, 0.5f - 0.5f * sn - 0.5f * cs);
        break;
    }
    case content::TcModKind::Stretch: {
        const float w = evalWave(mod.wave, time);
        const float p = std::abs(w) < 1e-4f ? 1e4f : 1.0f / w;
        step = affine(p, 0, 0, p, 0.5f - 0.5f * p, 0.5f - 0.5f * p);
        break;
    }
    case content::TcModKind::Transform:
        step = affine(mod.matrix[0], mod.matrix[1], mod.matrix[2], mod.matrix[3], mod.translate[0],
                      mod.translate[1]);
        break;
    case content::TcModKind::Turb: {
        const double now = mod.wave.phase + time * mod.wave.frequency;
        f.turb =
            glm::vec4(mod.wave.amplitude, static_cast<float>(now - std::floor(now)), 0.0f, 1.0f);
        break;
    }
    case content::TcModKind::EntityTranslate:
        break; // world surfaces have no entity
    }
    return step;
}

} // namespace

StageFrame evalStage(const RenderStage& r, double time, float identity_light) {
    StageFrame f;
    applyStageImage(r, time, f);
    applyRgbGen(r, time, identity_light, f);
    applyAlphaGen(r, time, f);
    glm::mat3 m(1.0f);
    for (const content::TcMod& mod : r.def.tc_mods)
        m = tcModStep(mod, time, f) * m;
    f.tc_matrix = m;
    return f;
}

} // namespace scene
