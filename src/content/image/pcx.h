// ZSoft PCX, 8 bits per pixel, one plane, RLE, with the 256-colour palette at the end (the only
// kind the Quake family uses: Quake 2 pics/colormap.pcx, skies, skins).
//
// Layout: a 128-byte header (manufacturer 0x0a, version, encoding 1, bits per pixel 8,
// xmin, ymin, xmax, ymax, ..., planes 1, bytes per line), RLE data (a byte >= 0xc0 is a
// run of (byte & 0x3f) copies of the next byte), then 0x0c and 768 bytes of palette at the
// very end of the file. Runs may cross scan lines (Quake 2's LoadPCX decodes a continuous
// stream), so the stream is decoded as one and each line's padding dropped.
#pragma once

#include "content/image/palette.h"

namespace content {

struct PcxImage {
    int width = 0;
    int height = 0;
    std::vector<uint8_t> indices; // width * height
    Palette palette;
};

// Errors: BadImage (header, sizes or palette marker wrong), Truncated (pixel data ends early).
// Sides are limited to kMaxPalettedDimension. Safe on untrusted input.
core::Result<PcxImage> decodePcx(std::span<const uint8_t> data);

// The PCX's own palette only (Quake 2 takes its palette from pics/colormap.pcx).
core::Result<Palette> paletteFromPcx(std::span<const uint8_t> data);

// Indices through the image's palette, fully opaque.
core::Result<PalettedRgba> pcxToRgba(const PcxImage& image);

} // namespace content
