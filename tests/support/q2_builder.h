// Builds small Quake 2 (IBSP 38) files in memory for parser tests, and (qbsp_convert.h) turns
// them into the re-release's QBSP layout.
//
// buildQ2() is a consistent little world: two 64x64 floor quads (faces 0 and 1), each in its own
// leaf and cluster, a vis lump written by hand and a texinfo animation chain; its arguments
// break the vis lump's cluster count and the chain's first link.
#pragma once

#include "support/qbsp_convert.h"

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <utility>
#include <vector>

namespace q2test {

class Writer {
public:
    std::vector<uint8_t> bytes;
    template <class T> void put(const T& v) {
        const auto* p = reinterpret_cast<const uint8_t*>(&v);
        bytes.insert(bytes.end(), p, p + sizeof(T));
    }
    void putName(const char* s, size_t len) {
        std::vector<uint8_t> buf(len, 0);
        std::memcpy(buf.data(), s, std::min(len, std::strlen(s)));
        bytes.insert(bytes.end(), buf.begin(), buf.end());
    }
};

// A whole file: `header` (magic and version), the lump directory (offset and length of each
// lump, in order) and the lumps' bytes. `lumps` is any range of writers with `bytes`.
template <class Lumps>
std::vector<uint8_t> assembleFile(std::vector<uint8_t> header, const Lumps& lumps) {
    uint32_t offset = static_cast<uint32_t>(header.size() + std::size(lumps) * 8);
    Writer out;
    out.bytes = std::move(header);
    for (const auto& l : lumps) {
        out.put(offset);
        out.put(uint32_t(l.bytes.size()));
        offset += uint32_t(l.bytes.size());
    }
    for (const auto& l : lumps)
        out.bytes.insert(out.bytes.end(), l.bytes.begin(), l.bytes.end());
    return out.bytes;
}

// Two 64x64 floor quads (faces 0 and 1), each in its own leaf and cluster; cluster 0 sees only
// itself, cluster 1 sees both. Texinfo 0 -> 1 -> 0 is an animation chain.
inline std::vector<uint8_t> buildQ2(int32_t vis_clusters = 2, int32_t next0 = 1) {
    Writer lumps[19];
    // planes: z = 0 facing up, x = 64 splitting the rooms
    lumps[1].put(glm::vec3(0, 0, 1));
    lumps[1].put(0.0f);
    lumps[1].put(int32_t(2));
    lumps[1].put(glm::vec3(1, 0, 0));
    lumps[1].put(64.0f);
    lumps[1].put(int32_t(0));
    // vertices: 6 along two quads
    const glm::vec3 v[6] = {{0, 0, 0},    {64, 0, 0},  {128, 0, 0},
                            {128, 64, 0}, {64, 64, 0}, {0, 64, 0}};
    for (const auto& p : v)
        lumps[2].put(p);
    // vis: 2 clusters, rows uncompressed single bytes
    lumps[3].put(vis_clusters);
    const int32_t header = 4 + vis_clusters * 8;
    for (int32_t c = 0; c < vis_clusters; ++c) {
        lumps[3].put(int32_t(header + c));
        lumps[3].put(int32_t(header + c));
    }
    lumps[3].put(uint8_t(0x01)); // cluster 0 sees 0
    lumps[3].put(uint8_t(0x03)); // cluster 1 sees 0, 1
    // node 0: plane 1, front -> leaf 2 (child -3), back -> leaf 1 (child -2)
    lumps[4].put(int32_t(1));
    lumps[4].put(int32_t(-3));
    lumps[4].put(int32_t(-2));
    const int16_t nb[6] = {0, 0, -8, 128, 64, 8};
    lumps[4].put(nb);
    lumps[4].put(uint16_t(0));
    lumps[4].put(uint16_t(2));
    // texinfo x2
    for (int t = 0; t < 2; ++t) {
        lumps[5].put(glm::vec4(1, 0, 0, 0));
        lumps[5].put(glm::vec4(0, 1, 0, 0));
        lumps[5].put(uint32_t(t == 0 ? 0x40 : 0x10)); // FLOWING, TRANS33
        lumps[5].put(int32_t(0));
        lumps[5].putName(t == 0 ? "e1u1/Anim1" : "e1u1/Anim2", 32);
        lumps[5].put(int32_t(t == 0 ? next0 : 0));
    }
    // edges: 0 unused; 1:(0,1) 2:(1,4) 3:(4,5) 4:(5,0) 5:(1,2) 6:(2,3) 7:(3,4)
    const uint16_t e[8][2] = {{0, 0}, {0, 1}, {1, 4}, {4, 5}, {5, 0}, {1, 2}, {2, 3}, {3, 4}};
    for (const auto& ed : e)
        lumps[11].put(ed);
    const int32_t se[8] = {1, 2, 3, 4, 5, 6, 7, -2};
    for (int32_t s : se)
        lumps[12].put(s);
    // faces; face 1 lit with one style
    for (int f = 0; f < 2; ++f) {
        lumps[6].put(uint16_t(0));
        lumps[6].put(int16_t(0));
        lumps[6].put(int32_t(f * 4));
        lumps[6].put(int16_t(4));
        lumps[6].put(int16_t(f));
        const uint8_t st[4] = {0, 255, 255, 255};
        lumps[6].put(st);
        lumps[6].put(int32_t(0));
    }
    // lighting: 5x5 luxels RGB for face 0 (64x64 texels -> 5 luxels)
    for (int i = 0; i < 5 * 5 * 3; ++i)
        lumps[7].put(uint8_t(i));
    // leaves: 0 solid, 1 cluster 0 (face 0), 2 cluster 1 (face 1)
    for (int l = 0; l < 3; ++l) {
        lumps[8].put(uint32_t(l == 0 ? 1 : 0));
        lumps[8].put(int16_t(l - 1));
        lumps[8].put(int16_t(0));
        const int16_t b[6] = {int16_t(l == 2 ? 64 : 0), 0, -8, int16_t(l == 2 ? 128 : 64), 64, 8};
        lumps[8].put(b);
        lumps[8].put(uint16_t(l == 0 ? 0 : l - 1));
        lumps[8].put(uint16_t(l == 0 ? 0 : 1));
        lumps[8].put(uint16_t(0));
        lumps[8].put(uint16_t(0));
    }
    lumps[9].put(uint16_t(0));
    lumps[9].put(uint16_t(1));
    // model 0
    lumps[13].put(glm::vec3(0, 0, -8));
    lumps[13].put(glm::vec3(128, 64, 8));
    lumps[13].put(glm::vec3(0));
    lumps[13].put(int32_t(0));
    lumps[13].put(int32_t(0));
    lumps[13].put(int32_t(2));
    // areas: 0 (unused) and 1
    for (int a = 0; a < 2; ++a) {
        lumps[17].put(int32_t(0));
        lumps[17].put(int32_t(0));
    }
    const char ents[] = "{\n\"classname\" \"worldspawn\"\n}\n";
    lumps[0].bytes.assign(ents, ents + sizeof ents);

    return assembleFile({'I', 'B', 'S', 'P', 38, 0, 0, 0}, lumps);
}

} // namespace q2test
