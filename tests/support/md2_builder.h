// Hand-made Quake 2 .md2 and .sp2 files for the decoder tests (layouts in content/model/md2.h and
// content/model/sp2.h). Every value is chosen so the expected positions, texture coordinates and
// normals can be computed by hand.
#pragma once

#include "support/q2_builder.h" // q2test::Writer

#include <cstdint>
#include <string>
#include <vector>

namespace md2test {

using q2test::Writer;

// A two-frame model whose first xyz vertex carries two texture coordinates:
//   skin 4x2 "models/test/skin.pcx"; scale (2, 0.5, 1), translate (-10, 4, 8).
//   st: 0 (0, 0), 1 (4, 0), 2 (4, 2), 3 (2, 1).
//   triangles: 0 xyz (0, 1, 2) st (0, 1, 2); 1 xyz (0, 2, 3) st (3, 2, 0): xyz 0 with st 3 and
//              xyz 3 with st 0 are new mesh vertices, xyz 2 with st 2 is shared.
//   frames (56 bytes each: 40 + 4 * 4): "stand01" packed x0 (0,0,0) x1 (10,0,0) x2 (10,20,0)
//   x3 (0,20,0), normal indices 5 (+z), 0, 5, 84 (-z); "run01" the same with z 5, x3 z 255.
struct Md2Options {
    int32_t version = 8;
    int16_t xyz_override = -1; // when >= 0, triangle 1's last xyz index
    int32_t frame_size = 56;
    int32_t frames = 2; // frames past the second repeat "run01"'s vertices, named "frameN"
};

inline std::vector<uint8_t> buildMd2(const Md2Options& o = {}) {
    constexpr int32_t kSkins = 68, kSt = kSkins + 64, kTris = kSt + 16, kFrames = kTris + 24;
    const int32_t file_end = kFrames + o.frames * 56;
    Writer w;
    w.put(uint32_t('I' | ('D' << 8) | ('P' << 16) | (uint32_t('2') << 24)));
    w.put(o.version);
    for (int32_t v : {4, 2, o.frame_size, 1, 4, 4, 2, 0, o.frames, kSkins, kSt, kTris, kFrames,
                      file_end, file_end})
        w.put(v);
    w.putName("models/test/skin.pcx", 64);
    for (int16_t v : {0, 0, 4, 0, 4, 2, 2, 1})
        w.put(v);
    for (int16_t v : {0, 1, 2, 0, 1, 2, 0, 2, o.xyz_override >= 0 ? o.xyz_override : 3, 3, 2, 0})
        w.put(v);
    const uint8_t xy[4][2] = {{0, 0}, {10, 0}, {10, 20}, {0, 20}};
    const uint8_t normal[4] = {5, 0, 5, 84};
    for (int f = 0; f < o.frames; ++f) {
        for (float v : {2.0f, 0.5f, 1.0f, -10.0f, 4.0f, 8.0f})
            w.put(v);
        const std::string name = f == 0   ? "stand01"
                                 : f == 1 ? "run01"
                                          : "frame" + std::to_string(f);
        w.putName(name.c_str(), 16);
        for (int v = 0; v < 4; ++v) {
            w.put(xy[v][0]);
            w.put(xy[v][1]);
            w.put(uint8_t(f == 0 ? 0 : v == 3 ? 255 : 5));
            w.put(normal[v]);
        }
    }
    return w.bytes;
}

// A two-frame sprite: 8x4 origin (4, 2) "sprites/a.pcx", 2x2 origin (0, 0) "sprites/b.pcx".
inline std::vector<uint8_t> buildSp2(int32_t version = 2) {
    Writer w;
    w.put(uint32_t('I' | ('D' << 8) | ('S' << 16) | (uint32_t('2') << 24)));
    w.put(version);
    w.put(int32_t(2));
    for (int32_t v : {8, 4, 4, 2})
        w.put(v);
    w.putName("sprites/a.pcx", 64);
    for (int32_t v : {2, 2, 0, 0})
        w.put(v);
    w.putName("sprites/b.pcx", 64);
    return w.bytes;
}

// 8-bit PCX: header, RLE data (every byte a run of one), 0x0c and a palette whose entry i is
// (i, 255 - i, 7).
inline std::vector<uint8_t> buildPcx(int w, int h, const std::vector<uint8_t>& indices) {
    std::vector<uint8_t> b(128, 0);
    b[0] = 0x0a;
    b[1] = 5;
    b[2] = 1;
    b[3] = 8;
    b[8] = uint8_t(w - 1);
    b[10] = uint8_t(h - 1);
    b[65] = 1;
    b[66] = uint8_t(w);
    for (uint8_t v : indices) {
        b.push_back(0xc1);
        b.push_back(v);
    }
    b.push_back(0x0c);
    for (int i = 0; i < 256; ++i) {
        b.push_back(uint8_t(i));
        b.push_back(uint8_t(255 - i));
        b.push_back(7);
    }
    return b;
}

} // namespace md2test
