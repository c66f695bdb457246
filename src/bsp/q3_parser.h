// The Quake 3 family parser's state, lump directory and record constants, shared by
// bsp/q3.cpp (lump table, tree, brushes, visibility), bsp/q3_faces.cpp (effects, vertices,
// faces) and bsp/q3_lighting.cpp (lightmap pages, light grid). Private to those files; the
// format is described in bsp/q3.cpp.
#pragma once

#include "bsp/dropped.h"
#include "bsp/map.h"
#include "core/byte_reader.h"
#include "core/result.h"

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

namespace bsp::q3 {

using core::ErrorCode;
using core::makeError;

enum Lump : int {
    kEntities,
    kTextures,
    kPlanes,
    kNodes,
    kLeafs,
    kLeafFaces,
    kLeafBrushes,
    kModels,
    kBrushes,
    kBrushSides,
    kVertexes,
    kMeshVerts,
    kEffects,
    kFaces,
    kLightmaps,
    kLightVols,
    kVisData,
    kNumLumps
};

inline constexpr uint64_t kHeaderSize = 8 + 8 * kNumLumps;

// Caps on what one file may make us allocate. The engines' own limits (ioq3 qfiles.h
// MAX_MAP_*) are far lower; these leave room for q3map2 forks with raised limits.
// Faces may name overlapping vertex ranges, and the world mesh copies each face's vertices (a
// patch's grow about fourfold when tessellated), so the sum over faces is capped too: 2,000
// faces naming the same 100,000 vertices would otherwise make 200 M mesh vertices from a
// 5 MB file. q3map2 gives every face its own range, so real maps sum to the lump's count.
inline constexpr uint64_t kMaxFaceVertices = 1u << 22; // the vertexes lump's cap below
inline constexpr uint64_t kMaxIndices = 1u << 24;      // after expanding faces' meshvert ranges
inline constexpr uint64_t kMaxModels = 1u << 16;
inline constexpr uint64_t kMaxLightmapPages = 1u << 12;
inline constexpr uint64_t kMaxClusters = 1u << 20;
inline constexpr uint64_t kNoCap = UINT64_MAX; // bounded by the file size alone

// The lump directory (after q2pro's bsp_lumps[]): name as in the map specs, IBSP and FBSP
// record sizes (0: bytes, or decided later), and the most records accepted.
struct LumpDesc {
    const char* name;
    uint32_t ibsp_size;
    uint32_t fbsp_size;
    uint64_t cap;
};
inline constexpr LumpDesc kLumps[kNumLumps] = {
    {"entities", 0, 0, kNoCap},
    {"textures", 72, 72, 1u << 16},
    {"planes", 16, 16, 1u << 21},
    {"nodes", 36, 36, 1u << 21},
    {"leafs", 48, 48, 1u << 21},
    {"leaffaces", 4, 4, 1u << 22},
    {"leafbrushes", 4, 4, 1u << 22},
    {"models", 40, 40, kMaxModels},
    {"brushes", 12, 12, 1u << 20},
    {"brushsides", 8, 12, 1u << 22},
    {"vertexes", 44, 80, 1u << 22},
    {"meshverts", 4, 4, 1u << 24},
    {"effects", 72, 72, 1u << 12},
    {"faces", 104, 148, 1u << 20},
    // FBSP pages may be 128 or 512 wide: decided once the faces are known.
    {"lightmaps", 128 * 128 * 3, 0, kNoCap},
    {"lightvols", 8, 30, kNoCap},
    {"visdata", 0, 0, kNoCap},
};

// Quake 3 surface types (ioq3 qfiles.h mapSurfaceType_t).
inline constexpr int32_t kSurfacePlanar = 1;
inline constexpr int32_t kSurfacePatch = 2;
inline constexpr int32_t kSurfaceTriangleSoup = 3;
inline constexpr int32_t kSurfaceFlare = 4;

// Quake 3 surface and content flags (ioq3 code/game/surfaceflags.h).
inline constexpr uint32_t kQ3SurfSky = 0x4;
inline constexpr uint32_t kQ3SurfNoDraw = 0x80;
inline constexpr uint32_t kQ3SurfHint = 0x100;
inline constexpr uint32_t kQ3SurfSkip = 0x200;
inline constexpr uint32_t kQ3ContentsLava = 0x8;
inline constexpr uint32_t kQ3ContentsSlime = 0x10;
inline constexpr uint32_t kQ3ContentsWater = 0x20;
inline constexpr uint32_t kQ3ContentsFog = 0x40;

struct LumpRange {
    uint64_t offset = 0;
    uint64_t length = 0;
    uint64_t count = 0;
};

class Parser {
public:
    Parser(std::span<const uint8_t> data, Format format, int32_t version)
        : m_r(data), m_format(format), m_version(version), m_fbsp(format == Format::Qfusion) {}

    core::Result<Map> run();

private:
    uint32_t recordSize(int lump) const {
        return m_fbsp ? kLumps[lump].fbsp_size : kLumps[lump].ibsp_size;
    }

    core::Status readLumpTable();

    // Reader positioned on record `index` of a lump (records are validated to lie inside).
    uint64_t at(int lump, uint64_t index) const {
        return m_lumps[static_cast<size_t>(lump)].offset + index * recordSize(lump);
    }
    uint64_t count(int lump) const { return m_lumps[static_cast<size_t>(lump)].count; }

    glm::vec3 vec3At(uint64_t offset) const {
        return {m_r.f32(offset), m_r.f32(offset + 4), m_r.f32(offset + 8)};
    }
    glm::vec3 ivec3At(uint64_t offset) const {
        return {static_cast<float>(m_r.i32(offset)), static_cast<float>(m_r.i32(offset + 4)),
                static_cast<float>(m_r.i32(offset + 8))};
    }

    // [first, first + num) inside [0, limit), in 64-bit so no sum wraps.
    static bool rangeOk(int64_t first, int64_t num, uint64_t limit) {
        return first >= 0 && num >= 0 &&
               static_cast<uint64_t>(first) + static_cast<uint64_t>(num) <= limit;
    }
    static std::string rangeText(int64_t first, int64_t num, uint64_t limit, const char* what) {
        return "range " + std::to_string(first) + "+" + std::to_string(num) + " beyond " +
               std::to_string(limit) + " " + what;
    }
    static bool indexOk(int64_t i, uint64_t limit) {
        return i >= 0 && static_cast<uint64_t>(i) < limit;
    }

    core::Status readEntities();

    // q3map2 -deluxe writes worldspawn "deluxeMaps" "1" (directions in model space) or "2"
    // (tangent space); DarkPlaces model_brush.c Mod_Q3BSP_LoadEntities reads the key with or
    // without a leading '_' and compares the value exactly. Without it the pages decide.
    DeluxeMaps deluxeKey() const;

    core::Status readTextures();

    core::Status readPlanes();

    core::Status readNodes();

    core::Status readLeafs();

    // Brushes are not part of the model (collision only), but fog volumes and leaves refer to
    // them, so their indices are checked like everything else.
    core::Status checkBrushes();

    core::Status readEffects();

    // A fog volume's box and visible plane. ioquake3 R_LoadFogs takes sides 0..5 as -x, +x,
    // -y, +y, -z, +z (q3map writes a brush's axial sides first); we take every side whose
    // plane is axial, which gives the same box and does not trust the order. Brush and side
    // indices were checked by checkBrushes and readEffects. A side with no axial plane leaves
    // that bound open (+-1e9): the renderer fogs by the faces' fog numbers and the visible
    // plane, not by the box.
    static constexpr float kFogOpen = 1e9f;
    void fogShape(Fog& fog);

    core::Status readVertices();

    // Fields of one surface record that the two layouts store at different places.
    struct DiskFace {
        int32_t texture, effect, type, first_vertex, num_vertices, first_meshvert, num_meshverts;
        int32_t lightmap;
        int32_t lm_x, lm_y, lm_w, lm_h;
        std::array<uint8_t, kMaxLightStyles> styles{0, kNoStyle, kNoStyle, kNoStyle};
        glm::vec3 origin, vec0, normal;
        int32_t patch_w, patch_h;
    };

    DiskFace readDiskFace(uint64_t index) const;

    core::Status readFaces();

    // Face `fi`'s material, fog, vertex range and style 0 from `d`, checked against their
    // lumps; `face_vertices` sums the faces' vertex counts against kMaxFaceVertices.
    core::Status readFaceRefs(int64_t fi, const DiskFace& d, uint64_t& face_vertices, Face& face);

    // A polygon or triangle soup's indices, a patch's control grid size, or a flare's vertex.
    core::Status readFaceShape(int64_t fi, const DiskFace& d, uint64_t meshverts, Face& face);

    // Appends a polygon or triangle soup's meshverts as absolute vertex indices.
    core::Status readFaceIndices(int64_t fi, const DiskFace& d, uint64_t meshverts);

    // Flares usually have no vertices: position, colour and direction live in the lightmap
    // origin and vectors (ioq3 tr_bsp.c ParseFlare). Give them one vertex to hold them.
    void addFlareVertex(Face& face, const DiskFace& d);

    // The face's block in its page; informational (the vertices hold the lightmap
    // coordinates), so a bad rectangle is clamped with a warning instead of rejecting the map.
    LightmapRect rectFrom(const DiskFace& d);

    core::Status readLightmaps();

    core::Status readModels();

    // The light grid (ioquake3 tr_bsp.c R_LoadLightGrid, which lights models from it:
    // game/quake3.cpp): cells of worldspawn "gridsize"
    // (R_LoadEntities: 64 64 128 by default) whose corners lie on multiples of the cell size
    // inside the world model's bounds, x fastest. A lump of another length is ignored with a
    // warning, as the engine does ("light grid mismatch"); models are then lit by the engine's
    // fixed light. Qfusion's 30-byte cells are reached through an index lump not read here.
    core::Status readLightGrid();

    // Brushes, sides, leaf brushes and the models' brush lists into Map::collision; the
    // indices were checked by checkBrushes, readLeafs and readModels, checkBrushCollision
    // checks them again with the work caps. Contents come from the shaders (textures lump).
    core::Status readCollision();

    // Collision is one feature: a reference only it follows drops it with a warning.
    void dropCollision(const core::Error& why);

    core::Status readBrushCollision();

    // ioquake3 reads the vis header unchecked (tr_bsp.c R_LoadVisibility) and answers a
    // cluster outside it with "everything visible" (tr_world.c R_ClusterPVS returns novis): a
    // vis lump that does not fit the leaves is dropped with a warning and the map drawn
    // without it.
    core::Status readVis();

    core::Status readVisRows();

    // Walks the tree from node 0 with an explicit stack: every node must be reached at most
    // once, which rules out cycles and shared subtrees whatever the file says.
    core::Status checkTree();

    // Removes faces of unknown types and renumbers leaf and model face references, so the
    // rest of the program never sees them.
    core::Status dropSkippedFaces();

    // Brush entities name their model "*N". Quake 3 builds a mover's brushes relative to its
    // origin key (q3map2 shifts them when an origin brush or key is present), so the model is
    // drawn at that origin. Angles are left at zero: movers spawn unrotated, and a door's
    // "angle" is its direction of travel.
    void linkSubmodelEntities();

    core::ByteReader m_r;
    Format m_format;
    int32_t m_version;
    bool m_fbsp; // FBSP record layout
    Map m_map;
    std::array<LumpRange, kNumLumps> m_lumps{};
    std::vector<bool> m_keep; // per file face: false when its type is skipped
    int32_t m_max_lightmap = -1;
    int64_t m_bad_rects = 0;
    int64_t m_partial_triangles = 0;
    DroppedReferences m_dropped; // references left out with a warning (bsp/dropped.h)
    bool m_collision_dropped = false;
};

} // namespace bsp::q3
