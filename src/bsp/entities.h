// Entity lump text -> key/value lists.
//
// The parser is tolerant, as the engines are: a missing closing quote ends the value at the
// end of the line, stray tokens outside braces are skipped, an unterminated entity is kept,
// and every problem is reported as a warning rather than an error. It never reads past the
// text and runs in linear time.
#pragma once

#include "bsp/map.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace bsp {

// Caps that keep a hostile entity lump from making us allocate without bound.
inline constexpr size_t kMaxEntities = 65536;
inline constexpr size_t kMaxEntityPairs = 1024;

std::vector<Entity> parseEntities(std::string_view text, std::vector<std::string>* warnings);

// The entity lump of the Quake 1, Quake 2 and Source families: text up to the first NUL (or the
// lump's end) into map.entity_text, parsed into map.entities (warnings into map.warnings).
void readEntityLump(Map& map, std::span<const uint8_t> lump);

// Player starts in the order a viewer should cycle them: info_player_start,
// info_player_deathmatch, then other team spawns and intermission cameras.
std::vector<SpawnPoint> findSpawnPoints(const Map& map);

} // namespace bsp
