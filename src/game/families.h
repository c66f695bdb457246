// The family files behind game::profileFor (internal to src/game/).
#pragma once

#include "game/entity_models.h"
#include "game/profile.h"

#include <span>

namespace game::detail {

GameProfile quake1Profile(const bsp::Map& map);
void quake1Spawn(bsp::Map& map);

GameProfile halfLifeProfile(const bsp::Map& map);
void halfLifeSpawn(bsp::Map& map);

GameProfile quake2Profile(const bsp::Map& map, Quake2Look look);
GameProfile quake3Profile(const bsp::Map& map);
GameProfile sourceProfile(const bsp::Map& map);

// Each family's entity model table (entityModelRules).
std::span<const EntityModelRule> quake1EntityModels();
std::span<const EntityModelRule> quake2EntityModels();
std::span<const EntityModelRule> quake3EntityModels();
std::span<const EntityModelRule> halfLifeEntityModels();

// Entity 0 when it is the worldspawn, else nullptr.
const bsp::Entity* worldspawn(const bsp::Map& map);

// A worldspawn key naming a sky box, as `prefix` + name; empty when absent or over 64 bytes.
std::string skyPath(const bsp::Entity* world, std::string_view key, std::string_view prefix);

} // namespace game::detail
