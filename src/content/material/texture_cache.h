// Decoded textures of a map kept on disk between runs, so that reopening a map skips the image
// decoders (JPEG and TGA decoding is most of a Quake 3 map's load time).
//
// One file per map and set of search sources (and one more for its sky box's faces, under the
// same key with "\nsky faces" appended: scene/load/drawable_world.cpp). The key names everything
// the decoded pixels depend on: the cache format version, the map spec, the material names, and
// every source of the search path by path, size and modification time (archives and WADs as files;
// loose folders by every file under them). A changed, added or removed archive or loose file gives
// another key, so a stale entry is never used; it ages out under the size cap instead.
//
// Files are written whole to a temporary name and renamed into place. A cache file is input
// like any other: it is read through core::ByteReader with every size checked against the file
// and the expected material count, and anything unexpected (bad magic, version, key, sizes,
// truncation) makes the entry a miss, never a crash. The pixels are stored raw (RGBA8): reading
// them back is a copy, which is what makes a reopen instant; the size cap bounds the disk use.
#pragma once

#include "bsp/map.h"
#include "content/material/textures.h"
#include "content/vfs/vfs.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace content {

// Bumped whenever the file layout or any decoder's output changes.
// 2: TextureInfo's drawing fields; 3: no glow for liquids a Quake 1 map lights (lit water);
// 4: TextureInfo::layer2; 5: TextureInfo::bump and bump_ssbump; 6: TextureInfo::water;
// 7: TextureInfo::envmap, envmap_mask, envmap_shading, envmap_source and envmap_error;
// 8: water materials carry their $normalmap (bump) and $envmap cube (envmap);
// 9: TextureInfo::motion; 10: TextureInfo::base_animation, bump_animation, base_frames and
// bump_frames; 11: Half-Life miptex pixels through texgammatable (PalettedSources::
// palette_table); 12: TextureInfo::proxies; 13: WaterShading's expensive path (planar,
// refract, refract_tint, the reflect / refract amounts, fog_start, fog_end).
inline constexpr uint32_t kTextureCacheVersion = 13;
// Default cap on the cache folder; least recently used files go first.
inline constexpr uint64_t kTextureCacheMaxBytes = 1024ull * 1024 * 1024;

// $BSPV_TEXTURE_CACHE when set ("off" or empty: no cache), else $XDG_CACHE_HOME/bspview/textures,
// else $HOME/.cache/bspview/textures; nullopt when none of these can be formed.
std::optional<std::filesystem::path> defaultTextureCacheDir();

// The key for a map's textures (see the top of this file); nullopt when a source cannot be
// stat'ed or a loose folder holds too many files to fingerprint cheaply (then: no caching).
std::optional<std::string> textureCacheKey(const MapLocation& where, const bsp::Map& map,
                                           const FileSystem& fs,
                                           std::span<const std::filesystem::path> wad_dirs);

// Whether an entry keeps a texture's pixels: only when they are dearer to decode than to read
// back (JPEG, PNG, and TGA inflated from a .pk3). Uncompressed TGA, WAL, PCX, WAD and embedded
// miptex decode about as fast as the copy from the cache would be (aq_urbanjungle's 160 MB of
// .tga loaded slower from the cache than from its .pak), so those entries keep only the
// metadata and the caller decodes them again (their image comes back empty).
bool texturePixelsWorthCaching(const TextureInfo& texture);

// The file layout, separate from the disk access for tests and fuzzing.
std::vector<uint8_t> encodeTextureCache(std::string_view key,
                                        const std::vector<TextureInfo>& textures);
// An entry's header (magic, version, key) and checksum around `body`, the part after the key:
// the texture count and the textures, as encodeTextureCache lays them out. encodeTextureCache
// is this over the body it builds; the fuzzer wraps arbitrary bodies with it to reach the body
// parser past the checksum.
std::vector<uint8_t> wrapTextureCacheBody(std::string_view key, std::span<const uint8_t> body);
// nullopt unless `bytes` is a complete entry for exactly this key with `expected_count` textures.
// Textures whose pixels were not kept come back with an empty image (!image.valid()).
std::optional<std::vector<TextureInfo>>
decodeTextureCache(std::span<const uint8_t> bytes, std::string_view key, size_t expected_count);

class TextureCache {
public:
    explicit TextureCache(std::filesystem::path dir, uint64_t max_bytes = kTextureCacheMaxBytes);

    // The entry for `key`, or nullopt (missing, unreadable or invalid). A hit marks the file
    // as recently used.
    std::optional<std::vector<TextureInfo>> load(const std::string& key,
                                                 size_t expected_count) const;
    // Writes the entry (creating the folder), then trims the folder to the size cap. False when
    // it could not be written (the caller carries on without a cache).
    bool store(const std::string& key, const std::vector<TextureInfo>& textures) const;

    // The file an entry for `key` lives in.
    std::filesystem::path pathFor(const std::string& key) const;
    const std::filesystem::path& dir() const { return m_dir; }

private:
    std::filesystem::path m_dir;
    uint64_t m_max_bytes;
};

} // namespace content
