#include "render/world_upload.h"

namespace render {

core::Error graphicsError(const std::string& detail) {
    return core::makeError(core::ErrorCode::Graphics, {}, -1, {}, detail);
}

WorldSource worldSourceOf(const bsp::Map& map, const scene::DrawableWorld& world,
                          const game::MapRules& rules, const scene::EntityModelSet* models,
                          const scene::WorldMesh* mesh) {
    return {.map = map,
            .mesh = mesh ? *mesh : world.mesh,
            .textures = world.textures,
            .skybox = world.skybox ? &*world.skybox : nullptr,
            .stages = &world.stages,
            .fogs = &world.fogs,
            .lightmaps = &world.lightmaps,
            .models = models,
            .water_heights = &world.water_heights,
            .rules = rules};
}

WorldSource worldSourceOf(const scene::MapBundle& bundle, const scene::WorldMesh* mesh) {
    return worldSourceOf(bundle.map, bundle, bundle.profile.rules, &bundle.models, mesh);
}

core::Status uploadBundle(WorldRenderer& renderer, const scene::MapBundle& bundle) {
    std::string error;
    if (!renderer.upload(worldSourceOf(bundle), &error))
        return graphicsError(error);
    return core::okStatus();
}

core::Status setPatchLevel(WorldRenderer& renderer, scene::MapBundle& bundle, int level) {
    scene::WorldMeshOptions options;
    options.patch_level = level;
    options.lightmaps = &bundle.lightmaps;
    options.unlit_faces = bundle.profile.rules.light.unlit_faces;
    scene::WorldMesh mesh =
        scene::buildMapMesh(bundle.map, bundle.materials, bundle.stages, options);
    std::string error;
    if (!renderer.upload(worldSourceOf(bundle, &mesh), &error))
        return graphicsError(error);
    bundle.mesh = std::move(mesh);
    return core::okStatus();
}

} // namespace render
