// Which point entity shows which model: a table per game, as data, the way level editors keep it
// (TrenchBroom's FGD `model()`). Rows name the file, the frames and skin shown, how the game
// moves the entity at spawn (its drop to the floor) and how it turns and bobs. GL-free.
//
// The table is picked by the game's rules (EntityRules::model_table); each family's table is in
// its family file (quake1.cpp, quake2.cpp, quake3.cpp, halflife.cpp), the scene's model set
// (scene/models/) places, lights and animates what they name and never asks which game a map
// came from.
#pragma once

#include "bsp/map.h"
#include "game/profile.h"

#include <glm/vec3.hpp>

#include <cstdint>
#include <span>
#include <string_view>

namespace game {

// A move to the floor when the entity spawns, as a game's code does it: the box (mins, maxs
// about the origin) traced from the origin raised by `raise` down `distance` units against the
// CollisionContents in `mask`, the origin moved to where the box stops. Quake 2 items
// (g_items.c droptofloor: +-15, 128 units, MASK_SOLID; an item that starts in solid is freed)
// and walking monsters (g_monster.c M_droptofloor: the spawn function's box, raised 1 unit,
// 256 units, MASK_MONSTERSOLID; a trace that meets nothing or is all in solid leaves the origin
// raised; walkmonster_start_go skips it for MONSTER_TRIGGER_SPAWN, spawnflags 2).
struct FloorDrop {
    float distance = 0.0f; // 0: not dropped
    float raise = 0.0f;
    glm::vec3 mins{0.0f};
    glm::vec3 maxs{0.0f};
    uint32_t mask = 0;
    uint32_t skip_spawnflags = 0; // any of these bits set: not dropped
    bool needs_floor = false;     // no floor within `distance`: stays raised (else moves it all)
    bool removes_in_solid = false;
};

// One row of a game's table. Rows of one classname are tried in order; the first whose
// conditions hold gives the model.
struct EntityModelRule {
    std::string_view classname{};
    std::string_view model{}; // virtual path ("progs/soldier.mdl", "maps/b_bh25.bsp"); empty:
                              // the entity's own "model" key (Quake 3 misc_model)
    uint32_t spawnflags = 0;  // the row needs (spawnflags & this) != 0; 0: any
    int32_t worldtype = -1;   // the row needs worldspawn "worldtype" equal to this; -1: any
    int32_t skin = 0;         // skin index (item_armor1..armorInv share one model)
    int32_t frame = 0;        // frame shown; its frame group animates by its intervals
    int32_t idle_frames = 0;  // > 1: frames frame .. frame + idle_frames - 1 play at 10 Hz (a
                              // QuakeC monster's stand frames, one per 0.1 s think; a Quake 2
                              // monster's stand mmove_t, one frame per M_MoveFrame)
    bool fullbright = false;  // drawn unlit (QuakeSpasm's MOD_FBRIGHTHACK for flames)
    // Quake 3 items (cgame cg_ents.c CG_Item): a second model drawn with the first (health's
    // sphere about its cross, a powerup's ring), the turn and bob every item shows, the
    // weapons' 1.5 scale about their midpoint, and the drop to the floor (g_items.c
    // FinishSpawningItem) unless spawnflags 1 (suspended).
    std::string_view model2{};
    bool item_motion = false;
    bool weapon = false;
    // Quake 2: the item's EF_ROTATE (g_items.c itemlist world_model_flags), which spawnflags
    // bits in `still_spawnflags` clear (ITEM_NO_TOUCH, droptofloor); and the game's drop to
    // the floor at spawn (FloorDrop above).
    bool rotates = false;
    uint32_t still_spawnflags = 0;
    FloorDrop drop{};
};

// The table a game names (game::EntityRules::model_table; empty for None).
std::span<const EntityModelRule> entityModelRules(EntityModelTable table);

// The rule that applies to `entity`, or nullptr. `worldtype` is worldspawn's (0 when absent).
const EntityModelRule* findEntityModelRule(std::span<const EntityModelRule> rules,
                                           const bsp::Entity& entity, int32_t worldtype);

} // namespace game
