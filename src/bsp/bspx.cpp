#include "bsp/bspx.h"

#include <algorithm>
#include <cmath>

namespace bsp {

namespace {

std::string sizeWarning(std::string_view name, const ExtraLump& lump, const std::string& needs) {
    return std::string(name) + ": BSPX " + lump.name + ": " + std::to_string(lump.length) +
           " bytes, needs " + needs + "; ignored";
}

// The lump called `lump_name` when its length is a positive multiple of `per_face` * faces
// (slots per face returned in `slots`; `exact` allows one slot only); else nullptr, with a
// warning when the lump exists.
const ExtraLump* perFaceLump(Map& map, std::string_view lump_name, uint64_t face_count,
                             uint64_t per_face, bool exact, uint64_t* slots,
                             std::string_view name) {
    ExtraLump* lump = findExtraLump(map, lump_name);
    if (!lump)
        return nullptr;
    const uint64_t record = face_count * per_face;
    const bool ok = record > 0 && lump->length > 0 && lump->length % record == 0 &&
                    (!exact || lump->length == record);
    if (!ok) {
        map.warnings.push_back(sizeWarning(
            name, *lump,
            (exact ? "" : "a multiple of ") + std::to_string(record) + " (" +
                std::to_string(per_face) + " per face, " + std::to_string(face_count) + " faces)"));
        return nullptr;
    }
    if (slots)
        *slots = lump->length / record;
    lump->used = true;
    return lump;
}

void readStyles(const core::ByteReader& r, uint64_t face_count, uint64_t slots, bool wide,
                BspxFaceLighting& out, uint64_t* folded) {
    out.styles.assign(face_count, {kNoStyle, kNoStyle, kNoStyle, kNoStyle});
    const uint64_t used = std::min<uint64_t>(slots, kMaxLightStyles);
    for (uint64_t f = 0; f < face_count; ++f)
        for (uint64_t k = 0; k < used; ++k) {
            const uint64_t at = f * slots + k;
            if (wide) {
                const uint16_t s = r.u16(at * 2);
                out.styles[f][k] = foldStyle16(s);
                *folded += (s >= kNoStyle && s != 0xffff) ? 1 : 0;
            } else {
                out.styles[f][k] = r.u8(at);
            }
        }
}

} // namespace

ExtraLump* findExtraLump(Map& map, std::string_view name) {
    for (ExtraLump& x : map.extra_lumps)
        if (x.name == name)
            return &x;
    return nullptr;
}

std::array<uint8_t, 3> decodeE5bgr9(uint32_t packed) {
    const int exponent = static_cast<int>(packed >> 27) - 17;
    std::array<uint8_t, 3> out{};
    for (int c = 0; c < 3; ++c) {
        const double v = std::ldexp(double((packed >> (9 * c)) & 0x1ffu), exponent);
        out[size_t(c)] = static_cast<uint8_t>(std::min(255.0, std::floor(v + 0.5)));
    }
    return out;
}

uint8_t foldStyle16(uint16_t style) {
    if (style == 0xffff)
        return kNoStyle;
    if (style < kNoStyle)
        return static_cast<uint8_t>(style);
    return static_cast<uint8_t>(64 + style % 64);
}

BspxFaceLighting readBspxFaceLighting(const core::ByteReader& file, Map& map, uint64_t face_count,
                                      std::string_view name) {
    BspxFaceLighting out;
    const auto reader = [&](const ExtraLump* x) { return file.sub(x->offset, x->length); };

    // Styles (LMSTYLE16 first, as FTE), usable with either grid.
    uint64_t slots = 0;
    if (const ExtraLump* x = perFaceLump(map, "LMSTYLE16", face_count, 2, false, &slots, name)) {
        uint64_t folded = 0;
        readStyles(reader(x), face_count, slots, true, out, &folded);
        if (folded)
            map.warnings.push_back(std::string(name) +
                                   ": BSPX LMSTYLE16: " + std::to_string(folded) +
                                   " styles above 254 are drawn with the slot of style % 64");
    } else if (const ExtraLump* y =
                   perFaceLump(map, "LMSTYLE", face_count, 1, false, &slots, name)) {
        readStyles(reader(y), face_count, slots, false, out, nullptr);
    }
    if (!out.styles.empty() && slots > uint64_t(kMaxLightStyles))
        map.warnings.push_back(std::string(name) + ": BSPX styles: " + std::to_string(slots) +
                               " per face, only the first " + std::to_string(kMaxLightStyles) +
                               " are drawn");

    // DECOUPLED_LM replaces LMSHIFT and LMOFFSET.
    if (const ExtraLump* x =
            perFaceLump(map, "DECOUPLED_LM", face_count, 40, true, nullptr, name)) {
        const core::ByteReader r = reader(x);
        out.decoupled.resize(face_count);
        for (uint64_t f = 0; f < face_count; ++f) {
            DecoupledLightmap& d = out.decoupled[f];
            const uint64_t at = f * 40;
            d.width = r.u16(at);
            d.height = r.u16(at + 2);
            d.offset = r.i32(at + 4);
            r.read(at + 8, d.world_to_luxel.s);
            r.read(at + 24, d.world_to_luxel.t);
        }
        for (const char* unused : {"LMSHIFT", "LMOFFSET"})
            if (findExtraLump(map, unused))
                map.warnings.push_back(std::string(name) + ": BSPX " + unused +
                                       ": not used, DECOUPLED_LM gives every face its lightmap");
        return out;
    }
    const ExtraLump* shifts = perFaceLump(map, "LMSHIFT", face_count, 1, true, nullptr, name);
    if (shifts) {
        const auto b = reader(shifts).bytes();
        out.shifts.assign(b.begin(), b.end());
    }
    if (const ExtraLump* x = perFaceLump(map, "LMOFFSET", face_count, 4, true, nullptr, name))
        reader(x).readArray(0, face_count, out.offsets);
    // FTE Mod_LoadLighting: an LMSHIFT lump of the wrong size takes the offsets and styles with
    // it (they describe the grids LMSHIFT gives).
    if (!shifts && findExtraLump(map, "LMSHIFT") && (!out.offsets.empty() || !out.styles.empty())) {
        for (ExtraLump& x : map.extra_lumps)
            if (x.name == "LMOFFSET" || x.name == "LMSTYLE" || x.name == "LMSTYLE16")
                x.used = false;
        out.offsets.clear();
        out.styles.clear();
        map.warnings.push_back(std::string(name) +
                               ": BSPX LMOFFSET and LMSTYLE ignored with the broken LMSHIFT");
    }
    return out;
}

} // namespace bsp
