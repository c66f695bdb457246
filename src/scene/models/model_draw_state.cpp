#include "scene/models/model_draw_state.h"

namespace scene {

namespace {

bool instanceBlends(const EntityModelInstance& inst) {
    return inst.additive || inst.render.blend != ModelBlend::Normal;
}

} // namespace

DrawState modelRangeDrawState(const EntityModelInstance& inst, const content::ModelDrawRange& r) {
    const bool blended = instanceBlends(inst);
    const bool range_blended = blended || r.additive || r.translucent;
    DrawState s;
    s.order = range_blended ? DrawOrder::Blended : DrawOrder::Opaque;
    if (inst.additive || (r.additive && !blended))
        s.blend = Blend::Add; // Quake 3 GL_ONE GL_ONE, STUDIO_NF_ADDITIVE on an opaque entity
    else if (range_blended)
        s.blend = inst.render.blend == ModelBlend::Additive || r.additive ? Blend::AlphaAdd
                                                                          : Blend::Alpha;
    s.depth_write = !range_blended;
    s.cull = !r.two_sided;
    s.alpha_test = r.masked;
    s.lighting = inst.fullbright || r.unlit ? Lighting::Unlit : Lighting::Lit;
    return s;
}

std::vector<DrawState> modelRangeDrawStates(const EntityModelInstance& inst,
                                            const std::vector<content::ModelDrawRange>& ranges) {
    std::vector<DrawState> states;
    states.reserve(ranges.size());
    for (const content::ModelDrawRange& r : ranges)
        states.push_back(modelRangeDrawState(inst, r));
    return states;
}

float modelOpacity(const EntityModelInstance& inst) {
    return instanceBlends(inst) && !inst.additive ? inst.render.alpha : 1.0f;
}

DrawState fadingDrawState(DrawState s) {
    s.order = DrawOrder::Blended;
    if (s.blend == Blend::Off)
        s.blend = Blend::Alpha;
    else if (s.blend == Blend::Add)
        s.blend = Blend::AlphaAdd; // the fade scales what it adds

    s.depth_write = false;
    return s;
}

DrawState spriteDrawState(const ModelRenderMode& mode, content::SpriteRenderMode format) {
    DrawState s;
    s.cull = false;
    s.lighting = Lighting::Unlit;
    s.depth_test = mode.depth_test;
    s.alpha_test = format == content::SpriteRenderMode::AlphaTest;
    if (mode.blend == ModelBlend::Normal) {
        if (format == content::SpriteRenderMode::Additive)
            s.blend = Blend::Add;
        else if (format == content::SpriteRenderMode::IndexAlpha)
            s.blend = Blend::Alpha;
    } else {
        s.blend = mode.blend == ModelBlend::Additive ? Blend::AlphaAdd : Blend::Alpha;
        s.alpha_test = s.alpha_test || mode.alpha_test;
    }
    if (s.blend != Blend::Off) {
        s.order = DrawOrder::Blended;
        s.depth_write = false;
    }
    return s;
}

float spriteOpacity(const ModelRenderMode& mode) {
    return mode.blend == ModelBlend::Normal ? 1.0f : mode.alpha;
}

glm::vec3 spriteTint(const ModelRenderMode& mode) {
    return mode.blend == ModelBlend::Normal ? glm::vec3(1.0f) : mode.tint;
}

} // namespace scene
