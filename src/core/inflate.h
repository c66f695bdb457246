// Whole-buffer DEFLATE decoding through libdeflate, for zip (.pk3) members stored with method 8.
//
// libzip inflates a member through zlib while the archive is locked; the member's compressed
// bytes read raw and inflated here in one call are decoded two to three times faster, and
// outside the archive's lock, so the worker threads decode members side by side.
#pragma once

#include "core/result.h"

#include <cstdint>
#include <span>
#include <vector>

namespace core {

// Largest uncompressed size accepted (a hostile directory may claim 4 GB).
inline constexpr uint64_t kMaxInflateOutput = 1024ull * 1024 * 1024;
// DEFLATE's best ratio: a 258-byte match in two one-bit codes (RFC 1951 3.2.5; zlib's
// "technical details" give the limit as 1032:1). A directory claiming more from fewer bytes is
// refused before its size is allocated; `kDeflateSlack` covers a tiny stream's headers.
inline constexpr uint64_t kMaxDeflateRatio = 1032;
inline constexpr uint64_t kDeflateSlack = 1024;

// Inflates raw DEFLATE data (RFC 1951; a zip's method 8, PKWARE APPNOTE 4.4.5) to exactly
// `uncompressed_size` bytes and checks them against `crc` (the zip's CRC-32). Errors
// (BadArchive) say what was wrong: a size beyond kMaxInflateOutput or beyond what `packed` can
// hold at kMaxDeflateRatio, corrupt data, a stream that
// ends before `uncompressed_size` bytes or goes on past them, or a CRC mismatch. The caller
// names the file and member.
Result<std::vector<uint8_t>> inflateZipMember(std::span<const uint8_t> packed,
                                              uint64_t uncompressed_size, uint32_t crc);

// CRC-32 (ISO 3309, the zip and PNG one) of `data` through libdeflate (carry-less multiply
// where the CPU has it), continuing from `crc` (0 to start); the same value as core::crc32.
uint32_t fastCrc32(std::span<const uint8_t> data, uint32_t crc = 0);

} // namespace core
