// Hand-made Quake 1 .mdl and .spr files for the decoder tests (layouts in content/model/mdl.h and
// content/model/sprite.h). Every value is chosen so the expected positions, texture coordinates and
// colours can be computed by hand.
#pragma once

#include "support/q2_builder.h" // q2test::Writer

#include <cstdint>
#include <vector>

namespace modeltest {

using q2test::Writer;

// A two-frame model with a skin group and a seam:
//   scale (2, 0.5, 1), translate (-10, 4, 8), skin 4x2, 4 vertices, 2 triangles.
//   skins: 0 single (indices 0..7, index 7 replaced by 230, a fullbright), 1 a group of two
//          images (all 1, all 2) ending at 0.1 s and 0.3 s.
//   st: v0 (onseam, s 0, t 0), v1 (s 3, t 0), v2 (s 3, t 1), v3 (s 0, t 1).
//   triangles: 0 faces front (0, 1, 2), 1 faces back (0, 2, 3): v0 is split on triangle 1,
//              its s moves by 4 / 2 = 2.
//   frames: 0 single "stand1": packed v0 (0,0,0) v1 (10,0,0) v2 (10,20,0) v3 (0,20,0);
//           1 a group ending at 0.2 s and 0.5 s: "run1" as stand1 with z 5, "run2" with z 255.
struct MdlOptions {
    int32_t version = 6;
    int32_t num_verts = 4;
    int32_t vertex_index_override = -1; // when >= 0, triangle 1's last index
};

inline std::vector<uint8_t> buildMdl(const MdlOptions& o = {}) {
    Writer w;
    w.put(uint32_t('I' | ('D' << 8) | ('P' << 16) | (uint32_t('O') << 24)));
    w.put(o.version);
    for (float f : {2.0f, 0.5f, 1.0f, -10.0f, 4.0f, 8.0f})
        w.put(f);
    w.put(30.0f); // radius
    for (float f : {0.0f, 0.0f, 24.0f})
        w.put(f);       // eye
    w.put(int32_t(2));  // numskins
    w.put(int32_t(4));  // skinwidth
    w.put(int32_t(2));  // skinheight
    w.put(o.num_verts); // numverts
    w.put(int32_t(2));  // numtris
    w.put(int32_t(2));  // numframes
    w.put(int32_t(0));  // synctype
    w.put(uint32_t(8)); // flags: rotate
    w.put(1.5f);        // size
    w.put(int32_t(0));  // skin 0: single
    for (uint8_t i = 0; i < 7; ++i)
        w.put(i);
    w.put(uint8_t(230));
    w.put(int32_t(1)); // skin 1: group
    w.put(int32_t(2));
    w.put(0.1f);
    w.put(0.3f);
    for (uint8_t c : {uint8_t(1), uint8_t(2)})
        for (int i = 0; i < 8; ++i)
            w.put(c);
    const int32_t st[4][3] = {{1, 0, 0}, {0, 3, 0}, {0, 3, 1}, {0, 0, 1}};
    for (const auto& s : st)
        for (int32_t v : s)
            w.put(v);
    const int32_t tris[2][4] = {
        {1, 0, 1, 2}, {0, 0, 2, o.vertex_index_override >= 0 ? o.vertex_index_override : 3}};
    for (const auto& t : tris)
        for (int32_t v : t)
            w.put(v);
    auto pose = [&](const char* name, uint8_t z) {
        w.put(uint32_t(0)); // bboxmin
        w.put(uint32_t(0)); // bboxmax
        w.putName(name, 16);
        const uint8_t xy[4][2] = {{0, 0}, {10, 0}, {10, 20}, {0, 20}};
        for (const auto& p : xy) {
            w.put(p[0]);
            w.put(p[1]);
            w.put(z);
            w.put(uint8_t(0)); // light normal index
        }
    };
    w.put(int32_t(0)); // frame 0: single
    pose("stand1", 0);
    w.put(int32_t(1)); // frame 1: group
    w.put(int32_t(2));
    w.put(uint32_t(0));
    w.put(uint32_t(0));
    w.put(0.2f);
    w.put(0.5f);
    pose("run1", 5);
    pose("run2", 255);
    return w.bytes;
}

// A two-frame sprite. version 1: Quake palette, orientation 2 (parallel). version 2: a palette
// whose entry i is (i, 255 - i, 7), render mode `mode`.
//   frame 0 single: origin (-2, 3), 2x2 pixels 0, 255, 16, 254.
//   frame 1 a group of two 1x1 pictures (index 9, then 10), ending at 0.25 s and 0.75 s.
inline std::vector<uint8_t> buildSprite(int32_t version = 1, int32_t mode = 3) {
    Writer w;
    w.put(uint32_t('I' | ('D' << 8) | ('S' << 16) | (uint32_t('P') << 24)));
    w.put(version);
    w.put(int32_t(2)); // orientation
    if (version == 2)
        w.put(mode);
    w.put(2.5f);       // radius
    w.put(int32_t(2)); // width
    w.put(int32_t(2)); // height
    w.put(int32_t(2)); // numframes
    w.put(0.0f);       // beamlength
    w.put(int32_t(0)); // synctype
    if (version == 2) {
        w.put(uint16_t(256));
        for (int i = 0; i < 256; ++i) {
            w.put(uint8_t(i));
            w.put(uint8_t(255 - i));
            w.put(uint8_t(7));
        }
    }
    w.put(int32_t(0));
    for (int32_t v : {-2, 3, 2, 2})
        w.put(v);
    for (uint8_t i : {uint8_t(0), uint8_t(255), uint8_t(16), uint8_t(254)})
        w.put(i);
    w.put(int32_t(1));
    w.put(int32_t(2));
    w.put(0.25f);
    w.put(0.75f);
    for (uint8_t i : {uint8_t(9), uint8_t(10)}) {
        for (int32_t v : {0, 0, 1, 1})
            w.put(v);
        w.put(i);
    }
    return w.bytes;
}

} // namespace modeltest
