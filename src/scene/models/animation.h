// What an instance shows at a time, as the games advance it each frame: its frames (a frame
// group's own timing, or the idle frames a table row plays), its skin images, a sprite's
// pictures, and the turn and bob of items. GL-free, pure functions of the instance and the time.
#pragma once

#include "content/model/model_mesh.h"
#include "content/model/sprite.h"
#include "game/entity_models.h"
#include "scene/models/model_set.h"

#include <glm/vec3.hpp>

#include <cstdint>

namespace scene {

// Which pose of `model` an instance shows at `time` seconds (its frame's group timing at
// anim_rate, or its idle frames at frame_rate), and which skin image.
uint32_t instancePose(const EntityModelInstance& instance, const content::ModelMesh& model,
                      double time);
uint32_t instanceSkinImage(const EntityModelInstance& instance, const content::ModelMesh& model,
                           double time);
// Which picture of a sprite an instance shows at `time` (its frames at frame_rate when
// frame_count > 1, each frame's group by its intervals).
uint32_t instanceSpritePicture(const EntityModelInstance& instance, const content::Sprite& sprite,
                               double time);
// The instance's yaw at `time`: rotating items turn at 100 degrees a second (QuakeSpasm
// cl_main.c CL_RelinkEntities, bobjrotate = anglemod(100 * cl.time)); Quake 3 items at
// spin_rate 360 / 2.048 (cg_ents.c CG_AddPacketEntities: autoAngles yaw (cg.time & 2047) * 360
// / 2048).
float instanceYaw(const EntityModelInstance& instance, double time);
// Where the instance's origin is at `time`: its origin, raised by the Quake 3 item bob.
glm::vec3 instanceOrigin(const EntityModelInstance& instance, double time);

// What a new instance of `mesh` plays: the row's skin and frame (without a row, a Half-Life
// entity's "skin" key and frame 0), clamped to the mesh's, and the row's idle frames when the
// mesh has them all.
void setUpFrames(EntityModelInstance& instance, const content::ModelMesh& mesh,
                 const game::EntityModelRule* rule, const bsp::Entity& entity);

// How a new instance moves: the model's own rotate flag or the row's (which the entity's
// spawnflags in still_spawnflags clear); a Quake 3 item's turn and bob (cgame cg_ents.c
// CG_Item: the bob's rate from the entity number, for which the entity's place `index` in the
// lump after worldspawn stands in), its blended surfaces glowing full bright.
void setUpMotion(EntityModelInstance& instance, const LoadedModel& model,
                 const game::EntityModelRule* rule, const bsp::Entity& entity, uint32_t index);

} // namespace scene
