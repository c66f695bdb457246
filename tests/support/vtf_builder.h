// VTF files written in code for the tests: a header of any version 7.0-7.5 (with its resource
// entries from 7.3) followed by the payload the test spells out, and a solid-colour texture.
// The field offsets are VTFFileHeader_t's (Source SDK 2013 public/vtf/vtf.h), as
// content/image/vtf.cpp reads them.
#pragma once

#include "content/image/vtf.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

namespace testsupport {

// A VTF header of `minor` (7.0-7.2 without resources; 7.3+ with `resources` entries). The header
// is 80 bytes for 7.2 (as vtex writes it), 64 for 7.0/7.1, and 80 + 8 * resources for 7.3+.
struct VtfSpec {
    uint32_t minor = 2;
    uint16_t width = 1, height = 1, frames = 1, first_frame = 0, depth = 1;
    uint32_t flags = 0;
    content::VtfFormat format = content::VtfFormat::RGBA8888;
    uint8_t mips = 1;
    int32_t low_format = -1; // no thumbnail
    uint8_t low_w = 0, low_h = 0;
    std::vector<std::array<uint8_t, 8>> resources; // tag[3], flags, offset (7.3+)
};

template <class T> void putLe(std::vector<uint8_t>& b, size_t at, T v) {
    std::memcpy(b.data() + at, &v, sizeof v);
}

// The header of `s`, then `payload` (the image data, smallest mip first, as the file stores it).
inline std::vector<uint8_t> makeVtf(const VtfSpec& s, const std::vector<uint8_t>& payload) {
    const uint32_t header = s.minor >= 3   ? 80 + 8 * uint32_t(s.resources.size())
                            : s.minor == 2 ? 80
                                           : 64;
    std::vector<uint8_t> b(header, 0);
    std::memcpy(b.data(), "VTF", 4);
    putLe<uint32_t>(b, 4, 7);
    putLe<uint32_t>(b, 8, s.minor);
    putLe<uint32_t>(b, 12, header);
    putLe<uint16_t>(b, 16, s.width);
    putLe<uint16_t>(b, 18, s.height);
    putLe<uint32_t>(b, 20, s.flags);
    putLe<uint16_t>(b, 24, s.frames);
    putLe<uint16_t>(b, 26, s.first_frame);
    putLe<int32_t>(b, 52, int32_t(s.format));
    putLe<uint8_t>(b, 56, s.mips);
    putLe<int32_t>(b, 57, s.low_format);
    putLe<uint8_t>(b, 61, s.low_w);
    putLe<uint8_t>(b, 62, s.low_h);
    if (s.minor >= 2)
        putLe<uint16_t>(b, 63, s.depth);
    if (s.minor >= 3) {
        putLe<uint32_t>(b, 68, uint32_t(s.resources.size()));
        for (size_t i = 0; i < s.resources.size(); ++i)
            std::memcpy(b.data() + 80 + 8 * i, s.resources[i].data(), 8);
    }
    b.insert(b.end(), payload.begin(), payload.end());
    return b;
}

// A 4x4 BGRA8888 VTF 7.2 of one mip, every texel (r, g, b, 255).
inline std::vector<uint8_t> solidVtf(uint8_t r, uint8_t g, uint8_t b) {
    VtfSpec s;
    s.width = s.height = 4;
    s.format = content::VtfFormat::BGRA8888;
    std::vector<uint8_t> texels;
    for (int i = 0; i < 16; ++i)
        texels.insert(texels.end(), {b, g, r, 255});
    return makeVtf(s, texels);
}

// A side x side BGRA8888 environment map (ENVMAP flag) of one mip, face k every texel
// (faces[k], 255), in the file's order (right, left, back, front, up, down). Versions before 7.5
// get the seventh face (the sphere map) vtex wrote there, every texel `sphere`; a 7.5 file has
// one resource entry (the high-res data at 88).
inline std::vector<uint8_t> cubeVtf(const std::array<std::array<uint8_t, 3>, 6>& faces,
                                    uint32_t minor = 5, uint16_t side = 2,
                                    std::array<uint8_t, 3> sphere = {255, 0, 255}) {
    VtfSpec s;
    s.minor = minor;
    s.width = s.height = side;
    s.format = content::VtfFormat::BGRA8888;
    s.flags = content::kVtfFlagEnvMap;
    if (minor >= 3)
        s.resources = {{0x30, 0, 0, 0, 88, 0, 0, 0}};
    std::vector<uint8_t> texels;
    const auto face = [&](const std::array<uint8_t, 3>& c) {
        for (int i = 0; i < side * side; ++i)
            texels.insert(texels.end(), {c[2], c[1], c[0], 255});
    };
    for (const auto& c : faces)
        face(c);
    if (minor < 5)
        face(sphere);
    return makeVtf(s, texels);
}

} // namespace testsupport
