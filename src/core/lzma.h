// LZMA decoding through liblzma, for the compressed lumps and archive members of Valve's tools.
//
// Valve's tools (vbsp, bspzip; Source SDK public/tier1/lzmaDecoder.h) store a compressed block
// as a 17-byte header followed by raw LZMA1 data:
//   uint32 id = "LZMA", uint32 actual_size, uint32 lzma_size, uint8 properties[5]
// The properties are the classic LZMA1 ones (lc/lp/pb byte and a 32-bit dictionary size), the
// same five bytes that start an .lzma ("LZMA alone") stream, so liblzma's alone decoder reads
// the block once it is given the uncompressed size.
#pragma once

#include "core/result.h"

#include <cstdint>
#include <span>
#include <vector>

namespace core {

inline constexpr size_t kValveLzmaHeaderSize = 17;

// Largest uncompressed size accepted (hostile headers may claim 4 GB).
inline constexpr uint32_t kMaxLzmaOutput = 512u * 1024 * 1024;

// True when `data` starts with Valve's "LZMA" id.
bool isValveLzma(std::span<const uint8_t> data);

// Decodes a Valve LZMA block (header included). Errors (BadArchive) say what was wrong: a
// header that does not fit, sizes beyond the data or kMaxLzmaOutput, corrupt data, or output
// shorter than the header's actual_size.
Result<std::vector<uint8_t>> decodeValveLzma(std::span<const uint8_t> data);

// Decodes a zip member stored with method 14 (PKWARE APPNOTE 5.8.8: u8 major, u8 minor LZMA SDK
// version, u16 properties size (5), the five LZMA1 properties, raw LZMA data with or without an
// end marker) to `uncompressed_size` bytes, the size the zip's directory gives. Valve's bspzip
// writes pakfile members this way. Errors (BadArchive) as decodeValveLzma's.
Result<std::vector<uint8_t>> decodeZipLzma(std::span<const uint8_t> member,
                                           uint64_t uncompressed_size);

// CRC-32 (ISO 3309, the zip and PNG one) of `data`, continuing from `crc` (0 to start).
uint32_t crc32(std::span<const uint8_t> data, uint32_t crc = 0);

// Encodes `data` as a Valve LZMA block (preset 6). For tests and fixtures: no shipped tool
// writes compressed lumps.
Result<std::vector<uint8_t>> encodeValveLzma(std::span<const uint8_t> data);

} // namespace core
