#include "scene/load/map_bundle.h"

#include "bsp/entities.h"
#include "bsp/load.h"
#include "content/material/texture_cache.h"
#include "content/vfs/game_hints.h"
#include "core/file.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <set>
#include <system_error>

namespace scene {

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

// The leak line and portal file: named ones must load; the map's own are looked for beside a
// loose map (same base name) and only warn when broken.
core::Status loadCompileFiles(MapBundle& bundle, const content::MapLocation& where,
                              const LoadSettings& settings) {
    namespace fs = std::filesystem;
    const auto beside = [&](const char* ext) -> fs::path {
        if (where.in_archive)
            return {};
        std::error_code ec;
        fs::path p = fs::path(where.spec).replace_extension(ext);
        return fs::is_regular_file(p, ec) ? p : fs::path();
    };
    if (!settings.pointfile.empty()) {
        auto leak = content::loadLeakFile(settings.pointfile);
        if (!leak)
            return leak.error();
        bundle.leak = std::move(*leak);
    } else {
        fs::path found = beside(".pts");
        if (found.empty())
            found = beside(".lin");
        if (!found.empty()) {
            auto leak = content::loadLeakFile(found);
            if (leak)
                bundle.leak = std::move(*leak);
            else
                bundle.warnings.push_back(leak.error().message());
        }
    }
    if (!settings.portal_file.empty()) {
        auto prt = content::loadPortalFile(settings.portal_file);
        if (!prt)
            return prt.error();
        bundle.portals = std::move(*prt);
    } else if (const fs::path found = beside(".prt"); !found.empty()) {
        auto prt = content::loadPortalFile(found);
        if (prt)
            bundle.portals = std::move(*prt);
        else
            bundle.warnings.push_back(prt.error().message());
    }
    return core::okStatus();
}

// The map's search paths, mounted into bundle.fs: its own game folder (or, for a loose map in
// an arbitrary folder, that folder), then --base folders (later ones override), then the map's
// own archive where its game mounts one first; and the folders searched for WADs that are not
// FileSystem members.
struct SearchPaths {
    std::optional<std::filesystem::path> game;
    std::vector<std::filesystem::path> wad_dirs;
};

SearchPaths mountSearchPaths(MapBundle& bundle, const content::MapLocation& where,
                             const LoadSettings& settings) {
    SearchPaths out;
    bundle.fs = std::make_unique<content::FileSystem>();
    const bool plain_path = !where.in_archive;
    std::error_code ec;
    const std::filesystem::path map_dir =
        plain_path ? std::filesystem::absolute(where.spec, ec).lexically_normal().parent_path()
                   : std::filesystem::path();
    std::optional<std::filesystem::path>& game = out.game;
    game = content::findGameDir(where);
    if (!game && plain_path && !ec)
        game = map_dir;
    // A map folder that is not the game folder (maps/q1/x.bsp under a game folder found
    // higher up) still offers what lies beside the map, at the lowest priority.
    if (game && plain_path && !ec && map_dir != *game &&
        core::toLower(map_dir.filename().string()) != "maps") {
        if (auto st = bundle.fs->addDirectory(map_dir); !st)
            bundle.warnings.push_back(st.error().message());
    }
    if (game) {
        if (auto st = bundle.fs->addGameDir(*game); !st)
            bundle.warnings.push_back(st.error().message());
    }
    // A --base that names a file is one archive (a game's pak01_dir.vpk), not a folder.
    for (const auto& dir : settings.base_dirs) {
        const bool archive = std::filesystem::is_regular_file(dir, ec);
        if (auto st = archive ? bundle.fs->addArchive(dir) : bundle.fs->addGameDir(dir); !st)
            bundle.warnings.push_back(st.error().message());
    }
    // The map's own archive (Source's pakfile lump) overrides every folder, as the engine
    // mounts it first in its search path (game::MountRule::embedded_archive_first).
    if (bundle.profile.mount.embedded_archive_first && !bundle.map.embedded_archive.empty()) {
        if (auto st = bundle.fs->addEmbeddedArchive(bundle.map.embedded_archive, where.file(),
                                                    "pakfile (" + bundle.map.name + ")");
            !st)
            bundle.warnings.push_back(st.error().message());
    }

    // WADs that are not FileSystem members: the map's folder and its parents up to the game
    // folder's parent, the folders beside the game folder the game also reads
    // (game::MountRule::shared_folders: Half-Life's "valve"), then --base folders.
    std::vector<std::filesystem::path>& wad_dirs = out.wad_dirs;
    if (plain_path && !ec) {
        std::filesystem::path dir = map_dir;
        for (int level = 0; level < 4 && dir.has_relative_path(); ++level) {
            wad_dirs.push_back(dir);
            if (game && dir == game->parent_path())
                break;
            dir = dir.parent_path();
        }
    }
    for (size_t i = 0; game && i < bundle.profile.mount.shared_folders.size(); ++i) {
        const auto shared = game->parent_path() / bundle.profile.mount.shared_folders[i];
        if (std::filesystem::is_directory(shared, ec))
            wad_dirs.push_back(shared);
    }
    wad_dirs.insert(wad_dirs.end(), settings.base_dirs.begin(), settings.base_dirs.end());
    return out;
}

// No sky box loaded: the boxes the game tries next, then its stand-in face on every side
// (game::SkyFallback), so that sky surfaces never show their own texture where the game
// draws something else.
void loadFallbackSky(MapBundle& bundle) {
    const game::SkyFallback& fallback = bundle.profile.sky_fallback;
    for (size_t i = 0; !bundle.skybox && i < fallback.boxes.size(); ++i)
        bundle.skybox =
            content::loadSkyBox(*bundle.fs, fallback.boxes[i], bundle.profile.materials.files);
    if (!bundle.skybox && fallback.face_size > 0)
        bundle.skybox = content::fallbackSkyBox("fallback", fallback.face_size, fallback.face);
}

// The sky box the game names (game::GameProfile::skybox), else a Quake 3 sky shader's far box,
// else the game's fallback.
void loadMapSky(MapBundle& bundle) {
    // A sky box the map names but the search paths lack (a Team Fortress 2 map's
    // sky_tf2_04 without the game's VPKs) is a warning: the sky faces draw as they would
    // without one.
    std::string sky_why;
    bundle.skybox = content::loadSkyBox(*bundle.fs, bundle.profile.skybox,
                                        bundle.profile.materials.files, &sky_why);
    if (!bundle.profile.skybox.empty() && !bundle.skybox)
        bundle.warnings.push_back("sky box " + bundle.profile.skybox + " not loaded: " + sky_why);
    // Quake 3: the first sky shader with a far box ("skyParms env/space1 - -" names
    // env/space1_rt.tga ...; ioquake3 tr_sky.c uses the same face order and axes as Quake 2).
    for (size_t i = 0; !bundle.skybox && i < bundle.materials.size(); ++i) {
        const content::ShaderDef* def = (bundle.materials[i].flags & bsp::kSurfSky)
                                            ? bundle.shaders.find(bundle.map.materials[i].name)
                                            : nullptr;
        if (def && def->sky.present && !def->sky.far_box.empty())
            bundle.skybox = content::loadSkyBox(*bundle.fs, def->sky.far_box + "_");
    }
    loadFallbackSky(bundle);
    if (bundle.skybox)
        bundle.skybox->rotation = skyRotation(bundle.map);
}

} // namespace

namespace {

// A loose .bsp goes through bsp::loadMapFile, which also reads a Quake 1 .lit beside it; a map
// opened from an archive member gets no .lit (the companion is not looked up in the archive).
core::Result<bsp::Map> parseMapAt(const content::MapLocation& where,
                                  const bsp::LoadOptions& options) {
    if (!where.in_archive)
        return bsp::loadMapFile(where.spec, options);
    std::string display;
    auto bytes = content::readMapSpec(where, &display);
    if (!bytes)
        return bytes.error();
    return bsp::loadMap(*bytes, display, {}, options);
}

} // namespace

core::Result<bsp::Map> loadMapAt(const content::MapLocation& where,
                                 const bsp::LoadOptions& options) {
    auto map = parseMapAt(where, options);
    if (map)
        game::spawnBrushModels(game::profileFor(*map), *map);
    return map;
}

core::Result<bsp::Map> loadMapSpec(const std::string& spec, const bsp::LoadOptions& options) {
    return loadMapAt(content::MapLocation(spec), options);
}

std::string mapVirtualBase(const content::MapLocation& where,
                           const std::optional<std::filesystem::path>& game) {
    std::filesystem::path path;
    if (where.in_archive) {
        path = content::normalizeName(where.in_archive->member);
    } else {
        std::error_code ec;
        const std::filesystem::path file =
            std::filesystem::absolute(where.spec, ec).lexically_normal();
        path = file.filename();
        if (game && !ec) {
            const std::filesystem::path rel = file.lexically_relative(*game);
            if (!rel.empty() && *rel.begin() != "..")
                path = rel;
        }
    }
    return path.replace_extension().generic_string();
}

std::vector<MissingTexture> missingTextures(const bsp::Map& map, game::MaterialFiles files,
                                            const std::vector<content::TextureInfo>& textures,
                                            const MaterialTable& materials, uint32_t* drawn_names) {
    const size_t n = std::min({map.materials.size(), textures.size(), materials.size()});
    std::vector<uint32_t> faces(n, 0);
    for (const bsp::Face& f : map.faces)
        if (f.material >= 0 && size_t(f.material) < n)
            ++faces[size_t(f.material)];
    std::map<std::string, size_t> by_key; // lower-case name -> index into out
    std::set<std::string> drawn;
    std::vector<MissingTexture> out;
    for (size_t i = 0; i < n; ++i) {
        const std::string& name = map.materials[i].name;
        if (name.empty() || faces[i] == 0 ||
            (materials[i].flags & (bsp::kSurfNoDraw | bsp::kSurfSky)))
            continue; // nothing drawn with it
        const std::string key = core::toLower(name);
        drawn.insert(key);
        if (!textures[i].missing)
            continue;
        auto [it, added] = by_key.emplace(key, out.size());
        if (added) {
            MissingTexture m;
            m.name = name;
            // Source maps name materials by folder ("props_2fort/...", "de_dust/..."), which
            // tells the user which game's content to mount (--base its _dir.vpk or folder).
            if (files == game::MaterialFiles::ValveMaterials)
                m.game = std::string(content::likelyGameOf(name));
            out.push_back(std::move(m));
        }
        out[it->second].faces += faces[i];
    }
    std::stable_sort(out.begin(), out.end(), [](const MissingTexture& a, const MissingTexture& b) {
        return a.faces != b.faces ? a.faces > b.faces : a.name < b.name;
    });
    if (drawn_names)
        *drawn_names = uint32_t(drawn.size());
    return out;
}

content::SkyRotation skyRotation(const bsp::Map& map) {
    if (map.entities.empty() || map.entities[0].classname() != "worldspawn")
        return {};
    const bsp::Entity& world = map.entities[0];
    return content::parseSkyRotation(world.get("skyrotate"), world.get("skyaxis"));
}

const char* loadStageName(LoadStage stage) {
    switch (stage) {
    case LoadStage::Reading:
        return "reading";
    case LoadStage::Textures:
        return "textures";
    case LoadStage::Lightmaps:
        return "lightmaps";
    case LoadStage::Mesh:
        return "mesh";
    case LoadStage::Models:
        return "models";
    case LoadStage::Done:
        return "done";
    }
    return "?";
}

core::Result<std::unique_ptr<MapBundle>> loadMapBundle(const std::string& spec,
                                                       const LoadSettings& settings) {
    const auto stage = [&](LoadStage s) {
        if (settings.progress)
            settings.progress->stage.store(static_cast<int>(s));
    };
    stage(LoadStage::Reading);
    auto bundle = std::make_unique<MapBundle>();
    bundle->spec = spec;
    const content::MapLocation where(spec); // the only parse of the spec
    auto t0 = Clock::now();
    auto map = loadMapAt(where, settings.parse);
    if (!map)
        return map.error();
    bundle->timings.parse_s = since(t0);
    bundle->map = std::move(*map);
    const bsp::Map& parsed = bundle->map; // read only from here on
    bundle->profile = game::profileFor(parsed, settings.game);
    const game::GameProfile& profile = bundle->profile;
    bundle->warnings = parsed.warnings;
    bundle->spawns = bsp::findSpawnPoints(parsed);
    if (auto st = loadCompileFiles(*bundle, where, settings); !st)
        return st.error();

    const SearchPaths paths = mountSearchPaths(*bundle, where, settings);
    const std::optional<std::filesystem::path>& game = paths.game;
    const std::vector<std::filesystem::path>& wad_dirs = paths.wad_dirs;

    t0 = Clock::now();
    stage(LoadStage::Textures);
    // Shader scripts refine the surface flags (sky, nodraw, blending) and name the images.
    bundle->shaders = content::ShaderLibrary::load(*bundle->fs);
    const content::PalettedSources sources =
        content::loadPalettedSources(parsed, *bundle->fs, profile.materials, wad_dirs);
    for (const auto& name : sources.missing_wads)
        bundle->warnings.push_back("WAD not found: " + name);
    for (const auto& message : sources.wad_errors)
        bundle->warnings.push_back(message);
    // Decoded textures come from the cache when an entry for exactly these sources exists.
    std::optional<std::string> cache_key;
    std::optional<content::TextureCache> cache;
    if (settings.texture_cache_dir) {
        cache_key = content::textureCacheKey(where, parsed, *bundle->fs, wad_dirs);
        if (cache_key)
            cache.emplace(*settings.texture_cache_dir);
    }
    bool cached = false;
    if (cache) {
        if (auto hit = cache->load(*cache_key, parsed.materials.size())) {
            bundle->textures = std::move(*hit);
            bundle->texture_cache = "hit";
            cached = true;
            // What the entry does not keep (cheap formats) is decoded again.
            std::vector<uint32_t> again;
            for (size_t i = 0; i < bundle->textures.size(); ++i)
                if (!bundle->textures[i].image.valid())
                    again.push_back(static_cast<uint32_t>(i));
            content::loadMaterialTexturesAt(parsed, *bundle->fs, sources, &bundle->shaders, again,
                                            bundle->textures);
        }
    }
    if (!cached)
        bundle->textures =
            content::loadMaterialTextures(parsed, *bundle->fs, sources, &bundle->shaders);
    // Quake 2 maps learn their texture sizes from the .wal files (or the missing-texture tile
    // that stands in for a missing one); the mesh divides their texel uv by them.
    bundle->materials = resolveMaterials(parsed, &bundle->shaders, bundle->textures);
    bundle->stages = buildMaterialStages(parsed, bundle->materials, bundle->shaders, *bundle->fs);
    bundle->fogs = buildFogVolumes(parsed, bundle->shaders);
    bundle->timings.textures_s = since(t0);
    if (cache && !cached) {
        const auto t_write = Clock::now();
        bundle->texture_cache =
            cache->store(*cache_key, bundle->textures) ? "miss" : "miss, not stored";
        bundle->timings.texture_cache_write_s = since(t_write);
    }
    bundle->missing_textures = missingTextures(parsed, profile.materials.files, bundle->textures,
                                               bundle->materials, &bundle->drawn_texture_names);
    loadMapSky(*bundle);

    stage(LoadStage::Lightmaps);
    bundle->lightmaps =
        loadLightmapSet(parsed, *bundle->fs, mapVirtualBase(where, game), &bundle->warnings);

    t0 = Clock::now();
    stage(LoadStage::Mesh);
    WorldMeshOptions mesh_options;
    mesh_options.patch_level = settings.patch_level;
    mesh_options.lightmaps = &bundle->lightmaps;
    mesh_options.unlit_faces = profile.rules.light.unlit_faces;
    bundle->mesh = buildMapMesh(parsed, bundle->materials, bundle->stages, mesh_options);
    bundle->timings.mesh_s = since(t0);

    t0 = Clock::now();
    stage(LoadStage::Models);
    bundle->models = loadEntityModels(parsed, *bundle->fs, bundle->lightmaps, bundle->mesh,
                                      &bundle->shaders, &profile);
    for (const LoadedModel& m : bundle->models.models)
        for (const std::string& w : m.warnings)
            bundle->warnings.push_back(m.path + ": " + w);
    bundle->warnings.insert(bundle->warnings.end(), bundle->models.warnings.begin(),
                            bundle->models.warnings.end());
    bundle->timings.models_s = since(t0);
    stage(LoadStage::Done);
    return bundle;
}

} // namespace scene
