// Virtual file system (see vfs.h).
//
// Formats:
// - Quake .pak (id Software, Quake common.c COM_LoadPackFile; Quake 2 files.c FS_LoadPackFile):
//   12-byte header "PACK", int32 dir_offset, int32 dir_length; the directory is dir_length / 64
//   entries of { char name[56] (NUL-padded), int32 file_pos, int32 file_len }. Members are
//   stored uncompressed. Every field is checked against the file size here; the engines trust it.
// - .pk3: a plain zip (PKWARE APPNOTE), read through libzip in read-only mode; deflated and
//   LZMA members are read raw and decoded here (readZipDeflateMember, readZipLzmaMember).
// - Source's NAME_dir.vpk (versions 1 and 2, vpk.h): the tree is read once; a member is its
//   preload bytes from the directory file followed by its data from the directory file or
//   from NAME_NNN.vpk beside it.
// Override order: ioquake3 code/qcommon/files.c FS_AddGameDirectory (archives sorted by name,
// later ones searched first, then the folder's loose files searched before its archives).
#include "content/vfs/vfs.h"

#include "content/vfs/vpk.h"
#include "core/byte_reader.h"
#include "core/file.h"
#include "core/inflate.h"
#include "core/lzma.h"

#include <zip.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <unordered_map>

namespace content {

namespace fs = std::filesystem;

namespace {

constexpr uint64_t kPakHeaderBytes = 12;
constexpr uint64_t kPakEntryBytes = 64;
constexpr uint64_t kPakNameBytes = 56;
constexpr int kGameDirSearchLevels = 4;

enum class Kind { Directory, Pak, Zip, Vpk };

core::Error fileError(core::ErrorCode code, const fs::path& file, std::string lump, int64_t index,
                      std::string detail) {
    core::Error e = core::makeError(code, std::move(lump), index, {}, std::move(detail));
    e.file = file.string();
    return e;
}

std::string lowerExtension(const fs::path& p) {
    return core::toLower(p.extension().string());
}

bool isArchiveExtension(const std::string& ext) {
    return ext == ".pk3" || ext == ".pak" || ext == ".zip";
}

// What addGameDir mounts from a game folder: .pk3, .pak, and a VPK's directory file (not its
// NAME_NNN.vpk data files).
bool isMountedArchive(const fs::path& p) {
    const std::string ext = lowerExtension(p);
    return ext == ".pk3" || ext == ".pak" || (ext == ".vpk" && isVpkDirectoryName(p));
}

// Reads [offset, offset + size) of a file; the caller has checked the range against the file
// size it saw when indexing, and a file that shrank since gives FileRead.
core::Result<std::vector<uint8_t>> readRange(const fs::path& path, uint64_t offset, uint64_t size,
                                             const std::string& member) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return fileError(core::ErrorCode::FileOpen, path, member, -1, "cannot open file");
    std::vector<uint8_t> data(static_cast<size_t>(size));
    in.seekg(static_cast<std::streamoff>(offset), std::ios::beg);
    if (size > 0 &&
        !in.read(reinterpret_cast<char*>(data.data()), static_cast<std::streamsize>(size)))
        return fileError(core::ErrorCode::FileRead, path, member, -1,
                         "cannot read " + std::to_string(size) + " bytes at offset " +
                             std::to_string(offset));
    return data;
}

} // namespace

struct FileSystem::Entry {
    std::string name;    // as stored (original letter case), '/' separators
    uint64_t offset = 0; // .pak: data offset; .pk3: libzip entry index; .vpk: data offset
    uint64_t size = 0;   // the whole member (.vpk: preload + data)
    // .vpk only: the preload bytes in the directory file, and which file holds the rest.
    uint64_t preload_offset = 0;
    uint32_t preload_size = 0;
    uint16_t vpk_archive = 0;
    // .pk3 only: members read raw and decoded here rather than through libzip: LZMA (method
    // 14), which Debian's libzip cannot decode, and deflate (method 8), which libdeflate
    // inflates in one call outside the archive's lock (core/inflate.h).
    enum class ZipRaw : uint8_t { No, Lzma, Deflate };
    ZipRaw zip_raw = ZipRaw::No;
    uint64_t zip_packed_size = 0;
    uint32_t zip_crc = 0;
};

struct FileSystem::Source {
    Kind kind = Kind::Directory;
    fs::path path;
    std::string label;
    std::unordered_map<std::string, Entry> entries; // key: normalizeName(name)
    zip_t* zip = nullptr;
    std::vector<uint8_t> memory;  // an embedded archive's bytes (libzip reads them in place)
    mutable std::mutex zip_mutex; // libzip archives must not be read from two threads at once

    ~Source() {
        if (zip)
            zip_discard(zip);
    }
};

std::string normalizeName(std::string_view name) {
    std::string out = core::toLower(name);
    std::replace(out.begin(), out.end(), '\\', '/');
    size_t start = 0;
    for (;;) {
        if (out.compare(start, 1, "/") == 0)
            start += 1;
        else if (out.compare(start, 2, "./") == 0)
            start += 2;
        else
            break;
    }
    return out.substr(start);
}

FileSystem::FileSystem() = default;
FileSystem::~FileSystem() = default;
FileSystem::FileSystem(FileSystem&&) noexcept = default;
FileSystem& FileSystem::operator=(FileSystem&&) noexcept = default;

core::Status FileSystem::addDirectory(const fs::path& dir) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        return fileError(core::ErrorCode::FileOpen, dir, {}, -1, "not a directory");
    auto src = std::make_unique<Source>();
    src->kind = Kind::Directory;
    src->path = dir;
    src->label = dir.string();
    // Iterative walk (no recursion the disk controls); directory symlinks are not followed, so
    // a link cycle cannot loop.
    fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
    if (ec)
        return fileError(core::ErrorCode::FileOpen, dir, {}, -1, "cannot list: " + ec.message());
    uint64_t count = 0;
    for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (ec)
            return fileError(core::ErrorCode::FileRead, dir, {}, -1,
                             "cannot list: " + ec.message());
        if (it.depth() >= kMaxDirectoryDepth)
            it.disable_recursion_pending();
        std::error_code fec;
        if (!it->is_regular_file(fec))
            continue;
        if (++count > kMaxArchiveEntries)
            return fileError(core::ErrorCode::LimitExceeded, dir, {}, -1,
                             "more than " + std::to_string(kMaxArchiveEntries) + " files");
        Entry e;
        e.name = it->path().lexically_relative(dir).generic_string();
        e.size = it->file_size(fec);
        src->entries.emplace(normalizeName(e.name), std::move(e));
    }
    m_sources.push_back(std::move(src));
    return core::okStatus();
}

namespace {

core::Status indexPak(FileSystem::Source& src);
core::Status indexZip(FileSystem::Source& src);
core::Status indexVpk(FileSystem::Source& src);

} // namespace

core::Status FileSystem::addArchive(const fs::path& archive) {
    std::ifstream in(archive, std::ios::binary);
    std::error_code ec;
    if (!in || fs::is_directory(archive, ec))
        return fileError(core::ErrorCode::FileOpen, archive, {}, -1, "cannot open archive");
    std::array<char, 4> magic{};
    in.read(magic.data(), 4);
    const bool got_magic = static_cast<bool>(in);
    in.close();
    uint32_t magic_u32 = 0;
    std::memcpy(&magic_u32, magic.data(), sizeof(magic_u32));

    auto src = std::make_unique<Source>();
    src->path = archive;
    src->label = core::baseName(archive.string());
    core::Status st = core::okStatus();
    if (got_magic && std::memcmp(magic.data(), "PACK", 4) == 0) {
        src->kind = Kind::Pak;
        st = indexPak(*src);
    } else if (got_magic && magic[0] == 'P' && magic[1] == 'K') {
        src->kind = Kind::Zip;
        st = indexZip(*src);
    } else if (got_magic && magic_u32 == kVpkSignature) {
        src->kind = Kind::Vpk;
        st = indexVpk(*src);
    } else {
        return fileError(core::ErrorCode::BadArchive, archive, "header", -1,
                         "neither a zip (.pk3), a PACK (.pak) nor a VPK directory (_dir.vpk)");
    }
    if (!st)
        return st;
    m_sources.push_back(std::move(src));
    return core::okStatus();
}

core::Status FileSystem::addEmbeddedArchive(std::vector<uint8_t> bytes, const fs::path& owner,
                                            std::string label) {
    auto src = std::make_unique<Source>();
    src->kind = Kind::Zip;
    src->path = owner;
    src->label = std::move(label);
    src->memory = std::move(bytes);
    if (src->memory.empty())
        return fileError(core::ErrorCode::BadArchive, owner, src->label, -1, "empty archive");
    if (auto st = indexZip(*src); !st)
        return st;
    m_sources.push_back(std::move(src));
    return core::okStatus();
}

namespace {

core::Status indexPak(FileSystem::Source& src) {
    std::error_code ec;
    const uint64_t file_size = fs::file_size(src.path, ec);
    if (ec)
        return fileError(core::ErrorCode::FileOpen, src.path, {}, -1, ec.message());
    auto header = readRange(src.path, 0, std::min<uint64_t>(file_size, kPakHeaderBytes), "header");
    if (!header)
        return header.error();
    const core::ByteReader h(*header);
    if (h.size() < kPakHeaderBytes)
        return fileError(core::ErrorCode::Truncated, src.path, "header", -1,
                         "file of " + std::to_string(file_size) + " bytes is shorter than the " +
                             std::to_string(kPakHeaderBytes) + "-byte header");
    const int32_t dir_offset = h.i32(4);
    const int32_t dir_length = h.i32(8);
    if (dir_offset < 0 || dir_length < 0)
        return fileError(core::ErrorCode::BadArchive, src.path, "header", -1,
                         "negative directory offset " + std::to_string(dir_offset) + " or length " +
                             std::to_string(dir_length));
    if (dir_length % kPakEntryBytes != 0)
        return fileError(core::ErrorCode::BadArchive, src.path, "header", -1,
                         "directory length " + std::to_string(dir_length) +
                             " is not a multiple of 64");
    const uint64_t count = static_cast<uint64_t>(dir_length) / kPakEntryBytes;
    if (count > kMaxArchiveEntries)
        return fileError(core::ErrorCode::LimitExceeded, src.path, "header", -1,
                         std::to_string(count) + " entries exceed limit " +
                             std::to_string(kMaxArchiveEntries));
    if (static_cast<uint64_t>(dir_offset) + static_cast<uint64_t>(dir_length) > file_size)
        return fileError(core::ErrorCode::Truncated, src.path, "directory", -1,
                         "directory " + std::to_string(dir_offset) + "+" +
                             std::to_string(dir_length) + " beyond file size " +
                             std::to_string(file_size));
    auto dir_bytes = readRange(src.path, static_cast<uint64_t>(dir_offset),
                               static_cast<uint64_t>(dir_length), "directory");
    if (!dir_bytes)
        return dir_bytes.error();
    const core::ByteReader d(*dir_bytes);
    for (uint64_t i = 0; i < count; ++i) {
        const uint64_t at = i * kPakEntryBytes;
        FileSystem::Entry e;
        e.name = d.fixedString(at, kPakNameBytes);
        std::replace(e.name.begin(), e.name.end(), '\\', '/');
        const int32_t pos = d.i32(at + kPakNameBytes);
        const int32_t len = d.i32(at + kPakNameBytes + 4);
        const auto index = static_cast<int64_t>(i);
        if (e.name.empty())
            return fileError(core::ErrorCode::BadArchive, src.path, "directory", index,
                             "entry has an empty name");
        if (pos < 0 || len < 0)
            return fileError(core::ErrorCode::BadArchive, src.path, "directory", index,
                             "entry \"" + e.name + "\": negative offset " + std::to_string(pos) +
                                 " or length " + std::to_string(len));
        if (static_cast<uint64_t>(len) > kMaxMemberBytes)
            return fileError(core::ErrorCode::LimitExceeded, src.path, "directory", index,
                             "entry \"" + e.name + "\": size " + std::to_string(len) +
                                 " exceeds limit " + std::to_string(kMaxMemberBytes));
        if (static_cast<uint64_t>(pos) + static_cast<uint64_t>(len) > file_size)
            return fileError(core::ErrorCode::BadArchive, src.path, "directory", index,
                             "entry \"" + e.name + "\": data " + std::to_string(pos) + "+" +
                                 std::to_string(len) + " beyond file size " +
                                 std::to_string(file_size));
        e.offset = static_cast<uint64_t>(pos);
        e.size = static_cast<uint64_t>(len);
        // Quake searches the directory front to back, so the first of two equal names wins.
        src.entries.emplace(normalizeName(e.name), std::move(e));
    }
    return core::okStatus();
}

std::string zipErrorText(int code) {
    zip_error_t err;
    zip_error_init_with_code(&err, code);
    std::string text = zip_error_strerror(&err);
    zip_error_fini(&err);
    return text;
}

core::Status indexZip(FileSystem::Source& src) {
    int code = 0;
    if (src.memory.empty()) {
        src.zip = zip_open(src.path.string().c_str(), ZIP_RDONLY, &code);
    } else {
        zip_error_t err;
        zip_error_init(&err);
        zip_source_t* source =
            zip_source_buffer_create(src.memory.data(), src.memory.size(), 0, &err);
        if (source) {
            src.zip = zip_open_from_source(source, ZIP_RDONLY, &err);
            if (!src.zip)
                zip_source_free(source);
        }
        code = zip_error_code_zip(&err);
        zip_error_fini(&err);
    }
    if (!src.zip)
        return fileError(core::ErrorCode::BadArchive, src.path, src.label, -1,
                         "cannot open zip: " + zipErrorText(code));
    const zip_int64_t count = zip_get_num_entries(src.zip, 0);
    if (count < 0 || static_cast<uint64_t>(count) > kMaxArchiveEntries)
        return fileError(core::ErrorCode::LimitExceeded, src.path, "directory", -1,
                         std::to_string(count) + " entries exceed limit " +
                             std::to_string(kMaxArchiveEntries));
    for (zip_int64_t i = 0; i < count; ++i) {
        zip_stat_t st;
        zip_stat_init(&st);
        if (zip_stat_index(src.zip, static_cast<zip_uint64_t>(i), 0, &st) != 0 || !st.name ||
            !(st.valid & ZIP_STAT_SIZE))
            return fileError(core::ErrorCode::BadArchive, src.path, "directory", i,
                             std::string("cannot read entry: ") + zip_strerror(src.zip));
        FileSystem::Entry e;
        e.name = st.name;
        std::replace(e.name.begin(), e.name.end(), '\\', '/');
        if (e.name.empty() || e.name.back() == '/')
            continue; // folder entry
        // Oversized members are indexed (so they are found and reported) but never read.
        e.offset = static_cast<uint64_t>(i);
        e.size = st.size;
        if ((st.valid & ZIP_STAT_COMP_METHOD) && st.comp_method == ZIP_CM_LZMA &&
            !zip_compression_method_supported(ZIP_CM_LZMA, 0)) {
            if (!(st.valid & ZIP_STAT_COMP_SIZE) || !(st.valid & ZIP_STAT_CRC))
                return fileError(core::ErrorCode::BadArchive, src.path, "directory", i,
                                 "LZMA entry \"" + e.name + "\" without sizes or CRC");
            e.zip_raw = FileSystem::Entry::ZipRaw::Lzma;
            e.zip_packed_size = st.comp_size;
            e.zip_crc = st.crc;
        } else if ((st.valid & ZIP_STAT_COMP_METHOD) && st.comp_method == ZIP_CM_DEFLATE &&
                   (st.valid & ZIP_STAT_COMP_SIZE) && (st.valid & ZIP_STAT_CRC) &&
                   (st.valid & ZIP_STAT_ENCRYPTION_METHOD) && st.encryption_method == ZIP_EM_NONE) {
            e.zip_raw = FileSystem::Entry::ZipRaw::Deflate;
            e.zip_packed_size = st.comp_size;
            e.zip_crc = st.crc;
        }
        src.entries.emplace(normalizeName(e.name), std::move(e));
    }
    return core::okStatus();
}

core::Status indexVpk(FileSystem::Source& src) {
    std::error_code ec;
    const uint64_t file_size = fs::file_size(src.path, ec);
    if (ec)
        return fileError(core::ErrorCode::FileOpen, src.path, {}, -1, ec.message());
    const std::string label = src.path.string();
    auto head = readRange(src.path, 0, std::min(file_size, kVpkHeaderBytesV2), "header");
    if (!head)
        return head.error();
    auto needed = vpkDirectoryBytes(*head, file_size, label);
    if (!needed)
        return needed.error();
    if (*needed > kMaxMemberBytes)
        return fileError(core::ErrorCode::LimitExceeded, src.path, "tree", -1,
                         "tree of " + std::to_string(*needed) + " bytes exceeds limit " +
                             std::to_string(kMaxMemberBytes));
    auto bytes = readRange(src.path, 0, *needed, "tree");
    if (!bytes)
        return bytes.error();
    auto dir = parseVpkDirectory(*bytes, file_size, label);
    if (!dir)
        return dir.error();
    for (VpkEntry& v : dir->entries) {
        FileSystem::Entry e;
        e.name = std::move(v.name);
        std::replace(e.name.begin(), e.name.end(), '\\', '/');
        e.offset = v.offset;
        e.size = v.totalSize();
        e.preload_offset = v.preload_offset;
        e.preload_size = v.preload_size;
        e.vpk_archive = v.archive;
        src.entries.emplace(normalizeName(e.name), std::move(e));
    }
    return core::okStatus();
}

// Preload bytes from the directory file, then the rest from the file the entry names.
core::Result<std::vector<uint8_t>> readVpkMember(const FileSystem::Source& src,
                                                 const FileSystem::Entry& e) {
    auto data = readRange(src.path, e.preload_offset, e.preload_size, e.name);
    if (!data)
        return data;
    const uint64_t rest = e.size - e.preload_size;
    if (rest == 0)
        return data;
    const fs::path file =
        e.vpk_archive == kVpkDirArchive ? src.path : vpkArchivePath(src.path, e.vpk_archive);
    std::error_code ec;
    const uint64_t file_size = fs::file_size(file, ec);
    if (ec)
        return fileError(core::ErrorCode::FileOpen, file, e.name, -1,
                         "archive " + std::to_string(e.vpk_archive) + " of " +
                             core::baseName(src.path.string()) + ": " + ec.message());
    if (e.offset + rest > file_size)
        return fileError(core::ErrorCode::BadArchive, file, e.name, -1,
                         "data " + std::to_string(e.offset) + "+" + std::to_string(rest) +
                             " beyond file size " + std::to_string(file_size));
    auto tail = readRange(file, e.offset, rest, e.name);
    if (!tail)
        return tail;
    data->insert(data->end(), tail->begin(), tail->end());
    return data;
}

// A member's compressed bytes as the archive stores them, read under the archive's lock.
core::Result<std::vector<uint8_t>> readZipPacked(const FileSystem::Source& src,
                                                 const FileSystem::Entry& e) {
    if (e.zip_packed_size > kMaxMemberBytes)
        return fileError(core::ErrorCode::LimitExceeded, src.path, e.name, -1,
                         "compressed size " + std::to_string(e.zip_packed_size) +
                             " exceeds limit " + std::to_string(kMaxMemberBytes));
    std::vector<uint8_t> packed(static_cast<size_t>(e.zip_packed_size));
    {
        std::lock_guard<std::mutex> lock(src.zip_mutex);
        zip_file_t* f = zip_fopen_index(src.zip, e.offset, ZIP_FL_COMPRESSED);
        if (!f)
            return fileError(core::ErrorCode::BadArchive, src.path, e.name, -1,
                             std::string("cannot open member: ") + zip_strerror(src.zip));
        const zip_int64_t n = packed.empty() ? 0 : zip_fread(f, packed.data(), packed.size());
        std::string why = n < 0 ? zip_file_strerror(f) : std::string();
        zip_fclose(f);
        if (n < 0 || static_cast<uint64_t>(n) != packed.size())
            return fileError(core::ErrorCode::BadArchive, src.path, e.name, -1,
                             "cannot read the " + std::to_string(packed.size()) +
                                 " compressed bytes: " + why);
    }
    return packed;
}

// A method 14 member when libzip lacks LZMA (Debian's libzip 1.7 is built without it, and
// Valve's bspzip writes pakfile members this way): its raw bytes, decoded by core/lzma.h, with
// the CRC that libzip would have checked.
core::Result<std::vector<uint8_t>> readZipLzmaMember(const FileSystem::Source& src,
                                                     const FileSystem::Entry& e) {
    auto packed = readZipPacked(src, e);
    if (!packed)
        return packed;
    auto data = core::decodeZipLzma(*packed, e.size);
    if (!data) {
        core::Error err = std::move(data.error());
        err.file = src.path.string();
        err.lump = e.name;
        return err;
    }
    if (core::crc32(*data) != e.zip_crc)
        return fileError(core::ErrorCode::BadArchive, src.path, e.name, -1,
                         "LZMA member fails its CRC check");
    return data;
}

// A method 8 member: its raw bytes, read under the lock, inflated after it by libdeflate to
// the directory's size and checked against the directory's CRC, as libzip would.
core::Result<std::vector<uint8_t>> readZipDeflateMember(const FileSystem::Source& src,
                                                        const FileSystem::Entry& e) {
    auto packed = readZipPacked(src, e);
    if (!packed)
        return packed;
    auto data = core::inflateZipMember(*packed, e.size, e.zip_crc);
    if (!data) {
        core::Error err = std::move(data.error());
        err.file = src.path.string();
        err.lump = e.name;
        return err;
    }
    return data;
}

core::Result<std::vector<uint8_t>> readZipMember(const FileSystem::Source& src,
                                                 const FileSystem::Entry& e) {
    if (e.zip_raw == FileSystem::Entry::ZipRaw::Lzma)
        return readZipLzmaMember(src, e);
    if (e.zip_raw == FileSystem::Entry::ZipRaw::Deflate)
        return readZipDeflateMember(src, e);
    std::lock_guard<std::mutex> lock(src.zip_mutex);
    zip_file_t* f = zip_fopen_index(src.zip, e.offset, 0);
    if (!f)
        return fileError(core::ErrorCode::BadArchive, src.path, e.name, -1,
                         std::string("cannot open member: ") + zip_strerror(src.zip));
    std::vector<uint8_t> data(static_cast<size_t>(e.size));
    const zip_int64_t n = e.size ? zip_fread(f, data.data(), e.size) : 0;
    // Reading past the end makes libzip finish the stream and check the CRC.
    uint8_t extra = 0;
    const zip_int64_t tail = n >= 0 ? zip_fread(f, &extra, 1) : -1;
    std::string why = (n < 0 || tail < 0) ? zip_file_strerror(f) : std::string();
    zip_fclose(f);
    if (n < 0 || tail < 0)
        return fileError(core::ErrorCode::BadArchive, src.path, e.name, -1,
                         "cannot decompress member: " + why);
    if (static_cast<uint64_t>(n) != e.size || tail != 0)
        return fileError(core::ErrorCode::BadArchive, src.path, e.name, -1,
                         "member holds a different size than its directory entry (" +
                             std::to_string(e.size) + ")");
    return data;
}

} // namespace

core::Status FileSystem::addGameDir(const fs::path& dir) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        return fileError(core::ErrorCode::FileOpen, dir, {}, -1, "not a directory");
    std::vector<std::pair<std::string, fs::path>> archives;
    for (fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
         !ec && it != end; it.increment(ec)) {
        std::error_code fec;
        if (isMountedArchive(it->path()) && it->is_regular_file(fec)) {
            if (archives.size() >= kMaxArchiveEntries)
                return fileError(core::ErrorCode::LimitExceeded, dir, {}, -1, "too many archives");
            archives.emplace_back(core::toLower(it->path().filename().string()), it->path());
        }
    }
    if (ec)
        return fileError(core::ErrorCode::FileRead, dir, {}, -1, "cannot list: " + ec.message());
    // ioquake3 sorts pk3 names (FS_PaksSort / FS_SortFileList); case-insensitive here so the
    // order is the same on every file system.
    std::sort(archives.begin(), archives.end());
    for (const auto& [key, path] : archives) {
        core::Status st = addArchive(path);
        if (!st)
            return st;
    }
    return addDirectory(dir);
}

std::pair<const FileSystem::Source*, const FileSystem::Entry*>
FileSystem::find(const std::string& normalized) const {
    for (auto it = m_sources.rbegin(); it != m_sources.rend(); ++it) {
        const auto found = (*it)->entries.find(normalized);
        if (found != (*it)->entries.end())
            return {it->get(), &found->second};
    }
    return {nullptr, nullptr};
}

core::Result<std::vector<uint8_t>> FileSystem::readChecked(std::string_view name) const {
    const auto [src, entry] = find(normalizeName(name));
    if (!src) {
        core::Error e = core::makeError(core::ErrorCode::NotFound, std::string(name), -1, {},
                                        "not found in any search path");
        return e;
    }
    if (entry->size > kMaxMemberBytes)
        return fileError(core::ErrorCode::LimitExceeded, src->path, entry->name, -1,
                         "size " + std::to_string(entry->size) + " exceeds limit " +
                             std::to_string(kMaxMemberBytes));
    switch (src->kind) {
    case Kind::Directory: {
        const fs::path full = src->path / fs::path(entry->name);
        std::error_code ec;
        const uint64_t size = fs::file_size(full, ec);
        if (ec)
            return fileError(core::ErrorCode::FileOpen, full, {}, -1, ec.message());
        if (size > kMaxMemberBytes)
            return fileError(core::ErrorCode::LimitExceeded, full, {}, -1,
                             "size " + std::to_string(size) + " exceeds limit " +
                                 std::to_string(kMaxMemberBytes));
        return readRange(full, 0, size, {});
    }
    case Kind::Pak:
        return readRange(src->path, entry->offset, entry->size, entry->name);
    case Kind::Zip:
        return readZipMember(*src, *entry);
    case Kind::Vpk:
        return readVpkMember(*src, *entry);
    }
    return core::makeError(core::ErrorCode::BadArgument, std::string(name));
}

std::optional<std::vector<uint8_t>> FileSystem::read(std::string_view name) const {
    auto r = readChecked(name);
    if (!r)
        return std::nullopt;
    return std::move(*r);
}

bool FileSystem::exists(std::string_view name) const {
    return find(normalizeName(name)).first != nullptr;
}

std::string FileSystem::sourceOf(std::string_view name) const {
    const auto [src, entry] = find(normalizeName(name));
    return src ? src->label : std::string();
}

std::string FileSystem::specOf(std::string_view name) const {
    const auto [src, entry] = find(normalizeName(name));
    if (!src)
        return {};
    if (src->kind == Kind::Directory)
        return (src->path / entry->name).string();
    return src->path.string() + ":" + entry->name;
}

std::vector<std::string> FileSystem::list(std::string_view prefix, std::string_view ext) const {
    const std::string p = normalizeName(prefix);
    std::string x = core::toLower(ext);
    if (!x.empty() && x[0] != '.')
        x.insert(x.begin(), '.');
    std::map<std::string, std::string> found; // key -> name of the overriding source
    for (auto it = m_sources.rbegin(); it != m_sources.rend(); ++it)
        for (const auto& [key, entry] : (*it)->entries) {
            if (key.compare(0, p.size(), p) != 0)
                continue;
            if (!x.empty() &&
                (key.size() < x.size() || key.compare(key.size() - x.size(), x.size(), x) != 0))
                continue;
            found.emplace(key, entry.name);
        }
    std::vector<std::string> out;
    out.reserve(found.size());
    for (auto& [key, name] : found)
        out.push_back(std::move(name));
    return out;
}

std::vector<std::string> FileSystem::sources() const {
    std::vector<std::string> out;
    for (const auto& s : m_sources)
        out.push_back(s->label);
    return out;
}

std::vector<fs::path> FileSystem::sourcePaths() const {
    std::vector<fs::path> out;
    for (const auto& s : m_sources)
        out.push_back(s->path);
    return out;
}

namespace {

bool holdsArchive(const fs::path& dir) {
    std::error_code ec;
    uint64_t seen = 0;
    for (fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
         !ec && it != end && seen < kMaxArchiveEntries; it.increment(ec), ++seen) {
        std::error_code fec;
        if (isMountedArchive(it->path()) && it->is_regular_file(fec))
            return true;
    }
    return false;
}

// A folder named gfx/ (any case) inside `dir`: Quake 1 and Half-Life game folders keep
// gfx/palette.lmp and gfx/env/ skies there, so a map beside one belongs to that folder.
bool holdsGameData(const fs::path& dir) {
    std::error_code ec;
    uint64_t seen = 0;
    for (fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
         !ec && it != end && seen < kMaxArchiveEntries; it.increment(ec), ++seen) {
        std::error_code fec;
        if (core::toLower(it->path().filename().string()) == "gfx" && it->is_directory(fec))
            return true;
    }
    return false;
}

} // namespace

namespace {

std::optional<fs::path> findGameDirOfFile(const fs::path& map_or_archive) {
    std::error_code ec;
    fs::path p = fs::absolute(map_or_archive, ec);
    if (ec)
        return std::nullopt;
    p = p.lexically_normal();
    if (isArchiveExtension(lowerExtension(p)))
        return p.parent_path();
    // Nearest first: a folder of game data beside the map wins over a "maps" folder further
    // up (/work/shared/maps/q2/x.bsp with q2/aq_textures.pak belongs to q2/, not to the parent
    // of maps/).
    fs::path dir = p.parent_path();
    for (int level = 0; level < kGameDirSearchLevels && dir.has_relative_path(); ++level) {
        const bool maps_folder = core::toLower(dir.filename().string()) == "maps";
        if (!maps_folder && (holdsArchive(dir) || holdsGameData(dir)))
            return dir;
        if (maps_folder)
            return dir.parent_path();
        dir = dir.parent_path();
    }
    return std::nullopt;
}

} // namespace

std::optional<fs::path> findGameDir(const MapLocation& map) {
    return findGameDirOfFile(map.file()); // an archive's folder, or the loose map's
}

std::optional<fs::path> findGameDir(const fs::path& map_or_archive) {
    return findGameDir(MapLocation(map_or_archive.string()));
}

std::optional<MapSpec> parseMapSpec(std::string_view spec) {
    const std::string lower = core::toLower(spec);
    size_t best = std::string::npos;
    for (const char* sep : {".pk3:", ".pak:", ".zip:"})
        best = std::min(best, lower.find(sep));
    if (best == std::string::npos)
        return std::nullopt;
    const size_t colon = best + 4;
    if (colon + 1 >= spec.size())
        return std::nullopt;
    MapSpec out;
    out.archive = fs::path(std::string(spec.substr(0, colon)));
    out.member = std::string(spec.substr(colon + 1));
    return out;
}

core::Result<std::vector<uint8_t>> readMapSpec(std::string_view spec, std::string* display_name) {
    return readMapSpec(MapLocation(spec), display_name);
}

core::Result<std::vector<uint8_t>> readMapSpec(const MapLocation& map, std::string* display_name) {
    if (const std::optional<MapSpec>& parsed = map.in_archive) {
        FileSystem vfs;
        core::Status st = vfs.addArchive(parsed->archive);
        if (!st)
            return st.error();
        auto data = vfs.readChecked(parsed->member);
        if (!data) {
            core::Error e = std::move(data.error());
            if (e.file.empty())
                e.file = parsed->archive.string();
            return e;
        }
        if (display_name)
            *display_name = core::baseName(parsed->archive.string()) + ":" + parsed->member;
        return data;
    }
    auto data = core::readFile(map.file());
    if (data && display_name)
        *display_name = core::baseName(map.spec);
    return data;
}

} // namespace content
