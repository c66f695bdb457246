// Quake 2 alias models (.md2, "IDP2" version 8) as yquake2 lays them out
// (src/common/header/files.h dmdl_t, dstvert_t, dtriangle_t, daliasframe_t) and reads them
// (src/client/refresh/files/models.c Mod_LoadMD2).
//
// .md2 layout: a 68-byte header (ident, version, skinwidth, skinheight, framesize, the counts
// of skins, xyz vertices, st vertices, triangles, GL commands and frames, then the offsets of
// skins, st, triangles, frames, GL commands and the end). Skins are 64-byte PCX names; st
// vertices two int16 texel coordinates; a triangle three xyz and three st indices (int16); a
// frame scale, translate (floats), a 16-byte name and num_xyz packed vertices (x, y, z and an
// index into the 162 normals of anorms.h, bytes), framesize bytes apart. The GL commands
// (triangle strips and fans) repeat the triangles and are not read.
//
// The parser is safe on untrusted input: every count is checked against the bytes present
// before anything is allocated, and every index against its array.
#pragma once

#include "content/model/model_mesh.h"
#include "core/result.h"

#include <array>
#include <span>
#include <string>
#include <vector>

namespace content {

// Limits, eight times yquake2's (files.h MAX_VERTS 2048, MAX_TRIANGLES 4096, MAX_FRAMES 512,
// MAX_MD2SKINS 32): they bound the work on hostile files whose counts the bytes could hold.
inline constexpr uint32_t kMaxMd2Vertices = 16384;
inline constexpr uint32_t kMaxMd2Triangles = 32768;
inline constexpr uint32_t kMaxMd2Frames = 4096;
inline constexpr uint32_t kMaxMd2Skins = 256;

// The 162 vertex normals a packed vertex's byte indexes (yquake2
// src/client/refresh/constants/anorms.h, the same table as Quake 1's anorms.h).
inline constexpr size_t kMd2NormalCount = 162;
const std::array<std::array<float, 3>, kMd2NormalCount>& md2Normals();

// A decoded .md2: the mesh with every frame (one pose each) and no images yet, and the skins'
// PCX paths for the caller to read through its file system (attachPcxSkins).
struct Md2Model {
    ModelMesh mesh;
    int skin_width = 0;
    int skin_height = 0;
    std::vector<std::string> skin_names;
};

// Errors (lump "md2.header", "md2.triangles", ... with the index and field): UnknownFormat
// (not "IDP2"), UnsupportedVersion (not 8), Truncated (a table runs past the end), BadValue
// (a count below 1 where the model needs one, a skin size or framesize that cannot hold the
// vertices), LimitExceeded (past kMaxMd2*), IndexOutOfRange (a triangle names an xyz or st
// vertex beyond its table).
//
// The mesh has one vertex per distinct (xyz, st) pair of the triangles, in first-use order:
// a position shared by triangles with different texture coordinates is split. Texture
// coordinates are s / skinwidth, t / skinheight; positions scale * packed + translate;
// normals from the anorms table (an index past it gives +z). Each frame is one pose.
core::Result<Md2Model> decodeMd2(std::span<const uint8_t> data);

class FileSystem;

// Reads each skin's PCX through `fs` (its own palette: Quake 2's skins carry the game
// palette) into model.mesh.images and skins, one skin per name. A skin that is missing or
// broken becomes an 8x8 grey checker and its message goes to `problems`, so the model still
// draws; a model without skin names gets one checker skin.
void attachPcxSkins(Md2Model& model, const FileSystem& fs, std::vector<std::string>& problems);

struct ModelAsset;
struct ModelSource;

// The registry's loader for "IDP2" (content/model/model_asset.h): decodeMd2, then its skins
// through the source's file system (attachPcxSkins; their problems are the part's warnings).
core::Result<ModelAsset> loadMd2Asset(const ModelSource& source);

} // namespace content
