#include "content/image/miptex.h"

#include "core/byte_reader.h"

namespace content {

core::Result<Miptex> parseMiptex(std::span<const uint8_t> data, bool with_palette) {
    const core::ByteReader r(data);
    if (!r.inRange(0, 40))
        return core::makeError(core::ErrorCode::BadImage, "miptex", -1, {},
                               "record shorter than its 40-byte header");
    Miptex m;
    m.name = r.fixedString(0, 16);
    const uint32_t w = r.u32(16), h = r.u32(20);
    if (w == 0 || h == 0 || w > uint32_t(kMaxPalettedDimension) ||
        h > uint32_t(kMaxPalettedDimension))
        return core::makeError(core::ErrorCode::BadImage, "miptex", -1, "size",
                               std::to_string(w) + "x" + std::to_string(h));
    m.width = int(w);
    m.height = int(h);
    const uint32_t ofs0 = r.u32(24), ofs3 = r.u32(36);
    if (ofs0 == 0 || !r.readArray(ofs0, uint64_t(w) * h, m.indices))
        return core::makeError(core::ErrorCode::BadImage, "miptex", -1, "offsets[0]",
                               "pixels at " + std::to_string(ofs0) + " outside " +
                                   std::to_string(data.size()) + " bytes");
    if (with_palette) {
        const uint64_t count_at = uint64_t(ofs3) + uint64_t(w / 8) * (h / 8);
        const uint16_t count = r.u16(count_at);
        std::vector<uint8_t> pal;
        if (!r.inRange(count_at, 2) || count == 0 || count > 256 ||
            !r.readArray(count_at + 2, uint64_t(count) * 3, pal))
            return core::makeError(core::ErrorCode::BadImage, "miptex", -1, "palette",
                                   "palette outside the record");
        pal.resize(kPaletteBytes, 0);
        m.palette = *parsePalette(pal);
    }
    return m;
}

core::Result<QuakeTexture> decodeQuakeMiptex(std::string_view name, int width, int height,
                                             std::span<const uint8_t> indices,
                                             const Palette& palette) {
    PalettedOptions opt;
    opt.index255_transparent = !name.empty() && name[0] == '{';
    auto colour = expandPaletted(width, height, indices, palette, opt);
    if (!colour)
        return colour.error();
    QuakeTexture out;
    out.colour = std::move(*colour);
    const size_t n = size_t(width) * size_t(height);
    out.fullbright.assign(n, 0);
    for (size_t i = 0; i < n; ++i)
        if (indices[i] >= kFirstFullbright && indices[i] <= kLastFullbright) {
            out.fullbright[i] = 255;
            out.has_fullbright = true;
        }
    return out;
}

core::Result<PalettedRgba> decodeHalfLifeMiptex(std::string_view name, int width, int height,
                                                std::span<const uint8_t> indices,
                                                const Palette& palette, const ByteTable* table) {
    PalettedOptions opt;
    opt.index255_transparent = !name.empty() && name[0] == '{';
    if (table && !opt.index255_transparent)
        return expandPaletted(width, height, indices, throughTable(palette, *table), opt);
    return expandPaletted(width, height, indices, palette, opt);
}

} // namespace content
