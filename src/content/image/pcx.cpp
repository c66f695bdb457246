#include "content/image/pcx.h"

#include "core/byte_reader.h"

#include <algorithm>
#include <string>

namespace content {

namespace {
core::Error pcxError(core::ErrorCode code, std::string field, std::string detail) {
    return core::makeError(code, "pcx", -1, std::move(field), std::move(detail));
}

core::Status checkHeader(const core::ByteReader& r) {
    if (r.size() < 128 + 769)
        return pcxError(core::ErrorCode::BadImage, "header",
                        std::to_string(r.size()) + " bytes: too short for header and palette");
    if (r.u8(0) != 0x0a || r.u8(2) != 1 || r.u8(3) != 8 || r.u8(65) != 1)
        return pcxError(core::ErrorCode::BadImage, "header",
                        "only 8-bit, single-plane, RLE PCX files are supported");
    if (r.u8(r.size() - 769) != 0x0c)
        return pcxError(core::ErrorCode::BadImage, "palette", "no 256-colour palette marker");
    return core::okStatus();
}
} // namespace

core::Result<Palette> paletteFromPcx(std::span<const uint8_t> data) {
    const core::ByteReader r(data);
    if (auto s = checkHeader(r); !s)
        return s.error();
    return parsePalette(data.subspan(data.size() - 768));
}

core::Result<PcxImage> decodePcx(std::span<const uint8_t> data) {
    const core::ByteReader r(data);
    if (auto s = checkHeader(r); !s)
        return s.error();
    const int xmin = r.u16(4), ymin = r.u16(6), xmax = r.u16(8), ymax = r.u16(10);
    const int width = xmax - xmin + 1, height = ymax - ymin + 1;
    const int bytes_per_line = r.u16(66);
    if (width <= 0 || height <= 0 || width > kMaxPalettedDimension ||
        height > kMaxPalettedDimension)
        return pcxError(core::ErrorCode::BadImage, "size",
                        std::to_string(width) + "x" + std::to_string(height));
    if (bytes_per_line < width)
        return pcxError(core::ErrorCode::BadImage, "bytes_per_line",
                        std::to_string(bytes_per_line) + " < width " + std::to_string(width));
    PcxImage img;
    img.width = width;
    img.height = height;
    img.palette = *parsePalette(data.subspan(data.size() - 768));
    img.indices.resize(size_t(width) * size_t(height));
    // The RLE stream lies between the header and the palette marker.
    const auto stream = data.subspan(128, data.size() - 128 - 769);
    size_t in = 0;
    uint8_t run_value = 0;
    size_t run_left = 0;
    for (int y = 0; y < height; ++y) {
        uint8_t* row = img.indices.data() + size_t(y) * size_t(width);
        int x = 0;
        while (x < bytes_per_line) {
            if (run_left == 0) {
                if (in >= stream.size())
                    return pcxError(core::ErrorCode::Truncated, "data",
                                    "pixel data ends at line " + std::to_string(y));
                const uint8_t b = stream[in++];
                if ((b & 0xc0) == 0xc0) {
                    if (in >= stream.size())
                        return pcxError(core::ErrorCode::Truncated, "data",
                                        "run without a value at line " + std::to_string(y));
                    run_left = b & 0x3f;
                    run_value = stream[in++];
                } else {
                    run_left = 1;
                    run_value = b;
                }
                continue; // a zero-length run (0xc0) writes nothing
            }
            if (x < width)
                row[x] = run_value;
            --run_left;
            ++x;
        }
    }
    return img;
}

core::Result<PalettedRgba> pcxToRgba(const PcxImage& image) {
    return expandPaletted(image.width, image.height, image.indices, image.palette);
}

} // namespace content
