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
#include "content/shader_library.h"
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
    // Through a Quake 3 shader (the overloads taking a ShaderLibrary): the script that
    // defines the material's shader ("scripts/base_wall.shader"), empty when none, and the
    // stage image that was asked for (primaryImage), empty when the material name was used.
    std::string shader_file;
    std::string shader_image;
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

// Same, resolving a material through its Quake 3 shader first: when `shaders` defines the
// material's name, the shader's primaryImage (first map/clampMap/animMap frame that is not
// $lightmap or $whiteimage) is searched with imageCandidates; when that image is absent, or
// the shader has none (skies, fog), the material name itself is searched as before. Materials
// without a shader behave exactly as in the overloads above. `shaders` may be nullptr.
TextureInfo loadMaterialTexture(const bsp::Material& material, const bsp::Map& map,
                                const FileSystem& fs, const ShaderLibrary* shaders);
std::vector<TextureInfo> loadMaterialTextures(const bsp::Map& map, const FileSystem& fs,
                                              const ShaderLibrary& shaders, int threads = 0);

} // namespace content
