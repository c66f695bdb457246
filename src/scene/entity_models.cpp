#include "scene/entity_models.h"

#include "bsp/tree.h"
#include "content/model/md2.h"
#include "content/model/md3.h"
#include "content/model/mdl.h"
#include "content/model/skin.h"
#include "content/model/sp2.h"
#include "content/model/studio.h"
#include "content/textures.h"
#include "scene/brush_model.h"
#include "scene/collision.h"
#include "scene/debug_geometry.h"
#include "scene/model_light.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>

namespace scene {

namespace {

// Quake 1, from id's QuakeC (LibreQuake's qcsrc keeps the names and paths): the monsters'
// spawn functions (soldier.qc monster_army, dog.qc monster_dog, ...: precache_model and
// setmodel), items.qc (item_health's H_ROTTEN 1 / H_MEGA 2, the ammo boxes' WEAPON_BIG2 1,
// the keys by worldtype 0 medieval / 1 metal / 2 base, item_sigil's spawnflags 1..8, the
// armours' skins) and misc.qc (the torches and flames: light_flame_large_yellow shows frame 1
// of flame2.mdl). Monsters stand in their stand frames, which their think functions play at
// 10 Hz: their place in the model is the order of the file's $frame lines (dog.qc lists
// attack, death, deathb, pain, painb, run and leap before stand1..9: frames 69..77). Models
// whose idle is not a plain stand loop (shalrath, tarbaby, fish, boss, oldone) show frame 0. The
// flames are drawn full bright (QuakeSpasm gl_model.c Mod_SetExtraFlags sets MOD_FBRIGHTHACK on
// flame.mdl, flame2.mdl and boss.mdl).
constexpr EntityModelRule kQuake1[] = {
    {.classname = "monster_army", .model = "progs/soldier.mdl", .idle_frames = 8},
    {.classname = "monster_dog", .model = "progs/dog.mdl", .frame = 69, .idle_frames = 9},
    {.classname = "monster_ogre", .model = "progs/ogre.mdl", .idle_frames = 9},
    {.classname = "monster_ogre_marksman", .model = "progs/ogre.mdl", .idle_frames = 9},
    {.classname = "monster_knight", .model = "progs/knight.mdl", .idle_frames = 9},
    {.classname = "monster_hell_knight", .model = "progs/hknight.mdl", .idle_frames = 9},
    {.classname = "monster_wizard", .model = "progs/wizard.mdl", .idle_frames = 15},
    {.classname = "monster_demon1", .model = "progs/demon.mdl", .idle_frames = 13},
    {.classname = "monster_shambler", .model = "progs/shambler.mdl", .idle_frames = 17},
    {.classname = "monster_zombie", .model = "progs/zombie.mdl", .idle_frames = 15},
    {.classname = "monster_enforcer", .model = "progs/enforcer.mdl", .idle_frames = 7},
    {.classname = "monster_shalrath", .model = "progs/shalrath.mdl"},
    {.classname = "monster_tarbaby", .model = "progs/tarbaby.mdl"},
    {.classname = "monster_fish", .model = "progs/fish.mdl"},
    {.classname = "monster_boss", .model = "progs/boss.mdl", .fullbright = true},
    {.classname = "monster_oldone", .model = "progs/oldone.mdl"},
    {.classname = "weapon_supershotgun", .model = "progs/g_shot.mdl"},
    {.classname = "weapon_nailgun", .model = "progs/g_nail.mdl"},
    {.classname = "weapon_supernailgun", .model = "progs/g_nail2.mdl"},
    {.classname = "weapon_grenadelauncher", .model = "progs/g_rock.mdl"},
    {.classname = "weapon_rocketlauncher", .model = "progs/g_rock2.mdl"},
    {.classname = "weapon_lightning", .model = "progs/g_light.mdl"},
    {.classname = "item_armor1", .model = "progs/armor.mdl", .skin = 0},
    {.classname = "item_armor2", .model = "progs/armor.mdl", .skin = 1},
    {.classname = "item_armorInv", .model = "progs/armor.mdl", .skin = 2},
    {.classname = "item_health", .model = "maps/b_bh10.bsp", .spawnflags = 1},
    {.classname = "item_health", .model = "maps/b_bh100.bsp", .spawnflags = 2},
    {.classname = "item_health", .model = "maps/b_bh25.bsp"},
    {.classname = "item_shells", .model = "maps/b_shell1.bsp", .spawnflags = 1},
    {.classname = "item_shells", .model = "maps/b_shell0.bsp"},
    {.classname = "item_spikes", .model = "maps/b_nail1.bsp", .spawnflags = 1},
    {.classname = "item_spikes", .model = "maps/b_nail0.bsp"},
    {.classname = "item_rockets", .model = "maps/b_rock1.bsp", .spawnflags = 1},
    {.classname = "item_rockets", .model = "maps/b_rock0.bsp"},
    {.classname = "item_cells", .model = "maps/b_batt1.bsp", .spawnflags = 1},
    {.classname = "item_cells", .model = "maps/b_batt0.bsp"},
    {.classname = "item_key1", .model = "progs/m_s_key.mdl", .worldtype = 1},
    {.classname = "item_key1", .model = "progs/b_s_key.mdl", .worldtype = 2},
    {.classname = "item_key1", .model = "progs/w_s_key.mdl"},
    {.classname = "item_key2", .model = "progs/m_g_key.mdl", .worldtype = 1},
    {.classname = "item_key2", .model = "progs/b_g_key.mdl", .worldtype = 2},
    {.classname = "item_key2", .model = "progs/w_g_key.mdl"},
    {.classname = "item_sigil", .model = "progs/end1.mdl", .spawnflags = 1},
    {.classname = "item_sigil", .model = "progs/end2.mdl", .spawnflags = 2},
    {.classname = "item_sigil", .model = "progs/end3.mdl", .spawnflags = 4},
    {.classname = "item_sigil", .model = "progs/end4.mdl", .spawnflags = 8},
    {.classname = "item_artifact_invulnerability", .model = "progs/invulner.mdl"},
    {.classname = "item_artifact_envirosuit", .model = "progs/suit.mdl"},
    {.classname = "item_artifact_invisibility", .model = "progs/invisibl.mdl"},
    {.classname = "item_artifact_super_damage", .model = "progs/quaddama.mdl"},
    {.classname = "light_torch_small_walltorch", .model = "progs/flame.mdl", .fullbright = true},
    {.classname = "light_flame_large_yellow",
     .model = "progs/flame2.mdl",
     .frame = 1,
     .fullbright = true},
    {.classname = "light_flame_small_yellow", .model = "progs/flame2.mdl", .fullbright = true},
    {.classname = "light_flame_small_white", .model = "progs/flame2.mdl", .fullbright = true},
    {.classname = "light_globe", .model = "progs/s_light.spr", .fullbright = true},
    {.classname = "misc_explobox", .model = "maps/b_explob.bsp"},
    {.classname = "misc_explobox2", .model = "maps/b_exbox2.bsp"},
};

// Quake 3 / OpenArena, from ioquake3 code/game/bg_misc.c bg_itemlist (the classname and its
// world models, without the MISSIONPACK items): every item turns and bobs (cgame cg_ents.c
// CG_Item), weapons at 1.5 times their size about their midpoint. misc_model names its own
// file (q3map2 bakes most into the BSP; those left in the entity lump are drawn).
constexpr EntityModelRule kQuake3[] = {
    {.classname = "item_armor_shard",
     .model = "models/powerups/armor/shard.md3",
     .model2 = "models/powerups/armor/shard_sphere.md3",
     .item_motion = true},
    {.classname = "item_armor_combat",
     .model = "models/powerups/armor/armor_yel.md3",
     .item_motion = true},
    {.classname = "item_armor_body",
     .model = "models/powerups/armor/armor_red.md3",
     .item_motion = true},
    {.classname = "item_health_small",
     .model = "models/powerups/health/small_cross.md3",
     .model2 = "models/powerups/health/small_sphere.md3",
     .item_motion = true},
    {.classname = "item_health",
     .model = "models/powerups/health/medium_cross.md3",
     .model2 = "models/powerups/health/medium_sphere.md3",
     .item_motion = true},
    {.classname = "item_health_large",
     .model = "models/powerups/health/large_cross.md3",
     .model2 = "models/powerups/health/large_sphere.md3",
     .item_motion = true},
    {.classname = "item_health_mega",
     .model = "models/powerups/health/mega_cross.md3",
     .model2 = "models/powerups/health/mega_sphere.md3",
     .item_motion = true},
    {.classname = "weapon_gauntlet",
     .model = "models/weapons2/gauntlet/gauntlet.md3",
     .item_motion = true,
     .weapon = true},
    {.classname = "weapon_shotgun",
     .model = "models/weapons2/shotgun/shotgun.md3",
     .item_motion = true,
     .weapon = true},
    {.classname = "weapon_machinegun",
     .model = "models/weapons2/machinegun/machinegun.md3",
     .item_motion = true,
     .weapon = true},
    {.classname = "weapon_grenadelauncher",
     .model = "models/weapons2/grenadel/grenadel.md3",
     .item_motion = true,
     .weapon = true},
    {.classname = "weapon_rocketlauncher",
     .model = "models/weapons2/rocketl/rocketl.md3",
     .item_motion = true,
     .weapon = true},
    {.classname = "weapon_lightning",
     .model = "models/weapons2/lightning/lightning.md3",
     .item_motion = true,
     .weapon = true},
    {.classname = "weapon_railgun",
     .model = "models/weapons2/railgun/railgun.md3",
     .item_motion = true,
     .weapon = true},
    {.classname = "weapon_plasmagun",
     .model = "models/weapons2/plasma/plasma.md3",
     .item_motion = true,
     .weapon = true},
    {.classname = "weapon_bfg",
     .model = "models/weapons2/bfg/bfg.md3",
     .item_motion = true,
     .weapon = true},
    {.classname = "weapon_grapplinghook",
     .model = "models/weapons2/grapple/grapple.md3",
     .item_motion = true,
     .weapon = true},
    {.classname = "ammo_shells",
     .model = "models/powerups/ammo/shotgunam.md3",
     .item_motion = true},
    {.classname = "ammo_bullets",
     .model = "models/powerups/ammo/machinegunam.md3",
     .item_motion = true},
    {.classname = "ammo_grenades",
     .model = "models/powerups/ammo/grenadeam.md3",
     .item_motion = true},
    {.classname = "ammo_cells", .model = "models/powerups/ammo/plasmaam.md3", .item_motion = true},
    {.classname = "ammo_lightning",
     .model = "models/powerups/ammo/lightningam.md3",
     .item_motion = true},
    {.classname = "ammo_rockets",
     .model = "models/powerups/ammo/rocketam.md3",
     .item_motion = true},
    {.classname = "ammo_slugs", .model = "models/powerups/ammo/railgunam.md3", .item_motion = true},
    {.classname = "ammo_bfg", .model = "models/powerups/ammo/bfgam.md3", .item_motion = true},
    {.classname = "holdable_teleporter",
     .model = "models/powerups/holdable/teleporter.md3",
     .item_motion = true},
    {.classname = "holdable_medkit",
     .model = "models/powerups/holdable/medkit.md3",
     .model2 = "models/powerups/holdable/medkit_sphere.md3",
     .item_motion = true},
    {.classname = "item_quad",
     .model = "models/powerups/instant/quad.md3",
     .model2 = "models/powerups/instant/quad_ring.md3",
     .item_motion = true},
    {.classname = "item_enviro",
     .model = "models/powerups/instant/enviro.md3",
     .model2 = "models/powerups/instant/enviro_ring.md3",
     .item_motion = true},
    {.classname = "item_haste",
     .model = "models/powerups/instant/haste.md3",
     .model2 = "models/powerups/instant/haste_ring.md3",
     .item_motion = true},
    {.classname = "item_invis",
     .model = "models/powerups/instant/invis.md3",
     .model2 = "models/powerups/instant/invis_ring.md3",
     .item_motion = true},
    {.classname = "item_regen",
     .model = "models/powerups/instant/regen.md3",
     .model2 = "models/powerups/instant/regen_ring.md3",
     .item_motion = true},
    {.classname = "item_flight",
     .model = "models/powerups/instant/flight.md3",
     .model2 = "models/powerups/instant/flight_ring.md3",
     .item_motion = true},
    {.classname = "team_CTF_redflag", .model = "models/flags/r_flag.md3", .item_motion = true},
    {.classname = "team_CTF_blueflag", .model = "models/flags/b_flag.md3", .item_motion = true},
    {.classname = "misc_model"},
};

// cg_ents.c CG_AddPacketEntities: cg.autoAngles[YAW] = (cg.time & 2047) * 360 / 2048.0.
constexpr float kQuake3ItemSpin = 360.0f / 2.048f;
// g_items.c: ITEM_RADIUS, the half size of the box FinishSpawningItem drops to the floor.
constexpr float kQuake3ItemRadius = 15.0f;
// g_local.h MAX_CLIENTS: game entity numbers of spawned entities start after the clients.
constexpr uint32_t kQuake3MaxClients = 64;

// Quake 2's masks (header/shared.h) in CollisionContents: windows read as solid, and
// CONTENTS_MONSTER is the game's own entities, which are not traced here.
constexpr uint32_t kQuake2MaskSolid = bsp::kCollideSolid;
constexpr uint32_t kQuake2MaskMonsterSolid = bsp::kCollideSolid | bsp::kCollideMonsterClip;

// An item: dropped to the floor (g_items.c droptofloor: a box of +-15 traced from the origin
// 128 units down against MASK_SOLID; freed if it starts in solid); EF_ROTATE items turn unless
// ITEM_NO_TOUCH (spawnflags 2).
constexpr EntityModelRule q2Item(std::string_view classname, std::string_view model, bool rotates) {
    return {.classname = classname,
            .model = model,
            .rotates = rotates,
            .still_spawnflags = rotates ? 2u : 0u,
            .drop = {.distance = 128.0f,
                     .mins = glm::vec3(-15.0f),
                     .maxs = glm::vec3(15.0f),
                     .mask = kQuake2MaskSolid,
                     .removes_in_solid = true}};
}

// A flying or swimming monster (flymonster_start, swimmonster_start: left where the map puts
// it) in its stand loop, frames first..last.
constexpr EntityModelRule q2Monster(std::string_view classname, std::string_view model,
                                    int32_t first, int32_t last, int32_t skin = 0) {
    return {.classname = classname,
            .model = model,
            .skin = skin,
            .frame = first,
            .idle_frames = last - first + 1};
}

// A walking monster (walkmonster_start): its stand loop, and M_droptofloor with the box its
// spawn function sets (walkmonster_start_go: unless MONSTER_TRIGGER_SPAWN, spawnflags 2).
constexpr EntityModelRule q2Walker(std::string_view classname, std::string_view model,
                                   int32_t first, int32_t last, glm::vec3 mins, glm::vec3 maxs,
                                   int32_t skin = 0) {
    EntityModelRule r = q2Monster(classname, model, first, last, skin);
    r.drop = {.distance = 256.0f,
              .raise = 1.0f,
              .mins = mins,
              .maxs = maxs,
              .mask = kQuake2MaskMonsterSolid,
              .skip_spawnflags = 2,
              .needs_floor = true};
    return r;
}

// Quake 2, from yquake2's game code: g_items.c's item list (each item's world_model and its
// EF_ROTATE flag; ITEM_NO_TOUCH, spawnflags 2, clears the rotation in droptofloor), the health
// spawn functions (SP_item_health, _small, _large, _mega), every item dropped to the floor by
// droptofloor, and the monsters' spawn functions under game/monster/ (gi.modelindex of
// models/monsters/*/tris.md2; soldier.c gives the light, plain and SS soldiers skins 0, 2 and
// 4, tank.c the commander skin 2; boss31.c draws jorg with makron's rider as modelindex2, on
// the same frame; boss32.c makron's rider; g_misc.c SP_monster_commander_body). The blaster has
// no world model.
//
// Monsters stand in the mmove_t their stand function picks (xxx_stand: currentmove =
// &xxx_move_stand, as monster_start_go calls it for a monster with no target), one frame per
// 0.1 s (M_MoveFrame, FRAMETIME); the numbers are the monster's frame header's (soldier.h
// FRAME_stand101 = 146). Left out: the random start frame monster_start picks in the loop
// (every loop starts at its first frame at time 0), the fidgets and idles ai_stand may start
// at random (the stand frames' berserk_fidget, gunner_fidget, chick_fidget; monsterinfo.idle
// infantry_fidget, parasite_idle, brain_idle, mutant_idle), soldier_stand's
// soldier_move_stand3 (picked one time in five: stand1 here), floater_stand's even choice of
// floater_move_stand2 (stand1 here), and monsters that walk to a path_corner target. commander_body
// is no monster (frame 0 until used; it falls under MOVETYPE_TOSS after 0.5 s, commander_body_drop,
// which is not followed). makron spawns in makron_move_sight and stands 0.1 s later
// (walkmonster_start_go -> makron_stand).
constexpr EntityModelRule kQuake2[] = {
    q2Item("item_armor_body", "models/items/armor/body/tris.md2", true),
    q2Item("item_armor_combat", "models/items/armor/combat/tris.md2", true),
    q2Item("item_armor_jacket", "models/items/armor/jacket/tris.md2", true),
    q2Item("item_armor_shard", "models/items/armor/shard/tris.md2", true),
    q2Item("item_power_screen", "models/items/armor/screen/tris.md2", true),
    q2Item("item_power_shield", "models/items/armor/shield/tris.md2", true),
    q2Item("weapon_shotgun", "models/weapons/g_shotg/tris.md2", true),
    q2Item("weapon_supershotgun", "models/weapons/g_shotg2/tris.md2", true),
    q2Item("weapon_machinegun", "models/weapons/g_machn/tris.md2", true),
    q2Item("weapon_chaingun", "models/weapons/g_chain/tris.md2", true),
    q2Item("ammo_grenades", "models/items/ammo/grenades/medium/tris.md2", false),
    q2Item("weapon_grenadelauncher", "models/weapons/g_launch/tris.md2", true),
    q2Item("weapon_rocketlauncher", "models/weapons/g_rocket/tris.md2", true),
    q2Item("weapon_hyperblaster", "models/weapons/g_hyperb/tris.md2", true),
    q2Item("weapon_railgun", "models/weapons/g_rail/tris.md2", true),
    q2Item("weapon_bfg", "models/weapons/g_bfg/tris.md2", true),
    q2Item("ammo_shells", "models/items/ammo/shells/medium/tris.md2", false),
    q2Item("ammo_bullets", "models/items/ammo/bullets/medium/tris.md2", false),
    q2Item("ammo_cells", "models/items/ammo/cells/medium/tris.md2", false),
    q2Item("ammo_rockets", "models/items/ammo/rockets/medium/tris.md2", false),
    q2Item("ammo_slugs", "models/items/ammo/slugs/medium/tris.md2", false),
    q2Item("item_quad", "models/items/quaddama/tris.md2", true),
    q2Item("item_invulnerability", "models/items/invulner/tris.md2", true),
    q2Item("item_silencer", "models/items/silencer/tris.md2", true),
    q2Item("item_breather", "models/items/breather/tris.md2", true),
    q2Item("item_enviro", "models/items/enviro/tris.md2", true),
    q2Item("item_ancient_head", "models/items/c_head/tris.md2", true),
    q2Item("item_adrenaline", "models/items/adrenal/tris.md2", true),
    q2Item("item_bandolier", "models/items/band/tris.md2", true),
    q2Item("item_pack", "models/items/pack/tris.md2", true),
    q2Item("key_data_cd", "models/items/keys/data_cd/tris.md2", true),
    q2Item("key_power_cube", "models/items/keys/power/tris.md2", true),
    q2Item("key_pyramid", "models/items/keys/pyramid/tris.md2", true),
    q2Item("key_data_spinner", "models/items/keys/spinner/tris.md2", true),
    q2Item("key_pass", "models/items/keys/pass/tris.md2", true),
    q2Item("key_blue_key", "models/items/keys/key/tris.md2", true),
    q2Item("key_red_key", "models/items/keys/red_key/tris.md2", true),
    q2Item("key_commander_head", "models/monsters/commandr/head/tris.md2", false),
    q2Item("key_airstrike_target", "models/items/keys/target/tris.md2", true),
    q2Item("item_health", "models/items/healing/medium/tris.md2", false),
    q2Item("item_health_small", "models/items/healing/stimpack/tris.md2", false),
    q2Item("item_health_large", "models/items/healing/large/tris.md2", false),
    q2Item("item_health_mega", "models/items/mega_h/tris.md2", false),
    // berserker.c berserk_move_stand, FRAME_stand1..stand5
    q2Walker("monster_berserk", "models/monsters/berserk/tris.md2", 0, 4, {-16, -16, -24},
             {16, 16, 32}),
    // gladiator.c gladiator_move_stand, FRAME_stand1..stand7
    q2Walker("monster_gladiator", "models/monsters/gladiatr/tris.md2", 0, 6, {-32, -32, -24},
             {32, 32, 64}),
    // gunner.c gunner_move_stand, FRAME_stand01..stand30
    q2Walker("monster_gunner", "models/monsters/gunner/tris.md2", 0, 29, {-16, -16, -24},
             {16, 16, 32}),
    // infantry.c infantry_move_stand, FRAME_stand50..stand71
    q2Walker("monster_infantry", "models/monsters/infantry/tris.md2", 50, 71, {-16, -16, -24},
             {16, 16, 32}),
    // soldier.c soldier_move_stand1, FRAME_stand101..stand130
    q2Walker("monster_soldier_light", "models/monsters/soldier/tris.md2", 146, 175, {-16, -16, -24},
             {16, 16, 32}),
    q2Walker("monster_soldier", "models/monsters/soldier/tris.md2", 146, 175, {-16, -16, -24},
             {16, 16, 32}, 2),
    q2Walker("monster_soldier_ss", "models/monsters/soldier/tris.md2", 146, 175, {-16, -16, -24},
             {16, 16, 32}, 4),
    // tank.c tank_move_stand, FRAME_stand01..stand30
    q2Walker("monster_tank", "models/monsters/tank/tris.md2", 0, 29, {-32, -32, -16}, {32, 32, 72}),
    q2Walker("monster_tank_commander", "models/monsters/tank/tris.md2", 0, 29, {-32, -32, -16},
             {32, 32, 72}, 2),
    // medic.c medic_move_stand, FRAME_wait1..wait90
    q2Walker("monster_medic", "models/monsters/medic/tris.md2", 12, 101, {-24, -24, -24},
             {24, 24, 32}),
    // flipper.c flipper_move_stand, FRAME_flphor01 alone (swimmonster_start)
    q2Monster("monster_flipper", "models/monsters/flipper/tris.md2", 41, 41),
    // chick.c chick_move_stand, FRAME_stand101..stand130
    q2Walker("monster_chick", "models/monsters/bitch/tris.md2", 121, 150, {-16, -16, 0},
             {16, 16, 56}),
    // parasite.c parasite_move_stand, FRAME_stand01..stand17
    q2Walker("monster_parasite", "models/monsters/parasite/tris.md2", 83, 99, {-16, -16, -24},
             {16, 16, 24}),
    // flyer.c flyer_move_stand, FRAME_stand01..stand45 (flymonster_start)
    q2Monster("monster_flyer", "models/monsters/flyer/tris.md2", 13, 57),
    // brain.c brain_move_stand, FRAME_stand01..stand30
    q2Walker("monster_brain", "models/monsters/brain/tris.md2", 162, 191, {-16, -16, -24},
             {16, 16, 32}),
    // float.c floater_move_stand1, FRAME_stand101..stand152 (flymonster_start)
    q2Monster("monster_floater", "models/monsters/float/tris.md2", 144, 195),
    // hover.c hover_move_stand, FRAME_stand01..stand30 (flymonster_start)
    q2Monster("monster_hover", "models/monsters/hover/tris.md2", 0, 29),
    // mutant.c mutant_move_stand, FRAME_stand101..stand151
    q2Walker("monster_mutant", "models/monsters/mutant/tris.md2", 62, 112, {-32, -32, -24},
             {32, 32, 48}),
    // supertank.c supertank_move_stand, FRAME_stand_1..stand_60
    q2Walker("monster_supertank", "models/monsters/boss1/tris.md2", 194, 253, {-64, -64, 0},
             {64, 64, 112}),
    // boss2.c boss2_move_stand, FRAME_stand30..stand50 (flymonster_start)
    q2Monster("monster_boss2", "models/monsters/boss2/tris.md2", 0, 20),
    // boss31.c jorg_move_stand, FRAME_stand01..stand51; the rider rides on the same frames
    [] {
        EntityModelRule r = q2Walker("monster_jorg", "models/monsters/boss3/jorg/tris.md2", 112,
                                     162, {-80, -80, 0}, {80, 80, 140});
        r.model2 = "models/monsters/boss3/rider/tris.md2";
        return r;
    }(),
    // boss32.c makron_move_stand, FRAME_stand201..stand260
    q2Walker("monster_makron", "models/monsters/boss3/rider/tris.md2", 414, 473, {-30, -30, 0},
             {30, 30, 90}),
    {.classname = "monster_commander_body", .model = "models/monsters/commandr/tris.md2"},
};

// Half-Life, from the HLSDK's dlls (ValveSoftware/halflife): the pickups' Spawn functions set a
// fixed world model (items.cpp CItemSuit / CItemBattery / CItemAntidote / CItemSecurity /
// CItemLongJump, healthkit.cpp, airtank.cpp, effects.cpp CItemSoda; the weapons' Spawn in
// crowbar.cpp, glock.cpp, python.cpp, mp5.cpp, shotgun.cpp, crossbow.cpp, rpg.cpp, gauss.cpp,
// egon.cpp, hornetgun.cpp, handgrenade.cpp, satchel.cpp, tripmine.cpp (v_tripmine.mdl, body 3),
// squeakgrenade.cpp; their ammo classes likewise). Every other point entity whose "model" key
// names a .mdl or .spr (cycler, cycler_sprite, env_sprite, env_glow, monster_generic,
// monster_furniture, monsters given a model) shows that file (SET_MODEL(pev->model)): see
// halfLifeModelKey.
constexpr EntityModelRule kHalfLife[] = {
    {.classname = "item_suit", .model = "models/w_suit.mdl"},
    {.classname = "item_battery", .model = "models/w_battery.mdl"},
    {.classname = "item_antidote", .model = "models/w_antidote.mdl"},
    {.classname = "item_security", .model = "models/w_security.mdl"},
    {.classname = "item_longjump", .model = "models/w_longjump.mdl"},
    {.classname = "item_healthkit", .model = "models/w_medkit.mdl"},
    {.classname = "item_airtank", .model = "models/w_oxygen.mdl"},
    {.classname = "item_sodacan", .model = "models/can.mdl"},
    {.classname = "weapon_crowbar", .model = "models/w_crowbar.mdl"},
    {.classname = "weapon_9mmhandgun", .model = "models/w_9mmhandgun.mdl"},
    {.classname = "weapon_glock", .model = "models/w_9mmhandgun.mdl"},
    {.classname = "weapon_357", .model = "models/w_357.mdl"},
    {.classname = "weapon_python", .model = "models/w_357.mdl"},
    {.classname = "weapon_9mmAR", .model = "models/w_9mmAR.mdl"},
    {.classname = "weapon_mp5", .model = "models/w_9mmAR.mdl"},
    {.classname = "weapon_shotgun", .model = "models/w_shotgun.mdl"},
    {.classname = "weapon_crossbow", .model = "models/w_crossbow.mdl"},
    {.classname = "weapon_rpg", .model = "models/w_rpg.mdl"},
    {.classname = "weapon_gauss", .model = "models/w_gauss.mdl"},
    {.classname = "weapon_egon", .model = "models/w_egon.mdl"},
    {.classname = "weapon_hornetgun", .model = "models/w_hgun.mdl"},
    {.classname = "weapon_handgrenade", .model = "models/w_grenade.mdl"},
    {.classname = "weapon_satchel", .model = "models/w_satchel.mdl"},
    {.classname = "weapon_tripmine", .model = "models/v_tripmine.mdl"},
    {.classname = "weapon_snark", .model = "models/w_sqknest.mdl"},
    {.classname = "ammo_9mmclip", .model = "models/w_9mmclip.mdl"},
    {.classname = "ammo_glockclip", .model = "models/w_9mmclip.mdl"},
    {.classname = "ammo_9mmAR", .model = "models/w_9mmARclip.mdl"},
    {.classname = "ammo_mp5clip", .model = "models/w_9mmARclip.mdl"},
    {.classname = "ammo_9mmbox", .model = "models/w_chainammo.mdl"},
    {.classname = "ammo_ARgrenades", .model = "models/w_ARgrenade.mdl"},
    {.classname = "ammo_mp5grenades", .model = "models/w_ARgrenade.mdl"},
    {.classname = "ammo_buckshot", .model = "models/w_shotbox.mdl"},
    {.classname = "ammo_357", .model = "models/w_357ammobox.mdl"},
    {.classname = "ammo_crossbow", .model = "models/w_crossbow_clip.mdl"},
    {.classname = "ammo_rpgclip", .model = "models/w_rpgammo.mdl"},
    {.classname = "ammo_gaussclip", .model = "models/w_gaussammo.mdl"},
    {.classname = "ammo_egonclip", .model = "models/w_chainammo.mdl"},
};

int32_t intKey(const bsp::Entity& e, std::string_view key, int32_t fallback) {
    const std::string_view v = e.get(key);
    float f = 0;
    if (v.empty() || std::from_chars(v.data(), v.data() + v.size(), f).ec != std::errc() ||
        !std::isfinite(f) || std::fabs(f) > 1e9f)
        return fallback;
    return int32_t(f);
}

bool hasSuffix(std::string_view s, std::string_view suffix) {
    if (s.size() < suffix.size())
        return false;
    for (size_t i = 0; i < suffix.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(s[s.size() - suffix.size() + i])) != suffix[i])
            return false;
    return true;
}

// A surface's look: the first stage of its shader that names an image (its other stages,
// tcGen environment and tcMods are not drawn), additive when that stage blends GL_ONE onto the
// framebuffer; without a script the name itself is the image (ioquake3 tr_shader.c
// FinishShader's implicit shader).
content::ModelImage surfaceImage(const content::FileSystem& fs,
                                 const content::ShaderLibrary* shaders, std::string_view shader,
                                 bool* additive, std::vector<std::string>& warnings) {
    std::string image_name(shader);
    *additive = false;
    if (const content::ShaderDef* def = shaders ? shaders->find(shader) : nullptr) {
        for (const content::ShaderStage& st : def->stages) {
            const bool has_image = st.map == content::MapKind::Texture ||
                                   st.map == content::MapKind::Clamp ||
                                   st.map == content::MapKind::Animated;
            if (!has_image || st.images.empty())
                continue;
            image_name = st.images[0];
            *additive = st.blend && st.dst == content::BlendFactor::One;
            break;
        }
    }
    content::TextureInfo info = content::loadImageTexture(fs, image_name);
    if (info.missing)
        warnings.push_back("shader '" + std::string(shader) + "' not found (missing texture)");
    content::ModelImage img;
    img.width = info.image.width;
    img.height = info.image.height;
    img.rgba = std::move(info.image.rgba);
    // model.frag.glsl reads alpha 0 as fullbright: Quake 3 skins carry no such mask.
    for (size_t i = 3; i < img.rgba.size(); i += 4)
        img.rgba[i] = 255;
    return img;
}

// The .skin a misc_model names, or nullopt (the model's own shaders) when there is none, it is
// missing or broken (q3map2 InsertModel keeps the model's shaders when the file does not load;
// a broken one is bspview's error, warned), or it names no surface (the engine's default skin).
std::optional<content::Skin> loadSkin(const content::FileSystem& fs, std::string_view path,
                                      std::vector<std::string>& warnings) {
    if (path.empty())
        return std::nullopt;
    auto bytes = fs.readChecked(path);
    if (!bytes) {
        warnings.push_back("skin " + std::string(path) + " not found: the model's own shaders");
        return std::nullopt;
    }
    const std::string_view text(reinterpret_cast<const char*>(bytes->data()), bytes->size());
    auto skin = content::parseSkin(text, path);
    if (!skin) {
        warnings.push_back(skin.error().message() + ": the model's own shaders");
        return std::nullopt;
    }
    for (const std::string& w : skin->warnings)
        warnings.push_back(std::string(path) + ": " + w);
    if (skin->surfaces.empty()) {
        warnings.push_back("skin " + std::string(path) + " names no surface: the model's own " +
                           "shaders");
        return std::nullopt;
    }
    return std::move(*skin);
}

// The models a path stands for: one, or one per surface of an .md3.
struct PathModels {
    uint32_t first = 0;
    uint32_t count = 0;
    glm::vec3 midpoint{0.0f};   // of an .md3's frame 0 bounds (cg_weapons.c CG_RegisterWeapon)
    std::vector<bool> additive; // per model
};

// With a skin (a misc_model's, q3map2 model.c InsertModel), a surface takes the shader the skin
// names for it, and a surface the skin does not name is left out, as q3map2 leaves it out of
// the compile.
PathModels loadMd3(const content::FileSystem& fs, const content::ShaderLibrary* shaders,
                   std::string_view path, std::span<const uint8_t> bytes,
                   std::vector<LoadedModel>& models, const content::Skin* skin = nullptr) {
    PathModels pm;
    pm.first = uint32_t(models.size());
    auto md3 = content::decodeMd3(bytes);
    if (!md3 || md3->surfaces.empty()) {
        LoadedModel m;
        m.path = std::string(path);
        m.error = md3 ? "no surfaces" : md3.error().message();
        models.push_back(std::move(m));
        pm.count = 1;
        pm.additive.push_back(false);
        return pm;
    }
    const content::Md3Frame& f0 = md3->frames[0];
    for (int k = 0; k < 3; ++k)
        pm.midpoint[k] = f0.mins[size_t(k)] + 0.5f * (f0.maxs[size_t(k)] - f0.mins[size_t(k)]);
    for (content::Md3Surface& s : md3->surfaces) {
        LoadedModel m;
        m.path = std::string(path) + "#" + s.name;
        std::string_view shader = s.shaders.empty() ? std::string_view(s.name) : s.shaders[0];
        if (skin) {
            const content::SkinSurface* named = content::findSkinSurface(*skin, s.name);
            if (!named)
                continue;
            shader = named->shader;
            m.skin = skin->file;
        }
        bool additive = false;
        s.mesh.images.push_back(surfaceImage(fs, shaders, shader, &additive, m.warnings));
        s.mesh.skins.push_back({});
        m.mesh = std::move(s.mesh);
        models.push_back(std::move(m));
        pm.additive.push_back(additive);
    }
    if (models.size() == pm.first) {
        LoadedModel m;
        m.path = std::string(path);
        m.skin = skin ? skin->file : std::string();
        m.error = "skin " + m.skin + " names none of its surfaces";
        models.push_back(std::move(m));
        pm.additive.push_back(false);
    }
    pm.count = uint32_t(models.size()) - pm.first;
    return pm;
}

// Half-Life entity keys that change a studio model's mesh: "body" (the body group choice),
// "sequence" (the one played; one outside the model's plays the first, as Xash3D gl_studio.c
// R_StudioComputeBBox resets it) and the bone controllers' bytes.
struct StudioChoice {
    int32_t body = 0;
    std::vector<uint32_t> parts; // the model `body` picks in each part (studioBodyModels)
    int32_t sequence = 0;
    content::StudioControllerSettings controllers{};
};

// The Half-Life entity keys a studio mesh depends on, as the entity's class leaves them.
struct HalfLifeStudioKeys {
    int32_t body = 0;
    int32_t sequence = 0;
    bool init_controllers = false; // the class's Spawn calls InitBoneControllers
    int32_t controller = 0;        // the "controller" key (entvars_t controller[4] as an int)
};

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

HalfLifeStudioKeys halfLifeStudioKeys(const bsp::Entity& e) {
    HalfLifeStudioKeys k;
    k.body = intKey(e, "body", 0);
    k.sequence = intKey(e, "sequence", 0);
    k.init_controllers =
        std::find(std::begin(kInitControllerClasses), std::end(kInitControllerClasses),
                  e.classname()) != std::end(kInitControllerClasses);
    k.controller = intKey(e, "controller", 0);
    return k;
}

// What the keys choose in `model`: a sequence it lacks plays the first; the controllers as
// InitBoneControllers leaves them, or the key's four bytes (util.cpp EntvarsKeyvalue stores
// the integer over controller[0..3], little-endian as the game's targets are).
StudioChoice studioChoice(const content::StudioModel& model, const HalfLifeStudioKeys& keys) {
    StudioChoice c;
    c.body = keys.body;
    c.parts = content::studioBodyModels(model, keys.body);
    c.sequence =
        keys.sequence > 0 && uint32_t(keys.sequence) < model.sequences.size() ? keys.sequence : 0;
    if (keys.init_controllers) {
        c.controllers = content::studioInitControllers(model);
    } else {
        const uint32_t v = uint32_t(keys.controller);
        for (size_t i = 0; i < 4; ++i)
            c.controllers[i] = uint8_t(v >> (8 * i));
    }
    return c;
}

// A studio model file parsed once for every entity showing it: the model with its textures
// (from the "T" file when it keeps none: an error when missing, as the engine refuses such a
// model in Mod_LoadStudioModel), and its bytes, which hold group 0's animation.
struct StudioFile {
    bool studio = false; // the file is there and starts "IDST" (a Quake .mdl goes to loadModel)
    std::optional<content::StudioModel> model;
    std::vector<uint8_t> bytes;
    std::string error; // why `model` is absent
};

StudioFile loadStudioFile(const content::FileSystem& fs, std::string_view path) {
    StudioFile f;
    auto bytes = fs.readChecked(path);
    if (!bytes)
        return f; // loadModel says why
    f.studio = bytes->size() >= 4 && std::equal(bytes->begin(), bytes->begin() + 4, "IDST");
    if (!f.studio)
        return f;
    f.bytes = std::move(*bytes);
    auto model = content::parseStudio(f.bytes);
    if (!model) {
        f.error = model.error().message();
        return f;
    }
    if (model->textures.empty()) {
        const std::string t_path = content::studioTextureFilePath(path);
        auto t = fs.readChecked(t_path);
        if (!t) {
            f.error =
                core::makeError(core::ErrorCode::NotFound, t_path, -1, {}, "the model's textures")
                    .message();
            return f;
        }
        if (auto s = content::loadStudioTextures(*model, *t); !s) {
            f.error = s.error().message();
            return f;
        }
    }
    f.model = std::move(*model);
    return f;
}

// The mesh one choice makes of a parsed studio model: the played sequence's animation (from
// its sequence group's file when g > 0; missing: the rest pose, as the engine would show it
// unanimated), the body group and the bone controllers. Decodes into file.model's frames.
core::Result<content::ModelMesh> buildStudio(const content::FileSystem& fs, std::string_view path,
                                             StudioFile& file, const StudioChoice& choice) {
    content::StudioModel& model = *file.model;
    model.frames.clear();
    model.frames_sequence = 0;
    if (!model.sequences.empty()) {
        const uint32_t seq = uint32_t(choice.sequence);
        const uint32_t group = model.sequences[seq].group;
        if (group == 0) {
            if (auto s = content::decodeStudioAnimation(model, seq, file.bytes); !s)
                return s.error();
        } else if (auto g = fs.readChecked(content::studioSequenceGroupPath(path, group))) {
            if (auto s = content::decodeStudioAnimation(model, seq, *g); !s)
                return s.error();
        }
    }
    return content::buildStudioMesh(model, choice.body, choice.controllers);
}

// `path` is the file (a studio model's come through buildStudio instead). `unlit`: the map's
// rule for faces without light data, which its brush models follow.
LoadedModel loadModel(const content::FileSystem& fs, std::string_view path, bsp::UnlitFaces unlit) {
    LoadedModel m;
    m.path = std::string(path);
    auto bytes = fs.readChecked(path);
    if (!bytes) {
        m.error =
            bytes.error().code == core::ErrorCode::NotFound ? "not found" : bytes.error().message();
        return m;
    }
    if (hasSuffix(path, ".bsp")) {
        auto brush = loadBrushModel(*bytes, path, fs, unlit);
        if (brush)
            m.brush = std::make_shared<const BrushModel>(std::move(*brush));
        else
            m.error = brush.error().message();
    } else if (hasSuffix(path, ".md2")) {
        auto md2 = content::decodeMd2(*bytes);
        if (!md2) {
            m.error = md2.error().message();
            return m;
        }
        content::attachPcxSkins(*md2, fs, m.warnings);
        m.mesh = std::move(md2->mesh);
    } else if (hasSuffix(path, ".sp2")) {
        auto frames = content::parseSp2(*bytes);
        if (frames)
            m.sprite = content::buildSp2Sprite(*frames, fs, m.warnings);
        else
            m.error = frames.error().message();
    } else if (hasSuffix(path, ".spr")) {
        auto s = content::decodeSprite(*bytes, content::defaultQuakePalette());
        if (s)
            m.sprite = std::move(*s);
        else
            m.error = s.error().message();
    } else {
        auto mesh = content::decodeMdl(*bytes, content::defaultQuakePalette());
        if (mesh)
            m.mesh = std::move(*mesh);
        else
            m.error = mesh.error().message();
    }
    return m;
}

// The style-0 luxel (0..255) of the first surface straight down from `from` within `length`;
// black when nothing lit is met.
glm::vec3 luxelDown(const bsp::Map& map, const LightmapSet& set, const WorldMesh& mesh,
                    const std::vector<FaceBounds>& bounds, const glm::vec3& from, float length) {
    const auto hit = rayCast(map, mesh, from, glm::vec3(0, 0, -1), length, &bounds);
    if (!hit)
        return glm::vec3(0.0f);
    const auto luxel = luxelAt(map, set, hit->face, hit->lm_uv);
    return luxel ? glm::vec3(luxel->rgb[0], luxel->rgb[1], luxel->rgb[2]) : glm::vec3(0.0f);
}

// R_LightPoint: the style-0 luxel of the first lit surface straight below `p`, / 200 as
// R_SetupAliasLighting scales it (its sum capped at 288 first, as with overbright models).
glm::vec3 lightBelow(const bsp::Map& map, const LightmapSet& set, const WorldMesh& mesh,
                     const std::vector<FaceBounds>& bounds, const glm::vec3& p) {
    if (set.pages.empty())
        return glm::vec3(255.0f / 200.0f); // a map without light data: everything full bright
    // From a unit above: items stand with their origin on the floor (QuakeC droptofloor), where
    // the engine's plane walk still finds the floor but a ray from the plane itself may not.
    glm::vec3 c = luxelDown(map, set, mesh, bounds, p + glm::vec3(0, 0, 1), 8193.0f);
    const float sum = c.r + c.g + c.b;
    if (sum > 288.0f)
        c *= 288.0f / sum;
    return c / 200.0f;
}

// R_LightVec's colour (0..255) of the first lit surface straight below `p` (from 8 units above
// it, 2048 down: R_StudioDynamicLight); a map without light data is lit at 255, a miss is dark.
glm::vec3 luxelBelow(const bsp::Map& map, const LightmapSet& set, const WorldMesh& mesh,
                     const std::vector<FaceBounds>& bounds, const glm::vec3& p) {
    if (set.pages.empty())
        return glm::vec3(255.0f);
    return luxelDown(map, set, mesh, bounds, p + glm::vec3(0, 0, 8), 2048.0f);
}

// R_StudioDynamicLight's samples for a studio model at `p`: the light below and, for its lean,
// the brightness below four points 16 units off (scene::studioModelLight has the rule).
StudioLight studioLight(const bsp::Map& map, const LightmapSet& set, const WorldMesh& mesh,
                        const std::vector<FaceBounds>& bounds, const glm::vec3& p) {
    constexpr std::array<glm::vec2, 4> kOffsets = {glm::vec2(-16, -16), glm::vec2(16, -16),
                                                   glm::vec2(16, 16), glm::vec2(-16, 16)};
    std::array<float, 4> gradient{};
    for (size_t k = 0; k < 4; ++k) {
        const glm::vec3 c =
            luxelBelow(map, set, mesh, bounds, p + glm::vec3(kOffsets[k].x, kOffsets[k].y, 0));
        gradient[k] = (c.r + c.g + c.b) / 768.0f;
    }
    return studioModelLight(luxelBelow(map, set, mesh, bounds, p), gradient);
}

// Where a drop to the floor leaves an entity (FloorDrop): nullopt when the game frees it for
// starting in solid (g_items.c droptofloor). M_droptofloor keeps the raised origin when the
// trace meets no floor or is all in solid, and otherwise takes the trace's end even when the box
// started in solid (walkmonster_start_go then prints "in solid" and keeps the monster).
std::optional<glm::vec3> dropToFloor(const CollisionWorld& world, const FloorDrop& drop,
                                     const glm::vec3& origin) {
    const glm::vec3 start = origin + glm::vec3(0, 0, drop.raise);
    const TraceResult tr =
        world.trace(start, start - glm::vec3(0, 0, drop.distance), drop.mins, drop.maxs, drop.mask);
    if (tr.start_solid && drop.removes_in_solid)
        return std::nullopt;
    if (drop.needs_floor && (tr.fraction == 1.0f || tr.all_solid))
        return start;
    return tr.end_pos;
}

// g_utils.c vtos: "(x y z)", each truncated to an integer.
std::string vtos(const glm::vec3& v) {
    char text[96];
    // + 0.0: -0.5 truncates to -0, which the game's int prints as 0.
    std::snprintf(text, sizeof text, "(%.0f %.0f %.0f)", std::trunc(double(v.x)) + 0.0,
                  std::trunc(double(v.y)) + 0.0, std::trunc(double(v.z)) + 0.0);
    return text;
}

// The box at `origin` overlaps something in `mask`.
bool boxInSolid(const CollisionWorld& world, const FloorDrop& drop, const glm::vec3& origin) {
    return world.trace(origin, origin, drop.mins, drop.maxs, drop.mask).start_solid;
}

float modelRadius(const LoadedModel& m) {
    float r = 0;
    if (m.mesh)
        for (int i = 0; i < 8; ++i) {
            const glm::vec3 c((i & 1) ? m.mesh->maxs[0] : m.mesh->mins[0],
                              (i & 2) ? m.mesh->maxs[1] : m.mesh->mins[1],
                              (i & 4) ? m.mesh->maxs[2] : m.mesh->mins[2]);
            r = std::max(r, glm::length(c));
        }
    if (m.sprite)
        for (const content::SpritePicture& p : m.sprite->pictures) {
            const float x = float(std::max(std::abs(p.origin_x), std::abs(p.origin_x + p.width)));
            const float y = float(std::max(std::abs(p.origin_y), std::abs(p.origin_y - p.height)));
            r = std::max(r, std::sqrt(x * x + y * y));
        }
    if (m.brush)
        for (int i = 0; i < 8; ++i)
            r = std::max(r, glm::length(glm::vec3((i & 1) ? m.brush->maxs.x : m.brush->mins.x,
                                                  (i & 2) ? m.brush->maxs.y : m.brush->mins.y,
                                                  (i & 4) ? m.brush->maxs.z : m.brush->mins.z)));
    return std::isfinite(r) ? r : 0.0f;
}

// Half-Life's SET_MODEL(pev->model): a point entity's "model" key naming a .mdl or .spr file
// (brush entities name "*N"); empty otherwise.
std::string_view halfLifeModelKey(const bsp::Entity& e) {
    const std::string_view m = e.get("model");
    return hasSuffix(m, ".mdl") || hasSuffix(m, ".spr") ? m : std::string_view{};
}

float floatKey(const bsp::Entity& e, std::string_view key, float fallback) {
    const auto v = e.number(key);
    return v && std::isfinite(*v) ? *v : fallback;
}

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

// The keys the Half-Life engine reads from every entity (render mode, scale) and those the
// sprite entities read (framerate: effects.cpp CSprite::TurnOn / CGlow::Spawn and h_cycler.cpp
// CCyclerSprite::Think step their frames at pev->framerate; CSprite::Spawn turns a yaw-only
// "angles" into roll, since Worldcraft sets only yaw).
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

} // namespace

ModelRenderMode halfLifeRenderMode(const bsp::Entity& e) {
    ModelRenderMode r;
    const int32_t mode = intKey(e, "rendermode", 0);
    const float amount = std::clamp(floatKey(e, "renderamt", 0.0f), 0.0f, 255.0f) / 255.0f;
    switch (mode) {
    case 1: // kRenderTransColor
    case 2: // kRenderTransTexture
        r.blend = ModelBlend::Alpha;
        break;
    case 3: // kRenderGlow: added, seen through walls
        r.blend = ModelBlend::Additive;
        r.depth_test = false;
        break;
    case 4: // kRenderTransAlpha
        r.blend = ModelBlend::Alpha;
        r.alpha_test = true;
        break;
    case 5: // kRenderTransAdd
        r.blend = ModelBlend::Additive;
        break;
    default:
        return r;
    }
    r.alpha = amount;
    if (auto c = e.vec3("rendercolor"); c && (c->r > 0 || c->g > 0 || c->b > 0))
        r.tint = glm::clamp(*c / 255.0f, glm::vec3(0.0f), glm::vec3(1.0f));
    return r;
}

std::span<const EntityModelRule> entityModelRules(bsp::EntityModelTable table) {
    switch (table) {
    case bsp::EntityModelTable::Quake1:
        return kQuake1;
    case bsp::EntityModelTable::Quake2:
        return kQuake2;
    case bsp::EntityModelTable::Quake3:
        return kQuake3;
    case bsp::EntityModelTable::HalfLife:
        return kHalfLife;
    case bsp::EntityModelTable::None:
        break;
    }
    return {};
}

const EntityModelRule* findEntityModelRule(std::span<const EntityModelRule> rules,
                                           const bsp::Entity& entity, int32_t worldtype) {
    const std::string_view classname = entity.classname();
    if (classname.empty())
        return nullptr;
    const uint32_t spawnflags = uint32_t(intKey(entity, "spawnflags", 0));
    for (const EntityModelRule& r : rules) {
        if (r.classname != classname)
            continue;
        if (r.spawnflags != 0 && (spawnflags & r.spawnflags) == 0)
            continue;
        if (r.worldtype >= 0 && r.worldtype != worldtype)
            continue;
        return &r;
    }
    return nullptr;
}

EntityModelSet loadEntityModels(const bsp::Map& map, const content::FileSystem& fs,
                                const LightmapSet& lightmaps, const WorldMesh& mesh,
                                const content::ShaderLibrary* shaders) {
    EntityModelSet set;
    const auto rules = entityModelRules(map.entity_models);
    if (rules.empty())
        return set;
    int32_t worldtype = 0;
    for (const bsp::Entity& e : map.entities)
        if (e.classname() == "worldspawn")
            worldtype = intKey(e, "worldtype", 0);
    const bool half_life = map.entity_models == bsp::EntityModelTable::HalfLife;
    std::map<std::string, PathModels, std::less<>> by_path;
    std::vector<FaceBounds> bounds;
    std::optional<CollisionWorld> collision; // built for the first row that drops to the floor
    // Studio model files by path, parsed once (with their textures) for every mesh made of them.
    std::map<std::string, StudioFile, std::less<>> studio_files;
    auto modelsOf = [&](std::string_view path, const HalfLifeStudioKeys& keys = {},
                        std::string_view skin_path = {}) -> const PathModels& {
        StudioFile* studio = nullptr;
        StudioChoice choice;
        std::string name(path);
        if (hasSuffix(path, ".mdl")) {
            auto sf = studio_files.find(path);
            if (sf == studio_files.end())
                sf = studio_files.emplace(std::string(path), loadStudioFile(fs, path)).first;
            // A Quake .mdl ("IDPO") or a missing file goes to loadModel, which reads it again.
            if (sf->second.studio) {
                studio = &sf->second;
                if (studio->model)
                    choice = studioChoice(*studio->model, keys);
                // Each choice of the parts' models, sequence and controller setting makes a
                // mesh of its own (bodies choosing the same models share it).
                const bool parts = std::any_of(choice.parts.begin(), choice.parts.end(),
                                               [](uint32_t m) { return m != 0; });
                if (parts || choice.sequence != 0) {
                    name += "#body";
                    for (size_t p = 0; p < choice.parts.size(); ++p)
                        name += (p == 0 ? " " : ".") + std::to_string(choice.parts[p]);
                    name += " sequence " + std::to_string(choice.sequence);
                }
                if (choice.controllers != content::StudioControllerSettings{}) {
                    name += "#controllers";
                    for (uint8_t c : choice.controllers)
                        name += " " + std::to_string(c);
                }
            }
        }
        // An md3's skin makes a mesh of its own.
        if (!skin_path.empty())
            name += "#skin " + std::string(skin_path);
        auto it = by_path.find(name);
        if (it != by_path.end())
            return it->second;
        PathModels pm;
        std::optional<core::Result<std::vector<uint8_t>>> bytes;
        if (hasSuffix(path, ".md3"))
            bytes.emplace(fs.readChecked(path));
        if (bytes && bytes->ok()) {
            std::vector<std::string> skin_warnings;
            const std::optional<content::Skin> skin = loadSkin(fs, skin_path, skin_warnings);
            pm = loadMd3(fs, shaders, path, **bytes, set.models, skin ? &*skin : nullptr);
            for (uint32_t k = 0; k < pm.count; ++k) {
                std::vector<std::string>& w = set.models[pm.first + k].warnings;
                w.insert(w.begin(), skin_warnings.begin(), skin_warnings.end());
            }
        } else {
            pm.first = uint32_t(set.models.size());
            pm.count = 1;
            pm.additive.push_back(false);
            if (studio) {
                LoadedModel m;
                m.path = name;
                m.studio = true;
                if (!studio->model)
                    m.error = studio->error;
                else if (auto built = buildStudio(fs, path, *studio, choice))
                    m.mesh = std::move(*built);
                else
                    m.error = built.error().message();
                set.models.push_back(std::move(m));
            } else {
                set.models.push_back(loadModel(fs, path, map.unlit_faces));
            }
        }
        return by_path.emplace(name, std::move(pm)).first->second;
    };
    for (uint32_t i = 0; i < map.entities.size(); ++i) {
        const bsp::Entity& e = map.entities[i];
        // Half-Life: a point entity whose "model" key names a .mdl or .spr shows that file.
        const std::string_view key_path = half_life ? halfLifeModelKey(e) : std::string_view{};
        const EntityModelRule* rule = nullptr;
        bool own_model = false;
        if (key_path.empty()) {
            rule = findEntityModelRule(rules, e, worldtype);
            own_model = rule && rule->model.empty();
            // A brush entity of the same name draws its own brushes.
            if (!rule || (!own_model && e.has("model")) || (own_model && !e.has("model")))
                continue;
        }
        // effects.cpp CSprite::Spawn: a named env_sprite without "start on" (spawnflags 1)
        // stays off until triggered.
        if (half_life && e.classname() == "env_sprite" && e.has("targetname") &&
            (intKey(e, "spawnflags", 0) & 1) == 0)
            continue;
        const auto origin = e.vec3("origin");
        if (!origin)
            continue;
        ++set.wanted;
        glm::vec3 place = *origin;
        if (rule && rule->item_motion && (uint32_t(intKey(e, "spawnflags", 0)) & 1) == 0) {
            // FinishSpawningItem drops a 30-unit box 4096 units; a ray from the box's foot
            // stands in for the box, and a box that starts in the floor stays where it is.
            if (bounds.empty())
                bounds = faceBounds(map);
            const glm::vec3 foot = place - glm::vec3(0, 0, kQuake3ItemRadius);
            if (const auto hit = rayCast(map, mesh, foot, glm::vec3(0, 0, -1), 4096.0f, &bounds))
                place.z -= hit->distance;
        }
        if (rule && rule->drop.distance > 0.0f &&
            (uint32_t(intKey(e, "spawnflags", 0)) & rule->drop.skip_spawnflags) == 0) {
            // Quake 2's droptofloor and M_droptofloor, for an entity whose model is there (a
            // missing one is listed as missing below).
            const PathModels& first = modelsOf(rule->model);
            const LoadedModel& drawn = set.models[first.first];
            if (drawn.drawable()) {
                if (!collision)
                    collision.emplace(map);
                const auto floor = dropToFloor(*collision, rule->drop, place);
                if (!floor) {
                    set.missing.push_back(std::string(rule->classname) + ": " + drawn.path +
                                          " (starts in solid: removed by droptofloor)");
                    continue;
                }
                place = *floor;
                if (boxInSolid(*collision, rule->drop, place))
                    set.warnings.push_back(std::string(rule->classname) + " in solid at " +
                                           vtos(place));
            }
        }
        const std::string_view paths[2] = {!key_path.empty() ? key_path
                                           : own_model       ? e.get("model")
                                                             : rule->model,
                                           rule ? rule->model2 : std::string_view{}};
        for (const std::string_view path : paths) {
            if (path.empty())
                continue;
            // q3map2 AddTriangleModels: a misc_model's "_skin", else "skin", picks a .skin.
            std::string skin_path;
            if (own_model && hasSuffix(path, ".md3"))
                skin_path =
                    content::q3map2SkinPath(path, e.has("_skin") ? e.get("_skin") : e.get("skin"));
            const PathModels pm =
                modelsOf(path, half_life ? halfLifeStudioKeys(e) : HalfLifeStudioKeys{}, skin_path);
            for (uint32_t k = 0; k < pm.count; ++k) {
                const uint32_t model_index = pm.first + k;
                const LoadedModel& model = set.models[model_index];
                if (!model.drawable()) {
                    set.missing.push_back(std::string(e.classname()) + ": " + model.path + " (" +
                                          model.error + ")");
                    continue;
                }
                EntityModelInstance inst;
                inst.entity = i;
                inst.model = model_index;
                inst.origin = place;
                if (auto angles = e.vec3("angles"))
                    inst.angles = *angles;
                else if (auto yaw = e.number("angle"))
                    inst.angles = glm::vec3(0.0f, *yaw, 0.0f);
                inst.fullbright = rule && rule->fullbright;
                inst.additive = pm.additive[k];
                if (model.mesh) {
                    const content::ModelMesh& m = *model.mesh;
                    const int32_t skin = rule ? rule->skin : intKey(e, "skin", 0);
                    const int32_t frame = rule ? rule->frame : 0;
                    inst.skin = std::clamp(skin, 0, int32_t(m.skins.size()) - 1);
                    inst.first_frame = uint32_t(std::clamp(frame, 0, int32_t(m.frames.size()) - 1));
                    if (rule && rule->idle_frames > 1 &&
                        size_t(rule->frame) + size_t(rule->idle_frames) <= m.frames.size())
                        inst.frame_count = uint32_t(rule->idle_frames);
                }
                if (half_life)
                    applyHalfLifeKeys(e, model, inst);
                const uint32_t spawnflags = uint32_t(intKey(e, "spawnflags", 0));
                inst.rotates =
                    (model.mesh && model.mesh->rotates) ||
                    (rule && rule->rotates && (spawnflags & rule->still_spawnflags) == 0);
                if (rule && rule->item_motion) {
                    // CG_Item: the bob's rate from the entity number (the entity's place in
                    // the lump after worldspawn stands in for the game's number).
                    inst.rotates = true;
                    inst.spin_rate = kQuake3ItemSpin;
                    inst.bob_scale = 0.005f + float(kQuake3MaxClients + i - 1) * 0.00001f;
                    // Blended surfaces (a health sphere, a powerup ring) glow full bright.
                    inst.fullbright = inst.additive;
                }
                if (rule && rule->weapon) {
                    // CG_Item: weapons turn about their midpoint, 8 units higher, 1.5 times
                    // their size.
                    inst.pivot = pm.midpoint;
                    inst.origin.z += 8.0f;
                    inst.scale = 1.5f;
                }
                if (own_model) {
                    const auto scale = e.number("modelscale");
                    if (scale && std::isfinite(*scale) && *scale > 0.0f)
                        inst.scale = *scale;
                }
                if (model.brush) {
                    // Lit by its own lightmaps (R_DrawBrushModel), as the world is.
                } else if (!inst.fullbright &&
                           map.model_lighting == bsp::ModelLighting::LightGrid) {
                    // Sampled once, at the middle of the item bob (cg_ents.c CG_Item lights an
                    // item at its bobbing origin, 0 to 8 units up; grid cells are 64 or more).
                    const glm::vec3 at =
                        inst.origin + glm::vec3(0, 0, inst.bob_scale > 0.0f ? 4.0f : 0.0f);
                    const ModelLight l = gridModelLight(map, at);
                    inst.light = l.ambient;
                    inst.directed_light = l.directed;
                    inst.light_dir = l.dir;
                    inst.light_bytes = l.bytes;
                } else if (!inst.fullbright && model.studio) {
                    if (bounds.empty())
                        bounds = faceBounds(map);
                    const StudioLight l = studioLight(map, lightmaps, mesh, bounds, inst.origin);
                    inst.light = l.light.ambient;
                    inst.directed_light = l.light.directed;
                    inst.light_dir = l.light.dir;
                    inst.light_wrap = l.wrap;
                } else if (!inst.fullbright) {
                    if (bounds.empty())
                        bounds = faceBounds(map);
                    inst.light = lightBelow(map, lightmaps, mesh, bounds, inst.origin);
                }
                inst.radius = modelRadius(model) * inst.scale + glm::length(inst.pivot) +
                              (inst.bob_scale > 0.0f ? 8.0f : 0.0f);
                const int32_t leaf = bsp::pointLeaf(map, inst.origin);
                inst.cluster = leaf >= 0 && size_t(leaf) < map.leaves.size()
                                   ? map.leaves[size_t(leaf)].cluster
                                   : -1;
                set.instances.push_back(inst);
            }
        }
    }
    return set;
}

std::optional<EntityModelHit> pickEntityModel(const EntityModelSet& set, const glm::vec3& origin,
                                              const glm::vec3& dir_in, float max_distance) {
    const float len = glm::length(dir_in);
    if (!(len > 0.0f))
        return std::nullopt;
    const glm::vec3 dir = dir_in / len;
    std::optional<EntityModelHit> best;
    for (uint32_t i = 0; i < set.instances.size(); ++i) {
        const EntityModelInstance& inst = set.instances[i];
        const glm::vec3 to = inst.origin - origin;
        const float along = glm::dot(to, dir);
        const float miss2 = glm::dot(to, to) - along * along;
        const float r2 = inst.radius * inst.radius;
        if (miss2 > r2)
            continue;
        const float t = std::max(0.0f, along - std::sqrt(r2 - miss2));
        if (along < -inst.radius || t > max_distance || (best && t >= best->distance))
            continue;
        best = EntityModelHit{i, t};
    }
    return best;
}

std::vector<std::string> describeInstance(const EntityModelSet& set, uint32_t instance) {
    std::vector<std::string> lines;
    if (instance >= set.instances.size())
        return lines;
    const EntityModelInstance& inst = set.instances[instance];
    const LoadedModel& model = set.models[inst.model];
    char buf[256];
    lines.push_back("model " + model.path + "  skin " + std::to_string(inst.skin) +
                    (model.skin.empty() ? std::string() : "  (" + model.skin + ")"));
    if (model.mesh && inst.first_frame < model.mesh->frames.size()) {
        const content::ModelFrame& frame = model.mesh->frames[inst.first_frame];
        if (inst.frame_count > 1)
            std::snprintf(buf, sizeof(buf), "frames %u..%u at %g Hz  (%u poses in frame %u \"%s\")",
                          inst.first_frame, inst.first_frame + inst.frame_count - 1,
                          double(inst.frame_rate), frame.poses.count, inst.first_frame,
                          frame.name.c_str());
        else
            std::snprintf(buf, sizeof(buf), "frame %u \"%s\"  %u poses", inst.first_frame,
                          frame.name.c_str(), frame.poses.count);
        lines.emplace_back(buf);
    }
    if (inst.fullbright) {
        lines.emplace_back("light: full bright");
        return lines;
    }
    std::snprintf(buf, sizeof(buf), "ambient %.2f %.2f %.2f", double(inst.light.r),
                  double(inst.light.g), double(inst.light.b));
    lines.emplace_back(buf);
    if (inst.directed_light != glm::vec3(0.0f)) {
        std::snprintf(buf, sizeof(buf), "directed %.2f %.2f %.2f toward %.2f %.2f %.2f",
                      double(inst.directed_light.r), double(inst.directed_light.g),
                      double(inst.directed_light.b), double(inst.light_dir.x),
                      double(inst.light_dir.y), double(inst.light_dir.z));
        lines.emplace_back(buf);
    }
    return lines;
}

uint32_t instancePose(const EntityModelInstance& inst, const content::ModelMesh& m, double time) {
    if (m.frames.empty())
        return 0;
    uint32_t frame = std::min<uint32_t>(inst.first_frame, uint32_t(m.frames.size()) - 1);
    if (inst.frame_count > 1 && std::isfinite(time)) {
        const double step = std::floor(time * inst.frame_rate);
        const double k = step - std::floor(step / inst.frame_count) * inst.frame_count;
        frame = std::min<uint32_t>(frame + uint32_t(k), uint32_t(m.frames.size()) - 1);
    }
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
    uint32_t frame = std::min<uint32_t>(inst.first_frame, uint32_t(s.frames.size()) - 1);
    if (inst.frame_count > 1 && std::isfinite(time)) {
        const double step = std::floor(time * inst.frame_rate);
        const double k = step - std::floor(step / inst.frame_count) * inst.frame_count;
        frame = std::min<uint32_t>(frame + uint32_t(k), uint32_t(s.frames.size()) - 1);
    }
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
