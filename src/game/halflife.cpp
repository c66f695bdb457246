// Half-Life (GoldSrc BSP30) as Xash3D FWGS draws it at GoldSrc's defaults, and the Half-Life
// SDK's game code; docs/fidelity.md has the measurements. Sources read for the facts
// (FWGS/xash3d-fwgs 633203e, the Half-Life SDK; no code taken).
#include "game/families.h"

#include "core/file.h"

#include <algorithm>
#include <cmath>

#include <glm/common.hpp>
#include <string>
#include <string_view>

namespace game::detail {

namespace {

// GoldSrc's light curve with the engine's defaults (engine/client/gamma.c BuildGammaTable,
// TextureToGamma, LightToTexGamma; cvars gamma 2.5, brightness 0, texgamma 2.0, lightgamma 2.5;
// ref/gl/gl_rsurf.c R_BuildLightMap): no 2x overbright (gl_overbright 0, GoldSrc's path; FWGS's
// own default is 1); the summed styles ('m' = 264 of 256, gl_rlight.c CL_RunLightStyles) times
// int(2^(1/lightgamma) * 256 + 0.5) = 338 of 256, >> 14 to 10 bits, clamped at 1023 of 1023
// (so 1), then through lightgammatable, the identity at these defaults (gamma = lightgamma,
// brightness 0). The texel is not curved here: its palette went through texgammatable at load
// (materialSource below).
LightRule lightRule(const bsp::Map& map) {
    LightRule r;
    r.lightmap_scale = 338.0f / 256.0f;
    r.light_style_scale = 264.0f / 256.0f;
    r.light_max = 1.0f;
    // R_BuildLightMap: r_blocklights cleared, styles added only while the face has samples, so
    // a face without them is black; a map without lighting data is full bright as in Quake 1
    // (gl_rlight.c CL_RunLightStyles sets every style to 256 x 256 then).
    r.unlit_faces = map.has_light_data ? UnlitFaces::Black : UnlitFaces::Fullbright;
    return r;
}

// Worldspawn "wad": the WADs the engine searches for textures the map does not embed,
// separated by ';', each by its base name (compilers store the mapper's full paths).
std::vector<std::string> wadList(const bsp::Entity* world) {
    std::vector<std::string> wads;
    if (!world)
        return wads;
    const std::string_view list = world->get("wad");
    size_t start = 0;
    while (start <= list.size()) {
        size_t end = list.find(';', start);
        if (end == std::string_view::npos)
            end = list.size();
        const std::string base = core::baseName(list.substr(start, end - start));
        if (!base.empty() && wads.size() < 256)
            wads.push_back(base);
        start = end + 1;
    }
    return wads;
}

// Xash3D FWGS samples mipmapped textures GL_LINEAR_MIPMAP_LINEAR (ref/gl/gl_image.c
// GL_ApplyTextureParams with gl_texture_nearest 0) with anisotropy gl_anisotropy, 8 by default
// (ref/gl/gl_opengl.c), which the reference views were taken with.
TextureFilter textureFilter() {
    return {.mode = TextureMode::LinearMipmapLinear, .anisotropy = 8.0f};
}

// A sky box that is missing or incomplete: engine/client/dll_int/ref_common.c R_SetupSky loads
// the default box "desert" (DEFAULT_SKYBOX_NAME, engine/common/com_strings.h) instead; where
// that is missing too, ref/gl/gl_warp.c R_DrawSkyBox binds tr.grayTexture for every side, the
// 4x4 of RGB 127 that ref_common.c R_CreateBuiltinTextures makes: a flat grey sky.
SkyFallback skyFallback() {
    SkyFallback f;
    f.boxes = {"gfx/env/desert"};
    f.face_size = 1;
    f.face = {127, 127, 127, 255};
    return f;
}

} // namespace

} // namespace game::detail

namespace game {

RenderKeys halfLifeRenderKeys(const bsp::Entity& e) {
    const auto number = [&](std::string_view key) {
        const float v = e.number(key).value_or(0.0f);
        return std::isfinite(v) ? v : 0.0f;
    };
    static constexpr RenderMode kModes[] = {RenderMode::Normal,  RenderMode::Colour,
                                            RenderMode::Texture, RenderMode::Glow,
                                            RenderMode::Solid,   RenderMode::Additive};
    const float mode = number("rendermode");
    RenderKeys k;
    k.mode = mode >= 0.0f && mode < 6.0f ? kModes[static_cast<int>(mode)] : RenderMode::Normal;
    k.amount = std::clamp(number("renderamt"), 0.0f, 255.0f) / 255.0f;
    if (auto c = e.vec3("rendercolor"))
        k.colour = glm::clamp(*c / 255.0f, glm::vec3(0.0f), glm::vec3(1.0f));
    return k;
}

} // namespace game

namespace game::detail {

GameProfile halfLifeProfile(const bsp::Map& map) {
    GameProfile p;
    p.family = Family::HalfLife;
    p.rules.light = lightRule(map);
    // Liquids keep GLQuake's warp (8 texels of a 64-texel tile, a 16 pi period, the time in
    // seconds): the defaults. GoldSrc draws liquids unlit whatever the file stores (the parser
    // gives them no lightmap).
    const bsp::Entity* world = worldspawn(map);
    p.view.eye_height = 28.0f; // dlls/util.h VEC_VIEW (0 0 28)
    // Worldspawn "skyname" names gfx/env/<name><rt|bk|lf|ft|up|dn>.tga.
    p.skybox = skyPath(world, "skyname", "gfx/env/");
    p.sky_fallback = skyFallback();
    // Xash3D (ref/gl/gl_warp.c MakeSkyVec) samples the faces edge to edge where the driver has
    // clamp-to-edge, as every GL 3.3 one does (game::SkyBoxEdge).
    p.rules.sky_box_edge.inset = 0.0f;
    p.rules.textures = textureFilter();
    // GoldSrc always mounts the "valve" folder beside the game folder (a mod's maps use
    // Half-Life's WADs).
    p.mount.shared_folders = {"valve"};
    p.materials.wads = wadList(world);
    // Textures are curved once, on their 8-bit palette, as the engine loads them: each byte
    // through texgammatable at the defaults gamma 2.5, texgamma 2.0 (engine/client/gamma.c
    // BuildGammaTable, TextureToGamma; imagelib/img_utils.c Image_SetPalette, LUMP_TEXGAMMA,
    // which img_wad.c Image_LoadMIP, Image_LoadMDL and client/cl_sprite.c
    // Mod_SpriteLoadTextures pick).
    p.materials.palette_table = texGammaTable(2.5f, 2.0f);
    p.entities.model_table = EntityModelTable::HalfLife;
    p.entities.model_lighting = ModelLighting::LightPoint;
    return p;
}

// Brush entities' render modes as Xash3D FWGS draws brush models (ref/gl/gl_rsurf.c
// R_SetRenderMode, R_HasLightmap, R_DrawBrushModel; ref/gl/gl_rmain.c: a mode other than normal
// whose renderamt, 0 when the key is absent, is 0 is not drawn).
void halfLifeSpawn(bsp::Map& map) {
    for (bsp::Submodel& sm : map.submodels) {
        if (sm.entity < 0)
            continue;
        const RenderKeys k = halfLifeRenderKeys(map.entities[size_t(sm.entity)]);
        if (k.mode != RenderMode::Normal && k.amount <= 0.0f)
            sm.visible = false;
        switch (k.mode) {
        case RenderMode::Colour: // kRenderTransColor: the colour alone, blended by renderamt
            sm.blend = bsp::BlendMode::Alpha;
            sm.colour = k.colour.value_or(glm::vec3(0.0f));
            sm.alpha = k.amount;
            sm.lightmapped = false;
            sm.textured = false;
            break;
        case RenderMode::Texture: // the texture without lightmaps, blended by renderamt
        case RenderMode::Glow:    // FWGS draws glow brushes as texture
            sm.blend = bsp::BlendMode::Alpha;
            sm.alpha = k.amount;
            sm.lightmapped = false;
            break;
        case RenderMode::Solid: // kRenderTransAlpha: alpha-tested and lit
            sm.blend = bsp::BlendMode::AlphaTest;
            break;
        case RenderMode::Additive: // the texture times renderamt added, without lightmaps
            sm.blend = bsp::BlendMode::Additive;
            sm.alpha = k.amount;
            sm.lightmapped = false;
            break;
        case RenderMode::Normal:
            break;
        }
    }
}

} // namespace game::detail

namespace game::detail {

namespace {

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

std::span<const EntityModelRule> halfLifeEntityModels() {
    return kHalfLife;
}

} // namespace game::detail
