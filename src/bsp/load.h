// Entry points: bytes or a file in, a validated bsp::Map or an error out.
#pragma once

#include "bsp/map.h"
#include "core/result.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace bsp {

// What the first bytes of a file say it is. Only the magic and version are looked at.
struct Detected {
    std::optional<Format> format; // nullopt: unknown or unsupported
    std::string magic;            // printable form of the magic ("IBSP", "29", ...)
    int32_t version = 0;
};
Detected detect(std::span<const uint8_t> data);

// Data found beside the map file that some formats use.
struct Companions {
    std::vector<uint8_t> lit; // Quake 1 ".lit" coloured lighting (QLIT v1 or HDR), or empty
    std::vector<uint8_t> lux; // Quake 1 ".lux" light directions (QLIT v1), or empty
};

// Choices among what a file holds more than one of.
struct LoadOptions {
    // Source maps compiled with HDR carry a second set of lightmaps (and faces): draw those
    // instead of the LDR ones when the map has them (Map::lighting_variants says what it has).
    bool hdr_lighting = false;
};

// Parses any supported format. `name` is used in error messages and as Map::name.
// Safe on untrusted input: every offset, size and index is checked; a failure returns an
// error naming the file, lump, record and field; no crash, hang or unbounded allocation.
core::Result<Map> loadMap(std::span<const uint8_t> data, std::string_view name,
                          const Companions& companions = {}, const LoadOptions& options = {});

// Reads the file (and its companions: NAME.lit and NAME.lux beside a Quake 1 map) and parses it.
core::Result<Map> loadMapFile(const std::filesystem::path& path, const LoadOptions& options = {});

} // namespace bsp
