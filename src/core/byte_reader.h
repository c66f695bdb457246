// Bounds-checked little-endian reads from an untrusted byte span.
//
// Every read of file data in bspview goes through this class. Offsets and lengths are
// checked with 64-bit arithmetic, so a hostile header cannot wrap an addition around.
// Values are copied out with memcpy, never read by casting a pointer into the file: real
// maps store lumps at unaligned offsets (pd_lava.bsp).
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace core {

static_assert(
    std::endian::native == std::endian::little,
    "bspview reads little-endian files by memcpy; add byte swapping for big-endian hosts");

class ByteReader {
public:
    ByteReader() = default;
    explicit ByteReader(std::span<const uint8_t> data) : m_data(data) {}

    size_t size() const { return m_data.size(); }
    std::span<const uint8_t> bytes() const { return m_data; }

    // True when [offset, offset + length) lies inside the data.
    bool inRange(uint64_t offset, uint64_t length) const {
        return offset <= m_data.size() && length <= m_data.size() - offset;
    }

    // A sub-reader over [offset, offset + length), or an empty reader when out of range.
    ByteReader sub(uint64_t offset, uint64_t length) const {
        if (!inRange(offset, length))
            return ByteReader();
        return ByteReader(m_data.subspan(static_cast<size_t>(offset), static_cast<size_t>(length)));
    }

    // Reads one trivially copyable value at offset; false when out of range.
    template <class T> bool read(uint64_t offset, T& out) const {
        static_assert(std::is_trivially_copyable_v<T>);
        if (!inRange(offset, sizeof(T)))
            return false;
        std::memcpy(&out, m_data.data() + offset, sizeof(T));
        return true;
    }

    // Reads `count` records of T starting at offset into out (resized); false when out of range.
    template <class T> bool readArray(uint64_t offset, uint64_t count, std::vector<T>& out) const {
        static_assert(std::is_trivially_copyable_v<T>);
        if (count > m_data.size() / (sizeof(T) ? sizeof(T) : 1) + 1)
            return false;
        if (!inRange(offset, count * sizeof(T)))
            return false;
        out.resize(static_cast<size_t>(count));
        if (count)
            std::memcpy(out.data(), m_data.data() + offset, static_cast<size_t>(count) * sizeof(T));
        return true;
    }

    // Value at offset, or `fallback` when out of range.
    template <class T> T get(uint64_t offset, T fallback = T{}) const {
        T v;
        return read(offset, v) ? v : fallback;
    }

    uint8_t u8(uint64_t offset) const { return get<uint8_t>(offset); }
    uint16_t u16(uint64_t offset) const { return get<uint16_t>(offset); }
    uint32_t u32(uint64_t offset) const { return get<uint32_t>(offset); }
    int32_t i32(uint64_t offset) const { return get<int32_t>(offset); }
    float f32(uint64_t offset) const { return get<float>(offset); }

    // A NUL-terminated string stored in a fixed-size field of `length` bytes (texture names).
    // Stops at the first NUL or the end of the field; out of range gives an empty string.
    std::string fixedString(uint64_t offset, uint64_t length) const {
        if (!inRange(offset, length))
            return {};
        const char* p = reinterpret_cast<const char*>(m_data.data() + offset);
        size_t n = 0;
        while (n < length && p[n] != '\0')
            ++n;
        return std::string(p, n);
    }

private:
    std::span<const uint8_t> m_data;
};

} // namespace core
