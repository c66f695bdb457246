// Quake 3 family parser: IBSP 46 (Quake 3, OpenArena), IBSP 47 (RTCW / Enemy Territory, same
// layout) and FBSP 1 (Qfusion / Warsow / Nuclide).
//
// Format references: Kekoa Proudfoot, "Unofficial Quake 3 Map Specs" (lump names used in
// our messages: textures, leafs, leaffaces, meshverts, effects, faces, lightvols, visdata),
// and the engines' headers: ioquake3 code/qcommon/qfiles.h for IBSP, Qfusion
// source/qcommon/qfiles.h and q3map2 bspfile_rbsp.c for FBSP. FBSP differs from IBSP in these
// records: brush sides gain a surface number (12 bytes), draw vertices carry four lightmap
// coordinates and four colours (80 bytes), surfaces carry four light styles, lightmap numbers
// and offsets (148 bytes); light-grid cells are 30 bytes; lightmap pages are usually 512x512
// where IBSP's are 128x128.
//
// Order of work (as q2pro's loader does): header, every lump against the file size and its
// record size, then each lump into the common model with every index checked, then the tree
// shape and the visibility sizes. Nothing is recursed; every allocation is bounded by the
// lump sizes already checked and by the caps below.
#include "bsp/parsers.h"

#include "bsp/collision_read.h"
#include "bsp/dropped.h"
#include "bsp/entities.h"
#include "bsp/patch.h"
#include "bsp/tree.h"
#include "core/byte_reader.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <glm/geometric.hpp>
#include <tuple>
#include <utility>

namespace bsp {

namespace {

// The light grid's cell size as ioquake3 reads it (renderergl1 tr_bsp.c R_LoadEntities): the
// first entity's keys in order, "gridsize" compared without case, its value read by sscanf
// "%f %f %f" (the numbers before the first that does not parse replace the default's, the rest
// keep it), a later key replacing an earlier one; a "vertexremapshader..." or "remapshader..."
// key (prefixes compared with case) whose value has no ';' ends the reading.
glm::vec3 engineGridSize(const std::vector<Entity>& entities) {
    glm::vec3 size(64.0f, 64.0f, 128.0f);
    if (entities.empty())
        return size;
    for (const auto& [key, value] : entities[0].pairs) {
        const bool remap = std::string_view(key).starts_with("vertexremapshader") ||
                           std::string_view(key).starts_with("remapshader");
        if (remap && value.find(';') == std::string::npos)
            break;
        if (remap || key.size() != 8)
            continue;
        bool grid = true;
        for (size_t i = 0; i < 8; ++i)
            grid = grid && std::tolower(static_cast<unsigned char>(key[i])) == "gridsize"[i];
        if (!grid)
            continue;
        const char* p = value.c_str();
        for (int i = 0; i < 3; ++i) {
            char* end = nullptr;
            const float v = std::strtof(p, &end);
            if (end == p)
                break;
            size[i] = v;
            p = end;
        }
    }
    return size;
}

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

constexpr uint64_t kHeaderSize = 8 + 8 * kNumLumps;

// Caps on what one file may make us allocate. The engines' own limits (ioq3 qfiles.h
// MAX_MAP_*) are far lower; these leave room for q3map2 forks with raised limits.
// Faces may name overlapping vertex ranges, and the world mesh copies each face's vertices (a
// patch's grow about fourfold when tessellated), so the sum over faces is capped too: 2,000
// faces naming the same 100,000 vertices would otherwise make 200 M mesh vertices from a
// 5 MB file. q3map2 gives every face its own range, so real maps sum to the lump's count.
constexpr uint64_t kMaxFaceVertices = 1u << 22; // the vertexes lump's cap below
constexpr uint64_t kMaxIndices = 1u << 24;      // after expanding faces' meshvert ranges
constexpr uint64_t kMaxModels = 1u << 16;
constexpr uint64_t kMaxLightmapPages = 1u << 12;
constexpr uint64_t kMaxClusters = 1u << 20;
constexpr uint64_t kNoCap = UINT64_MAX; // bounded by the file size alone

// The lump directory (after q2pro's bsp_lumps[]): name as in the map specs, IBSP and FBSP
// record sizes (0: bytes, or decided later), and the most records accepted.
struct LumpDesc {
    const char* name;
    uint32_t ibsp_size;
    uint32_t fbsp_size;
    uint64_t cap;
};
constexpr LumpDesc kLumps[kNumLumps] = {
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
constexpr int32_t kSurfacePlanar = 1;
constexpr int32_t kSurfacePatch = 2;
constexpr int32_t kSurfaceTriangleSoup = 3;
constexpr int32_t kSurfaceFlare = 4;

// Quake 3 surface and content flags (ioq3 code/game/surfaceflags.h).
constexpr uint32_t kQ3SurfSky = 0x4;
constexpr uint32_t kQ3SurfNoDraw = 0x80;
constexpr uint32_t kQ3SurfHint = 0x100;
constexpr uint32_t kQ3SurfSkip = 0x200;
constexpr uint32_t kQ3ContentsLava = 0x8;
constexpr uint32_t kQ3ContentsSlime = 0x10;
constexpr uint32_t kQ3ContentsWater = 0x20;
constexpr uint32_t kQ3ContentsFog = 0x40;

struct LumpRange {
    uint64_t offset = 0;
    uint64_t length = 0;
    uint64_t count = 0;
};

class Parser {
public:
    Parser(std::span<const uint8_t> data, Format format, int32_t version)
        : m_r(data), m_format(format), m_version(version), m_fbsp(format == Format::Qfusion) {}

    core::Result<Map> run() {
        m_map.format = m_format;
        m_map.version = m_version;
        m_map.overbright_lighting = true;
        m_map.mips_round_down = true;
        for (auto step : {&Parser::readLumpTable, &Parser::readEntities, &Parser::readTextures,
                          &Parser::readPlanes, &Parser::readNodes, &Parser::readLeafs,
                          &Parser::checkBrushes, &Parser::readEffects, &Parser::readVertices,
                          &Parser::readFaces, &Parser::readLightmaps, &Parser::readModels,
                          &Parser::readLightGrid, &Parser::readCollision, &Parser::readVis,
                          &Parser::checkTree, &Parser::dropSkippedFaces}) {
            core::Status s = (this->*step)();
            if (!s)
                return std::move(s.error());
        }
        linkSubmodelEntities();
        m_dropped.flush(m_map);
        return std::move(m_map);
    }

private:
    uint32_t recordSize(int lump) const {
        return m_fbsp ? kLumps[lump].fbsp_size : kLumps[lump].ibsp_size;
    }

    core::Status readLumpTable() {
        if (m_r.size() < kHeaderSize)
            return makeError(ErrorCode::Truncated, "header", -1, {},
                             "header needs " + std::to_string(kHeaderSize) + " bytes, file has " +
                                 std::to_string(m_r.size()));
        for (int i = 0; i < kNumLumps; ++i) {
            const int32_t offset = m_r.i32(8 + 8 * static_cast<uint64_t>(i));
            const int32_t length = m_r.i32(12 + 8 * static_cast<uint64_t>(i));
            if (offset < 0 || length < 0 ||
                !m_r.inRange(static_cast<uint64_t>(offset), static_cast<uint64_t>(length)))
                return makeError(ErrorCode::LumpOutOfBounds, kLumps[i].name, -1, {},
                                 "offset " + std::to_string(offset) + " length " +
                                     std::to_string(length) + " outside a file of " +
                                     std::to_string(m_r.size()) + " bytes");
            const uint32_t rec = recordSize(i);
            if (rec && length % rec != 0)
                return makeError(ErrorCode::LumpSize, kLumps[i].name, -1, {},
                                 "length " + std::to_string(length) +
                                     " is not a multiple of the record size " +
                                     std::to_string(rec));
            LumpRange& l = m_lumps[static_cast<size_t>(i)];
            l.offset = static_cast<uint64_t>(offset);
            l.length = static_cast<uint64_t>(length);
            l.count = rec ? l.length / rec : l.length;
            if (l.count > kLumps[i].cap)
                return makeError(ErrorCode::LimitExceeded, kLumps[i].name, -1, {},
                                 std::to_string(l.count) + " records, limit " +
                                     std::to_string(kLumps[i].cap));
            LumpInfo info;
            info.name = kLumps[i].name;
            info.offset = static_cast<uint32_t>(offset);
            info.length = static_cast<uint32_t>(length);
            info.record_size = rec;
            info.count = static_cast<uint32_t>(l.count);
            m_map.lumps.push_back(std::move(info));
        }
        return core::okStatus();
    }

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

    core::Status readEntities() {
        const LumpRange& l = m_lumps[kEntities];
        const auto bytes =
            m_r.bytes().subspan(static_cast<size_t>(l.offset), static_cast<size_t>(l.length));
        std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
        if (const size_t nul = text.find('\0'); nul != std::string_view::npos)
            text = text.substr(0, nul);
        m_map.entity_text = std::string(text);
        m_map.entities = parseEntities(m_map.entity_text, &m_map.warnings);
        m_map.deluxe_maps = deluxeKey();
        m_map.entity_models = EntityModelTable::Quake3;
        return core::okStatus();
    }

    // q3map2 -deluxe writes worldspawn "deluxeMaps" "1" (directions in model space) or "2"
    // (tangent space); DarkPlaces model_brush.c Mod_Q3BSP_LoadEntities reads the key with or
    // without a leading '_' and compares the value exactly. Without it the pages decide.
    DeluxeMaps deluxeKey() const {
        if (m_map.entities.empty() || m_map.entities[0].classname() != "worldspawn")
            return DeluxeMaps::Auto;
        const Entity& world = m_map.entities[0];
        const std::string_view value =
            world.has("deluxeMaps") ? world.get("deluxeMaps") : world.get("_deluxeMaps");
        if (value == "1")
            return DeluxeMaps::ModelSpace;
        if (value == "2")
            return DeluxeMaps::TangentSpace;
        return DeluxeMaps::Auto;
    }

    core::Status readTextures() {
        m_map.materials.reserve(static_cast<size_t>(count(kTextures)));
        for (uint64_t i = 0; i < count(kTextures); ++i) {
            const uint64_t o = at(kTextures, i);
            Material m;
            m.name = m_r.fixedString(o, 64);
            m.game_flags = m_r.u32(o + 64);
            m.game_contents = m_r.u32(o + 68);
            if (m.game_flags & kQ3SurfSky)
                m.flags |= kSurfSky;
            if (m.game_flags & (kQ3SurfNoDraw | kQ3SurfHint | kQ3SurfSkip))
                m.flags |= kSurfNoDraw;
            if (m.game_contents & kQ3ContentsFog)
                m.flags |= kSurfFog;
            if (m.game_contents & (kQ3ContentsWater | kQ3ContentsSlime | kQ3ContentsLava))
                m.flags |= kSurfLiquid;
            m_map.materials.push_back(std::move(m));
        }
        return core::okStatus();
    }

    core::Status readPlanes() {
        m_map.planes.reserve(static_cast<size_t>(count(kPlanes)));
        for (uint64_t i = 0; i < count(kPlanes); ++i) {
            const uint64_t o = at(kPlanes, i);
            m_map.planes.push_back({vec3At(o), m_r.f32(o + 12)});
        }
        return core::okStatus();
    }

    core::Status readNodes() {
        const uint64_t planes = count(kPlanes), nodes = count(kNodes), leafs = count(kLeafs);
        m_map.nodes.reserve(static_cast<size_t>(nodes));
        for (uint64_t i = 0; i < nodes; ++i) {
            const uint64_t o = at(kNodes, i);
            Node n;
            n.plane = m_r.i32(o);
            if (!indexOk(n.plane, planes))
                return makeError(ErrorCode::IndexOutOfRange, "nodes", static_cast<int64_t>(i),
                                 "plane",
                                 "plane " + std::to_string(n.plane) + " beyond " +
                                     std::to_string(planes) + " planes");
            for (int side = 0; side < 2; ++side) {
                const int32_t child = m_r.i32(o + 4 + 4 * static_cast<uint64_t>(side));
                // -1 - child cannot overflow for any int32 child < 0.
                const bool ok = child >= 0 ? static_cast<uint64_t>(child) < nodes
                                           : static_cast<uint64_t>(-1 - int64_t{child}) < leafs;
                if (!ok)
                    return makeError(ErrorCode::IndexOutOfRange, "nodes", static_cast<int64_t>(i),
                                     side == 0 ? "children[0]" : "children[1]",
                                     "child " + std::to_string(child) + " beyond " +
                                         std::to_string(nodes) + " nodes / " +
                                         std::to_string(leafs) + " leafs");
                n.children[static_cast<size_t>(side)] = child;
            }
            n.mins = ivec3At(o + 12);
            n.maxs = ivec3At(o + 24);
            m_map.nodes.push_back(n);
        }
        return core::okStatus();
    }

    core::Status readLeafs() {
        const uint64_t leaf_faces = count(kLeafFaces), faces = count(kFaces);
        m_map.leaves.reserve(static_cast<size_t>(count(kLeafs)));
        for (uint64_t i = 0; i < count(kLeafs); ++i) {
            const uint64_t o = at(kLeafs, i);
            Leaf leaf;
            // Quake 3 leaves carry no contents; opaque leaves are the ones without a cluster.
            leaf.cluster = std::max(m_r.i32(o), -1);
            leaf.area = m_r.i32(o + 4);
            leaf.contents = leaf.cluster < 0 ? uint32_t{kContentsSolid} : 0u;
            leaf.mins = ivec3At(o + 8);
            leaf.maxs = ivec3At(o + 20);
            const int32_t first = m_r.i32(o + 32), num = m_r.i32(o + 36);
            if (!rangeOk(first, num, leaf_faces))
                return makeError(ErrorCode::IndexOutOfRange, "leafs", static_cast<int64_t>(i),
                                 "leafface", rangeText(first, num, leaf_faces, "leaffaces"));
            const int32_t first_brush = m_r.i32(o + 40), num_brushes = m_r.i32(o + 44);
            // Leaf brushes are collision only (ioquake3 cm_load.c CMod_LoadLeafs takes the
            // range unchecked): a bad one drops the collision, not the map.
            if (!rangeOk(first_brush, num_brushes, count(kLeafBrushes)))
                dropCollision(makeError(
                    ErrorCode::IndexOutOfRange, "leafs", static_cast<int64_t>(i), "leafbrush",
                    rangeText(first_brush, num_brushes, count(kLeafBrushes), "leafbrushes")));
            leaf.first_leaf_face = static_cast<uint32_t>(first);
            leaf.num_leaf_faces = static_cast<uint32_t>(num);
            m_map.leaves.push_back(leaf);
        }
        if (core::Status s = checkLeafFaceTotal(m_map, leaf_faces); !s)
            return s;
        m_map.leaf_faces.reserve(static_cast<size_t>(leaf_faces));
        for (uint64_t i = 0; i < leaf_faces; ++i) {
            const int32_t f = m_r.i32(at(kLeafFaces, i));
            if (!indexOk(f, faces))
                return makeError(
                    ErrorCode::IndexOutOfRange, "leaffaces", static_cast<int64_t>(i), "face",
                    "face " + std::to_string(f) + " beyond " + std::to_string(faces) + " faces");
            m_map.leaf_faces.push_back(static_cast<uint32_t>(f));
        }
        return core::okStatus();
    }

    // Brushes are not part of the model (collision only), but fog volumes and leaves refer to
    // them, so their indices are checked like everything else.
    core::Status checkBrushes() {
        const uint64_t brushes = count(kBrushes), sides = count(kBrushSides);
        const uint64_t textures = count(kTextures), planes = count(kPlanes);
        for (uint64_t i = 0; i < count(kLeafBrushes); ++i) {
            const int32_t b = m_r.i32(at(kLeafBrushes, i));
            if (!indexOk(b, brushes))
                dropCollision(makeError(ErrorCode::IndexOutOfRange, "leafbrushes",
                                        static_cast<int64_t>(i), "brush",
                                        "brush " + std::to_string(b) + " beyond " +
                                            std::to_string(brushes) + " brushes"));
        }
        for (uint64_t i = 0; i < brushes; ++i) {
            const uint64_t o = at(kBrushes, i);
            const int32_t first = m_r.i32(o), num = m_r.i32(o + 4), tex = m_r.i32(o + 8);
            if (!rangeOk(first, num, sides))
                return makeError(ErrorCode::IndexOutOfRange, "brushes", static_cast<int64_t>(i),
                                 "brushside", rangeText(first, num, sides, "brushsides"));
            if (!indexOk(tex, textures))
                return makeError(ErrorCode::IndexOutOfRange, "brushes", static_cast<int64_t>(i),
                                 "texture",
                                 "texture " + std::to_string(tex) + " beyond " +
                                     std::to_string(textures) + " textures");
        }
        for (uint64_t i = 0; i < sides; ++i) {
            const uint64_t o = at(kBrushSides, i);
            const int32_t plane = m_r.i32(o), tex = m_r.i32(o + 4);
            if (!indexOk(plane, planes))
                return makeError(ErrorCode::IndexOutOfRange, "brushsides", static_cast<int64_t>(i),
                                 "plane",
                                 "plane " + std::to_string(plane) + " beyond " +
                                     std::to_string(planes) + " planes");
            if (!indexOk(tex, textures))
                return makeError(ErrorCode::IndexOutOfRange, "brushsides", static_cast<int64_t>(i),
                                 "texture",
                                 "texture " + std::to_string(tex) + " beyond " +
                                     std::to_string(textures) + " textures");
        }
        return core::okStatus();
    }

    core::Status readEffects() {
        const uint64_t brushes = count(kBrushes);
        for (uint64_t i = 0; i < count(kEffects); ++i) {
            const uint64_t o = at(kEffects, i);
            Fog fog;
            fog.shader = m_r.fixedString(o, 64);
            fog.brush = m_r.i32(o + 64);
            fog.visible_side = m_r.i32(o + 68);
            if (fog.brush == -1) {
                // q3map2's global fog (q3map_globalfog): no brush, the whole map is inside.
                // DarkPlaces Mod_Q3BSP_LoadEffects keeps such effects (ioquake3 R_LoadFogs
                // refuses the map); Nexuiz's silvercity, reslimed and ons-reborn have one.
                fog.visible_side = -1;
                fog.mins = glm::vec3(-kFogOpen);
                fog.maxs = glm::vec3(kFogOpen);
                m_map.fogs.push_back(std::move(fog));
                continue;
            }
            if (!indexOk(fog.brush, brushes))
                return makeError(ErrorCode::IndexOutOfRange, "effects", static_cast<int64_t>(i),
                                 "brush",
                                 "brush " + std::to_string(fog.brush) + " beyond " +
                                     std::to_string(brushes) + " brushes");
            // -1: no visible side (the fog is only seen from inside).
            const int32_t sides = m_r.i32(at(kBrushes, static_cast<uint64_t>(fog.brush)) + 4);
            if (fog.visible_side < -1 || fog.visible_side >= sides)
                return makeError(ErrorCode::IndexOutOfRange, "effects", static_cast<int64_t>(i),
                                 "visibleSide",
                                 "side " + std::to_string(fog.visible_side) + " beyond " +
                                     std::to_string(sides) + " brush sides");
            fogShape(fog);
            m_map.fogs.push_back(std::move(fog));
        }
        return core::okStatus();
    }

    // A fog volume's box and visible plane. ioquake3 R_LoadFogs takes sides 0..5 as -x, +x,
    // -y, +y, -z, +z (q3map writes a brush's axial sides first); we take every side whose
    // plane is axial, which gives the same box and does not trust the order. Brush and side
    // indices were checked by checkBrushes and readEffects. A side with no axial plane leaves
    // that bound open (+-1e9): the renderer fogs by the faces' fog numbers and the visible
    // plane, not by the box.
    static constexpr float kFogOpen = 1e9f;
    void fogShape(Fog& fog) {
        const uint64_t b = at(kBrushes, static_cast<uint64_t>(fog.brush));
        const auto first = static_cast<uint64_t>(m_r.i32(b));
        const auto num = static_cast<uint64_t>(m_r.i32(b + 4));
        fog.mins = glm::vec3(-kFogOpen);
        fog.maxs = glm::vec3(kFogOpen);
        for (uint64_t s = 0; s < num; ++s) {
            const Plane& p = m_map.planes[static_cast<size_t>(m_r.i32(at(kBrushSides, first + s)))];
            for (int axis = 0; axis < 3; ++axis) {
                if (p.normal[axis] > 0.999f) {
                    fog.maxs[axis] = p.dist;
                } else if (p.normal[axis] < -0.999f) {
                    fog.mins[axis] = -p.dist;
                }
            }
        }
        if (fog.visible_side >= 0) {
            const Plane& p = m_map.planes[static_cast<size_t>(
                m_r.i32(at(kBrushSides, first + static_cast<uint64_t>(fog.visible_side))))];
            fog.surface = {-p.normal, -p.dist};
        }
    }

    core::Status readVertices() {
        const bool fbsp = m_fbsp;
        m_map.vertices.reserve(static_cast<size_t>(count(kVertexes)));
        for (uint64_t i = 0; i < count(kVertexes); ++i) {
            const uint64_t o = at(kVertexes, i);
            Vertex v;
            v.position = vec3At(o);
            v.uv = {m_r.f32(o + 12), m_r.f32(o + 16)};
            // Style 0 of FBSP's four lightmap coordinates and colours.
            v.lm_uv = {m_r.f32(o + 20), m_r.f32(o + 24)};
            v.normal = vec3At(fbsp ? o + 52 : o + 28);
            const uint64_t c = fbsp ? o + 64 : o + 40;
            v.colour = {m_r.u8(c), m_r.u8(c + 1), m_r.u8(c + 2), m_r.u8(c + 3)};
            m_map.vertices.push_back(v);
        }
        return core::okStatus();
    }

    // Fields of one surface record that the two layouts store at different places.
    struct DiskFace {
        int32_t texture, effect, type, first_vertex, num_vertices, first_meshvert, num_meshverts;
        int32_t lightmap;
        int32_t lm_x, lm_y, lm_w, lm_h;
        std::array<uint8_t, kMaxLightStyles> styles{0, kNoStyle, kNoStyle, kNoStyle};
        glm::vec3 origin, vec0, normal;
        int32_t patch_w, patch_h;
    };

    DiskFace readDiskFace(uint64_t index) const {
        const uint64_t o = at(kFaces, index);
        DiskFace f;
        f.texture = m_r.i32(o);
        f.effect = m_r.i32(o + 4);
        f.type = m_r.i32(o + 8);
        f.first_vertex = m_r.i32(o + 12);
        f.num_vertices = m_r.i32(o + 16);
        f.first_meshvert = m_r.i32(o + 20);
        f.num_meshverts = m_r.i32(o + 24);
        uint64_t tail; // lightmap origin, vectors and patch size follow the lightmap fields
        if (!m_fbsp) {
            f.lightmap = m_r.i32(o + 28);
            f.lm_x = m_r.i32(o + 32);
            f.lm_y = m_r.i32(o + 36);
            f.lm_w = m_r.i32(o + 40);
            f.lm_h = m_r.i32(o + 44);
            tail = o + 48;
        } else {
            // q3map2 (bspfile_rbsp.c) writes lightmapX[4] then lightmapY[4]; style 0 only.
            for (size_t k = 0; k < f.styles.size(); ++k)
                f.styles[k] = m_r.u8(o + 28 + k);
            f.lightmap = m_r.i32(o + 36);
            f.lm_x = m_r.i32(o + 52);
            f.lm_y = m_r.i32(o + 68);
            f.lm_w = m_r.i32(o + 84);
            f.lm_h = m_r.i32(o + 88);
            tail = o + 92;
        }
        f.origin = vec3At(tail);
        f.vec0 = vec3At(tail + 12);
        f.normal = vec3At(tail + 36);
        f.patch_w = m_r.i32(tail + 48);
        f.patch_h = m_r.i32(tail + 52);
        return f;
    }

    core::Status readFaces() {
        const uint64_t faces = count(kFaces), textures = count(kTextures);
        const uint64_t effects = count(kEffects), vertices = count(kVertexes);
        const uint64_t meshverts = count(kMeshVerts);
        m_keep.assign(static_cast<size_t>(faces), true);
        m_map.faces.reserve(static_cast<size_t>(faces));
        int64_t extra_styles = 0;
        uint64_t face_vertices = 0; // sum of num_vertices, against kMaxFaceVertices
        std::vector<std::pair<int32_t, int64_t>> unknown_types; // type, count
        int64_t other_types = 0;
        for (uint64_t i = 0; i < faces; ++i) {
            const auto fi = static_cast<int64_t>(i);
            const DiskFace d = readDiskFace(i);
            Face face;
            switch (d.type) {
            case kSurfacePlanar:
                face.kind = FaceKind::Polygon;
                break;
            case kSurfacePatch:
                face.kind = FaceKind::Patch;
                break;
            case kSurfaceTriangleSoup:
                face.kind = FaceKind::Mesh;
                break;
            case kSurfaceFlare:
                face.kind = FaceKind::Billboard;
                break;
            default: {
                // Type 0 (MST_BAD) and extensions such as Nuclide's type 256: engines skip them.
                // A few distinct types are named in the warning; the rest are only counted.
                auto it = std::find_if(unknown_types.begin(), unknown_types.end(),
                                       [&](const auto& p) { return p.first == d.type; });
                if (it != unknown_types.end())
                    ++it->second;
                else if (unknown_types.size() < 8)
                    unknown_types.emplace_back(d.type, 1);
                else
                    ++other_types;
                m_keep[static_cast<size_t>(i)] = false;
                m_map.faces.emplace_back(); // placeholder, removed by dropSkippedFaces
                continue;
            }
            }
            if (!indexOk(d.texture, textures))
                return makeError(ErrorCode::IndexOutOfRange, "faces", fi, "texture",
                                 "texture " + std::to_string(d.texture) + " beyond " +
                                     std::to_string(textures) + " textures");
            // ioquake3 tr_bsp.c ParseFace takes fogNum + 1 unchecked (OpenArena's aggressor
            // names fog 0 in a map without fogs, and plays): the face is drawn without fog.
            const bool fog_ok = d.effect >= -1 && d.effect < static_cast<int64_t>(effects);
            if (!fog_ok)
                m_dropped.add(makeError(ErrorCode::IndexOutOfRange, "faces", fi, "effect",
                                        "effect " + std::to_string(d.effect) + " beyond " +
                                            std::to_string(effects) + " effects"),
                              "drawn without fog");
            if (!rangeOk(d.first_vertex, d.num_vertices, vertices))
                return makeError(ErrorCode::IndexOutOfRange, "faces", fi, "vertex",
                                 rangeText(d.first_vertex, d.num_vertices, vertices, "vertexes"));
            face_vertices += static_cast<uint64_t>(d.num_vertices);
            if (face_vertices > kMaxFaceVertices)
                return makeError(ErrorCode::LimitExceeded, "faces", fi, "vertex",
                                 "more than " + std::to_string(kMaxFaceVertices) +
                                     " face vertices in all (overlapping ranges)");
            face.material = d.texture;
            face.fog = fog_ok ? d.effect : -1;
            face.first_vertex = static_cast<uint32_t>(d.first_vertex);
            face.num_vertices = static_cast<uint32_t>(d.num_vertices);
            face.styles = {d.styles[0], kNoStyle, kNoStyle, kNoStyle};
            for (size_t k = 1; k < d.styles.size(); ++k)
                if (d.styles[k] != kNoStyle) {
                    ++extra_styles;
                    break;
                }
            if (std::isfinite(glm::length(d.normal)) && glm::length(d.normal) > 0.0f)
                face.normal = d.normal;

            if (face.kind == FaceKind::Polygon || face.kind == FaceKind::Mesh) {
                if (core::Status s = readFaceIndices(fi, d, meshverts); !s)
                    return s;
                face.first_index = static_cast<uint32_t>(m_map.indices.size()) -
                                   static_cast<uint32_t>(d.num_meshverts / 3 * 3);
                face.num_indices = static_cast<uint32_t>(d.num_meshverts / 3 * 3);
            } else if (face.kind == FaceKind::Patch) {
                if (d.patch_w > kMaxPatchSide || d.patch_h > kMaxPatchSide)
                    return makeError(ErrorCode::LimitExceeded, "faces", fi, "patch_size",
                                     "patch " + std::to_string(d.patch_w) + "x" +
                                         std::to_string(d.patch_h) + ", limit " +
                                         std::to_string(kMaxPatchSide) + " per side");
                if (!validPatchSize(d.patch_w, d.patch_h))
                    return makeError(ErrorCode::BadPatch, "faces", fi, "patch_size",
                                     "patch " + std::to_string(d.patch_w) + "x" +
                                         std::to_string(d.patch_h) +
                                         " (each side must be odd and at least 3)");
                if (int64_t{d.patch_w} * d.patch_h != d.num_vertices)
                    return makeError(
                        ErrorCode::BadPatch, "faces", fi, "patch_size",
                        "patch " + std::to_string(d.patch_w) + "x" + std::to_string(d.patch_h) +
                            " needs " + std::to_string(d.patch_w * d.patch_h) +
                            " control points, face has " + std::to_string(d.num_vertices));
                face.patch_width = static_cast<uint16_t>(d.patch_w);
                face.patch_height = static_cast<uint16_t>(d.patch_h);
            } else {
                addFlareVertex(face, d);
            }

            // Flares carry no lightmap; the others name a page, or a negative number for
            // vertex lighting (-3 LIGHTMAP_BY_VERTEX in oa_ctf2) or none.
            face.lightmap_page = face.kind == FaceKind::Billboard ? -1 : std::max(d.lightmap, -1);
            if (face.lightmap_page >= 0) {
                m_max_lightmap = std::max(m_max_lightmap, face.lightmap_page);
                face.lightmap_rect = rectFrom(d);
            }
            m_map.faces.push_back(face);
        }
        for (const auto& [type, n] : unknown_types)
            m_map.warnings.push_back("faces: " + std::to_string(n) + " face(s) of unknown type " +
                                     std::to_string(type) + " skipped");
        if (other_types)
            m_map.warnings.push_back("faces: " + std::to_string(other_types) +
                                     " more face(s) of other unknown types skipped");
        if (m_partial_triangles)
            m_map.warnings.push_back("faces: " + std::to_string(m_partial_triangles) +
                                     " face(s) with meshverts that are not whole triangles; the "
                                     "extra ones are ignored");
        if (extra_styles)
            m_map.warnings.push_back("faces: " + std::to_string(extra_styles) +
                                     " face(s) use more than one light style; only style 0 is "
                                     "shown");
        return core::okStatus();
    }

    // Appends a polygon or triangle soup's meshverts as absolute vertex indices.
    core::Status readFaceIndices(int64_t fi, const DiskFace& d, uint64_t meshverts) {
        if (!rangeOk(d.first_meshvert, d.num_meshverts, meshverts))
            return makeError(ErrorCode::IndexOutOfRange, "faces", fi, "meshvert",
                             rangeText(d.first_meshvert, d.num_meshverts, meshverts, "meshverts"));
        // Engines draw whole triangles only; a stray one or two indices are ignored.
        const int32_t n = d.num_meshverts / 3 * 3;
        if (n != d.num_meshverts)
            ++m_partial_triangles;
        if (m_map.indices.size() + static_cast<uint64_t>(n) > kMaxIndices)
            return makeError(ErrorCode::LimitExceeded, "faces", fi, "meshvert",
                             "more than " + std::to_string(kMaxIndices) + " indices in all");
        for (int32_t k = 0; k < n; ++k) {
            const uint64_t at_k =
                static_cast<uint64_t>(d.first_meshvert) + static_cast<uint64_t>(k);
            const int32_t rel = m_r.i32(at(kMeshVerts, at_k));
            if (rel < 0 || rel >= d.num_vertices)
                return makeError(ErrorCode::IndexOutOfRange, "faces", fi, "meshvert",
                                 "meshverts[" + std::to_string(at_k) +
                                     "] = " + std::to_string(rel) + " beyond the face's " +
                                     std::to_string(d.num_vertices) + " vertexes");
            m_map.indices.push_back(static_cast<uint32_t>(d.first_vertex + rel));
        }
        return core::okStatus();
    }

    // Flares usually have no vertices: position, colour and direction live in the lightmap
    // origin and vectors (ioq3 tr_bsp.c ParseFlare). Give them one vertex to hold them.
    void addFlareVertex(Face& face, const DiskFace& d) {
        if (face.num_vertices > 0)
            return;
        Vertex v;
        v.position = d.origin;
        for (int k = 0; k < 3; ++k) {
            const float c = std::isfinite(d.vec0[k]) ? std::clamp(d.vec0[k], 0.0f, 1.0f) : 1.0f;
            v.colour[k] = static_cast<uint8_t>(std::lround(c * 255.0f));
        }
        v.normal = face.normal;
        face.first_vertex = static_cast<uint32_t>(m_map.vertices.size());
        face.num_vertices = 1;
        m_map.vertices.push_back(v);
    }

    // The face's block in its page; informational (the vertices hold the lightmap
    // coordinates), so a bad rectangle is clamped with a warning instead of rejecting the map.
    LightmapRect rectFrom(const DiskFace& d) {
        const int32_t side = 512; // largest page; clamped again once the page size is known
        auto fit = [&](int32_t v) { return static_cast<uint16_t>(std::clamp(v, 0, side)); };
        if (d.lm_x < 0 || d.lm_y < 0 || d.lm_w < 0 || d.lm_h < 0)
            ++m_bad_rects;
        return {fit(d.lm_x), fit(d.lm_y), fit(d.lm_w), fit(d.lm_h)};
    }

    core::Status readLightmaps() {
        const LumpRange& l = m_lumps[kLightmaps];
        if (l.length == 0) {
            // q3map2 -external keeps no pages in the file: faces that still name one name the
            // image maps/NAME/lm_NNNN beside the map, which the scene loads (DarkPlaces
            // model_brush.c Mod_Q3BSP_LoadLightmaps looks for them when the lump is empty).
            // Their rectangles mean nothing then; the vertices' lm_uv span the whole image.
            for (Face& f : m_map.faces)
                if (f.lightmap_page >= 0) {
                    m_map.lightmap_storage = LightmapStorage::External;
                    f.lightmap_rect = {};
                }
            return core::okStatus();
        }
        // IBSP pages are 128 square. FBSP writers use 512 (Qfusion's default) or 128: take the
        // larger that divides the lump and holds every page the faces name.
        int32_t side = 128;
        if (m_fbsp) {
            const uint64_t big = 512ull * 512 * 3;
            side = (l.length % big == 0 && static_cast<uint64_t>(m_max_lightmap) < l.length / big)
                       ? 512
                       : 128;
        }
        const uint64_t page_bytes = static_cast<uint64_t>(side) * static_cast<uint64_t>(side) * 3;
        if (l.length % page_bytes != 0)
            return makeError(ErrorCode::LumpSize, "lightmaps", -1, {},
                             "length " + std::to_string(l.length) + " is not a whole number of " +
                                 std::to_string(side) + "x" + std::to_string(side) + " pages");
        const uint64_t pages = l.length / page_bytes;
        if (pages > kMaxLightmapPages)
            return makeError(ErrorCode::LimitExceeded, "lightmaps", -1, {},
                             std::to_string(pages) + " pages, limit " +
                                 std::to_string(kMaxLightmapPages));
        for (size_t i = 0; i < m_map.faces.size(); ++i) {
            Face& f = m_map.faces[i];
            if (f.lightmap_page < 0)
                continue;
            if (static_cast<uint64_t>(f.lightmap_page) >= pages) {
                // ioquake3 tr_shader.c R_FindShader draws a face whose lightmap the file does
                // not hold with vertex lighting (LIGHTMAP_BY_VERTEX).
                m_dropped.add(makeError(ErrorCode::IndexOutOfRange, "faces",
                                        static_cast<int64_t>(i), "lightmap",
                                        "lightmap " + std::to_string(f.lightmap_page) + " beyond " +
                                            std::to_string(pages) + " pages"),
                              "vertex lit");
                f.lightmap_page = -1;
                f.lightmap_rect = {};
                continue;
            }
            LightmapRect& r = f.lightmap_rect;
            const auto s = static_cast<uint16_t>(side);
            if (r.x > s || r.y > s || r.w > s - r.x || r.h > s - r.y) {
                ++m_bad_rects;
                r.x = std::min(r.x, s);
                r.y = std::min(r.y, s);
                r.w = static_cast<uint16_t>(std::min<int>(r.w, s - r.x));
                r.h = static_cast<uint16_t>(std::min<int>(r.h, s - r.y));
            }
        }
        if (m_bad_rects)
            m_map.warnings.push_back("faces: " + std::to_string(m_bad_rects) +
                                     " lightmap rectangle(s) outside their page, clamped");
        m_map.lightmap_width = side;
        m_map.lightmap_height = side;
        m_map.lightmap_pages.resize(static_cast<size_t>(pages));
        for (uint64_t p = 0; p < pages; ++p) {
            const auto bytes = m_r.bytes().subspan(static_cast<size_t>(l.offset + p * page_bytes),
                                                   static_cast<size_t>(page_bytes));
            m_map.lightmap_pages[static_cast<size_t>(p)].rgb.assign(bytes.begin(), bytes.end());
        }
        LumpInfo& info = m_map.lumps[kLightmaps];
        info.record_size = static_cast<uint32_t>(page_bytes);
        info.count = static_cast<uint32_t>(pages);
        return core::okStatus();
    }

    core::Status readModels() {
        const uint64_t faces = count(kFaces), brushes = count(kBrushes);
        uint64_t owned = 0;
        for (uint64_t i = 0; i < count(kModels); ++i) {
            const uint64_t o = at(kModels, i);
            Submodel m;
            m.mins = vec3At(o);
            m.maxs = vec3At(o + 12);
            const int32_t first = m_r.i32(o + 24), num = m_r.i32(o + 28);
            if (!rangeOk(first, num, faces))
                return makeError(ErrorCode::IndexOutOfRange, "models", static_cast<int64_t>(i),
                                 "face", rangeText(first, num, faces, "faces"));
            const int32_t first_brush = m_r.i32(o + 32), num_brushes = m_r.i32(o + 36);
            if (!rangeOk(first_brush, num_brushes, brushes))
                dropCollision(makeError(ErrorCode::IndexOutOfRange, "models",
                                        static_cast<int64_t>(i), "brush",
                                        rangeText(first_brush, num_brushes, brushes, "brushes")));
            // Compilers write disjoint ranges; overlapping ones would let a small file make
            // us loop models x faces times.
            owned += static_cast<uint64_t>(num);
            if (owned > faces)
                return makeError(ErrorCode::BadValue, "models", static_cast<int64_t>(i), "face",
                                 "face ranges of the models overlap");
            m.first_face = static_cast<uint32_t>(first);
            m.num_faces = static_cast<uint32_t>(num);
            for (int32_t k = 0; k < num; ++k)
                m_map.faces[static_cast<size_t>(first + k)].submodel = static_cast<int32_t>(i);
            m_map.submodels.push_back(m);
        }
        return core::okStatus();
    }

    // The light grid (ioquake3 tr_bsp.c R_LoadLightGrid): cells of worldspawn "gridsize"
    // (R_LoadEntities: 64 64 128 by default) whose corners lie on multiples of the cell size
    // inside the world model's bounds, x fastest. A lump of another length is ignored with a
    // warning, as the engine does ("light grid mismatch"); models are then lit by the engine's
    // fixed light. Qfusion's 30-byte cells are reached through an index lump not read here.
    core::Status readLightGrid() {
        m_map.model_lighting = ModelLighting::LightGrid;
        const LumpRange& l = m_lumps[kLightVols];
        if (m_fbsp || l.length == 0 || m_map.submodels.empty())
            return core::okStatus();
        LightGrid grid;
        grid.cell_size = engineGridSize(m_map.entities);
        const Submodel& world = m_map.submodels[0];
        // Point counts in doubles: a hostile gridsize or bounds may ask for more than any lump
        // holds, and then the product is compared, never allocated.
        std::array<double, 3> n{};
        for (int i = 0; i < 3; ++i) {
            // In floats and truncated, as the engine computes it.
            const float cell = grid.cell_size[i];
            const float lo = cell * std::ceil(world.mins[i] / cell);
            const float hi = cell * std::floor(world.maxs[i] / cell);
            n[size_t(i)] = std::trunc(double((hi - lo) / cell + 1.0f));
            if (!(cell > 0.0f) || !std::isfinite(n[size_t(i)]) || n[size_t(i)] < 1.0) {
                m_map.warnings.push_back(
                    "lightvols: gridsize " + std::to_string(cell) + " over bounds " +
                    std::to_string(world.mins[i]) + ".." + std::to_string(world.maxs[i]) +
                    " gives no grid along axis " + std::to_string(i) + "; ignored");
                return core::okStatus();
            }
            grid.origin[i] = lo;
        }
        const double points = n[0] * n[1] * n[2];
        if (points != double(l.count)) {
            auto text = [](double v) {
                return v < 1e15 ? std::to_string(static_cast<uint64_t>(v)) : std::string("huge");
            };
            m_map.warnings.push_back("lightvols: " + std::to_string(l.count) +
                                     " points, the grid of " + text(n[0]) + "x" + text(n[1]) + "x" +
                                     text(n[2]) + " needs " + text(points) +
                                     " (light grid mismatch); ignored");
            return core::okStatus();
        }
        for (size_t i = 0; i < 3; ++i)
            grid.counts[i] = static_cast<int32_t>(n[i]); // each at most the lump's count
        // tr_light.c R_SetupEntityLightingGrid: byte 7 is the latitude, byte 6 the longitude,
        // each a 256th of a turn; x = cos(lat) sin(lng), y = sin(lat) sin(lng), z = cos(lng).
        constexpr double kStep = 2.0 * 3.14159265358979323846 / 256.0;
        grid.points.resize(static_cast<size_t>(l.count));
        for (uint64_t i = 0; i < l.count; ++i) {
            const uint64_t o = at(kLightVols, i);
            LightGridPoint& p = grid.points[static_cast<size_t>(i)];
            for (uint64_t c = 0; c < 3; ++c) {
                p.ambient[c] = m_r.u8(o + c);
                p.directed[c] = m_r.u8(o + 3 + c);
            }
            const double lng = m_r.u8(o + 6) * kStep, lat = m_r.u8(o + 7) * kStep;
            p.direction = glm::vec3(std::cos(lat) * std::sin(lng), std::sin(lat) * std::sin(lng),
                                    std::cos(lng));
        }
        m_map.light_grid = std::move(grid);
        return core::okStatus();
    }

    // Brushes, sides, leaf brushes and the models' brush lists into Map::collision; the
    // indices were checked by checkBrushes, readLeafs and readModels, checkBrushCollision
    // checks them again with the work caps. Contents come from the shaders (textures lump).
    core::Status readCollision() {
        if (m_collision_dropped)
            return core::okStatus();
        if (core::Status s = readBrushCollision(); !s) {
            dropCollision(s.error());
            m_map.collision = Collision{};
        }
        return core::okStatus();
    }

    // Collision is one feature: a reference only it follows drops it with a warning.
    void dropCollision(const core::Error& why) {
        m_dropped.add(why, kCollisionDropped);
        m_collision_dropped = true;
    }

    core::Status readBrushCollision() {
        Collision& c = m_map.collision;
        setQ3CollisionRules(c);
        auto shaderContents = [&](int32_t tex) {
            const Material& m = m_map.materials[static_cast<size_t>(tex)];
            return std::pair{q3CollisionContents(m.game_contents, m.game_flags), m.game_contents};
        };
        c.brushes.resize(static_cast<size_t>(count(kBrushes)));
        for (uint64_t i = 0; i < c.brushes.size(); ++i) {
            const uint64_t o = at(kBrushes, i);
            Brush& b = c.brushes[static_cast<size_t>(i)];
            b.first_side = m_r.u32(o);
            b.num_sides = m_r.u32(o + 4);
            std::tie(b.contents, b.game_contents) = shaderContents(m_r.i32(o + 8));
            b.contents &= ~uint32_t{kCollideLadder}; // a surface flag: kept on the sides
        }
        c.brush_sides.resize(static_cast<size_t>(count(kBrushSides)));
        for (uint64_t i = 0; i < c.brush_sides.size(); ++i) {
            const uint64_t o = at(kBrushSides, i);
            BrushSide& s = c.brush_sides[static_cast<size_t>(i)];
            s.plane = m_r.i32(o);
            s.material = m_r.i32(o + 4);
            s.contents = shaderContents(s.material).first;
        }
        // Patches collide with their shader's contents (cm_load.c CMod_LoadPatches).
        c.material_contents.resize(m_map.materials.size());
        for (size_t i = 0; i < m_map.materials.size(); ++i)
            c.material_contents[i] = shaderContents(static_cast<int32_t>(i)).first;
        c.leaf_brushes.resize(static_cast<size_t>(count(kLeafBrushes)));
        for (uint64_t i = 0; i < c.leaf_brushes.size(); ++i)
            c.leaf_brushes[static_cast<size_t>(i)] = m_r.u32(at(kLeafBrushes, i));
        c.leaf_brush_ranges.resize(m_map.leaves.size());
        for (uint64_t i = 0; i < c.leaf_brush_ranges.size(); ++i) {
            const uint64_t o = at(kLeafs, i);
            c.leaf_brush_ranges[static_cast<size_t>(i)] = {m_r.u32(o + 40), m_r.u32(o + 44)};
        }
        // The world is traced through the tree from node 0 (cm_trace.c CM_Trace with
        // model 0); the other models are their brush lists (cm_load.c CMod_LoadSubmodels).
        c.models.resize(m_map.submodels.size());
        for (uint64_t i = 0; i < c.models.size(); ++i) {
            ModelCollision& mc = c.models[static_cast<size_t>(i)];
            mc.heads = {m_map.nodes.empty() ? -1 : 0, -1, -1, -1};
            if (i > 0) {
                const uint64_t o = at(kModels, i);
                mc.brushes = {m_r.u32(o + 32), m_r.u32(o + 36)};
            }
        }
        return checkBrushCollision(m_map);
    }

    // ioquake3 reads the vis header unchecked (tr_bsp.c R_LoadVisibility) and answers a
    // cluster outside it with "everything visible" (tr_world.c R_ClusterPVS returns novis): a
    // vis lump that does not fit the leaves is dropped with a warning and the map drawn
    // without it.
    core::Status readVis() {
        if (core::Status s = readVisRows(); !s) {
            m_dropped.add(s.error(), "drawn without vis (every cluster potentially visible)");
            m_map.vis = Vis{};
        }
        return core::okStatus();
    }

    core::Status readVisRows() {
        const LumpRange& l = m_lumps[kVisData];
        if (l.length == 0)
            return core::okStatus(); // no vis: everything is potentially visible
        if (l.length < 8)
            return makeError(ErrorCode::BadVis, "visdata", -1, {},
                             "lump of " + std::to_string(l.length) +
                                 " bytes is shorter than its 8-byte header");
        const int32_t n_vecs = m_r.i32(l.offset), sz_vecs = m_r.i32(l.offset + 4);
        if (n_vecs < 0 || sz_vecs < 0)
            return makeError(ErrorCode::BadVis, "visdata", -1, "n_vecs",
                             "negative size " + std::to_string(n_vecs) + "x" +
                                 std::to_string(sz_vecs));
        if (static_cast<uint64_t>(n_vecs) > kMaxClusters)
            return makeError(ErrorCode::LimitExceeded, "visdata", -1, "n_vecs",
                             std::to_string(n_vecs) + " clusters, limit " +
                                 std::to_string(kMaxClusters));
        const uint64_t bytes = static_cast<uint64_t>(n_vecs) * static_cast<uint64_t>(sz_vecs);
        if (bytes > l.length - 8)
            return makeError(ErrorCode::BadVis, "visdata", -1, "sz_vecs",
                             std::to_string(n_vecs) + " rows of " + std::to_string(sz_vecs) +
                                 " bytes beyond the lump's " + std::to_string(l.length - 8));
        if (n_vecs == 0 || sz_vecs == 0)
            return core::okStatus();
        int32_t max_cluster = -1;
        int64_t max_leaf = -1;
        for (size_t i = 0; i < m_map.leaves.size(); ++i)
            if (m_map.leaves[i].cluster > max_cluster) {
                max_cluster = m_map.leaves[i].cluster;
                max_leaf = static_cast<int64_t>(i);
            }
        if (max_cluster >= n_vecs)
            return makeError(ErrorCode::BadVis, "leafs", max_leaf, "cluster",
                             "cluster " + std::to_string(max_cluster) + " beyond " +
                                 std::to_string(n_vecs) + " vis clusters");
        // Implied by the check above, kept for clarity: every referenced cluster has a bit.
        if (static_cast<int64_t>(sz_vecs) * 8 < int64_t{max_cluster} + 1)
            return makeError(ErrorCode::BadVis, "visdata", -1, "sz_vecs",
                             "rows of " + std::to_string(sz_vecs) + " bytes cannot hold " +
                                 std::to_string(max_cluster + 1) + " clusters");
        m_map.vis.num_clusters = n_vecs;
        m_map.vis.row_size = sz_vecs;
        const auto rows =
            m_r.bytes().subspan(static_cast<size_t>(l.offset + 8), static_cast<size_t>(bytes));
        m_map.vis.rows.assign(rows.begin(), rows.end());
        return core::okStatus();
    }

    // Walks the tree from node 0 with an explicit stack: every node must be reached at most
    // once, which rules out cycles and shared subtrees whatever the file says.
    core::Status checkTree() {
        const size_t nodes = m_map.nodes.size();
        if (nodes == 0)
            return core::okStatus();
        std::vector<uint8_t> seen(nodes, 0);
        std::vector<int32_t> stack{0};
        seen[0] = 1;
        size_t reached = 1;
        while (!stack.empty()) {
            const int32_t n = stack.back();
            stack.pop_back();
            for (const int32_t child : m_map.nodes[static_cast<size_t>(n)].children) {
                if (child < 0)
                    continue;
                if (seen[static_cast<size_t>(child)])
                    return makeError(ErrorCode::BadTree, "nodes", n, "children",
                                     "node " + std::to_string(child) +
                                         " is reached twice (a cycle or a shared child)");
                seen[static_cast<size_t>(child)] = 1;
                ++reached;
                stack.push_back(child);
            }
        }
        if (reached != nodes)
            m_map.warnings.push_back("nodes: " + std::to_string(nodes - reached) +
                                     " node(s) unreachable from the root");
        return core::okStatus();
    }

    // Removes faces of unknown types and renumbers leaf and model face references, so the
    // rest of the program never sees them.
    core::Status dropSkippedFaces() {
        if (std::all_of(m_keep.begin(), m_keep.end(), [](bool k) { return k; }))
            return core::okStatus();
        std::vector<uint32_t> before(m_keep.size() + 1, 0); // kept faces before index i
        for (size_t i = 0; i < m_keep.size(); ++i)
            before[i + 1] = before[i] + (m_keep[i] ? 1u : 0u);
        std::vector<Face> faces;
        faces.reserve(before.back());
        for (size_t i = 0; i < m_keep.size(); ++i)
            if (m_keep[i])
                faces.push_back(m_map.faces[i]);
        m_map.faces = std::move(faces);

        // Compact leaf_faces in place and move each leaf's range by the number of entries
        // dropped before it: linear in the lump sizes, whatever the (possibly overlapping)
        // leaf ranges say.
        std::vector<uint32_t> kept_entries(m_map.leaf_faces.size() + 1, 0);
        std::vector<uint32_t> leaf_faces;
        leaf_faces.reserve(m_map.leaf_faces.size());
        for (size_t p = 0; p < m_map.leaf_faces.size(); ++p) {
            const uint32_t f = m_map.leaf_faces[p];
            kept_entries[p + 1] = kept_entries[p] + (m_keep[f] ? 1u : 0u);
            if (m_keep[f])
                leaf_faces.push_back(before[f]);
        }
        for (Leaf& leaf : m_map.leaves) {
            const uint32_t end = leaf.first_leaf_face + leaf.num_leaf_faces;
            leaf.first_leaf_face = kept_entries[leaf.first_leaf_face];
            leaf.num_leaf_faces = kept_entries[end] - leaf.first_leaf_face;
        }
        m_map.leaf_faces = std::move(leaf_faces);
        for (Submodel& m : m_map.submodels) {
            const uint32_t end = m.first_face + m.num_faces;
            m.first_face = before[m.first_face];
            m.num_faces = before[end] - m.first_face;
        }
        return core::okStatus();
    }

    // Brush entities name their model "*N". Quake 3 builds a mover's brushes relative to its
    // origin key (q3map2 shifts them when an origin brush or key is present), so the model is
    // drawn at that origin. Angles are left at zero: movers spawn unrotated, and a door's
    // "angle" is its direction of travel.
    void linkSubmodelEntities() {
        for (size_t e = 0; e < m_map.entities.size(); ++e) {
            const Entity& ent = m_map.entities[e];
            const std::string_view model = ent.get("model");
            if (model.size() < 2 || model[0] != '*')
                continue;
            size_t index = 0;
            bool digits = true;
            for (const char c : model.substr(1)) {
                if (c < '0' || c > '9' || index > kMaxModels) {
                    digits = false;
                    break;
                }
                index = index * 10 + static_cast<size_t>(c - '0');
            }
            if (!digits || index == 0 || index >= m_map.submodels.size())
                continue;
            Submodel& sm = m_map.submodels[index];
            sm.entity = static_cast<int32_t>(e);
            if (const auto origin = ent.vec3("origin"))
                sm.origin = *origin;
        }
    }

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

} // namespace

core::Result<Map> parseQuake3(std::span<const uint8_t> data, std::string_view name) {
    const Detected d = detect(data);
    if (!d.format || (*d.format != Format::Quake3 && *d.format != Format::Quake3Rtcw &&
                      *d.format != Format::Qfusion)) {
        core::Error e = makeError(
            data.size() < 8 ? ErrorCode::Truncated : ErrorCode::UnsupportedVersion, "header", -1,
            "version",
            "not a Quake 3 family map (" + d.magic + " " + std::to_string(d.version) + ")");
        e.file = std::string(name);
        return e;
    }
    core::Result<Map> map = Parser(data, *d.format, d.version).run();
    if (!map) {
        map.error().file = std::string(name);
        return map;
    }
    map->name = std::string(name);
    return map;
}

} // namespace bsp
