// The one loading path from a parsed map to what the renderer draws: textures, resolved
// materials, shader stages, fog volumes, sky box, lightmap pages and mesh. A map
// (scene/load/map_bundle.h) and a brush model file on a point entity (scene/load/brush_model.h)
// are both built here, as QuakeSpasm loads an item box's file with the map's own loader
// (gl_model.c Mod_LoadBrushModel). GL-free; render/world_upload.h turns the result into a GPU set.
#pragma once

#include "bsp/map.h"
#include "content/material/shader_library.h"
#include "content/material/skybox.h"
#include "content/material/texture_cache.h"
#include "content/material/textures.h"
#include "content/vfs/vfs.h"
#include "game/profile.h"
#include "scene/world/fog.h"
#include "scene/world/lightmap_set.h"
#include "scene/world/material_stages.h"
#include "scene/world/material_table.h"
#include "scene/world/world_mesh.h"

#include <atomic>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace scene {

// How far a load has got, read by another thread while it runs (the viewer's progress notice).
enum class LoadStage : int { Reading, Textures, Lightmaps, Mesh, Models, Done };
inline constexpr int kNumLoadStages = 5;    // before Done
const char* loadStageName(LoadStage stage); // "reading", "textures", ...
struct LoadProgress {
    std::atomic<int> stage{0}; // a LoadStage
};

// What a map or brush model file draws, each part parallel to map.materials where it is per
// material. The mesh was built from `materials` and indexes `lightmaps`.
struct DrawableWorld {
    std::vector<content::TextureInfo> textures;
    // Per material: flags after the shader scripts, pass, texel size (Quake 2: the decoded
    // textures'), sort and blend order.
    MaterialTable materials;
    // Quake 3 materials drawn stage by stage (their shader scripts).
    MaterialStages stages;
    // Quake 3 fog volumes, parallel to map.fogs (their shaders' fogParms joined in).
    std::vector<FogVolume> fogs;
    // The sky box the game names, all six faces (content/material/skybox.h), else a Quake 3 sky
    // shader's far box, else the game's fallback (WorldBuildOptions::sky_fallback); nullopt
    // when none of them is had.
    std::optional<content::SkyBox> skybox;
    // The lightmap pages drawn: the map's own, or q3map2's external images (deluxe maps split
    // off). The mesh's lightmap layers index them.
    LightmapSet lightmaps;
    WorldMesh mesh;
    // Per material: the height a planar water reflects in (scene::planarWaterHeights), NaN for
    // every other material; the renderer's water pass and the app's reflection view share it.
    std::vector<float> water_heights;
};

struct WorldBuildOptions {
    // The Quake 3 shader scripts of the search paths (MapBundle::shaders). nullptr: a file
    // without any (a brush model on an entity): no stages, fogs or sky shaders, and the
    // materials keep their default sort and blend order.
    const content::ShaderLibrary* shaders = nullptr;
    // The sky box the game names (game::GameProfile::skybox) in its material files; empty:
    // none.
    std::string_view skybox;
    game::MaterialFiles material_files = game::MaterialFiles::Images;
    // Without the sky box: the boxes the game tries next, then its stand-in face on every side
    // (game::GameProfile::sky_fallback); nullptr: none (a brush model file).
    const game::SkyFallback* sky_fallback = nullptr;
    // Where q3map2's external lightmaps are looked for (mapVirtualBase).
    std::string_view lightmap_base;
    int patch_level = 4;
    // The light of faces without light data (WorldMeshOptions::unlit_faces).
    std::optional<game::UnlitFaces> unlit_faces;
    int texture_threads = 0; // 0: every core
    // The decoded-texture cache and the key of this file's entry; nullptr: decode every time.
    const content::TextureCache* texture_cache = nullptr;
    std::string texture_cache_key;
    // Set to Textures, Lightmaps and Mesh as the build gets there; nullptr: not reported.
    LoadProgress* progress = nullptr;
};

// What the build reports besides the world.
struct WorldBuildLog {
    std::vector<std::string> warnings; // sky box, lightmap and $envmap problems
    // "off" (no cache), "hit", "miss" (decoded and stored) or "miss, not stored".
    std::string texture_cache = "off";
    double textures_s = 0, texture_cache_write_s = 0, sky_s = 0, lightmaps_s = 0, mesh_s = 0;
};

// Decodes the textures of `map` (through `sources`, the shader scripts and the search paths of
// `fs`; missing ones become the grey missing-texture tile), resolves the materials (shader
// flags, texture sizes for maps whose uv are in texels, stages, draw order), builds the fog
// volumes, loads the sky box, the lightmap pages and builds the mesh. The map is only read.
// Never fails: what cannot be loaded falls back and is named in log->warnings.
DrawableWorld buildDrawableWorld(const bsp::Map& map, const content::FileSystem& fs,
                                 const content::PalettedSources& sources,
                                 const WorldBuildOptions& options, WorldBuildLog* log = nullptr);

// The sky box rotation the map's worldspawn asks for ("skyrotate", "skyaxis"; Quake 2 and
// games built on it); a still sky when there is no worldspawn or no such keys.
content::SkyRotation skyRotation(const bsp::Map& map);

} // namespace scene
