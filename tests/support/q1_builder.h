// Builds small Quake 1 (BSP29) files in memory for parser, lighting and trace tests. Two
// builders, for two kinds of test:
//
// buildQ1() (lighting rules):
//   buildQ1() is two 64x64 floor quads (faces 0 and 1) side by side at z = 0, one texture
//   ("floor", 16x16, embedded), each face in its own leaf. Face 0 is lit: one style (0) and a
//   5x5 block of grey luxels of `luxel` at lightofs 0. Face 1's lightmap data is what the options
//   say, so tests can give it none (lightofs -1, or no styles) or drop the lighting lump.
//   `texture` and `texinfo_flags` make both faces a liquid ("*water"), lit or TEX_SPECIAL.
//   `lighting_data` replaces the lighting lump's bytes, and appendBspx() adds BSPX lumps after
//   the last lump (BSPX lighting tests).
//
// Q1Builder (collision):
//   A map is a list of models, each a list of solid axis-aligned boxes (model 0 the world,
//   model k > 0 a brush entity "*k" with the given classname). Every tree is built here the way
//   a compiler would for such boxes: the region is split at box faces until each part is inside
//   a box (solid) or outside all of them (empty). Hull 0 is the node tree with one empty leaf per
//   empty region and the shared solid leaf 0; hulls 1 and 2 are clipnode trees of the boxes grown
//   by the Quake hull sizes (a point is in the grown box exactly when the hull's box around it
//   overlaps the original box). No faces, textures, lighting or vis.
#pragma once

#include "support/q2_builder.h" // q2test::Writer

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace q1test {

struct Q1Options {
    bool lighting = true;               // false: an empty lighting lump (a map never lit)
    uint8_t luxel = 128;                // every luxel of both faces' blocks
    int32_t face1_lightofs = 25;        // byte offset into the lighting lump, -1: no samples
    uint8_t face1_style0 = 0;           // 255: no styles
    std::vector<uint8_t> lighting_data; // not empty: the lighting lump's bytes instead
    // BSP30: RGB lighting (lightofs in bytes, face1_lightofs counted in luxels as above) and
    // a palette after the miptex's last mip level.
    bool half_life = false;
    std::string texture = "floor";  // the one texture's name ("*water": a liquid)
    int32_t texinfo_flags = 0;      // 1: TEX_SPECIAL (a liquid or sky the compiler left unlit)
    glm::vec2 texinfo_offset{0.0f}; // the texinfo's s and t offsets, in texels
    std::string entities = "{\n\"classname\" \"worldspawn\"\n}\n"; // the entity lump's text
    // Clipnodes (plane, child 0, child 1; a child < 0 is a contents value). With any, model 0's
    // hulls 1..3 start at clipnode 0; without, the clipnodes lump is empty.
    std::vector<std::array<int32_t, 3>> clipnodes;
    // Brush models after the world, one per entry: its hull 1..3 heads (hull 0 is node 0, no
    // faces of its own). Their entities go in `entities`.
    std::vector<std::array<int32_t, 3>> model_clip_heads;
};

inline std::vector<uint8_t> buildQ1(const Q1Options& o = {}) {
    q2test::Writer lumps[15];
    lumps[0].bytes.assign(o.entities.begin(), o.entities.end());
    lumps[0].bytes.push_back(0);
    // planes: z = 0 facing up (type 2), x = 64 splitting the faces (type 0)
    lumps[1].put(glm::vec3(0, 0, 1));
    lumps[1].put(0.0f);
    lumps[1].put(int32_t(2));
    lumps[1].put(glm::vec3(1, 0, 0));
    lumps[1].put(64.0f);
    lumps[1].put(int32_t(0));
    // textures: one 16x16 miptex with its four mip levels (256 + 64 + 16 + 4 bytes of index 7)
    lumps[2].put(int32_t(1));
    lumps[2].put(int32_t(8));
    lumps[2].putName(o.texture.c_str(), 16);
    lumps[2].put(uint32_t(16));
    lumps[2].put(uint32_t(16));
    for (uint32_t ofs : {40u, 40u + 256u, 40u + 320u, 40u + 336u})
        lumps[2].put(ofs);
    for (int i = 0; i < 256 + 64 + 16 + 4; ++i)
        lumps[2].put(uint8_t(7));
    if (o.half_life) {
        lumps[2].put(uint16_t(256));
        for (int i = 0; i < 768; ++i)
            lumps[2].put(uint8_t(i / 3));
    }
    // vertexes
    const glm::vec3 v[6] = {{0, 0, 0},    {64, 0, 0},  {128, 0, 0},
                            {128, 64, 0}, {64, 64, 0}, {0, 64, 0}};
    for (const auto& p : v)
        lumps[3].put(p);
    // visibility: none (everything visible)
    // node 0: plane 1, front -> leaf 2, back -> leaf 1 (BSP29 children: 0xffff - leaf)
    lumps[5].put(int32_t(1));
    lumps[5].put(uint16_t(0xffff - 2));
    lumps[5].put(uint16_t(0xffff - 1));
    const int16_t nb[6] = {0, 0, -8, 128, 64, 8};
    lumps[5].put(nb);
    lumps[5].put(uint16_t(0));
    lumps[5].put(uint16_t(2));
    // texinfo: s = x, t = y (plus the offsets), miptex 0, flags as the options say
    lumps[6].put(glm::vec4(1, 0, 0, o.texinfo_offset.x));
    lumps[6].put(glm::vec4(0, 1, 0, o.texinfo_offset.y));
    lumps[6].put(int32_t(0));
    lumps[6].put(o.texinfo_flags);
    // faces (20 bytes): plane, side, firstedge, numedges, texinfo, styles[4], lightofs
    for (int f = 0; f < 2; ++f) {
        lumps[7].put(uint16_t(0));
        lumps[7].put(uint16_t(0));
        lumps[7].put(int32_t(f * 4));
        lumps[7].put(uint16_t(4));
        lumps[7].put(uint16_t(0));
        const uint8_t st[4] = {f == 0 ? uint8_t(0) : o.face1_style0, 255, 255, 255};
        lumps[7].put(st);
        const int32_t bytes_per_luxel = o.half_life ? 3 : 1;
        const int32_t ofs = f == 0 ? 0 : o.face1_lightofs;
        lumps[7].put(ofs < 0 ? ofs : ofs * bytes_per_luxel);
    }
    // lighting: grey, one byte per luxel (three in Half-Life); 64x64 texels -> 5x5 luxels, two
    // blocks
    if (!o.lighting_data.empty())
        lumps[8].bytes = o.lighting_data;
    else if (o.lighting)
        for (int i = 0; i < 2 * 5 * 5 * (o.half_life ? 3 : 1); ++i)
            lumps[8].put(o.luxel);
    for (const auto& c : o.clipnodes) {
        lumps[9].put(c[0]);
        lumps[9].put(uint16_t(int16_t(c[1])));
        lumps[9].put(uint16_t(int16_t(c[2])));
    }
    // leafs (28 bytes): 0 solid, 1 holds face 0, 2 holds face 1
    for (int l = 0; l < 3; ++l) {
        lumps[10].put(int32_t(l == 0 ? -2 : -1)); // CONTENTS_SOLID, CONTENTS_EMPTY
        lumps[10].put(int32_t(-1));               // no vis row
        const int16_t b[6] = {int16_t(l == 2 ? 64 : 0), 0, -8, int16_t(l == 2 ? 128 : 64), 64, 8};
        lumps[10].put(b);
        lumps[10].put(uint16_t(l == 0 ? 0 : l - 1));
        lumps[10].put(uint16_t(l == 0 ? 0 : 1));
        const uint8_t ambient[4] = {};
        lumps[10].put(ambient);
    }
    lumps[11].put(uint16_t(0));
    lumps[11].put(uint16_t(1));
    // edges: 0 unused; 1:(0,1) 2:(1,4) 3:(4,5) 4:(5,0) 5:(1,2) 6:(2,3) 7:(3,4)
    const uint16_t e[8][2] = {{0, 0}, {0, 1}, {1, 4}, {4, 5}, {5, 0}, {1, 2}, {2, 3}, {3, 4}};
    for (const auto& ed : e)
        lumps[12].put(ed);
    const int32_t se[8] = {1, 2, 3, 4, 5, 6, 7, -2};
    for (int32_t s : se)
        lumps[13].put(s);
    // model 0: bounds, origin, headnodes, visleafs, firstface, numfaces
    lumps[14].put(glm::vec3(0, 0, -8));
    lumps[14].put(glm::vec3(128, 64, 8));
    lumps[14].put(glm::vec3(0));
    const int32_t heads[4] = {0, 0, 0, 0};
    lumps[14].put(heads);
    lumps[14].put(int32_t(2));
    lumps[14].put(int32_t(0));
    lumps[14].put(int32_t(2));
    for (const auto& clip : o.model_clip_heads) {
        lumps[14].put(glm::vec3(0, 0, -8));
        lumps[14].put(glm::vec3(64, 64, 8));
        lumps[14].put(glm::vec3(0));
        lumps[14].put(int32_t(0));
        lumps[14].put(clip);
        lumps[14].put(int32_t(0)); // visleafs
        lumps[14].put(int32_t(0)); // no faces
        lumps[14].put(int32_t(0));
    }

    return q2test::assembleFile({uint8_t(o.half_life ? 30 : 29), 0, 0, 0}, lumps);
}

struct Box {
    glm::vec3 mins{0.0f};
    glm::vec3 maxs{0.0f};
};

// A liquid volume of hull 0 (contents -3 water, -4 slime, -5 lava); clip hulls leave it empty,
// as the compilers do.
struct Liquid {
    Box box;
    int32_t contents = -3;
};

struct Model {
    Model(std::vector<Box> solids_ = {}, std::string classname_ = "func_door",
          std::vector<std::pair<std::string, std::string>> keys_ = {})
        : solids(std::move(solids_)), classname(std::move(classname_)), keys(std::move(keys_)) {}

    std::vector<Box> solids;
    std::string classname = "func_door"; // for models > 0
    std::vector<Liquid> liquids;         // hull 0 only; solids win where they overlap
    std::vector<std::pair<std::string, std::string>> keys; // more key/value pairs of its entity
};

// Quake hull 1 and 2 box sizes (QuakeSpasm gl_model.c Mod_LoadClipnodes).
inline const Box kHull1{{-16, -16, -24}, {16, 16, 32}};
inline const Box kHull2{{-32, -32, -24}, {32, 32, 64}};

// Half-Life hull 1..3 box sizes (Xash3D model.c Mod_SetupHulls).
inline const Box kHlHull1{{-16, -16, -36}, {16, 16, 36}};
inline const Box kHlHull2{{-32, -32, -32}, {32, 32, 32}};
inline const Box kHlHull3{{-16, -16, -18}, {16, 16, 18}};

class Q1Builder {
public:
    std::vector<Model> models;
    bool half_life = false; // version 30 with Half-Life's three clip hulls
    Box region{{-1024, -1024, -1024}, {1024, 1024, 1024}}; // space the trees cover
    std::string extra_entities; // entity text appended after the brush entities
    std::string world_keys;     // more key/value lines of worldspawn

    struct PlaneRec {
        int axis;
        float dist;
    };
    struct NodeRec {
        int32_t plane;
        std::array<int32_t, 2> children; // >= 0 node, < 0: leaf code (see build)
        Box bounds;
    };
    struct LeafRec {
        int32_t contents;
        Box bounds;
    };
    // Filled by build(): what was written, for tests to refer to.
    std::vector<PlaneRec> planes;
    std::vector<NodeRec> nodes;
    std::vector<LeafRec> leaves;
    std::vector<std::array<int32_t, 3>> clipnodes; // plane, child 0, child 1 (< 0 contents)
    std::vector<std::array<int32_t, 4>> heads;     // per model

    std::vector<uint8_t> build() {
        planes.clear();
        nodes.clear();
        clipnodes.clear();
        heads.clear();
        leaves = {{-2, region}}; // leaf 0: the shared solid leaf
        for (const Model& m : models) {
            std::array<int32_t, 4> h{};
            m_liquids = &m.liquids;
            h[0] = partition(m.solids, region, true);
            m_liquids = nullptr;
            h[1] = partition(grown(m.solids, half_life ? kHlHull1 : kHull1), region, false);
            h[2] = partition(grown(m.solids, half_life ? kHlHull2 : kHull2), region, false);
            h[3] = half_life ? partition(grown(m.solids, kHlHull3), region, false) : 0;
            heads.push_back(h);
        }
        return write();
    }

private:
    const std::vector<Liquid>* m_liquids = nullptr; // of the model whose hull 0 is being built

    static bool overlaps(const Box& b, const Box& r) {
        return b.mins.x < r.maxs.x && b.maxs.x > r.mins.x && b.mins.y < r.maxs.y &&
               b.maxs.y > r.mins.y && b.mins.z < r.maxs.z && b.maxs.z > r.mins.z;
    }
    static bool covers(const Box& b, const Box& r) {
        return b.mins.x <= r.mins.x && b.maxs.x >= r.maxs.x && b.mins.y <= r.mins.y &&
               b.maxs.y >= r.maxs.y && b.mins.z <= r.mins.z && b.maxs.z >= r.maxs.z;
    }

    static std::vector<Box> grown(const std::vector<Box>& boxes, const Box& hull) {
        std::vector<Box> out;
        for (const Box& b : boxes)
            out.push_back({b.mins - hull.maxs, b.maxs - hull.mins});
        return out;
    }

    int32_t planeIndex(int axis, float dist) {
        for (size_t i = 0; i < planes.size(); ++i)
            if (planes[i].axis == axis && planes[i].dist == dist)
                return int32_t(i);
        planes.push_back({axis, dist});
        return int32_t(planes.size() - 1);
    }

    // Hull 0 (`tree`): returns a node index, or -1 - leaf for a leaf. Clip hulls: a clipnode
    // index, or the contents value (-1 empty, -2 solid).
    int32_t partition(const std::vector<Box>& boxes, const Box& r, bool tree) {
        for (const Box& b : boxes)
            for (int a = 0; a < 3 && overlaps(b, r); ++a)
                for (float c : {b.mins[a], b.maxs[a]})
                    if (c > r.mins[a] && c < r.maxs[a])
                        return split(boxes, r, a, c, tree);
        bool solid = false;
        for (const Box& b : boxes)
            solid = solid || covers(b, r);
        if (!tree)
            return solid ? -2 : -1;
        if (solid)
            return -1; // leaf 0
        int32_t contents = -1;
        if (m_liquids) {
            for (const Liquid& l : *m_liquids)
                for (int a = 0; a < 3 && overlaps(l.box, r); ++a)
                    for (float c : {l.box.mins[a], l.box.maxs[a]})
                        if (c > r.mins[a] && c < r.maxs[a])
                            return split(boxes, r, a, c, tree);
            for (const Liquid& l : *m_liquids)
                if (covers(l.box, r))
                    contents = l.contents;
        }
        leaves.push_back({contents, r});
        return -1 - int32_t(leaves.size() - 1);
    }

    int32_t split(const std::vector<Box>& boxes, const Box& r, int a, float c, bool tree) {
        const int32_t plane = planeIndex(a, c);
        Box front = r, back = r;
        front.mins[a] = c;
        back.maxs[a] = c;
        int32_t index;
        if (tree) {
            index = int32_t(nodes.size());
            nodes.push_back({plane, {0, 0}, r});
        } else {
            index = int32_t(clipnodes.size());
            clipnodes.push_back({plane, 0, 0});
        }
        const int32_t f = partition(boxes, front, tree);
        const int32_t b = partition(boxes, back, tree);
        if (tree)
            nodes[size_t(index)].children = {f, b};
        else
            clipnodes[size_t(index)] = {plane, f, b};
        return index;
    }

    using Writer = q2test::Writer;

    static void putBounds(Writer& w, const Box& b) {
        for (int k = 0; k < 3; ++k)
            w.put(int16_t(b.mins[k]));
        for (int k = 0; k < 3; ++k)
            w.put(int16_t(b.maxs[k]));
    }

    std::vector<uint8_t> write() const {
        enum { kEntities, kPlanes, kNodes = 5, kClipnodes = 9, kLeafs, kModels = 14 };
        Writer l[15];
        std::string ents = "{\n\"classname\" \"worldspawn\"\n" + world_keys + "}\n";
        for (size_t m = 1; m < models.size(); ++m) {
            ents += "{\n\"classname\" \"" + models[m].classname + "\"\n\"model\" \"*" +
                    std::to_string(m) + "\"\n";
            for (const auto& [k, v] : models[m].keys)
                ents += "\"" + k + "\" \"" + v + "\"\n";
            ents += "}\n";
        }
        ents += extra_entities;
        l[kEntities].bytes.assign(ents.begin(), ents.end());
        l[kEntities].bytes.push_back(0);
        for (const PlaneRec& p : planes) {
            glm::vec3 n(0.0f);
            n[p.axis] = 1.0f;
            l[kPlanes].put(n);
            l[kPlanes].put(p.dist);
            l[kPlanes].put(int32_t(p.axis));
        }
        for (const NodeRec& n : nodes) {
            l[kNodes].put(n.plane);
            for (int32_t c : n.children)
                l[kNodes].put(uint16_t(int16_t(c))); // leaf L: 65535 - L
            putBounds(l[kNodes], n.bounds);
            l[kNodes].put(uint16_t(0));
            l[kNodes].put(uint16_t(0));
        }
        for (const auto& c : clipnodes) {
            l[kClipnodes].put(c[0]);
            l[kClipnodes].put(uint16_t(int16_t(c[1])));
            l[kClipnodes].put(uint16_t(int16_t(c[2])));
        }
        for (const LeafRec& leaf : leaves) {
            l[kLeafs].put(leaf.contents);
            l[kLeafs].put(int32_t(-1)); // visofs: no vis
            putBounds(l[kLeafs], leaf.bounds);
            l[kLeafs].put(uint16_t(0));
            l[kLeafs].put(uint16_t(0));
            l[kLeafs].put(uint32_t(0)); // ambient levels
        }
        for (size_t m = 0; m < models.size(); ++m) {
            Box b{glm::vec3(1e9f), glm::vec3(-1e9f)};
            for (const Box& s : models[m].solids)
                for (int k = 0; k < 3; ++k) {
                    b.mins[k] = std::min(b.mins[k], s.mins[k]);
                    b.maxs[k] = std::max(b.maxs[k], s.maxs[k]);
                }
            l[kModels].put(b.mins);
            l[kModels].put(b.maxs);
            l[kModels].put(glm::vec3(0.0f));
            for (int32_t h : heads[m])
                l[kModels].put(h);
            l[kModels].put(int32_t(leaves.size() - 1)); // visleafs
            l[kModels].put(int32_t(0));
            l[kModels].put(int32_t(0));
        }
        return q2test::assembleFile({uint8_t(half_life ? 30 : 29), 0, 0, 0}, l);
    }
};

struct BspxLump {
    std::string name;
    std::vector<uint8_t> bytes;
};

// Appends a BSPX directory naming `lumps` after the file's last lump (4-byte aligned, as
// ericw-tools writes it), followed by the lumps' data, each 4-byte aligned.
inline void appendBspx(std::vector<uint8_t>& file, const std::vector<BspxLump>& lumps) {
    file.resize((file.size() + 3) & ~size_t(3), 0);
    q2test::Writer dir;
    dir.bytes = {'B', 'S', 'P', 'X'};
    dir.put(uint32_t(lumps.size()));
    size_t data = file.size() + 8 + lumps.size() * 32;
    std::vector<uint8_t> payload;
    for (const BspxLump& l : lumps) {
        dir.putName(l.name.c_str(), 24);
        dir.put(uint32_t(data + payload.size()));
        dir.put(uint32_t(l.bytes.size()));
        payload.insert(payload.end(), l.bytes.begin(), l.bytes.end());
        payload.resize((payload.size() + 3) & ~size_t(3), 0);
    }
    file.insert(file.end(), dir.bytes.begin(), dir.bytes.end());
    file.insert(file.end(), payload.begin(), payload.end());
}

// Little-endian bytes of `values`, for BSPX lump payloads.
template <typename T> std::vector<uint8_t> bytesOf(const std::vector<T>& values) {
    std::vector<uint8_t> out(values.size() * sizeof(T));
    if (!values.empty())
        std::memcpy(out.data(), values.data(), out.size());
    return out;
}

// Lump directory helpers for tests that damage a built file.
inline uint32_t lumpOffset(const std::vector<uint8_t>& file, int lump) {
    uint32_t v;
    std::memcpy(&v, file.data() + 4 + lump * 8, 4);
    return v;
}

} // namespace q1test
