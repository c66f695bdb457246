// Quake 2 parser: IBSP version 38, 19 lumps, and the re-release's "QBSP" 38 extension.
//
// Format: id's qfiles.h for Quake 2 (dheader_t, texinfo_t, dleaf_t, dvis_t, darea_t,
// dareaportal_t) as read by yquake2 src/client/refresh/files/models.c and q2pro
// src/common/bsp.c. Faces use the same surfedge/edge/vertex scheme as Quake 1 (edge_faces.h).
// Lighting is RGB, up to four styles per face, and faces with SKY, WARP or TRANS33/66 texinfo
// flags carry no lightmap (yquake2 Mod_LoadFaces). Visibility is per cluster: the lump starts
// with the cluster count and a (pvs, phs) offset pair per cluster; rows are RLE-compressed.
//
// QBSP (Quake 2 re-release, KEX engine; also read by q2pro src/common/bsp.c and yquake2
// models.c, written by Paril's q2tools-220): the same header and lumps, but every record field
// that IBSP stores in 16 bits is 32 bits wide and node/leaf bounds are floats instead of shorts:
// nodes 28 -> 44 bytes, faces 20 -> 28, leafs 28 -> 52, leaffaces and leafbrushes 2 -> 4,
// edges 4 -> 8, brushsides 4 -> 8. In both layouts every such field sits at the same multiple
// of its width, so one parser reads both with the field width `w` (2 or 4) chosen by the magic.
//
// Materials: one per texinfo, in texinfo order, because the texinfo is what carries the
// flags, the translucency value and the animation link (nexttexinfo); two texinfos with the
// same name and flags simply give two equal materials. Texture sizes live in the .wal files,
// not in the map, so materials have width/height 0, uv_in_texels is set and the vertices' uv
// stay in texels; the scene divides them by the decoded sizes (scene/world/material_table.h).
#include "bsp/collision_read.h"
#include "bsp/dropped.h"
#include "bsp/edge_faces.h"
#include "bsp/entities.h"
#include "bsp/lump_table.h"
#include "bsp/parsers.h"
#include "bsp/tree.h"
#include "bsp/vis.h"

#include <algorithm>
#include <cstring>

namespace bsp {

namespace {

enum Q2Lump {
    kEntities,
    kPlanes,
    kVertexes,
    kVisibility,
    kNodes,
    kTexinfo,
    kFaces,
    kLighting,
    kLeafs,
    kLeafFaces,
    kLeafBrushes,
    kEdges,
    kSurfedges,
    kModels,
    kBrushes,
    kBrushSides,
    kPop,
    kAreas,
    kAreaPortals,
    kNumLumps
};

constexpr const char* kLumpNames[kNumLumps] = {
    "entities", "planes",     "vertexes",  "visibility",  "nodes",      "texinfo",   "faces",
    "lighting", "leafs",      "leaffaces", "leafbrushes", "edges",      "surfedges", "models",
    "brushes",  "brushsides", "pop",       "areas",       "areaportals"};
// Record sizes as a function of the narrow field width w (IBSP 2, QBSP 4); see the layouts
// in the readers below: node 12 + 8w, face 12 + 4w, leaf 4 + 12w, edge/brushside 2w.
uint32_t recordSize(int lump, uint32_t w) {
    switch (lump) {
    case kPlanes:
        return 20;
    case kVertexes:
        return 12;
    case kNodes:
        return 12 + 8 * w;
    case kTexinfo:
        return 76;
    case kFaces:
        return 12 + 4 * w;
    case kLeafs:
        return 4 + 12 * w;
    case kLeafFaces:
    case kLeafBrushes:
        return w;
    case kEdges:
    case kBrushSides:
        return 2 * w;
    case kSurfedges:
        return 4;
    case kModels:
        return 48;
    case kBrushes:
        return 12;
    case kAreas:
    case kAreaPortals:
        return 8;
    default:
        return 0; // entities, visibility, lighting, pop: bytes
    }
}

// Quake 2 surface flags (q_shared.h SURF_*).
enum : uint32_t {
    kQ2Light = 0x1,
    kQ2Sky = 0x4,
    kQ2Warp = 0x8,
    kQ2Trans33 = 0x10,
    kQ2Trans66 = 0x20,
    kQ2Flowing = 0x40,
    kQ2NoDraw = 0x80,
    kQ2Hint = 0x100,
    kQ2Skip = 0x200,
};

// Quake 2 contents (q_shared.h CONTENTS_*).
uint32_t leafContents(uint32_t c) {
    uint32_t out = 0;
    if (c & 1) // SOLID
        out |= kContentsSolid;
    if (c & (8 | 16 | 32)) // LAVA, SLIME, WATER
        out |= kContentsLiquid;
    if (c & 8)
        out |= kContentsLava;
    if (c & 16)
        out |= kContentsSlime;
    return out;
}

uint32_t materialFlags(uint32_t q2) {
    uint32_t f = 0;
    if (q2 & kQ2Sky)
        f |= kSurfSky;
    if (q2 & kQ2Warp)
        f |= kSurfLiquid | kSurfWarp | kSurfFullbright;
    if (q2 & (kQ2Trans33 | kQ2Trans66))
        f |= kSurfTranslucent;
    if (q2 & kQ2Flowing)
        f |= kSurfFlowing;
    // Sky faces often carry NODRAW as well (aq_wizs: 78 of them); the engines test SURF_SKY
    // first and draw the sky there (yquake2 R_RecursiveWorldNode), so sky wins.
    if ((q2 & (kQ2NoDraw | kQ2Hint | kQ2Skip)) && !(q2 & kQ2Sky))
        f |= kSurfNoDraw;
    return f;
}

struct Parser {
    core::ByteReader file;
    uint32_t w = 2; // width of the narrow fields: 2 in IBSP, 4 in QBSP
    LumpRef lumps[kNumLumps];
    Map map;
    std::vector<glm::vec3> vertices;
    std::vector<std::array<uint32_t, 2>> edges;
    std::vector<int32_t> surfedges;
    std::vector<TexAxes> axes;
    std::vector<uint32_t> texinfo_flags;

    core::ByteReader lump(int i) const { return lumpReader(file, lumps[i]); }
    // Narrow fields: unsigned (indices, counts) and signed (side, cluster, area, texinfo) reads
    // of width w, and the node/leaf bounds (int16 in IBSP, float in QBSP).
    uint32_t index(const core::ByteReader& r, uint64_t at) const {
        return w == 2 ? r.u16(at) : r.u32(at);
    }
    int32_t signedIndex(const core::ByteReader& r, uint64_t at) const {
        return w == 2 ? r.get<int16_t>(at) : r.i32(at);
    }
    void bounds(const core::ByteReader& r, uint64_t at, glm::vec3& mins, glm::vec3& maxs) const {
        float b[6];
        for (uint64_t k = 0; k < 6; ++k)
            b[k] = w == 2 ? float(r.get<int16_t>(at + k * 2)) : r.f32(at + k * 4);
        mins = glm::vec3(b[0], b[1], b[2]);
        maxs = glm::vec3(b[3], b[4], b[5]);
    }

    // Area and cluster references that do not hold, dropped with warnings (bsp/dropped.h).
    DroppedReferences dropped_areas;

    core::Status header();
    core::Status entities();
    core::Status planes();
    core::Status geometry();
    core::Status texinfos();
    core::Status faces();
    core::Status areas();
    core::Status leafs();
    core::Status nodes();
    core::Status models();
    core::Status collision();
    core::Status visibility();
};

core::Status Parser::header() {
    for (int i = 0; i < kNumLumps; ++i) {
        LumpRef& l = lumps[i];
        l.name = kLumpNames[i];
        l.record_size = recordSize(i, w);
        if (!file.read(8 + i * 8, l.offset) || !file.read(12 + i * 8, l.length))
            return core::makeError(core::ErrorCode::Truncated, "header", -1, {},
                                   "file too small for the lump directory");
    }
    for (const LumpRef& l : lumps)
        if (auto s = checkLump(file, l, map); !s)
            return s;
    return core::okStatus();
}

core::Status Parser::entities() {
    readEntityLump(map, lump(kEntities).bytes());
    return core::okStatus();
}

core::Status Parser::planes() {
    readPlanes(map, lump(kPlanes));
    return core::okStatus();
}

core::Status Parser::geometry() {
    if (!lump(kVertexes).readArray(0, lumps[kVertexes].count(), vertices))
        return core::makeError(core::ErrorCode::Truncated, "vertexes");
    const core::ByteReader re = lump(kEdges);
    edges.resize(lumps[kEdges].count());
    for (size_t i = 0; i < edges.size(); ++i)
        edges[i] = {index(re, i * 2 * w), index(re, i * 2 * w + w)};
    if (!lump(kSurfedges).readArray(0, lumps[kSurfedges].count(), surfedges))
        return core::makeError(core::ErrorCode::Truncated, "surfedges");
    return core::okStatus();
}

core::Status Parser::texinfos() {
    const core::ByteReader r = lump(kTexinfo);
    const uint64_t n = lumps[kTexinfo].count();
    axes.resize(n);
    texinfo_flags.resize(n);
    map.materials.resize(n);
    DroppedReferences dropped;
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t at = i * 76;
        r.read(at, axes[i].s);
        r.read(at + 16, axes[i].t);
        const uint32_t flags = r.u32(at + 32);
        texinfo_flags[i] = flags;
        Material& m = map.materials[i];
        m.name = r.fixedString(at + 40, 32);
        m.game_flags = flags;
        m.flags = materialFlags(flags);
        // yquake2 gl3_surf.c GL3_DrawAlphaSurfaces: 0.333 and 0.666, drawn without lightmaps;
        // warped surfaces at half light except lava (gl3_warp.c GL3_EmitWaterPolys, is_lava:
        // "lava" in the image name, gl3_image.c).
        m.alpha = (flags & kQ2Trans33) ? 0.333f : (flags & kQ2Trans66) ? 0.666f : 1.0f;
        if (flags & kQ2Warp)
            m.fullbright_light = m.name.find("lava") != std::string::npos ? 1.0f : 0.5f;
        else if (flags & (kQ2Trans33 | kQ2Trans66))
            m.fullbright_light = 1.0f;
        if (flags & kQ2Flowing)
            m.flow_speed = (flags & kQ2Warp) ? 0.5f : 64.0f / 40.0f;
        m.uv_in_texels = true;
        // yquake2 files/models.c Mod_LoadTexinfo follows nexttexinfo unchecked: a link out of
        // range only loses the animation here.
        const int32_t next = r.i32(at + 72);
        if (next >= 0 && uint64_t(next) < n) {
            m.anim_next = next;
            m.anim_fps = 2.0f; // the Quake 2 client advances texture animation at 2 Hz
        } else if (next != -1) {
            dropped.add(indexError("texinfo", int64_t(i), "nexttexinfo", next, n, "texinfo"),
                        "not animated");
        }
    }
    dropped.flush(map);
    return core::okStatus();
}

core::Status Parser::faces() {
    const core::ByteReader r = lump(kFaces);
    const core::ByteReader light = lump(kLighting);
    const uint64_t n = lumps[kFaces].count();
    EdgeFaceBuilder builder(map, EdgeGeometry{vertices, edges, surfedges}, n);
    map.has_light_data = light.size() > 0;
    const uint64_t size = lumps[kFaces].record_size;
    for (uint64_t i = 0; i < n; ++i) {
        // planenum, side, firstedge (int32), numedges, texinfo, styles[4], lightofs (int32)
        const uint64_t at = i * size;
        EdgeFaceRecord rec;
        rec.plane = index(r, at);
        rec.side = signedIndex(r, at + w);
        rec.first_edge = r.i32(at + 2 * w);
        rec.num_edges = signedIndex(r, at + 2 * w + 4);
        rec.texinfo = signedIndex(r, at + 3 * w + 4);
        r.read(at + 4 * w + 4, rec.styles);
        rec.lightofs = r.i32(at + 4 * w + 8);
        const TexAxes* tex_axes = rec.texinfo >= 0 && uint64_t(rec.texinfo) < axes.size()
                                      ? &axes[size_t(rec.texinfo)]
                                      : nullptr;
        if (auto s = builder.emit(i, rec, axes.size(), int32_t(rec.texinfo),
                                  tex_axes ? *tex_axes : TexAxes{}, 1.0f, 1.0f);
            !s)
            return s;
        const uint32_t flags = texinfo_flags[size_t(rec.texinfo)];
        if (flags & (kQ2Sky | kQ2Warp | kQ2Trans33 | kQ2Trans66))
            continue;
        if (light.size() == 0) {
            builder.unlit(i);
            continue;
        }
        if (auto s = builder.light(i, *tex_axes, light.bytes(),
                                   rec.lightofs < 0 ? -1 : int64_t(rec.lightofs));
            !s)
            return s;
    }
    builder.finish();
    return core::okStatus();
}

core::Status Parser::areas() {
    const core::ByteReader ra = lump(kAreas);
    const core::ByteReader rp = lump(kAreaPortals);
    map.areas.resize(lumps[kAreas].count());
    map.area_portals.resize(lumps[kAreaPortals].count());
    for (size_t i = 0; i < map.area_portals.size(); ++i) {
        AreaPortal& p = map.area_portals[i];
        p.portal = rp.i32(i * 8);
        p.other_area = rp.i32(i * 8 + 4);
        if (p.other_area < 0 || size_t(p.other_area) >= map.areas.size())
            dropped_areas.add(indexError("areaportals", int64_t(i), "otherarea", p.other_area,
                                         map.areas.size(), "areas"),
                              kAreasDropped);
    }
    readAreaRecords(ra, map, dropped_areas);
    return core::okStatus();
}

core::Status Parser::leafs() {
    const core::ByteReader lf = lump(kLeafFaces);
    map.leaf_faces.resize(lumps[kLeafFaces].count());
    for (size_t i = 0; i < map.leaf_faces.size(); ++i) {
        const uint32_t f = index(lf, i * w);
        if (f >= map.faces.size())
            return indexError("leaffaces", int64_t(i), "face", f, map.faces.size(), "faces");
        map.leaf_faces[i] = f;
    }
    const core::ByteReader r = lump(kLeafs);
    map.leaves.resize(lumps[kLeafs].count());
    if (map.leaves.empty())
        return core::makeError(core::ErrorCode::BadTree, "leafs", -1, {}, "no leaves");
    const uint64_t size = lumps[kLeafs].record_size;
    for (size_t i = 0; i < map.leaves.size(); ++i) {
        // contents (int32), cluster, area, mins[3], maxs[3], firstleafface, numleaffaces,
        // firstleafbrush, numleafbrushes
        const uint64_t at = i * size;
        Leaf& leaf = map.leaves[i];
        leaf.contents = leafContents(r.u32(at));
        leaf.cluster = signedIndex(r, at + 4);
        leaf.area = signedIndex(r, at + 4 + w);
        bounds(r, at + 4 + 2 * w, leaf.mins, leaf.maxs);
        const uint64_t first = index(r, at + 4 + 8 * w), num = index(r, at + 4 + 9 * w);
        if (first + num > map.leaf_faces.size())
            return indexError("leafs", int64_t(i), "firstleafface", int64_t(first + num),
                              map.leaf_faces.size(), "leaffaces");
        leaf.first_leaf_face = uint32_t(first);
        leaf.num_leaf_faces = uint32_t(num);
        checkLeafCluster(leaf, i, dropped_areas);
        if (leaf.area < 0 || (!map.areas.empty() && size_t(leaf.area) >= map.areas.size()))
            dropped_areas.add(
                indexError("leafs", int64_t(i), "area", leaf.area, map.areas.size(), "areas"),
                kAreasDropped);
    }
    dropAreasIfBroken(map, dropped_areas);
    return checkLeafFaceTotal(map, map.leaf_faces.size());
}

core::Status Parser::nodes() {
    const core::ByteReader r = lump(kNodes);
    const uint64_t n = lumps[kNodes].count();
    map.nodes.resize(n);
    const uint64_t size = lumps[kNodes].record_size;
    for (uint64_t i = 0; i < n; ++i) {
        // planenum, children[2] (int32), mins[3], maxs[3], firstface, numfaces
        const uint64_t at = i * size;
        if (auto st = setNodeLinks(map, i, r.i32(at), {r.i32(at + 4), r.i32(at + 8)}); !st)
            return st;
        Node& node = map.nodes[i];
        bounds(r, at + 12, node.mins, node.maxs);
    }
    return core::okStatus();
}

core::Status Parser::models() {
    auto heads = readEdgeModels(map, lump(kModels), lumps[kModels].count(), 48, 40, true);
    if (!heads)
        return heads.error();
    return validateNodeTrees(map, *heads);
}

core::Status Parser::collision() {
    return collisionOrNone(map, readQ2Collision(map, Q2BrushLumps{lump(kBrushes), lump(kBrushSides),
                                                                  lump(kLeafBrushes), lump(kLeafs),
                                                                  lump(kModels), w}));
}

core::Status Parser::visibility() {
    return readClusterVisibility(map, lump(kVisibility));
}

} // namespace

core::Result<Map> parseQuake2(std::span<const uint8_t> data, std::string_view name) {
    (void)name;
    Parser p;
    p.file = core::ByteReader(data);
    p.map.version = p.file.i32(4);
    char magic[4] = {};
    const bool read = p.file.read(0, magic);
    const bool qbsp = read && std::memcmp(magic, "QBSP", 4) == 0;
    if (!read || (!qbsp && std::memcmp(magic, "IBSP", 4) != 0) || p.map.version != 38)
        return core::makeError(core::ErrorCode::UnknownFormat, "header", -1, {},
                               "not a Quake 2 IBSP/QBSP 38 map");
    p.map.format = qbsp ? Format::Quake2Qbsp : Format::Quake2;
    p.w = qbsp ? 4 : 2;
    using Step = core::Status (Parser::*)();
    const Step steps[] = {&Parser::header,   &Parser::entities,  &Parser::planes,
                          &Parser::geometry, &Parser::texinfos,  &Parser::faces,
                          &Parser::areas,    &Parser::leafs,     &Parser::nodes,
                          &Parser::models,   &Parser::collision, &Parser::visibility};
    for (Step step : steps)
        if (auto s = (p.*step)(); !s)
            return s.error();
    bindSubmodelEntities(p.map);
    return std::move(p.map);
}

} // namespace bsp
