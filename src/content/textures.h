// Material names of a bsp::Map -> RGBA images, via the virtual file system.
//
// Quake 3 family lookup, as ioquake3 does for a shader with no script
// (code/renderergl1/tr_image.c R_LoadImage): the name as given when its extension is one an
// image loader handles, then the name without that extension plus each loader extension in
// preference order .tga, .jpg, .jpeg, .png, (.pcx), .bmp. A name without a known extension
// gets the extensions appended to the whole name. A file that exists but does not decode is
// skipped like a missing one (R_LoadImage moves on when a loader returns no pixels).
//
// Missing textures never fail a map: they become the checker with missing = true.
#pragma once

#include "bsp/map.h"
#include "content/image.h"
#include "content/vfs.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace content {

struct TextureInfo {
    Image image;
    std::string source; // virtual path that was loaded ("textures/mech/crate.jpg", or
                        // "<embedded>" style labels from the paletted hook); empty when missing
    std::string origin; // FileSystem::sourceOf(source): "pak0.pk3" or a directory path
    bool missing = true;
    std::string error; // why a candidate that exists did not decode (last one), for the UI
};

// The file names tried for a material name, in order (see the top of this file).
std::vector<std::string> imageCandidates(std::string_view material_name);

// Extension point for the 8-bit paletted formats, tried before the file search:
// Quake 1 / Half-Life miptex stored in the map (Map::embedded_textures + a palette from
// gfx/palette.lmp or the texture itself), Half-Life WAD3 textures (Map::wad_files) and Quake 2
// .wal files (textures/<name>.wal with pics/colormap.pcx). Returns nullopt when the material
// has no such source, so the Quake 3 image search runs. Today it always returns nullopt: the
// decoders (content/palette, wad, wal, pcx) are written separately and plug in here.
std::optional<TextureInfo> loadPalettedTexture(const bsp::Material& material, const bsp::Map& map,
                                               const FileSystem& fs);

// One material: the paletted hook, then the image search, then the checker.
TextureInfo loadMaterialTexture(const bsp::Material& material, const bsp::Map& map,
                                const FileSystem& fs);

// One TextureInfo per entry of map.materials, same order (sky and nodraw materials included).
// Decodes on up to `threads` worker threads (0: a few, by hardware); the result does not depend
// on the thread count. Never fails.
std::vector<TextureInfo> loadMaterialTextures(const bsp::Map& map, const FileSystem& fs,
                                              int threads = 0);

} // namespace content
