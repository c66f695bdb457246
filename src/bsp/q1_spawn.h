// Quake 1 entity state at spawn: where the game code puts brush models and which light styles
// it switches off before the first frame, written into the common model so that the scene and
// the renderer draw the level as the game shows it without learning the game.
//
// The rules are LibreQuake's QuakeC (the progs.dat that ../shared/qsref runs in QuakeSpasm),
// which keeps id's behaviour; docs/fidelity.md names the functions. In short:
//   - entities whose spawnflags exclude skill 1 (QuakeSpasm's default, normal) are not spawned
//     (QuakeSpasm pr_edict.c ED_LoadFromFile): their brush models are hidden;
//   - func_door with START_OPEN sits at its open position (doors.qc func_door);
//   - func_plat without a targetname is lowered (plats.qc func_plat);
//   - func_train sits at its first target (plats.qc func_train_find);
//   - switchable lights (light* with a targetname and style 32..62) with START_OFF set their
//     style to "a" (misc.qc light), and worldspawn sets style 63 to "a" (world.qc).
// And the worldspawn fog as QuakeSpasm reads it (gl_fog.c Fog_ParseWorldspawn, gl_sky.c
// Sky_NewMap): "fog" or "_fog" "density red green blue" (the last such key wins; numbers that
// do not parse keep the defaults 0 and 0.3 grey), drawn as GL_EXP2 fog of density / 64 in a
// colour rounded to 8 bits, and r_skyfog's 0.5 (or the "skyfog" key) of it over the sky.
// Brush-model sizes are the engine's: the file's bounds spread by one unit on every side
// (QuakeSpasm gl_model.c Mod_LoadSubmodels).
#pragma once

#include "bsp/map.h"

namespace bsp {

// Moves Map::submodels[k].origin, clears `visible` and fills Map::light_style_strings as the
// game's spawn functions do, and sets Map::distance_fog. Needs bindSubmodelEntities to have run.
// Safe on any entity text: missing or malformed keys take the game's defaults.
void applyQuake1SpawnState(Map& map);

} // namespace bsp
