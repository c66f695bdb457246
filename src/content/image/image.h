// RGBA images: decoding (stb_image), the missing-texture tile and PNG output.
//
// Decoders in content/ hand back plain RGBA8 pixels and never see GL (yquake2's
// refresh/files/ split): the renderer uploads what it gets.
#pragma once

#include "core/result.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

namespace content {

// Largest width or height accepted from a file. Quake-family textures are at most 2048; a
// hostile header may claim 65535 x 65535 (16 GiB of RGBA).
inline constexpr int kMaxImageDimension = 8192;

// An image's S3TC blocks as its file stored them (a VTF in DXT1, DXT3 or DXT5), every mip
// from the full size down to 1x1, so a renderer that has EXT_texture_compression_s3tc uploads
// them as they are: a quarter (DXT3, DXT5) or an eighth (DXT1) of the RGBA memory, and no mip
// chain to build. Level k is max(1, width >> k) x max(1, height >> k) texels in whole 4x4
// blocks of 8 (DXT1) or 16 bytes.
struct CompressedMips {
    enum class Format : uint8_t {
        Dxt1,      // opaque: the three-colour mode's fourth entry is black
        Dxt1Alpha, // the fourth entry is transparent black (one-bit alpha)
        Dxt3,
        Dxt5,
    };
    Format format = Format::Dxt1;
    std::vector<std::vector<uint8_t>> levels;
};

// Bytes of one width x height level of `format` in whole 4x4 blocks.
size_t compressedLevelBytes(CompressedMips::Format format, int width, int height);

// Rows top to bottom, 4 bytes per pixel (R, G, B, A), no padding: rgba.size() == w * h * 4.
struct Image {
    int width = 0;
    int height = 0;
    std::vector<uint8_t> rgba;
    // The same texels as the file's compressed blocks (rgba is their decoding), or null. Shared
    // and immutable; code that makes an image with other texels starts from a fresh Image, so
    // a pointer here always describes `rgba`.
    std::shared_ptr<const CompressedMips> compressed;

    bool valid() const {
        return width > 0 && height > 0 &&
               rgba.size() == static_cast<size_t>(width) * static_cast<size_t>(height) * 4;
    }
};

// Decodes JPEG, TGA, PNG (and the other formats stb_image knows: BMP, GIF, PSD, ...) to RGBA,
// first row at the top. The header is read first and images wider or taller than
// kMaxImageDimension are rejected before any pixel memory is allocated.
// Errors (file = `name`): BadImage (unknown format, truncated or corrupt data),
// LimitExceeded (dimensions). Safe on untrusted input as far as stb_image is.
// Thread-safe (stb_image keeps its failure text per thread; we never set its global flip flag).
core::Result<Image> decodeImage(std::span<const uint8_t> data, std::string_view name);

// The missing-texture image: a size x size light-grey tile (kMissingFill) with a faint grid
// (kMissingLine) along its first row and column every size / 4 texels, opaque. Lit by the
// lightmap like any texture, so a map opened without its game data keeps its architecture and
// lighting readable (the magenta checker it replaces hid both). `size` is clamped to
// [8, kMaxMissingTextureSize].
inline constexpr int kMaxMissingTextureSize = 1024;
inline constexpr uint8_t kMissingFill = 176;
inline constexpr uint8_t kMissingLine = 150;
Image makeMissingTexture(int size = 64);

// Writes the image as PNG, rows in stored order (a caller with bottom-up GL readback flips
// first). False when the image is invalid or the file cannot be written.
bool writePng(const std::filesystem::path& path, const Image& image);

// The image as PNG file bytes (what writePng stores), with `channels` 3 (alpha dropped) or 4.
// Empty when the image is invalid or `channels` is neither.
std::vector<uint8_t> encodePng(const Image& image, int channels = 4);

} // namespace content
