#include "scene/models/model_tables.h"

#include "bsp/collision.h"
#include "scene/models/entity_keys.h"

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

} // namespace

std::span<const EntityModelRule> entityModelRules(game::EntityModelTable table) {
    switch (table) {
    case game::EntityModelTable::Quake1:
        return kQuake1;
    case game::EntityModelTable::Quake2:
        return kQuake2;
    case game::EntityModelTable::Quake3:
        return kQuake3;
    case game::EntityModelTable::HalfLife:
        return kHalfLife;
    case game::EntityModelTable::None:
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

} // namespace scene
