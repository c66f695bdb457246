// Lump directory checks shared by the Quake 1 family and Quake 2 parsers (after q2pro
// src/common/bsp.c: every lump's range and record multiple is checked before anything is read).
#pragma once

#include "bsp/map.h"
#include "core/byte_reader.h"
#include "core/result.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>

namespace bsp {

struct LumpRef {
    const char* name = "";
    uint32_t offset = 0;
    uint32_t length = 0;
    uint32_t record_size = 0; // 0: bytes
    uint64_t count() const { return record_size ? length / record_size : length; }
};

// Range against the file and whole-record check; records the lump in map.lumps for --info.
inline core::Status checkLump(const core::ByteReader& file, const LumpRef& lump, Map& map) {
    if (!file.inRange(lump.offset, lump.length))
        return core::makeError(core::ErrorCode::LumpOutOfBounds, lump.name, -1, {},
                               "lump " + std::to_string(lump.offset) + "+" +
                                   std::to_string(lump.length) + " beyond file size " +
                                   std::to_string(file.size()));
    if (lump.record_size && lump.length % lump.record_size)
        return core::makeError(core::ErrorCode::LumpSize, lump.name, -1, {},
                               std::to_string(lump.length) + " bytes is not a multiple of " +
                                   std::to_string(lump.record_size));
    map.lumps.push_back(LumpInfo{lump.name, lump.offset, lump.length, lump.record_size,
                                 static_cast<uint32_t>(lump.count())});
    return core::okStatus();
}

// Three little-endian floats at `at` (a vector in every format's records).
inline glm::vec3 vec3At(const core::ByteReader& r, uint64_t at) {
    return {r.f32(at), r.f32(at + 4), r.f32(at + 8)};
}

// Whether every component of a vector read from a lump is a finite number.
inline bool finite(const glm::vec3& v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

inline core::ByteReader lumpReader(const core::ByteReader& file, const LumpRef& lump) {
    return file.sub(lump.offset, lump.length);
}

inline core::Error indexError(const char* lump, int64_t index, std::string field, int64_t value,
                              uint64_t limit, const char* what) {
    return core::makeError(core::ErrorCode::IndexOutOfRange, lump, index, std::move(field),
                           std::to_string(value) + " beyond " + std::to_string(limit) + " " + what);
}

// The planes lump of the Quake 1, Quake 2 and Source families: 20-byte records of normal, dist
// and an axis type (not kept). The caller has checked the record multiple.
inline void readPlanes(Map& map, const core::ByteReader& r) {
    map.planes.resize(r.size() / 20);
    for (size_t i = 0; i < map.planes.size(); ++i) {
        r.read(i * 20, map.planes[i].normal);
        map.planes[i].dist = r.f32(i * 20 + 12);
    }
}

// Caps on visibility memory (rows are clusters^2 / 8 bytes).
inline constexpr uint64_t kMaxVisBytes = 256ull * 1024 * 1024;

} // namespace bsp
