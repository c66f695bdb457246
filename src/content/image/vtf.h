// Valve Texture Format (.vtf), versions 7.0 to 7.5 (and Strata Source's 7.6 without its
// compressed "AXC" resource, laid out as 7.5: momentum_mp_lobby's pakfile): the header, the mip
// chain arithmetic and the decoding of the largest mip of frame 0, face 0, slice 0 to RGBA8.
//
// Layout (Source SDK public/vtf/vtf.h, VTFFileHeader_t and its 7.1-7.3 descendants, packed to
// one byte; the Valve Developer Community page "Valve Texture Format"):
//   0  "VTF\0"            4  version[2] (7, 0..5)    12 header_size
//   16 width u16          18 height u16              20 flags
//   24 frames u16         26 first_frame u16         32 reflectivity[3] (floats)
//   48 bump_scale         52 high_res_format i32     56 mip_count u8
//   57 low_res_format i32 61 low_res_width u8        62 low_res_height u8
//   63 depth u16 (7.2+)   68 resource_count (7.3+)   80 resource entries (7.3+): tag[3],
//                                                       flags u8, offset u32
// Before 7.3 the low-res thumbnail (DXT1 as a rule) starts at header_size and the high-res
// data follows it; from 7.3 the resource entry tagged {0x30, 0, 0} gives the high-res offset
// (and {0x01, 0, 0} the thumbnail's; other tags, and entries with flag 0x02 whose "offset" is
// the data itself, are skipped). The high-res data holds the mips smallest first; within a
// mip, frames, then faces, then depth slices. An environment map has 6 faces from 7.5 on;
// before 7.5 it has a seventh (the sphere map) unless first_frame is 0xffff (VTFLib's
// CVTFFile::GetFaceCount; l4d2_tooltextures' 7.4 cubemaps hold 7 faces with first_frame 0).
//
// Formats are Source's ImageFormat enum (public/bitmap/imageformat.h). The 8-bit-per-channel
// names give the byte order in the file (BGRA8888: B, G, R, A). The 16-bit packed names list
// the channels from the lowest bit up: BGR565 has blue in bits 0-4 and red in bits 11-15
// (Direct3D's R5G6B5), BGRA4444 is Direct3D's A4R4G4B4, BGRX5551 / BGRA5551 X1R5G5B5 /
// A1R5G5B5 (the top bit is alpha in BGRA5551, ignored in BGRX5551). Decoding rules:
// - DXT1, DXT3, DXT5: S3TC blocks of 4x4 (blocks cover the image even when a side is below
//   4); colour ends expanded from 5/6 bits by bit replication, interpolated in integers
//   ((2 * c0 + c1) / 3, (c0 + c1) / 2), so the results are exact and testable. DXT1's
//   three-colour mode (c0 <= c1) gives transparent black for index 3 when the format is
//   DXT1_ONEBITALPHA or the header sets kVtfFlagOneBitAlpha, opaque black otherwise.
// - I8: grey, opaque; IA88: grey and alpha; A8: white with that alpha; UV88: U in red, V in
//   green, blue 0, opaque (the raw bytes of a du/dv map).
// - RGBA16161616F: half floats clamped to [0, 1] and scaled to 0..255 (rounded); no tone
//   mapping beyond the clamp.
// - P8, the bluescreen variants, UVWQ8888, RGBA16161616 and UVLX8888 are refused (BadImage
//   naming the format).
//
// Safety: every size is computed in 64 bits from limits checked first (sides and depth at most
// kMaxImageDimension, at most kMaxVtfFrames frames, at most 16 mips) and every byte range is
// checked before it is read. Errors name the file, the field and the value.
#pragma once

#include "content/image/image.h"
#include "core/result.h"

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

namespace content {

enum class VtfFormat : int32_t {
    None = -1,
    RGBA8888 = 0,
    ABGR8888 = 1,
    RGB888 = 2,
    BGR888 = 3,
    RGB565 = 4,
    I8 = 5,
    IA88 = 6,
    P8 = 7,
    A8 = 8,
    RGB888_BlueScreen = 9,
    BGR888_BlueScreen = 10,
    ARGB8888 = 11,
    BGRA8888 = 12,
    DXT1 = 13,
    DXT3 = 14,
    DXT5 = 15,
    BGRX8888 = 16,
    BGR565 = 17,
    BGRX5551 = 18,
    BGRA4444 = 19,
    DXT1_OneBitAlpha = 20,
    BGRA5551 = 21,
    UV88 = 22,
    UVWQ8888 = 23,
    RGBA16161616F = 24,
    RGBA16161616 = 25,
    UVLX8888 = 26,
};

// "DXT5", "BGRA8888", ...; "unknown" past the enum.
std::string_view vtfFormatName(VtfFormat format);

// Bytes of one width x height image in `format` (a side below 4 still takes a whole DXT
// block); 0 for a format whose size is unknown (None, or past the enum).
uint64_t vtfImageBytes(VtfFormat format, uint32_t width, uint32_t height);

// Header flags used here (vtf.h CompiledVtfFlags).
inline constexpr uint32_t kVtfFlagOneBitAlpha = 0x1000;
inline constexpr uint32_t kVtfFlagEightBitAlpha = 0x2000;
inline constexpr uint32_t kVtfFlagEnvMap = 0x4000;

inline constexpr uint32_t kMaxVtfFrames = 1024;
inline constexpr uint32_t kMaxVtfMips = 16;
inline constexpr uint32_t kMaxVtfResources = 64;

struct VtfHeader {
    uint32_t version_minor = 0; // major is always 7
    uint32_t header_size = 0;
    uint32_t width = 0, height = 0, depth = 1;
    uint32_t flags = 0;
    uint32_t frames = 1;
    uint32_t faces = 1; // 6 or 7 for environment maps
    uint32_t mip_count = 1;
    VtfFormat format = VtfFormat::None;
    VtfFormat low_res_format = VtfFormat::None;
    uint32_t low_res_width = 0, low_res_height = 0;
    uint64_t high_res_offset = 0;    // start of the mip chain (smallest mip first)
    uint64_t largest_mip_offset = 0; // frame 0, face 0, slice 0 of mip 0
};

// Reads and checks the header, finds the high-res data and checks that the whole mip chain
// lies inside `data`. Errors (file = `name`, lump "vtf"): Truncated, UnknownFormat (signature),
// UnsupportedVersion, BadImage (format, sizes, resources), LimitExceeded.
core::Result<VtfHeader> parseVtfHeader(std::span<const uint8_t> data, std::string_view name);

// The largest mip of frame 0, face 0, slice 0 as RGBA8, rows top to bottom (with its S3TC
// blocks attached for a DXT image: vtfCompressedMips).
core::Result<Image> decodeVtf(std::span<const uint8_t> data, std::string_view name);

// The six faces of an environment map (kVtfFlagEnvMap) at its largest mip, frame 0, slice 0, as
// RGBA8 in the file's face order: Source's right, left, back, front, up, down (vtf.h
// CubeMapFaceIndex_t), which are the +X, -X, +Y, -Y, +Z, -Z faces of a cube sampled with world
// directions (rows top to bottom, as a GL cube map face takes them). A 7.0-7.4 file's seventh
// face (the sphere map) is skipped. Errors (file = `name`, lump "vtf"): parseVtfHeader's, and
// BadImage when the flag is not set, the faces are not square, the depth is not 1, or the format
// is not decoded.
core::Result<std::array<Image, 6>> decodeVtfCubeFaces(std::span<const uint8_t> data,
                                                      std::string_view name);

// The RGBA8 bytes decodeVtfFrames keeps at most (all frames together): 64 MiB, sixteen
// 1024 x 1024 frames.
inline constexpr uint64_t kMaxVtfFrameBytes = 64ull * 1024 * 1024;

// Every frame of an animated texture (the AnimatedTexture proxy's frames, frame = floor(time *
// rate) mod frames: game/client/baseanimatedtextureproxy.cpp OnBind) at its largest mip, face 0,
// slice 0, as RGBA8 in file order (within a mip the file stores frames, then faces, then slices:
// frame k starts k * faces * depth images after frame 0). At most `max_frames` (kMaxVtfFrames)
// and as many as fit in `max_bytes`; the rest are left out (the header's frame count says how
// many there were). Errors (file = `name`, lump "vtf"): parseVtfHeader's and decodeVtfPixels'.
core::Result<std::vector<Image>> decodeVtfFrames(std::span<const uint8_t> data,
                                                 std::string_view name,
                                                 uint32_t max_frames = kMaxVtfFrames,
                                                 uint64_t max_bytes = kMaxVtfFrameBytes);

// The S3TC blocks of frame 0, face 0 at every mip (content::CompressedMips) of a header that
// parseVtfHeader accepted for `data`: for DXT1, DXT1_ONEBITALPHA, DXT3 and DXT5 images of depth
// 1 whose file holds the whole chain down to 1x1; null otherwise. decodeVtf attaches it to
// the image it returns.
std::shared_ptr<const CompressedMips> vtfCompressedMips(std::span<const uint8_t> data,
                                                        const VtfHeader& h);

// Levels 1.. of the S3TC blocks `c` of a width x height image, decoded to RGBA8 (level k is
// max(1, width >> k) x max(1, height >> k)): a file's own mips for a renderer that samples RGBA.
// Empty when a level's blocks are short.
std::vector<Image> decodeCompressedMips(const CompressedMips& c, int width, int height);

// One width x height image in `format` from `pixels` (at least vtfImageBytes bytes) to RGBA8;
// `one_bit_alpha` as for DXT1 above. BadImage for a refused format or short data.
core::Result<Image> decodeVtfPixels(VtfFormat format, uint32_t width, uint32_t height,
                                    std::span<const uint8_t> pixels, bool one_bit_alpha);

} // namespace content
