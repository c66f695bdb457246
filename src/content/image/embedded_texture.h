// Map::embedded_textures -> RGBA: the glue the texture loader calls for Quake 1 and Half-Life
// materials whose pixels live in the BSP (Material::embedded >= 0).
#pragma once

#include "bsp/map.h"
#include "content/image/miptex.h"

namespace content {

// Quake 1 textures (no palette of their own) go through `quake_palette` and report their
// fullbright texels; Half-Life textures use their own palette (fullbright stays empty).
// '{' names are cut out (index 255 / last palette entry). `table`: a Half-Life palette's table
// (decodeHalfLifeMiptex). Errors: NotFound when the material has no embedded pixels, BadImage
// when the stored texture is inconsistent.
core::Result<QuakeTexture>
decodeEmbeddedTexture(const bsp::Map& map, const bsp::Material& material,
                      const Palette& quake_palette = defaultQuakePalette(),
                      const ByteTable* table = nullptr);

} // namespace content
