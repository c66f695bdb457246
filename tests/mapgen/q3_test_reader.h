// A small Quake 3 BSP reader for the map generator's tests: it reads a written file back
// into a Q3MapDesc so tests can compare it with what was written. It checks the header,
// lump bounds and record sizes, nothing more; bspview's real parser lives in src/bsp.
#pragma once

#include "mapgen/q3_writer.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace mapgen_test {

// The lump-directory checks bspcheck.py makes: magic and version, every lump inside the
// file and after the header, whole records, 4-aligned offsets, no overlaps.
// Returns an empty string when they all pass, else one line per problem.
std::string checkStructure(std::span<const uint8_t> file);

// Decodes every lump. nullopt (and *error set) when checkStructure fails.
std::optional<mapgen::Q3MapDesc> readQ3(std::span<const uint8_t> file, std::string* error);

} // namespace mapgen_test
