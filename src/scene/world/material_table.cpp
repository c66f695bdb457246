#include "scene/world/material_table.h"

namespace scene {

Pass classifyMaterial(uint32_t flags) {
    if (flags & bsp::kSurfSky)
        return Pass::Sky;
    // A fog volume's own surface writes no depth and is only drawn by the fog pass (ioquake3
    // sorts it after the opaque world, SS_FOG).
    if (flags & bsp::kSurfFog)
        return Pass::Translucent;
    if (flags & (bsp::kSurfTranslucent | bsp::kSurfAdditive))
        return Pass::Translucent;
    if (flags & bsp::kSurfLiquid)
        return Pass::Liquid;
    if (flags & bsp::kSurfAlphaTest)
        return Pass::AlphaTest;
    return Pass::Opaque;
}

MaterialTable resolveMaterials(const bsp::Map& map, const content::ShaderLibrary* shaders,
                               std::span<const content::TextureInfo> textures) {
    MaterialTable table(map.materials.size());
    for (size_t i = 0; i < map.materials.size(); ++i) {
        const bsp::Material& m = map.materials[i];
        ResolvedMaterial& r = table[i];
        r.flags = content::resolveSurfaceFlags(m, shaders);
        if (i < textures.size()) {
            const content::TextureInfo& t = textures[i];
            r.flags |= t.surface_flags;
            r.alpha_cutoff = t.alpha_cutoff;
            r.water = t.water;
            r.envmap = t.envmap_shading;
            r.motion = t.motion;
            r.proxies = t.proxies;
        }
        r.pass = classifyMaterial(r.flags);
        r.width = m.width;
        r.height = m.height;
        r.alpha = m.alpha;
        r.fullbright_light = m.fullbright_light;
        if (i < textures.size() && textures[i].fullbright_light > 0.0f)
            r.fullbright_light = textures[i].fullbright_light;
        r.flow_speed = m.flow_speed;
        r.anim_fps = m.anim_fps;
        // Quake 2 maps learn their texture sizes from the .wal files (or the missing-texture
        // tile that stands in for a missing one).
        if (m.uv_in_texels && i < textures.size() && textures[i].image.width > 0 &&
            textures[i].image.height > 0) {
            r.width = textures[i].image.width;
            r.height = textures[i].image.height;
            r.divide_uv = true;
        }
    }
    return table;
}

} // namespace scene
