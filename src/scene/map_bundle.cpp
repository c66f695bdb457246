#include "scene/map_bundle.h"

#include "bsp/entities.h"
#include "bsp/load.h"
#include "core/file.h"

#include <chrono>

namespace scene {

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

} // namespace

core::Result<bsp::Map> loadMapSpec(const std::string& spec) {
    if (!content::parseMapSpec(spec))
        return bsp::loadMapFile(spec);
    std::string display;
    auto bytes = content::readMapSpec(spec, &display);
    if (!bytes)
        return bytes.error();
    return bsp::loadMap(*bytes, display);
}

core::Result<std::unique_ptr<MapBundle>> loadMapBundle(const std::string& spec,
                                                       const LoadSettings& settings) {
    auto bundle = std::make_unique<MapBundle>();
    bundle->spec = spec;
    auto t0 = Clock::now();
    auto map = loadMapSpec(spec);
    if (!map)
        return map.error();
    bundle->timings.parse_s = since(t0);
    bundle->map = std::move(*map);
    bundle->spawns = bsp::findSpawnPoints(bundle->map);

    // Search paths: the map's own game folder, then --base folders (later ones override).
    bundle->fs = std::make_unique<content::FileSystem>();
    if (auto game = content::findGameDir(spec)) {
        if (auto st = bundle->fs->addGameDir(*game); !st)
            bundle->map.warnings.push_back(st.error().message());
    }
    for (const auto& dir : settings.base_dirs) {
        if (auto st = bundle->fs->addGameDir(dir); !st)
            bundle->map.warnings.push_back(st.error().message());
    }

    t0 = Clock::now();
    // Shader scripts refine the surface flags (sky, nodraw, blending) and name the images.
    bundle->shaders = content::ShaderLibrary::load(*bundle->fs);
    content::applyShaderFlags(bundle->map.materials, bundle->shaders);
    bundle->textures = content::loadMaterialTextures(bundle->map, *bundle->fs, bundle->shaders);
    bundle->timings.textures_s = since(t0);
    for (size_t i = 0; i < bundle->textures.size(); ++i)
        if (bundle->textures[i].missing &&
            !(bundle->map.materials[i].flags & (bsp::kSurfNoDraw | bsp::kSurfSky)))
            bundle->missing_textures.push_back(bundle->map.materials[i].name);

    t0 = Clock::now();
    WorldMeshOptions mesh_options;
    mesh_options.patch_level = settings.patch_level;
    bundle->mesh = buildWorldMesh(bundle->map, mesh_options);
    bundle->timings.mesh_s = since(t0);
    return bundle;
}

} // namespace scene
