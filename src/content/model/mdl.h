// Quake 1 alias models (.mdl, "IDPO" version 6), as id's modelgen.h lays them out and
// QuakeSpasm reads them (gl_model.c Mod_LoadAliasModel, Mod_LoadAllSkins,
// Mod_LoadAliasFrame, Mod_LoadAliasGroup; gl_mesh.c GL_MakeAliasModelDisplayLists).
//
// Layout: an 84-byte header (scale, translate, radius, eye position, skin count and size,
// vertex, triangle and frame counts, sync type, flags, size), then the skins (a type word:
// 0 one image of skinwidth * skinheight palette indices, 1 a group: count, count intervals,
// count images), the texture vertices (onseam, s, t as three int32), the triangles (facesfront
// and three vertex indices), and the frames (a type word: 0 one pose, 1 a group: count,
// bounds, count intervals, then count poses). A pose is bounds (two packed vertices), a
// 16-byte name and numverts packed vertices (x, y, z, light normal index as bytes); a position
// is scale * packed + translate.
//
// parseMdl keeps the file's records; buildMdlMesh turns them into the drawn ModelMesh. Both
// are safe on untrusted input: every count is checked against the bytes present before
// anything is allocated, and every index against its array.
#pragma once

#include "content/image/palette.h"
#include "content/model/model_mesh.h"

#include <array>
#include <span>
#include <string>
#include <vector>

namespace content {

// Model flags (modelgen.h EF_*): the particle trails and the turning of pickups.
inline constexpr uint32_t kMdlFlagRotate = 8; // items spin about z (QuakeSpasm CL_RelinkEntities)

// Limits, eight times those of QuakeSpasm (gl_model.h MAXALIASVERTS 2000, MAXALIASTRIS 2048,
// MAXALIASFRAMES 256 poses): they bound the normal computation (poses x triangles) on hostile
// files whose counts the bytes could hold.
inline constexpr uint32_t kMaxMdlVertices = 16384;
inline constexpr uint32_t kMaxMdlTriangles = 16384;
inline constexpr uint32_t kMaxMdlPoses = 2048;

struct MdlStVert {
    int32_t onseam = 0;
    int32_t s = 0;
    int32_t t = 0;
};

struct MdlTriangle {
    int32_t faces_front = 0;
    std::array<int32_t, 3> vertex{};
};

struct MdlPackedVertex {
    std::array<uint8_t, 3> v{};
    uint8_t normal_index = 0;
};

struct MdlPose {
    std::string name;
    std::vector<MdlPackedVertex> vertices; // numverts
};

struct MdlGroup { // a frame or a skin: one entry, or a group with intervals
    uint32_t first = 0;
    uint32_t count = 1;
    std::vector<float> intervals; // group only: count cumulative end times, as stored
};

struct MdlModel {
    std::array<float, 3> scale{};
    std::array<float, 3> translate{};
    float radius = 0;
    std::array<float, 3> eye{};
    int skin_width = 0;
    int skin_height = 0;
    uint32_t vertex_count = 0;
    int32_t sync_type = 0;
    uint32_t flags = 0;
    std::vector<std::vector<uint8_t>> skin_images; // palette indices, every image of every skin
    std::vector<MdlGroup> skins;                   // runs of skin_images
    std::vector<MdlStVert> st;
    std::vector<MdlTriangle> triangles;
    std::vector<MdlPose> poses;   // every pose of every frame
    std::vector<MdlGroup> frames; // runs of poses
};

// Errors (lump "mdl", index the skin, triangle or frame): UnknownFormat (not "IDPO"),
// UnsupportedVersion (not 6), Truncated (a record runs past the end), BadValue (a count
// below 1 where Quake needs one, a skin size outside 1..kMaxPalettedDimension),
// LimitExceeded (past kMaxMdl*),
// IndexOutOfRange (a triangle names a vertex >= numverts).
core::Result<MdlModel> parseMdl(std::span<const uint8_t> data);

// The drawn mesh: vertices split where a seam vertex is used by a back-facing triangle (its s
// moves by skinwidth / 2, gl_mesh.c GL_MakeAliasModelDisplayLists), texture coordinates at
// texel centres ((s + 0.5) / skinwidth, GLMesh_LoadVertexBuffer), positions scaled and
// translated, normals averaged from the pose's triangles (Quake's 162-entry normal table is
// not used), skins expanded through `palette` with Quake's fullbright range marked.
ModelMesh buildMdlMesh(const MdlModel& model, const Palette& palette);

// parseMdl then buildMdlMesh.
core::Result<ModelMesh> decodeMdl(std::span<const uint8_t> data, const Palette& palette);

struct ModelAsset;
struct ModelSource;

// The registry's loader for "IDPO" (content/model/model_asset.h): decodeMdl with the Quake
// palette, one part.
core::Result<ModelAsset> loadMdlAsset(const ModelSource& source);

} // namespace content
