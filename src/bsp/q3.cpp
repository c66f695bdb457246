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
#include "bsp/q3_parser.h"

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

namespace q3 {

core::Result<Map> Parser::run() {
    m_map.format = m_format;
    m_map.version = m_version;
    for (auto step :
         {&Parser::readLumpTable, &Parser::readEntities, &Parser::readTextures, &Parser::readPlanes,
          &Parser::readNodes, &Parser::readLeafs, &Parser::checkBrushes, &Parser::readEffects,
          &Parser::readVertices, &Parser::readFaces, &Parser::readLightmaps, &Parser::readModels,
          &Parser::readLightGrid, &Parser::readCollision, &Parser::readVis, &Parser::checkTree,
          &Parser::dropSkippedFaces}) {
        core::Status s = (this->*step)();
        if (!s)
            return std::move(s.error());
    }
    linkSubmodelEntities();
    m_dropped.flush(m_map);
    return std::move(m_map);
}

core::Status Parser::readLumpTable() {
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
                                 " is not a multiple of the record size " + std::to_string(rec));
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

core::Status Parser::readEntities() {
    const LumpRange& l = m_lumps[kEntities];
    const auto bytes =
        m_r.bytes().subspan(static_cast<size_t>(l.offset), static_cast<size_t>(l.length));
    std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    if (const size_t nul = text.find('\0'); nul != std::string_view::npos)
        text = text.substr(0, nul);
    m_map.entity_text = std::string(text);
    m_map.entities = parseEntities(m_map.entity_text, &m_map.warnings);
    m_map.deluxe_maps = deluxeKey();
    return core::okStatus();
}

DeluxeMaps Parser::deluxeKey() const {
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

core::Status Parser::readTextures() {
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

core::Status Parser::readPlanes() {
    m_map.planes.reserve(static_cast<size_t>(count(kPlanes)));
    for (uint64_t i = 0; i < count(kPlanes); ++i) {
        const uint64_t o = at(kPlanes, i);
        m_map.planes.push_back({vec3At(o), m_r.f32(o + 12)});
    }
    return core::okStatus();
}

core::Status Parser::readNodes() {
    const uint64_t planes = count(kPlanes), nodes = count(kNodes), leafs = count(kLeafs);
    m_map.nodes.reserve(static_cast<size_t>(nodes));
    for (uint64_t i = 0; i < nodes; ++i) {
        const uint64_t o = at(kNodes, i);
        Node n;
        n.plane = m_r.i32(o);
        if (!indexOk(n.plane, planes))
            return makeError(ErrorCode::IndexOutOfRange, "nodes", static_cast<int64_t>(i), "plane",
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
                                     std::to_string(nodes) + " nodes / " + std::to_string(leafs) +
                                     " leafs");
            n.children[static_cast<size_t>(side)] = child;
        }
        n.mins = ivec3At(o + 12);
        n.maxs = ivec3At(o + 24);
        m_map.nodes.push_back(n);
    }
    return core::okStatus();
}

core::Status Parser::readLeafs() {
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
            dropCollision(
                makeError(ErrorCode::IndexOutOfRange, "leafs", static_cast<int64_t>(i), "leafbrush",
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

core::Status Parser::checkBrushes() {
    const uint64_t brushes = count(kBrushes), sides = count(kBrushSides);
    const uint64_t textures = count(kTextures), planes = count(kPlanes);
    for (uint64_t i = 0; i < count(kLeafBrushes); ++i) {
        const int32_t b = m_r.i32(at(kLeafBrushes, i));
        if (!indexOk(b, brushes))
            dropCollision(makeError(
                ErrorCode::IndexOutOfRange, "leafbrushes", static_cast<int64_t>(i), "brush",
                "brush " + std::to_string(b) + " beyond " + std::to_string(brushes) + " brushes"));
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
            return makeError(
                ErrorCode::IndexOutOfRange, "brushsides", static_cast<int64_t>(i), "plane",
                "plane " + std::to_string(plane) + " beyond " + std::to_string(planes) + " planes");
        if (!indexOk(tex, textures))
            return makeError(ErrorCode::IndexOutOfRange, "brushsides", static_cast<int64_t>(i),
                             "texture",
                             "texture " + std::to_string(tex) + " beyond " +
                                 std::to_string(textures) + " textures");
    }
    return core::okStatus();
}

core::Status Parser::readModels() {
    const uint64_t faces = count(kFaces), brushes = count(kBrushes);
    uint64_t owned = 0;
    for (uint64_t i = 0; i < count(kModels); ++i) {
        const uint64_t o = at(kModels, i);
        Submodel m;
        m.mins = vec3At(o);
        m.maxs = vec3At(o + 12);
        const int32_t first = m_r.i32(o + 24), num = m_r.i32(o + 28);
        if (!rangeOk(first, num, faces))
            return makeError(ErrorCode::IndexOutOfRange, "models", static_cast<int64_t>(i), "face",
                             rangeText(first, num, faces, "faces"));
        const int32_t first_brush = m_r.i32(o + 32), num_brushes = m_r.i32(o + 36);
        if (!rangeOk(first_brush, num_brushes, brushes))
            dropCollision(makeError(ErrorCode::IndexOutOfRange, "models", static_cast<int64_t>(i),
                                    "brush",
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

core::Status Parser::readCollision() {
    if (m_collision_dropped)
        return core::okStatus();
    if (core::Status s = readBrushCollision(); !s) {
        dropCollision(s.error());
        m_map.collision = Collision{};
    }
    return core::okStatus();
}

void Parser::dropCollision(const core::Error& why) {
    m_dropped.add(why, kCollisionDropped);
    m_collision_dropped = true;
}

core::Status Parser::readBrushCollision() {
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

core::Status Parser::readVis() {
    if (core::Status s = readVisRows(); !s) {
        m_dropped.add(s.error(), "drawn without vis (every cluster potentially visible)");
        m_map.vis = Vis{};
    }
    return core::okStatus();
}

core::Status Parser::readVisRows() {
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
                         "negative size " + std::to_string(n_vecs) + "x" + std::to_string(sz_vecs));
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

core::Status Parser::checkTree() {
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

void Parser::linkSubmodelEntities() {
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

} // namespace q3

core::Result<Map> parseQuake3(std::span<const uint8_t> data, std::string_view name) {
    const Detected d = detect(data);
    if (!d.format || (*d.format != Format::Quake3 && *d.format != Format::Quake3Rtcw &&
                      *d.format != Format::Qfusion)) {
        core::Error e = core::makeError(
            data.size() < 8 ? core::ErrorCode::Truncated : core::ErrorCode::UnsupportedVersion,
            "header", -1, "version",
            "not a Quake 3 family map (" + d.magic + " " + std::to_string(d.version) + ")");
        e.file = std::string(name);
        return e;
    }
    core::Result<Map> map = q3::Parser(data, *d.format, d.version).run();
    if (!map) {
        map.error().file = std::string(name);
        return map;
    }
    map->name = std::string(name);
    return map;
}

} // namespace bsp
