// Source engine static prop vertex lighting (.vhv, "hardware verts" version 2): the colour vrad
// baked for each vertex of one static prop, stored in the map's pakfile as "sp_<i>.vhv" (LDR)
// or "sp_hdr_<i>.vhv" (HDR) for static prop i (SDK 2013 utils/vrad/vradstaticprops.cpp,
// CVradStaticPropMgr::SerializeLighting; props flagged STATIC_PROP_NO_PER_VERTEX_LIGHTING get
// none).
//
// Layout (SDK 2013 public/materialsystem/hardwareverts.h, namespace HardwareVerts, pack(1),
// little-endian): FileHeader_t (40 bytes: version 2, checksum (the .mdl's), vertex flags,
// vertex size, total vertices, mesh count, 4 unused), then MeshHeader_t per mesh (28 bytes:
// LOD, vertex count, offset from the file start, 4 unused). vrad writes 4-byte vertices in
// b, g, r, a order (the RGBA8888 of each vertex's ColorRGBExp32), the data aligned to 512
// bytes. The meshes are the model's meshes LOD by LOD, in the .vtx's order.
//
// Safe on untrusted input: every mesh's vertices lie inside the file; counts are bounded.
#pragma once

#include "core/result.h"

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace content {

inline constexpr uint32_t kMaxVhvMeshes = 65536;

struct VhvMesh {
    uint32_t lod = 0;
    std::vector<std::array<uint8_t, 4>> colours; // r, g, b, a per vertex
};

struct Vhv {
    int32_t version = 0;
    uint32_t checksum = 0;
    uint32_t vertex_flags = 0;
    uint32_t vertex_size = 0;
    uint32_t vertex_count = 0; // the header's total
    std::vector<VhvMesh> meshes;
};

// Errors (structure "vhv.header", "vhv.meshes"): UnsupportedVersion (not 2; too short for the
// header is UnknownFormat), BadValue (a negative mesh count, a vertex size below 4, mesh counts
// that do not add up to the total), LimitExceeded, Truncated (a mesh's vertices past the end).
core::Result<Vhv> parseVhv(std::span<const uint8_t> data);

// The pakfile name of static prop `prop`'s lighting: "sp_<prop>.vhv", or "sp_hdr_<prop>.vhv".
std::string staticPropLightingPath(uint32_t prop, bool hdr);

} // namespace content
