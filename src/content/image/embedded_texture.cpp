#include "content/image/embedded_texture.h"

namespace content {

core::Result<QuakeTexture> decodeEmbeddedTexture(const bsp::Map& map, const bsp::Material& material,
                                                 const Palette& quake_palette,
                                                 const ByteTable* table) {
    if (material.embedded < 0 || size_t(material.embedded) >= map.embedded_textures.size())
        return core::makeError(core::ErrorCode::NotFound, "textures", material.embedded,
                               material.name, "no pixels stored in the map");
    const bsp::EmbeddedTexture& tex = map.embedded_textures[size_t(material.embedded)];
    if (tex.palette.empty())
        return decodeQuakeMiptex(material.name, tex.width, tex.height, tex.indices, quake_palette);
    auto palette = parsePalette(tex.palette);
    if (!palette)
        return palette.error();
    auto rgba =
        decodeHalfLifeMiptex(material.name, tex.width, tex.height, tex.indices, *palette, table);
    if (!rgba)
        return rgba.error();
    QuakeTexture out;
    out.colour = std::move(*rgba);
    return out;
}

} // namespace content
