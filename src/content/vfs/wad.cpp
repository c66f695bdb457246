#include "content/vfs/wad.h"

#include "core/byte_reader.h"
#include "core/file.h"

#include <cstring>

namespace content {

core::Result<Wad> Wad::parse(std::vector<uint8_t> bytes, std::string_view name) {
    auto fail = [&](core::ErrorCode code, int64_t index, std::string detail) {
        core::Error e = core::makeError(code, "wad", index, {}, std::move(detail));
        e.file = std::string(name);
        return e;
    };
    Wad wad;
    wad.m_bytes = std::move(bytes);
    const core::ByteReader r(wad.m_bytes);
    char magic[4] = {};
    if (!r.read(0, magic) || r.size() < 12)
        return fail(core::ErrorCode::BadArchive, -1, "file shorter than a WAD header");
    if (std::memcmp(magic, "WAD3", 4) == 0)
        wad.m_wad3 = true;
    else if (std::memcmp(magic, "WAD2", 4) != 0)
        return fail(core::ErrorCode::BadArchive, -1, "not a WAD2/WAD3 file");
    const int32_t count = r.i32(4), dir = r.i32(8);
    if (count < 0 || dir < 0)
        return fail(core::ErrorCode::BadArchive, -1, "negative directory");
    if (uint32_t(count) > kMaxWadEntries)
        return fail(core::ErrorCode::LimitExceeded, -1,
                    std::to_string(count) + " entries (limit " + std::to_string(kMaxWadEntries) +
                        ")");
    if (!r.inRange(uint64_t(dir), uint64_t(count) * 32))
        return fail(core::ErrorCode::BadArchive, -1, "directory outside the file");
    wad.m_entries.reserve(size_t(count));
    for (int32_t i = 0; i < count; ++i) {
        const uint64_t at = uint64_t(dir) + uint64_t(i) * 32;
        WadEntry e;
        e.offset = r.u32(at);
        e.size = r.u32(at + 4); // disksize: what is stored
        e.type = r.u8(at + 12);
        e.compression = r.u8(at + 13);
        e.name = r.fixedString(at + 16, 16);
        if (!r.inRange(e.offset, e.size))
            return fail(core::ErrorCode::BadArchive, i, "entry " + e.name + " outside the file");
        wad.m_entries.push_back(std::move(e));
    }
    return wad;
}

const WadEntry* Wad::find(std::string_view name) const {
    const std::string want = core::toLower(name);
    for (const WadEntry& e : m_entries)
        if (core::toLower(e.name) == want)
            return &e;
    return nullptr;
}

core::Result<std::span<const uint8_t>> Wad::read(const WadEntry& entry) const {
    if (entry.compression != 0)
        return core::makeError(core::ErrorCode::BadArchive, "wad", -1, entry.name,
                               "compressed entries are not supported");
    const core::ByteReader r(m_bytes);
    if (!r.inRange(entry.offset, entry.size))
        return core::makeError(core::ErrorCode::BadArchive, "wad", -1, entry.name,
                               "entry outside the file");
    return r.sub(entry.offset, entry.size).bytes();
}

core::Result<Miptex> Wad::miptex(std::string_view name) const {
    const WadEntry* e = find(name);
    if (!e)
        return core::makeError(core::ErrorCode::NotFound, "wad", -1, std::string(name),
                               "no such texture");
    if (e->type != 0x43 && e->type != 0x44)
        return core::makeError(core::ErrorCode::BadImage, "wad", -1, e->name,
                               "entry is not a miptex");
    auto bytes = read(*e);
    if (!bytes)
        return bytes.error();
    return parseMiptex(*bytes, m_wad3);
}

} // namespace content
