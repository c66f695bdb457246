// Helpers the entry points (entry_points.cpp, model_entry_points.cpp) share; not an interface.
#pragma once

#include "entry_points.h"

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>

namespace fuzz {

// A rejection, which must say what went wrong (a code other than Ok, a message).
Outcome rejected(core::Error e);

// "what[index] range first+count beyond size", or empty when the range lies inside `size`.
std::string rangeProblem(const char* what, uint64_t index, uint64_t first, uint64_t count,
                         uint64_t size);

// Writes `data` to `path`; false when that fails.
bool writeFile(const std::filesystem::path& path, std::span<const uint8_t> data);

} // namespace fuzz
