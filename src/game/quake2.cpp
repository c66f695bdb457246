// Quake 2 (IBSP 38, the re-release's QBSP) as yquake2's GL3 renderer draws it at its defaults,
// and id's game code; docs/fidelity.md has the measurements. Sources read for the facts
// (yquake2/yquake2 69599f5, id's ref_gl and game code; no code taken).
#include "game/families.h"

#include "bsp/collision.h"

namespace game::detail {

namespace {

// yquake2's GL3 renderer samples walls GL_LINEAR_MIPMAP_NEAREST (gl3_main.c GL3_Register:
// gl_texturemode) without anisotropic filtering (r_anisotropic 0; gl3_image.c
// GL3_TextureMode sets GL_TEXTURE_MAX_ANISOTROPY only when it is above 0).
TextureFilter textureFilter() {
    return {.mode = TextureMode::LinearMipmapNearest, .anisotropy = 1.0f};
}

// gl3_warp.c GL3_SetSky: a side whose image is missing (files/stb.c GetSkyImage finds none)
// shows gl3_notexture, stretched over the side as any sky image (sky_min 1/512 .. sky_max
// 511/512), mipmapped and repeating as a wall. gl3_misc.c GL3_InitParticleTexture makes it:
// 8 x 8 texels, black, red (255 0 0) where the 4 x 4 dot mask, read at (x mod 4, y mod 4),
// is set. A map without a "sky" key gets the game's default box, unit1_ (g_spawn.c
// SP_worldspawn).
SkyFallback skyFallback() {
    constexpr uint8_t kDots[4][4] = {{0, 0, 0, 0}, {0, 0, 1, 1}, {0, 1, 1, 1}, {0, 1, 1, 1}};
    SkyFallback f;
    f.face_size = 8;
    f.face.resize(8 * 8 * 4);
    for (size_t y = 0; y < 8; ++y)
        for (size_t x = 0; x < 8; ++x) {
            uint8_t* texel = &f.face[(y * 8 + x) * 4];
            texel[0] = kDots[x % 4][y % 4] ? 255 : 0;
            texel[3] = 255;
        }
    return f;
}

// Yamagi's default look, its GL3 renderer at its defaults (gl3_main.c GL3_Register,
// gl3_shaders.c fragmentSrc3Dlm): the texel times gl3_intensity 1.5, the summed lightmaps
// times gl3_overbrightbits 1.3, the product to the power 1 / vid_gamma 1.2, no clamp before
// the gamma. 'm' is exactly 1 (client/cl_fx.c CL_SetLightstyle stores (c - 'a') / ('m' - 'a');
// gl3_main.c GL3_Draw3DBatchesNow scales lightmap k by its style's lightstyles[].rgb). A face
// without light data (gl3_light.c GL3_BuildLightMap, "no lightmap samples? set at least one
// lightmap to fullbright") gets a luxel of 255 in each of the styles it lists, at least one:
// a map compiled without light lists style 0 four times and is lit 4x.
LightRule yamagiLight() {
    LightRule light;
    light.lightmap_scale = 1.3f;
    light.texture_scale = 1.5f;
    light.output_gamma = 1.0f / 1.2f;
    light.unlit_faces = UnlitFaces::FullbrightEachStyle;
    return light;
}

// The classic look, yquake2's GL1 renderer (id's ref_gl) with vid_gamma 1, whose gamma is a
// display ramp that screenshots leave out. Textures are scaled at upload by gl1_intensity 2
// and saturated (gl1_image.c R_InitImages intensitytable, R_LightScaleTexture); the lightmap
// is the styles' sum times r_modulate 1, scaled down by its largest channel where one passes
// 255 (gl1_light.c R_BuildLightMap), and the texture unit multiplies the two, clamped at 1; a
// face without light data gets one luxel of 255 whatever its styles ("set to full bright if no
// light data").
LightRule classicLight() {
    LightRule light;
    light.lightmap_scale = 1.0f;
    light.light_normalize = 1;
    light.texture_scale = 2.0f;
    light.texture_max = 1.0f;
    light.unlit_faces = UnlitFaces::Fullbright;
    return light;
}

// The eye in a liquid: the game's player/view.c SV_CalcBlend adds, by the contents at the
// eye, lava (1, 0.3, 0, 0.6), else slime (0, 0.1, 0.05, 0.6), else water (0.5, 0.3, 0.2,
// 0.4) to the blend the renderers draw over the view (gl1_main.c R_PolyBlend, gl3_main.c
// GL3_Draw_Flash or the post-process's v_blend), and sets RDF_UNDERWATER. The GL1 renderer
// (the classic look) then breathes the frustum (gl1_main.c R_SetPerspective, gl1_waterwarp
// 1: xmax * (1 + 0.03 sin(1.5 t)), ymax * (1 - 0.03 sin(1.5 t))); GL3 (the Yamagi look, its
// gl3_usefbo 1) ripples the finished picture instead (gl3_main.c GL3_RenderFrame draws the
// view into a framebuffer, gl3_draw.c GL3_DrawFrameBufferObject shows it through
// gl3_shaders.c fragmentSrc2DpostprocessWater: amplitude 0.00666, 2 t + 10 pi across, t
// r_newrefdef.time in seconds).
// SV_CalcBlend also tints the view as lava inside solid; the viewer flies through walls and
// outside the map, so that tint is left out.
LiquidView liquidView(Quake2Look look) {
    LiquidView v;
    v.water = {0.5f, 0.3f, 0.2f, 0.4f};
    v.slime = {0.0f, 0.1f, 0.05f, 0.6f};
    v.lava = {1.0f, 0.3f, 0.0f, 0.6f};
    if (look == Quake2Look::Classic) {
        v.fov_amplitude = {0.03f, -0.03f};
        v.fov_rate = 1.5f;
    } else {
        v.warp_amplitude = 0.00666f;
        v.warp_rate = 2.0f;
        v.warp_waves = 10.0f * 3.14159265f;
    }
    return v;
}

} // namespace

GameProfile quake2Profile(const bsp::Map& map, Quake2Look look) {
    GameProfile p;
    p.family = Family::Quake2;
    p.rules.light = look == Quake2Look::Classic ? classicLight() : yamagiLight();
    // gl3_shaders.c fragmentSrc3Dwater: warps move by 4 texels of 64; gl3_warp.c
    // GL3_EmitWaterPolys keeps GLQuake's 16 pi period and the time in seconds.
    p.rules.warp.amplitude = 4.0f / 64.0f;
    p.view.eye_height = 22.0f; // game/p_client.c PutClientInServer: ent->viewheight = 22
    p.view.liquid = liquidView(look);
    // SV_SpawnServer / GL3_SetSky: worldspawn "sky" names env/<sky><rt|bk|lf|ft|up|dn>.
    p.skybox = skyPath(worldspawn(map), "sky", "env/");
    if (p.skybox.empty())
        p.skybox = "env/unit1_";
    p.sky_fallback = skyFallback();
    p.rules.textures = textureFilter();
    p.entities.model_table = EntityModelTable::Quake2;
    p.entities.model_lighting = ModelLighting::LightPoint;
    // yquake2 sv_entities.c SV_BuildClientFrame culls entities by PVS clusters and areas too,
    // with other limits than Quake 1's: not modelled (no reference draws Quake 2 brush
    // entities here), so every brush model in the frustum is drawn.
    return p;
}

} // namespace game::detail

namespace game::detail {

namespace {

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

} // namespace

std::span<const EntityModelRule> quake2EntityModels() {
    return kQuake2;
}

} // namespace game::detail
