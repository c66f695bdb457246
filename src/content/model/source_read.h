// Bounds-checked helpers shared by the Source model decoders (source_mdl.cpp, vvd.cpp, vtx.cpp):
// (count, offset) tables and offset-named strings, each failure a core::Error naming the
// structure ("mdl.bones", "vtx.strips", ...), the record and the field.
#pragma once

#include "core/byte_reader.h"
#include "core/result.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace content::source_read {

inline core::Error error(core::ErrorCode code, std::string_view what, int64_t index,
                         std::string field, std::string detail) {
    return core::makeError(code, std::string(what), index, std::move(field), std::move(detail));
}

inline core::Error truncated(std::string_view what, int64_t index, std::string field,
                             uint64_t offset, uint64_t need, size_t size) {
    return error(core::ErrorCode::Truncated, what, index, std::move(field),
                 std::to_string(need) + " bytes at " + std::to_string(offset) + " beyond " +
                     std::to_string(size));
}

struct Table {
    uint32_t count = 0;
    uint64_t offset = 0; // absolute, in the reader
};

// A (count, offset) pair whose offset counts from `base` (the record holding it, or 0 for the
// file): a count in 0..limit whose `record_bytes` records lie inside the reader.
inline core::Result<Table> table(const core::ByteReader& r, std::string_view what, int64_t index,
                                 const char* field, int32_t count, int32_t offset, uint64_t base,
                                 uint64_t record_bytes, uint32_t limit) {
    if (count < 0)
        return error(core::ErrorCode::BadValue, what, index, field,
                     std::to_string(count) + " is negative");
    if (uint32_t(count) > limit)
        return error(core::ErrorCode::LimitExceeded, what, index, field,
                     std::to_string(count) + " > " + std::to_string(limit));
    const int64_t at = int64_t(base) + int64_t(offset);
    const uint64_t need = uint64_t(count) * record_bytes;
    if (count > 0 && (at < 0 || !r.inRange(uint64_t(at), need)))
        return truncated(what, index, field, uint64_t(std::max<int64_t>(at, 0)), need, r.size());
    return Table{uint32_t(count), count > 0 ? uint64_t(at) : 0};
}

// The NUL-terminated string at base + offset: it must end inside the data within `max_length`
// bytes (so many names pointing at one long run cost little to reject).
inline core::Result<std::string> stringAt(const core::ByteReader& r, std::string_view what,
                                          int64_t index, const char* field, uint64_t base,
                                          int32_t offset, size_t max_length) {
    const int64_t at = int64_t(base) + int64_t(offset);
    if (at < 0 || uint64_t(at) >= r.size())
        return truncated(what, index, field, uint64_t(std::max<int64_t>(at, 0)), 1, r.size());
    const auto bytes = r.bytes().subspan(size_t(at));
    const size_t limit = std::min(bytes.size(), max_length + 1);
    size_t n = 0;
    while (n < limit && bytes[n] != 0)
        ++n;
    if (n == bytes.size())
        return error(core::ErrorCode::Truncated, what, index, field,
                     "string at " + std::to_string(at) + " runs past the end");
    if (n == limit)
        return error(core::ErrorCode::LimitExceeded, what, index, field,
                     "string at " + std::to_string(at) + " longer than " +
                         std::to_string(max_length) + " bytes");
    return std::string(reinterpret_cast<const char*>(bytes.data()), n);
}

inline std::array<float, 3> vec3At(const core::ByteReader& r, uint64_t offset) {
    return {r.f32(offset), r.f32(offset + 4), r.f32(offset + 8)};
}

} // namespace content::source_read
