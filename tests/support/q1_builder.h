// Builds small Quake 1 (BSP29) files in memory for parser and trace tests.
//
// A map is a list of models, each a list of solid axis-aligned boxes (model 0 the world,
// model k > 0 a brush entity "*k" with the given classname). Every tree is built here the way
// a compiler would for such boxes: the region is split at box faces until each part is inside
// a box (solid) or outside all of them (empty). Hull 0 is the node tree with one empty leaf per
// empty region and the shared solid leaf 0; hulls 1 and 2 are clipnode trees of the boxes grown
// by the Quake hull sizes (a point is in the grown box exactly when the hull's box around it
// overlaps the original box). No faces, textures, lighting or vis.
#pragma once

#include <glm/vec3.hpp>

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace q1test {

struct Box {
    glm::vec3 mins{0.0f};
    glm::vec3 maxs{0.0f};
};

struct Model {
    std::vector<Box> solids;
    std::string classname = "func_door"; // for models > 0
};

// Quake hull 1 and 2 box sizes (QuakeSpasm gl_model.c Mod_LoadClipnodes).
inline const Box kHull1{{-16, -16, -24}, {16, 16, 32}};
inline const Box kHull2{{-32, -32, -24}, {32, 32, 64}};

class Q1Builder {
public:
    std::vector<Model> models;
    Box region{{-1024, -1024, -1024}, {1024, 1024, 1024}}; // space the trees cover

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
            h[0] = partition(m.solids, region, true);
            h[1] = partition(grown(m.solids, kHull1), region, false);
            h[2] = partition(grown(m.solids, kHull2), region, false);
            h[3] = 0;
            heads.push_back(h);
        }
        return write();
    }

private:
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
            for (int a = 0; a < 3; ++a) {
                const bool overlaps = b.mins.x < r.maxs.x && b.maxs.x > r.mins.x &&
                                      b.mins.y < r.maxs.y && b.maxs.y > r.mins.y &&
                                      b.mins.z < r.maxs.z && b.maxs.z > r.mins.z;
                if (!overlaps)
                    break;
                for (float c : {b.mins[a], b.maxs[a]})
                    if (c > r.mins[a] && c < r.maxs[a])
                        return split(boxes, r, a, c, tree);
            }
        bool solid = false;
        for (const Box& b : boxes)
            solid =
                solid || (b.mins.x <= r.mins.x && b.maxs.x >= r.maxs.x && b.mins.y <= r.mins.y &&
                          b.maxs.y >= r.maxs.y && b.mins.z <= r.mins.z && b.maxs.z >= r.maxs.z);
        if (!tree)
            return solid ? -2 : -1;
        if (solid)
            return -1; // leaf 0
        leaves.push_back({-1, r});
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

    struct Writer {
        std::vector<uint8_t> bytes;
        template <class T> void put(const T& v) {
            const auto* p = reinterpret_cast<const uint8_t*>(&v);
            bytes.insert(bytes.end(), p, p + sizeof(T));
        }
    };

    static void putBounds(Writer& w, const Box& b) {
        for (int k = 0; k < 3; ++k)
            w.put(int16_t(b.mins[k]));
        for (int k = 0; k < 3; ++k)
            w.put(int16_t(b.maxs[k]));
    }

    std::vector<uint8_t> write() const {
        enum { kEntities, kPlanes, kNodes = 5, kClipnodes = 9, kLeafs, kModels = 14 };
        Writer l[15];
        std::string ents = "{\n\"classname\" \"worldspawn\"\n}\n";
        for (size_t m = 1; m < models.size(); ++m)
            ents += "{\n\"classname\" \"" + models[m].classname + "\"\n\"model\" \"*" +
                    std::to_string(m) + "\"\n}\n";
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
        Writer out;
        out.put(int32_t(29));
        uint32_t offset = 4 + 15 * 8;
        for (const Writer& w : l) {
            out.put(offset);
            out.put(uint32_t(w.bytes.size()));
            offset += uint32_t(w.bytes.size());
        }
        for (const Writer& w : l)
            out.bytes.insert(out.bytes.end(), w.bytes.begin(), w.bytes.end());
        return out.bytes;
    }
};

// Lump directory helpers for tests that damage a built file.
inline uint32_t lumpOffset(const std::vector<uint8_t>& file, int lump) {
    uint32_t v;
    std::memcpy(&v, file.data() + 4 + lump * 8, 4);
    return v;
}

} // namespace q1test
