// A hand-made Half-Life studio model (layout in content/model/studio.h) for the decoder tests.
// Every value is chosen so the expected positions, normals, texture coordinates and colours can be
// computed by hand:
//   bones: 0 "root" (parent -1, rest position (10, 0, 0), scale 1 on x and pi/2 on z rotation);
//          1 "arm" (parent 0, rest position (0, 8, 0), rotation z pi/2).
//   sequence 0 "idle": 10 fps, 2 frames. Bone 0 x runs 0, 4 (x = 10, 14); its z rotation runs
//          0, 1 (0, then pi/2). Bone 1 does not move.
//   model: vertices (1, 0, 0) bone 0, (0, 0, 2) bone 0, (1, 0, 0) bone 1; normals (0, 0, 1)
//          bone 0, (1, 0, 0) bone 1. One mesh: a strip of four corners (v0 n0 0,0), (v1 n0 4,0),
//          (v2 n1 4,2), (v0 n0 0,2), then a fan of three (the strip's corners 2, 0, 1).
//   textures: 0 "body" 4x2 indices 0..7, palette i -> (i, 2i, 3i); 1 "glow" 2x1 indices 9, 10,
//          palette i -> (100 + i, 0, 0), fullbright. Skins: one reference, family 0 texture 0,
//          family 1 texture 1.
#pragma once

#include "support/q2_builder.h" // q2test::Writer

#include <cmath>
#include <cstdint>
#include <cstring>
#include <numbers>
#include <tuple>
#include <vector>

namespace studiotest {

struct StudioOptions {
    int32_t version = 10;
    int32_t bone1_parent = 0;
    uint16_t last_vertex = 0; // the strip's fourth corner's vertex index
    int32_t body_flags = 0;   // texture 0's flags (kStudio*)
    int32_t glow_flags = 4;   // texture 1's flags (kStudioFullbright)
    uint8_t body_texel7 = 7;  // texture 0's last texel
    // Body groups: part 0 "body" (base 1) holds the model below, then an empty one; part 1
    // "head" (base 2) an empty one, then the model. Body values 0..3 draw 1, 0, 2, 1 copies.
    bool body_groups = false;
    // A second sequence 1 "walk": 5 fps, 1 frame, no animation (the bones' rest values).
    bool walk_sequence = false;
    // Five bone controllers (type, start, end, index): 0 ZR -90..90 index 0, moving bone 1's z
    // rotation; 1 X 0..10 index 1, moving bone 0's x; 2 YR|RLOOP 0..360 index 2; 3 ZR 200..300
    // index 3; 4 Y -4..4 index 4 (the mouth). 2..4 move no bone.
    bool controllers = false;
    int32_t bone0_x_controller = -1; // bone 0's x controller when `controllers` is off
};

inline std::vector<uint8_t> buildStudio(const StudioOptions& o = {}) {
    q2test::Writer w;
    auto here = [&] { return int32_t(w.bytes.size()); };
    auto patch = [&](size_t at, int32_t v) { std::memcpy(w.bytes.data() + at, &v, 4); };
    w.bytes.resize(244, 0);
    std::memcpy(w.bytes.data(), "IDST", 4);
    patch(4, o.version);
    std::memcpy(w.bytes.data() + 8, "test.mdl", 8);
    const float half_pi = std::numbers::pi_v<float> / 2;

    patch(140, 2); // bones
    patch(144, here());
    auto bone = [&](const char* name, int32_t parent, std::array<float, 6> value,
                    std::array<float, 6> scale, std::array<int32_t, 6> controllers) {
        w.putName(name, 32);
        w.put(parent);
        w.put(int32_t(0)); // flags
        for (int32_t c : controllers)
            w.put(c);
        for (float v : value)
            w.put(v);
        for (float s : scale)
            w.put(s);
    };
    const int32_t root_x = o.controllers ? 1 : o.bone0_x_controller;
    bone("root", -1, {10, 0, 0, 0, 0, 0}, {1, 1, 1, 1, 1, half_pi}, {root_x, -1, -1, -1, -1, -1});
    bone("arm", o.bone1_parent, {0, 8, 0, 0, 0, half_pi}, {1, 1, 1, 1, 1, 1},
         {-1, -1, -1, -1, -1, o.controllers ? 0 : -1});
    if (o.controllers) {
        patch(148, 5);
        patch(152, here());
        const std::tuple<int32_t, int32_t, float, float, int32_t> records[] = {
            {1, 0x20, -90, 90, 0},
            {0, 0x01, 0, 10, 1},
            {1, 0x10 | 0x8000, 0, 360, 2},
            {0, 0x20, 200, 300, 3},
            {0, 0x02, -4, 4, 4}};
        for (auto [bone_index, type, start, end, index] : records) {
            w.put(bone_index);
            w.put(type);
            w.put(start);
            w.put(end);
            w.put(int32_t(0)); // rest
            w.put(index);
        }
    }

    patch(172, 1); // sequence groups
    patch(176, here());
    w.putName("default", 32);
    w.putName("", 64);
    w.put(int32_t(0));
    w.put(int32_t(0));

    patch(164, 1); // sequences
    patch(168, here());
    const size_t seq = w.bytes.size();
    w.bytes.resize(seq + 176, 0);
    std::memcpy(w.bytes.data() + seq, "idle", 4);
    const float fps = 10;
    std::memcpy(w.bytes.data() + seq + 32, &fps, 4);
    patch(seq + 56, 2);  // numframes
    patch(seq + 120, 1); // numblends
    patch(seq + 124, here());
    const size_t anim = w.bytes.size();
    w.bytes.resize(anim + 24, 0); // two bones' offsets
    auto run = [&](size_t axis, std::initializer_list<int16_t> values) {
        const uint16_t offset = uint16_t(w.bytes.size() - anim);
        std::memcpy(w.bytes.data() + anim + 2 * axis, &offset, 2);
        w.put(uint8_t(values.size())); // valid
        w.put(uint8_t(values.size())); // total
        for (int16_t v : values)
            w.put(v);
    };
    run(0, {0, 4});
    run(5, {0, 1});

    patch(180, 2); // textures
    patch(184, here());
    const size_t tex = w.bytes.size();
    for (auto [name, flags, width, height] :
         {std::tuple{"body", o.body_flags, 4, 1 * 2}, std::tuple{"glow", o.glow_flags, 2, 1}}) {
        w.putName(name, 64);
        w.put(int32_t(flags));
        w.put(int32_t(width));
        w.put(int32_t(height));
        w.put(int32_t(0)); // index, patched below
    }
    patch(188, here());
    patch(tex + 76, here());
    for (uint8_t i = 0; i < 7; ++i)
        w.put(i);
    w.put(o.body_texel7);
    for (int i = 0; i < 256; ++i)
        for (int c = 1; c <= 3; ++c)
            w.put(uint8_t(i * c));
    patch(tex + 80 + 76, here());
    w.put(uint8_t(9));
    w.put(uint8_t(10));
    for (int i = 0; i < 256; ++i) {
        w.put(uint8_t(100 + i));
        w.put(uint8_t(0));
        w.put(uint8_t(0));
    }

    patch(192, 1); // skin references
    patch(196, 2); // families
    patch(200, here());
    w.put(uint16_t(0));
    w.put(uint16_t(1));

    patch(204, 1); // body parts
    patch(208, here());
    w.putName("body", 64);
    w.put(int32_t(1)); // nummodels
    w.put(int32_t(1)); // base
    w.put(here() + 4); // modelindex: right after
    const size_t model = w.bytes.size();
    w.bytes.resize(model + 112, 0);
    std::memcpy(w.bytes.data() + model, "body0", 5);
    patch(model + 80, 3); // numverts
    patch(model + 88, here());
    for (float v : {1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 2.0f, 1.0f, 0.0f, 0.0f})
        w.put(v);
    patch(model + 84, here());
    for (uint8_t b : {uint8_t(0), uint8_t(0), uint8_t(1)})
        w.put(b);
    patch(model + 92, 2); // numnorms
    patch(model + 100, here());
    for (float v : {0.0f, 0.0f, 1.0f, 1.0f, 0.0f, 0.0f})
        w.put(v);
    patch(model + 96, here());
    w.put(uint8_t(0));
    w.put(uint8_t(1));
    patch(model + 72, 1); // nummesh
    patch(model + 76, here());
    const size_t mesh = w.bytes.size();
    w.bytes.resize(mesh + 20, 0);
    patch(mesh, 3); // numtris
    patch(mesh + 4, here());
    auto corner = [&](uint16_t v, uint16_t n, int16_t s, int16_t t) {
        w.put(v);
        w.put(n);
        w.put(s);
        w.put(t);
    };
    w.put(int16_t(4));
    corner(0, 0, 0, 0);
    corner(1, 0, 4, 0);
    corner(2, 1, 4, 2);
    corner(o.last_vertex, 0, 0, 2);
    w.put(int16_t(-3));
    corner(2, 1, 4, 2);
    corner(0, 0, 0, 0);
    corner(1, 0, 4, 0);
    w.put(int16_t(0));
    if (o.body_groups) {
        const std::vector<uint8_t> full(w.bytes.begin() + std::ptrdiff_t(model),
                                        w.bytes.begin() + std::ptrdiff_t(model + 112));
        std::vector<uint8_t> blank(112, 0);
        std::memcpy(blank.data(), "empty", 5);
        const std::vector<uint8_t> empty = blank;
        const int32_t models_at = here();
        for (const auto* m : {&full, &empty, &empty, &full})
            w.bytes.insert(w.bytes.end(), m->begin(), m->end());
        patch(204, 2);
        patch(208, here());
        for (int32_t p = 0; p < 2; ++p) {
            w.putName(p == 0 ? "body" : "head", 64);
            w.put(int32_t(2));     // nummodels
            w.put(int32_t(p + 1)); // base
            w.put(models_at + p * 2 * 112);
        }
    }
    if (o.walk_sequence) {
        const int32_t walk_anim = here();
        w.bytes.resize(w.bytes.size() + 24, 0); // two bones, every axis at its value
        const std::vector<uint8_t> idle(w.bytes.begin() + std::ptrdiff_t(seq),
                                        w.bytes.begin() + std::ptrdiff_t(seq + 176));
        patch(168, here());
        w.bytes.insert(w.bytes.end(), idle.begin(), idle.end());
        const size_t walk = w.bytes.size();
        w.bytes.resize(walk + 176, 0);
        std::memcpy(w.bytes.data() + walk, "walk", 4);
        const float walk_fps = 5;
        std::memcpy(w.bytes.data() + walk + 32, &walk_fps, 4);
        patch(walk + 56, 1);  // numframes
        patch(walk + 120, 1); // numblends
        patch(walk + 124, walk_anim);
        patch(164, 2);
    }
    patch(72, here()); // length
    return w.bytes;
}

} // namespace studiotest
