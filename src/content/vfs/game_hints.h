// The game a Source material most likely comes from, guessed from its path, so that a missing
// material can say which game's content to mount ("brick/de_dust_wall" -> Counter-Strike).
// A guess from names only: folders and prefixes the games' own content uses. GL-free, pure.
#pragma once

#include <string_view>

namespace content {

// "Team Fortress 2", "Counter-Strike", "Left 4 Dead", "Half-Life 2", "Portal",
// "Garry's Mod", "Day of Defeat: Source", "Momentum Mod", or empty when no folder or file
// name of `material` (any case, '/' or '\\' separators) matches the table. The first folder
// (from the left) that matches decides; within one, the table's order.
std::string_view likelyGameOf(std::string_view material);

} // namespace content
