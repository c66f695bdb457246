// Valve VPK archives, versions 1 and 2: the directory (`NAME_dir.vpk`) and where each member's
// bytes lie (preload bytes inside the directory's tree, the rest in the directory file after
// the tree or in a sibling `NAME_NNN.vpk`). GL-free and file-free: the caller reads the bytes;
// content::FileSystem mounts the result (vfs.cpp).
//
// Format: Valve Developer Community "VPK (file format)"; Source SDK 2013 vpklib
// (packedstore_internal.h: VPKDirHeader_t, VPKFILENUMBER_EMBEDDED_IN_DIR_FILE; packedstore.cpp:
// the tree walk, parts ended by PACKFILEINDEX_END). docs/source.md has the layout.
//
// Safety: the input is untrusted. Every string, record and preload range is checked against
// the tree; the v2 sections after the tree (file data, archive MD5, other MD5, signature) are
// checked against the file size and skipped; entry counts are capped at kMaxArchiveEntries.
// Errors are core::Error with code BadArchive, Truncated, UnsupportedVersion or LimitExceeded,
// `file` set to the name given, lump "header" or "tree", index the entry, and a detail naming
// the entry and the field.
#pragma once

#include "core/result.h"

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace content {

inline constexpr uint32_t kVpkSignature = 0x55aa1234;
// ArchiveIndex of an entry whose data follows the tree in the directory file itself.
inline constexpr uint16_t kVpkDirArchive = 0x7fff;
inline constexpr uint64_t kVpkHeaderBytesV1 = 12;
inline constexpr uint64_t kVpkHeaderBytesV2 = 28;

struct VpkEntry {
    std::string name;            // "materials/brick/wall.vmt" as stored ('/' separators)
    uint32_t crc = 0;            // CRC-32 of the whole member (not checked on read)
    uint64_t preload_offset = 0; // in the directory file
    uint32_t preload_size = 0;
    uint16_t archive = 0; // kVpkDirArchive, or NNN of NAME_NNN.vpk
    uint64_t offset = 0;  // in that archive; for kVpkDirArchive from the directory file's start
    uint32_t size = 0;    // bytes after the preload bytes
    uint64_t totalSize() const { return uint64_t(preload_size) + size; }
};

struct VpkDirectory {
    uint32_t version = 0;     // 1 or 2
    uint64_t header_size = 0; // 12 or 28
    uint64_t tree_size = 0;
    // The directory file's own data (archive kVpkDirArchive): [data_offset, data_offset +
    // data_size). Version 1 names no size: the rest of the file.
    uint64_t data_offset = 0;
    uint64_t data_size = 0;
    std::vector<VpkEntry> entries; // in tree order
};

// The header's tree size: how many bytes from the start of the file parseVpkDirectory needs
// (header + tree). `head` is the file's first bytes (at least kVpkHeaderBytesV2 when the file
// has them). Errors as parseVpkDirectory's for the header.
core::Result<uint64_t> vpkDirectoryBytes(std::span<const uint8_t> head, uint64_t file_size,
                                         std::string_view file);

// Parses a `_dir.vpk`: `bytes` is the file from its start, at least header + tree long (the
// whole file is fine); `file_size` the file's full size, against which the v2 sections and the
// entries in the directory file are checked. Entries in sibling archives are not checked here
// (the sibling is read when the member is).
core::Result<VpkDirectory> parseVpkDirectory(std::span<const uint8_t> bytes, uint64_t file_size,
                                             std::string_view file);

// True for a name ending in "_dir.vpk" (any case): the file to mount.
bool isVpkDirectoryName(const std::filesystem::path& file);
// "x/pak01_dir.vpk", 3 -> "x/pak01_003.vpk".
std::filesystem::path vpkArchivePath(const std::filesystem::path& dir_file, uint16_t archive);

} // namespace content
