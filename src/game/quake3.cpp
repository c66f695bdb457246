// Quake 3 (IBSP 46), RTCW / Enemy Territory (IBSP 47) and Qfusion (FBSP) as ioquake3's opengl1
// renderer draws them with OpenArena's settings (fullscreen, r_mapOverBrightBits 2,
// r_overBrightBits 1), and ioquake3's game code; docs/fidelity.md has the measurements. Sources
// read for the facts (ioquake/ioq3 5956299; no code taken).
#include "game/families.h"

namespace game::detail {

GameProfile quake3Profile(const bsp::Map&) {
    GameProfile p;
    p.family = Family::Quake3;
    LightRule& light = p.rules.light;
    // code/renderergl1/tr_bsp.c R_ColorShiftLightingBytes: lightmap bytes and vertex colours
    // shifted left by r_mapOverBrightBits - r_overBrightBits = 1 (times 2), a colour passing 255
    // scaled down by its largest channel (hue kept); tr_image.c R_SetColorMappings: the gamma
    // table doubles the finished frame (s_gammatable[i] = min(255, i << overbrightBits)), every
    // surface drawn at tr.identityLight 1/2 (docs/fidelity.md, "The overbright doubling once per
    // frame"). No light styles: 'm' is 1.
    light.lightmap_scale = 2.0f;
    light.overbright = 1;
    // tr_image.c R_MipMap with r_simpleMipMaps 1 (its default): each level a 2x2 mean shifted
    // right by two, so rounded down.
    light.mips_round_down = 1;
    // tr_bsp.c ParseFace hands a negative lightmap number to R_FindShader, which selects the
    // shader's vertex-lit form (q3map2 writes LIGHTMAP_BY_VERTEX for such surfaces): a face
    // without lightmap data keeps its vertex colours.
    light.unlit_faces = UnlitFaces::VertexColour;
    // Liquids have no turbulent warp here (shader scripts deform them): the defaults.
    p.view.eye_height = 26.0f; // code/game/bg_public.h DEFAULT_VIEWHEIGHT
    // The sky box comes from the sky shader's skyParms (tr_shader.c ParseSkyParms), found by the
    // scene among the map's materials: no worldspawn key. Its faces are drawn edge to edge
    // (game::SkyBoxEdge).
    p.rules.sky_box_edge.inset = 0.0f;
    p.entities.model_table = EntityModelTable::Quake3;
    // tr_light.c R_SetupEntityLighting: models lit from the light grid (tr_bsp.c
    // R_LoadLightGrid), or a fixed light when the map has none (scene/model_light.h).
    p.entities.model_lighting = ModelLighting::LightGrid;
    // renderergl1/tr_init.c R_Register: r_textureMode GL_LINEAR_MIPMAP_LINEAR,
    // r_ext_texture_filter_anisotropic 0 (r_ext_max_anisotropy 2 applies only when it is on).
    p.rules.textures = {.mode = TextureMode::LinearMipmapLinear, .anisotropy = 1.0f};
    return p;
}

} // namespace game::detail

namespace game::detail {

namespace {

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

} // namespace

std::span<const EntityModelRule> quake3EntityModels() {
    return kQuake3;
}

} // namespace game::detail
