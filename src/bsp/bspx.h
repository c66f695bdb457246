// BSPX extension lumps of the Quake 1 family that change how faces are lit, read for q1.cpp.
//
// Layouts as ericw-tools writes them (light/light.cc, light/write.cc, include/common/
// bspxfile.hh) and as QuakeSpasm-Spiked and FTE read them (Mod_LoadFaces, Mod_LoadLighting);
// docs/fidelity.md ("BSPX lighting") cites each rule:
//   LMSHIFT          u8 per face: the face's luxels are 1 << shift texels apart (4: 16).
//   LMOFFSET         i32 per face: replaces the face's lightofs (-1: no samples).
//   LMSTYLE          u8 per face and style slot (lump size / faces slots): replaces its styles.
//   LMSTYLE16        the same as u16 (65535: none); preferred over LMSTYLE.
//   DECOUPLED_LM     40 bytes per face: u16 width, u16 height, i32 offset, then two rows of
//                    four floats taking a world position to luxel coordinates. Replaces the
//                    face's grid, lightofs and lightmap coordinates (LMSHIFT and LMOFFSET
//                    are then not used); styles still come from the face or LMSTYLE*.
//   LIGHTING_E5BGR9  u32 per sample: shared-exponent HDR light (see decodeE5bgr9).
//   LIGHTINGDIR      3 bytes per sample: light directions laid out as RGB lighting.
// A lump of the wrong size is left out with a warning naming it; the map loads without it.
#pragma once

#include "bsp/edge_faces.h"
#include "bsp/map.h"
#include "core/byte_reader.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bsp {

// The first BSPX lump called `name`, or nullptr.
ExtraLump* findExtraLump(Map& map, std::string_view name);

// One LIGHTING_E5BGR9 sample as an 8-bit luxel. Bits 0-8 red, 9-17 green, 18-26 blue
// mantissas, 27-31 the exponent e: a channel is m * 2^(e - 24) (ericw-tools HDR_UnpackE5BRG9),
// where 1.0 is the 8-bit luxel 128 (ericw-tools write.cc HDR_ONE; FTE's RelightSetup turns a
// luxel l into exponent 17, l * 2^-7). So a channel is m * 2^(e - 17), rounded to nearest and
// saturated at 255.
std::array<uint8_t, 3> decodeE5bgr9(uint32_t packed);

// One DECOUPLED_LM record.
struct DecoupledLightmap {
    uint16_t width = 0, height = 0; // luxels
    int32_t offset = -1;            // samples, as lightofs
    TexAxes world_to_luxel;         // luxel (i, j) sits at coordinates (i, j)
};

// Per-face overrides, each empty when its lump is absent or left out.
struct BspxFaceLighting {
    std::vector<uint8_t> shifts;
    std::vector<int32_t> offsets;
    std::vector<std::array<uint8_t, kMaxLightStyles>> styles; // folded as foldStyle16 says
    std::vector<DecoupledLightmap> decoupled;
};

// The common model's styles are 8-bit with 255 for "none", and the renderer draws style s with
// the value of slot s & 63: a 16-bit style at or above 255 becomes 64 + s % 64 (the same slot,
// not "none"); 65535 is none.
uint8_t foldStyle16(uint16_t style);

// Reads the overrides of `face_count` faces from map.extra_lumps (found in `file`), marking the
// lumps it takes as used and appending a warning that starts with `name` for each one left out.
BspxFaceLighting readBspxFaceLighting(const core::ByteReader& file, Map& map, uint64_t face_count,
                                      std::string_view name);

} // namespace bsp
