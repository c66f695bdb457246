#include "render/world_gpu.h"

#include "content/image/mipmap.h"
#include "render/glsl_library.h"
#include "scene/world/deforms.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <glm/gtc/matrix_transform.hpp>

namespace render {

DrawnStages drawnStages(const GpuStagedMaterial& sm) {
    DrawnStages d;
    for (const scene::RenderStage& stage : sm.stages)
        if (!(sm.disabled & (1u << std::min(stage.shader_stage, 31))) && d.count < d.stages.size())
            d.stages[d.count++] = &stage;
    return d;
}

const scene::ResolvedMaterial* WorldGpu::material(int32_t index) const {
    return index >= 0 && static_cast<size_t>(index) < materials.size()
               ? &materials[static_cast<size_t>(index)]
               : nullptr;
}

const GpuStagedMaterial* WorldGpu::stagedMaterial(int32_t index) const {
    return index >= 0 && static_cast<size_t>(index) < staged.size()
               ? &staged[static_cast<size_t>(index)]
               : nullptr;
}

const bsp::Submodel* WorldGpu::submodel(int32_t index) const {
    return index > 0 && static_cast<size_t>(index) < submodels.size()
               ? &submodels[static_cast<size_t>(index)]
               : nullptr;
}

int32_t WorldGpu::animationFrame(int32_t index, double time) const {
    const scene::ResolvedMaterial* m = material(index);
    if (!m || m->anim_fps <= 0.0f || static_cast<size_t>(index) >= anim_frames.size())
        return index;
    const std::vector<int32_t>& frames = anim_frames[static_cast<size_t>(index)];
    const auto step = static_cast<size_t>(std::floor(time * m->anim_fps));
    return frames[step % frames.size()];
}

namespace {

GLuint playedFrame(const std::vector<WorldGpu::FrameList>& lists, size_t index, GLuint still,
                   double time) {
    if (index >= lists.size() || lists[index].frames.empty())
        return still;
    const WorldGpu::FrameList& l = lists[index];
    const int frame =
        content::animatedTextureFrame(l.animation, static_cast<int>(l.frames.size()), time);
    return l.frames[static_cast<size_t>(frame)];
}

} // namespace

GLuint WorldGpu::baseTexture(int32_t index, double time) const {
    const auto i = static_cast<size_t>(index);
    return playedFrame(base_frames, i, textures[i], time);
}

GLuint WorldGpu::bumpTexture(int32_t index, double time) const {
    const auto i = static_cast<size_t>(index);
    return playedFrame(bump_frames, i, bumps[i], time);
}

glm::mat4 WorldGpu::modelMatrix(int32_t index) const {
    glm::mat4 model(1.0f);
    if (const bsp::Submodel* sm = submodel(index)) {
        model = glm::translate(model, sm->origin);
        model = glm::rotate(model, glm::radians(sm->angles.y), glm::vec3(0, 0, 1));
        model = glm::rotate(model, glm::radians(-sm->angles.x), glm::vec3(0, 1, 0));
        model = glm::rotate(model, glm::radians(sm->angles.z), glm::vec3(1, 0, 0));
    }
    return model;
}

namespace {

void attribute(GLuint location, GLint n, GLenum type, GLboolean normalised, GLsizei stride,
               size_t offset) {
    glEnableVertexAttribArray(location);
    glVertexAttribPointer(location, n, type, normalised, stride,
                          reinterpret_cast<const void*>(offset));
}

// The vertex format of scene::WorldVertex, at the gpu_interface.h locations.
void setupVertexFormat() {
    using scene::WorldVertex;
    constexpr GLsizei kStride = sizeof(WorldVertex);
    attribute(kAttribPosition, 3, GL_FLOAT, GL_FALSE, kStride, offsetof(WorldVertex, position));
    attribute(kAttribUv, 2, GL_FLOAT, GL_FALSE, kStride, offsetof(WorldVertex, uv));
    attribute(kAttribLmUv, 2, GL_FLOAT, GL_FALSE, kStride, offsetof(WorldVertex, lm_uv));
    attribute(kAttribNormal, 3, GL_FLOAT, GL_FALSE, kStride, offsetof(WorldVertex, normal));
    attribute(kAttribColour, 4, GL_UNSIGNED_BYTE, GL_TRUE, kStride, offsetof(WorldVertex, colour));
    attribute(kAttribStyles, 4, GL_UNSIGNED_BYTE, GL_FALSE, kStride, offsetof(WorldVertex, styles));
    attribute(kAttribLmLayer, 1, GL_FLOAT, GL_FALSE, kStride, offsetof(WorldVertex, lm_layer));
    attribute(kAttribLmStep, 1, GL_FLOAT, GL_FALSE, kStride, offsetof(WorldVertex, lm_step));
}

GLenum compressedFormat(content::CompressedMips::Format format) {
    switch (format) {
    case content::CompressedMips::Format::Dxt1:
        return GL_COMPRESSED_RGB_S3TC_DXT1_EXT;
    case content::CompressedMips::Format::Dxt1Alpha:
        return GL_COMPRESSED_RGBA_S3TC_DXT1_EXT;
    case content::CompressedMips::Format::Dxt3:
        return GL_COMPRESSED_RGBA_S3TC_DXT3_EXT;
    case content::CompressedMips::Format::Dxt5:
        break;
    }
    return GL_COMPRESSED_RGBA_S3TC_DXT5_EXT;
}

// The file's own S3TC levels, as they are; the count of levels made.
GLint uploadCompressed(const content::Image& img, bool mipmaps, uint64_t* bytes) {
    const content::CompressedMips& c = *img.compressed;
    const GLenum format = compressedFormat(c.format);
    const size_t levels = mipmaps ? c.levels.size() : 1;
    for (size_t level = 0; level < levels; ++level) {
        const int w = std::max(1, img.width >> level), h = std::max(1, img.height >> level);
        glCompressedTexImage2D(GL_TEXTURE_2D, static_cast<GLint>(level), format, w, h, 0,
                               static_cast<GLsizei>(c.levels[level].size()),
                               c.levels[level].data());
        *bytes += c.levels[level].size();
    }
    return static_cast<GLint>(levels);
}

} // namespace

bool uploadsCompressed(const content::Image& img, CompressedTextures policy) {
    const bool blocks = policy == CompressedTextures::Blocks ||
                        (policy == CompressedTextures::Auto && !caps().software);
    if (!blocks || !img.compressed || !caps().texture_s3tc || img.compressed->levels.empty())
        return false;
    const content::CompressedMips& c = *img.compressed;
    for (size_t level = 0; level < c.levels.size(); ++level)
        if (c.levels[level].size() !=
            content::compressedLevelBytes(c.format, std::max(1, img.width >> level),
                                          std::max(1, img.height >> level)))
            return false;
    return true;
}

namespace {

// `mips`: levels 1.. from content::mipChain (glGenerateMipmap costs llvmpipe ~15x the upload);
// with `mipmaps` false (Quake 3 nomipmaps) only level 0 is made. An image with S3TC blocks
// (content::CompressedMips) goes up compressed where the context takes S3TC, with the file's
// own mips, and `mips` is not used.
// `sampled`, when given, gets the texture for the map's texture filter (applyTextureFilter).
Texture uploadImage(const content::Image& img, const std::vector<content::Image>& mips,
                    const std::string& name, uint64_t* bytes, bool clamp = false,
                    bool mipmaps = true, std::vector<SampledTexture>* sampled = nullptr,
                    CompressedTextures policy = CompressedTextures::Auto) {
    Texture t = makeTexture(GL_TEXTURE_2D, ("texture/" + name).c_str());
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    GLint levels = 1;
    if (uploadsCompressed(img, policy)) {
        levels = uploadCompressed(img, mipmaps, bytes);
    } else {
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, img.width, img.height, 0, GL_RGBA,
                     GL_UNSIGNED_BYTE, img.rgba.data());
        if (mipmaps)
            for (size_t level = 0; level < mips.size(); ++level)
                glTexImage2D(GL_TEXTURE_2D, static_cast<GLint>(level + 1), GL_RGBA8,
                             mips[level].width, mips[level].height, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                             mips[level].rgba.data());
        levels = mipmaps ? static_cast<GLint>(mips.size()) + 1 : 1;
        *bytes += static_cast<uint64_t>(img.width) * static_cast<uint64_t>(img.height) * 4 * 4 / 3;
    }
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, levels - 1);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER,
                    mipmaps ? GL_LINEAR_MIPMAP_LINEAR : GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    const GLint wrap = clamp ? GL_CLAMP_TO_EDGE : GL_REPEAT;
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, wrap);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, wrap);
    if (sampled)
        sampled->push_back({t.id(), levels > 1});
    return t;
}

void setArrayFilter(GLint wrap) {
    glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_WRAP_S, wrap);
    glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_WRAP_T, wrap);
}

void uploadMesh(WorldGpu& gpu, const bsp::Map& map, const scene::WorldMesh& mesh) {
    gpu.vao = makeVertexArray("world/vao");
    gpu.vbo = makeBuffer("world/vertices");
    gpu.ibo = makeBuffer("world/indices");
    glBindVertexArray(gpu.vao.id());
    glBindBuffer(GL_ARRAY_BUFFER, gpu.vbo.id());
    glBufferData(GL_ARRAY_BUFFER,
                 static_cast<GLsizeiptr>(mesh.vertices.size() * sizeof(scene::WorldVertex)),
                 mesh.vertices.data(), GL_STATIC_DRAW);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, gpu.ibo.id());
    glBufferData(GL_ELEMENT_ARRAY_BUFFER,
                 static_cast<GLsizeiptr>(mesh.indices.size() * sizeof(uint32_t)),
                 mesh.indices.data(), GL_STATIC_DRAW);
    setupVertexFormat();
    gpu.stats.vertex_bytes = mesh.vertices.size() * sizeof(scene::WorldVertex);
    gpu.stats.index_bytes = mesh.indices.size() * sizeof(uint32_t);
    // Autosprite data, parallel to the vertices, on the same vertex array.
    if (!mesh.sprites.empty() && mesh.sprites.size() == mesh.vertices.size()) {
        gpu.sprite_vbo = makeBuffer("world/sprites");
        glBindBuffer(GL_ARRAY_BUFFER, gpu.sprite_vbo.id());
        glBufferData(GL_ARRAY_BUFFER,
                     static_cast<GLsizeiptr>(mesh.sprites.size() * sizeof(scene::SpriteVertex)),
                     mesh.sprites.data(), GL_STATIC_DRAW);
        constexpr GLsizei kStride = sizeof(scene::SpriteVertex);
        attribute(kAttribSprite0, 4, GL_FLOAT, GL_FALSE, kStride,
                  offsetof(scene::SpriteVertex, centre));
        attribute(kAttribSprite1, 4, GL_FLOAT, GL_FALSE, kStride,
                  offsetof(scene::SpriteVertex, major));
        gpu.stats.vertex_bytes += mesh.sprites.size() * sizeof(scene::SpriteVertex);
    }
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    gpu.face_ranges.reserve(mesh.faces.size());
    for (size_t i = 0; i < mesh.faces.size(); ++i) {
        const scene::MeshFace& f = mesh.faces[i];
        const int32_t fog = i < map.faces.size() ? map.faces[i].fog : -1;
        gpu.face_ranges.push_back({f.first_index, f.num_indices});
        gpu.face_info.push_back({fog, f.material, f.submodel, f.pass});
        if (fog >= 0 && f.num_indices > 0)
            gpu.fog_by_first_index[f.first_index] = fog;
    }
}

// One array texture, a layer per page, of RGB8 pages of w x h texels; `empty` fills the one
// layer made when there are none.
Texture uploadPageArray(const std::vector<bsp::LightmapPage>& pages, int32_t w, int32_t h,
                        uint8_t empty, const char* label, GpuStats& stats) {
    Texture t = makeTexture(GL_TEXTURE_2D_ARRAY, label);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    const bool have_pages = !pages.empty() && w > 0 && h > 0;
    const GLsizei lw = have_pages ? w : 1;
    const GLsizei lh = have_pages ? h : 1;
    const GLsizei layers = have_pages ? static_cast<GLsizei>(pages.size()) : 1;
    glTexImage3D(GL_TEXTURE_2D_ARRAY, 0, GL_RGB8, lw, lh, layers, 0, GL_RGB, GL_UNSIGNED_BYTE,
                 nullptr);
    if (have_pages) {
        const size_t page_bytes = static_cast<size_t>(lw) * static_cast<size_t>(lh) * 3;
        for (size_t i = 0; i < pages.size(); ++i) {
            if (pages[i].rgb.size() < page_bytes)
                continue;
            glTexSubImage3D(GL_TEXTURE_2D_ARRAY, 0, 0, 0, static_cast<GLint>(i), lw, lh, 1, GL_RGB,
                            GL_UNSIGNED_BYTE, pages[i].rgb.data());
        }
    } else {
        const uint8_t texel[3] = {empty, empty, empty};
        glTexSubImage3D(GL_TEXTURE_2D_ARRAY, 0, 0, 0, 0, 1, 1, 1, GL_RGB, GL_UNSIGNED_BYTE, texel);
    }
    setArrayFilter(GL_CLAMP_TO_EDGE);
    stats.texture_bytes +=
        static_cast<uint64_t>(lw) * static_cast<uint64_t>(lh) * 4 * static_cast<uint64_t>(layers);
    return t;
}

// The lightmap pages the mesh's layers index, and their light directions.
void uploadLightmaps(WorldGpu& gpu, const bsp::Map& map, const scene::LightmapSet* set) {
    const std::vector<bsp::LightmapPage>& pages = set ? set->pages : map.lightmap_pages;
    const int32_t w = set ? set->width : map.lightmap_width;
    const int32_t h = set ? set->height : map.lightmap_height;
    gpu.lightmaps = uploadPageArray(pages, w, h, 255, "world/lightmaps", gpu.stats);
    gpu.stats.lightmap_pages =
        pages.empty() || w <= 0 || h <= 0 ? 1u : static_cast<uint32_t>(pages.size());
    static const std::vector<bsp::LightmapPage> kNone;
    const std::vector<bsp::LightmapPage>& deluxe = set ? set->deluxe : kNone;
    gpu.deluxemaps = uploadPageArray(deluxe, w, h, 128, "world/deluxemaps", gpu.stats);
    gpu.stats.deluxe_pages = static_cast<uint32_t>(deluxe.size());
}

// Identical images (same size and texels) are uploaded once; candidates are found by source
// name and size, then compared texel by texel.
class UniqueImages {
public:
    int32_t slotOf(const content::Image& img, const std::string& source, const std::string& label) {
        if (!img.valid())
            return -1;
        const std::string key =
            source + "|" + std::to_string(img.width) + "x" + std::to_string(img.height);
        auto& candidates = m_seen[key];
        for (const uint32_t u : candidates)
            if (images[u]->rgba == img.rgba)
                return static_cast<int32_t>(u);
        candidates.push_back(static_cast<uint32_t>(images.size()));
        images.push_back(&img);
        labels.push_back(label);
        return static_cast<int32_t>(images.size() - 1);
    }
    std::vector<const content::Image*> images;
    std::vector<std::string> labels;

private:
    std::unordered_map<std::string, std::vector<uint32_t>> m_seen;
};

content::MipRounding mipRounding(const game::MapRules& rules) {
    return rules.light.mips_round_down ? content::MipRounding::Down : content::MipRounding::Nearest;
}

void uploadTextures(WorldGpu& gpu, const bsp::Map& map,
                    const std::vector<content::TextureInfo>& textures, const game::MapRules& rules,
                    CompressedTextures policy) {
    UniqueImages unique;
    std::vector<int32_t> tex_slot(textures.size()), glow_slot(textures.size()),
        layer2_slot(textures.size()), bump_slot(textures.size());
    for (size_t i = 0; i < textures.size(); ++i) {
        tex_slot[i] = unique.slotOf(textures[i].image, textures[i].source, map.materials[i].name);
        glow_slot[i] = unique.slotOf(textures[i].glow, textures[i].source + "/glow",
                                     map.materials[i].name + "/glow");
        layer2_slot[i] = unique.slotOf(textures[i].layer2, textures[i].source + "/layer2",
                                       map.materials[i].name + "/layer2");
        bump_slot[i] = unique.slotOf(textures[i].bump, textures[i].source + "/bump",
                                     map.materials[i].name + "/bump");
    }
    // Played frames, keyed as the image and normal map they start from, so frame 0 is theirs.
    std::vector<std::vector<int32_t>> base_frame_slots(textures.size()),
        bump_frame_slots(textures.size());
    for (size_t i = 0; i < textures.size(); ++i) {
        const content::TextureInfo& t = textures[i];
        for (size_t k = 0; k < t.base_frames.size(); ++k)
            base_frame_slots[i].push_back(unique.slotOf(
                t.base_frames[k], t.source, map.materials[i].name + "/frame" + std::to_string(k)));
        for (size_t k = 0; k < t.bump_frames.size(); ++k)
            bump_frame_slots[i].push_back(
                unique.slotOf(t.bump_frames[k], t.source + "/bump",
                              map.materials[i].name + "/bumpframe" + std::to_string(k)));
    }
    // Mip chains on worker threads (none for images that go up with their file's S3TC mips),
    // then upload.
    std::vector<const content::Image*> to_mip = unique.images;
    for (const content::Image*& img : to_mip)
        if (uploadsCompressed(*img, policy)) {
            img = nullptr;
            ++gpu.stats.compressed_textures;
        }
    std::vector<std::vector<content::Image>> chains =
        content::mipChains(to_mip, mipRounding(rules));
    gpu.owned.reserve(unique.images.size());
    for (size_t u = 0; u < unique.images.size(); ++u) {
        gpu.owned.push_back(uploadImage(*unique.images[u], chains[u], unique.labels[u],
                                        &gpu.stats.texture_bytes, false, true, &gpu.sampled,
                                        policy));
        chains[u] = {};
    }
    const auto nameOf = [&](int32_t slot) {
        return slot >= 0 ? gpu.owned[static_cast<size_t>(slot)].id() : 0u;
    };
    for (size_t i = 0; i < textures.size(); ++i) {
        gpu.textures.push_back(nameOf(tex_slot[i]));
        gpu.missing.push_back(textures[i].missing);
        gpu.glows.push_back(nameOf(glow_slot[i]));
        gpu.layers2.push_back(nameOf(layer2_slot[i]));
        gpu.bumps.push_back(nameOf(bump_slot[i]));
        gpu.bumps_ssbump.push_back(textures[i].bump_ssbump);
    }
    gpu.base_frames.resize(textures.size());
    gpu.bump_frames.resize(textures.size());
    for (size_t i = 0; i < textures.size(); ++i) {
        const auto fill = [&](const std::vector<int32_t>& slots,
                              const content::AnimatedTexture& animation, WorldGpu::FrameList& out) {
            if (slots.size() < 2 || !animation.enabled ||
                std::find(slots.begin(), slots.end(), -1) != slots.end())
                return;
            out.animation = animation;
            for (const int32_t slot : slots)
                out.frames.push_back(nameOf(slot));
        };
        fill(base_frame_slots[i], textures[i].base_animation, gpu.base_frames[i]);
        fill(bump_frame_slots[i], textures[i].bump_animation, gpu.bump_frames[i]);
    }
    gpu.stats.textures = static_cast<uint32_t>(gpu.owned.size());
    gpu.anim_frames.resize(map.materials.size());
    for (size_t i = 0; i < map.materials.size(); ++i) {
        std::vector<int32_t>& frames = gpu.anim_frames[i];
        int32_t m = static_cast<int32_t>(i);
        // Follow the chain until it returns to the start; bounded in case it never does.
        for (size_t n = 0; n < 64 && m >= 0 && static_cast<size_t>(m) < map.materials.size(); ++n) {
            frames.push_back(m);
            m = map.materials[static_cast<size_t>(m)].anim_next;
            if (m == static_cast<int32_t>(i))
                break;
        }
    }
}

// One cube map from six square faces of one size (content::decodeVtfCubeFaces' order, which is
// GL's +X, -X, +Y, -Y, +Z, -Z: Direct3D and GL pick a face and its texel from a direction by the
// same table, and Source's faces go up to D3DCUBEMAP_FACE_POSITIVE_X onwards in file order),
// rows as stored, with mips from content::mipChains.
Texture uploadCube(const std::array<content::Image, 6>& faces, const std::string& name,
                   content::MipRounding rounding, uint64_t* bytes) {
    Texture t = makeTexture(GL_TEXTURE_CUBE_MAP, ("envmap/" + name).c_str());
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    std::array<const content::Image*, 6> images{};
    for (size_t k = 0; k < faces.size(); ++k)
        images[k] = &faces[k];
    const std::vector<std::vector<content::Image>> chains = content::mipChains(images, rounding);
    for (size_t k = 0; k < faces.size(); ++k) {
        const GLenum target = GL_TEXTURE_CUBE_MAP_POSITIVE_X + static_cast<GLenum>(k);
        glTexImage2D(target, 0, GL_RGBA8, faces[k].width, faces[k].height, 0, GL_RGBA,
                     GL_UNSIGNED_BYTE, faces[k].rgba.data());
        for (size_t level = 0; level < chains[k].size(); ++level)
            glTexImage2D(target, static_cast<GLint>(level + 1), GL_RGBA8, chains[k][level].width,
                         chains[k][level].height, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                         chains[k][level].rgba.data());
        *bytes += static_cast<uint64_t>(faces[k].width) * faces[k].height * 4 * 4 / 3;
    }
    glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MAX_LEVEL,
                    static_cast<GLint>(chains[0].size()));
    glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    for (const GLenum wrap : {GL_TEXTURE_WRAP_S, GL_TEXTURE_WRAP_T, GL_TEXTURE_WRAP_R})
        glTexParameteri(GL_TEXTURE_CUBE_MAP, wrap, GL_CLAMP_TO_EDGE);
    return t;
}

// The materials' cube maps (one per distinct cube: vbsp patches many materials to one sample's
// c<x>_<y>_<z>) and $envmapmask images.
void uploadEnvMaps(WorldGpu& gpu, const bsp::Map& map,
                   const std::vector<content::TextureInfo>& textures, const game::MapRules& rules) {
    std::vector<std::pair<const content::TextureInfo*, GLuint>> cubes;
    UniqueImages masks;
    std::vector<int32_t> mask_slot(textures.size(), -1);
    gpu.envmaps.assign(textures.size(), 0);
    for (size_t i = 0; i < textures.size(); ++i) {
        const content::TextureInfo& t = textures[i];
        if (!t.envmap_shading.enabled || !t.envmap[0].valid())
            continue;
        const auto same = [&t](const auto& c) {
            if (c.first->envmap_source != t.envmap_source)
                return false;
            for (size_t k = 0; k < t.envmap.size(); ++k)
                if (c.first->envmap[k].width != t.envmap[k].width ||
                    c.first->envmap[k].rgba != t.envmap[k].rgba)
                    return false;
            return true;
        };
        auto it = std::find_if(cubes.begin(), cubes.end(), same);
        if (it == cubes.end()) {
            gpu.owned.push_back(uploadCube(t.envmap, t.envmap_source, mipRounding(rules),
                                           &gpu.stats.texture_bytes));
            cubes.emplace_back(&t, gpu.owned.back().id());
            it = cubes.end() - 1;
        }
        gpu.envmaps[i] = it->second;
        mask_slot[i] = masks.slotOf(t.envmap_mask, t.source + "/envmapmask",
                                    map.materials[i].name + "/envmapmask");
    }
    const std::vector<std::vector<content::Image>> chains =
        content::mipChains(masks.images, mipRounding(rules));
    const size_t first = gpu.owned.size();
    for (size_t u = 0; u < masks.images.size(); ++u)
        gpu.owned.push_back(uploadImage(*masks.images[u], chains[u], masks.labels[u],
                                        &gpu.stats.texture_bytes, false, true, &gpu.sampled));
    gpu.envmap_masks.assign(textures.size(), 0);
    for (size_t i = 0; i < textures.size(); ++i)
        if (mask_slot[i] >= 0)
            gpu.envmap_masks[i] = gpu.owned[first + static_cast<size_t>(mask_slot[i])].id();
    gpu.stats.textures = static_cast<uint32_t>(gpu.owned.size());
}

// Faces of different sizes are scaled to the largest (nearest neighbour; they nearly always
// match already). Nothing is made when a face is missing or malformed.
void uploadSkyBox(WorldGpu& gpu, const content::SkyBox& sky) {
    gpu.sky_rotation = sky.rotation;
    int size = 0;
    for (const content::Image& f : sky.faces) {
        if (f.width <= 0 || f.height <= 0 ||
            f.rgba.size() != static_cast<size_t>(f.width) * static_cast<size_t>(f.height) * 4)
            return;
        size = std::max({size, f.width, f.height});
    }
    size = std::min(size, 4096);
    gpu.skybox = makeTexture(GL_TEXTURE_2D_ARRAY, "world/skybox");
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage3D(GL_TEXTURE_2D_ARRAY, 0, GL_RGBA8, size, size, 6, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 nullptr);
    const auto n = static_cast<size_t>(size);
    std::vector<uint8_t> scaled; // faces of another size, scaled to `size`
    for (int face = 0; face < 6; ++face) {
        const content::Image& f = sky.faces[static_cast<size_t>(face)];
        const auto fw = static_cast<size_t>(f.width), fh = static_cast<size_t>(f.height);
        if (fw == n && fh == n) { // the usual case: the face as it is
            glTexSubImage3D(GL_TEXTURE_2D_ARRAY, 0, 0, 0, face, size, size, 1, GL_RGBA,
                            GL_UNSIGNED_BYTE, f.rgba.data());
            continue;
        }
        if (scaled.empty())
            scaled.resize(n * n * 4);
        for (size_t y = 0; y < n; ++y) {
            const uint8_t* row = &f.rgba[(y * fh / n) * fw * 4];
            for (size_t x = 0; x < n; ++x)
                std::memcpy(&scaled[(y * n + x) * 4], row + (x * fw / n) * 4, 4);
        }
        glTexSubImage3D(GL_TEXTURE_2D_ARRAY, 0, 0, 0, face, size, size, 1, GL_RGBA,
                        GL_UNSIGNED_BYTE, scaled.data());
    }
    // No mipmaps: the face switch would make the derivatives jump and pick a blurry level
    // along every seam.
    setArrayFilter(sky.repeat ? GL_REPEAT : GL_CLAMP_TO_EDGE);
}

// What the stage pass needs of a material, copied (the GPU set points into no bundle).
GpuStagedMaterial stagedForGpu(const scene::StagedMaterial& sm) {
    GpuStagedMaterial g;
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
    return g;
}

void uploadStages(WorldGpu& gpu, const scene::MaterialStages& stages,
                  content::MipRounding rounding) {
    if (stages.materials.size() != gpu.materials.size())
        return;
    const content::Image white_image{1, 1, {255, 255, 255, 255}, {}};
    gpu.white = uploadImage(white_image, {}, "$whiteimage", &gpu.stats.texture_bytes, false, false);
    std::vector<const content::Image*> mipmapped(stages.images.size(), nullptr);
    for (size_t i = 0; i < stages.images.size(); ++i)
        if (stages.images[i].mipmaps)
            mipmapped[i] = &stages.images[i].image;
    const std::vector<std::vector<content::Image>> chains = content::mipChains(mipmapped, rounding);
    gpu.stage_textures.reserve(stages.images.size());
    for (size_t i = 0; i < stages.images.size(); ++i) {
        const scene::StageImage& img = stages.images[i];
        gpu.stage_textures.push_back(img.image.valid()
                                         ? uploadImage(img.image, chains[i], img.name,
                                                       &gpu.stats.texture_bytes, img.clamp,
                                                       img.mipmaps, &gpu.sampled)
                                         : Texture());
    }
    gpu.staged.reserve(stages.materials.size());
    for (const scene::StagedMaterial& sm : stages.materials)
        gpu.staged.push_back(stagedForGpu(sm));
}

} // namespace

game::TextureFilter effectiveTextureFilter(const game::TextureFilter& game,
                                           const TextureFilterChoice& choice) {
    game::TextureFilter f = game;
    if (choice.mode)
        f.mode = *choice.mode;
    if (choice.anisotropy > 0.0f)
        f.anisotropy = choice.anisotropy;
    const float most = std::max(1.0f, caps().max_anisotropy);
    f.anisotropy = std::isfinite(f.anisotropy) ? std::clamp(f.anisotropy, 1.0f, most) : 1.0f;
    return f;
}

void applyTextureFilter(WorldGpu& gpu, const game::TextureFilter& filter) {
    if (gpu.filter_applied && gpu.filter == filter)
        return;
    const GLint mag = game::magnifiesNearest(filter.mode) ? GL_NEAREST : GL_LINEAR;
    static constexpr GLint kMin[game::kTextureModeCount] = {
        GL_NEAREST, GL_NEAREST_MIPMAP_NEAREST, GL_NEAREST_MIPMAP_LINEAR,
        GL_LINEAR,  GL_LINEAR_MIPMAP_NEAREST,  GL_LINEAR_MIPMAP_LINEAR};
    const GLint min = kMin[static_cast<size_t>(filter.mode)];
    const bool anisotropic = caps().max_anisotropy > 1.0f;
    for (const SampledTexture& t : gpu.sampled) {
        glBindTexture(GL_TEXTURE_2D, t.id);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, t.mipmapped ? min : mag);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, mag);
        if (anisotropic)
            glTexParameterf(GL_TEXTURE_2D, GL_TEXTURE_MAX_ANISOTROPY,
                            t.mipmapped ? filter.anisotropy : 1.0f);
    }
    glBindTexture(GL_TEXTURE_2D, 0);
    gpu.filter = filter;
    gpu.filter_applied = true;
}

std::unique_ptr<WorldGpu> buildWorldGpu(const WorldSource& source, std::string* error) {
    const bsp::Map& map = source.map;
    if (source.textures.size() != map.materials.size()) {
        if (error)
            *error = "texture list does not match the map's materials";
        return nullptr;
    }
    if (source.mesh.materials.size() != map.materials.size()) {
        if (error)
            *error = "the mesh's resolved materials do not match the map's materials";
        return nullptr;
    }
    checkGlErrors("before upload");
    const uint64_t errors_before = glErrorCount();
    auto gpu = std::make_unique<WorldGpu>();
    gpu->materials = source.mesh.materials;
    gpu->submodels = map.submodels;
    gpu->rules = source.rules;
    for (const bsp::Face& f : map.faces)
        gpu->style_count = std::max(gpu->style_count, f.numStyles());
    uploadMesh(*gpu, map, source.mesh);
    uploadLightmaps(*gpu, map, source.lightmaps);
    uploadTextures(*gpu, map, source.textures, source.rules, source.compressed);
    uploadEnvMaps(*gpu, map, source.textures, source.rules);
    if (source.skybox)
        uploadSkyBox(*gpu, *source.skybox);
    if (source.stages)
        uploadStages(*gpu, *source.stages, mipRounding(source.rules));
    if (source.fogs)
        gpu->fogs = *source.fogs;
    applyTextureFilter(*gpu, effectiveTextureFilter(source.rules.textures, {}));
    glBindTexture(GL_TEXTURE_2D, 0);
    glBindTexture(GL_TEXTURE_2D_ARRAY, 0);
    glBindTexture(GL_TEXTURE_CUBE_MAP, 0);
    if (checkGlErrors("upload") != errors_before) {
        if (error)
            *error = "OpenGL reported errors while uploading the map";
        return nullptr;
    }
    return gpu;
}

} // namespace render
