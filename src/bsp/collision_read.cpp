// Collision lumps -> Map::collision. Engine rules (hull sizes, the hull choice, contents
// values, epsilons) are cited in docs/collision.md.
#include "bsp/collision_read.h"

#include "bsp/dropped.h"
#include "bsp/lump_table.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

namespace bsp {

namespace {

constexpr float kAny = std::numeric_limits<float>::infinity();
// Deeper hull trees are refused: traces recurse once per level (real maps stay below 100).
constexpr uint32_t kMaxHullDepth = 2048;

// Quake 1 / Half-Life contents values (QuakeSpasm bspfile.h, Xash3D const.h), index -1 - v.
std::vector<uint32_t> hullValueContents() {
    return {
        0,                                        // -1 EMPTY
        kCollideSolid,                            // -2 SOLID
        kCollideWater,                            // -3 WATER
        kCollideSlime,                            // -4 SLIME
        kCollideLava,                             // -5 LAVA
        kCollideSky,                              // -6 SKY
        kCollideTrigger,                          // -7 ORIGIN (removed by compilers)
        kCollidePlayerClip | kCollideMonsterClip, // -8 CLIP
        kCollideWater,                            // -9 .. -14 CURRENT_0 .. CURRENT_DOWN
        kCollideWater,
        kCollideWater,
        kCollideWater,
        kCollideWater,
        kCollideWater,
        kCollideTrigger, // -15 TRANSLUCENT
        kCollideLadder,  // -16 LADDER (Half-Life)
    };
}

void setHullRules(Collision& c, bool half_life) {
    c.value_contents = hullValueContents();
    if (half_life) {
        c.hulls = {{},
                   {{-16, -16, -36}, {16, 16, 36}},
                   {{-32, -32, -32}, {32, 32, 32}},
                   {{-16, -16, -18}, {16, 16, 18}}};
        c.hull_choices = {{0, 8.0f, kAny, false},
                          {3, 36.0f, 36.0f, true},
                          {1, 36.0f, kAny, true},
                          {2, kAny, kAny, true}};
    } else {
        c.hulls = {{}, {{-16, -16, -24}, {16, 16, 32}}, {{-32, -32, -24}, {32, 32, 64}}};
        // "size[0] < 3": the largest float below 3.
        c.hull_choices = {{0, std::nextafter(3.0f, 0.0f), kAny, true},
                          {1, 32.0f, kAny, true},
                          {2, kAny, kAny, true}};
    }
}

// Hull trees must end: Half-Life compilers share identical subtrees between parents, so the
// clipnodes form a graph, which must be acyclic, no deeper than kMaxHullDepth (traces recurse
// once per level) and whose unfolded tree stays small (a trace may walk every path once: 30
// levels of nodes whose two children are the same node would be 2^30 paths).
core::Status checkClipTrees(const Collision& c) {
    const size_t n = c.clipnodes.size();
    const uint64_t max_paths = 64 * uint64_t(n) + (1u << 20);
    enum : uint8_t { kNew, kOpen, kDone };
    std::vector<uint8_t> state(n, kNew);
    std::vector<uint64_t> paths(n, 0); // nodes of the unfolded subtree
    std::vector<uint32_t> depth(n, 0);
    std::vector<int32_t> stack;
    auto childOf = [&](int32_t node, size_t k) { return c.clipnodes[size_t(node)].children[k]; };
    for (size_t root = 0; root < n; ++root) {
        if (state[root] != kNew)
            continue;
        stack.assign(1, int32_t(root));
        while (!stack.empty()) {
            const int32_t node = stack.back();
            if (state[size_t(node)] == kNew) {
                state[size_t(node)] = kOpen;
                for (size_t k = 0; k < 2; ++k) {
                    const int32_t child = childOf(node, k);
                    if (child < 0 || state[size_t(child)] == kDone)
                        continue;
                    if (state[size_t(child)] == kOpen)
                        return core::makeError(core::ErrorCode::BadTree, "clipnodes", node,
                                               "children",
                                               "clipnode " + std::to_string(child) +
                                                   " is its own descendant (a cycle)");
                    stack.push_back(child);
                }
                continue;
            }
            stack.pop_back();
            if (state[size_t(node)] == kDone)
                continue; // pushed twice by two parents before it was finished
            uint64_t p = 1;
            uint32_t d = 1;
            for (size_t k = 0; k < 2; ++k) {
                const int32_t child = childOf(node, k);
                if (child >= 0) {
                    p += paths[size_t(child)];
                    d = std::max(d, depth[size_t(child)] + 1);
                }
            }
            if (d > kMaxHullDepth || p > max_paths)
                return core::makeError(core::ErrorCode::BadTree, "clipnodes", node, "children",
                                       d > kMaxHullDepth
                                           ? "hull tree deeper than " +
                                                 std::to_string(kMaxHullDepth) + " levels"
                                           : "shared subtrees unfold to more than " +
                                                 std::to_string(max_paths) + " nodes");
            paths[size_t(node)] = p;
            depth[size_t(node)] = d;
            state[size_t(node)] = kDone;
        }
    }
    return core::okStatus();
}

// A game's content bits and the neutral CollisionContents each one stands for.
struct ContentsBit {
    uint32_t game;
    uint32_t neutral;
};

template <size_t N> uint32_t neutralContents(uint32_t game, const ContentsBit (&table)[N]) {
    uint32_t out = 0;
    for (const ContentsBit& b : table)
        if (game & b.game)
            out |= b.neutral;
    return out;
}

// Quake 2 q_shared.h CONTENTS_*.
constexpr ContentsBit kQ2Contents[] = {
    {0x1, kCollideSolid},           // SOLID
    {0x2, kCollideSolid},           // WINDOW
    {0x8, kCollideLava},            // LAVA
    {0x10, kCollideSlime},          // SLIME
    {0x20, kCollideWater},          // WATER
    {0x40, kCollideTrigger},        // MIST
    {0x8000, kCollideTrigger},      // AREAPORTAL
    {0x10000, kCollidePlayerClip},  // PLAYERCLIP
    {0x20000, kCollideMonsterClip}, // MONSTERCLIP
    {0x1000000, kCollideTrigger},   // ORIGIN
    {0x20000000, kCollideLadder},   // LADDER
};

// ioquake3 surfaceflags.h CONTENTS_*.
constexpr ContentsBit kQ3Contents[] = {
    {0x1, kCollideSolid},           // SOLID
    {0x8, kCollideLava},            // LAVA
    {0x10, kCollideSlime},          // SLIME
    {0x20, kCollideWater},          // WATER
    {0x40, kCollideTrigger},        // FOG
    {0x8000, kCollideTrigger},      // AREAPORTAL
    {0x10000, kCollidePlayerClip},  // PLAYERCLIP
    {0x20000, kCollideMonsterClip}, // MONSTERCLIP
    {0x40000, kCollideTrigger},     // TELEPORTER
    {0x80000, kCollideTrigger},     // JUMPPAD
    {0x1000000, kCollideTrigger},   // ORIGIN
    {0x40000000, kCollideTrigger},  // TRIGGER
};

uint32_t q2Contents(uint32_t c) {
    return neutralContents(c, kQ2Contents);
}

core::Error rangeError(const char* lump, uint64_t index, const char* field, uint64_t first,
                       uint64_t num, uint64_t limit, const char* what) {
    return core::makeError(core::ErrorCode::IndexOutOfRange, lump, int64_t(index), field,
                           std::to_string(first) + "+" + std::to_string(num) + " beyond " +
                               std::to_string(limit) + " " + what);
}

// The brushes lump of Quake 2 and Source (dbrush_t: firstside, numsides, contents; 12 bytes),
// each brush's game contents turned into kCollide* bits by `contents`. `sides` (the brush side
// count) names the limit in the error; checkBrushCollision checks the ranges themselves.
template <class Contents>
core::Status readBrushes(Collision& c, const core::ByteReader& brushes, uint64_t sides,
                         Contents contents) {
    const uint64_t nb = brushes.size() / 12;
    c.brushes.resize(size_t(nb));
    for (uint64_t i = 0; i < nb; ++i) {
        Brush& b = c.brushes[size_t(i)];
        const int32_t first = brushes.i32(i * 12), num = brushes.i32(i * 12 + 4);
        if (first < 0 || num < 0)
            return rangeError("brushes", i, "firstside", uint64_t(uint32_t(first)),
                              uint64_t(uint32_t(num)), sides, "brushsides");
        b.first_side = uint32_t(first);
        b.num_sides = uint32_t(num);
        b.game_contents = brushes.u32(i * 12 + 8);
        b.contents = contents(b.game_contents);
    }
    return core::okStatus();
}

// Each brush model's head node (dmodel_t's headnode, at 36 of 48 bytes in Quake 2 and Source).
void readModelHeads(Collision& c, const Map& map, const core::ByteReader& models) {
    c.models.resize(map.submodels.size());
    for (size_t m = 0; m < c.models.size(); ++m)
        c.models[m].heads = {models.i32(uint64_t(m) * 48 + 36), -1, -1, -1};
}

} // namespace

core::Status readHullCollision(Map& map, const HullLumps& in) {
    Collision& c = map.collision;
    c.kind = CollisionKind::Hulls;
    setHullRules(c, in.half_life);

    c.leaf_values.resize(map.leaves.size());
    for (size_t i = 0; i < map.leaves.size(); ++i)
        c.leaf_values[i] = in.leafs.i32(uint64_t(i) * in.leaf_size);

    const uint64_t record = in.wide_clipnodes ? 12 : 8;
    const uint64_t count = in.clipnodes.size() / record;
    c.clipnodes.resize(size_t(count));
    for (uint64_t i = 0; i < count; ++i) {
        ClipNode& node = c.clipnodes[size_t(i)];
        const uint64_t at = i * record;
        node.plane = in.clipnodes.i32(at);
        if (node.plane < 0 || size_t(node.plane) >= map.planes.size())
            return indexError("clipnodes", int64_t(i), "planenum", node.plane, map.planes.size(),
                              "planes");
        for (size_t k = 0; k < 2; ++k) {
            int64_t child;
            if (in.wide_clipnodes) {
                child = in.clipnodes.i32(at + 4 + k * 4);
            } else {
                // Unsigned, values past the node count are contents (QuakeSpasm
                // Mod_LoadClipnodes reads maps with more than 32767 clipnodes so).
                child = in.clipnodes.u16(at + 4 + k * 2);
                if (uint64_t(child) >= count)
                    child -= 65536;
            }
            if (child >= int64_t(count))
                return indexError("clipnodes", int64_t(i), "children", child, count, "clipnodes");
            node.children[k] = int32_t(child);
        }
    }

    c.models.resize(map.submodels.size());
    DroppedReferences empty;
    for (size_t m = 0; m < c.models.size(); ++m) {
        ModelCollision& mc = c.models[m];
        for (size_t h = 0; h < 4; ++h)
            mc.heads[h] = in.models.i32(uint64_t(m) * 64 + 36 + h * 4);
        bool noted = false; // one warning per model
        for (size_t h = 1; h < 4; ++h) {
            if (h >= c.hulls.size()) {
                mc.heads[h] = -1; // Quake has no hull 3; compilers write 0
                continue;
            }
            if (count == 0) {
                mc.heads[h] = -1;
                continue;
            }
            // ZHLT writes the clipnode count as the head of a hull it left empty (the last
            // brush model of some Counter-Strike maps); Xash3D FWGS mod_bmodel.c Mod_SetupHull
            // leaves any head at or past the count as an empty hull ("ZHLT weird empty
            // hulls"), which boxes pass through (pm_trace.c PM_HullPointContents).
            if (mc.heads[h] >= 0 && uint64_t(mc.heads[h]) >= count) {
                if (!noted)
                    empty.add(core::makeError(core::ErrorCode::IndexOutOfRange, "models",
                                              int64_t(m), "headnode",
                                              "hull " + std::to_string(h) + " head " +
                                                  std::to_string(mc.heads[h]) + " beyond " +
                                                  std::to_string(count) + " clipnodes"),
                              "empty hulls: walk mode's player passes through the model");
                noted = true;
                mc.heads[h] = -1; // CONTENTS_EMPTY
            }
        }
    }
    empty.flush(map);
    if (count == 0 && map.submodels.size() > 0)
        map.warnings.push_back("clipnodes: none; hulls 1-" + std::to_string(c.hulls.size() - 1) +
                               " are empty (boxes pass through walls)");
    return checkClipTrees(c);
}

core::Status readQ2Collision(Map& map, const Q2BrushLumps& in) {
    Collision& c = map.collision;
    c.kind = CollisionKind::Brushes;
    // Quake 2 player box (game p_client.c PutClientInServer) and cmodel.c DIST_EPSILON.
    c.hulls = {{}, {{-16, -16, -24}, {16, 16, 32}}};
    c.clip_epsilon = 0.03125f;
    const uint64_t w = in.w;
    const uint64_t ns = in.brush_sides.size() / (2 * w);
    if (auto st = readBrushes(c, in.brushes, ns, q2Contents); !st)
        return st;
    c.brush_sides.resize(size_t(ns));
    for (uint64_t i = 0; i < ns; ++i) {
        const uint64_t at = i * 2 * w;
        c.brush_sides[size_t(i)].plane =
            int32_t(w == 2 ? in.brush_sides.u16(at) : in.brush_sides.u32(at));
        if (c.brush_sides[size_t(i)].plane < 0)
            return indexError("brushsides", int64_t(i), "planenum", c.brush_sides[size_t(i)].plane,
                              map.planes.size(), "planes");
        // Materials are the texinfos one to one (q2.cpp); -1 is "no surface" (cmodel.c
        // CMod_LoadBrushSides refuses anything past the texinfo count).
        const int32_t texinfo =
            w == 2 ? in.brush_sides.get<int16_t>(at + 2) : in.brush_sides.i32(at + 4);
        if (texinfo >= 0 && size_t(texinfo) >= map.materials.size())
            return indexError("brushsides", int64_t(i), "texinfo", texinfo, map.materials.size(),
                              "texinfo");
        c.brush_sides[size_t(i)].material = texinfo < 0 ? -1 : texinfo;
    }
    const uint64_t nl = in.leaf_brushes.size() / w;
    c.leaf_brushes.resize(size_t(nl));
    for (uint64_t i = 0; i < nl; ++i)
        c.leaf_brushes[size_t(i)] =
            w == 2 ? in.leaf_brushes.u16(i * 2) : in.leaf_brushes.u32(i * 4);
    const uint64_t leaf_size = 4 + 12 * w;
    c.leaf_brush_ranges.resize(map.leaves.size());
    for (size_t i = 0; i < map.leaves.size(); ++i) {
        const uint64_t at = uint64_t(i) * leaf_size + 4 + 10 * w;
        Range& r = c.leaf_brush_ranges[i];
        r.first = w == 2 ? in.leafs.u16(at) : in.leafs.u32(at);
        r.count = w == 2 ? in.leafs.u16(at + 2) : in.leafs.u32(at + 4);
    }
    // dleaf_t::contents at 0: a point's contents are its leaf's (cmodel.c CM_PointContents
    // returns map_leafs[l].contents), so the void outside the map is solid to a point.
    c.leaf_contents.resize(map.leaves.size());
    for (size_t i = 0; i < map.leaves.size(); ++i)
        c.leaf_contents[i] = q2Contents(in.leafs.u32(uint64_t(i) * leaf_size));
    readModelHeads(c, map, in.models);
    return checkBrushCollision(map);
}

namespace {

// Source SDK 2013 public/bspflags.h CONTENTS_*. MASK_PLAYERSOLID is SOLID | MOVEABLE |
// PLAYERCLIP | WINDOW | MONSTER | GRATE, so a grate and a window stop a walking player.
constexpr ContentsBit kSourceContents[] = {
    {0x1, kCollideSolid},           // SOLID
    {0x2, kCollideSolid},           // WINDOW
    {0x8, kCollideSolid},           // GRATE
    {0x10, kCollideSlime},          // SLIME
    {0x20, kCollideWater},          // WATER
    {0x4000, kCollideSolid},        // MOVEABLE
    {0x8000, kCollideTrigger},      // AREAPORTAL
    {0x10000, kCollidePlayerClip},  // PLAYERCLIP
    {0x20000, kCollideMonsterClip}, // MONSTERCLIP
    {0x1000000, kCollideTrigger},   // ORIGIN
    {0x20000000, kCollideLadder},   // LADDER
};

} // namespace

uint32_t sourceContents(uint32_t game_contents) {
    return neutralContents(game_contents, kSourceContents);
}

core::Status readSourceCollision(Map& map, const SourceBrushLumps& in) {
    Collision& c = map.collision;
    c.kind = CollisionKind::Brushes;
    // Source's standing hull (game/shared/gamerules.cpp g_DefaultViewVectors:
    // VEC_HULL_MIN -16 -16 0, VEC_HULL_MAX 16 16 72) and the engine's DIST_EPSILON
    // (engine/cmodel_private.h, 0.03125).
    c.hulls = {{}, {{-16, -16, 0}, {16, 16, 72}}};
    c.clip_epsilon = 0.03125f;
    const uint64_t side_size = in.wide_sides ? 16 : 8;
    const uint64_t ns = in.brush_sides.size() / side_size;
    if (auto st = readBrushes(c, in.brushes, ns, sourceContents); !st)
        return st;
    c.brush_sides.resize(size_t(ns));
    for (uint64_t i = 0; i < ns; ++i) {
        const uint64_t at = i * side_size;
        const int64_t plane =
            in.wide_sides ? int64_t(in.brush_sides.u32(at)) : int64_t(in.brush_sides.u16(at));
        if (plane > INT32_MAX)
            return indexError("brushsides", int64_t(i), "planenum", plane, map.planes.size(),
                              "planes");
        // Bevel sides (the compiler's extra axial and edge planes, bevel = 1) stay: they keep a
        // box from catching on brush edges, as Quake 2's bevels do in CM_ClipBoxToBrush.
        c.brush_sides[size_t(i)].plane = int32_t(plane);
        // Materials are the texinfos one to one (vbsp.cpp); a bevel's texinfo is often -1.
        const int32_t texinfo = in.wide_sides ? in.brush_sides.i32(at + 4)
                                              : int32_t(in.brush_sides.get<int16_t>(at + 2));
        if (texinfo >= 0 && size_t(texinfo) >= map.materials.size())
            return indexError("brushsides", int64_t(i), "texinfo", texinfo, map.materials.size(),
                              "texinfo");
        c.brush_sides[size_t(i)].material = texinfo < 0 ? -1 : texinfo;
    }
    const uint64_t lb_size = in.wide_leaf_brushes ? 4 : 2;
    const uint64_t nl = in.leaf_brushes.size() / lb_size;
    c.leaf_brushes.resize(size_t(nl));
    for (uint64_t i = 0; i < nl; ++i)
        c.leaf_brushes[size_t(i)] =
            in.wide_leaf_brushes ? in.leaf_brushes.u32(i * 4) : in.leaf_brushes.u16(i * 2);
    const bool wide_leaf = in.leaf_version == 2;
    const uint64_t leaf_size = in.leaf_version == 1 ? 32 : 56;
    c.leaf_brush_ranges.resize(map.leaves.size());
    for (size_t i = 0; i < map.leaves.size(); ++i) {
        const uint64_t at = uint64_t(i) * leaf_size;
        Range& r = c.leaf_brush_ranges[i];
        r.first = wide_leaf ? in.leafs.u32(at + 44) : in.leafs.u16(at + 24);
        r.count = wide_leaf ? in.leafs.u32(at + 48) : in.leafs.u16(at + 26);
    }
    // dleaf_t::contents, the first field of every version.
    c.leaf_contents.resize(map.leaves.size());
    for (size_t i = 0; i < map.leaves.size(); ++i)
        c.leaf_contents[i] = sourceContents(in.leafs.u32(uint64_t(i) * leaf_size));
    readModelHeads(c, map, in.models);
    return checkBrushCollision(map);
}

uint32_t q3CollisionContents(uint32_t f, uint32_t surface) {
    // The ladder is a surface flag in Quake 3 (surfaceflags.h SURF_LADDER 0x8).
    return neutralContents(f, kQ3Contents) | ((surface & 0x8u) ? kCollideLadder : 0u);
}

void setQ3CollisionRules(Collision& c) {
    c.kind = CollisionKind::Brushes;
    // Quake 3 player box (game g_client.c playerMins/playerMaxs), cm_local.h
    // SURFACE_CLIP_EPSILON.
    c.hulls = {{}, {{-15, -15, -24}, {15, 15, 32}}};
    c.clip_epsilon = 0.125f;
}

namespace {

// Names for checkRanges' errors: the lump and fields of the records holding the ranges, the
// lump they point into, and how the overlap message calls the ranges and their entries.
struct RangeNames {
    const char* lump;
    const char* first_field;
    const char* count_field;
    const char* target;
    const char* ranges;
    const char* entries;
};

// Every range (first, count) of the n records inside `size` entries, and all of them together
// no more than 4 x size + 2^20 references: ranges may share entries, but overlapping ranges
// multiply what a trace walks, so a hostile file cannot make one trace cost millions.
template <class RangeOf>
core::Status checkRanges(size_t n, RangeOf rangeOf, size_t size, const RangeNames& names) {
    uint64_t refs = 0;
    for (size_t i = 0; i < n; ++i) {
        const Range r = rangeOf(i);
        if (uint64_t(r.first) + r.count > size)
            return rangeError(names.lump, i, names.first_field, r.first, r.count, size,
                              names.target);
        refs += r.count;
    }
    if (refs > 4 * uint64_t(size) + (1u << 20))
        return core::makeError(core::ErrorCode::BadValue, names.lump, -1, names.count_field,
                               std::string(names.ranges) + " overlap: " + std::to_string(refs) +
                                   " references to " + std::to_string(size) + " " + names.entries);
    return core::okStatus();
}

} // namespace

core::Status checkBrushCollision(const Map& map) {
    const Collision& c = map.collision;
    // Each brush is clipped once per trace, so overlapping side ranges multiply the work.
    if (auto st =
            checkRanges(c.brushes.size(),
                        [&](size_t i) {
                            return Range{c.brushes[i].first_side, c.brushes[i].num_sides};
                        },
                        c.brush_sides.size(),
                        {"brushes", "firstside", "numsides", "brushsides", "side ranges", "sides"});
        !st)
        return st;
    for (size_t i = 0; i < c.brush_sides.size(); ++i) {
        const BrushSide& s = c.brush_sides[i];
        if (s.plane < 0 || size_t(s.plane) >= map.planes.size())
            return indexError("brushsides", int64_t(i), "planenum", s.plane, map.planes.size(),
                              "planes");
    }
    for (size_t i = 0; i < c.leaf_brushes.size(); ++i)
        if (c.leaf_brushes[i] >= c.brushes.size())
            return indexError("leafbrushes", int64_t(i), "brush", c.leaf_brushes[i],
                              c.brushes.size(), "brushes");
    // A trace walks the brush list of every leaf it crosses (kLeafFaceRefFactor's reasoning).
    if (auto st =
            checkRanges(c.leaf_brush_ranges.size(),
                        [&](size_t i) { return c.leaf_brush_ranges[i]; }, c.leaf_brushes.size(),
                        {"leafs", "firstleafbrush", "numleafbrushes", "leafbrushes",
                         "leaf brush ranges", "entries"});
        !st)
        return st;
    for (size_t m = 0; m < c.models.size(); ++m) {
        const Range& r = c.models[m].brushes;
        if (uint64_t(r.first) + r.count > c.brushes.size())
            return rangeError("models", m, "firstbrush", r.first, r.count, c.brushes.size(),
                              "brushes");
    }
    return core::okStatus();
}

core::Status collisionOrNone(Map& map, core::Status read) {
    if (!read) {
        map.collision = Collision{};
        map.warnings.push_back(droppedWarning(read.error(), kCollisionDropped, 1));
    }
    return core::okStatus();
}

void setModelSolidity(Map& map) {
    Collision& c = map.collision;
    if (c.models.size() != map.submodels.size())
        return;
    for (size_t m = 1; m < c.models.size(); ++m) {
        const int32_t e = map.submodels[m].entity;
        if (e < 0 || size_t(e) >= map.entities.size()) {
            c.models[m].solid = false; // placed by no entity: not in the game world
            continue;
        }
        // Brush entities the games spawn non-solid: triggers (SOLID_TRIGGER), Quake 1 and
        // Half-Life func_illusionary, Half-Life func_water / func_ladder (contents volumes).
        const Entity& ent = map.entities[size_t(e)];
        const std::string_view cls = ent.classname();
        c.models[m].solid = !(cls.starts_with("trigger_") || cls == "func_illusionary" ||
                              cls == "func_water" || cls == "func_ladder");
        // Half-Life volumes the player moves in (pm_shared.c PM_Ladder finds func_ladder,
        // PM_PointContents returns a SOLID_NOT entity's skin: func_water's "skin", default
        // CONTENTS_WATER -3).
        if (cls == "func_ladder") {
            c.models[m].volume = kCollideLadder;
        } else if (cls == "func_water") {
            const float skin_value = ent.number("skin").value_or(-3.0f);
            const int32_t skin =
                std::isfinite(skin_value) && std::abs(skin_value) < 1e6f ? int32_t(skin_value) : -3;
            const uint32_t liquid = c.contentsOfValue(skin) & kMaskLiquid;
            c.models[m].volume = liquid ? liquid : kCollideWater;
        }
    }
}

} // namespace bsp
