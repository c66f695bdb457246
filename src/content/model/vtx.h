// Source engine optimised model triangles (.vtx version 7: .dx90.vtx, .dx80.vtx, .sw.vtx): per
// body part, model and LOD, each mesh's triangles as indices into that mesh's vertices.
//
// Layout (Source SDK 2013 public/optimize.h, namespace OptimizedModel, #pragma pack(1), all
// little-endian; every offset counts from the start of the record holding it):
//   FileHeader_t (36 bytes): version 7, vertCacheSize, maxBonesPerStrip u16, maxBonesPerTri u16,
//     maxBonesPerVert, checkSum (the .mdl's) at 16, numLODs at 20,
//     materialReplacementListOffset, numBodyParts at 28, bodyPartOffset at 32.
//   BodyPartHeader_t (8): numModels, modelOffset. ModelHeader_t (8): numLODs, lodOffset.
//   ModelLODHeader_t (12): numMeshes, meshOffset, switchPoint. MeshHeader_t (9):
//     numStripGroups, stripGroupHeaderOffset, flags.
//   StripGroupHeader_t (25): numVerts, vertOffset, numIndices, indexOffset, numStrips,
//     stripOffset, flags. Its vertices are Vertex_t (9: boneWeightIndex[3], numBones,
//     origMeshVertID u16 at 4, boneID[3]); its indices u16 into those vertices.
//   StripHeader_t (27): numIndices, indexOffset (into the group's indices), numVerts,
//     vertOffset, numBones i16, flags u8 (STRIP_IS_TRILIST 1, STRIP_IS_TRISTRIP 2),
//     numBoneStateChanges, boneStateChangeOffset.
// Games after SDK 2013 (Left 4 Dead 2, Portal 2, Counter-Strike: Global Offensive, Strata)
// append numTopologyIndices and topologyOffset to every strip group (33 bytes) and strip (35)
// without changing the version. Nothing in the file says which; parseVtx reads the SDK 2013
// layout first and the longer one when some strip's range falls outside its group under the
// first (the same test the engine's own asserts make).
//
// A triangle's corner is origMeshVertID of the group vertex its index names
// (vrad's GenerateLightmapSamplesForMesh walks them so, SDK 2013 utils/vrad/vradstaticprops.cpp).
// Strips keep their winding; a tri strip flips every other triangle, degenerate ones dropped.
//
// Safe on untrusted input: every table lies inside the file, every strip inside its group,
// every index inside its group's vertices; the totals of triangles, records and group vertices
// over the file are bounded, since tables may overlap.
#pragma once

#include "content/model/source_mdl.h"
#include "core/result.h"

#include <cstdint>
#include <span>
#include <vector>

namespace content {

inline constexpr uint32_t kSourceMaxTriangles = 1u << 22; // over a whole file
// Models, LOD meshes, strip groups and strips over a whole file (tables may overlap).
inline constexpr uint32_t kSourceMaxVtxRecords = 1u << 20;

struct VtxMesh {
    uint8_t flags = 0;               // MESH_IS_TEETH 1, MESH_IS_EYES 2
    std::vector<uint16_t> triangles; // 3 per triangle: vertex indices within the mdl mesh
    uint32_t strip_groups = 0;
    uint32_t strips = 0;
};

struct VtxLod {
    float switch_point = 0.0f;
    std::vector<VtxMesh> meshes;
};

struct VtxModel {
    std::vector<VtxLod> lods;
};

struct VtxBodyPart {
    std::vector<VtxModel> models;
};

struct Vtx {
    int32_t version = 0;
    int32_t checksum = 0;
    uint32_t lod_count = 0;
    bool topology_fields = false; // strip groups and strips carry the post-2013 topology pair
    std::vector<VtxBodyPart> body_parts;
};

// Errors (structure "vtx.header", "vtx.bodyparts", "vtx.models", "vtx.lods", "vtx.meshes",
// "vtx.stripgroups", "vtx.strips"): UnsupportedVersion (not 7; a .vtx has no magic, so a file
// too short for the header is UnknownFormat), BadValue (a negative count, a strip of unknown
// kind, a list whose length is not a multiple of 3), LimitExceeded, Truncated, IndexOutOfRange
// (a strip outside its group, an index outside the group's vertices).
core::Result<Vtx> parseVtx(std::span<const uint8_t> data);

} // namespace content
