// The GPU copy of one map: static vertex and index buffers, lightmap pages, textures, the sky
// box, Quake 3 stage images and fog volumes. buildWorldGpu makes the whole set from a
// WorldSource in one go, beside whatever is drawn now; WorldRenderer swaps it in only when it
// is complete, so a failed upload keeps the old map on screen (niagara's shader reload does
// the same with pipelines).
#pragma once

#include "bsp/map.h"
#include "content/material/skybox.h"
#include "content/material/textures.h"
#include "game/profile.h"
#include "render/gl.h"
#include "render/render_options.h"
#include "scene/view/visibility.h"
#include "scene/world/fog.h"
#include "scene/world/lightmap_set.h"
#include "scene/world/material_stages.h"
#include "scene/world/world_mesh.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include <glm/mat4x4.hpp>

namespace render {

// Everything one map's GPU set is built from. The mesh carries its own sprite data
// (scene::buildMapMesh) and the resolved materials it was built from (WorldMesh::materials:
// flags after shader scripts, alpha, animation rate), so a rebuilt mesh cannot be drawn with
// stale sprites or another resolution of its materials.
// What becomes of a texture's S3TC blocks (content::CompressedMips) on upload. A GPU samples
// blocks at the cost of texels and reads a quarter to an eighth of the memory; a software
// rasteriser decodes the block at every fetch (llvmpipe: the opaque pass of background_01 at
// 1280x720 took 9.8 ms with its textures' blocks, 6.0 ms with their texels; docs/performance.md).
enum class CompressedTextures : uint8_t {
    Auto,   // blocks on a GPU, texels on a software rasteriser (GlCaps::software)
    Blocks, // blocks wherever the context takes S3TC
    Texels, // always decoded texels
};

struct WorldSource {
    const bsp::Map& map;
    const scene::WorldMesh& mesh;
    const std::vector<content::TextureInfo>& textures;   // parallel to map.materials
    const content::SkyBox* skybox = nullptr;             // nullptr: none
    const scene::MaterialStages* stages = nullptr;       // Quake 3 shader stages; nullptr: none
    const std::vector<scene::FogVolume>* fogs = nullptr; // parallel to map.fogs; nullptr: none
    // The pages the mesh's lightmap layers index (scene::MapBundle::lightmaps); nullptr: the
    // map's own pages as the parser numbered them (the mesh built without a set).
    const scene::LightmapSet* lightmaps = nullptr;
    // Models and sprites on point entities (render/model_renderer.h); nullptr: none.
    const scene::EntityModelSet* models = nullptr;
    // Per material: the planar water heights computed at the load (scene::DrawableWorld::
    // water_heights); nullptr: computed here from map and mesh (scene::planarWaterHeights).
    const std::vector<float>* water_heights = nullptr;
    // The map's rules as plain numbers (game::GameProfile::rules): the renderer draws by them
    // and never learns which game the map came from. Brush model files on entities are drawn by
    // the world's.
    game::MapRules rules{};
    // Whether S3TC textures go up as their blocks (CompressedTextures).
    CompressedTextures compressed = CompressedTextures::Auto;
};

struct GpuStats {
    uint64_t vertex_bytes = 0, index_bytes = 0, texture_bytes = 0;
    uint32_t textures = 0, lightmap_pages = 0, deluxe_pages = 0;
    uint32_t compressed_textures = 0; // of `textures`, kept in their file's S3TC blocks
};

// Whether `img` goes up in its file's S3TC blocks (content::CompressedMips): it carries them,
// each level has the size its dimensions need, the context has EXT_texture_compression_s3tc
// (Mesa's llvmpipe and every desktop driver do) and `policy` keeps blocks. Otherwise the RGBA
// texels go up with mips built from them.
bool uploadsCompressed(const content::Image& img,
                       CompressedTextures policy = CompressedTextures::Auto);

// A material's shader stages as uploaded (copied from scene::StagedMaterial: the GPU set keeps
// nothing that points into the bundle).
struct GpuStagedMaterial {
    std::vector<scene::RenderStage> stages;
    bool sky = false;
    bool polygon_offset = false;
    content::CullMode cull = content::CullMode::Front;
    float cloud_height = 512.0f;
    uint32_t disabled = 0; // bit per shader stage index (the overlay's switches)
    // deformVertexes (scene/world/deforms.h): the shader's deforms, copied; `deformed` when any is
    // drawn (such surfaces stay out of the depth pre-pass: it would write undeformed depth).
    content::ShaderDef deform_def;
    bool deformed = false;
};

// A material's stages the overlay has not switched off, in order.
struct DrawnStages {
    std::array<const scene::RenderStage*, content::kMaxShaderStages> stages{};
    size_t count = 0;
    std::span<const scene::RenderStage* const> span() const { return {stages.data(), count}; }
};
DrawnStages drawnStages(const GpuStagedMaterial& sm);

// A texture the map's texture filter applies to (world and stage images; not lightmaps, the
// sky box or $whiteimage), and whether it has mipmaps.
struct SampledTexture {
    GLuint id = 0;
    bool mipmapped = false;
};

struct WorldGpu {
    VertexArray vao;
    Buffer vbo, ibo;
    Texture lightmaps; // 2D array, a layer per page (one white layer when there are none)
    // Light directions (q3map2 -deluxe), layers parallel to `lightmaps`; one layer of 128 grey
    // (no direction) when the map has none.
    Texture deluxemaps;
    // Per material, by GL name: materials with identical images share one texture (Quake 2
    // has a material per texinfo, many naming the same .wal). `owned` holds them.
    std::vector<Texture> owned;
    std::vector<GLuint> textures;   // per material
    std::vector<GLuint> glows;      // per material; 0: none
    std::vector<GLuint> layers2;    // per material: its second image; 0: none
    std::vector<GLuint> bumps;      // per material: its $bumpmap; 0: none
    std::vector<bool> bumps_ssbump; // per material: bumps holds $ssbump weights
    // Per material, Source's $envmap (content::TextureInfo::envmap): a GL cube map whose faces
    // are the file's six in order (+X, -X, +Y, -Y, +Z, -Z), shared by materials naming one
    // cube; 0: none. envmap_masks: its $envmapmask image; 0: none.
    std::vector<GLuint> envmaps;
    std::vector<GLuint> envmap_masks;
    std::vector<bool> missing;         // per material
    Texture skybox;                    // 2D array of 6 faces, empty when the map has none
    content::SkyRotation sky_rotation; // the box's turn over time (Quake 2 skyrotate/skyaxis)
    // Texture animation (Quake 1 "+0..+9", Quake 2 texinfo chains): the frames of each
    // material's chain, starting at itself; a single entry when it does not animate.
    std::vector<std::vector<int32_t>> anim_frames;
    // Texture frames played at a rate (content::TextureInfo::base_animation / bump_animation,
    // Source's AnimatedTexture proxy): per material the GL names of the base texture's and the
    // normal map's frames, frame 0 first, and the animation; empty for a material that plays
    // none, so a still material costs one size check per batch.
    struct FrameList {
        content::AnimatedTexture animation;
        std::vector<GLuint> frames;
    };
    std::vector<FrameList> base_frames;        // per material
    std::vector<FrameList> bump_frames;        // per material
    std::vector<scene::DrawRange> face_ranges; // per face: its run in the index buffer
    // Per material: the height of the plane a planar water (content::WaterShading::planar)
    // reflects in, its first upward world face's; NaN for every other material
    // (WorldSource::water_heights).
    std::vector<float> water_heights;
    std::vector<scene::ResolvedMaterial> materials; // the mesh's WorldMesh::materials
    std::vector<bsp::Submodel> submodels;
    std::vector<GpuStagedMaterial> staged; // per material; empty without shader stages
    std::vector<Texture> stage_textures;   // per scene::StageImage
    Texture white;                         // $whiteimage, and unbound stage images
    Buffer sprite_vbo; // scene::SpriteVertex per vertex (attributes 8, 9); empty: none
    struct FaceInfo {
        int32_t fog = -1; // bsp::Face::fog
        int32_t material = -1, submodel = 0;
        scene::Pass pass = scene::Pass::Opaque;
    };
    std::vector<FaceInfo> face_info;    // per face, for the fog pass
    std::vector<scene::FogVolume> fogs; // parallel to the map's fogs
    // Fogged faces by the first index of their run: a blended face is a batch of its own, and
    // this finds its fog for the stage pass's colour fading.
    std::unordered_map<uint32_t, int32_t> fog_by_first_index;
    game::MapRules rules; // WorldSource::rules: lighting, warp, distance fog, texture filter
    std::vector<SampledTexture> sampled; // what applyTextureFilter sets
    game::TextureFilter filter;          // as last applied to `sampled`
    bool filter_applied = false;
    int style_count = 1; // most light styles any face uses (1..4)
    GpuStats stats;

    // nullptr when out of range.
    const scene::ResolvedMaterial* material(int32_t index) const;
    const GpuStagedMaterial* stagedMaterial(int32_t index) const;
    const bsp::Submodel* submodel(int32_t index) const; // brush models only (index > 0)
    bool materialHas(int32_t index, uint32_t flags) const {
        const scene::ResolvedMaterial* m = material(index);
        return m && (m->flags & flags);
    }
    // The material whose image `material` shows at `time` (Quake 1 "+0..+9" and Quake 2
    // texinfo chains animate; others show their own).
    int32_t animationFrame(int32_t material, double time) const;
    // The base texture and the normal map `material` shows at `time`: textures / bumps, or the
    // frame content::animatedTextureFrame picks from its FrameList. `material` must be in range.
    GLuint baseTexture(int32_t material, double time) const;
    GLuint bumpTexture(int32_t material, double time) const;
    // Placement of a brush model's faces (identity for the world).
    glm::mat4 modelMatrix(int32_t submodel) const;
};

// The game's filter with the viewer's choice laid over it, anisotropy clamped to
// 1..GL_MAX_TEXTURE_MAX_ANISOTROPY (1 where the context has no anisotropic filtering).
game::TextureFilter effectiveTextureFilter(const game::TextureFilter& game,
                                           const TextureFilterChoice& choice);
// Sets the filter of every texture in gpu.sampled (minifying filter, magnifying filter and, where
// the context offers it, GL_TEXTURE_MAX_ANISOTROPY of mipmapped ones); nothing when `filter` is
// what was applied last. Leaves GL_TEXTURE_2D unbound on the active unit.
void applyTextureFilter(WorldGpu& gpu, const game::TextureFilter& filter);

// Builds the GPU set of `source`, its textures filtered as the game does (rules.textures); nullptr
// with *error when the sizes disagree or GL reported an error. Leaves no texture, buffer or
// vertex array bound.
std::unique_ptr<WorldGpu> buildWorldGpu(const WorldSource& source, std::string* error);

} // namespace render
