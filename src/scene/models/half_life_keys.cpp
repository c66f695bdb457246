#include "scene/models/half_life_keys.h"

#include "game/profile.h"
#include "scene/models/entity_keys.h"

#include <glm/common.hpp>

#include <algorithm>
#include <cctype>
#include <iterator>

namespace scene {

namespace {

bool hasSuffix(std::string_view s, std::string_view suffix) {
    if (s.size() < suffix.size())
        return false;
    for (size_t i = 0; i < suffix.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(s[s.size() - suffix.size() + i])) != suffix[i])
            return false;
    return true;
}

// The HLSDK classes whose Spawn calls CBaseAnimating::InitBoneControllers, which sets each
// controller from the value 0 (h_cycler.cpp CCycler::Spawn, scientist.cpp
// CSittingScientist::Spawn, apache.cpp, barnacle.cpp, nihilanth.cpp, osprey.cpp, and
// monsters.cpp MonsterInitDead for the dead bodies of barney.cpp, hgrunt.cpp, player.cpp and
// scientist.cpp). Every other entity keeps the bytes of its "controller" key (0 when absent).
constexpr std::string_view kInitControllerClasses[] = {"cycler",
                                                       "monster_sitting_scientist",
                                                       "monster_apache",
                                                       "monster_barnacle",
                                                       "monster_nihilanth",
                                                       "monster_osprey",
                                                       "monster_barney_dead",
                                                       "monster_hgrunt_dead",
                                                       "monster_hevsuit_dead",
                                                       "monster_scientist_dead"};

// pev->framerate on a studio entity, which the client multiplies with the sequence's fps
// (Xash3D FWGS ref/gl/gl_studio.c R_StudioEstimateFrame, HLSDK cl_dll/StudioModelRenderer.cpp
// StudioEstimateFrame: frames advance by (time - animtime) * framerate * fps). The "framerate"
// key sets it (util.cpp EntvarsKeyvalue) and stays for entities that never call
// CBaseAnimating::ResetSequenceInfo (animating.cpp), which sets 1: every monster_* does (the
// monsters through SetActivity, scripted.cpp CFurniture::Spawn directly), and so does a cycler
// (h_cycler.cpp CCycler::Spawn), which then stops (framerate 0) when its sequence or frame is not
// 0; dead bodies stop too (monsters.cpp MonsterInitDead). Items and weapons keep the key, 0 when
// absent: they hold their first frame. A negative rate counts as 0 (the viewer plays no sequence
// backwards).
float halfLifeStudioFrameRate(const bsp::Entity& e) {
    const std::string_view classname = e.classname();
    if (classname == "cycler")
        return intKey(e, "sequence", 0) != 0 || floatKey(e, "frame", 0.0f) != 0.0f ? 0.0f : 1.0f;
    if (classname.starts_with("monster_"))
        return classname.ends_with("_dead") ? 0.0f : 1.0f;
    return std::clamp(floatKey(e, "framerate", 0.0f), 0.0f, 1000.0f);
}

} // namespace

ModelRenderMode halfLifeRenderMode(const bsp::Entity& e) {
    const game::RenderKeys keys = game::halfLifeRenderKeys(e);
    ModelRenderMode r;
    switch (keys.mode) {
    case game::RenderMode::Colour:
    case game::RenderMode::Texture:
        r.blend = ModelBlend::Alpha;
        break;
    case game::RenderMode::Glow: // added, seen through walls
        r.blend = ModelBlend::Additive;
        r.depth_test = false;
        break;
    case game::RenderMode::Solid:
        r.blend = ModelBlend::Alpha;
        r.alpha_test = true;
        break;
    case game::RenderMode::Additive:
        r.blend = ModelBlend::Additive;
        break;
    case game::RenderMode::Normal:
        return r;
    }
    r.alpha = keys.amount;
    if (keys.colour && *keys.colour != glm::vec3(0.0f))
        r.tint = *keys.colour;
    return r;
}

std::string_view halfLifeModelKey(const bsp::Entity& e) {
    const std::string_view m = e.get("model");
    return hasSuffix(m, ".mdl") || hasSuffix(m, ".spr") ? m : std::string_view{};
}

bool halfLifeStartsOff(const bsp::Entity& e) {
    return e.classname() == "env_sprite" && e.has("targetname") &&
           (intKey(e, "spawnflags", 0) & 1) == 0;
}

content::StudioKeys halfLifeStudioKeys(const bsp::Entity& e) {
    content::StudioKeys k;
    k.body = intKey(e, "body", 0);
    k.sequence = intKey(e, "sequence", 0);
    k.init_controllers =
        std::find(std::begin(kInitControllerClasses), std::end(kInitControllerClasses),
                  e.classname()) != std::end(kInitControllerClasses);
    k.controller = intKey(e, "controller", 0);
    return k;
}

void applyHalfLifeKeys(const bsp::Entity& e, const LoadedModel& model, EntityModelInstance& inst) {
    inst.render = halfLifeRenderMode(e);
    if (model.studio)
        inst.anim_rate = halfLifeStudioFrameRate(e);
    if (inst.render.blend == ModelBlend::Additive)
        inst.fullbright = true;
    const float scale = floatKey(e, "scale", 0.0f);
    if (scale > 0.0f && scale < 1000.0f)
        inst.scale = scale;
    if (model.sprite) {
        inst.fullbright = true; // sprites take no light
        const float rate = floatKey(e, "framerate", 0.0f);
        if (rate > 0.0f && rate < 1000.0f && model.sprite->frames.size() > 1) {
            inst.frame_rate = rate;
            inst.frame_count = uint32_t(model.sprite->frames.size());
        }
        if (e.classname() == "env_sprite" && inst.angles.y != 0.0f && inst.angles.z == 0.0f) {
            inst.angles.z = inst.angles.y;
            inst.angles.y = 0.0f;
        }
    }
}

} // namespace scene
