// Quake 1, BSP2 and 2PSB maps as QuakeSpasm 0.95 draws them and LibreQuake's QuakeC (the
// progs.dat that ../shared/qsref runs) spawns them; docs/fidelity.md has the measurements.
// Sources read for the facts (sezero/quakespasm tag 0.95.1, LibreQuake qcsrc/; no code taken).
#include "game/families.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <numbers>
#include <string>
#include <string_view>
#include <vector>

namespace game::detail {

namespace {

constexpr int kDoorStartOpen = 1;      // doors.qc DOOR_START_OPEN
constexpr int kLightStartOff = 1;      // misc.qc START_OFF
constexpr int kNotInNormalSkill = 512; // QuakeSpasm progs.h SPAWNFLAG_NOT_MEDIUM
constexpr int kFirstSwitchableStyle = 32;
constexpr int kTestStyle = 63; // world.qc: "63 testing", set to "a"
constexpr float kDefaultLip = 8.0f;

// QuakeC reads every number as a float and masks flags after an int conversion; values that
// do not fit an int count as 0 here instead of being undefined.
int intKey(const bsp::Entity& e, std::string_view key) {
    const float v = e.number(key).value_or(0.0f);
    return std::fabs(v) < 1e9f ? static_cast<int>(v) : 0;
}

// QuakeSpasm pr_edict.c ED_LoadFromFile frees entities whose spawnflags exclude the current
// skill before spawning them; skill defaults to 1 (normal). Entity 0, the world, always spawns.
std::vector<bool> spawnedEntities(const bsp::Map& map) {
    std::vector<bool> spawned(map.entities.size(), true);
    for (size_t i = 1; i < map.entities.size(); ++i)
        spawned[i] = !(intKey(map.entities[i], "spawnflags") & kNotInNormalSkill);
    return spawned;
}

// The brush model's size as the game sees it: gl_model.c Mod_LoadSubmodels spreads the bounds
// by a unit.
glm::vec3 engineSize(const bsp::Submodel& sm) {
    return (sm.maxs + 1.0f) - (sm.mins - 1.0f);
}

// subs.qc SetMovedir: angles '0 -1 0' is up, '0 -2 0' down, anything else the forward vector
// of makevectors (QuakeSpasm mathlib.c AngleVectors, in double as the engine computes it). The
// engine turns an "angle" key into "angles" '0 angle 0' (pr_edict.c ED_ParseEdict).
glm::vec3 moveDirection(const bsp::Entity& e) {
    glm::vec3 a(0.0f);
    if (auto v = e.vec3("angles"))
        a = *v;
    else if (auto yaw = e.number("angle"))
        a = glm::vec3(0.0f, *yaw, 0.0f);
    if (a == glm::vec3(0.0f, -1.0f, 0.0f))
        return {0.0f, 0.0f, 1.0f};
    if (a == glm::vec3(0.0f, -2.0f, 0.0f))
        return {0.0f, 0.0f, -1.0f};
    const double pitch = double(a.x) * (std::numbers::pi / 180.0);
    const double yaw = double(a.y) * (std::numbers::pi / 180.0);
    return glm::vec3(float(std::cos(pitch) * std::cos(yaw)), float(std::cos(pitch) * std::sin(yaw)),
                     float(-std::sin(pitch)));
}

// doors.qc func_door: pos2 = pos1 + movedir * (|movedir . size| - lip), lip 8 when unset or 0.
glm::vec3 doorOpenOrigin(const bsp::Entity& e, const bsp::Submodel& sm) {
    const glm::vec3 dir = moveDirection(e);
    float lip = e.number("lip").value_or(0.0f);
    if (lip == 0.0f)
        lip = kDefaultLip;
    const glm::vec3 size = engineSize(sm);
    const float d = dir.x * size.x + dir.y * size.y + dir.z * size.z;
    return sm.origin + dir * (std::fabs(d) - lip);
}

// plats.qc func_plat: the bottom is origin.z - height, or - size.z + 8 without a height.
glm::vec3 platLoweredOrigin(const bsp::Entity& e, const bsp::Submodel& sm) {
    glm::vec3 o = sm.origin;
    const float height = e.number("height").value_or(0.0f);
    o.z -= height != 0.0f ? height : engineSize(sm).z - 8.0f;
    return o;
}

// The first spawned entity with this targetname, as QuakeC find(world, targetname, name) sees
// it a tenth of a second in; -1 when there is none (find returns the world, at the origin).
int32_t findTarget(const bsp::Map& map, const std::vector<bool>& spawned, std::string_view name) {
    for (size_t i = 1; i < map.entities.size(); ++i)
        if (spawned[i] && map.entities[i].get("targetname") == name)
            return static_cast<int32_t>(i);
    return -1;
}

// Where the game code puts each brush model: func_door START_OPEN at its open position
// (doors.qc func_door), func_plat without a targetname lowered (plats.qc func_plat), func_train
// at its first target (plats.qc func_train_find, 0.1 s in); one whose entity the skill filter
// freed, or a train without a target (objerror: PF_objerror frees it), is not drawn.
void placeBrushModels(bsp::Map& map, const std::vector<bool>& spawned) {
    for (size_t m = 1; m < map.submodels.size(); ++m) {
        bsp::Submodel& sm = map.submodels[m];
        if (sm.entity < 0)
            continue;
        const bsp::Entity& e = map.entities[size_t(sm.entity)];
        if (!spawned[size_t(sm.entity)]) {
            sm.visible = false;
            continue;
        }
        const std::string_view cls = e.classname();
        if (cls == "func_door" && (intKey(e, "spawnflags") & kDoorStartOpen)) {
            sm.origin = doorOpenOrigin(e, sm);
        } else if (cls == "func_plat") {
            sm.angles = glm::vec3(0.0f); // func_plat keeps them in mangle and draws unturned
            if (e.get("targetname").empty())
                sm.origin = platLoweredOrigin(e, sm);
        } else if (cls == "func_train") {
            const std::string_view target = e.get("target");
            if (target.empty()) {
                sm.visible = false;
                continue;
            }
            const int32_t t = findTarget(map, spawned, target);
            const glm::vec3 corner =
                t >= 0 ? map.entities[size_t(t)].vec3("origin").value_or(glm::vec3(0.0f))
                       : glm::vec3(0.0f);
            sm.origin = corner - (sm.mins - 1.0f); // setorigin(targ.origin - self.mins)
        }
    }
}

// misc.qc light (and light_fluoro): with a targetname and style >= 32,
// lightstyle(style, START_OFF ? "a" : "m"); world.qc worldspawn sets style 63 to "a".
std::vector<LightStyleString> spawnLightStyles(const bsp::Map& map,
                                               const std::vector<bool>& spawned) {
    std::map<int32_t, char> styles{{kTestStyle, 'a'}};
    for (size_t i = 1; i < map.entities.size(); ++i) {
        const bsp::Entity& e = map.entities[i];
        if (!spawned[i] || !e.classname().starts_with("light") || e.get("targetname").empty())
            continue;
        const int style = intKey(e, "style");
        if (style < kFirstSwitchableStyle || style > kTestStyle)
            continue;
        styles[style] = (intKey(e, "spawnflags") & kLightStartOff) ? 'a' : 'm';
    }
    std::vector<LightStyleString> out;
    for (const auto& [style, letter] : styles)
        out.push_back({style, std::string(1, letter)});
    return out;
}

// The engine strips one leading underscore and trailing spaces from worldspawn keys.
std::string_view engineKey(std::string_view key) {
    if (!key.empty() && key.front() == '_')
        key.remove_prefix(1);
    while (!key.empty() && key.back() == ' ')
        key.remove_suffix(1);
    return key;
}

// gl_fog.c Fog_ParseWorldspawn: "fog" or "_fog" "density red green blue" (the last such key
// wins; sscanf("%f %f %f %f") stops at the first number that fails, keeping the defaults 0 and
// 0.3 grey); Fog_SetupFrame: GL_EXP2 of density / 64; Fog_GetColor: clamped, rounded to 8 bits;
// gl_sky.c Sky_NewMap / Sky_DrawSky: r_skyfog's 0.5, or the "skyfog" key, of it over the sky.
DistanceFog worldFog(const bsp::Entity* world) {
    DistanceFog fog;
    if (!world)
        return fog;
    constexpr float kDefaultSkyFog = 0.5f;
    float v[4] = {0.0f, 0.3f, 0.3f, 0.3f}; // gl_fog.c DEFAULT_DENSITY, DEFAULT_GRAY
    float sky = kDefaultSkyFog;
    for (const auto& [key, value] : world->pairs) {
        const std::string_view k = engineKey(key);
        if (k == "fog") {
            const std::string text(value);
            const char* p = text.c_str();
            for (float& x : v) {
                char* end = nullptr;
                const float f = std::strtof(p, &end);
                if (end == p || !std::isfinite(f))
                    break;
                x = f;
                p = end;
            }
        } else if (k == "skyfog") {
            sky = std::strtof(std::string(value).c_str(), nullptr);
        }
    }
    if (!(v[0] > 0.0f))
        return fog;
    fog.density = v[0] / 64.0f;
    for (int i = 0; i < 3; ++i)
        fog.colour[i] = std::round(std::clamp(v[i + 1], 0.0f, 1.0f) * 255.0f) / 255.0f;
    fog.sky = std::isfinite(sky) ? std::clamp(sky, 0.0f, 1.0f) : 0.0f;
    return fog;
}

LightRule lightRule(const bsp::Map& map) {
    LightRule r;
    // R_BuildLightMap: the styles summed into an 8-bit lightmap that saturates at 255, then the
    // 2x overbright (gl_overbright 1): light times 2, at most 2.
    r.lightmap_scale = 2.0f;
    r.light_max = 2.0f;
    // A style letter is (c - 'a') * 22 of 256 (gl_rlight.c R_AnimateLight), so 'm' is 264 / 256.
    r.light_style_scale = 264.0f / 256.0f;
    // r_brush.c R_BuildLightMap: a face without samples stays black when the map has light data
    // (gl_model.c Mod_LoadFaces gives lightofs -1 no samples); a map without any is drawn with
    // every luxel at 255 (memset when cl.worldmodel->lightdata is NULL).
    r.unlit_faces = map.has_light_data ? UnlitFaces::Black : UnlitFaces::Fullbright;
    return r;
}

// gl_warp.c WARPCALC (r_oldwater 0): the warp image repeats every 128 texels and its sine index
// advances 2 steps of 256 per texel, the time truncated to whole steps ((int) of 2 t +
// time * 128 / pi); R_UpdateWarpTextures draws it on a grid of 128 / r_waterquality texels (its
// default 8: every 16), so the ripple is linear between those, and the image holds the texture
// twice whatever its size (WARPCALC divides by 64): uv in 64-texel tiles. The ripple is 8
// texels (turbsin) of a 64-texel tile.
WarpRule warpRule() {
    WarpRule w;
    w.amplitude = 8.0f / 64.0f;
    w.period = 128.0f;
    w.knot_spacing = 16.0f;
    w.phase_steps = 256;
    w.tile = 64.0f;
    return w;
}

// QuakeSpasm with the eye in a liquid leaf: view.c V_SetContentsColor picks cshift_water
// (130 80 50, percent 128), cshift_slime (0 25 5, 150) or cshift_lava (255 80 0, 150), and
// V_CalcBlend makes the one contents shift v_blend = colour / 255, alpha percent / 255
// (gl_cshiftpercent and gl_cshiftpercent_contents at their default 100), which V_PolyBlend
// draws over the view blended by its alpha; gl_rmain.c R_SetupView breathes the field of view
// (r_waterwarp 1): tan(fov_x / 2) * (0.97 + 0.03 sin(1.5 t)), tan(fov_y / 2) * (1.03 - 0.03
// sin(1.5 t)).
LiquidView liquidView() {
    LiquidView v;
    v.water = glm::vec4(130.0f, 80.0f, 50.0f, 128.0f) / 255.0f;
    v.slime = glm::vec4(0.0f, 25.0f, 5.0f, 150.0f) / 255.0f;
    v.lava = glm::vec4(255.0f, 80.0f, 0.0f, 150.0f) / 255.0f;
    v.fov_base = {0.97f, 1.03f};
    v.fov_amplitude = {0.03f, -0.03f};
    v.fov_rate = 1.5f;
    return v;
}

} // namespace

GameProfile quake1Profile(const bsp::Map& map) {
    GameProfile p;
    p.family = Family::Quake1;
    p.rules.light = lightRule(map);
    p.rules.warp = warpRule();
    const bsp::Entity* world = worldspawn(map);
    p.rules.fog = worldFog(world);
    // QuakeC client.qc PutClientInServer: view_ofs '0 0 22' (QuakeSpasm draws the view at the
    // origin plus view_ofs). Where nothing is drawn QuakeSpasm shows black, measured with
    // ../shared/qsref (a camera outside the map sees 0 0 0 in every pixel).
    p.view.eye_height = 22.0f;
    p.view.void_colour = glm::vec3(0.0f);
    p.view.liquid = liquidView();
    // QuakeSpasm (like ironwail) accepts "sky" or "skyname"; gl_sky.c Sky_LoadSkyBox loads
    // gfx/env/<name><rt|bk|lf|ft|up|dn>.
    p.skybox = skyPath(world, "skyname", "gfx/env/");
    if (p.skybox.empty())
        p.skybox = skyPath(world, "sky", "gfx/env/");
    // Sky_LoadSkyBox: a box none of whose sides loads is dropped ("go back to scrolling sky"),
    // so the two scrolling layers draw: no fallback face.
    // gl_texmgr.c: gl_texturemode starts at GL_LINEAR_MIPMAP_LINEAR (glmode_idx, "trilinear"),
    // gl_texture_anisotropy at 1 (off).
    p.rules.textures = {.mode = TextureMode::LinearMipmapLinear, .anisotropy = 1.0f};
    p.entities.model_table = EntityModelTable::Quake1;
    p.entities.model_lighting = ModelLighting::LightPoint;
    p.entities.light_styles = spawnLightStyles(map, spawnedEntities(map));
    // sv_main.c SV_WriteEntitiesToClient sends an entity only when one of the leaves it is
    // linked into is in the eye's fat PVS, and cl_main.c CL_RelinkEntities drops what it was not
    // sent. The fat PVS joins every leaf within 8 units of the eye (SV_AddToFatPVS); the links
    // are the leaves the entity's box touches (world.c SV_FindTouchedLeafs), that box being the
    // model's bounds spread by 1 (gl_model.c Mod_LoadSubmodels) and by 1 more (world.c
    // SV_LinkEdict); an entity linked into MAX_ENT_LEAFS (32, progs.h) leaves is always sent.
    p.entities.brush_model_vis = {true, 2.0f, 8.0f, 32};
    return p;
}

void quake1Spawn(bsp::Map& map) {
    // quakespasm / fitzquake entity alpha: a brush model blended by its "alpha" key.
    for (bsp::Submodel& sm : map.submodels) {
        if (sm.entity < 0)
            continue;
        const auto a = map.entities[size_t(sm.entity)].number("alpha");
        if (a && *a > 0.0f && *a < 1.0f) {
            sm.blend = bsp::BlendMode::Alpha;
            sm.alpha = *a;
        }
    }
    placeBrushModels(map, spawnedEntities(map));
}

} // namespace game::detail

namespace game::detail {

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

} // namespace

std::span<const EntityModelRule> quake1EntityModels() {
    return kQuake1;
}

} // namespace game::detail
