#include "scene/world/draw_state.h"

namespace scene {

const char* blendName(Blend blend) {
    switch (blend) {
    case Blend::Off:
        return "off";
    case Blend::Alpha:
        return "alpha";
    case Blend::AlphaAdd:
        return "alpha add";
    case Blend::Add:
        return "add";
    }
    return "?";
}

float worldBatchOpacity(Pass pass, const ResolvedMaterial* material, const bsp::Submodel* submodel,
                        float liquid_alpha) {
    if (pass < Pass::Liquid || !material)
        return 1.0f;
    float alpha = pass == Pass::Liquid ? material->alpha * liquid_alpha : material->alpha;
    if (submodel && submodel->blend != bsp::BlendMode::Opaque)
        alpha *= submodel->alpha;
    return alpha;
}

DrawState worldBatchDrawState(Pass pass, const ResolvedMaterial* material,
                              const bsp::Submodel* submodel, float alpha, bool sky_at_far_plane) {
    const uint32_t flags = material ? material->flags : 0;
    DrawState s;
    s.order = pass >= Pass::Liquid ? DrawOrder::Blended : DrawOrder::Opaque;
    // Two-sided materials (Quake 3 `cull none`, Source $nocull) and the sky, seen from inside.
    s.cull = pass != Pass::Sky && !(flags & bsp::kSurfNoCull);
    s.alpha_test = pass == Pass::AlphaTest;
    // GoldSrc brush models in render mode colour, texture, glow or additive take no lightmap.
    s.lighting = submodel && !submodel->lightmapped ? Lighting::Unlit : Lighting::Lit;
    if (pass == Pass::Sky)
        s.at_far_plane = sky_at_far_plane;
    if (pass < Pass::Liquid)
        return s;
    // Liquids and translucent surfaces blend when they are see-through or add (Quake 2
    // SURF_TRANS33/66, Quake 3 and Quake 2 additive surfaces, Half-Life brush render modes).
    const bool additive =
        (submodel && submodel->blend == bsp::BlendMode::Additive) || (flags & bsp::kSurfAdditive);
    const bool blended = alpha < 1.0f || additive || (flags & bsp::kSurfTranslucent);
    if (blended) {
        s.blend = additive ? Blend::AlphaAdd : Blend::Alpha;
        s.depth_write = false;
    }
    return s;
}

DrawState overdrawState(DrawState state, bool two_sided) {
    state.blend = Blend::Add;
    state.depth_test = false;
    state.cull = !two_sided;
    return state;
}

} // namespace scene
