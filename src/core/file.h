// Whole-file reads with errors that name the file.
#pragma once

#include "core/result.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace core {

// Largest file bspview reads whole (maps, archives, images). Real maps are < 64 MiB; the
// largest pk3 of OpenArena is ~300 MiB, and archives are read member by member instead.
inline constexpr uint64_t kMaxFileBytes = 512ull * 1024 * 1024;

Result<std::vector<uint8_t>> readFile(const std::filesystem::path& path);

// "maps/crypt.bsp" -> "crypt.bsp"; also strips Windows separators ("\\sierra\\x.wad" -> "x.wad").
std::string baseName(std::string_view path);

// ASCII lower case (texture and archive member names are compared case-insensitively).
std::string toLower(std::string_view s);

} // namespace core
