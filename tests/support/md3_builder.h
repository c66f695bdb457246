// A hand-made Quake 3 .md3 for the decoder tests (layout in content/model/md3.h). Every value is
// chosen so the expected positions, normals and tags can be computed by hand.
#pragma once

#include "support/q2_builder.h" // q2test::Writer

#include <cstdint>
#include <vector>

namespace md3test {

using q2test::Writer;

// Two frames ("idle0", "idle1"), one tag, two surfaces:
//   surface 0 "body": shader "models/test/body", 3 vertices, triangle (0, 1, 2);
//     frame 0 xyz (64, 0, 0) (0, 128, -64) (32, 32, 32): positions (1, 0, 0) (0, 2, -1)
//     (0.5, 0.5, 0.5); frame 1 the same with z + 64 (z + 1 unit);
//     normals lat/long (0, 64) (64, 64) (0, 0): (1, 0, 0) (0, 1, 0) (0, 0, 1);
//     st (0, 0) (1, 0) (0.5, 1).
//   surface 1 "flag": shaders "models/test/flag" and "models/test/flag2", 4 vertices, triangles
//     (0, 1, 2) (0, 2, 3); both frames a square (-64, -64, 0) (64, -64, 0) (64, 64, 0)
//     (-64, 64, 0) (+-1 unit), normals (0, 0) up; st the corners (0, 0) (2, 0) (2, 2) (0, 2).
//   tag "tag_weapon": frame 0 origin (1, 2, 3), axis identity; frame 1 origin (4, 5, 6),
//     axis rows (0, 1, 0) (-1, 0, 0) (0, 0, 1) (a quarter turn about z).
struct Md3Options {
    int32_t version = 15;
    int32_t surface_frames = 2; // surface 1's numFrames
    int32_t triangle_index = 3; // surface 1's last triangle index
    int32_t num_surfaces = 2;
    int32_t surface_end_override = -1; // when >= 0, surface 0's ofsEnd
};

inline std::vector<uint8_t> buildMd3Surface(const char* name, std::vector<const char*> shaders,
                                            const std::vector<int32_t>& tris,
                                            const std::vector<std::array<int16_t, 4>>& xyz,
                                            const std::vector<std::array<float, 2>>& st,
                                            int32_t frames, int32_t end_override) {
    const int32_t verts = int32_t(st.size());
    const int32_t ofs_shaders = 108;
    const int32_t ofs_tris = ofs_shaders + int32_t(shaders.size()) * 68;
    const int32_t ofs_st = ofs_tris + int32_t(tris.size()) * 4;
    const int32_t ofs_xyz = ofs_st + verts * 8;
    const int32_t end = ofs_xyz + int32_t(xyz.size()) * 8;
    Writer w;
    w.put(uint32_t('I' | ('D' << 8) | ('P' << 16) | (uint32_t('3') << 24)));
    w.putName(name, 64);
    w.put(int32_t(0)); // flags
    w.put(frames);
    w.put(int32_t(shaders.size()));
    w.put(verts);
    w.put(int32_t(tris.size() / 3));
    for (int32_t v :
         {ofs_tris, ofs_shaders, ofs_st, ofs_xyz, end_override >= 0 ? end_override : end})
        w.put(v);
    for (size_t i = 0; i < shaders.size(); ++i) {
        w.putName(shaders[i], 64);
        w.put(int32_t(i));
    }
    for (int32_t t : tris)
        w.put(t);
    for (const auto& s : st)
        w.put(s);
    for (const auto& x : xyz)
        w.put(x);
    return w.bytes;
}

inline std::vector<uint8_t> buildMd3(const Md3Options& o = {}) {
    constexpr int32_t kFrames = 2, kTags = 1;
    const int32_t ofs_frames = 108, ofs_tags = ofs_frames + kFrames * 56;
    const int32_t ofs_surfaces = ofs_tags + kFrames * kTags * 112;
    const int16_t up = 0; // lat 0, long 0
    std::vector<std::array<int16_t, 4>> body_xyz;
    for (int16_t dz : {int16_t(0), int16_t(64)}) {
        body_xyz.push_back({64, 0, int16_t(0 + dz), int16_t(64)});
        body_xyz.push_back({0, 128, int16_t(-64 + dz), int16_t((64 << 8) | 64)});
        body_xyz.push_back({32, 32, int16_t(32 + dz), up});
    }
    std::vector<std::array<int16_t, 4>> flag_xyz;
    for (int f = 0; f < 2; ++f)
        for (auto [x, y] : {std::pair{-64, -64}, {64, -64}, {64, 64}, {-64, 64}})
            flag_xyz.push_back({int16_t(x), int16_t(y), 0, up});
    const auto body = buildMd3Surface("body", {"models/test/body"}, {0, 1, 2}, body_xyz,
                                      {{0, 0}, {1, 0}, {0.5f, 1}}, kFrames, o.surface_end_override);
    const auto flag = buildMd3Surface("flag", {"models/test/flag", "models/test/flag2"},
                                      {0, 1, 2, 0, 2, o.triangle_index}, flag_xyz,
                                      {{0, 0}, {2, 0}, {2, 2}, {0, 2}}, o.surface_frames, -1);
    Writer w;
    w.put(uint32_t('I' | ('D' << 8) | ('P' << 16) | (uint32_t('3') << 24)));
    w.put(o.version);
    w.putName("models/test/thing.md3", 64);
    w.put(int32_t(0)); // flags
    w.put(kFrames);
    w.put(kTags);
    w.put(o.num_surfaces);
    w.put(int32_t(0)); // skins
    const int32_t end = ofs_surfaces + int32_t(body.size() + flag.size());
    for (int32_t v : {ofs_frames, ofs_tags, ofs_surfaces, end})
        w.put(v);
    for (int f = 0; f < kFrames; ++f) {
        const float z = float(f);
        for (float v : {-1.0f, -1.0f, -1.0f + z, 1.0f, 2.0f, 1.5f + z, 0.0f, 0.0f, z, 2.5f})
            w.put(v); // mins, maxs, local origin, radius
        w.putName(f == 0 ? "idle0" : "idle1", 16);
    }
    const float axes[2][9] = {{1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 1, 0, -1, 0, 0, 0, 0, 1}};
    const float origins[2][3] = {{1, 2, 3}, {4, 5, 6}};
    for (int f = 0; f < kFrames; ++f) {
        w.putName("tag_weapon", 64);
        for (float v : origins[f])
            w.put(v);
        for (float v : axes[f])
            w.put(v);
    }
    w.bytes.insert(w.bytes.end(), body.begin(), body.end());
    w.bytes.insert(w.bytes.end(), flag.begin(), flag.end());
    return w.bytes;
}

} // namespace md3test
