#include "scene/load/map_bundle.h"

#include "bsp/entities.h"
#include "bsp/load.h"
#include "content/material/texture_cache.h"
#include "content/vfs/game_hints.h"
#include "core/file.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <limits>
#include <map>
#include <set>
#include <system_error>

#include <glm/common.hpp>

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

float viewFarPlane(const MapBundle& bundle) {
    const float pulled_in = bundle.profile.view.far_plane;
    return pulled_in > 0.0f ? pulled_in
                            : farPlaneForBounds(bundle.map.worldMins(), bundle.map.worldMaxs());
}

std::optional<Camera> spawnCamera(const MapBundle& bundle, size_t index) {
    const bsp::Map& map = bundle.map;
    if (bundle.spawns.empty()) {
        if (index != 0)
            return std::nullopt;
        // The bounds of the faces drawn as architecture, not the world model's: a leaked Source
        // map's world model spans the whole +-16384 grid, and a test map's sky box room would
        // hide what it holds.
        glm::vec3 mins(std::numeric_limits<float>::max());
        glm::vec3 maxs(std::numeric_limits<float>::lowest());
        for (const bsp::Face& f : map.faces) {
            const bool known = f.material >= 0 && size_t(f.material) < map.materials.size();
            if (known &&
                (map.materials[size_t(f.material)].flags & (bsp::kSurfSky | bsp::kSurfNoDraw)))
                continue;
            for (uint32_t v = f.first_vertex;
                 v < f.first_vertex + f.num_vertices && v < map.vertices.size(); ++v) {
                mins = glm::min(mins, map.vertices[v].position);
                maxs = glm::max(maxs, map.vertices[v].position);
            }
        }
        Camera cam = overviewCamera(mins, maxs);
        if (bundle.profile.view.far_plane > 0.0f)
            cam.z_far = bundle.profile.view.far_plane;
        return cam;
    }
    if (index >= bundle.spawns.size())
        return std::nullopt;
    Camera cam;
    cam.z_far = viewFarPlane(bundle);
    const bsp::SpawnPoint& s = bundle.spawns[index];
    cam.position = s.origin + glm::vec3(0.0f, 0.0f, bundle.profile.view.eye_height);
    cam.yaw = s.yaw;
    cam.pitch = s.pitch;
    return cam;
}

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

namespace {

// The textures' sources and the drawable world (buildDrawableWorld) of a parsed, mounted map.
void buildWorldOf(MapBundle& bundle, const content::MapLocation& where, const SearchPaths& paths,
                  const LoadSettings& settings) {
    const bsp::Map& map = bundle.map;
    const auto t0 = Clock::now();
    if (settings.progress)
        settings.progress->stage.store(static_cast<int>(LoadStage::Textures));
    // Shader scripts refine the surface flags (sky, nodraw, blending) and name the images.
    bundle.shaders = content::ShaderLibrary::load(*bundle.fs);
    const content::PalettedSources sources =
        content::loadPalettedSources(map, *bundle.fs, bundle.profile.materials, paths.wad_dirs);
    for (const auto& name : sources.missing_wads)
        bundle.warnings.push_back("WAD not found: " + name);
    for (const auto& message : sources.wad_errors)
        bundle.warnings.push_back(message);
    WorldBuildOptions options;
    options.shaders = &bundle.shaders;
    options.skybox = bundle.profile.skybox;
    options.material_files = bundle.profile.materials.files;
    options.sky_fallback = &bundle.profile.sky_fallback;
    const std::string lightmap_base = mapVirtualBase(where, paths.game);
    options.lightmap_base = lightmap_base;
    options.patch_level = settings.patch_level;
    options.unlit_faces = bundle.profile.rules.light.unlit_faces;
    options.progress = settings.progress.get();
    // Decoded textures come from the cache when an entry for exactly these sources exists.
    std::optional<content::TextureCache> cache;
    if (settings.texture_cache_dir) {
        if (auto key = content::textureCacheKey(where, map, *bundle.fs, paths.wad_dirs)) {
            cache.emplace(*settings.texture_cache_dir);
            options.texture_cache = &*cache;
            options.texture_cache_key = std::move(*key);
        }
    }
    const double sources_s = since(t0);
    WorldBuildLog log;
    static_cast<DrawableWorld&>(bundle) =
        buildDrawableWorld(map, *bundle.fs, sources, options, &log);
    bundle.warnings.insert(bundle.warnings.end(), log.warnings.begin(), log.warnings.end());
    bundle.texture_cache = log.texture_cache;
    bundle.timings.textures_s = sources_s + log.textures_s;
    bundle.timings.texture_cache_write_s = log.texture_cache_write_s;
    bundle.timings.sky_s = log.sky_s;
    bundle.timings.lightmaps_s = log.lightmaps_s;
    bundle.timings.mesh_s = log.mesh_s;
    bundle.missing_textures = missingTextures(map, bundle.profile.materials.files, bundle.textures,
                                              bundle.materials, &bundle.drawn_texture_names);
}

} // namespace

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
    bundle->warnings.insert(bundle->warnings.end(), profile.warnings.begin(),
                            profile.warnings.end());
    bundle->spawns = bsp::findSpawnPoints(parsed);
    if (auto st = loadCompileFiles(*bundle, where, settings); !st)
        return st.error();

    const SearchPaths paths = mountSearchPaths(*bundle, where, settings);
    buildWorldOf(*bundle, where, paths, settings);

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
