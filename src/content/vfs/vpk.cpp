// VPK directory parsing (see vpk.h). Layout, all little-endian:
//   header v1: u32 signature 0x55aa1234, u32 version 1, u32 tree size              (12 bytes)
//   header v2: + u32 file data size, u32 archive MD5 size, u32 other MD5 size,
//              u32 signature size                                                   (28 bytes)
//   tree:      { extension\0 { path\0 { file\0 entry preload[] }* \0 }* \0 }* \0
//   entry:     u32 crc, u16 preload bytes, u16 archive index, u32 offset, u32 length,
//              u16 0xffff (the end of the part list; vpklib allows more parts, Valve's tools
//              write one and the engine's loaders read the first, so more is rejected here)
//   then, v2:  file data (archive 0x7fff), archive MD5 entries (28 bytes each), other MD5,
//              signature; v1 keeps archive 0x7fff data after the tree to the end of the file.
// A path of " " is the root folder and an extension of " " is none (Valve's packer writes a
// blank for an empty string, since an empty string ends a list).
#include "content/vfs/vpk.h"

#include "content/vfs/vfs.h"
#include "core/byte_reader.h"
#include "core/file.h"

#include <cstdio>

namespace content {

namespace {

constexpr uint64_t kEntryBytes = 18; // crc .. terminator
constexpr uint64_t kArchiveMd5Bytes = 28;
constexpr uint16_t kPartListEnd = 0xffff;

core::Error vpkError(core::ErrorCode code, std::string_view file, std::string lump, int64_t index,
                     std::string detail) {
    core::Error e = core::makeError(code, std::move(lump), index, {}, std::move(detail));
    e.file = std::string(file);
    return e;
}

// A NUL-terminated string at `at` in the tree; advances `at` past the NUL.
bool readString(const core::ByteReader& tree, uint64_t& at, std::string& out) {
    out.clear();
    for (uint64_t i = at; i < tree.size(); ++i) {
        if (tree.u8(i) == 0) {
            out.assign(reinterpret_cast<const char*>(tree.bytes().data() + at),
                       static_cast<size_t>(i - at));
            at = i + 1;
            return true;
        }
    }
    return false;
}

std::string joinName(const std::string& path, const std::string& file, const std::string& ext) {
    std::string name;
    if (path != " " && !path.empty())
        name = path + "/";
    name += file;
    if (ext != " " && !ext.empty())
        name += "." + ext;
    return name;
}

} // namespace

core::Result<uint64_t> vpkDirectoryBytes(std::span<const uint8_t> head, uint64_t file_size,
                                         std::string_view file) {
    const core::ByteReader h(head);
    if (h.size() < kVpkHeaderBytesV1)
        return vpkError(core::ErrorCode::Truncated, file, "header", -1,
                        "file of " + std::to_string(file_size) + " bytes is shorter than the " +
                            std::to_string(kVpkHeaderBytesV1) + "-byte header");
    if (h.u32(0) != kVpkSignature)
        return vpkError(core::ErrorCode::BadArchive, file, "header", -1,
                        "signature is not 0x55aa1234");
    const uint32_t version = h.u32(4);
    if (version != 1 && version != 2)
        return vpkError(core::ErrorCode::UnsupportedVersion, file, "header", -1,
                        "version " + std::to_string(version) + " (1 and 2 are read)");
    const uint64_t header = version == 1 ? kVpkHeaderBytesV1 : kVpkHeaderBytesV2;
    if (h.size() < header)
        return vpkError(core::ErrorCode::Truncated, file, "header", -1,
                        "version 2 header needs " + std::to_string(header) + " bytes, file has " +
                            std::to_string(h.size()));
    const uint64_t tree = h.u32(8);
    if (header + tree > file_size)
        return vpkError(core::ErrorCode::Truncated, file, "header", -1,
                        "tree size " + std::to_string(tree) + " runs past the end of the " +
                            std::to_string(file_size) + "-byte file");
    return header + tree;
}

core::Result<VpkDirectory> parseVpkDirectory(std::span<const uint8_t> bytes, uint64_t file_size,
                                             std::string_view file) {
    auto needed = vpkDirectoryBytes(bytes, file_size, file);
    if (!needed)
        return needed.error();
    const core::ByteReader r(bytes);
    if (r.size() < *needed)
        return vpkError(core::ErrorCode::Truncated, file, "tree", -1,
                        "need " + std::to_string(*needed) + " bytes, have " +
                            std::to_string(r.size()));
    VpkDirectory dir;
    dir.version = r.u32(4);
    dir.header_size = dir.version == 1 ? kVpkHeaderBytesV1 : kVpkHeaderBytesV2;
    dir.tree_size = r.u32(8);
    dir.data_offset = dir.header_size + dir.tree_size;
    dir.data_size = file_size - dir.data_offset;
    if (dir.version == 2) {
        const uint64_t data = r.u32(12), archive_md5 = r.u32(16), other_md5 = r.u32(20),
                       signature = r.u32(24);
        if (archive_md5 % kArchiveMd5Bytes != 0)
            return vpkError(core::ErrorCode::BadArchive, file, "header", -1,
                            "archive MD5 section size " + std::to_string(archive_md5) +
                                " is not a multiple of 28");
        const uint64_t end = dir.data_offset + data + archive_md5 + other_md5 + signature;
        if (end > file_size)
            return vpkError(core::ErrorCode::Truncated, file, "header", -1,
                            "sections after the tree end at " + std::to_string(end) +
                                ", past the end of the " + std::to_string(file_size) +
                                "-byte file");
        dir.data_size = data;
    }

    const core::ByteReader tree = r.sub(dir.header_size, dir.tree_size);
    uint64_t at = 0;
    std::string ext, path, name;
    auto truncated = [&](const char* what) {
        return vpkError(core::ErrorCode::Truncated, file, "tree",
                        static_cast<int64_t>(dir.entries.size()),
                        std::string(what) + " at tree offset " + std::to_string(at) +
                            " runs past the end of the tree");
    };
    for (;;) {
        if (!readString(tree, at, ext))
            return truncated("extension");
        if (ext.empty())
            break;
        for (;;) {
            if (!readString(tree, at, path))
                return truncated("path");
            if (path.empty())
                break;
            for (;;) {
                if (!readString(tree, at, name))
                    return truncated("file name");
                if (name.empty())
                    break;
                const auto index = static_cast<int64_t>(dir.entries.size());
                VpkEntry e;
                e.name = joinName(path, name, ext);
                if (index >= static_cast<int64_t>(kMaxArchiveEntries))
                    return vpkError(core::ErrorCode::LimitExceeded, file, "tree", index,
                                    "more than " + std::to_string(kMaxArchiveEntries) + " entries");
                if (!tree.inRange(at, kEntryBytes))
                    return vpkError(core::ErrorCode::Truncated, file, "tree", index,
                                    "entry \"" + e.name + "\": record runs past the tree");
                e.crc = tree.u32(at);
                e.preload_size = tree.u16(at + 4);
                e.archive = tree.u16(at + 6);
                e.offset = tree.u32(at + 8);
                e.size = tree.u32(at + 12);
                const uint16_t terminator = tree.u16(at + 16);
                if (terminator != kPartListEnd)
                    return vpkError(core::ErrorCode::BadArchive, file, "tree", index,
                                    "entry \"" + e.name + "\": terminator " +
                                        std::to_string(terminator) +
                                        " is not 0xffff (split members are not read)");
                at += kEntryBytes;
                if (!tree.inRange(at, e.preload_size))
                    return vpkError(core::ErrorCode::Truncated, file, "tree", index,
                                    "entry \"" + e.name + "\": " + std::to_string(e.preload_size) +
                                        " preload bytes run past the tree");
                e.preload_offset = dir.header_size + at;
                at += e.preload_size;
                if (e.archive == kVpkDirArchive) {
                    if (e.offset + e.size > dir.data_size)
                        return vpkError(core::ErrorCode::BadArchive, file, "tree", index,
                                        "entry \"" + e.name + "\": offset " +
                                            std::to_string(e.offset) + " + length " +
                                            std::to_string(e.size) +
                                            " beyond the directory file's data section of " +
                                            std::to_string(dir.data_size) + " bytes");
                    e.offset += dir.data_offset;
                }
                dir.entries.push_back(std::move(e));
            }
        }
    }
    return dir;
}

bool isVpkDirectoryName(const std::filesystem::path& file) {
    const std::string name = core::toLower(file.filename().string());
    constexpr std::string_view kSuffix = "_dir.vpk";
    return name.size() > kSuffix.size() &&
           name.compare(name.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0;
}

std::filesystem::path vpkArchivePath(const std::filesystem::path& dir_file, uint16_t archive) {
    std::string name = dir_file.filename().string();
    constexpr size_t kSuffix = 8; // "_dir.vpk"
    const std::string stem = name.size() > kSuffix ? name.substr(0, name.size() - kSuffix) : name;
    char number[8];
    std::snprintf(number, sizeof(number), "_%03u", static_cast<unsigned>(archive));
    return dir_file.parent_path() / (stem + number + ".vpk");
}

} // namespace content
