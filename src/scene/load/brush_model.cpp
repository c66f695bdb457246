#include "scene/load/brush_model.h"

#include "content/model/model_asset.h"

#include <cassert>
#include <string>

namespace scene {

namespace {

// The world's rule for faces without light data laid over the model's mesh (loadBrushModel).
void applyWorldUnlitRule(WorldMesh& mesh, game::UnlitFaces model, game::UnlitFaces world) {
    if (world == game::UnlitFaces::VertexColour || world == model)
        return;
    const bool each_style = world == game::UnlitFaces::FullbrightEachStyle;
    const bool full = world == game::UnlitFaces::Fullbright || each_style;
    const uint8_t v = full ? 255 : 0;
    for (WorldVertex& vertex : mesh.vertices) {
        if (full)
            vertex.lm_layer = each_style ? kLayerEachStyle : -1.0f;
        if (vertex.lm_layer < 0.0f)
            vertex.colour = glm::u8vec4(v, v, v, 255);
    }
}

} // namespace

core::Result<BrushModel> buildBrushModel(bsp::Map map, std::string_view path,
                                         const content::FileSystem& fs,
                                         game::UnlitFaces world_unlit) {
    assert(!map.submodels.empty() && "buildBrushModel: a brush model file needs a model 0");
    BrushModel b;
    b.map = std::move(map);
    b.mins = b.map.submodels[0].mins;
    b.maxs = b.map.submodels[0].maxs;
    // A loose map's companions (.lit) are not looked up for a model, as QuakeSpasm reads a .lit
    // only for the world (gl_model.c Mod_LoadLighting: cl.worldmodel's name); the base names no
    // q3map2 folder, which Quake 1 files never have. Problems with the file's lightmaps fall
    // back to vertex colours without a warning.
    std::string base(path);
    if (base.size() > 4)
        base.resize(base.size() - 4);
    WorldBuildOptions options;
    options.lightmap_base = base;
    options.texture_threads = 1;
    static_cast<DrawableWorld&>(b) =
        buildDrawableWorld(b.map, fs, content::loadPalettedSources(b.map, fs), options);
    applyWorldUnlitRule(b.mesh, game::profileFor(b.map).rules.light.unlit_faces, world_unlit);
    // Every leaf, no frustum: all of model 0's faces. An item box has no other models.
    Visibility vis(b.map, b.mesh);
    VisOptions all;
    all.pvs = false;
    all.frustum = false;
    all.models = false;
    all.commute_blends = false;
    vis.update(Camera{}, all, b.faces);
    return b;
}

core::Result<BrushModel> loadBrushModel(std::span<const uint8_t> bytes, std::string_view path,
                                        const content::FileSystem& fs,
                                        game::UnlitFaces world_unlit) {
    auto map = content::decodeBrushModel(bytes, path);
    if (!map)
        return map.error();
    return buildBrushModel(std::move(*map), path, fs, world_unlit);
}

} // namespace scene
