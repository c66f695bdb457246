#include "content/image/vtf.h"

#include "core/byte_reader.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <string>

namespace content {
namespace {

core::Error vtfError(core::ErrorCode code, std::string_view name, std::string field,
                     std::string detail) {
    core::Error e = core::makeError(code, "vtf", -1, std::move(field), std::move(detail));
    e.file = std::string(name);
    return e;
}

constexpr std::array<std::string_view, 27> kFormatNames = {"RGBA8888",
                                                           "ABGR8888",
                                                           "RGB888",
                                                           "BGR888",
                                                           "RGB565",
                                                           "I8",
                                                           "IA88",
                                                           "P8",
                                                           "A8",
                                                           "RGB888_BLUESCREEN",
                                                           "BGR888_BLUESCREEN",
                                                           "ARGB8888",
                                                           "BGRA8888",
                                                           "DXT1",
                                                           "DXT3",
                                                           "DXT5",
                                                           "BGRX8888",
                                                           "BGR565",
                                                           "BGRX5551",
                                                           "BGRA4444",
                                                           "DXT1_ONEBITALPHA",
                                                           "BGRA5551",
                                                           "UV88",
                                                           "UVWQ8888",
                                                           "RGBA16161616F",
                                                           "RGBA16161616",
                                                           "UVLX8888"};

bool knownFormat(VtfFormat f) {
    return static_cast<int32_t>(f) >= 0 && static_cast<int32_t>(f) < int32_t(kFormatNames.size());
}

// Bytes per texel of the uncompressed formats; 0 for the block formats.
uint32_t bytesPerTexel(VtfFormat f) {
    switch (f) {
    case VtfFormat::RGBA8888:
    case VtfFormat::ABGR8888:
    case VtfFormat::ARGB8888:
    case VtfFormat::BGRA8888:
    case VtfFormat::BGRX8888:
    case VtfFormat::UVWQ8888:
    case VtfFormat::UVLX8888:
        return 4;
    case VtfFormat::RGB888:
    case VtfFormat::BGR888:
    case VtfFormat::RGB888_BlueScreen:
    case VtfFormat::BGR888_BlueScreen:
        return 3;
    case VtfFormat::RGB565:
    case VtfFormat::IA88:
    case VtfFormat::BGR565:
    case VtfFormat::BGRX5551:
    case VtfFormat::BGRA4444:
    case VtfFormat::BGRA5551:
    case VtfFormat::UV88:
        return 2;
    case VtfFormat::I8:
    case VtfFormat::P8:
    case VtfFormat::A8:
        return 1;
    case VtfFormat::RGBA16161616F:
    case VtfFormat::RGBA16161616:
        return 8;
    default:
        return 0;
    }
}

std::string formatText(int32_t value) {
    const VtfFormat f = static_cast<VtfFormat>(value);
    return std::to_string(value) + " (" + std::string(vtfFormatName(f)) + ")";
}

struct Rgba {
    uint8_t r = 0, g = 0, b = 0, a = 255;
};

uint8_t expand5(uint32_t v) {
    return uint8_t((v << 3) | (v >> 2));
}
uint8_t expand6(uint32_t v) {
    return uint8_t((v << 2) | (v >> 4));
}
uint8_t expand4(uint32_t v) {
    return uint8_t(v * 17);
}

Rgba from565(uint16_t c) { // red in the high bits (Direct3D R5G6B5, the DXT colour ends)
    return {expand5(c >> 11), expand6((c >> 5) & 63), expand5(c & 31), 255};
}

// The four colours of a DXT colour block; `three_colour_alpha` is index 3's alpha in the
// three-colour mode (DXT1 only; DXT3/5 always use four colours).
std::array<Rgba, 4> dxtPalette(uint16_t c0, uint16_t c1, bool allow_three, uint8_t index3_alpha) {
    std::array<Rgba, 4> p{from565(c0), from565(c1), {}, {}};
    const auto mix = [](uint8_t a, uint8_t b, int wa, int wb, int d) {
        return uint8_t((wa * a + wb * b) / d);
    };
    if (c0 > c1 || !allow_three) {
        p[2] = {mix(p[0].r, p[1].r, 2, 1, 3), mix(p[0].g, p[1].g, 2, 1, 3),
                mix(p[0].b, p[1].b, 2, 1, 3), 255};
        p[3] = {mix(p[0].r, p[1].r, 1, 2, 3), mix(p[0].g, p[1].g, 1, 2, 3),
                mix(p[0].b, p[1].b, 1, 2, 3), 255};
    } else {
        p[2] = {mix(p[0].r, p[1].r, 1, 1, 2), mix(p[0].g, p[1].g, 1, 1, 2),
                mix(p[0].b, p[1].b, 1, 1, 2), 255};
        p[3] = {0, 0, 0, index3_alpha};
    }
    return p;
}

void decodeDxt(VtfFormat format, uint32_t width, uint32_t height, const uint8_t* src,
               bool one_bit_alpha, Image& out) {
    const uint32_t block_bytes = format == VtfFormat::DXT3 || format == VtfFormat::DXT5 ? 16 : 8;
    const uint32_t bw = std::max(1u, (width + 3) / 4), bh = std::max(1u, (height + 3) / 4);
    for (uint32_t by = 0; by < bh; ++by) {
        for (uint32_t bx = 0; bx < bw; ++bx, src += block_bytes) {
            std::array<uint8_t, 16> alpha;
            alpha.fill(255);
            const uint8_t* colour = src;
            if (format == VtfFormat::DXT3) {
                for (int i = 0; i < 16; ++i)
                    alpha[size_t(i)] = expand4((src[i / 2] >> ((i & 1) * 4)) & 15);
                colour = src + 8;
            } else if (format == VtfFormat::DXT5) {
                const uint32_t a0 = src[0], a1 = src[1];
                std::array<uint8_t, 8> ramp{uint8_t(a0), uint8_t(a1)};
                if (a0 > a1) {
                    for (uint32_t k = 1; k < 7; ++k)
                        ramp[k + 1] = uint8_t(((7 - k) * a0 + k * a1) / 7);
                } else {
                    for (uint32_t k = 1; k < 5; ++k)
                        ramp[k + 1] = uint8_t(((5 - k) * a0 + k * a1) / 5);
                    ramp[6] = 0;
                    ramp[7] = 255;
                }
                uint64_t bits = 0;
                for (int i = 0; i < 6; ++i)
                    bits |= uint64_t(src[2 + i]) << (8 * i);
                for (int i = 0; i < 16; ++i)
                    alpha[size_t(i)] = ramp[(bits >> (3 * i)) & 7];
                colour = src + 8;
            }
            uint16_t c0, c1;
            uint32_t idx;
            std::memcpy(&c0, colour, 2);
            std::memcpy(&c1, colour + 2, 2);
            std::memcpy(&idx, colour + 4, 4);
            const bool dxt1 = block_bytes == 8;
            const auto pal = dxtPalette(c0, c1, dxt1, one_bit_alpha ? 0 : 255);
            for (uint32_t i = 0; i < 16; ++i) {
                const uint32_t x = bx * 4 + (i & 3), y = by * 4 + i / 4;
                if (x >= width || y >= height)
                    continue;
                Rgba c = pal[(idx >> (2 * i)) & 3];
                if (!dxt1)
                    c.a = alpha[i];
                uint8_t* d = out.rgba.data() + (size_t(y) * width + x) * 4;
                d[0] = c.r;
                d[1] = c.g;
                d[2] = c.b;
                d[3] = c.a;
            }
        }
    }
}

float halfToFloat(uint16_t h) {
    const uint32_t sign = h >> 15, exponent = (h >> 10) & 31, mantissa = h & 1023;
    float v;
    if (exponent == 0)
        v = std::ldexp(float(mantissa), -24);
    else if (exponent == 31)
        v = mantissa ? 0.0f : INFINITY; // NaN reads as 0
    else
        v = std::ldexp(float(mantissa | 1024), int(exponent) - 25);
    return sign ? -v : v;
}

uint8_t unitToByte(float v) {
    if (!(v > 0.0f))
        return 0;
    if (v >= 1.0f)
        return 255;
    return uint8_t(std::lround(v * 255.0f));
}

Rgba decodeTexel(VtfFormat f, const uint8_t* s) {
    uint16_t w = 0;
    if (bytesPerTexel(f) == 2)
        std::memcpy(&w, s, 2);
    switch (f) {
    case VtfFormat::RGBA8888:
        return {s[0], s[1], s[2], s[3]};
    case VtfFormat::ABGR8888:
        return {s[3], s[2], s[1], s[0]};
    case VtfFormat::ARGB8888:
        return {s[1], s[2], s[3], s[0]};
    case VtfFormat::BGRA8888:
        return {s[2], s[1], s[0], s[3]};
    case VtfFormat::BGRX8888:
        return {s[2], s[1], s[0], 255};
    case VtfFormat::RGB888:
        return {s[0], s[1], s[2], 255};
    case VtfFormat::BGR888:
        return {s[2], s[1], s[0], 255};
    case VtfFormat::I8:
        return {s[0], s[0], s[0], 255};
    case VtfFormat::IA88:
        return {s[0], s[0], s[0], s[1]};
    case VtfFormat::A8:
        return {255, 255, 255, s[0]};
    case VtfFormat::UV88:
        return {s[0], s[1], 0, 255};
    case VtfFormat::RGB565: // red in bits 0-4
        return {expand5(w & 31), expand6((w >> 5) & 63), expand5(w >> 11), 255};
    case VtfFormat::BGR565: // blue in bits 0-4
        return {expand5(w >> 11), expand6((w >> 5) & 63), expand5(w & 31), 255};
    case VtfFormat::BGRA4444:
        return {expand4((w >> 8) & 15), expand4((w >> 4) & 15), expand4(w & 15), expand4(w >> 12)};
    case VtfFormat::BGRX5551:
        return {expand5((w >> 10) & 31), expand5((w >> 5) & 31), expand5(w & 31), 255};
    case VtfFormat::BGRA5551:
        return {expand5((w >> 10) & 31), expand5((w >> 5) & 31), expand5(w & 31),
                uint8_t(w >> 15 ? 255 : 0)};
    case VtfFormat::RGBA16161616F: {
        std::array<uint16_t, 4> h;
        std::memcpy(h.data(), s, 8);
        return {unitToByte(halfToFloat(h[0])), unitToByte(halfToFloat(h[1])),
                unitToByte(halfToFloat(h[2])), unitToByte(halfToFloat(h[3]))};
    }
    default:
        return {};
    }
}

bool decodable(VtfFormat f) {
    switch (f) {
    case VtfFormat::P8:
    case VtfFormat::RGB888_BlueScreen:
    case VtfFormat::BGR888_BlueScreen:
    case VtfFormat::UVWQ8888:
    case VtfFormat::RGBA16161616:
    case VtfFormat::UVLX8888:
        return false;
    default:
        return knownFormat(f);
    }
}

} // namespace

std::string_view vtfFormatName(VtfFormat format) {
    if (format == VtfFormat::None)
        return "NONE";
    return knownFormat(format) ? kFormatNames[size_t(format)] : std::string_view("unknown");
}

uint64_t vtfImageBytes(VtfFormat format, uint32_t width, uint32_t height) {
    switch (format) {
    case VtfFormat::DXT1:
    case VtfFormat::DXT1_OneBitAlpha:
        return uint64_t(std::max(1u, (width + 3) / 4)) * std::max(1u, (height + 3) / 4) * 8;
    case VtfFormat::DXT3:
    case VtfFormat::DXT5:
        return uint64_t(std::max(1u, (width + 3) / 4)) * std::max(1u, (height + 3) / 4) * 16;
    default:
        return uint64_t(width) * height * bytesPerTexel(format);
    }
}

namespace {

// The 7.0 to 7.6 header's fields; the signature, version and header size checked.
// `first_frame` is the field that tells a 7.0-7.4 environment map's spheremap face.
core::Result<VtfHeader> readVtfFields(const core::ByteReader& r, std::string_view name,
                                      uint16_t& first_frame) {
    const uint64_t size = r.size();
    if (!r.inRange(0, 64))
        return vtfError(core::ErrorCode::Truncated, name, "header",
                        std::to_string(size) + " bytes, the 7.0 header needs 64");
    if (r.fixedString(0, 4) != "VTF" || r.u8(3) != 0)
        return vtfError(core::ErrorCode::UnknownFormat, name, "signature", "not \"VTF\\0\"");
    const uint32_t major = r.u32(4), minor = r.u32(8);
    if (major != 7 || minor > 6)
        return vtfError(core::ErrorCode::UnsupportedVersion, name, "version",
                        std::to_string(major) + "." + std::to_string(minor) +
                            ", supported 7.0 to 7.6");
    VtfHeader h;
    h.version_minor = minor;
    h.header_size = r.u32(12);
    h.width = r.u16(16);
    h.height = r.u16(18);
    h.flags = r.u32(20);
    h.frames = r.u16(24);
    first_frame = r.u16(26);
    h.format = static_cast<VtfFormat>(r.i32(52));
    h.mip_count = r.u8(56);
    h.low_res_format = static_cast<VtfFormat>(r.i32(57));
    h.low_res_width = r.u8(61);
    h.low_res_height = r.u8(62);
    const uint32_t header_needs = minor >= 3 ? 80 : minor == 2 ? 65 : 63;
    if (!r.inRange(0, header_needs) || h.header_size < header_needs || h.header_size > size)
        return vtfError(core::ErrorCode::Truncated, name, "header_size",
                        std::to_string(h.header_size) + " in a " + std::to_string(size) +
                            "-byte file, version 7." + std::to_string(minor) + " needs " +
                            std::to_string(header_needs));
    if (minor >= 2)
        h.depth = r.u16(63);
    if (h.depth == 0) // some 7.2 writers store 0 for a flat texture
        h.depth = 1;
    return h;
}

// Checks the image's sides, frames, mips and format, and counts an environment map's faces.
core::Status checkVtfImage(VtfHeader& h, uint16_t first_frame, std::string_view name) {
    if (h.width == 0 || h.height == 0 || h.width > uint32_t(kMaxImageDimension) ||
        h.height > uint32_t(kMaxImageDimension) || h.depth > uint32_t(kMaxImageDimension))
        return vtfError(core::ErrorCode::LimitExceeded, name, "width/height/depth",
                        std::to_string(h.width) + "x" + std::to_string(h.height) + "x" +
                            std::to_string(h.depth) + ", sides 1 to " +
                            std::to_string(kMaxImageDimension));
    if (h.frames == 0)
        h.frames = 1;
    if (h.frames > kMaxVtfFrames)
        return vtfError(core::ErrorCode::LimitExceeded, name, "frames",
                        std::to_string(h.frames) + ", at most " + std::to_string(kMaxVtfFrames));
    if (h.mip_count == 0 || h.mip_count > kMaxVtfMips)
        return vtfError(core::ErrorCode::BadImage, name, "mip_count",
                        std::to_string(h.mip_count) + ", 1 to " + std::to_string(kMaxVtfMips));
    if (!knownFormat(h.format))
        return vtfError(core::ErrorCode::BadImage, name, "high_res_format",
                        formatText(int32_t(h.format)));
    if (h.flags & kVtfFlagEnvMap)
        h.faces = h.version_minor < 5 && first_frame != 0xffff ? 7 : 6;
    return core::okStatus();
}

// Before 7.3 the high-res data follows the header and the low-res thumbnail.
core::Status findVtfHighResAfterThumbnail(VtfHeader& h, std::string_view name) {
    uint64_t low_bytes = 0;
    if (h.low_res_format != VtfFormat::None) {
        if (!knownFormat(h.low_res_format))
            return vtfError(core::ErrorCode::BadImage, name, "low_res_format",
                            formatText(int32_t(h.low_res_format)));
        low_bytes = vtfImageBytes(h.low_res_format, h.low_res_width, h.low_res_height);
    }
    h.high_res_offset = uint64_t(h.header_size) + low_bytes;
    return core::okStatus();
}

// From 7.3 the resource entries (tag[3], flags, offset) after the header name the high-res
// data (tag 0x30).
core::Status findVtfHighResResource(const core::ByteReader& r, VtfHeader& h,
                                    std::string_view name) {
    const uint32_t count = r.u32(68);
    if (count > kMaxVtfResources)
        return vtfError(core::ErrorCode::LimitExceeded, name, "resource_count",
                        std::to_string(count) + ", at most " + std::to_string(kMaxVtfResources));
    if (uint64_t(80) + uint64_t(count) * 8 > h.header_size)
        return vtfError(core::ErrorCode::Truncated, name, "resource_count",
                        std::to_string(count) + " entries do not fit a header of " +
                            std::to_string(h.header_size) + " bytes");
    bool found = false;
    for (uint32_t i = 0; i < count; ++i) {
        const uint64_t at = 80 + uint64_t(i) * 8;
        if (r.u8(at) == 0x30 && r.u8(at + 1) == 0 && r.u8(at + 2) == 0) {
            h.high_res_offset = r.u32(at + 4);
            found = true;
        }
        if (r.fixedString(at, 3) == "AXC")
            return vtfError(core::ErrorCode::BadImage, name, "resources",
                            "AXC (compressed mips, 7.6) is not decoded");
    }
    if (!found)
        return vtfError(core::ErrorCode::BadImage, name, "resources",
                        "no high-res image entry (tag 0x30) among " + std::to_string(count));
    return core::okStatus();
}

// Walks the mip chain, smallest first (mip 0, the largest, is the last block), to the largest
// mip's offset; the whole chain must lie inside the file's `size` bytes.
core::Status locateVtfMips(VtfHeader& h, uint64_t size, std::string_view name) {
    uint64_t offset = h.high_res_offset;
    for (uint32_t mip = h.mip_count; mip-- > 0;) {
        const uint32_t w = std::max(1u, h.width >> mip), hh = std::max(1u, h.height >> mip),
                       d = std::max(1u, h.depth >> mip);
        const uint64_t one = vtfImageBytes(h.format, w, hh) * d;
        if (mip == 0)
            h.largest_mip_offset = offset;
        offset += one * h.frames * h.faces;
    }
    if (offset > size)
        return vtfError(core::ErrorCode::Truncated, name, "high_res_data",
                        std::string(vtfFormatName(h.format)) + " " + std::to_string(h.width) + "x" +
                            std::to_string(h.height) + ", " + std::to_string(h.mip_count) +
                            " mips, " + std::to_string(h.frames) + " frames, " +
                            std::to_string(h.faces) + " faces end at byte " +
                            std::to_string(offset) + " of " + std::to_string(size));
    return core::okStatus();
}

} // namespace

core::Result<VtfHeader> parseVtfHeader(std::span<const uint8_t> data, std::string_view name) {
    const core::ByteReader r(data);
    uint16_t first_frame = 0;
    core::Result<VtfHeader> h = readVtfFields(r, name, first_frame);
    if (!h)
        return h;
    if (auto s = checkVtfImage(*h, first_frame, name); !s)
        return s.error();
    core::Status found = h->version_minor < 3 ? findVtfHighResAfterThumbnail(*h, name)
                                              : findVtfHighResResource(r, *h, name);
    if (!found)
        return found.error();
    if (auto s = locateVtfMips(*h, data.size(), name); !s)
        return s.error();
    return h;
}

core::Result<Image> decodeVtfPixels(VtfFormat format, uint32_t width, uint32_t height,
                                    std::span<const uint8_t> pixels, bool one_bit_alpha) {
    if (!decodable(format))
        return core::makeError(core::ErrorCode::BadImage, "vtf", -1, "format",
                               std::string(vtfFormatName(format)) + " is not decoded");
    const uint64_t need = vtfImageBytes(format, width, height);
    if (width == 0 || height == 0 || width > uint32_t(kMaxImageDimension) ||
        height > uint32_t(kMaxImageDimension) || pixels.size() < need)
        return core::makeError(core::ErrorCode::BadImage, "vtf", -1, "pixels",
                               std::to_string(width) + "x" + std::to_string(height) + " " +
                                   std::string(vtfFormatName(format)) + " needs " +
                                   std::to_string(need) + " bytes, have " +
                                   std::to_string(pixels.size()));
    Image out;
    out.width = int(width);
    out.height = int(height);
    out.rgba.assign(size_t(width) * height * 4, 0);
    switch (format) {
    case VtfFormat::DXT1:
    case VtfFormat::DXT1_OneBitAlpha:
    case VtfFormat::DXT3:
    case VtfFormat::DXT5:
        decodeDxt(format, width, height, pixels.data(),
                  one_bit_alpha || format == VtfFormat::DXT1_OneBitAlpha, out);
        break;
    default: {
        const uint32_t bpp = bytesPerTexel(format);
        for (size_t i = 0; i < size_t(width) * height; ++i) {
            const Rgba c = decodeTexel(format, pixels.data() + i * bpp);
            out.rgba[i * 4 + 0] = c.r;
            out.rgba[i * 4 + 1] = c.g;
            out.rgba[i * 4 + 2] = c.b;
            out.rgba[i * 4 + 3] = c.a;
        }
    }
    }
    return out;
}

std::vector<Image> decodeCompressedMips(const CompressedMips& c, int width, int height) {
    VtfFormat format = VtfFormat::DXT5;
    switch (c.format) {
    case CompressedMips::Format::Dxt1:
        format = VtfFormat::DXT1;
        break;
    case CompressedMips::Format::Dxt1Alpha:
        format = VtfFormat::DXT1_OneBitAlpha;
        break;
    case CompressedMips::Format::Dxt3:
        format = VtfFormat::DXT3;
        break;
    case CompressedMips::Format::Dxt5:
        break;
    }
    std::vector<Image> out;
    for (size_t level = 1; level < c.levels.size(); ++level) {
        const auto w = uint32_t(std::max(1, width >> level));
        const auto h = uint32_t(std::max(1, height >> level));
        auto image = decodeVtfPixels(format, w, h, c.levels[level], false);
        if (!image)
            return {};
        out.push_back(std::move(*image));
    }
    return out;
}

core::Result<Image> decodeVtf(std::span<const uint8_t> data, std::string_view name) {
    auto h = parseVtfHeader(data, name);
    if (!h)
        return h.error();
    const uint64_t bytes = vtfImageBytes(h->format, h->width, h->height);
    const bool one_bit_alpha = (h->flags & kVtfFlagOneBitAlpha) != 0;
    auto image =
        decodeVtfPixels(h->format, h->width, h->height,
                        data.subspan(size_t(h->largest_mip_offset), size_t(bytes)), one_bit_alpha);
    if (!image) {
        image.error().file = std::string(name);
        return image;
    }
    image->compressed = vtfCompressedMips(data, *h);
    return image;
}

core::Result<std::array<Image, 6>> decodeVtfCubeFaces(std::span<const uint8_t> data,
                                                      std::string_view name) {
    auto h = parseVtfHeader(data, name);
    if (!h)
        return h.error();
    if (!(h->flags & kVtfFlagEnvMap) || h->faces < 6)
        return vtfError(core::ErrorCode::BadImage, name, "flags",
                        "not an environment map (no ENVMAP flag 0x4000)");
    if (h->width != h->height || h->depth != 1)
        return vtfError(core::ErrorCode::BadImage, name, "width/height/depth",
                        std::to_string(h->width) + "x" + std::to_string(h->height) + "x" +
                            std::to_string(h->depth) + ": a cube face is square and flat");
    // Within a mip: frames, then faces, then slices; frame 0's faces open the largest mip.
    const uint64_t bytes = vtfImageBytes(h->format, h->width, h->height);
    const bool one_bit_alpha = (h->flags & kVtfFlagOneBitAlpha) != 0;
    std::array<Image, 6> faces;
    for (size_t k = 0; k < faces.size(); ++k) {
        auto face = decodeVtfPixels(
            h->format, h->width, h->height,
            data.subspan(size_t(h->largest_mip_offset + k * bytes), size_t(bytes)), one_bit_alpha);
        if (!face) {
            face.error().file = std::string(name);
            return face.error();
        }
        faces[k] = std::move(*face);
    }
    return faces;
}

core::Result<std::vector<Image>> decodeVtfFrames(std::span<const uint8_t> data,
                                                 std::string_view name, uint32_t max_frames,
                                                 uint64_t max_bytes) {
    auto h = parseVtfHeader(data, name);
    if (!h)
        return h.error();
    const uint64_t bytes = vtfImageBytes(h->format, h->width, h->height);
    const uint64_t stride = bytes * h->faces * h->depth; // one frame's images at mip 0
    const uint64_t rgba = uint64_t(h->width) * h->height * 4;
    const bool one_bit_alpha = (h->flags & kVtfFlagOneBitAlpha) != 0;
    uint32_t count = std::min(h->frames, std::min(max_frames, kMaxVtfFrames));
    if (rgba > 0)
        count = uint32_t(std::min<uint64_t>(count, max_bytes / rgba));
    std::vector<Image> frames;
    frames.reserve(count);
    // parseVtfHeader checked that every frame of the largest mip lies inside `data`.
    for (uint32_t k = 0; k < count; ++k) {
        auto frame = decodeVtfPixels(
            h->format, h->width, h->height,
            data.subspan(size_t(h->largest_mip_offset + k * stride), size_t(bytes)), one_bit_alpha);
        if (!frame) {
            frame.error().file = std::string(name);
            return frame.error();
        }
        frames.push_back(std::move(*frame));
    }
    return frames;
}

std::shared_ptr<const CompressedMips> vtfCompressedMips(std::span<const uint8_t> data,
                                                        const VtfHeader& h) {
    CompressedMips out;
    switch (h.format) {
    case VtfFormat::DXT1:
        out.format = (h.flags & kVtfFlagOneBitAlpha) != 0 ? CompressedMips::Format::Dxt1Alpha
                                                          : CompressedMips::Format::Dxt1;
        break;
    case VtfFormat::DXT1_OneBitAlpha:
        out.format = CompressedMips::Format::Dxt1Alpha;
        break;
    case VtfFormat::DXT3:
        out.format = CompressedMips::Format::Dxt3;
        break;
    case VtfFormat::DXT5:
        out.format = CompressedMips::Format::Dxt5;
        break;
    default:
        return nullptr;
    }
    // The whole chain down to 1x1, or the renderer's own mips (from the RGBA) serve better.
    uint32_t full = 1;
    while ((std::max(h.width, h.height) >> full) > 0)
        ++full;
    if (h.depth != 1 || h.mip_count != full)
        return nullptr;
    // Smallest mip first (as parseVtfHeader walks it); frame 0, face 0 opens each mip's block.
    std::vector<uint64_t> starts(h.mip_count);
    uint64_t offset = h.high_res_offset;
    for (uint32_t mip = h.mip_count; mip-- > 0;) {
        starts[mip] = offset;
        offset +=
            vtfImageBytes(h.format, std::max(1u, h.width >> mip), std::max(1u, h.height >> mip)) *
            h.frames * h.faces;
    }
    if (offset > data.size())
        return nullptr;
    out.levels.resize(h.mip_count);
    for (uint32_t mip = 0; mip < h.mip_count; ++mip) {
        const size_t n = compressedLevelBytes(out.format, int(std::max(1u, h.width >> mip)),
                                              int(std::max(1u, h.height >> mip)));
        const auto first = data.begin() + std::ptrdiff_t(starts[mip]);
        out.levels[mip].assign(first, first + std::ptrdiff_t(n));
    }
    return std::make_shared<const CompressedMips>(std::move(out));
}

} // namespace content
