// Builds small Quake 1 (BSP29) files in memory for parser tests.
//
// buildQ1() is two 64x64 floor quads (faces 0 and 1) side by side at z = 0, one texture
// ("floor", 16x16, embedded), each face in its own leaf. Face 0 is lit: one style (0) and a
// 5x5 block of grey luxels of `luxel` at lightofs 0. Face 1's lightmap data is what the options
// say, so tests can give it none (lightofs -1, or no styles) or drop the lighting lump.
#pragma once

#include "support/q2_builder.h" // q2test::Writer

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include <cstdint>
#include <vector>

namespace q1test {

struct Q1Options {
    bool lighting = true;        // false: an empty lighting lump (a map never lit)
    uint8_t luxel = 128;         // every luxel of both faces' blocks
    int32_t face1_lightofs = 25; // byte offset into the lighting lump, -1: no samples
    uint8_t face1_style0 = 0;    // 255: no styles
};

inline std::vector<uint8_t> buildQ1(const Q1Options& o = {}) {
    q2test::Writer lumps[15];
    const char ents[] = "{\n\"classname\" \"worldspawn\"\n}\n";
    lumps[0].bytes.assign(ents, ents + sizeof ents);
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
    lumps[2].putName("floor", 16);
    lumps[2].put(uint32_t(16));
    lumps[2].put(uint32_t(16));
    for (uint32_t ofs : {40u, 40u + 256u, 40u + 320u, 40u + 336u})
        lumps[2].put(ofs);
    for (int i = 0; i < 256 + 64 + 16 + 4; ++i)
        lumps[2].put(uint8_t(7));
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
    // texinfo: s = x, t = y, miptex 0, no flags
    lumps[6].put(glm::vec4(1, 0, 0, 0));
    lumps[6].put(glm::vec4(0, 1, 0, 0));
    lumps[6].put(int32_t(0));
    lumps[6].put(int32_t(0));
    // faces (20 bytes): plane, side, firstedge, numedges, texinfo, styles[4], lightofs
    for (int f = 0; f < 2; ++f) {
        lumps[7].put(uint16_t(0));
        lumps[7].put(uint16_t(0));
        lumps[7].put(int32_t(f * 4));
        lumps[7].put(uint16_t(4));
        lumps[7].put(uint16_t(0));
        const uint8_t st[4] = {f == 0 ? uint8_t(0) : o.face1_style0, 255, 255, 255};
        lumps[7].put(st);
        lumps[7].put(int32_t(f == 0 ? 0 : o.face1_lightofs));
    }
    // lighting: grey, one byte per luxel; 64x64 texels -> 5x5 luxels, two blocks
    if (o.lighting)
        for (int i = 0; i < 2 * 5 * 5; ++i)
            lumps[8].put(o.luxel);
    // clipnodes: none
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

    q2test::Writer out;
    out.put(int32_t(29));
    uint32_t offset = 4 + 15 * 8;
    for (auto& l : lumps) {
        out.put(offset);
        out.put(uint32_t(l.bytes.size()));
        offset += uint32_t(l.bytes.size());
    }
    for (auto& l : lumps)
        out.bytes.insert(out.bytes.end(), l.bytes.begin(), l.bytes.end());
    return out.bytes;
}

} // namespace q1test
