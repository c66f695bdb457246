// Real Source map files changed for tests of what the shared maps lack (a sky_camera, cube-map
// samples, ...). vbspWithEntities: the entity lump's text (lump 0, NUL-terminated) gets `extra`
// before its NUL and moves to the end of the file, its header entry (dheader_t::lumps[0], lump_t:
// fileofs, filelen, version, fourCC; Source SDK 2013 public/bspfile.h) pointed at it. Every other
// lump stays where it was. Empty when the bytes are no VBSP or the lump lies outside them.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace testsupport {

// A real Source map file with lump `lump`'s data replaced by `data`, appended at the end of the
// file (4-byte aligned) with its header entry (fileofs, filelen; Valve's directory order) pointed
// at it and its version set to `version`. Empty when the bytes are no VBSP or `lump` is not 0..63.
inline std::vector<uint8_t> vbspWithLump(std::vector<uint8_t> bytes, int lump,
                                         const std::vector<uint8_t>& data, int32_t version = 0) {
    if (bytes.size() < 1036 || std::memcmp(bytes.data(), "VBSP", 4) != 0 || lump < 0 || lump > 63)
        return {};
    while (bytes.size() % 4 != 0)
        bytes.push_back(0);
    const size_t entry = 8 + size_t(lump) * 16;
    const auto ofs = static_cast<int32_t>(bytes.size());
    const auto len = static_cast<int32_t>(data.size());
    bytes.insert(bytes.end(), data.begin(), data.end());
    std::memcpy(bytes.data() + entry, &ofs, 4);
    std::memcpy(bytes.data() + entry + 4, &len, 4);
    std::memcpy(bytes.data() + entry + 8, &version, 4);
    return bytes;
}

inline std::vector<uint8_t> vbspWithEntities(std::vector<uint8_t> bytes, std::string_view extra) {
    constexpr size_t kLump0 = 8; // after ident and version
    if (bytes.size() < kLump0 + 16 || std::memcmp(bytes.data(), "VBSP", 4) != 0)
        return {};
    int32_t ofs = 0, len = 0;
    std::memcpy(&ofs, bytes.data() + kLump0, 4);
    std::memcpy(&len, bytes.data() + kLump0 + 4, 4);
    if (ofs < 0 || len <= 0 || size_t(ofs) + size_t(len) > bytes.size())
        return {};
    std::vector<uint8_t> text(bytes.begin() + ofs, bytes.begin() + ofs + len);
    while (!text.empty() && text.back() == 0)
        text.pop_back();
    text.insert(text.end(), extra.begin(), extra.end());
    text.push_back(0);
    while (bytes.size() % 4 != 0) // lumps start on 4-byte boundaries as vbsp writes them
        bytes.push_back(0);
    const auto new_ofs = static_cast<int32_t>(bytes.size());
    const auto new_len = static_cast<int32_t>(text.size());
    bytes.insert(bytes.end(), text.begin(), text.end());
    std::memcpy(bytes.data() + kLump0, &new_ofs, 4);
    std::memcpy(bytes.data() + kLump0 + 4, &new_len, 4);
    return bytes;
}

} // namespace testsupport
