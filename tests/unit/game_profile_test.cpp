// game::profileFor on synthetic maps of every family (the facts a parser records: format, light
// data present, worldspawn keys), the lighting rule's apply() against values worked out by hand
// from the engines' rules (docs/fidelity.md), and Half-Life's render keys at spawn.
#include "bsp/load.h"
#include "game/profile.h"
#include "support/q1_builder.h"
#include "support/q2_builder.h"

#include <gtest/gtest.h>

#include <glm/common.hpp>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace {

using Keys = std::vector<std::pair<std::string, std::string>>;

// A map of `format` with only the facts profileFor reads: light data or not, and a worldspawn.
bsp::Map factsOnly(bsp::Format format, bool light_data, Keys world = {}) {
    bsp::Map m;
    m.format = format;
    m.has_light_data = light_data;
    bsp::Entity e;
    e.pairs.emplace_back("classname", "worldspawn");
    for (auto& kv : world)
        e.pairs.push_back(std::move(kv));
    m.entities.push_back(std::move(e));
    return m;
}

bsp::Map parsed(const std::vector<uint8_t>& bytes) {
    auto m = bsp::loadMap(bytes, "profile.bsp");
    EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().message());
    return m.ok() ? std::move(*m) : bsp::Map{};
}

// 0..255 of a channel computed by apply() for byte values t and l.
float pixel(const game::LightRule& r, float t, float l) {
    return game::apply(r, glm::vec3(t / 255.0f), glm::vec3(l / 255.0f)).r * 255.0f;
}

} // namespace

TEST(GameProfile, EveryFormatHasItsFamily) {
    using F = bsp::Format;
    using G = game::Family;
    const std::pair<F, G> table[] = {{F::Quake1, G::Quake1},    {F::Quake1Bsp2, G::Quake1},
                                     {F::Quake1Rmq, G::Quake1}, {F::HalfLife, G::HalfLife},
                                     {F::Quake2, G::Quake2},    {F::Quake2Qbsp, G::Quake2},
                                     {F::Quake3, G::Quake3},    {F::Quake3Rtcw, G::Quake3},
                                     {F::Qfusion, G::Quake3},   {F::Source, G::Source}};
    for (const auto& [format, family] : table) {
        EXPECT_EQ(game::familyOf(format), family) << bsp::formatName(format);
        EXPECT_EQ(game::profileFor(factsOnly(format, true)).family, family)
            << bsp::formatName(format);
    }
}

// Sky box faces are sampled half a 256-texel face's texel inside their edges (yquake2,
// QuakeSpasm), edge to edge in ioquake3 and Xash3D (game::SkyBoxEdge).
TEST(GameProfile, SkyBoxEdgeInset) {
    using F = bsp::Format;
    for (const F format : {F::Quake1, F::Quake2, F::Source})
        EXPECT_EQ(game::profileFor(factsOnly(format, true)).rules.sky_box_edge.inset, 1.0f / 512.0f)
            << bsp::formatName(format);
    for (const F format : {F::HalfLife, F::Quake3, F::Quake3Rtcw, F::Qfusion})
        EXPECT_EQ(game::profileFor(factsOnly(format, true)).rules.sky_box_edge.inset, 0.0f)
            << bsp::formatName(format);
}

// The eye in a liquid (game::LiquidView): QuakeSpasm view.c's contents shifts (colour / 255,
// percent / 255) and R_SetupView's breathing field of view; yquake2's SV_CalcBlend colours, the
// classic (GL1) look breathing the frustum; the other games none.
TEST(GameProfile, LiquidView) {
    using F = bsp::Format;
    const game::LiquidView q1 = game::profileFor(factsOnly(F::Quake1, true)).view.liquid;
    EXPECT_EQ(q1.water,
              glm::vec4(130.0f / 255.0f, 80.0f / 255.0f, 50.0f / 255.0f, 128.0f / 255.0f));
    EXPECT_EQ(q1.slime, glm::vec4(0.0f, 25.0f / 255.0f, 5.0f / 255.0f, 150.0f / 255.0f));
    EXPECT_EQ(q1.lava, glm::vec4(1.0f, 80.0f / 255.0f, 0.0f, 150.0f / 255.0f));
    EXPECT_EQ(q1.fov_base, glm::vec2(0.97f, 1.03f));
    EXPECT_EQ(q1.fov_amplitude, glm::vec2(0.03f, -0.03f));
    EXPECT_EQ(q1.fov_rate, 1.5f);
    EXPECT_EQ(game::profileFor(factsOnly(F::Quake1Bsp2, true)).view.liquid, q1);

    bsp::Map q2map = factsOnly(F::Quake2, true);
    const game::LiquidView yamagi = game::profileFor(q2map).view.liquid;
    EXPECT_EQ(yamagi.water, glm::vec4(0.5f, 0.3f, 0.2f, 0.4f));
    EXPECT_EQ(yamagi.slime, glm::vec4(0.0f, 0.1f, 0.05f, 0.6f));
    EXPECT_EQ(yamagi.lava, glm::vec4(1.0f, 0.3f, 0.0f, 0.6f));
    EXPECT_EQ(yamagi.fov_rate, 0.0f); // GL3 ripples the picture instead
    EXPECT_EQ(yamagi.warp_amplitude, 0.00666f);
    EXPECT_EQ(yamagi.warp_rate, 2.0f);
    EXPECT_FLOAT_EQ(yamagi.warp_waves, 10.0f * 3.14159265f);
    const game::LiquidView classic =
        game::profileFor(q2map, {game::Quake2Look::Classic}).view.liquid;
    EXPECT_EQ(classic.water, yamagi.water);
    EXPECT_EQ(classic.fov_base, glm::vec2(1.0f));
    EXPECT_EQ(classic.fov_amplitude, glm::vec2(0.03f, -0.03f));
    EXPECT_EQ(classic.fov_rate, 1.5f);
    EXPECT_EQ(classic.warp_amplitude, 0.0f);
    EXPECT_EQ(q1.warp_amplitude, 0.0f);

    for (const F format : {F::HalfLife, F::Quake3, F::Source})
        EXPECT_EQ(game::profileFor(factsOnly(format, true)).view.liquid, game::LiquidView{})
            << bsp::formatName(format);
}

// QuakeSpasm and LibreQuake's QuakeC (game/quake1.cpp).
TEST(GameProfile, Quake1) {
    const game::GameProfile p = game::profileFor(
        factsOnly(bsp::Format::Quake1Bsp2, true, {{"sky", "purplesky"}, {"_fog", "0.05 1 0.5 0"}}));
    const game::LightRule& l = p.rules.light;
    EXPECT_EQ(l.lightmap_scale, 2.0f);
    EXPECT_EQ(l.light_style_scale, 264.0f / 256.0f);
    EXPECT_EQ(l.light_max, 2.0f);
    EXPECT_FALSE(p.materials.palette_table); // palettes as stored
    EXPECT_EQ(l.overbright, 0);
    EXPECT_EQ(l.unlit_faces, game::UnlitFaces::Black);
    EXPECT_EQ(p.rules.warp.period, 128.0f);
    EXPECT_EQ(p.rules.warp.tile, 64.0f);
    EXPECT_FLOAT_EQ(p.rules.fog.density, 0.05f / 64.0f);
    EXPECT_EQ(p.rules.fog.colour, glm::vec3(1.0f, 128.0f / 255.0f, 0.0f));
    EXPECT_EQ(p.view.eye_height, 22.0f);
    EXPECT_EQ(p.view.void_colour, glm::vec3(0.0f));
    EXPECT_EQ(p.skybox, "gfx/env/purplesky"); // "sky" as QuakeSpasm reads it
    EXPECT_TRUE(p.mount.shared_folders.empty());
    EXPECT_EQ(p.materials.files, game::MaterialFiles::Images);
    EXPECT_EQ(p.entities.model_table, game::EntityModelTable::Quake1);
    EXPECT_EQ(p.entities.model_lighting, game::ModelLighting::LightPoint);
    EXPECT_TRUE(p.entities.brush_model_vis.by_pvs);
    EXPECT_EQ(p.entities.brush_model_vis.leaf_limit, 32u);
    // world.qc: style 63 is "a" on every map.
    ASSERT_EQ(p.entities.light_styles.size(), 1u);
    EXPECT_EQ(p.entities.light_styles[0].style, 63);
    // "skyname" wins over "sky"; no light data: every face full bright.
    const game::GameProfile unlit =
        game::profileFor(factsOnly(bsp::Format::Quake1, false, {{"sky", "a"}, {"skyname", "b"}}));
    EXPECT_EQ(unlit.skybox, "gfx/env/b");
    EXPECT_EQ(unlit.rules.light.unlit_faces, game::UnlitFaces::Fullbright);
    EXPECT_EQ(unlit.rules.fog.density, 0.0f);
}

// Xash3D FWGS at GoldSrc's defaults and the Half-Life SDK (game/halflife.cpp).
TEST(GameProfile, HalfLife) {
    const game::GameProfile p = game::profileFor(
        factsOnly(bsp::Format::HalfLife, true,
                  {{"sky", "ignored"},
                   {"wad", "\\half-life\\valve\\halflife.wad;C:/maps/Decals.WAD;;liquids.wad"}}));
    const game::LightRule& l = p.rules.light;
    EXPECT_EQ(l.lightmap_scale, 338.0f / 256.0f);
    EXPECT_EQ(l.light_style_scale, 264.0f / 256.0f);
    EXPECT_EQ(l.light_max, 1.0f);
    // Textures through texgammatable at load (gamma 2.5, texgamma 2.0), not in the light rule.
    ASSERT_TRUE(p.materials.palette_table);
    EXPECT_EQ(*p.materials.palette_table, game::texGammaTable(2.5f, 2.0f));
    EXPECT_EQ((*p.materials.palette_table)[128], 146);
    EXPECT_EQ(l.unlit_faces, game::UnlitFaces::Black);
    EXPECT_EQ(p.rules.warp.period, 16.0f * 3.14159265f); // GLQuake's warp, unchanged
    EXPECT_EQ(p.rules.warp.tile, 0.0f);
    EXPECT_EQ(p.view.eye_height, 28.0f);
    EXPECT_FALSE(p.view.void_colour);
    EXPECT_EQ(p.skybox, ""); // GoldSrc reads "skyname" only
    EXPECT_EQ(p.mount.shared_folders, std::vector<std::string>{"valve"});
    EXPECT_EQ(p.materials.wads,
              (std::vector<std::string>{"halflife.wad", "Decals.WAD", "liquids.wad"}));
    EXPECT_EQ(p.entities.model_table, game::EntityModelTable::HalfLife);
    EXPECT_FALSE(p.entities.brush_model_vis.by_pvs);
    EXPECT_TRUE(p.entities.light_styles.empty());
    EXPECT_EQ(
        game::profileFor(factsOnly(bsp::Format::HalfLife, true, {{"skyname", "desert"}})).skybox,
        "gfx/env/desert");
}

// Each family's texture filter as its engine's defaults (docs/fidelity.md, "Texture
// filtering"), and the gl_texturemode names both ways.
TEST(GameProfile, TextureFilterPerGame) {
    using game::TextureMode;
    const auto filter = [](bsp::Format f) {
        return game::profileFor(factsOnly(f, true)).rules.textures;
    };
    EXPECT_EQ(filter(bsp::Format::HalfLife),
              (game::TextureFilter{TextureMode::LinearMipmapLinear, 8.0f}));
    EXPECT_EQ(filter(bsp::Format::Quake2),
              (game::TextureFilter{TextureMode::LinearMipmapNearest, 1.0f}));
    EXPECT_EQ(filter(bsp::Format::Quake1),
              (game::TextureFilter{TextureMode::LinearMipmapLinear, 1.0f}));
    EXPECT_EQ(filter(bsp::Format::Quake3),
              (game::TextureFilter{TextureMode::LinearMipmapLinear, 1.0f}));
    EXPECT_EQ(filter(bsp::Format::Source),
              (game::TextureFilter{TextureMode::LinearMipmapLinear, 1.0f}));
    for (int i = 0; i < game::kTextureModeCount; ++i) {
        const auto m = static_cast<TextureMode>(i);
        EXPECT_EQ(game::textureModeFromName(game::textureModeName(m)), m);
    }
    EXPECT_EQ(game::textureModeFromName("linear_mipmap_nearest"), TextureMode::LinearMipmapNearest);
    EXPECT_EQ(game::textureModeFromName("gl_nearest"), TextureMode::Nearest);
    EXPECT_FALSE(game::textureModeFromName("GL_LINEAR_MIPMAP"));
    EXPECT_FALSE(game::textureModeFromName(""));
    EXPECT_TRUE(game::magnifiesNearest(TextureMode::NearestMipmapLinear));
    EXPECT_FALSE(game::magnifiesNearest(TextureMode::Linear));
    EXPECT_FALSE(game::usesMipmaps(TextureMode::Linear));
    EXPECT_TRUE(game::usesMipmaps(TextureMode::NearestMipmapNearest));
}

// What each game draws where its sky box images are missing (game::SkyFallback).
TEST(GameProfile, SkyFallbackPerGame) {
    const game::SkyFallback hl =
        game::profileFor(factsOnly(bsp::Format::HalfLife, true)).sky_fallback;
    EXPECT_EQ(hl.boxes, std::vector<std::string>{"gfx/env/desert"}); // Xash3D's default box
    EXPECT_EQ(hl.face_size, 1);
    EXPECT_EQ(hl.face, (std::vector<uint8_t>{127, 127, 127, 255})); // tr.grayTexture
    const game::SkyFallback q2 =
        game::profileFor(factsOnly(bsp::Format::Quake2, true)).sky_fallback;
    EXPECT_TRUE(q2.boxes.empty());
    ASSERT_EQ(q2.face_size, 8);
    ASSERT_EQ(q2.face.size(), 8u * 8u * 4u);
    // gl3_notexture: red where the dot mask is set, read at (x mod 4, y mod 4); 32 of 64.
    int red = 0;
    for (size_t i = 0; i < 64; ++i) {
        EXPECT_EQ(q2.face[i * 4 + 1], 0);
        EXPECT_EQ(q2.face[i * 4 + 2], 0);
        EXPECT_EQ(q2.face[i * 4 + 3], 255);
        red += q2.face[i * 4] == 255;
    }
    EXPECT_EQ(red, 32);
    EXPECT_EQ(q2.face[(1 * 8 + 2) * 4], 255); // x 2, y 1
    EXPECT_EQ(q2.face[(1 * 8 + 1) * 4], 0);   // x 1, y 1
    EXPECT_EQ(q2.face[(0 * 8 + 5) * 4], 0);   // row 0
    // A Quake 2 map without a "sky" key gets the game's unit1_.
    EXPECT_EQ(game::profileFor(factsOnly(bsp::Format::Quake2, true)).skybox, "env/unit1_");
    // Quake 1 goes back to its scrolling layers (no face); Quake 3 and Source keep theirs.
    for (bsp::Format f : {bsp::Format::Quake1, bsp::Format::Quake3, bsp::Format::Source})
        EXPECT_EQ(game::profileFor(factsOnly(f, true)).sky_fallback.face_size, 0);
}

// yquake2's GL3 renderer at its defaults and id's game code (game/quake2.cpp).
TEST(GameProfile, Quake2) {
    const game::GameProfile p =
        game::profileFor(factsOnly(bsp::Format::Quake2Qbsp, false, {{"sky", "unit1_"}}));
    const game::LightRule& l = p.rules.light;
    EXPECT_EQ(l.lightmap_scale, 1.3f);
    EXPECT_EQ(l.texture_scale, 1.5f);
    EXPECT_FLOAT_EQ(l.output_gamma, 1.0f / 1.2f);
    EXPECT_EQ(l.light_style_scale, 1.0f);
    EXPECT_EQ(l.texture_max, 0.0f);
    // A luxel of 255 per style, with or without light data (gl3_light.c GL3_BuildLightMap).
    EXPECT_EQ(l.unlit_faces, game::UnlitFaces::FullbrightEachStyle);
    EXPECT_EQ(p.rules.warp.amplitude, 4.0f / 64.0f);
    EXPECT_EQ(p.view.eye_height, 22.0f);
    EXPECT_EQ(p.skybox, "env/unit1_");
    EXPECT_EQ(p.entities.model_table, game::EntityModelTable::Quake2);
    EXPECT_EQ(p.entities.model_lighting, game::ModelLighting::LightPoint);
}

// The classic look, yquake2's GL1 renderer with vid_gamma 1 (game/quake2.cpp): textures
// doubled and saturated (gl1_intensity 2), the light as summed (r_modulate 1) and scaled down by
// its largest channel past 1, no curve; one full-bright luxel on a face without light data.
// Everything else is the default look's.
TEST(GameProfile, Quake2ClassicLook) {
    const bsp::Map map = factsOnly(bsp::Format::Quake2, true, {{"sky", "unit1_"}});
    const game::GameProfile p = game::profileFor(map, {game::Quake2Look::Classic});
    const game::LightRule& l = p.rules.light;
    EXPECT_EQ(l.lightmap_scale, 1.0f);
    EXPECT_EQ(l.light_normalize, 1);
    EXPECT_EQ(l.overbright, 0);
    EXPECT_EQ(l.texture_scale, 2.0f);
    EXPECT_EQ(l.texture_max, 1.0f);
    EXPECT_EQ(l.output_gamma, 1.0f);
    EXPECT_EQ(l.unlit_faces, game::UnlitFaces::Fullbright);
    EXPECT_EQ(p.skybox, "env/unit1_");
    EXPECT_EQ(p.rules.warp.amplitude, game::profileFor(map).rules.warp.amplitude);
    // Texel 100 doubled to 200 under a luxel of 128: 100.4; texel 200 saturates at 255 first:
    // 128. Light (2, 1, 0.5) (styles summed) keeps its hue: (1, 0.5, 0.25) times texel 255.
    EXPECT_NEAR(pixel(l, 100, 128), 200.0f * 128.0f / 255.0f, 1e-3f);
    EXPECT_NEAR(pixel(l, 200, 128), 128.0f, 1e-3f);
    const glm::vec3 hue = game::apply(l, glm::vec3(1.0f), glm::vec3(2.0f, 1.0f, 0.5f));
    EXPECT_NEAR(hue.g, 0.5f, 1e-6f);
    EXPECT_NEAR(hue.b, 0.25f, 1e-6f);
    // The other families ignore the option.
    const bsp::Map q1 = factsOnly(bsp::Format::Quake1, true);
    EXPECT_EQ(game::profileFor(q1, {game::Quake2Look::Classic}).rules.light.lightmap_scale,
              game::profileFor(q1).rules.light.lightmap_scale);
    // The option's names (the setting and --quake2-look).
    EXPECT_EQ(game::parseQuake2Look("classic"), game::Quake2Look::Classic);
    EXPECT_EQ(game::parseQuake2Look("yamagi"), game::Quake2Look::Yamagi);
    EXPECT_FALSE(game::parseQuake2Look("gl1"));
    EXPECT_EQ(game::quake2LookName(game::Quake2Look::Classic), "classic");
}

// ioquake3's opengl1 renderer with OpenArena's settings (game/quake3.cpp).
TEST(GameProfile, Quake3) {
    for (bsp::Format f : {bsp::Format::Quake3, bsp::Format::Quake3Rtcw, bsp::Format::Qfusion}) {
        const game::GameProfile p =
            game::profileFor(factsOnly(f, true, {{"sky", "x"}, {"skyname", "y"}}));
        const game::LightRule& l = p.rules.light;
        EXPECT_EQ(l.lightmap_scale, 2.0f);
        EXPECT_EQ(l.overbright, 1);
        EXPECT_EQ(l.mips_round_down, 1);
        EXPECT_EQ(l.unlit_faces, game::UnlitFaces::VertexColour);
        EXPECT_EQ(p.view.eye_height, 26.0f);
        EXPECT_EQ(p.skybox, ""); // the sky shader's skyParms name it
        EXPECT_EQ(p.entities.model_table, game::EntityModelTable::Quake3);
        EXPECT_EQ(p.entities.model_lighting, game::ModelLighting::LightGrid);
    }
}

// The Source SDK 2013 (game/source.cpp).
TEST(GameProfile, Source) {
    const game::GameProfile p =
        game::profileFor(factsOnly(bsp::Format::Source, true, {{"skyname", "sky_day01_01"}}));
    EXPECT_EQ(p.rules.light.lightmap_scale, 2.0f);
    EXPECT_EQ(p.rules.light.unlit_faces, game::UnlitFaces::Fullbright);
    EXPECT_EQ(p.view.eye_height, 64.0f);
    EXPECT_EQ(p.skybox, "skybox/sky_day01_01");
    EXPECT_TRUE(p.mount.embedded_archive_first);
    EXPECT_EQ(p.materials.files, game::MaterialFiles::ValveMaterials);
    EXPECT_EQ(p.entities.model_table, game::EntityModelTable::SourceProps);
    // Without any lighting lump the textures show as they are (mat_fullbright's look): 1x.
    EXPECT_EQ(game::profileFor(factsOnly(bsp::Format::Source, false)).rules.light.lightmap_scale,
              1.0f);
}

// Source's 3D sky box: the last sky_camera's origin, scale and fog keys (game/source.cpp).
TEST(GameProfile, SourceSkyCameraBecomesTheSkyRegion) {
    bsp::Map m = factsOnly(bsp::Format::Source, true);
    EXPECT_FALSE(game::profileFor(m).sky_region) << "no sky_camera: no region";
    bsp::Entity first;
    first.pairs = {{"classname", "sky_camera"}, {"origin", "1 2 3"}, {"scale", "8"}};
    bsp::Entity last;
    last.pairs = {{"classname", "sky_camera"}, {"origin", "-512 256 -1024"}, {"scale", "16"},
                  {"fogenable", "1"},          {"fogcolor", "255 51 300"},   {"fogstart", "500"},
                  {"fogend", "2000.5"},        {"fogmaxdensity", "0.75"}};
    m.entities.push_back(first);
    m.entities.push_back(last);
    const auto r = game::profileFor(m).sky_region;
    ASSERT_TRUE(r);
    EXPECT_EQ(r->origin, glm::vec3(-512.0f, 256.0f, -1024.0f)) << "the last sky_camera wins";
    EXPECT_EQ(r->scale, 16.0f);
    EXPECT_TRUE(r->fog.enabled);
    // 300 kept in a byte: 300 - 256 = 44.
    EXPECT_EQ(r->fog.colour, glm::vec3(1.0f, 51.0f / 255.0f, 44.0f / 255.0f));
    EXPECT_EQ(r->fog.start, 500.0f);
    EXPECT_EQ(r->fog.end, 2000.5f);
    EXPECT_EQ(r->fog.max_density, 0.75f);
    EXPECT_FALSE(r->fog.blend);
    EXPECT_FALSE(r->fog.radial);
}

// Source's world fog: the master env_fog_controller (game/source.cpp worldFog): the first
// controller in entity order, replaced by any later one flagged master (spawnflags 1).
TEST(GameProfile, SourceWorldFogIsTheMasterFogController) {
    bsp::Map m = factsOnly(bsp::Format::Source, true);
    EXPECT_FALSE(game::profileFor(m).rules.linear_fog.enabled) << "no controller: no fog";
    bsp::Entity first, plain, master;
    first.pairs = {{"classname", "env_fog_controller"},
                   {"fogenable", "1"},
                   {"fogcolor", "10 20 30"},
                   {"fogstart", "64"},
                   {"fogend", "1024"},
                   {"fogmaxdensity", "0.5"}};
    plain.pairs = {{"classname", "env_fog_controller"}, {"fogenable", "1"}, {"fogend", "9"}};
    master.pairs = {{"classname", "env_fog_controller"},
                    {"spawnflags", "1"},
                    {"fogenable", "1"},
                    {"fogradial", "1"},
                    {"fogcolor", "255 0 0"},
                    {"fogcolor2", "0 0 255"},
                    {"fogblend", "1"},
                    {"fogdir", "0 0 2"},
                    {"fogstart", "128"},
                    {"fogend", "512.5"}};
    m.entities.push_back(first);
    m.entities.push_back(plain);
    game::LinearFog fog = game::profileFor(m).rules.linear_fog;
    EXPECT_TRUE(fog.enabled);
    EXPECT_EQ(fog.colour, glm::vec3(10.0f, 20.0f, 30.0f) / 255.0f) << "the first one, no master";
    EXPECT_EQ(fog.start, 64.0f);
    EXPECT_EQ(fog.end, 1024.0f);
    EXPECT_EQ(fog.max_density, 0.5f);
    EXPECT_FALSE(fog.radial);
    EXPECT_FALSE(fog.blend);
    m.entities.push_back(master);
    fog = game::profileFor(m).rules.linear_fog;
    EXPECT_EQ(fog.colour, glm::vec3(1.0f, 0.0f, 0.0f)) << "a later master wins";
    EXPECT_EQ(fog.colour2, glm::vec3(0.0f, 0.0f, 1.0f));
    EXPECT_EQ(fog.start, 128.0f);
    EXPECT_EQ(fog.end, 512.5f);
    EXPECT_EQ(fog.max_density, 1.0f) << "the constructor's 1";
    EXPECT_TRUE(fog.radial);
    EXPECT_TRUE(fog.blend);
    // Blend: the primary colour looking along fogdir, the secondary looking against it, half
    // of each across it (GetFogColor: 0.5 dot(forward, dir) + 0.5).
    EXPECT_EQ(game::fogColourFor(fog, {0, 0, 1}), glm::vec3(1.0f, 0.0f, 0.0f));
    EXPECT_EQ(game::fogColourFor(fog, {0, 0, -1}), glm::vec3(0.0f, 0.0f, 1.0f));
    EXPECT_EQ(game::fogColourFor(fog, {1, 0, 0}), glm::vec3(0.5f, 0.0f, 0.5f));
    // Other families ignore the entity.
    bsp::Map q3 = factsOnly(bsp::Format::Quake3, true);
    q3.entities.push_back(first);
    EXPECT_FALSE(game::profileFor(q3).rules.linear_fog.enabled);
}

// use_angles: the blend direction is the reverse of the entity's forward (Activate).
TEST(GameProfile, SourceFogUseAnglesPointsAgainstTheForward) {
    bsp::Map m = factsOnly(bsp::Format::Source, true);
    bsp::Entity fog;
    fog.pairs = {{"classname", "env_fog_controller"},
                 {"fogenable", "1"},
                 {"fogblend", "1"},
                 {"use_angles", "1"},
                 {"angles", "0 90 0"},
                 {"fogdir", "1 0 0"}};
    m.entities.push_back(fog);
    const glm::vec3 d = game::profileFor(m).rules.linear_fog.direction;
    EXPECT_NEAR(d.x, 0.0f, 1e-6f);
    EXPECT_NEAR(d.y, -1.0f, 1e-6f) << "yaw 90 looks along +y; the fog's colour is seen against it";
    EXPECT_NEAR(d.z, 0.0f, 1e-6f);
}

TEST(GameProfile, SourceSkyCameraDefaults) {
    bsp::Map m = factsOnly(bsp::Format::Source, true);
    bsp::Entity cam;
    cam.pairs = {{"classname", "sky_camera"}, {"scale", "-4"}, {"fogcolor", "10 20"}};
    m.entities.push_back(cam);
    const auto r = game::profileFor(m).sky_region;
    ASSERT_TRUE(r);
    EXPECT_EQ(r->origin, glm::vec3(0.0f));
    EXPECT_EQ(r->scale, 1.0f) << "a scale of 0 or below leaves the eye unscaled";
    EXPECT_FALSE(r->fog.enabled);
    EXPECT_EQ(r->fog.colour, glm::vec3(10.0f / 255.0f, 20.0f / 255.0f, 0.0f));
    EXPECT_EQ(r->fog.max_density, 1.0f);
    // Other families have no 3D sky, whatever their entities say.
    bsp::Map q3 = factsOnly(bsp::Format::Quake3, true);
    q3.entities.push_back(cam);
    EXPECT_FALSE(game::profileFor(q3).sky_region);
}

// The region's eye: origin + eye / scale, worked out by hand.
TEST(GameProfile, SkyRegionEye) {
    game::SkyRegion r;
    r.origin = {-512.0f, 256.0f, -1024.0f};
    r.scale = 16.0f;
    // World eye (160, -320, 64) / 16 = (10, -20, 4), plus the origin.
    EXPECT_EQ(game::skyRegionEye(r, {160.0f, -320.0f, 64.0f}),
              glm::vec3(-502.0f, 236.0f, -1020.0f));
    EXPECT_EQ(game::skyRegionEye(r, glm::vec3(0.0f)), r.origin);
    r.scale = 1.0f;
    EXPECT_EQ(game::skyRegionEye(r, {1.0f, 2.0f, 3.0f}), glm::vec3(-511.0f, 258.0f, -1021.0f));
}

// The facts come from the parsers: a Quake 1 map with and without a lighting lump, a Half-Life
// map, a Quake 2 map.
TEST(GameProfile, FromParsedMaps) {
    q1test::Q1Options o;
    EXPECT_EQ(game::profileFor(parsed(q1test::buildQ1(o))).rules.light.unlit_faces,
              game::UnlitFaces::Black);
    o.lighting = false;
    EXPECT_EQ(game::profileFor(parsed(q1test::buildQ1(o))).rules.light.unlit_faces,
              game::UnlitFaces::Fullbright);
    o = {};
    o.half_life = true;
    o.entities =
        "{\n\"classname\" \"worldspawn\"\n\"wad\" \"\\\\sierra\\\\valve\\\\halflife.wad\"\n}\n";
    const game::GameProfile hl = game::profileFor(parsed(q1test::buildQ1(o)));
    EXPECT_EQ(hl.family, game::Family::HalfLife);
    EXPECT_EQ(hl.materials.wads, std::vector<std::string>{"halflife.wad"});
    EXPECT_EQ(game::profileFor(parsed(q2test::buildQ2())).family, game::Family::Quake2);
}

// apply() on the values docs/fidelity.md works out by hand from each engine.
TEST(GameProfile, ApplyGivesTheEnginesPixels) {
    const auto ruleOf = [](bsp::Format f) {
        return game::profileFor(factsOnly(f, true)).rules.light;
    };
    // Quake 1: 100 * 128 / 255 * 2 * 264 / 256 = 103.5; a luxel of 250 saturates at 2: 200.
    EXPECT_NEAR(pixel(ruleOf(bsp::Format::Quake1), 100, 128), 103.53f, 0.01f);
    EXPECT_NEAR(pixel(ruleOf(bsp::Format::Quake1), 100, 250), 200.0f, 1e-3f);
    // Half-Life: palette colour 128 is loaded through texgammatable as int(146.93) = 146, times
    // 128 / 255 * 264 / 256 * 338 / 256 = 0.68345: 99.78; a luxel of 200 passes the clamp,
    // light 1: palette colour 64 -> texel 84 -> 84.
    const game::PaletteTable hl_table =
        game::profileFor(factsOnly(bsp::Format::HalfLife, true)).materials.palette_table.value();
    EXPECT_NEAR(pixel(ruleOf(bsp::Format::HalfLife), hl_table[128], 128), 99.78f, 0.01f);
    EXPECT_NEAR(pixel(ruleOf(bsp::Format::HalfLife), hl_table[64], 200), 84.0f, 1e-3f);
    // Quake 2: (100 / 255 * 1.5 * 128 / 255 * 1.3)^(1 / 1.2) = 0.450270 -> 114.8.
    EXPECT_NEAR(pixel(ruleOf(bsp::Format::Quake2), 100, 128) / 255.0f, 0.450270f, 1e-5f);
    // Quake 3: luxel (200, 100, 50) shifted to (400, 200, 100), scaled down by 400 / 255 to keep
    // its hue, then doubled by the display: texel 128 gives (256, 128, 64) of 255, clamped.
    const glm::vec3 q3 = game::apply(ruleOf(bsp::Format::Quake3), glm::vec3(128.0f / 255.0f),
                                     glm::vec3(200.0f, 100.0f, 50.0f) / 255.0f) *
                         255.0f;
    EXPECT_NEAR(q3.r, 255.0f, 1e-3f);
    EXPECT_NEAR(q3.g, 128.0f, 1e-3f);
    EXPECT_NEAR(q3.b, 64.0f, 1e-3f);
    // Source: the 2x overbright alone.
    EXPECT_NEAR(pixel(ruleOf(bsp::Format::Source), 100, 64), 100.0f * 128.0f / 255.0f, 1e-3f);
}

// apply() is the product of its texel part and its light part (what the exporter writes),
// clamped at 1, for every family and a grid of texels and lights.
TEST(GameProfile, ApplyIsTexelPartTimesLightPart) {
    for (bsp::Format f : {bsp::Format::Quake1, bsp::Format::HalfLife, bsp::Format::Quake2,
                          bsp::Format::Quake3, bsp::Format::Source}) {
        for (game::Quake2Look look : {game::Quake2Look::Yamagi, game::Quake2Look::Classic}) {
            const game::LightRule r = game::profileFor(factsOnly(f, true), {look}).rules.light;
            for (int t = 0; t <= 255; t += 15)
                for (int l = 0; l <= 255; l += 15) {
                    const glm::vec3 tv(t / 255.0f), lv(l / 255.0f, l / 510.0f, 1.0f - l / 255.0f);
                    const glm::vec3 want = game::apply(r, tv, lv);
                    const glm::vec3 got =
                        glm::min(game::texelPart(r, tv) * game::lightPart(r, lv), glm::vec3(1.0f));
                    for (int c = 0; c < 3; ++c)
                        EXPECT_NEAR(got[c], want[c], 1e-5f)
                            << bsp::formatName(f) << " t " << t << " l " << l << " channel " << c;
                }
        }
    }
}

// GoldSrc's render keys, read once (game::halfLifeRenderKeys): modes 0..5, renderamt clamped to
// 0..255, rendercolor clamped per channel; anything else is normal.
TEST(GameProfile, HalfLifeRenderKeys) {
    const auto keys = [](Keys kv) {
        bsp::Entity e;
        e.pairs = std::move(kv);
        return game::halfLifeRenderKeys(e);
    };
    EXPECT_EQ(keys({}).mode, game::RenderMode::Normal);
    EXPECT_EQ(keys({}).amount, 0.0f);
    EXPECT_FALSE(keys({}).colour);
    EXPECT_EQ(keys({{"rendermode", "1"}}).mode, game::RenderMode::Colour);
    EXPECT_EQ(keys({{"rendermode", "3"}}).mode, game::RenderMode::Glow);
    EXPECT_EQ(keys({{"rendermode", "5"}}).mode, game::RenderMode::Additive);
    EXPECT_EQ(keys({{"rendermode", "6"}}).mode, game::RenderMode::Normal);
    EXPECT_EQ(keys({{"rendermode", "-1"}}).mode, game::RenderMode::Normal);
    EXPECT_EQ(keys({{"rendermode", "nan"}}).mode, game::RenderMode::Normal);
    EXPECT_EQ(keys({{"renderamt", "510"}}).amount, 1.0f);
    EXPECT_EQ(keys({{"renderamt", "51"}}).amount, 0.2f);
    EXPECT_EQ(keys({{"renderamt", "nan"}}).amount, 0.0f);
    EXPECT_EQ(keys({{"rendercolor", "255 -5 510"}}).colour, glm::vec3(1.0f, 0.0f, 1.0f));
}

// Half-Life brush entities as Xash3D draws them (game::spawnBrushModels): the parser only binds
// the entity; the game layer reads its render keys into the submodel.
TEST(GameProfile, HalfLifeBrushRenderModesAtSpawn) {
    q1test::Q1Builder b;
    b.half_life = true;
    b.models.push_back({{{{-512, -512, -64}, {512, 512, -48}}}, "", {}});
    const q1test::Box box{{0, 0, 0}, {64, 64, 64}};
    b.models.push_back({{box},
                        "func_wall",
                        {{"rendermode", "1"}, {"renderamt", "102"}, {"rendercolor", "255 0 0"}}});
    b.models.push_back({{box}, "func_wall", {{"rendermode", "2"}, {"renderamt", "0"}}});
    b.models.push_back({{box}, "func_wall", {{"rendermode", "4"}}});
    b.models.push_back({{box}, "func_wall", {{"rendermode", "5"}, {"renderamt", "255"}}});
    bsp::Map m = parsed(b.build());
    ASSERT_EQ(m.submodels.size(), 5u);
    for (size_t i = 1; i < 5; ++i) // as parsed: bound to its entity, not yet blended
        EXPECT_EQ(m.submodels[i].blend, bsp::BlendMode::Opaque) << i;
    game::spawnBrushModels(game::profileFor(m), m);
    const bsp::Submodel& colour = m.submodels[1];
    EXPECT_EQ(colour.blend, bsp::BlendMode::Alpha);
    EXPECT_FLOAT_EQ(colour.alpha, 0.4f);
    EXPECT_EQ(colour.colour, glm::vec3(1.0f, 0.0f, 0.0f));
    EXPECT_FALSE(colour.lightmapped);
    EXPECT_FALSE(colour.textured);
    EXPECT_FALSE(m.submodels[2].visible); // a render mode at amount 0 is not drawn
    EXPECT_EQ(m.submodels[3].blend, bsp::BlendMode::AlphaTest);
    EXPECT_TRUE(m.submodels[3].lightmapped);
    EXPECT_EQ(m.submodels[4].blend, bsp::BlendMode::Additive);
    EXPECT_FALSE(m.submodels[4].lightmapped);
    EXPECT_TRUE(m.submodels[4].visible);
}

// Source's farz: the main view's far plane, the master env_fog_controller's key
// (game/source.cpp worldFarPlane; game/client/view.cpp CViewRender::GetZFar uses it when above
// 0). Absent, 0 or negative: the viewer's own (0). Not a number: read as atof reads it, with a
// warning naming the key and the entity. fogenable 0 keeps it: GetZFar does not look at fog.
TEST(GameProfile, SourceFarzIsTheMasterFogControllersFarPlane) {
    bsp::Map m = factsOnly(bsp::Format::Source, true);
    const auto farz = [&](std::vector<std::pair<std::string, std::string>> keys) {
        bsp::Entity world, fog;
        world.pairs = {{"classname", "worldspawn"}};
        fog.pairs = {{"classname", "env_fog_controller"}};
        fog.pairs.insert(fog.pairs.end(), keys.begin(), keys.end());
        fog.pairs.push_back({"fogenable", "1"}); // unless `keys` gave it (the first one counts)
        m.entities = {world, fog};
        return game::profileFor(m);
    };
    m.entities.clear();
    EXPECT_EQ(game::profileFor(m).view.far_plane, 0.0f) << "no controller";
    game::GameProfile p = farz({{"farz", "1000"}});
    EXPECT_EQ(p.view.far_plane, 1000.0f);
    EXPECT_TRUE(p.warnings.empty());
    EXPECT_EQ(farz({}).view.far_plane, 0.0f) << "absent";
    EXPECT_EQ(farz({{"farz", "0"}}).view.far_plane, 0.0f);
    EXPECT_EQ(farz({{"farz", "-1"}}).view.far_plane, 0.0f) << "the FGD's -1: no far plane";
    EXPECT_EQ(farz({{"farz", " 2500.5 "}}).view.far_plane, 2500.5f);
    EXPECT_TRUE(farz({{"farz", " 2500.5 "}}).warnings.empty()) << "blanks around a number";
    p = farz({{"farz", "1000"}, {"fogenable", "0"}});
    EXPECT_EQ(p.view.far_plane, 1000.0f) << "fog off keeps farz";
    EXPECT_FALSE(p.rules.linear_fog.enabled);

    p = farz({{"farz", "far"}});
    EXPECT_EQ(p.view.far_plane, 0.0f) << "atof: 0";
    ASSERT_EQ(p.warnings.size(), 1u);
    EXPECT_EQ(p.warnings[0],
              "entity 1 (env_fog_controller): key farz \"far\" is not a number; read as 0");
    p = farz({{"farz", "1500units"}});
    EXPECT_EQ(p.view.far_plane, 1500.0f) << "atof: the leading number";
    ASSERT_EQ(p.warnings.size(), 1u);
    EXPECT_EQ(p.warnings[0], "entity 1 (env_fog_controller): key farz \"1500units\" is not a "
                             "number; read as 1500");
    p = farz({{"farz", "1e60"}});
    EXPECT_EQ(p.view.far_plane, 0.0f) << "not finite";
    EXPECT_EQ(p.warnings.size(), 1u);

    // The master controller's farz: a later controller flagged master (spawnflags 1) wins, one
    // not flagged does not.
    bsp::Entity world, first, plain, master;
    world.pairs = {{"classname", "worldspawn"}};
    first.pairs = {{"classname", "env_fog_controller"}, {"farz", "800"}};
    plain.pairs = {{"classname", "env_fog_controller"}, {"farz", "900"}};
    master.pairs = {{"classname", "env_fog_controller"}, {"spawnflags", "1"}, {"farz", "x"}};
    m.entities = {world, first, plain};
    EXPECT_EQ(game::profileFor(m).view.far_plane, 800.0f);
    m.entities.push_back(master);
    p = game::profileFor(m);
    EXPECT_EQ(p.view.far_plane, 0.0f);
    ASSERT_EQ(p.warnings.size(), 1u);
    EXPECT_EQ(p.warnings[0], "entity 3 (env_fog_controller): key farz \"x\" is not a number; "
                             "read as 0")
        << "only the master's key is read";
    // Other families ignore the entity.
    bsp::Map q3 = factsOnly(bsp::Format::Quake3, true);
    q3.entities = {world, first};
    EXPECT_EQ(game::profileFor(q3).view.far_plane, 0.0f);
}
