// Per-version parsers, called by loadMap after detect(). Internal to the bsp library.
#pragma once

#include "bsp/load.h"

namespace bsp {

// core::Result<Map> parseQuakeN(std::span<const uint8_t> data, std::string_view name);

// Quake 3 family: IBSP 46, IBSP 47 (RTCW/ET) and FBSP 1 (Qfusion). Errors carry `name` as
// their file; the map's name is set to it. Safe on untrusted input (see load.h).
core::Result<Map> parseQuake3(std::span<const uint8_t> data, std::string_view name);
// Quake 1 BSP29, BSP2, 2PSB and Half-Life BSP30 (q1.cpp). Uses companions.lit (QLIT v1)
// for coloured lighting when it matches the map's lighting lump.
core::Result<Map> parseQuake1(std::span<const uint8_t> data, std::string_view name,
                              const Companions& companions);

// Quake 2 IBSP 38 and the re-release's QBSP 38 (q2.cpp).
core::Result<Map> parseQuake2(std::span<const uint8_t> data, std::string_view name);

// Source VBSP 19, 20, 21 (both lump directory orders) and Strata's 25 (vbsp.cpp).
core::Result<Map> parseSource(std::span<const uint8_t> data, std::string_view name,
                              const LoadOptions& options);

} // namespace bsp
