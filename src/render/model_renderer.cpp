#include "render/model_renderer.h"

#include "render/draw_state.h"

#include "content/image/mipmap.h"

#include "scene/models/animation.h"
#include "scene/models/model_draw_state.h"
#include "scene/models/source_props.h"
#include "scene/models/studio_lod.h"

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>

#include <algorithm>
#include <cmath>

namespace render {

namespace {

// RGBA8 with mipmaps (`mips`, levels 1.., when given; else made by the driver); nearest texels
// up close, as Quake's skins look.
Texture uploadRgba(int width, int height, const uint8_t* rgba, const char* label_text,
                   const std::vector<content::Image>& mips = {}) {
    Texture t = makeTexture(GL_TEXTURE_2D, label_text);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    for (size_t k = 0; k < mips.size(); ++k)
        glTexImage2D(GL_TEXTURE_2D, GLint(k + 1), GL_RGBA8, mips[k].width, mips[k].height, 0,
                     GL_RGBA, GL_UNSIGNED_BYTE, mips[k].rgba.data());
    if (mips.empty())
        glGenerateMipmap(GL_TEXTURE_2D);
    else
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, GLint(mips.size()));
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindTexture(GL_TEXTURE_2D, 0);
    return t;
}

// A skin that brings its file's mips (a Source material) goes up with those, which an alpha
// test then cuts by as the engine does.
bool hasOwnMips(const content::ModelImage& img) {
    return img.fullbright.empty() && !img.mips.empty();
}

// A skin image as it goes up: its fullbright mask in alpha, 0 on fullbright texels
// (model.frag.glsl).
content::Image skinLevel0(const content::ModelImage& img) {
    content::Image out;
    out.width = img.width;
    out.height = img.height;
    out.rgba = img.rgba;
    for (size_t i = 0; i < img.fullbright.size() && i * 4 + 3 < out.rgba.size(); ++i)
        out.rgba[i * 4 + 3] = static_cast<uint8_t>(255 - img.fullbright[i]);
    return out;
}

// Level 0 of every skin (but those with their own mips) and sprite picture of `set`, in the
// order ModelRenderer::upload meets them, with its mips from content::mipChains, built on the
// worker threads: glGenerateMipmap costs llvmpipe ~15x the upload (content/image/mipmap.h).
// Rounded to the nearest, as the driver's mipmaps are; a 1x1 or invalid image gets no chain
// (the driver makes its levels).
struct MippedImages {
    std::vector<content::Image> levels0;
    std::vector<std::vector<content::Image>> chains;
};

MippedImages mipModelImages(const scene::EntityModelSet& set) {
    MippedImages out;
    for (const scene::LoadedModel& lm : set.models) {
        if (lm.mesh && lm.mesh->vertex_count > 0 && !lm.mesh->indices.empty()) {
            for (const content::ModelImage& img : lm.mesh->images)
                if (!hasOwnMips(img))
                    out.levels0.push_back(skinLevel0(img));
        } else if (lm.sprite) {
            for (const content::SpritePicture& p : lm.sprite->pictures)
                out.levels0.push_back(content::Image{p.width, p.height, p.rgba, nullptr});
        }
    }
    std::vector<const content::Image*> images;
    images.reserve(out.levels0.size());
    for (const content::Image& img : out.levels0)
        images.push_back(&img);
    out.chains = content::mipChains(images, content::MipRounding::Nearest);
    return out;
}

// QuakeSpasm gl_rmain.c R_RotateForEntity: yaw about z, then pitch (negated) about y, then roll
// about x. `pitch_down`: Source's AngleMatrix (scene::sourcePropMatrix), the pitch as given.
glm::mat4 placement(const glm::vec3& origin, const glm::vec3& angles, bool pitch_down) {
    if (pitch_down)
        return scene::sourcePropMatrix(origin, angles);
    glm::mat4 m = glm::translate(glm::mat4(1.0f), origin);
    m = glm::rotate(m, glm::radians(angles.y), glm::vec3(0, 0, 1));
    m = glm::rotate(m, glm::radians(-angles.x), glm::vec3(0, 1, 0));
    m = glm::rotate(m, glm::radians(angles.z), glm::vec3(1, 0, 0));
    return m;
}

// QuakeSpasm r_alias.c R_SetupAliasLighting: the shade vector for the entity's yaw quantised to
// 16 steps, in model space.
glm::vec3 shadeVector(float yaw_degrees) {
    const int quantised = static_cast<int>(yaw_degrees * (16.0f / 360.0f)) & 15;
    const float an = -float(quantised) * (2.0f * 3.14159265f / 16.0f);
    return glm::normalize(glm::vec3(std::cos(an), std::sin(an), 1.0f));
}

// The sprite's right and up axes (QuakeSpasm r_sprite.c R_DrawSpriteModel).
void spriteAxes(content::SpriteOrientation type, const scene::Camera& camera,
                const scene::EntityModelInstance& inst, glm::vec3* right, glm::vec3* up) {
    switch (type) {
    case content::SpriteOrientation::ParallelUpright:
        *up = glm::vec3(0, 0, 1);
        *right = camera.right();
        return;
    case content::SpriteOrientation::FacingUpright: {
        glm::vec3 f = inst.origin - camera.position;
        f.z = 0.0f;
        const float len = glm::length(f);
        f = len > 0.0f ? f / len : glm::vec3(1, 0, 0);
        *right = glm::vec3(f.y, -f.x, 0.0f);
        *up = glm::vec3(0, 0, 1);
        return;
    }
    case content::SpriteOrientation::Oriented: {
        const glm::mat4 m = placement(glm::vec3(0.0f), inst.angles, inst.pitch_down);
        *right = -glm::vec3(m[1]); // AngleVectors' right is -y of the placed frame
        *up = glm::vec3(m[2]);
        return;
    }
    case content::SpriteOrientation::ParallelOriented: {
        const float roll = glm::radians(inst.angles.z);
        const float s = std::sin(roll), c = std::cos(roll);
        *right = camera.right() * c + camera.up() * s;
        *up = camera.right() * -s + camera.up() * c;
        return;
    }
    case content::SpriteOrientation::Parallel:
        break;
    }
    *right = camera.right();
    *up = camera.up();
}

// How much of an instance its distance fade leaves from `camera` (1: none or not begun).
float fadeOpacity(const scene::EntityModelInstance& inst, const scene::Camera& camera) {
    return inst.fade.max_sq > 0.0f ? scene::distanceFadeOpacity(inst.fade, camera.position) : 1.0f;
}

// The world lights of a Source prop (shaders/model.vert.glsl's u_local_*), none for the rest.
// `at`: the locations of u_local_count, _colour, _dir, _spot, _pos, _atten.
void setLocalLights(const std::array<GLint, 6>& at, const scene::EntityModelInstance& inst) {
    const uint32_t n =
        inst.cube_lit ? std::min(inst.local_light_count, scene::kMaxSourceLocalLights) : 0;
    glUniform1i(at[0], GLint(n));
    if (n == 0)
        return;
    std::array<glm::vec4, scene::kMaxSourceLocalLights> colour{}, dir{}, spot{};
    std::array<glm::vec3, scene::kMaxSourceLocalLights> pos{}, atten{};
    for (uint32_t i = 0; i < n; ++i) {
        const scene::SourceLocalLight& l = inst.local_lights[i];
        colour[i] = glm::vec4(l.colour, l.directional ? 1.0f : 0.0f);
        dir[i] = glm::vec4(l.direction, l.cone ? 1.0f : 0.0f);
        spot[i] = l.spot;
        pos[i] = l.position;
        atten[i] = l.attenuation;
    }
    glUniform4fv(at[1], GLsizei(n), glm::value_ptr(colour[0]));
    glUniform4fv(at[2], GLsizei(n), glm::value_ptr(dir[0]));
    glUniform4fv(at[3], GLsizei(n), glm::value_ptr(spot[0]));
    glUniform3fv(at[4], GLsizei(n), glm::value_ptr(pos[0]));
    glUniform3fv(at[5], GLsizei(n), glm::value_ptr(atten[0]));
}

} // namespace

bool ModelRenderer::buildAliasProgram(const GlslLibrary& shaders, bool alpha_test, bool fog,
                                      AliasProgram* out, std::string* error) {
    AliasProgram p;
    std::string defines = alpha_test ? "ALPHA_TEST" : "";
    if (fog)
        defines += defines.empty() ? "FOG" : " FOG";
    p.program = shaders.build("model|alias " + defines, "model.vert.glsl", "model.frag.glsl",
                              defines, error);
    if (!p.program)
        return false;
    const GLuint id = p.program.id();
    locateAll(id, {{&p.model, "u_model"},
                   {&p.shade, "u_shade_vector"},
                   {&p.light, "u_light"},
                   {&p.directed_light, "u_directed_light"},
                   {&p.light_dir, "u_light_dir"},
                   {&p.light_wrap, "u_light_wrap"},
                   {&p.light_bytes, "u_light_bytes"},
                   {&p.unlit, "u_unlit"},
                   {&p.alpha, "u_alpha"},
                   {&p.chrome, "u_chrome"},
                   {&p.flat_share, "u_flat_share"},
                   {&p.chrome_right, "u_chrome_right"},
                   {&p.chrome_up, "u_chrome_up"},
                   {&p.chrome_rect, "u_chrome_rect"},
                   {&p.chrome_scale, "u_chrome_scale"},
                   {&p.cube_lit, "u_cube_lit"},
                   {&p.cube, "u_cube"},
                   {&p.local_count, "u_local_count"},
                   {&p.local_colour, "u_local_colour"},
                   {&p.local_dir, "u_local_dir"},
                   {&p.local_pos, "u_local_pos"},
                   {&p.local_spot, "u_local_spot"},
                   {&p.local_atten, "u_local_atten"},
                   {&p.texture_alpha, "u_texture_alpha"}});
    *out = std::move(p);
    return true;
}

bool ModelRenderer::buildSpriteProgram(const GlslLibrary& shaders, bool fog, SpriteProgram* out,
                                       std::string* error) {
    SpriteProgram p;
    const std::string defines = fog ? "SPRITE FOG" : "SPRITE";
    p.program =
        shaders.build("model|" + defines, "model.vert.glsl", "model.frag.glsl", defines, error);
    if (!p.program)
        return false;
    const GLuint id = p.program.id();
    locateAll(id, {{&p.alpha, "u_alpha"},
                   {&p.tint, "u_tint"},
                   {&p.origin, "u_origin"},
                   {&p.right, "u_right"},
                   {&p.up, "u_up"},
                   {&p.rect, "u_rect"},
                   {&p.alpha_test, "u_alpha_test"}});
    *out = std::move(p);
    return true;
}

bool ModelRenderer::buildPrograms(const GlslLibrary& shaders, Programs* out, std::string* error) {
    Programs p;
    for (const bool alpha_test : {false, true})
        for (const bool fog : {false, true})
            if (!buildAliasProgram(shaders, alpha_test, fog,
                                   &p.aliases[2 * size_t(alpha_test) + size_t(fog)], error))
                return false;
    for (const bool fog : {false, true})
        if (!buildSpriteProgram(shaders, fog, &p.sprites[size_t(fog)], error))
            return false;
    GLint bound = 0;
    glGetIntegerv(GL_CURRENT_PROGRAM, &bound);
    std::vector<const Program*> every;
    for (const AliasProgram& a : p.aliases)
        every.push_back(&a.program);
    for (const SpriteProgram& s : p.sprites)
        every.push_back(&s.program);
    for (const Program* prog : every)
        bindSampler(prog->id(), "u_texture", kUnitTexture);
    glUseProgram(static_cast<GLuint>(bound));
    *out = std::move(p);
    return true;
}

bool ModelRenderer::init(const GlslLibrary& shaders, std::string* error) {
    if (!buildPrograms(shaders, &m_programs, error))
        return false;
    m_quad_vao = makeVertexArray("models/sprite quad");
    return true;
}

bool ModelRenderer::reloadPrograms(const GlslLibrary& shaders, std::string* error) {
    Programs fresh;
    if (!buildPrograms(shaders, &fresh, error))
        return false;
    m_programs = std::move(fresh);
    return true;
}

void ModelRenderer::clear() {
    m_models.clear();
    m_instances.clear();
    m_draw.clear();
    m_lods.clear();
    m_drawn = 0;
}

namespace {

// A model's vertex array: its poses' (position, normal) pairs, its texture coordinates and its
// indices, in buffers of their own.
struct AliasBuffers {
    VertexArray& vao;
    Buffer& poses;
    Buffer& uv;
    Buffer& indices;
};
void uploadAliasBuffers(AliasBuffers g, const std::vector<float>& poses,
                        const std::vector<std::array<float, 2>>& uv,
                        const std::vector<uint32_t>& indices) {
    g.vao = makeVertexArray("models/alias");
    g.poses = makeBuffer("models/poses");
    g.uv = makeBuffer("models/uv");
    g.indices = makeBuffer("models/indices");
    glBindVertexArray(g.vao.id());
    glBindBuffer(GL_ARRAY_BUFFER, g.poses.id());
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(poses.size() * sizeof(float)), poses.data(),
                 GL_STATIC_DRAW);
    glEnableVertexAttribArray(kAttribPosition);
    glEnableVertexAttribArray(kAttribNormal);
    glBindBuffer(GL_ARRAY_BUFFER, g.uv.id());
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(uv.size() * sizeof(uv[0])), uv.data(), GL_STATIC_DRAW);
    glEnableVertexAttribArray(kAttribUv);
    glVertexAttribPointer(kAttribUv, 2, GL_FLOAT, GL_FALSE, sizeof(uv[0]), nullptr);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, g.indices.id());
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(indices.size() * sizeof(uint32_t)),
                 indices.data(), GL_STATIC_DRAW);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

} // namespace

void ModelRenderer::upload(const scene::EntityModelSet* set) {
    clear();
    if (!set)
        return;
    m_instances = set->instances;
    m_models.resize(set->models.size());
    MippedImages mipped = mipModelImages(*set);
    size_t next_mipped = 0;
    const auto uploadMipped = [&](const char* label) {
        content::Image& level0 = mipped.levels0[next_mipped];
        std::vector<content::Image>& chain = mipped.chains[next_mipped];
        ++next_mipped;
        Texture t = uploadRgba(level0.width, level0.height, level0.rgba.data(), label, chain);
        level0 = {};
        chain = {};
        return t;
    };
    for (size_t i = 0; i < set->models.size(); ++i) {
        const scene::LoadedModel& lm = set->models[i];
        if (lm.mesh && lm.mesh->vertex_count > 0 && !lm.mesh->indices.empty()) {
            const content::ModelMesh& m = *lm.mesh;
            AliasGpu g;
            // Source studio models' coarser LODs go after LOD 0: their new vertices after its
            // vertices (one pose), their indices after its indices.
            const bool lods = !m.lods.empty() && m.pose_count == 1 &&
                              m.lod_positions.size() == m.lod_normals.size() &&
                              m.lod_positions.size() == m.lod_uv.size();
            const size_t extra = lods ? m.lod_positions.size() : 0;
            g.vertex_count = m.vertex_count + uint32_t(extra);
            g.index_count = static_cast<uint32_t>(m.indices.size());
            g.pose_count = m.pose_count;
            // Per pose: vertex_count (position, normal) pairs.
            std::vector<float> poses;
            poses.reserve((m.positions.size() + extra) * 6);
            for (size_t v = 0; v < m.positions.size(); ++v) {
                poses.insert(poses.end(), m.positions[v].begin(), m.positions[v].end());
                poses.insert(poses.end(), m.normals[v].begin(), m.normals[v].end());
            }
            std::vector<std::array<float, 2>> uv = m.uv;
            std::vector<uint32_t> indices = m.indices;
            if (lods) {
                for (size_t v = 0; v < extra; ++v) {
                    poses.insert(poses.end(), m.lod_positions[v].begin(), m.lod_positions[v].end());
                    poses.insert(poses.end(), m.lod_normals[v].begin(), m.lod_normals[v].end());
                }
                uv.insert(uv.end(), m.lod_uv.begin(), m.lod_uv.end());
                for (const content::ModelMesh::Lod& l : m.lods) {
                    const uint32_t base = uint32_t(indices.size());
                    indices.insert(indices.end(), l.indices.begin(), l.indices.end());
                    std::vector<std::array<uint32_t, 2>> spans;
                    for (const std::array<uint32_t, 2>& s : l.spans)
                        spans.push_back({base + s[0], s[1]});
                    g.lod_spans.push_back(std::move(spans));
                }
                g.lod_switch_points = m.lod_switch_points;
                g.lod_shadow = m.lod_shadow;
            }
            g.total_indices = uint32_t(indices.size());
            uploadAliasBuffers({g.vao, g.poses, g.uv, g.indices}, poses, uv, indices);
            for (const content::ModelImage& img : m.images)
                g.images.push_back(hasOwnMips(img)
                                       ? uploadRgba(img.width, img.height, img.rgba.data(),
                                                    "models/skin", img.mips)
                                       : uploadMipped("models/skin"));
            g.timing.frames = m.frames;
            g.timing.skins = m.skins;
            g.timing.pose_count = m.pose_count;
            g.timing.images.resize(m.images.size());
            g.timing.ranges = m.ranges;
            g.timing.skin_ranges = m.skin_ranges;
            if (g.timing.ranges.empty())
                g.timing.ranges.push_back({0, g.index_count});
            m_models[i].alias = std::move(g);
        } else if (lm.sprite && !lm.sprite->pictures.empty()) {
            SpriteGpu g;
            g.timing = *lm.sprite;
            for (content::SpritePicture& p : g.timing.pictures) {
                g.pictures.push_back(uploadMipped("models/sprite"));
                p.rgba.clear();
                p.rgba.shrink_to_fit();
            }
            m_models[i].sprite = std::move(g);
        }
    }
    resolveDrawStates();
}

void ModelRenderer::resolveDrawStates() {
    m_draw.assign(m_instances.size(), {});
    for (size_t i = 0; i < m_instances.size(); ++i) {
        const scene::EntityModelInstance& inst = m_instances[i];
        if (inst.model >= m_models.size())
            continue;
        const ModelGpu& gpu = m_models[inst.model];
        InstanceDraw& d = m_draw[i];
        if (gpu.alias) {
            d.ranges = scene::modelRangeDrawStates(
                inst, content::skinRanges(gpu.alias->timing, inst.skin));
            d.alpha = scene::modelOpacity(inst);
        } else if (gpu.sprite) {
            d.sprite = scene::spriteDrawState(inst.render, gpu.sprite->timing.render_mode);
            d.alpha = scene::spriteOpacity(inst.render);
            d.tint = scene::spriteTint(inst.render);
        }
    }
}

void ModelRenderer::draw(const scene::Camera& camera, double time, const scene::DrawList& list,
                         ViewMode view, GlState& state, bool fog) {
    m_drawn = 0;
    if (list.models.empty() || !m_programs.aliases[0].program)
        return; // buildPrograms builds all of them or none
    DebugGroup group("models");
    GLint viewport[4] = {0, 0, 0, 0};
    glGetIntegerv(GL_VIEWPORT, viewport);
    const DrawContext c{camera, time, view == ViewMode::Lit, fog, state, float(viewport[3])};
    m_counted.assign(m_instances.size(), 0);
    m_lods.resize(m_instances.size(), 0);
    // Each instance's LOD once a frame, for the three passes below to share.
    for (uint32_t index : list.models)
        if (index < m_instances.size())
            m_lods[index] = chooseLod(c, index);
    state.depthFunc(GL_LEQUAL);
    // Opaque ranges first, those that are not alpha-tested before those that are (each kind on
    // its own program, so the program changes about twice a frame), then the blended ones over
    // them in range order (scene::DrawOrder).
    for (bool alpha_test : {false, true})
        for (uint32_t index : list.models)
            drawAliasInstance(c, index, scene::DrawOrder::Opaque, alpha_test);
    for (uint32_t index : list.models)
        drawAliasInstance(c, index, scene::DrawOrder::Blended, std::nullopt);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    drawSprites(c, list);
    state.bindTexture(kUnitTexture, GL_TEXTURE_2D, 0);
    state.enable(GL_DEPTH_TEST, true);
    state.enable(GL_BLEND, false);
    state.enable(GL_CULL_FACE, false);
    state.depthMask(true);
    state.bindVertexArray(0);
    state.useProgram(0);
}

uint32_t ModelRenderer::chooseLod(const DrawContext& c, uint32_t index) const {
    const scene::EntityModelInstance& inst = m_instances[index];
    if (inst.model >= m_models.size() || !m_models[inst.model].alias)
        return 0;
    const AliasGpu& g = *m_models[inst.model].alias;
    if (g.lod_spans.empty())
        return 0;
    // The LOD by the model's screen size (scene/models/studio_lod.h): the engine measures at
    // the entity's origin, its depth along the view.
    const glm::vec3 at = scene::instanceOrigin(inst, c.time);
    const float depth = glm::dot(at - c.camera.position, c.camera.forward());
    const uint32_t lod = scene::studioLodForMetric(
        g.lod_switch_points, scene::studioLodMetric(depth, c.camera.fovY(), c.viewport_height),
        g.lod_shadow);
    return std::min<uint32_t>(lod, uint32_t(g.lod_spans.size()));
}

void ModelRenderer::drawAliasInstance(const DrawContext& c, uint32_t index, scene::DrawOrder order,
                                      std::optional<bool> alpha_test) {
    if (index >= m_instances.size())
        return;
    const scene::EntityModelInstance& inst = m_instances[index];
    if (inst.model >= m_models.size() || !m_models[inst.model].alias)
        return;
    const AliasGpu& g = *m_models[inst.model].alias;
    const std::vector<content::ModelDrawRange>& ranges = content::skinRanges(g.timing, inst.skin);
    const std::vector<scene::DrawState>& states = m_draw[index].ranges;
    // Part-way through its distance fade (Source props): every range blended by the fade.
    const float fade = fadeOpacity(inst, c.camera);
    const auto state = [&](size_t i) {
        return fade < 1.0f ? scene::fadingDrawState(states[i]) : states[i];
    };
    const uint32_t lod = m_lods[index]; // chosen once per frame by draw()
    auto span = [&](size_t i) -> std::array<uint32_t, 2> {
        if (lod == 0)
            return {ranges[i].first_index, ranges[i].index_count};
        const std::vector<std::array<uint32_t, 2>>& spans = g.lod_spans[lod - 1];
        return i < spans.size() ? spans[i] : std::array<uint32_t, 2>{0, 0};
    };
    auto in_pass = [&](size_t i) {
        const std::array<uint32_t, 2> r = span(i);
        const scene::DrawState s = state(i);
        return s.order == order && (!alpha_test || s.alpha_test == *alpha_test) && r[1] > 0 &&
               size_t(r[0]) + r[1] <= g.total_indices;
    };
    bool any = false;
    for (size_t i = 0; i < ranges.size() && !any; ++i)
        any = in_pass(i);
    if (!any)
        return;
    const uint32_t pose = scene::instancePose(inst, g.timing, c.time);
    const uint32_t image = scene::instanceSkinImage(inst, g.timing, c.time);
    if (pose >= g.pose_count || image >= g.images.size())
        return;
    bindPose(c.state, g, pose);
    c.state.bindTexture(kUnitTexture, GL_TEXTURE_2D, g.images[image].id());
    const glm::vec3 origin = scene::instanceOrigin(inst, c.time);
    // The instance's uniforms go to each program the first time one of its ranges uses it.
    std::array<bool, 2> ready{};
    glm::mat3 rotation(1.0f);
    for (size_t i = 0; i < ranges.size(); ++i) {
        if (!in_pass(i))
            continue;
        const scene::DrawState s = state(i);
        const AliasProgram& p = m_programs.alias(s.alpha_test, c.fog);
        c.state.useProgram(p.program.id());
        if (!ready[s.alpha_test]) {
            ready[s.alpha_test] = true;
            glUniform1f(p.alpha, m_draw[index].alpha * fade);
            rotation = setInstanceUniforms(p, inst, c.time);
        }
        drawRange(c, p, g, inst, ranges[i], span(i), s, origin, rotation);
    }
    // An instance drawn in more than one pass is counted once.
    if (!m_counted[index]) {
        m_counted[index] = 1;
        ++m_drawn;
    }
}

glm::mat3 ModelRenderer::setInstanceUniforms(const AliasProgram& p,
                                             const scene::EntityModelInstance& inst,
                                             double time) const {
    glm::vec3 angles = inst.angles;
    angles.y = scene::instanceYaw(inst, time);
    glm::mat4 model = placement(scene::instanceOrigin(inst, time), angles, inst.pitch_down);
    const glm::mat3 rotation(model);
    // Quake 3 weapons as items (cg_ents.c CG_Item): scaled, turned about their midpoint.
    if (inst.scale != 1.0f || inst.pivot != glm::vec3(0.0f))
        model = glm::scale(glm::translate(model, -inst.pivot), glm::vec3(inst.scale));
    glUniformMatrix4fv(p.model, 1, GL_FALSE, glm::value_ptr(model));
    // A directed light (Quake 3's grid, GoldSrc's studio light) takes the place of Quake's
    // fixed shade vector.
    const bool directed = inst.directed_light != glm::vec3(0.0f);
    const glm::vec3 shade = directed ? glm::vec3(0.0f) : shadeVector(angles.y);
    glUniform3f(p.shade, shade.x, shade.y, shade.z);
    glUniform3f(p.light, inst.light.r, inst.light.g, inst.light.b);
    const glm::vec3& dl = inst.directed_light;
    glUniform3f(p.directed_light, dl.r, dl.g, dl.b);
    glUniform3f(p.light_dir, inst.light_dir.x, inst.light_dir.y, inst.light_dir.z);
    const glm::vec3& wrap = inst.light_wrap;
    glUniform3f(p.light_wrap, wrap.x, wrap.y, wrap.z);
    glUniform1f(p.light_bytes, inst.light_bytes);
    glUniform1i(p.cube_lit, inst.cube_lit);
    if (inst.cube_lit)
        glUniform3fv(p.cube, 6, glm::value_ptr(inst.ambient_cube[0]));
    setLocalLights(
        {p.local_count, p.local_colour, p.local_dir, p.local_spot, p.local_pos, p.local_atten},
        inst);
    return rotation;
}

void ModelRenderer::bindPose(GlState& state, const AliasGpu& g, uint32_t pose) {
    state.bindVertexArray(g.vao.id());
    glBindBuffer(GL_ARRAY_BUFFER, g.poses.id());
    const size_t stride = 6 * sizeof(float);
    const size_t first = size_t(pose) * g.vertex_count * stride;
    glVertexAttribPointer(kAttribPosition, 3, GL_FLOAT, GL_FALSE, GLsizei(stride),
                          reinterpret_cast<const void*>(first));
    glVertexAttribPointer(kAttribNormal, 3, GL_FLOAT, GL_FALSE, GLsizei(stride),
                          reinterpret_cast<const void*>(first + 3 * sizeof(float)));
}

void ModelRenderer::drawRange(const DrawContext& c, const AliasProgram& p, const AliasGpu& g,
                              const scene::EntityModelInstance& inst,
                              const content::ModelDrawRange& range, std::array<uint32_t, 2> span,
                              const scene::DrawState& ds, const glm::vec3& origin,
                              const glm::mat3& rotation) const {
    applyDrawState(c.state, ds);
    glUniform1i(p.unlit, !c.lit || ds.lighting == scene::Lighting::Unlit);
    glUniform1i(p.texture_alpha, range.translucent);
    if (range.image >= 0 && size_t(range.image) < g.images.size())
        c.state.bindTexture(kUnitTexture, GL_TEXTURE_2D, g.images[range.image].id());
    glUniform1f(p.flat_share, range.flat ? inst.flat_share : -1.0f);
    glUniform1i(p.chrome, range.chrome);
    if (range.chrome) {
        // Xash3D gl_studio.c R_StudioSetupChrome, with the entity's origin for the bone's:
        // up = |to x view right|, right = |up x to|, turned into model space.
        const glm::vec3 to = glm::normalize(origin - c.camera.position);
        const glm::vec3 up = glm::normalize(glm::cross(to, c.camera.right()));
        const glm::vec3 right = glm::normalize(glm::cross(up, to));
        const glm::vec3 mr = glm::transpose(rotation) * right;
        const glm::vec3 mu = glm::transpose(rotation) * up;
        glUniform3f(p.chrome_right, mr.x, mr.y, mr.z);
        glUniform3f(p.chrome_up, mu.x, mu.y, mu.z);
        glUniform4fv(p.chrome_rect, 1, range.chrome_rect.data());
        glUniform2fv(p.chrome_scale, 1, range.chrome_scale.data());
    }
    glDrawElements(GL_TRIANGLES, GLsizei(span[1]), GL_UNSIGNED_INT,
                   reinterpret_cast<const void*>(size_t(span[0]) * sizeof(uint32_t)));
}

// Sprites after the models, in list order: both sides, alpha-tested or blended by their
// resolved state (the file's format, or the entity's render mode when it has one).
void ModelRenderer::drawSprites(const DrawContext& c, const scene::DrawList& list) {
    bool sprite_program = false;
    for (uint32_t index : list.models) {
        if (index >= m_instances.size())
            continue;
        const scene::EntityModelInstance& inst = m_instances[index];
        if (inst.model >= m_models.size() || !m_models[inst.model].sprite)
            continue;
        const SpriteGpu& g = *m_models[inst.model].sprite;
        const uint32_t picture = scene::instanceSpritePicture(inst, g.timing, c.time);
        if (picture >= g.pictures.size())
            continue;
        const SpriteProgram& sp = m_programs.sprites[size_t(c.fog)];
        if (!sprite_program) {
            c.state.useProgram(sp.program.id());
            c.state.bindVertexArray(m_quad_vao.id());
            sprite_program = true;
        }
        const InstanceDraw& d = m_draw[index];
        applyDrawState(c.state, d.sprite);
        glUniform1i(sp.alpha_test, d.sprite.alpha_test);
        glUniform1f(sp.alpha, d.alpha * fadeOpacity(inst, c.camera));
        glUniform3f(sp.tint, d.tint.r, d.tint.g, d.tint.b);
        glm::vec3 right, up;
        spriteAxes(g.timing.orientation, c.camera, inst, &right, &up);
        glUniform3f(sp.origin, inst.origin.x, inst.origin.y, inst.origin.z);
        glUniform3f(sp.right, right.x, right.y, right.z);
        glUniform3f(sp.up, up.x, up.y, up.z);
        const content::SpritePicture& p = g.timing.pictures[picture];
        const std::array<float, 4> q = content::spritePictureRect(p);
        const float k = inst.scale;
        glUniform4f(sp.rect, k * q[0], k * q[1], k * q[2], k * q[3]);
        c.state.bindTexture(kUnitTexture, GL_TEXTURE_2D, g.pictures[picture].id());
        glDrawArrays(GL_TRIANGLES, 0, 6);
        ++m_drawn;
    }
}

} // namespace render
