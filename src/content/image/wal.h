// Quake 2 .wal textures (id qfiles.h miptex_t for Quake 2).
//
// Layout: name[32], width, height, offsets[4] (mip levels, from the start of the file),
// animname[32] (next frame), flags, contents, value; 100 bytes of header. Pixels are palette
// indices into the Quake 2 palette, which lives in pics/colormap.pcx. Index 255 is the
// transparent colour (yquake2 treats it so for every 8-bit image).
#pragma once

#include "content/image/palette.h"

#include <string>

namespace content {

struct WalTexture {
    std::string name;
    std::string anim_name;
    int width = 0;
    int height = 0;
    uint32_t flags = 0;
    uint32_t contents = 0;
    uint32_t value = 0;
    std::vector<uint8_t> indices; // mip level 0, width * height
};

// Errors: Truncated (shorter than the header), BadImage (sizes, pixels outside the data).
core::Result<WalTexture> parseWal(std::span<const uint8_t> data);

// Parse and expand through `palette` (from paletteFromPcx of pics/colormap.pcx).
core::Result<PalettedRgba> decodeWal(std::span<const uint8_t> data, const Palette& palette);

} // namespace content
