// Whole-file reads with errors that name the file.
#pragma once

#include "core/result.h"

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace core {

// Largest file bspview reads whole (maps, archives, images). Real maps are < 64 MiB; the
// largest pk3 of OpenArena is ~300 MiB, and archives are read member by member instead.
inline constexpr uint64_t kMaxFileBytes = 512ull * 1024 * 1024;

Result<std::vector<uint8_t>> readFile(const std::filesystem::path& path);

// A whole file mapped read-only (POSIX mmap, its pages read ahead), seen in place instead of
// copied into a zeroed buffer: the texture cache's entries, tens of MB read once. A file that
// another process truncates while it is mapped would fault on access, so only files replaced by
// rename (never rewritten in place) are opened this way. Where mapping fails the bytes are read
// (readFile). Errors as readFile's. Movable, not copyable.
class MappedFile {
public:
    static Result<MappedFile> open(const std::filesystem::path& path);
    MappedFile(MappedFile&& other) noexcept;
    MappedFile& operator=(MappedFile&& other) noexcept;
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    ~MappedFile();

    std::span<const uint8_t> bytes() const { return {m_data, m_size}; }
    bool mapped() const { return m_mapped; } // false: read into memory (or empty)

private:
    MappedFile() = default;
    void release();

    const uint8_t* m_data = nullptr;
    size_t m_size = 0;
    bool m_mapped = false;
    std::vector<uint8_t> m_copy; // the bytes when not mapped
};

// "maps/crypt.bsp" -> "crypt.bsp"; also strips Windows separators ("\\sierra\\x.wad" -> "x.wad").
std::string baseName(std::string_view path);

// ASCII lower case (texture and archive member names are compared case-insensitively).
std::string toLower(std::string_view s);

} // namespace core
