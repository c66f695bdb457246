// Virtual file system: loose directories, .pk3 (zip), Quake .pak and Source .vpk archives behind
// one lookup.
//
// Search order follows ioquake3 (code/qcommon/files.c, FS_AddGameDirectory): every source added
// later overrides the ones added before it. addGameDir(dir) adds the folder's *.pk3 / *.pak
// files in case-insensitive alphabetical order (so z_*.pk3 overrides pak0.pk3) and then the
// folder itself, so loose files override the archives of that folder.
//
// Names are virtual paths with '/' separators ("textures/base_wall/concrete.tga"). Lookups
// ignore ASCII case (Quake 2 maps name "HcPeura/..." for a folder stored as "hcpeura/") and
// accept '\\' as a separator. Leading "/" and "./" are ignored.
//
// Safety: archives are untrusted. Directories are bounds-checked, member sizes are capped at
// kMaxMemberBytes and entry counts at kMaxArchiveEntries before anything is allocated; a bad
// archive is rejected by addArchive with an error naming the file and the entry.
//
// Threads: after the last add*, the const member functions may be called from several threads
// at once (each .pk3 serialises its own reads with a mutex; .pak and loose reads open the file
// per call). Adding sources is not thread-safe.
#pragma once

#include "core/result.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace content {

// Largest member read into memory (textures and maps are far smaller; a hostile zip may claim
// any size).
inline constexpr uint64_t kMaxMemberBytes = 256ull * 1024 * 1024;
// Most entries one archive or directory may hold (OpenArena's largest pk3 has ~10,000).
inline constexpr uint64_t kMaxArchiveEntries = 1u << 20;
// Deepest folder level indexed below a loose directory.
inline constexpr int kMaxDirectoryDepth = 32;

// "Textures\\Foo/BAR.tga" -> "textures/foo/bar.tga"; leading "/" and "./" removed.
std::string normalizeName(std::string_view name);

class FileSystem {
public:
    FileSystem();
    ~FileSystem();
    FileSystem(FileSystem&&) noexcept;
    FileSystem& operator=(FileSystem&&) noexcept;
    FileSystem(const FileSystem&) = delete;
    FileSystem& operator=(const FileSystem&) = delete;

    // A loose folder. Its file list is indexed now (a snapshot; files created later are not
    // seen). Errors: FileOpen when it is not a readable directory, LimitExceeded past
    // kMaxArchiveEntries files.
    core::Status addDirectory(const std::filesystem::path& dir);

    // A .pk3 / .zip (by content: zip signature), a Quake .pak ("PACK" header) or a Source VPK
    // directory (NAME_dir.vpk, vpk.h; its data files NAME_NNN.vpk are opened on read). The
    // directory is read and checked now. Errors: FileOpen, BadArchive, LimitExceeded, each naming
    // the archive and, where it applies, the entry index and name.
    core::Status addArchive(const std::filesystem::path& archive);

    // A zip held in memory: Source's pakfile lump, the map's own materials. `owner` is the file
    // it came from (the map: for specOf, sourcePaths and cache keys), `label` what sourceOf
    // says ("pakfile (x.bsp)"). Errors: BadArchive, LimitExceeded, naming owner and label.
    core::Status addEmbeddedArchive(std::vector<uint8_t> bytes, const std::filesystem::path& owner,
                                    std::string label);

    // ioquake3's game folder: every *.pk3, *.pak and *_dir.vpk directly inside `dir` (sorted by
    // lower-case file name), then `dir` itself. Fails on the first archive that fails to open.
    core::Status addGameDir(const std::filesystem::path& dir);

    // The member's bytes from the highest-priority source that has it; nullopt when no source
    // has it or the read failed (readChecked says why).
    std::optional<std::vector<uint8_t>> read(std::string_view name) const;
    // Same, with an error naming the source and member: NotFound, FileRead, BadArchive,
    // LimitExceeded.
    core::Result<std::vector<uint8_t>> readChecked(std::string_view name) const;

    bool exists(std::string_view name) const;

    // Which source provides `name`: an archive's file name ("pak0.pk3") or a loose directory's
    // path as it was added. Empty when not found.
    std::string sourceOf(std::string_view name) const;

    // Every name under `prefix` (e.g. "maps/") ending in `ext` (".bsp" or "bsp"; empty: any),
    // over all sources, each once, sorted, with the letter case of the overriding source.
    std::vector<std::string> list(std::string_view prefix, std::string_view ext) const;

    // A map spec that loads `name` from the source that provides it: "ARCHIVE.pk3:maps/x.bsp"
    // for an archive member, "DIR/maps/x.bsp" for a loose file. Empty when not found.
    std::string specOf(std::string_view name) const;

    // Labels of the sources, lowest priority first (for --info and the UI).
    std::vector<std::string> sources() const;
    // Disk paths of the sources (archives and folders), lowest priority first (for cache keys).
    std::vector<std::filesystem::path> sourcePaths() const;

    struct Source; // defined in vfs.cpp
    struct Entry;

private:
    // Highest-priority source holding the normalized name, with its entry; {nullptr, nullptr}.
    std::pair<const Source*, const Entry*> find(const std::string& normalized) const;
    std::vector<std::unique_ptr<Source>> m_sources; // lowest priority first
};

// The game folder a map belongs to, for building a FileSystem around it:
//   .../baseoa/pak1-maps.pk3 -> .../baseoa (an archive's folder);
//   "ARCHIVE.pk3:maps/x.bsp" -> the archive's folder;
//   otherwise the nearest of the file's folder and its parents (up to 4 levels) that either
//   holds a .pk3 or .pak or a gfx/ folder (Quake 1 / Half-Life: gfx/palette.lmp), or is a
//   "maps" folder, whose parent is then the answer (.../baseoa/maps/x.bsp and
//   .../baseoa/maps/sub/x.bsp -> .../baseoa). nullopt when none of these apply (a loose map in
//   an arbitrary folder).
std::optional<std::filesystem::path> findGameDir(const std::filesystem::path& map_or_archive);

// "ARCHIVE.pk3:maps/name.bsp" (also .pak and .zip, extension in any case).
struct MapSpec {
    std::filesystem::path archive;
    std::string member;
};
// nullopt when `spec` is a plain path (no ".pk3:"/".pak:"/".zip:" separator or empty member).
std::optional<MapSpec> parseMapSpec(std::string_view spec);

// A map as the user names it, parsed once on the way in: a loose file, or a member of an
// archive. The loader hands this to everything that needs to know which.
struct MapLocation {
    explicit MapLocation(std::string_view text) : spec(text), in_archive(parseMapSpec(text)) {}
    std::string spec;                  // as given
    std::optional<MapSpec> in_archive; // set for "ARCHIVE.pk3:member"
    // The file on disk: the archive, or the loose map.
    std::filesystem::path file() const {
        return in_archive ? in_archive->archive : std::filesystem::path(spec);
    }
};
std::optional<std::filesystem::path> findGameDir(const MapLocation& map);

// Reads a map given as a plain path or as "ARCHIVE.pk3:maps/name.bsp" (member found
// case-insensitively). `display_name`, when given, receives a short name for messages and
// Map::name: "x.bsp" for a file, "pak1-maps.pk3:maps/x.bsp" for a member.
core::Result<std::vector<uint8_t>> readMapSpec(std::string_view spec, std::string* display_name);
core::Result<std::vector<uint8_t>> readMapSpec(const MapLocation& map, std::string* display_name);

} // namespace content
