// Quake 1 family lighting: the lighting lump, a .lit or .lux beside the map, and the BSPX
// lighting lumps. The format is in bsp/q1.cpp.
#include "bsp/q1_parser.h"

#include "bsp/bspx.h"

#include <algorithm>
#include <cstring>

namespace bsp::q1 {

namespace {
constexpr int32_t kLitVersion = 1;
constexpr int32_t kLitVersionHdr = 0x10001; // QLIT with E5BGR9 samples (ericw-tools, FTE)

// `count` E5BGR9 samples from `r` at `at`, as RGB8 (decodeE5bgr9).
std::vector<uint8_t> decodeHdr(const core::ByteReader& r, uint64_t at, uint64_t count) {
    std::vector<uint8_t> rgb(size_t(count) * 3);
    for (uint64_t i = 0; i < count; ++i) {
        const auto c = decodeE5bgr9(r.u32(at + i * 4));
        std::copy(c.begin(), c.end(), rgb.begin() + ptrdiff_t(i * 3));
    }
    return rgb;
}
} // namespace

// Lighting as FTE's Mod_LoadLighting picks it: a .lit beside the map (QLIT v1 RGB, or the HDR
// version 0x10001), then BSPX LIGHTING_E5BGR9, then BSPX RGBLIGHTING, then the lump itself;
// each must hold as many samples as the lighting lump (any whole number when it is empty).
// Half-Life's lump is RGB already and its lightofs count bytes.
core::Status Parser::lighting() {
    const core::ByteReader r = lump(kLighting);
    const uint64_t len = r.size();
    const bool hl = variant == Variant::HalfLife;
    lighting_scale = hl ? 1 : 3;
    const uint64_t samples = hl ? len / 3 : len;
    const std::vector<uint8_t>& lit = companions ? companions->lit : std::vector<uint8_t>{};
    if (!hl && !lit.empty() && len > 0) {
        const core::ByteReader lr(lit);
        char magic[4] = {};
        lr.read(0, magic);
        const bool qlit = std::memcmp(magic, "QLIT", 4) == 0;
        if (qlit && lr.i32(4) == kLitVersion && lit.size() == 8 + 3 * len) {
            lighting_rgb.assign(lit.begin() + 8, lit.end());
        } else if (qlit && lr.i32(4) == kLitVersionHdr && lit.size() == 8 + 4 * len) {
            lighting_rgb = decodeHdr(lr, 8, len);
        } else {
            map.warnings.push_back(name + ": .lit file does not match this map (needs QLIT v1 " +
                                   "with " + std::to_string(8 + 3 * len) + " bytes or HDR with " +
                                   std::to_string(8 + 4 * len) + "); using the map's lighting");
        }
    }
    if (lighting_rgb.empty() && !bspxLighting(samples) && len > 0) {
        if (hl) {
            lighting_rgb.assign(r.bytes().begin(), r.bytes().end());
        } else {
            lighting_rgb.resize(size_t(len) * 3);
            const auto b = r.bytes();
            for (size_t i = 0; i < b.size(); ++i)
                lighting_rgb[i * 3] = lighting_rgb[i * 3 + 1] = lighting_rgb[i * 3 + 2] = b[i];
        }
    }
    lightDirections();
    return core::okStatus();
}

// LIGHTING_E5BGR9 or RGBLIGHTING for `samples` samples (0: the lighting lump is empty).
bool Parser::bspxLighting(uint64_t samples) {
    struct Candidate {
        const char* lump;
        uint64_t bytes_per_sample;
    };
    for (const Candidate c : {Candidate{"LIGHTING_E5BGR9", 4}, Candidate{"RGBLIGHTING", 3}}) {
        ExtraLump* x = findExtraLump(map, c.lump);
        if (!x)
            continue;
        const bool fits = samples ? x->length == samples * c.bytes_per_sample
                                  : x->length > 0 && x->length % c.bytes_per_sample == 0;
        if (!fits) {
            map.warnings.push_back(
                name + ": BSPX " + x->name + ": " + std::to_string(x->length) + " bytes, needs " +
                (samples ? std::to_string(samples * c.bytes_per_sample)
                         : "a multiple of " + std::to_string(c.bytes_per_sample)) +
                " (" + std::to_string(c.bytes_per_sample) + " per lighting sample); ignored");
            continue;
        }
        const core::ByteReader xr = file.sub(x->offset, x->length);
        if (c.bytes_per_sample == 4)
            lighting_rgb = decodeHdr(xr, 0, x->length / 4);
        else
            lighting_rgb.assign(xr.bytes().begin(), xr.bytes().end());
        x->used = true;
        return true;
    }
    return false;
}

// Light directions laid out as lighting_rgb: a .lux beside the map (QLIT v1), else BSPX
// LIGHTINGDIR (FTE Mod_LoadLighting looks in the same order).
void Parser::lightDirections() {
    if (lighting_rgb.empty())
        return;
    const uint64_t need = lighting_rgb.size();
    const std::vector<uint8_t>& lux = companions ? companions->lux : std::vector<uint8_t>{};
    if (!lux.empty()) {
        const core::ByteReader lr(lux);
        char magic[4] = {};
        lr.read(0, magic);
        if (std::memcmp(magic, "QLIT", 4) == 0 && lr.i32(4) == kLitVersion &&
            lux.size() == 8 + need) {
            lighting_dirs.assign(lux.begin() + 8, lux.end());
            return;
        }
        map.warnings.push_back(name + ": .lux file does not match this map (needs QLIT v1 with " +
                               std::to_string(8 + need) + " bytes); ignored");
    }
    if (ExtraLump* x = findExtraLump(map, "LIGHTINGDIR")) {
        if (x->length != need) {
            map.warnings.push_back(name + ": BSPX LIGHTINGDIR: " + std::to_string(x->length) +
                                   " bytes, needs " + std::to_string(need) +
                                   " (3 per lighting sample); ignored");
            return;
        }
        const auto b = file.sub(x->offset, x->length).bytes();
        lighting_dirs.assign(b.begin(), b.end());
        x->used = true;
    }
}

} // namespace bsp::q1
