// Source engine studio model headers (.mdl, "IDST" versions 44-49), the part of the model that
// names things: bones, sequences, textures, the $cdmaterials folders, skin families and the body
// parts with their models and meshes. The vertices live in the .vvd (content/model/vvd.h), the
// triangles in the .vtx (content/model/vtx.h); content/model/source_model.h joins the three.
//
// Layout (Source SDK 2013 public/studio.h, 32-bit files, all little-endian; versions 44 to 49
// keep these offsets): studiohdr_t starts "IDST", version, checksum, name[64], length; then
// illumposition at 92, hull_min/max at 104/116, view_bbmin/max at 128/140, flags at 152, and
// (count, offset) pairs: bones 156, sequences (numlocalseq) 188, textures 204, $cdmaterials
// 212, skins (numskinref 220, numskinfamilies 224, skinindex 228), body parts 232.
// Records: mstudiobone_t (216 bytes: sznameindex, parent, bonecontroller[6], pos, quat, ...),
// mstudioseqdesc_t (212: baseptr, szlabelindex, ...), mstudiotexture_t (64: sznameindex, ...),
// $cdmaterials an int array of string offsets from the file start, the skin table
// numskinfamilies rows of numskinref int16 texture indices, mstudiobodyparts_t (16:
// sznameindex, nummodels, base, modelindex), mstudiomodel_t (148: name[64], type,
// boundingradius, nummeshes, meshindex, numvertices, vertexindex (bytes into the .vvd's
// vertices, 48 per vertex), ...), mstudiomesh_t (116: material, modelindex, numvertices,
// vertexoffset, ..., vertexdata.numLODVertexes[8] at 52). Names stored by offset (sz*index) are
// relative to their record.
//
// Safe on untrusted input: every count is checked against a limit and the bytes present before
// anything is allocated; every string must end inside the file. Errors name the structure
// ("mdl.bones", "mdl.meshes", ...), the record and the field; the caller adds the file name.
#pragma once

#include "core/result.h"

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace content {

inline constexpr int32_t kSourceMdlMinVersion = 44;
inline constexpr int32_t kSourceMdlMaxVersion = 49;
inline constexpr uint32_t kSourceMaxLods = 8; // MAX_NUM_LODS
// Limits bounding the work on hostile files (MAXSTUDIOBONES is 128 in SDK 2013, 256 later).
inline constexpr uint32_t kSourceMaxBones = 256;
inline constexpr uint32_t kSourceMaxRecords = 65536; // sequences, textures, meshes, models, ...
inline constexpr uint32_t kSourceMaxSkinEntries = 1u << 20; // numskinref * numskinfamilies
inline constexpr uint32_t kSourceMaxVertices = 1u << 21;    // per file (48 bytes each)
inline constexpr size_t kSourceMaxName = 1024;              // longest stored string
inline constexpr uint32_t kSourceMaxMeshes = 65536;         // over every model of a file

struct SourceMdlBone {
    std::string name;
    int32_t parent = -1; // an earlier bone, or -1
    std::array<float, 3> position{};
    std::array<float, 4> quaternion{0, 0, 0, 1}; // x y z w
};

struct SourceMdlMesh {
    int32_t material = 0;       // skin reference slot (column of the skin table)
    uint32_t vertex_count = 0;  // numvertices
    uint32_t vertex_offset = 0; // vertexoffset: first vertex within its model
    std::array<uint32_t, kSourceMaxLods> lod_vertex_counts{}; // numLODVertexes
};

struct SourceMdlModel {
    std::string name;
    uint32_t vertex_count = 0; // numvertices
    uint32_t first_vertex = 0; // vertexindex / 48
    std::vector<SourceMdlMesh> meshes;
};

struct SourceMdlBodyPart {
    std::string name;
    int32_t base = 1; // the part's unit in an entity's "body" value
    std::vector<SourceMdlModel> models;
};

struct SourceMdl {
    int32_t version = 0;
    int32_t checksum = 0; // must equal the .vvd's and the .vtx's
    std::string name;     // as stored (may differ from the file's path)
    uint32_t flags = 0;
    std::array<float, 3> illum_position{};
    std::array<float, 3> hull_min{};
    std::array<float, 3> hull_max{};
    std::array<float, 3> view_min{};
    std::array<float, 3> view_max{};
    std::vector<SourceMdlBone> bones;
    std::vector<std::string> sequences;    // labels
    std::vector<std::string> textures;     // material names as stored
    std::vector<std::string> texture_dirs; // $cdmaterials, as stored ("models\props_japan\")
    uint32_t skin_refs = 0;
    std::vector<std::vector<uint16_t>> skin_families; // each skin_refs texture indices
    std::vector<SourceMdlBodyPart> body_parts;
};

// Parses the header and its tables. Errors: UnknownFormat (not "IDST"), UnsupportedVersion
// (outside 44..49), Truncated (a table, record or string past the end), BadValue (a negative
// count, a bone whose parent is not an earlier bone, a model's vertexindex not a multiple of
// 48), LimitExceeded (past the kSource* limits, a string longer than kSourceMaxName),
// IndexOutOfRange (a skin entry naming no texture, a mesh's material past the skin slots).
core::Result<SourceMdl> parseSourceMdl(std::span<const uint8_t> data);

// Which model of each body part a "body" value shows: (body / base) % nummodels, as the engine
// decomposes it (Source SDK 2013 game/shared/animation.cpp, GetBodygroup / SetBodygroup). A
// negative body counts as 0, a base below 1 as 1; parts without models give 0.
std::vector<uint32_t> sourceBodyModels(const SourceMdl& mdl, int32_t body);

} // namespace content
