// Visibility rows: run-length decoding shared by the Quake 1, Quake 2 and Source families.
#pragma once

#include "bsp/map.h"
#include "core/byte_reader.h"
#include "core/result.h"

#include <cstdint>
#include <span>

namespace bsp {

// Decodes one PVS row compressed the id way (a zero byte is followed by a count of zero
// bytes) from data starting at offset into out (out.size() bytes, the row size).
// Returns false when the input ends before the row is complete; the rest of out is zeroed.
// A run that would overflow the row is clipped at the row's end (it never writes past out).
bool decompressVisRow(const core::ByteReader& data, uint64_t offset, std::span<uint8_t> out);

// Reads the cluster visibility of Quake 2 and Source (the lump starts with the cluster count
// and a (pvs, phs) offset pair per cluster) into map.vis, after checking every leaf's cluster
// against the count. An empty lump leaves map.vis empty. Visibility is one feature: a count
// that does not fit the lump or a leaf's cluster beyond it leaves map.vis empty (everything
// potentially visible), a row whose offset or data lie outside the lump sees everything; each
// with a warning naming the lump and record (bsp/dropped.h). yquake2's CM_ClusterPVS and
// Mod_DecompressVis follow the offsets unchecked. Always returns ok.
core::Status readClusterVisibility(Map& map, const core::ByteReader& vis);

} // namespace bsp
