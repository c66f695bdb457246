// The eye inside a liquid (scene/view/eye_liquid.h): which liquid holds it, the colour the game
// blends over the view, and the field of view breathing by the game's rule (game::LiquidView).
#include "scene/view/eye_liquid.h"

#include "bsp/load.h"
#include "game/profile.h"
#include "support/collision_room.h"

#include <gtest/gtest.h>

#include <cmath>
#include <glm/trigonometric.hpp>

namespace {

// The collision tests' room with a pool of water (x 16..128), slime (x 144..240) and lava
// (x 288..400), each 64 deep from the floor, in hull 0 (Quake 1 contents -3, -4, -5).
bsp::Map poolRoom() {
    q1test::Q1Builder b = collisiontest::roomQ1();
    b.models[0].liquids = {{{{16, 16, 0}, {128, 240, 64}}, -3},
                           {{{144, 16, 0}, {240, 240, 64}}, -4},
                           {{{288, 16, 0}, {400, 240, 64}}, -5}};
    auto r = bsp::loadMap(b.build(), "pools.bsp");
    EXPECT_TRUE(r.ok()) << r.error().message();
    return r.ok() ? std::move(*r) : bsp::Map{};
}

game::LiquidView quakeRule() {
    game::LiquidView v;
    v.water = {0.5f, 0.25f, 0.125f, 0.5f};
    v.slime = {0.0f, 1.0f, 0.0f, 0.25f};
    v.lava = {1.0f, 0.0f, 0.0f, 0.75f};
    v.fov_base = {0.97f, 1.03f};
    v.fov_amplitude = {0.03f, -0.03f};
    v.fov_rate = 1.5f;
    v.warp_amplitude = 0.01f;
    v.warp_rate = 2.0f;
    v.warp_waves = 31.0f;
    return v;
}

} // namespace

TEST(EyeLiquid, TheLeafAtTheEyeNamesTheLiquid) {
    const bsp::Map m = poolRoom();
    EXPECT_EQ(scene::liquidAt(m, {64, 128, 32}), scene::Liquid::Water);
    EXPECT_EQ(scene::liquidAt(m, {192, 128, 32}), scene::Liquid::Slime);
    EXPECT_EQ(scene::liquidAt(m, {344, 128, 32}), scene::Liquid::Lava);
    EXPECT_EQ(scene::liquidAt(m, {64, 128, 96}), scene::Liquid::None);      // above the water
    EXPECT_EQ(scene::liquidAt(m, {450, 128, 32}), scene::Liquid::None);     // beside the lava
    EXPECT_EQ(scene::liquidAt(m, {64, 128, -8}), scene::Liquid::None);      // in the floor
    EXPECT_EQ(scene::liquidAt(m, {5000, 128, 32}), scene::Liquid::None);    // outside the map
    EXPECT_EQ(scene::liquidAt(bsp::Map{}, {0, 0, 0}), scene::Liquid::None); // no tree at all
}

TEST(EyeLiquid, EachLiquidBlendsItsOwnColour) {
    const game::LiquidView v = quakeRule();
    EXPECT_EQ(scene::liquidBlend(v, scene::Liquid::Water), v.water);
    EXPECT_EQ(scene::liquidBlend(v, scene::Liquid::Slime), v.slime);
    EXPECT_EQ(scene::liquidBlend(v, scene::Liquid::Lava), v.lava);
    EXPECT_EQ(scene::liquidBlend(v, scene::Liquid::None), glm::vec4(0.0f));
}

// Quake 2's contents are bits, and the server tests lava, then slime, then water
// (SV_CalcBlend): a leaf with more than one takes the first.
TEST(EyeLiquid, LavaWinsOverSlimeAndSlimeOverWater) {
    bsp::Map m;
    m.leaves.resize(1);
    m.leaves[0].contents = bsp::kContentsLiquid | bsp::kContentsSlime | bsp::kContentsLava;
    EXPECT_EQ(scene::liquidAt(m, {0, 0, 0}), scene::Liquid::Lava);
    m.leaves[0].contents = bsp::kContentsLiquid | bsp::kContentsSlime;
    EXPECT_EQ(scene::liquidAt(m, {0, 0, 0}), scene::Liquid::Slime);
    m.leaves[0].contents = bsp::kContentsSlime; // not a liquid leaf without the liquid bit
    EXPECT_EQ(scene::liquidAt(m, {0, 0, 0}), scene::Liquid::None);
}

// QuakeSpasm's R_SetupView at t with sin(1.5 t) = -1: tan(fov_x / 2) x 0.94, tan(fov_y / 2) x
// 1.06; the camera keeps that as fov_x and an aspect 0.94 / 1.06 times the old.
TEST(EyeLiquid, TheFieldOfViewBreathesByTheRule) {
    const game::LiquidView v = quakeRule();
    scene::Camera cam;
    cam.fov_x = 90.0f;
    cam.aspect = 16.0f / 9.0f;
    const double t = 3.0 * M_PI / 3.0; // 1.5 t = 3 pi / 2
    const float tan_y = std::tan(glm::radians(cam.fovY()) * 0.5f);
    const scene::Camera warped = scene::liquidCamera(v, scene::Liquid::Water, cam, t);
    EXPECT_NEAR(std::tan(glm::radians(warped.fov_x) * 0.5f), 0.94f, 1e-5f);
    EXPECT_NEAR(std::tan(glm::radians(warped.fovY()) * 0.5f), tan_y * 1.06f, 1e-5f);
    EXPECT_EQ(warped.position, cam.position);
    // Out of the liquid, or with a rule that does not breathe, the camera as it was.
    const scene::Camera dry = scene::liquidCamera(v, scene::Liquid::None, cam, t);
    EXPECT_EQ(dry.fov_x, cam.fov_x);
    EXPECT_EQ(dry.aspect, cam.aspect);
    game::LiquidView still = v;
    still.fov_rate = 0.0f;
    EXPECT_EQ(scene::liquidCamera(still, scene::Liquid::Lava, cam, t).fov_x, cam.fov_x);
    // At sin = 0 (t = 0) the base alone: 0.97 across, 1.03 up.
    const scene::Camera at0 = scene::liquidCamera(v, scene::Liquid::Slime, cam, 0.0);
    EXPECT_NEAR(std::tan(glm::radians(at0.fov_x) * 0.5f), 0.97f, 1e-5f);
    EXPECT_NEAR(std::tan(glm::radians(at0.fovY()) * 0.5f), tan_y * 1.03f, 1e-5f);
}

TEST(EyeLiquid, TheFrameTakesBlendAndCameraFromTheEyesLeaf) {
    const bsp::Map m = poolRoom();
    const game::LiquidView v = quakeRule();
    scene::Camera cam;
    cam.position = {192, 128, 32};
    const scene::EyeLiquid in = scene::eyeLiquid(m, v, cam, 0.0);
    EXPECT_EQ(in.liquid, scene::Liquid::Slime);
    EXPECT_EQ(in.blend, v.slime);
    EXPECT_NE(in.camera.fov_x, cam.fov_x);
    EXPECT_EQ(scene::liquidName(in.liquid), "slime");
    EXPECT_EQ(in.screen_warp, glm::vec3(0.01f, 2.0f, 31.0f));
    cam.position.z = 128.0f;
    const scene::EyeLiquid out = scene::eyeLiquid(m, v, cam, 0.0);
    EXPECT_EQ(out.liquid, scene::Liquid::None);
    EXPECT_EQ(out.blend, glm::vec4(0.0f));
    EXPECT_EQ(out.camera.fov_x, cam.fov_x);
    EXPECT_EQ(scene::liquidName(out.liquid), "none");
    EXPECT_EQ(out.screen_warp, glm::vec3(0.0f));
}
