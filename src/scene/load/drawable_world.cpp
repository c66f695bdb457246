#include "scene/load/drawable_world.h"

#include "content/material/envmap.h"
#include "content/material/skybox.h"
#include "content/material/texture_cache.h"
#include "scene/view/water_reflection.h"

#include <chrono>
#include <cstdint>
#include <future>

namespace scene {

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

void report(const WorldBuildOptions& options, LoadStage stage) {
    if (options.progress)
        options.progress->stage.store(static_cast<int>(stage));
}

// The decoded textures, from the cache when an entry for exactly these sources exists (what the
// entry does not keep, cheap formats, is decoded again), else decoded and stored.
std::vector<content::TextureInfo> loadTextures(const bsp::Map& map, const content::FileSystem& fs,
                                               const content::PalettedSources& sources,
                                               const WorldBuildOptions& options,
                                               WorldBuildLog& log) {
    const content::TextureCache* cache = options.texture_cache;
    if (!cache)
        return content::loadMaterialTextures(map, fs, sources, options.shaders,
                                             options.texture_threads);
    if (auto hit = cache->load(options.texture_cache_key, map.materials.size())) {
        log.texture_cache = "hit";
        std::vector<uint32_t> again;
        for (size_t i = 0; i < hit->size(); ++i)
            if (!(*hit)[i].image.valid())
                again.push_back(static_cast<uint32_t>(i));
        content::loadMaterialTexturesAt(map, fs, sources, options.shaders, again, *hit);
        return std::move(*hit);
    }
    std::vector<content::TextureInfo> textures =
        content::loadMaterialTextures(map, fs, sources, options.shaders, options.texture_threads);
    const auto t_write = Clock::now();
    log.texture_cache =
        cache->store(options.texture_cache_key, textures) ? "miss" : "miss, not stored";
    log.texture_cache_write_s = since(t_write);
    return textures;
}

// No sky box loaded: the boxes the game tries next, then its stand-in face on every side
// (game::SkyFallback), so that sky surfaces never show their own texture where the game draws
// something else.
void loadFallbackSky(DrawableWorld& world, const content::FileSystem& fs,
                     const WorldBuildOptions& options, content::DecodedImages* decoded) {
    if (!options.sky_fallback)
        return;
    const game::SkyFallback& fallback = *options.sky_fallback;
    for (size_t i = 0; !world.skybox && i < fallback.boxes.size(); ++i)
        world.skybox =
            content::loadSkyBox(fs, fallback.boxes[i], options.material_files, nullptr, decoded);
    if (!world.skybox && fallback.face_size > 0)
        world.skybox = content::fallbackSkyBox("fallback", fallback.face_size, fallback.face);
}

// The sky faces the texture cache kept for these sources (an entry of their own beside the
// textures': six records, one per face, by the face's virtual path), or nothing.
std::string skyCacheKey(const WorldBuildOptions& options) {
    return options.texture_cache_key + "\nsky faces";
}

std::optional<content::DecodedImages> cachedSkyFaces(const WorldBuildOptions& options) {
    if (!options.texture_cache)
        return std::nullopt;
    auto hit = options.texture_cache->load(skyCacheKey(options), content::kSkyFaceSuffixes.size());
    if (!hit)
        return std::nullopt;
    content::DecodedImages faces;
    for (content::TextureInfo& t : *hit)
        if (t.image.valid())
            faces.emplace(std::move(t.source), std::move(t.image));
    return faces;
}

// Keeps the loaded box's faces for the next run, when they are dearer to decode than to read
// back (texturePixelsWorthCaching: JPEG, PNG, TGA from a pk3; a 1024x1024 JPEG face is ~20 ms).
void storeSkyFaces(const content::SkyBox& sky, const content::FileSystem& fs,
                   const WorldBuildOptions& options) {
    std::vector<content::TextureInfo> faces(sky.faces.size());
    bool worth = false;
    for (size_t i = 0; i < faces.size(); ++i) {
        faces[i].image = sky.faces[i];
        faces[i].source = sky.sources[i];
        faces[i].origin = fs.sourceOf(sky.sources[i]);
        faces[i].missing = false;
        worth = worth || content::texturePixelsWorthCaching(faces[i]);
    }
    if (worth)
        options.texture_cache->store(skyCacheKey(options), faces);
}

// The sky box the game names, else a Quake 3 sky shader's far box, else the game's fallback.
// `cached`: cachedSkyFaces' answer.
void loadSky(DrawableWorld& world, const bsp::Map& map, const content::FileSystem& fs,
             const WorldBuildOptions& options, WorldBuildLog& log,
             std::optional<content::DecodedImages> cached) {
    content::DecodedImages* decoded = cached ? &*cached : nullptr;
    // A sky box the map names but the search paths lack (a Team Fortress 2 map's
    // sky_tf2_04 without the game's VPKs) is a warning: the sky faces draw as they would
    // without one.
    std::string sky_why;
    world.skybox =
        content::loadSkyBox(fs, options.skybox, options.material_files, &sky_why, decoded);
    if (!options.skybox.empty() && !world.skybox)
        log.warnings.push_back("sky box " + std::string(options.skybox) +
                               " not loaded: " + sky_why);
    // Quake 3: the first sky shader with a far box ("skyParms env/space1 - -" names
    // env/space1_rt.tga ...; ioquake3 tr_sky.c uses the same face order and axes as Quake 2).
    for (size_t i = 0; options.shaders && !world.skybox && i < world.materials.size(); ++i) {
        const content::ShaderDef* def = (world.materials[i].flags & bsp::kSurfSky)
                                            ? options.shaders->find(map.materials[i].name)
                                            : nullptr;
        if (def && def->sky.present && !def->sky.far_box.empty())
            world.skybox = content::loadSkyBox(fs, def->sky.far_box + "_",
                                               game::MaterialFiles::Images, nullptr, decoded);
    }
    loadFallbackSky(world, fs, options, decoded);
    if (world.skybox && options.texture_cache && !cached)
        storeSkyFaces(*world.skybox, fs, options);
    if (world.skybox)
        world.skybox->rotation = skyRotation(map);
}

} // namespace

DrawableWorld buildDrawableWorld(const bsp::Map& map, const content::FileSystem& fs,
                                 const content::PalettedSources& sources,
                                 const WorldBuildOptions& options, WorldBuildLog* log_out) {
    WorldBuildLog local;
    WorldBuildLog& log = log_out ? *log_out : local;
    DrawableWorld world;
    auto t0 = Clock::now();
    report(options, LoadStage::Textures);
    // The sky faces' cache entry is read on a thread of its own while the textures load
    // (oa_thor's six 1024x1024 faces are 25 MB); TextureCache::load is const and keeps no state.
    std::future<std::optional<content::DecodedImages>> sky_faces;
    if (options.texture_cache)
        sky_faces = std::async(std::launch::async, [&options] { return cachedSkyFaces(options); });
    world.textures = loadTextures(map, fs, sources, options, log);
    // Materials whose reflection is not drawn: one warning for the map, not one per material.
    if (std::string envmaps = content::envMapWarning(world.textures); !envmaps.empty())
        log.warnings.push_back(std::move(envmaps));
    // Quake 2 maps learn their texture sizes from the .wal files (or the missing-texture tile
    // that stands in for a missing one); the mesh divides their texel uv by them.
    world.materials = resolveMaterials(map, options.shaders, world.textures);
    if (options.shaders) {
        world.stages = buildMaterialStages(map, world.materials, *options.shaders, fs);
        world.fogs = buildFogVolumes(map, *options.shaders);
    }
    log.textures_s = since(t0) - log.texture_cache_write_s;
    t0 = Clock::now();
    loadSky(world, map, fs, options, log,
            sky_faces.valid() ? sky_faces.get() : std::optional<content::DecodedImages>());
    log.sky_s = since(t0);

    t0 = Clock::now();
    report(options, LoadStage::Lightmaps);
    world.lightmaps = loadLightmapSet(map, fs, options.lightmap_base, &log.warnings);
    log.lightmaps_s = since(t0);

    t0 = Clock::now();
    report(options, LoadStage::Mesh);
    WorldMeshOptions mesh_options;
    mesh_options.patch_level = options.patch_level;
    mesh_options.lightmaps = &world.lightmaps;
    mesh_options.unlit_faces = options.unlit_faces;
    world.mesh = buildMapMesh(map, world.materials, world.stages, mesh_options);
    world.water_heights = planarWaterHeights(map, world.materials);
    log.mesh_s = since(t0);
    return world;
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

} // namespace scene
