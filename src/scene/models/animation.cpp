#include "scene/models/animation.h"

#include "scene/models/entity_keys.h"

#include <glm/vec3.hpp>

#include <algorithm>
#include <cmath>

namespace scene {

namespace {

// cg_ents.c CG_AddPacketEntities: cg.autoAngles[YAW] = (cg.time & 2047) * 360 / 2048.0.
constexpr float kQuake3ItemSpin = 360.0f / 2.048f;
// g_local.h MAX_CLIENTS: game entity numbers of spawned entities start after the clients.
constexpr uint32_t kQuake3MaxClients = 64;

// The frame of first..first + count - 1 (count > 1) shown at `time` at `rate` frames a second,
// within `frames` frames.
uint32_t playedFrame(uint32_t first, uint32_t count, float rate, size_t frames, double time) {
    uint32_t frame = std::min<uint32_t>(first, uint32_t(frames) - 1);
    if (count > 1 && std::isfinite(time)) {
        const double step = std::floor(time * rate);
        const double k = step - std::floor(step / count) * count;
        frame = std::min<uint32_t>(frame + uint32_t(k), uint32_t(frames) - 1);
    }
    return frame;
}

} // namespace

void setUpFrames(EntityModelInstance& inst, const content::ModelMesh& m,
                 const game::EntityModelRule* rule, const bsp::Entity& e) {
    const int32_t skin = rule ? rule->skin : intKey(e, "skin", 0);
    const int32_t frame = rule ? rule->frame : 0;
    inst.skin = std::clamp(skin, 0, int32_t(m.skins.size()) - 1);
    inst.first_frame = uint32_t(std::clamp(frame, 0, int32_t(m.frames.size()) - 1));
    if (rule && rule->idle_frames > 1 &&
        size_t(rule->frame) + size_t(rule->idle_frames) <= m.frames.size())
        inst.frame_count = uint32_t(rule->idle_frames);
}

void setUpMotion(EntityModelInstance& inst, const LoadedModel& model,
                 const game::EntityModelRule* rule, const bsp::Entity& e, uint32_t index) {
    const uint32_t spawnflags = uint32_t(intKey(e, "spawnflags", 0));
    inst.rotates = (model.mesh && model.mesh->rotates) ||
                   (rule && rule->rotates && (spawnflags & rule->still_spawnflags) == 0);
    if (rule && rule->item_motion) {
        inst.rotates = true;
        inst.spin_rate = kQuake3ItemSpin;
        inst.bob_scale = 0.005f + float(kQuake3MaxClients + index - 1) * 0.00001f;
        // Blended surfaces (a health sphere, a powerup ring) glow full bright.
        inst.fullbright = inst.additive;
    }
}

uint32_t instancePose(const EntityModelInstance& inst, const content::ModelMesh& m, double time) {
    if (m.frames.empty())
        return 0;
    const uint32_t frame =
        playedFrame(inst.first_frame, inst.frame_count, inst.frame_rate, m.frames.size(), time);
    const content::TimedRun& run = m.frames[frame].poses;
    return std::min<uint32_t>(run.first + content::entryAt(run, time * double(inst.anim_rate)),
                              m.pose_count - 1);
}

uint32_t instanceSkinImage(const EntityModelInstance& inst, const content::ModelMesh& m,
                           double time) {
    if (m.skins.empty())
        return 0;
    const content::TimedRun& run =
        m.skins[size_t(std::clamp(inst.skin, 0, int32_t(m.skins.size()) - 1))].images;
    return std::min<uint32_t>(run.first + content::entryAt(run, time),
                              uint32_t(m.images.size()) - 1);
}

uint32_t instanceSpritePicture(const EntityModelInstance& inst, const content::Sprite& s,
                               double time) {
    if (s.frames.empty())
        return 0;
    const uint32_t frame =
        playedFrame(inst.first_frame, inst.frame_count, inst.frame_rate, s.frames.size(), time);
    const content::TimedRun& run = s.frames[frame].pictures;
    return std::min<uint32_t>(run.first + content::entryAt(run, time),
                              uint32_t(s.pictures.size()) - 1);
}

float instanceYaw(const EntityModelInstance& inst, double time) {
    if (!inst.rotates || !std::isfinite(time))
        return inst.angles.y;
    return float(std::fmod(double(inst.spin_rate) * time, 360.0));
}

glm::vec3 instanceOrigin(const EntityModelInstance& inst, double time) {
    if (inst.bob_scale <= 0.0f || !std::isfinite(time))
        return inst.origin;
    const double ms = time * 1000.0;
    return inst.origin +
           glm::vec3(0, 0, float(4.0 + std::cos((ms + 1000.0) * double(inst.bob_scale)) * 4.0));
}

} // namespace scene
