// The Quake 1 family parser's state, lump list and record sizes, shared by bsp/q1.cpp (lump
// directory, BSPX directory, textures, tree, visibility), bsp/q1_faces.cpp (face records, lit
// liquids, BSPX per-face lightmaps, faces) and bsp/q1_lighting.cpp (.lit/.lux companions and BSPX
// lighting). Private to those files; the format is described in bsp/q1.cpp.
#pragma once

#include "bsp/edge_faces.h"
#include "bsp/load.h"
#include "bsp/lump_table.h"
#include "bsp/map.h"
#include "core/byte_reader.h"
#include "core/result.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

namespace bsp::q1 {

enum Q1Lump {
    kEntities,
    kPlanes,
    kTextures,
    kVertexes,
    kVisibility,
    kNodes,
    kTexinfo,
    kFaces,
    kLighting,
    kClipnodes,
    kLeafs,
    kMarksurfaces,
    kEdges,
    kSurfedges,
    kModels,
    kNumLumps
};

enum class Variant { Bsp29, Bsp2, Rmq, HalfLife };

inline constexpr uint32_t kTexSpecial = 1; // texinfo flag: sky or liquid, no lightmap
inline constexpr int32_t kMaxTextureSide = 8192;
// Texels per uv unit of a Quake 1 liquid (QuakeSpasm's warp image, see Parser::faces).
inline constexpr float kLiquidTile = 64.0f;

struct RecordSizes {
    uint32_t node, leaf, face, marksurface, edge, clipnode;
};

struct TexinfoQ1 {
    TexAxes axes;
    int32_t material = 0;
    uint32_t flags = 0;
};

// One map's parse: q1.cpp runs the steps in file order (parseQuake1); lighting() and its
// helpers live in q1_lighting.cpp, faceRecord() to faces() in q1_faces.cpp.
struct Parser {
    core::ByteReader file;
    Variant variant = Variant::Bsp29;
    RecordSizes sizes{};
    LumpRef lumps[kNumLumps];
    const Companions* companions = nullptr;
    std::string name; // the file, for warnings
    Map map;
    std::vector<glm::vec3> vertices;
    std::vector<std::array<uint32_t, 2>> edges;
    std::vector<int32_t> surfedges;
    std::vector<TexinfoQ1> texinfo;
    std::vector<int32_t> leaf_visofs;
    std::vector<uint8_t> lighting_rgb;
    std::vector<uint8_t> lighting_dirs; // .lux or BSPX LIGHTINGDIR, laid out as lighting_rgb
    int32_t lighting_scale = 3;         // bytes of lighting_rgb per byte offset of face lightofs
    bool bsp29_style = true;            // 16-bit records (BSP29, HL)

    core::ByteReader lump(int i) const { return lumpReader(file, lumps[i]); }

    core::Status header();
    void bspx();
    core::Status entities();
    core::Status planes();
    core::Status geometry();
    core::Status textures();
    core::Status texinfos();
    core::Status lighting();
    bool bspxLighting(uint64_t samples);
    void lightDirections();
    EdgeFaceRecord faceRecord(const core::ByteReader& r, uint64_t index) const;
    bool hasLitLiquids(const core::ByteReader& r, uint64_t count) const;
    core::Status faces();
    core::Status leafs();
    core::Status nodes();
    core::Status models();
    core::Status visibility();
    core::Status validateTree();
    core::Status collision();
    void submodelSettings();
};

} // namespace bsp::q1
