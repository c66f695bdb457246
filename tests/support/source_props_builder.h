// Hand-made Source prop lumps and static prop lighting files for the tests: "sprp" records of
// every version laid out from Source SDK 2013 public/gamebspfile.h and bsp_tool's branch tables
// (not from bspview's reader), and a .vhv (public/materialsystem/hardwareverts.h).
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace srcprops {

using Bytes = std::vector<uint8_t>;

template <class T> void put(Bytes& b, T v) {
    const size_t at = b.size();
    b.resize(at + sizeof(T));
    std::memcpy(b.data() + at, &v, sizeof(T));
}

inline void putName(Bytes& b, const std::string& s) {
    const size_t at = b.size();
    b.resize(at + 128, 0);
    std::memcpy(b.data() + at, s.data(), s.size());
}

// Record size of each version's layout (gamebspfile.h StaticPropLumpV4_t 56, V5 60, V6 64;
// Left 4 Dead 7 and 8 68, 9 72; Global Offensive's 10 76; 11 and Strata's 12 80; Strata's 13
// 88; SDK 2013's StaticPropLump_t 72, written as version 10).
inline size_t recordBytes(uint16_t version, bool sdk2013) {
    if (sdk2013)
        return 72;
    switch (version) {
    case 4:
        return 56;
    case 5:
        return 60;
    case 6:
        return 64;
    case 7:
    case 8:
        return 68;
    case 9:
        return 72;
    case 10:
        return 76;
    case 11:
    case 12:
        return 80;
    default:
        return 88;
    }
}

// Prop k: origin (k, 2k, 3k), angles (0, 90k, 0), model k % 2, first leaf k, one leaf, solid 6,
// flags 8 (ignore normals), skin k + 1, fade 100..200, lighting origin (1, 2, 3), and the
// version's extra fields: fade scale 0.5, dx levels (80, 95), CPU/GPU levels (1, 2, 3, 4),
// diffuse modulation (10, 20, 30, 40), FlagsEx 0x77, scale 2 (or (2, 3, 4)).
inline Bytes sprpLump(uint16_t version, uint32_t props, bool sdk2013 = false) {
    Bytes b;
    put<int32_t>(b, 2);
    putName(b, "models/a.mdl");
    putName(b, "models/b.mdl");
    put<int32_t>(b, int32_t(props));
    for (uint32_t k = 0; k < props; ++k) {
        if (version >= 12)
            put<uint32_t>(b, 100 + k);
        else
            put<uint16_t>(b, uint16_t(100 + k));
    }
    put<int32_t>(b, int32_t(props));
    for (uint32_t k = 0; k < props; ++k) {
        const size_t start = b.size();
        for (float f : {float(k), 2.0f * float(k), 3.0f * float(k), 0.0f, 90.0f * float(k), 0.0f})
            put<float>(b, f);
        put<uint16_t>(b, uint16_t(k % 2));
        put<uint16_t>(b, uint16_t(k));
        put<uint16_t>(b, 1);
        put<uint8_t>(b, 6);
        put<uint8_t>(b, sdk2013 ? 0xEE : 8); // SDK 2013: padding, the flags are at 64
        put<int32_t>(b, int32_t(k) + 1);
        for (float f : {100.0f, 200.0f, 1.0f, 2.0f, 3.0f})
            put<float>(b, f);
        if (version >= 5)
            put<float>(b, 0.5f);
        if (sdk2013 || version == 6 || version == 7) {
            put<uint16_t>(b, 80);
            put<uint16_t>(b, 95);
        } else if (version >= 8) {
            for (uint8_t v : {1, 2, 3, 4})
                put<uint8_t>(b, v);
        }
        if (sdk2013) {
            put<uint32_t>(b, 8);
            put<uint16_t>(b, 32);
            put<uint16_t>(b, 16);
        } else if (version >= 7) {
            for (uint8_t v : {10, 20, 30, 40})
                put<uint8_t>(b, v);
        }
        if (!sdk2013 && (version == 9 || version == 10 || version == 13))
            put<uint32_t>(b, 1); // DisableX360
        if (!sdk2013 && version >= 10)
            put<uint32_t>(b, 0x77);
        if (!sdk2013 && (version == 11 || version == 12)) {
            put<float>(b, 2.0f);
            put<uint32_t>(b, 0);
        }
        if (!sdk2013 && version == 13)
            for (float f : {2.0f, 3.0f, 4.0f})
                put<float>(b, f);
        EXPECT_EQ(b.size() - start, recordBytes(version, sdk2013)) << version;
    }
    return b;
}

// A .vhv of two meshes (LOD 0: 3 vertices, LOD 1: 2) with 4-byte vertices in b, g, r, a order
// at 512 and 524: vertex k of the file holds bytes (4k, 4k + 1, 4k + 2, 4k + 3), so its colour
// is r = 4k + 2, g = 4k + 1, b = 4k, a = 4k + 3.
inline Bytes vhvFile(uint32_t checksum = 1234) {
    Bytes b;
    for (uint32_t v : {2u, checksum, 2u, 4u, 5u, 2u, 0u, 0u, 0u, 0u})
        put<uint32_t>(b, v);
    for (uint32_t v : {0u, 3u, 512u, 0u, 0u, 0u, 0u, 1u, 2u, 524u, 0u, 0u, 0u, 0u})
        put<uint32_t>(b, v);
    b.resize(512, 0);
    for (uint8_t k = 0; k < 20; ++k)
        b.push_back(k);
    return b;
}

} // namespace srcprops
