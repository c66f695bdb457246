// The limits each game's tools and engine were built with (MAX_MAP_* in the game's
// bspfile.h / qfiles.h), per lump, so the map info panel and --info can show how full a map
// is. A map over a limit loads here but may not in the original engine.
//
// Sources: Quake 1 bspfile.h (id Software quake, WinQuake/bspfile.h), Half-Life
// common/bspfile.h (Valve halflife SDK), Quake 2 qcommon/qfiles.h, Quake 3 qcommon/qfiles.h.
// BSP2 and 2PSB widen the 16-bit records to 32 bits and drop the fixed tables; RTCW/ET and
// Qfusion are shown against the Quake 3 table.
#pragma once

#include "bsp/map.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace bsp {

struct LumpLimit {
    std::string_view lump;     // LumpInfo::name this limit applies to; "entity count": entities
    std::string_view constant; // the engine's name for it, e.g. "MAX_MAP_PLANES"
    uint64_t max = 0;
    bool bytes = false; // the limit is on the lump's length in bytes, not its record count
};

// The table for a format (empty for formats without fixed limits) and where it comes from.
std::span<const LumpLimit> lumpLimits(Format format);
std::string_view limitsSource(Format format);

struct LimitRow {
    std::string lump;
    uint64_t length = 0;      // bytes
    uint32_t record_size = 0; // 0: a byte lump
    uint64_t count = 0;       // records, or bytes for byte lumps
    uint64_t used = 0;        // what the limit compares: count or length
    uint64_t limit = 0;       // 0: no limit known
    std::string_view constant;
    bool over() const { return limit != 0 && used > limit; }
    double fraction() const { return limit ? static_cast<double>(used) / limit : 0.0; }
};

// One row per lump of map.lumps (in file order), then an "entity count" row.
std::vector<LimitRow> checkLimits(const Map& map);

} // namespace bsp
