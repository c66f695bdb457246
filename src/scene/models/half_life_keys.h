// The Half-Life entity keys that change how an entity's model is drawn, read as the HLSDK's
// game code and the engine read them: which file a point entity's "model" key names, the render
// mode, the studio model's body, sequence and controllers, the frame rate, the scale and a
// sprite's frames and roll. GL-free.
#pragma once

#include "bsp/map.h"
#include "content/model/model_asset.h"
#include "scene/models/model_set.h"

#include <string_view>

namespace scene {

// How a model or sprite is drawn under Half-Life's render keys of `entity`
// (game::halfLifeRenderKeys: rendermode 0 normal, 1 colour, 2 texture, 3 glow, 4 solid / alpha
// test, 5 additive; renderamt 0..255; rendercolor "r g b").
ModelRenderMode halfLifeRenderMode(const bsp::Entity& entity);

// Half-Life's SET_MODEL(pev->model): a point entity's "model" key naming a .mdl or .spr file
// (brush entities name "*N"); empty otherwise.
std::string_view halfLifeModelKey(const bsp::Entity& entity);

// effects.cpp CSprite::Spawn: a named env_sprite without "start on" (spawnflags 1) stays off
// until triggered.
bool halfLifeStartsOff(const bsp::Entity& entity);

// The keys a studio model's mesh depends on, as the entity's class leaves them: "body",
// "sequence", and the controllers either set by InitBoneControllers (the classes whose Spawn
// calls it) or the bytes of the "controller" key.
content::StudioKeys halfLifeStudioKeys(const bsp::Entity& entity);

// The keys the engine reads from every entity (render mode, scale), a studio model's frame rate
// and those the sprite entities read (their frames, and the roll CSprite::Spawn makes of a yaw).
void applyHalfLifeKeys(const bsp::Entity& entity, const LoadedModel& model,
                       EntityModelInstance& instance);

} // namespace scene
