// Quake 1 / Half-Life miptex: parsing a miptex record (from a WAD lump) and decoding its mip
// level 0 to RGBA.
//
// Layout (Quake bspfile.h miptex_t; Half-Life adds a palette): name[16], width, height,
// offsets[4] (relative to the record; 0 means "pixels stored elsewhere"), the four mip
// levels, and for Half-Life a 16-bit colour count followed by count * 3 bytes of RGB.
//
// Transparency: names starting with '{' are cut-out textures; Quake uses palette index 255,
// Half-Life the last palette entry (also index 255) as the transparent colour.
#pragma once

#include "content/image/palette.h"

#include <optional>
#include <string>

namespace content {

struct Miptex {
    std::string name;
    int width = 0;
    int height = 0;
    std::vector<uint8_t> indices;   // width * height, mip level 0
    std::optional<Palette> palette; // Half-Life: the texture's own palette
};

// Parses one miptex record. `with_palette` reads the Half-Life palette after mip level 3.
// Errors: BadImage (sizes, offsets or palette outside the data). Safe on untrusted input.
core::Result<Miptex> parseMiptex(std::span<const uint8_t> data, bool with_palette);

// Quake 1: colour through `palette`; '{' names make index 255 transparent. fullbright is
// width * height bytes, 255 where the index is in the fullbright range (224..254), so the
// renderer can add those texels unlit; has_fullbright says whether any texel is.
struct QuakeTexture {
    PalettedRgba colour;
    std::vector<uint8_t> fullbright;
    bool has_fullbright = false;
};
core::Result<QuakeTexture> decodeQuakeMiptex(std::string_view name, int width, int height,
                                             std::span<const uint8_t> indices,
                                             const Palette& palette = defaultQuakePalette());

// Half-Life: colour through the texture's own palette; '{' names make the last entry
// transparent. `table` (the game's texgammatable, game::MaterialSource::palette_table), when
// given, maps each palette byte first, except for '{' names: Xash3D FWGS
// engine/common/imagelib/img_wad.c Image_LoadMIP loads Half-Life mips with LUMP_TEXGAMMA and
// cut-outs with LUMP_MASKED, which img_utils.c Image_SetPalette copies as stored.
core::Result<PalettedRgba> decodeHalfLifeMiptex(std::string_view name, int width, int height,
                                                std::span<const uint8_t> indices,
                                                const Palette& palette,
                                                const ByteTable* table = nullptr);

} // namespace content
