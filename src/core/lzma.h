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

// Encodes `data` as a Valve LZMA block (preset 6). For tests and fixtures: no shipped tool
// writes compressed lumps.
Result<std::vector<uint8_t>> encodeValveLzma(std::span<const uint8_t> data);

} // namespace core
