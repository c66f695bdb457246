// Leak files: the path a map compiler found from an entity to the void when the map leaks.
// GL-free; docs/compile_files.md has the grammar and the writers it is read from.
//
//   .pts  Quake 1 qbsp and ericw-tools (qbsp/outside.cc WriteLeakLine, WriteLeakTrail): one
//         "X Y Z" per line, dense (a point every -leakdist units, default 2) from the leaking
//         entity to the outside; QuakeSpasm reads it with fscanf("%f %f %f\n")
//         (Quake/r_part.c R_ReadPointFile_f).
//   .lin  q3map2 and Quake 2 q2map (tools/quake3/q3map2/leakfile.c and
//         tools/quake2/q2map/leakfile.c LeakFile): "%f %f %f\n" per portal centre crossed, from
//         the outside to the occupant's origin.
//
// Both are the same grammar to a reader: a polyline. Blank lines are allowed, a line with
// anything but three finite numbers within +-kMaxCompileCoordinate (content/compile/compile_text.h)
// is an error naming the file and line.
//
// Safety: the text is untrusted; parsing is linear, never reads past the view, and keeps at
// most kMaxLeakPoints points.
#pragma once

#include "core/result.h"

#include <glm/vec3.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace content {

// ericw-tools writes a point every 2 units by default: a leak across a 32,768-unit map is
// ~16,000 points. 1M leaves room for far larger ones.
inline constexpr size_t kMaxLeakPoints = 1u << 20;

struct LeakLine {
    std::string file;              // base name of the file read
    std::vector<glm::vec3> points; // in file order
    // Indices into points where the path turns (plus the first and last point): the places a
    // "next point" camera move visits. For a .lin every point; for a dense .pts only corners.
    std::vector<uint32_t> stops;
    float length = 0.0f; // sum of segment lengths
};

// Parses the text of a .pts or .lin file; `file` names it in errors. Errors: BadValue (a line
// that is not three finite numbers, or no point at all), LimitExceeded (more than
// kMaxLeakPoints points).
core::Result<LeakLine> parseLeakFile(std::string_view text, std::string_view file);
// Reads and parses a file (errors name the file's base name).
core::Result<LeakLine> loadLeakFile(const std::filesystem::path& path);

// The stops of a polyline: the first and last points and every point where the direction
// turns by more than `min_degrees` (collinear runs of a dense trail collapse to their ends;
// repeated points are skipped).
std::vector<uint32_t> leakStops(const std::vector<glm::vec3>& points, float min_degrees = 2.0f);

} // namespace content
