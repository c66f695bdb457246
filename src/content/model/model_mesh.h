// The entity model as the viewer draws it, whatever file it came from.
//
// A ModelMesh is a vertex-animated triangle mesh: one texture coordinate per vertex for all
// poses, one position and normal set per pose, frames that name a run of poses with their
// timing, and skins that name a run of images with theirs. Quake 1 .mdl builds one today
// (content/model/mdl.h); Quake 2 .md2 and Quake 3 .md3 surfaces have the same shape (a pose per
// frame, one interval each), so they will build the same struct. Skeletal models (Half-Life
// studio) pose their vertices on the CPU into the same arrays; Source studio models give their
// bind pose and name material files instead of images. GL-free, plain data.
#pragma once

#include "content/image/image.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace content {

// Timed runs (a frame group, a skin group): entry i shows until the cumulative time
// end_times[i] (seconds), then the run repeats. A single frame has one entry.
struct TimedRun {
    uint32_t first = 0; // first pose or image
    uint32_t count = 1;
    std::vector<float> end_times; // count entries, increasing; empty when count == 1
};

// Which entry of `run` shows at `time` seconds: the first whose end time lies after the time
// within the loop (QuakeSpasm r_alias.c R_SetupAliasFrame; non-increasing or non-positive
// times, which hostile files carry, give the first entry). Returns an index in [0, count).
uint32_t entryAt(const TimedRun& run, double time);

struct ModelFrame {
    std::string name;
    TimedRun poses;
};

// One skin image, RGBA8 rows top to bottom. `fullbright` holds one byte per texel, 255 where
// the texel ignores lighting (Quake's palette indices 224..254), 0 elsewhere; empty when no
// texel is fullbright.
struct ModelImage {
    int width = 0;
    int height = 0;
    std::vector<uint8_t> rgba;
    std::vector<uint8_t> fullbright;
    // Levels 1.. of the image as its file holds them (a Source material's VTF mips, decoded),
    // or empty: the renderer then makes its own from `rgba`.
    std::vector<Image> mips;
};

// A run of a mesh's indices drawn one way: Half-Life studio textures' flags (studio.h
// STUDIO_NF_*, drawn as Xash3D FWGS ref/gl/gl_studio.c R_StudioDrawPoints does). A mesh without
// ranges draws all its indices as a default range does.
struct ModelSkin {
    TimedRun images; // into ModelMesh::images
};

struct ModelDrawRange {
    uint32_t first_index = 0;
    uint32_t index_count = 0;
    bool additive = false; // added (GL_ONE, GL_ONE) after the opaque models, no depth writes
    bool masked = false;   // texels whose fullbright mask is 255 are cut (not fullbright)
    bool chrome = false;   // texture coordinates from the normal and the view (R_StudioSetupChrome)
    // Lit flat (STUDIO_NF_FLATSHADE, Xash3D gl_studio.c R_StudioLighting): the directed light
    // at the instance's fixed share (EntityModelInstance::flat_share), whatever the normal.
    bool flat = false;
    // chrome: the image rectangle the coordinates fall in (u0, v0, u1, v1), and the texels of
    // the texture per unit of (n . axis + 1) over its size: (32 / width, 32 / height).
    std::array<float, 4> chrome_rect{0, 0, 1, 1};
    std::array<float, 2> chrome_scale{0.5f, 0.5f};
    // The skin slot the range draws (models whose surfaces are material files, ModelMesh::
    // materials: Source studio meshes); 0 for models with images.
    uint32_t material = 0;
    // Material-file models (Source studio meshes; scene/models/source_props.h fills these from
    // each skin family's material): the image of ModelMesh::images the range draws (-1: the
    // skin's), blended by the texture's alpha (translucent), drawn without light (unlit), or
    // from both sides (two_sided).
    int32_t image = -1;
    bool translucent = false;
    bool unlit = false;
    bool two_sided = false;
    bool operator==(const ModelDrawRange&) const = default;
};

struct ModelMesh {
    uint32_t vertex_count = 0;
    std::vector<std::array<float, 2>> uv; // vertex_count texture coordinates in [0, 1]
    std::vector<uint32_t> indices;        // 3 per triangle, in the file's winding
    // pose p, vertex v: positions[p * vertex_count + v] (model units), normals likewise (unit).
    uint32_t pose_count = 0;
    std::vector<std::array<float, 3>> positions;
    std::vector<std::array<float, 3>> normals;
    std::vector<ModelFrame> frames;
    std::vector<ModelImage> images;
    std::vector<ModelSkin> skins;
    std::vector<ModelDrawRange> ranges; // in index order, covering `indices`; empty: one plain
                                        // (a skin may give its own: skinRanges)
    // Per skin, the draw ranges its textures ask for (Half-Life skin families whose textures'
    // flags differ from the first family's); missing or empty: `ranges`.
    std::vector<std::vector<ModelDrawRange>> skin_ranges;
    // Models whose surfaces are material files rather than images (Source studio models):
    // `materials` are virtual paths of material files ("materials/x/y.vmt"; empty where none
    // was found), and skin family f draws slot k with materials[skin_materials[f][k]] (each
    // range names its slot). Empty for models with images.
    std::vector<std::string> materials;
    std::vector<std::vector<uint32_t>> skin_materials;
    // The file asks for its entity to turn about z (Quake 1's EF_ROTATE: pickups).
    bool rotates = false;
    // Bounds over every pose (model units); mins > maxs when the mesh has no vertex.
    std::array<float, 3> mins{0, 0, 0};
    std::array<float, 3> maxs{0, 0, 0};
    // Model-space point the engine samples the model's light at (Source studiohdr_t::
    // illumposition, the engine's R_ComputeLightingOrigin); 0 for other formats.
    std::array<float, 3> illum_position{0, 0, 0};
    // Source studio models: the coarser levels of detail of a one-pose mesh (LOD 0 is the mesh
    // above). lod_switch_points holds every LOD's, LOD 0's first (scene/models/studio_lod.h);
    // lod_shadow: the last LOD is the shadow LOD. LOD k (1..) draws range i of any skin with
    // lods[k - 1].spans[i] (first index, index count into lods[k - 1].indices), whose vertices
    // number past vertex_count into lod_positions, lod_normals and lod_uv. Empty: one LOD.
    struct Lod {
        std::vector<uint32_t> indices;
        std::vector<std::array<uint32_t, 2>> spans; // parallel to `ranges`
    };
    std::vector<Lod> lods;
    std::vector<float> lod_switch_points;
    bool lod_shadow = false;
    std::vector<std::array<float, 3>> lod_positions, lod_normals;
    std::vector<std::array<float, 2>> lod_uv;
};

// The draw ranges of skin `skin` (clamped to the skins): its own, else the mesh's.
const std::vector<ModelDrawRange>& skinRanges(const ModelMesh& mesh, int32_t skin);

} // namespace content
