// What the scene resolves per material of a parsed map, beside the map: the parsed bsp::Map
// stays exactly as the parser made it, and everything later stages learn about a material
// from the content (shader scripts, decoded texture sizes, shader stages) lives here.
//
// The table is parallel to bsp::Map::materials. The mesh builder reads it (pass, nodraw, the
// texel-size division of Quake 2 uv), keeps a copy in WorldMesh::materials for what is built
// from the mesh (scene::Visibility's blended-face order, flares, the GPU upload), and
// scene::MapBundle holds the one its mesh was built from.
#pragma once

#include "bsp/map.h"
#include "content/material/shader_library.h"
#include "content/material/textures.h"

#include <cstdint>
#include <span>
#include <vector>

namespace scene {

// Order of passes in a frame.
enum class Pass : uint8_t {
    Opaque,
    AlphaTest,
    Sky,
    Liquid,
    Translucent,
    Count,
};
const char* passName(Pass pass);

// Whether the blended faces of a material may be drawn in any order among other faces that
// may: their blending is pure addition (framebuffer += colour, saturating, depth writes off),
// which gives the same frame in any order. scene::Visibility then groups such faces into fewer
// batches. Decided by scene::buildMaterialStages (it knows how the renderer draws each one).
enum class BlendOrder : uint8_t {
    Ordered,  // draw in the sorted order (alpha blending, filters, depth writes, unknown)
    Commutes, // every way the renderer draws it adds to the frame
    // Drawn with its brush model's blending (no shader stages): commutes in a model whose
    // BlendMode is Additive (Half-Life rendermode 3 and 5), is ordered elsewhere.
    CommutesInAdditiveModel,
};

struct ResolvedMaterial {
    // bsp::SurfaceFlags: the map's, with those of the material's shader script
    // (content::resolveSurfaceFlags) and of its material file (a Source .vmt,
    // content::TextureInfo::surface_flags) ORed in.
    uint32_t flags = 0;
    Pass pass = Pass::Opaque; // classifyMaterial(flags), before any brush model's blending
    // Texel size: the map's, or for a material whose uv are in texels (Quake 2) the decoded
    // texture's (or the missing-texture tile's that stands in for a missing one); 0 when unknown.
    int32_t width = 0;
    int32_t height = 0;
    // The map's vertices of this material have uv in texels (bsp::Material::uv_in_texels)
    // and the size above is known: the mesh divides their uv by it (uvInRepeats).
    bool divide_uv = false;
    // Draw order among blended surfaces, lower first (Quake 3 shader `sort`; 0 when the game
    // has none): blended faces sort by it, then back to front. Set by buildMaterialStages.
    float sort = 0.0f;
    // May blended faces of this material be reordered (see BlendOrder)? Set by
    // buildMaterialStages; Ordered until then.
    BlendOrder blend_order = BlendOrder::Ordered;
    // Copied from the map's material for consumers that do not keep the map (the GPU set).
    float alpha = 1.0f;            // bsp::Material::alpha (kSurfTranslucent)
    float anim_fps = 0.0f;         // bsp::Material::anim_fps
    float fullbright_light = 0.0f; // bsp::Material::fullbright_light, or the material file's
    float alpha_cutoff = 0.5f;     // kSurfAlphaTest threshold (Source $alphatestreference)
    float flow_speed = 0.0f;       // bsp::Material::flow_speed
    // Shaded as water (content::TextureInfo::water: the material file's); disabled otherwise.
    content::WaterShading water;
    // A cube-map reflection added to the lit colour (content::TextureInfo::envmap_shading: the
    // material file's $envmap); disabled otherwise.
    content::EnvMapShading envmap;
    // How the texture coordinates move (content::TextureInfo::motion: the material file's
    // $basetexturetransform, $bumptransform and TextureScroll proxies); still otherwise.
    content::TextureMotion motion;
    // Number proxies run at the viewer's clock (content::TextureInfo::proxies: Sine,
    // LinearRamp, the arithmetic ones, TextureTransform); empty for a still material.
    content::MaterialProxies proxies;
};

using MaterialTable = std::vector<ResolvedMaterial>;

// The pass a material's surfaces are drawn in, from its (resolved) surface flags.
Pass classifyMaterial(uint32_t flags);
inline Pass classifyMaterial(const bsp::Material& material) {
    return classifyMaterial(material.flags);
}

// One entry per map material: flags after the shader scripts (none when `shaders` is null)
// and the material files (textures' surface_flags, alpha_cutoff, fullbright_light, water), pass,
// alpha and animation rate. With `textures` (parallel to map.materials; empty: none),
// a material whose uv are in texels takes its decoded texture's size and gets divide_uv when
// that size is positive. sort and blend_order keep their defaults (buildMaterialStages).
MaterialTable resolveMaterials(const bsp::Map& map, const content::ShaderLibrary* shaders = nullptr,
                               std::span<const content::TextureInfo> textures = {});

// Texture coordinates of a map vertex of a material in repeats: divided by the texel size
// when the entry says so (the same division the map's uv once received in place).
inline glm::vec2 uvInRepeats(const ResolvedMaterial& m, glm::vec2 uv) {
    if (!m.divide_uv)
        return uv;
    return glm::vec2(uv.x / float(m.width), uv.y / float(m.height));
}

} // namespace scene
