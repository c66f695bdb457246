// Per-version parsers, called by loadMap after detect(). Internal to the bsp library.
#pragma once

#include "bsp/load.h"

namespace bsp {

// core::Result<Map> parseQuakeN(std::span<const uint8_t> data, std::string_view name);

} // namespace bsp
