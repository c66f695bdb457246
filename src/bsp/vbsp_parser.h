// The Source VBSP parser's state and lump table, shared by bsp/vbsp.cpp (header, textures,
// faces, tree) and bsp/vbsp_displacements.cpp (displacement grids and their leaf links).
// Private to those files.
#pragma once

#include "bsp/dropped.h"
#include "bsp/edge_faces.h"
#include "bsp/load.h"
#include "bsp/map.h"
#include "core/byte_reader.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bsp::vbsp {

inline constexpr int kNumLumps = 64;

enum VLump {
    kEntities = 0,
    kPlanes = 1,
    kTexdata = 2,
    kVertexes = 3,
    kVisibility = 4,
    kNodes = 5,
    kTexinfo = 6,
    kFaces = 7,
    kLighting = 8,
    kLeafs = 10,
    kEdges = 12,
    kSurfedges = 13,
    kModels = 14,
    kWorldLights = 15,
    kLeafFaces = 16,
    kLeafBrushes = 17,
    kBrushes = 18,
    kBrushSides = 19,
    kAreas = 20,
    kAreaPortals = 21,
    kDispInfo = 26,
    kDispVerts = 33,
    kGameLump = 35,
    kPakfile = 40,
    kCubemaps = 42,
    kTexdataStringData = 43,
    kTexdataStringTable = 44,
    kOverlays = 45,
    kLeafAmbientIndexHdr = 51,
    kLeafAmbientIndex = 52,
    kLightingHdr = 53,
    kWorldLightsHdr = 54,
    kLeafAmbientLightingHdr = 55,
    kLeafAmbientLighting = 56,
    kFacesHdr = 58,
    kOverlayFades = 60,
};

inline constexpr const char* kLumpNames[kNumLumps] = {
    "entities",
    "planes",
    "texdata",
    "vertexes",
    "visibility",
    "nodes",
    "texinfo",
    "faces",
    "lighting",
    "occlusion",
    "leafs",
    "faceids",
    "edges",
    "surfedges",
    "models",
    "worldlights",
    "leaffaces",
    "leafbrushes",
    "brushes",
    "brushsides",
    "areas",
    "areaportals",
    "portals",
    "clusters",
    "portalverts",
    "clusterportals",
    "dispinfo",
    "originalfaces",
    "physdisp",
    "physcollide",
    "vertnormals",
    "vertnormalindices",
    "disp_lightmap_alphas",
    "disp_verts",
    "disp_lightmap_sample_positions",
    "game_lump",
    "leafwaterdata",
    "primitives",
    "primverts",
    "primindices",
    "pakfile",
    "clipportalverts",
    "cubemaps",
    "texdata_string_data",
    "texdata_string_table",
    "overlays",
    "leafmindisttowater",
    "face_macro_texture_info",
    "disp_tris",
    "physcollidesurface",
    "wateroverlays",
    "leaf_ambient_index_hdr",
    "leaf_ambient_index",
    "lighting_hdr",
    "worldlights_hdr",
    "leaf_ambient_lighting_hdr",
    "leaf_ambient_lighting",
    "xzippakfile",
    "faces_hdr",
    "map_flags",
    "overlay_fades",
    "overlay_system_levels",
    "physlevel",
    "disp_multiblend",
};

// Record size of the lumps this parser reads, by lump version; 0 for an unknown version.
uint32_t recordSize(int lump, int32_t version);

struct DirEntry {
    int32_t offset = 0, length = 0, version = 0;
};

struct TexdataRecord {
    std::string name;
    int32_t width = 0, height = 0;
};

struct Parser {
    core::ByteReader file;
    std::string_view name;
    Map map;
    DirEntry dir[kNumLumps];
    std::vector<uint8_t> decoded[kNumLumps]; // LZMA lumps, decompressed
    core::ByteReader data[kNumLumps];
    std::vector<TexdataRecord> texdata;
    std::vector<TexAxes> tex_axes, lm_axes;
    std::vector<uint32_t> texinfo_flags;
    std::vector<glm::vec3> vertices;
    std::vector<std::array<uint32_t, 2>> edges;
    std::vector<int32_t> surfedges;
    LoadOptions options;
    int faces_lump = kFaces;
    int lighting_lump = kLighting;

    uint64_t count(int lump) const {
        const uint32_t size = recordSize(lump, dir[lump].version);
        return size ? data[lump].size() / size : data[lump].size();
    }

    core::Status header();
    core::Status recordSizes();
    core::Status entities();
    core::Status planes();
    core::Status geometry();
    core::Status textures();
    core::Status faces();
    core::Status lightFace(LightmapBuilder& lightmaps, uint64_t index, uint32_t texinfo,
                           const core::ByteReader& r, uint64_t at, bool wide);
    core::Status displacements();
    core::Status leafs();
    core::Status nodes();
    core::Status models();
    core::Status linkDisplacements();
    core::Status collision();
    core::Status staticProps();
    void cubeMaps();
    core::Status overlays();
    core::Status visibility();

    std::vector<uint32_t> displacement_faces;
    DroppedReferences dropped; // references left out with a warning (bsp/dropped.h)
};

} // namespace bsp::vbsp
