// 256-colour palettes and paletted (8-bit) pixel conversion for the Quake 1, Half-Life and
// Quake 2 texture formats.
//
// Decoders here return plain RGBA8 (PalettedRgba, same fields as content::Image so the texture
// loader can move the pixels over) and never see GL. All of them are safe on untrusted input:
// sizes are checked against the data and against kMaxPalettedDimension before allocating.
#pragma once

#include "core/result.h"

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace content {

inline constexpr size_t kPaletteBytes = 768;
// Largest side accepted for 8-bit textures (Quake-family textures are at most 2048).
inline constexpr int kMaxPalettedDimension = 8192;

struct Palette {
    std::array<uint8_t, kPaletteBytes> rgb{}; // 256 RGB triples
};

// Rows top to bottom, RGBA8, rgba.size() == width * height * 4.
struct PalettedRgba {
    int width = 0;
    int height = 0;
    std::vector<uint8_t> rgba;
};

// The built-in Quake palette: LibreQuake's gfx/palette.lmp (BSD-3-Clause, LibreQuake
// contributors; same layout and colour ramps as Quake's, index 255 = 159,91,83).
const Palette& defaultQuakePalette();

// A raw 768-byte palette (Quake gfx/palette.lmp, Half-Life miptex palette, the tail of a PCX).
// Longer input uses its first 768 bytes; shorter input is BadImage.
core::Result<Palette> parsePalette(std::span<const uint8_t> data);

// A table each colour byte of a palette goes through (game::PaletteTable: Half-Life's
// texgammatable).
using ByteTable = std::array<uint8_t, 256>;
// `palette` with every byte r, g, b replaced by table[byte].
Palette throughTable(const Palette& palette, const ByteTable& table);

// How index 255 and the Quake fullbright range are treated.
struct PalettedOptions {
    bool index255_transparent = false; // '{' textures (Q1 and HL), Quake 2 images
};

// width * height indices -> RGBA through the palette. BadImage when indices is shorter than
// width * height or a side is outside 1..kMaxPalettedDimension.
core::Result<PalettedRgba> expandPaletted(int width, int height, std::span<const uint8_t> indices,
                                          const Palette& palette, PalettedOptions options = {});

// Quake 1 fullbright texels: indices 224..254 ignore lighting (quakespasm treats the range as
// fullbright; 255 is left out because it is the transparent index of '{' textures).
inline constexpr uint8_t kFirstFullbright = 224;
inline constexpr uint8_t kLastFullbright = 254;

} // namespace content
