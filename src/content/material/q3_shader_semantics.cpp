// Quake 3 shader scripts, semantics: what a parsed ShaderDef means. ioquake3's defaults that
// depend on the whole stage or definition (ParseStage's tail, FinishShader's sort), the shader
// R_FindShader makes without a script, and what the rest of the viewer asks of a definition
// (its primary image, the bsp::SurfaceFlags it implies).
#include "content/material/q3_shader.h"

#include "bsp/map.h"

namespace content {

// ParseStage's tail: default rgbGen, GL_ONE GL_ZERO as "no blend", depth mask.
void finishStage(ShaderStage& s, bool blend_given, bool tc_gen_given) {
    if (!s.rgb_gen_explicit) {
        const bool lit =
            !blend_given || s.src == BlendFactor::One || s.src == BlendFactor::SrcAlpha;
        s.rgb_gen = lit ? RgbGen::IdentityLighting : RgbGen::Identity;
    }
    s.blend = blend_given && !(s.src == BlendFactor::One && s.dst == BlendFactor::Zero);
    if (!s.blend) {
        s.src = BlendFactor::One;
        s.dst = BlendFactor::Zero;
    }
    s.depth_write = s.depth_write_explicit || !blend_given || !s.blend;
    if (!tc_gen_given)
        s.tc_gen = s.map == MapKind::Lightmap ? TcGen::Lightmap : TcGen::Base;
}

// FinishShader's sort rules (sky, polygonOffset, blended stages, fog-only).
void finishShader(ShaderDef& d) {
    float sort = d.sort_explicit ? d.sort : 0.0f;
    if (d.portal && !d.sort_explicit)
        sort = kSortPortal;
    if (d.sky.present) // ioquake3's isSky comes from skyParms only
        sort = kSortEnvironment;
    if (d.polygon_offset && sort == 0.0f)
        sort = kSortDecal;
    size_t active = 0;
    for (const ShaderStage& s : d.stages) {
        if (s.map == MapKind::None)
            continue; // ioquake3 drops stages without an image
        ++active;
        if (s.blend && d.stages[0].blend && sort == 0.0f)
            sort = s.depth_write ? kSortSeeThrough : kSortBlend0;
    }
    if (sort == 0.0f)
        sort = kSortOpaque;
    if (active == 0 && !d.sky.present)
        sort = kSortFog;
    d.sort = sort;
    if (d.stages.empty() && !d.sky.present && !(d.surface_parms & kParmFog))
        d.ioq3_rejects = true; // "ignore shaders that don't have any stages"
}

ShaderDef implicitShader(std::string_view name, bool has_lightmap) {
    ShaderDef d;
    d.name = std::string(name);
    d.implicit = true;
    d.sort = kSortOpaque;
    ShaderStage tex;
    tex.map = MapKind::Texture;
    tex.images.emplace_back(name);
    tex.rgb_gen = RgbGen::Identity;
    if (has_lightmap) {
        // R_FindShader's "two pass lightmap": lightmap, then texture x framebuffer.
        ShaderStage lm;
        lm.map = MapKind::Lightmap;
        lm.rgb_gen = RgbGen::Identity;
        lm.tc_gen = TcGen::Lightmap;
        d.stages.push_back(lm);
        tex.blend = true;
        tex.src = BlendFactor::DstColor;
        tex.dst = BlendFactor::Zero;
        tex.depth_write = false;
    } else {
        tex.rgb_gen = RgbGen::ExactVertex; // LIGHTMAP_BY_VERTEX
    }
    d.stages.push_back(std::move(tex));
    return d;
}

std::string primaryImage(const ShaderDef& def) {
    for (const ShaderStage& s : def.stages) {
        switch (s.map) {
        case MapKind::Texture:
        case MapKind::Clamp:
        case MapKind::Animated:
            if (!s.images.empty() && !s.images[0].empty())
                return s.images[0];
            break;
        default:
            break;
        }
    }
    return {};
}

uint32_t surfaceFlagsOf(const ShaderDef& def) {
    uint32_t f = 0;
    if (def.isSky())
        f |= bsp::kSurfSky;
    if (def.surface_parms & kParmNoDraw)
        f |= bsp::kSurfNoDraw;
    if (def.surface_parms & kParmFog)
        f |= bsp::kSurfFog;
    if (def.cull == CullMode::None)
        f |= bsp::kSurfNoCull;
    if (def.surface_parms & kParmNoLightmap)
        f |= bsp::kSurfFullbright;
    if (!def.stages.empty()) {
        const ShaderStage& first = def.stages[0];
        if (first.alpha_func != AlphaFunc::None && first.depth_write) {
            f |= bsp::kSurfAlphaTest; // cut-out grate: drawn with the opaque world
        } else if (first.blend) {
            f |= bsp::kSurfTranslucent;
            if (first.src == BlendFactor::One && first.dst == BlendFactor::One)
                f |= bsp::kSurfAdditive;
        }
        if (!(f & (bsp::kSurfAlphaTest | bsp::kSurfTranslucent)))
            for (const ShaderStage& s : def.stages)
                if (s.alpha_func != AlphaFunc::None && s.depth_write) {
                    f |= bsp::kSurfAlphaTest;
                    break;
                }
    }
    return f;
}

} // namespace content
