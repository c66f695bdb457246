// Source engine model vertices (.vvd, "IDSV" version 4): the bind-pose vertices every LOD of a
// studio model draws from, with their bone weights and tangents.
//
// Layout (Source SDK 2013 public/studio.h, vertexFileHeader_t, 64 bytes, little-endian): id
// "IDSV", version 4, checksum (the .mdl's), numLODs, numLODVertexes[8] (the vertices needed when
// LOD i is the highest drawn), numFixups, fixupTableStart, vertexDataStart, tangentDataStart.
// Vertices are mstudiovertex_t (48 bytes: mstudioboneweight_t weight[3] float, bone[3] char,
// numbones byte; position, normal, texcoord); tangents a float4 each (w the bitangent's sign),
// one per vertex, at tangentDataStart (0: none). Fixups (vertexFileFixup_t: lod, sourceVertexID,
// numVertexes) reorder the file's LOD-sorted vertices into mesh order: for the root LOD r, every
// fixup whose lod >= r appends its run (public/studio.h Studio_LoadVertexes). bspview loads root
// LOD 0, so every fixup applies and the result holds numLODVertexes[0] vertices; without
// fixups they are the file's first numLODVertexes[0].
//
// Safe on untrusted input: counts are bounded by kSourceMaxVertices and the bytes present,
// every fixup run must lie inside the stored vertices and the runs must add up exactly.
#pragma once

#include "content/model/source_mdl.h"
#include "core/result.h"

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace content {

struct SourceVertex {
    std::array<float, 3> position{};
    std::array<float, 3> normal{};
    std::array<float, 2> uv{};
    std::array<float, 3> weights{};
    std::array<uint8_t, 3> bones{};
    uint8_t bone_count = 0;
};

struct Vvd {
    int32_t version = 0;
    int32_t checksum = 0;
    uint32_t lod_count = 0;                                   // numLODs
    std::array<uint32_t, kSourceMaxLods> lod_vertex_counts{}; // numLODVertexes
    uint32_t fixup_count = 0;
    std::vector<SourceVertex> vertices;         // root LOD 0 in mesh order (fixups applied)
    std::vector<std::array<float, 4>> tangents; // one per vertex, or empty when the file has none
};

// Errors (structure "vvd.header", "vvd.fixups"): UnknownFormat (not "IDSV"),
// UnsupportedVersion (not 4), BadValue (numLODs outside 1..8, a negative count, LOD vertex counts
// that grow with the LOD, fixup runs that do not add up to numLODVertexes[0]), LimitExceeded,
// Truncated (vertices, tangents or fixups past the end).
core::Result<Vvd> parseVvd(std::span<const uint8_t> data);

} // namespace content
