// Quake 3 vertex-animated models (.md3, "IDP3" version 15), as ioquake3 lays them out
// (code/qcommon/qfiles.h md3Header_t, md3Frame_t, md3Tag_t, md3Surface_t, md3Shader_t,
// md3Triangle_t, md3St_t, md3XyzNormal_t) and reads them (code/renderergl2/tr_model.c
// R_LoadMD3).
//
// Layout: a 108-byte header (ident, version, name[64], flags, frame, tag, surface and skin
// counts, offsets of the frames, tags and surfaces and of the end), numFrames frames of 56
// bytes (bounds, local origin, radius, name[16]), numFrames * numTags tags of 112 bytes
// (name[64], origin, a 3x3 axis; frame-major), and numSurfaces surfaces chained by their
// ofsEnd. A surface is a 108-byte header (ident, name[64], flags, frame, shader, vertex and
// triangle counts, then offsets from the surface's start of the triangles, shaders, texture
// coordinates, vertices and end), shaders of 68 bytes (name[64], index), triangles of three
// int32, one (s, t) float pair per vertex, and numFrames * numVerts vertices of four int16
// (x, y, z in 1/64 units, MD3_XYZ_SCALE, and a normal packed as latitude << 8 | longitude,
// each a byte of 256 steps around the circle).
//
// Each surface becomes one ModelMesh with a pose per frame (one interval each, no skins: a
// surface's look is its shader, resolved by name through the Quake 3 shader system). Safe on
// untrusted input: every count is checked against ioquake3's limits and the bytes present
// before anything is allocated, every index against its array, every offset against the file.
#pragma once

#include "content/model/model_mesh.h"
#include "core/result.h"

#include <array>
#include <span>
#include <string>
#include <vector>

namespace content {

// ioquake3 qfiles.h MD3_MAX_FRAMES, MD3_MAX_SURFACES, MD3_MAX_TAGS, MD3_MAX_SHADERS; tr_local.h
// SHADER_MAX_VERTEXES and SHADER_MAX_INDEXES / 3, which R_LoadMD3 refuses a surface beyond.
inline constexpr uint32_t kMaxMd3Frames = 1024;
inline constexpr uint32_t kMaxMd3Surfaces = 32;
inline constexpr uint32_t kMaxMd3Tags = 16;
inline constexpr uint32_t kMaxMd3Shaders = 256;
inline constexpr uint32_t kMaxMd3Vertices = 1000;
inline constexpr uint32_t kMaxMd3Triangles = 2000;

struct Md3Frame {
    std::string name;
    std::array<float, 3> mins{};
    std::array<float, 3> maxs{};
    std::array<float, 3> origin{};
    float radius = 0;
};

// An attachment point (a weapon's barrel, a player's head): where another model's origin goes
// and how it is turned, per frame.
struct Md3Tag {
    std::string name;
    std::array<float, 3> origin{};
    std::array<std::array<float, 3>, 3> axis{}; // forward, left, up as rows
};

struct Md3Surface {
    std::string name;                 // what a .skin file names it by
    std::vector<std::string> shaders; // shader names, the first drawn (R_LoadMD3 keeps all)
    ModelMesh mesh;                   // positions in model units, one pose per frame
};

struct Md3Model {
    std::string name;
    std::vector<Md3Frame> frames;
    uint32_t tag_count = 0;   // tags per frame
    std::vector<Md3Tag> tags; // frame f, tag t: tags[f * tag_count + t]
    std::vector<Md3Surface> surfaces;
    // Bounds over every surface and pose; mins > maxs (infinite) when no surface has a vertex.
    std::array<float, 3> mins{0, 0, 0};
    std::array<float, 3> maxs{0, 0, 0};
};

// The unit normal a packed md3 normal stands for: latitude a and longitude b (bytes, 2 pi / 256
// per step) give (cos a sin b, sin a sin b, cos b), as R_LoadMD3 unpacks them.
std::array<float, 3> md3Normal(uint16_t packed);

// Errors (lump "md3.header", "md3.frame", "md3.tag", "md3.surface" with the surface index):
// UnknownFormat (not "IDP3"), UnsupportedVersion (not 15), Truncated (a record or offset runs
// past the end), BadValue (no frames, a negative count, a surface whose frame count differs
// from the model's, a surface chain that does not move forward), LimitExceeded (past
// kMaxMd3*), IndexOutOfRange (a triangle names a vertex >= numVerts).
core::Result<Md3Model> decodeMd3(std::span<const uint8_t> data);

struct ModelAsset;
struct ModelSource;

// The registry's loader for "IDP3" (content/model/model_asset.h, md3_asset.cpp): a part per
// surface, named "path#surface", each with its shader's base image as its one skin: the first
// stage of the shader (found in the request's shader library) that names an image, additive
// when that stage blends GL_ONE onto the frame; without a script the shader's name is the image
// (ioquake3 tr_shader.c FinishShader's implicit shader). An image that is not found draws the
// missing texture and is a warning of its part.
//
// With the request's skin key (a misc_model's, q3map2 model.c InsertModel) a surface takes the
// shader the .skin file (q3map2SkinPath) names for it, and a surface the skin does not name is
// left out, as q3map2 leaves it out of the compile; a skin that is missing, broken or names no
// surface leaves the model's own shaders, with a warning on every part. The key adds
// "#skin FILE". A file that fails to decode, has no surface or whose skin names none of them is
// one part with an error.
core::Result<ModelAsset> loadMd3Asset(const ModelSource& source);
// The key loadMd3Asset gives: the path, and "#skin FILE" with a skin key.
std::string md3AssetKey(const ModelSource& source);

} // namespace content
