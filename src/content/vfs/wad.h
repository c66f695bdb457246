// WAD2 (Quake) and WAD3 (Half-Life) texture archives.
//
// Layout (Quake wad.h / Half-Life wadfile): "WAD2" or "WAD3", lump count, directory offset;
// 32-byte directory entries {filepos, disksize, size, type, compression, pad[2], name[16]}.
// Lookups ignore case (the games upper-case names when they compare). Compressed lumps are
// not used by any shipped tool and are reported as BadArchive when read.
#pragma once

#include "content/image/miptex.h"
#include "core/result.h"

#include <string>
#include <string_view>
#include <vector>

namespace content {

struct WadEntry {
    std::string name;
    uint32_t offset = 0;
    uint32_t size = 0;
    uint8_t type = 0; // 0x44 miptex (WAD2), 0x43 miptex (WAD3), 0x42 qpic, 0x40 palette
    uint8_t compression = 0;
};

class Wad {
public:
    // Takes ownership of the file bytes. Errors: BadArchive (magic, directory or an entry
    // outside the file), LimitExceeded (more than kMaxWadEntries entries).
    static core::Result<Wad> parse(std::vector<uint8_t> bytes, std::string_view name = {});

    bool isWad3() const { return m_wad3; }
    const std::vector<WadEntry>& entries() const { return m_entries; }

    // Case-insensitive; the first entry of that name, or nullptr.
    const WadEntry* find(std::string_view name) const;
    // The entry's bytes; BadArchive for compressed entries.
    core::Result<std::span<const uint8_t>> read(const WadEntry& entry) const;
    // Texture by name (miptex entries only; WAD3 textures come with their palette).
    core::Result<Miptex> miptex(std::string_view name) const;

    static constexpr uint32_t kMaxWadEntries = 65536;

private:
    std::vector<uint8_t> m_bytes;
    std::vector<WadEntry> m_entries;
    bool m_wad3 = false;
};

} // namespace content
