// Everything the viewer needs from one map file, built without GL: the parsed map, its
// texture search paths and its drawable world (scene/load/drawable_world.h: decoded textures,
// materials, stages, fogs, sky, lightmaps, the GPU-ready mesh). Built on a worker thread and
// handed to the render thread whole (render/world_upload.h uploads it).
#pragma once

#include "bsp/load.h"
#include "bsp/map.h"
#include "content/compile/leak_file.h"
#include "content/compile/portal_file.h"
#include "content/material/shader_library.h"
#include "content/material/textures.h"
#include "content/vfs/vfs.h"
#include "core/result.h"
#include "game/profile.h"
#include "scene/load/drawable_world.h"
#include "scene/models/model_set.h"
#include "scene/view/camera.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace scene {

struct LoadSettings {
    std::vector<std::filesystem::path>
        base_dirs; // --base folders or archives, searched after the map's own
    int patch_level = 4;
    // Folder of the decoded-texture cache (content/material/texture_cache.h); nullopt: decode every
    // time. The app passes content::defaultTextureCacheDir(); tests leave it off unless they
    // test the cache.
    std::optional<std::filesystem::path> texture_cache_dir;
    // Compile files named by hand (--pointfile, --prt): a file that cannot be read or parsed
    // fails the load. Empty: the map's own, found beside a loose map by its base name (.pts,
    // else .lin; .prt), whose problems become warnings.
    std::filesystem::path pointfile, portal_file;
    // The parser's choices (bsp::LoadOptions): HDR lighting where a map has both.
    bsp::LoadOptions parse;
    // The look of the game's rules where an engine has more than one (Quake 2).
    game::ProfileOptions game;
    // Set stage by stage when given (shared with the thread that shows it).
    std::shared_ptr<LoadProgress> progress;
};

struct LoadTimings {
    double read_s = 0, parse_s = 0, textures_s = 0, sky_s = 0, lightmaps_s = 0, mesh_s = 0,
           models_s = 0;
    double texture_cache_write_s = 0; // writing the cache entry after a miss
};

// One texture a map's drawn materials name and the search paths lack. Names compare without
// case (the games' file systems ignore it), so the texinfos of one texture (Quake 2 writes one
// per face orientation) and materials listed twice (Source) count once.
struct MissingTexture {
    std::string name;   // as the first material with it spells it
    uint32_t faces = 0; // faces drawn with it
    // Source maps: the game its path suggests (content::likelyGameOf), empty where none does.
    std::string game;
    bool operator==(const MissingTexture&) const = default;
};

// The map's drawable world (textures, materials, stages, fogs, sky box, lightmaps, mesh) is
// the DrawableWorld it derives from, built by buildDrawableWorld as a brush model file's is.
struct MapBundle : DrawableWorld {
    std::string spec; // what was asked for: a path or ARCHIVE.pk3:member
    // As the parser made it, with the game's spawn state (game::spawnBrushModels): nothing
    // after the load writes it. What the content resolves per material lives in `materials`.
    bsp::Map map;
    // The rules of the map's game (game::profileFor): lighting, warp, view, sky, mounts,
    // materials, entities. The renderer gets profile.rules only.
    game::GameProfile profile;
    // The parser's warnings (map.warnings), then the loader's (search paths, WADs).
    std::vector<std::string> warnings;
    std::vector<bsp::SpawnPoint> spawns;
    std::unique_ptr<content::FileSystem> fs;
    content::ShaderLibrary shaders; // Quake 3 shader scripts found in the search paths
    // Models and sprites on point entities (scene/models/model_set.h): read through `fs`, placed
    // and lit from `lightmaps`; missing ones listed.
    EntityModelSet models;
    LoadTimings timings;
    // "off" (no cache folder, or the sources could not be fingerprinted), "hit", "miss"
    // (decoded and stored) or "miss, not stored" (the entry could not be written).
    std::string texture_cache = "off";
    // Textures the search paths lack, one per name (missingTextures), and how many names the
    // drawn materials have in all: "3 of 40 textures missing".
    std::vector<MissingTexture> missing_textures;
    uint32_t drawn_texture_names = 0;
    // The compiler's leak line and portal file (see LoadSettings::pointfile, portal_file).
    std::optional<content::LeakLine> leak;
    std::optional<content::PortalFile> portals;
};

// The missing textures of `map` (textures parallel to its materials), most faces first, then by
// name; sky and no-draw materials (resolved flags in `materials`), unnamed ones and those no face
// uses are left out. `drawn_names` gets the number of names of the other materials. With
// Valve materials (`files`, the game's material source) each names the game it likely comes from.
std::vector<MissingTexture> missingTextures(const bsp::Map& map, game::MaterialFiles files,
                                            const std::vector<content::TextureInfo>& textures,
                                            const MaterialTable& materials,
                                            uint32_t* drawn_names = nullptr);

// Reads, parses and validates the map, sets up its search paths (the map's game folder found
// by walking up from the file, or the map's own folder when there is none, then --base
// folders), loads the shader scripts and the paletted sources (Half-Life WADs are also looked
// for in the map's folder, its parents and the --base folders), builds the drawable world
// (buildDrawableWorld, through the texture cache), loads the entity models, and reads the
// compile files (leak line, portals). The parsed map is not written after the parse. Errors
// name the file, lump and record.
core::Result<std::unique_ptr<MapBundle>> loadMapBundle(const std::string& spec,
                                                       const LoadSettings& settings);

// The map's virtual path without its extension, as q3map2 names the folder of its external
// lightmaps ("maps/nexdm01" for "data.pk3:maps/nexdm01.bsp" and for .../data/maps/nexdm01.bsp
// under a game folder `game`; the file's stem for a loose map outside any).
std::string mapVirtualBase(const content::MapLocation& where,
                           const std::optional<std::filesystem::path>& game);

// The main view's far plane: the one the game pulls in (game::ViewRule::far_plane, Source's
// farz) when it does, else one covering the world bounds (farPlaneForBounds).
float viewFarPlane(const MapBundle& bundle);

// The camera at spawn point `index` of a loaded map: the eye game::ViewRule::eye_height above the
// spawn origin, as the game places the view, with the far plane viewFarPlane gives. A map
// without spawn points shows index 0 from outside: the overview of the faces drawn as
// architecture (its far plane the game's when it pulls one in). nullopt when `index` is past
// the spawn points.
std::optional<Camera> spawnCamera(const MapBundle& bundle, size_t index);

// Only the parse step and the game's spawn state (game::spawnBrushModels), as loadMapBundle
// makes its map (used by --info, which needs no textures).
core::Result<bsp::Map> loadMapSpec(const std::string& spec, const bsp::LoadOptions& options = {});
core::Result<bsp::Map> loadMapAt(const content::MapLocation& where,
                                 const bsp::LoadOptions& options = {});

} // namespace scene
