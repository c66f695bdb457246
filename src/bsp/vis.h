// Visibility rows: run-length decoding shared by the Quake 1 and Quake 2 families.
#pragma once

#include "core/byte_reader.h"

#include <cstdint>
#include <span>

namespace bsp {

// Decodes one PVS row compressed the id way (a zero byte is followed by a count of zero
// bytes) from data starting at offset into out (out.size() bytes, the row size).
// Returns false when the input ends before the row is complete; the rest of out is zeroed.
// A run that would overflow the row is clipped at the row's end (it never writes past out).
bool decompressVisRow(const core::ByteReader& data, uint64_t offset, std::span<uint8_t> out);

} // namespace bsp
