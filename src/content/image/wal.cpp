#include "content/image/wal.h"

#include "core/byte_reader.h"

namespace content {

core::Result<WalTexture> parseWal(std::span<const uint8_t> data) {
    const core::ByteReader r(data);
    if (!r.inRange(0, 100))
        return core::makeError(core::ErrorCode::Truncated, "wal", -1, "header",
                               std::to_string(data.size()) + " bytes, header needs 100");
    WalTexture w;
    w.name = r.fixedString(0, 32);
    const uint32_t width = r.u32(32), height = r.u32(36);
    if (width == 0 || height == 0 || width > uint32_t(kMaxPalettedDimension) ||
        height > uint32_t(kMaxPalettedDimension))
        return core::makeError(core::ErrorCode::BadImage, "wal", -1, "size",
                               std::to_string(width) + "x" + std::to_string(height));
    w.width = int(width);
    w.height = int(height);
    w.anim_name = r.fixedString(56, 32);
    w.flags = r.u32(88);
    w.contents = r.u32(92);
    w.value = r.u32(96);
    const uint32_t ofs = r.u32(40);
    if (!r.readArray(ofs, uint64_t(width) * height, w.indices))
        return core::makeError(core::ErrorCode::BadImage, "wal", -1, "offsets[0]",
                               "pixels at " + std::to_string(ofs) + " outside " +
                                   std::to_string(data.size()) + " bytes");
    return w;
}

core::Result<PalettedRgba> decodeWal(std::span<const uint8_t> data, const Palette& palette) {
    auto w = parseWal(data);
    if (!w)
        return w.error();
    PalettedOptions opt;
    opt.index255_transparent = true;
    return expandPaletted(w->width, w->height, w->indices, palette, opt);
}

} // namespace content
