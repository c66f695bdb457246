// The draw-state table (scene/world/draw_state.h, scene/models/model_draw_state.h): every
// game's way of saying how a thing is blended maps to one exact scene::DrawState.
#include "content/material/q3_shader.h"
#include "scene/models/half_life_keys.h"
#include "scene/models/model_draw_state.h"
#include "scene/world/draw_state.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using scene::Blend;
using scene::DrawOrder;
using scene::DrawState;
using scene::Lighting;

// A state written out field by field: order, blend, depth test, depth write, cull, alpha test,
// lighting.
DrawState state(DrawOrder order, Blend blend, bool depth_test, bool depth_write, bool cull,
                bool alpha_test, Lighting lighting) {
    return {order, blend, depth_test, depth_write, cull, alpha_test, lighting};
}

const DrawState kOpaque =
    state(DrawOrder::Opaque, Blend::Off, true, true, true, false, Lighting::Lit);

std::string describe(const DrawState& s) {
    return std::string(s.order == DrawOrder::Opaque ? "opaque" : "blended") + " blend " +
           scene::blendName(s.blend) + (s.depth_test ? " test" : " no-test") +
           (s.depth_write ? " write" : " no-write") + (s.cull ? " cull" : " two-sided") +
           (s.alpha_test ? " cut" : "") + (s.lighting == Lighting::Unlit ? " unlit" : " lit") +
           (s.at_far_plane ? " far" : "");
}

#define EXPECT_STATE(actual, expected)                                                             \
    EXPECT_EQ(actual, expected) << describe(actual) << " != " << describe(expected)

scene::ResolvedMaterial material(uint32_t flags, scene::Pass pass) {
    scene::ResolvedMaterial m;
    m.flags = flags;
    m.pass = pass;
    return m;
}

// A Half-Life entity with rendermode `mode` and renderamt `amount`.
bsp::Entity halfLife(const char* classname, int mode, int amount) {
    bsp::Entity e;
    e.pairs = {{"classname", classname},
               {"rendermode", std::to_string(mode)},
               {"renderamt", std::to_string(amount)},
               {"rendercolor", "255 128 0"}};
    return e;
}

// The instance applyHalfLifeKeys makes of `e` on a studio model.
scene::EntityModelInstance studioInstance(const bsp::Entity& e) {
    scene::LoadedModel model;
    model.studio = true;
    model.mesh.emplace();
    scene::EntityModelInstance inst;
    scene::applyHalfLifeKeys(e, model, inst);
    return inst;
}

// HLSDK common/const.h kRender*.
enum : int {
    kRenderNormal = 0,
    kRenderTransColor = 1,
    kRenderTransTexture = 2,
    kRenderGlow = 3,
    kRenderTransAlpha = 4,
    kRenderTransAdd = 5,
};

TEST(DrawStateWorld, OpaqueAlphaTestAndSky) {
    const scene::ResolvedMaterial wall = material(0, scene::Pass::Opaque);
    EXPECT_STATE(scene::worldBatchDrawState(scene::Pass::Opaque, &wall, nullptr, 1.0f), kOpaque);
    EXPECT_STATE(scene::worldBatchDrawState(scene::Pass::Opaque, nullptr, nullptr, 1.0f), kOpaque);
    const scene::ResolvedMaterial fence = material(bsp::kSurfAlphaTest, scene::Pass::AlphaTest);
    EXPECT_STATE(scene::worldBatchDrawState(scene::Pass::AlphaTest, &fence, nullptr, 1.0f),
                 state(DrawOrder::Opaque, Blend::Off, true, true, true, true, Lighting::Lit));
    // The sky is seen from inside; Source's is drawn at the far plane (game::SkyDepth).
    const scene::ResolvedMaterial sky = material(bsp::kSurfSky, scene::Pass::Sky);
    const DrawState quake_sky =
        state(DrawOrder::Opaque, Blend::Off, true, true, false, false, Lighting::Lit);
    EXPECT_STATE(scene::worldBatchDrawState(scene::Pass::Sky, &sky, nullptr, 1.0f), quake_sky);
    DrawState source_sky = quake_sky;
    source_sky.at_far_plane = true;
    EXPECT_STATE(scene::worldBatchDrawState(scene::Pass::Sky, &sky, nullptr, 1.0f, true),
                 source_sky);
    EXPECT_FALSE(quake_sky == source_sky);
    // The sky rule touches only the sky.
    EXPECT_STATE(scene::worldBatchDrawState(scene::Pass::Opaque, &wall, nullptr, 1.0f, true),
                 kOpaque);
}

TEST(DrawStateWorld, LiquidsAndTranslucentSurfaces) {
    const DrawState blended =
        state(DrawOrder::Blended, Blend::Alpha, true, false, true, false, Lighting::Lit);
    // Quake 1 water at full opacity stays opaque in its pass; at the liquid option's 0.5 it blends.
    const scene::ResolvedMaterial water = material(bsp::kSurfLiquid, scene::Pass::Liquid);
    DrawState opaque_water = kOpaque;
    opaque_water.order = DrawOrder::Blended;
    EXPECT_STATE(scene::worldBatchDrawState(scene::Pass::Liquid, &water, nullptr, 1.0f),
                 opaque_water);
    EXPECT_STATE(scene::worldBatchDrawState(scene::Pass::Liquid, &water, nullptr, 0.5f), blended);
    // Quake 2 SURF_TRANS33 and a Quake 3 shader that blends: alpha; one that adds: added by alpha.
    const scene::ResolvedMaterial glass = material(bsp::kSurfTranslucent, scene::Pass::Translucent);
    EXPECT_STATE(scene::worldBatchDrawState(scene::Pass::Translucent, &glass, nullptr, 1.0f),
                 blended);
    const scene::ResolvedMaterial flame =
        material(bsp::kSurfAdditive | bsp::kSurfNoCull, scene::Pass::Translucent);
    EXPECT_STATE(
        scene::worldBatchDrawState(scene::Pass::Translucent, &flame, nullptr, 1.0f),
        state(DrawOrder::Blended, Blend::AlphaAdd, true, false, false, false, Lighting::Lit));
}

TEST(DrawStateWorld, OpacityOfABatch) {
    scene::ResolvedMaterial water = material(bsp::kSurfLiquid, scene::Pass::Liquid);
    EXPECT_FLOAT_EQ(scene::worldBatchOpacity(scene::Pass::Liquid, &water, nullptr, 0.5f), 0.5f);
    scene::ResolvedMaterial glass = material(bsp::kSurfTranslucent, scene::Pass::Translucent);
    glass.alpha = 0.4f; // the liquid option leaves it alone
    EXPECT_FLOAT_EQ(scene::worldBatchOpacity(scene::Pass::Translucent, &glass, nullptr, 0.5f),
                    0.4f);
    bsp::Submodel door;
    door.alpha = 0.5f; // an opaque brush model's renderamt does not count
    EXPECT_FLOAT_EQ(scene::worldBatchOpacity(scene::Pass::Translucent, &glass, &door, 1.0f), 0.4f);
    door.blend = bsp::BlendMode::Alpha;
    EXPECT_FLOAT_EQ(scene::worldBatchOpacity(scene::Pass::Translucent, &glass, &door, 1.0f), 0.2f);
    EXPECT_FLOAT_EQ(scene::worldBatchOpacity(scene::Pass::Opaque, &glass, &door, 0.5f), 1.0f);
    EXPECT_FLOAT_EQ(scene::worldBatchOpacity(scene::Pass::Liquid, nullptr, nullptr, 0.5f), 1.0f);
}

// Quake 3 shader scripts through the material table: the first stage's blendFunc and alphaFunc,
// `cull none` and the sky pick the batch's state (the stage path then blends each stage by its
// own factors; `sort` orders blended batches in scene::Visibility and is no part of the state).
TEST(DrawStateWorld, Quake3ShaderScripts) {
    content::ShaderLibrary shaders;
    shaders.addScript(
        content::parseShaderScript("textures/t/add { sort 9\n{ map a\nblendfunc add } }\n"
                                   "textures/t/glass { cull none\n"
                                   "{ map g\nblendfunc blend } }\n"
                                   "textures/t/grate { cull none\n"
                                   "{ map g\nalphafunc GE128\ndepthwrite } }\n"
                                   "textures/t/sky { skyparms env/s 512 -\n}\n",
                                   "scripts/t.shader"));
    bsp::Map map;
    for (const char* name : {"textures/t/add", "textures/t/glass", "textures/t/grate",
                             "textures/t/sky", "textures/t/plain"}) {
        bsp::Material m;
        m.name = name;
        map.materials.push_back(m);
    }
    const scene::MaterialTable table = scene::resolveMaterials(map, &shaders);
    ASSERT_EQ(table.size(), 5u);
    const auto resolved = [&](size_t i) {
        return scene::worldBatchDrawState(
            table[i].pass, &table[i], nullptr,
            scene::worldBatchOpacity(table[i].pass, &table[i], nullptr, 1.0f));
    };
    EXPECT_STATE(resolved(0), state(DrawOrder::Blended, Blend::AlphaAdd, true, false, true, false,
                                    Lighting::Lit));
    EXPECT_STATE(resolved(1),
                 state(DrawOrder::Blended, Blend::Alpha, true, false, false, false, Lighting::Lit));
    EXPECT_STATE(resolved(2),
                 state(DrawOrder::Opaque, Blend::Off, true, true, false, true, Lighting::Lit));
    EXPECT_STATE(resolved(3),
                 state(DrawOrder::Opaque, Blend::Off, true, true, false, false, Lighting::Lit));
    EXPECT_STATE(resolved(4), kOpaque);
}

TEST(DrawStateWorld, HalfLifeBrushModels) {
    const scene::ResolvedMaterial wall = material(0, scene::Pass::Translucent);
    bsp::Submodel texture; // kRenderTransTexture: blended by renderamt, no lightmap
    texture.blend = bsp::BlendMode::Alpha;
    texture.alpha = 0.5f;
    texture.lightmapped = false;
    EXPECT_STATE(
        scene::worldBatchDrawState(scene::Pass::Translucent, &wall, &texture, 0.5f),
        state(DrawOrder::Blended, Blend::Alpha, true, false, true, false, Lighting::Unlit));
    bsp::Submodel additive; // kRenderTransAdd
    additive.blend = bsp::BlendMode::Additive;
    additive.lightmapped = false;
    EXPECT_STATE(
        scene::worldBatchDrawState(scene::Pass::Translucent, &wall, &additive, 1.0f),
        state(DrawOrder::Blended, Blend::AlphaAdd, true, false, true, false, Lighting::Unlit));
    bsp::Submodel solid; // kRenderTransAlpha: the alpha-test pass, lit
    solid.blend = bsp::BlendMode::AlphaTest;
    const scene::ResolvedMaterial cut = material(0, scene::Pass::AlphaTest);
    EXPECT_STATE(scene::worldBatchDrawState(scene::Pass::AlphaTest, &cut, &solid, 1.0f),
                 state(DrawOrder::Opaque, Blend::Off, true, true, true, true, Lighting::Lit));
}

TEST(DrawStateWorld, OverdrawAddsEverythingWithoutDepthTest) {
    const scene::ResolvedMaterial sky = material(bsp::kSurfSky, scene::Pass::Sky);
    const DrawState s = scene::worldBatchDrawState(scene::Pass::Sky, &sky, nullptr, 1.0f);
    EXPECT_STATE(scene::overdrawState(s, false),
                 state(DrawOrder::Opaque, Blend::Add, false, true, true, false, Lighting::Lit));
    EXPECT_STATE(scene::overdrawState(kOpaque, true),
                 state(DrawOrder::Opaque, Blend::Add, false, true, false, false, Lighting::Lit));
}

TEST(DrawStateModels, HalfLifeRenderModesOnStudioModels) {
    const content::ModelDrawRange plain{};
    EXPECT_STATE(
        scene::modelRangeDrawState(studioInstance(halfLife("cycler", kRenderNormal, 0)), plain),
        kOpaque);
    const DrawState alpha =
        state(DrawOrder::Blended, Blend::Alpha, true, false, true, false, Lighting::Lit);
    for (int mode : {kRenderTransColor, kRenderTransTexture, kRenderTransAlpha}) {
        const scene::EntityModelInstance inst = studioInstance(halfLife("cycler", mode, 51));
        EXPECT_STATE(scene::modelRangeDrawState(inst, plain), alpha) << "mode " << mode;
        EXPECT_FLOAT_EQ(scene::modelOpacity(inst), 0.2f) << "mode " << mode;
    }
    // Additive and glow add by the amount, full bright (R_StudioDrawPoints, applyHalfLifeKeys).
    const DrawState added =
        state(DrawOrder::Blended, Blend::AlphaAdd, true, false, true, false, Lighting::Unlit);
    for (int mode : {kRenderTransAdd, kRenderGlow}) {
        const scene::EntityModelInstance inst = studioInstance(halfLife("cycler", mode, 255));
        EXPECT_STATE(scene::modelRangeDrawState(inst, plain), added) << "mode " << mode;
        EXPECT_FLOAT_EQ(scene::modelOpacity(inst), 1.0f);
    }
}

TEST(DrawStateModels, StudioTextureFlags) {
    const scene::EntityModelInstance normal = studioInstance(halfLife("cycler", kRenderNormal, 0));
    // STUDIO_NF_ADDITIVE: added after the opaque models; STUDIO_NF_MASKED: cut, opaque.
    content::ModelDrawRange additive;
    additive.additive = true;
    EXPECT_STATE(scene::modelRangeDrawState(normal, additive),
                 state(DrawOrder::Blended, Blend::Add, true, false, true, false, Lighting::Lit));
    content::ModelDrawRange masked;
    masked.masked = true;
    EXPECT_STATE(scene::modelRangeDrawState(normal, masked),
                 state(DrawOrder::Opaque, Blend::Off, true, true, true, true, Lighting::Lit));
    // An additive texture on a blended entity adds by the entity's amount.
    const scene::EntityModelInstance texture =
        studioInstance(halfLife("cycler", kRenderTransTexture, 128));
    EXPECT_STATE(
        scene::modelRangeDrawState(texture, additive),
        state(DrawOrder::Blended, Blend::AlphaAdd, true, false, true, false, Lighting::Lit));
    EXPECT_EQ(scene::modelRangeDrawStates(normal, {additive, masked, {}}),
              (std::vector<DrawState>{scene::modelRangeDrawState(normal, additive),
                                      scene::modelRangeDrawState(normal, masked), kOpaque}));
}

TEST(DrawStateModels, SourceMaterialFlags) {
    // The range flags scene::resolvePropMaterials sets from a prop's .vmt: $translucent,
    // $additive, $alphatest, $nocull, UnlitGeneric.
    const scene::EntityModelInstance prop;
    content::ModelDrawRange translucent;
    translucent.translucent = true;
    EXPECT_STATE(scene::modelRangeDrawState(prop, translucent),
                 state(DrawOrder::Blended, Blend::Alpha, true, false, true, false, Lighting::Lit));
    content::ModelDrawRange additive;
    additive.additive = true;
    EXPECT_STATE(scene::modelRangeDrawState(prop, additive),
                 state(DrawOrder::Blended, Blend::Add, true, false, true, false, Lighting::Lit));
    content::ModelDrawRange leaves;
    leaves.masked = true;
    leaves.two_sided = true;
    leaves.unlit = true;
    EXPECT_STATE(scene::modelRangeDrawState(prop, leaves),
                 state(DrawOrder::Opaque, Blend::Off, true, true, false, true, Lighting::Unlit));
    EXPECT_FLOAT_EQ(scene::modelOpacity(prop), 1.0f);
}

TEST(DrawStateModels, Quake3AdditiveShaderAddsEveryRange) {
    scene::EntityModelInstance sphere; // a health sphere: its .md3 shader blends GL_ONE GL_ONE
    sphere.additive = true;
    sphere.fullbright = true;
    content::ModelDrawRange masked;
    masked.masked = true;
    const DrawState added =
        state(DrawOrder::Blended, Blend::Add, true, false, true, false, Lighting::Unlit);
    EXPECT_STATE(scene::modelRangeDrawState(sphere, {}), added);
    DrawState cut = added;
    cut.alpha_test = true;
    EXPECT_STATE(scene::modelRangeDrawState(sphere, masked), cut);
    EXPECT_FLOAT_EQ(scene::modelOpacity(sphere), 1.0f);
}

TEST(DrawStateSprites, FileFormats) {
    using content::SpriteRenderMode;
    const scene::ModelRenderMode normal;
    const DrawState base =
        state(DrawOrder::Opaque, Blend::Off, true, true, false, false, Lighting::Unlit);
    EXPECT_STATE(scene::spriteDrawState(normal, SpriteRenderMode::Normal), base);
    DrawState cut = base;
    cut.alpha_test = true;
    EXPECT_STATE(scene::spriteDrawState(normal, SpriteRenderMode::AlphaTest), cut);
    EXPECT_STATE(scene::spriteDrawState(normal, SpriteRenderMode::Additive),
                 state(DrawOrder::Blended, Blend::Add, true, false, false, false, Lighting::Unlit));
    EXPECT_STATE(
        scene::spriteDrawState(normal, SpriteRenderMode::IndexAlpha),
        state(DrawOrder::Blended, Blend::Alpha, true, false, false, false, Lighting::Unlit));
    EXPECT_FLOAT_EQ(scene::spriteOpacity(normal), 1.0f);
    EXPECT_EQ(scene::spriteTint(normal), glm::vec3(1.0f));
}

TEST(DrawStateSprites, HalfLifeRenderModes) {
    using content::SpriteRenderMode;
    // Glow: added by the amount, seen through walls (R_DrawSpriteModel), tinted by rendercolor.
    const scene::ModelRenderMode glow =
        scene::halfLifeRenderMode(halfLife("env_sprite", kRenderGlow, 102));
    EXPECT_STATE(
        scene::spriteDrawState(glow, SpriteRenderMode::Additive),
        state(DrawOrder::Blended, Blend::AlphaAdd, false, false, false, false, Lighting::Unlit));
    EXPECT_FLOAT_EQ(scene::spriteOpacity(glow), 0.4f);
    EXPECT_EQ(scene::spriteTint(glow), glm::vec3(1.0f, 128.0f / 255.0f, 0.0f));
    const scene::ModelRenderMode add =
        scene::halfLifeRenderMode(halfLife("env_sprite", kRenderTransAdd, 255));
    EXPECT_STATE(
        scene::spriteDrawState(add, SpriteRenderMode::Normal),
        state(DrawOrder::Blended, Blend::AlphaAdd, true, false, false, false, Lighting::Unlit));
    // TransAlpha cuts as well as blends, whatever the file's format.
    const scene::ModelRenderMode solid =
        scene::halfLifeRenderMode(halfLife("env_sprite", kRenderTransAlpha, 255));
    EXPECT_STATE(
        scene::spriteDrawState(solid, SpriteRenderMode::Normal),
        state(DrawOrder::Blended, Blend::Alpha, true, false, false, true, Lighting::Unlit));
    const scene::ModelRenderMode texture =
        scene::halfLifeRenderMode(halfLife("env_sprite", kRenderTransTexture, 255));
    EXPECT_STATE(
        scene::spriteDrawState(texture, SpriteRenderMode::IndexAlpha),
        state(DrawOrder::Blended, Blend::Alpha, true, false, false, false, Lighting::Unlit));
}

} // namespace
