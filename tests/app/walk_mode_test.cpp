// Walk mode without a window: the viewer's WASD / Space / Ctrl states in, the camera's eye out,
// in the collision room (tests/support/collision_room.h) as Quake 3 brushes (eye height 26,
// box 15 wide, SURFACE_CLIP_EPSILON 1/8).
#include "app/bench.h"
#include "app/walk_mode.h"

#include "support/collision_room.h"
#include "support/q1_builder.h"

#include "bsp/load.h"

#include <gtest/gtest.h>

namespace {

constexpr float kTol = 1e-3f;

TEST(WalkMode, WalksFromTheCameraEyeAtTheFixedTick) {
    bsp::Map map = collisiontest::brushRoomMap();
    map.eye_height = 26.0f;
    app::WalkMode walk;
    scene::Camera cam;
    cam.position = {128, 128, 60};
    ASSERT_TRUE(walk.begin(map, cam));
    EXPECT_EQ(walk.map(), &map);
    app::FlyInput idle;
    // Half a tick runs nothing; the camera stays put.
    walk.update(idle, 0.5f / 60.0f, cam);
    EXPECT_FLOAT_EQ(cam.position.z, 60.0f);
    // One second: the player falls to the floor, eye 24 + 1/8 + 26 above z = 0.
    for (int i = 0; i < 60; ++i)
        walk.update(idle, 1.0f / 60.0f, cam);
    EXPECT_NEAR(cam.position.z, 50.125f, kTol);
    EXPECT_TRUE(walk.state().on_ground);
    // A long stall runs at most kMaxTicksPerUpdate ticks: 12 ticks at up to 320 u/s < 64.
    app::FlyInput fwd;
    fwd.forward = true;
    walk.update(fwd, 10.0f, cam);
    EXPECT_GT(cam.position.x, 128.0f);
    EXPECT_LT(cam.position.x, 128.0f + 64.0f);
    for (int i = 0; i < 120; ++i)
        walk.update(fwd, 1.0f / 60.0f, cam);
    EXPECT_NEAR(cam.position.x, 256.0f - 15.0f - 0.125f, kTol); // the middle wall
    // Crouching lowers the eye to Quake 3's 12 above the origin.
    app::FlyInput down;
    down.down = true;
    walk.update(down, 1.0f / 60.0f, cam);
    EXPECT_NEAR(cam.position.z, 24.125f + 12.0f, kTol);
}

TEST(WalkMode, ATeleportedCameraRestartsTheWalkThere) {
    const bsp::Map map = collisiontest::brushRoomMap();
    app::WalkMode walk;
    scene::Camera cam;
    cam.position = {128, 128, 60};
    ASSERT_TRUE(walk.begin(map, cam));
    cam.position = {400, 200, 60}; // a bookmark in the other half of the room
    app::FlyInput idle;
    for (int i = 0; i < 60; ++i)
        walk.update(idle, 1.0f / 60.0f, cam);
    EXPECT_NEAR(cam.position.x, 400.0f, kTol);
    EXPECT_NEAR(cam.position.y, 200.0f, kTol);
    EXPECT_NEAR(cam.position.z, 24.125f + map.eye_height, kTol);
}

TEST(WalkMode, StaysOffWithoutCollisionData) {
    const bsp::Map map;
    app::WalkMode walk;
    EXPECT_FALSE(walk.begin(map, scene::Camera()));
    EXPECT_FALSE(walk.active());
}

// A Half-Life map whose model 2 has its clip heads at the clipnode count (ZHLT's empty hulls):
// walk mode starts and says the player passes through it.
TEST(WalkMode, NamesTheModelsWithEmptyClipHulls) {
    q1test::Q1Options o;
    o.half_life = true;
    o.entities = "{\n\"classname\" \"worldspawn\"\n}\n"
                 "{\n\"classname\" \"func_wall\"\n\"model\" \"*1\"\n}\n"
                 "{\n\"classname\" \"func_wall\"\n\"model\" \"*2\"\n}\n";
    o.clipnodes = {{{0, -1, -2}}};
    o.model_clip_heads = {{{0, 0, 0}}, {{1, 1, 1}}};
    auto map = bsp::loadMap(q1test::buildQ1(o), "cs_empty.bsp");
    ASSERT_TRUE(map.ok()) << map.error().message();
    EXPECT_EQ(app::walkModeNotice(*map), "walk: 1 brush model with empty clip hulls in the file: "
                                         "the player passes through (see the warnings)");
    app::WalkMode walk;
    scene::Camera cam;
    cam.position = {32, 32, 64};
    EXPECT_TRUE(walk.begin(*map, cam));
    o.model_clip_heads = {{{0, 0, 0}}};
    auto whole = bsp::loadMap(q1test::buildQ1(o), "cs_whole.bsp");
    ASSERT_TRUE(whole.ok());
    EXPECT_EQ(app::walkModeNotice(*whole), "");
}

TEST(DropToFloor, PutsTheEyeAtTheGamesEyeHeightAboveTheFloor) {
    // Floor z 0: the standing box 24 below the origin, SURFACE_CLIP_EPSILON 1/8 above the
    // plane, the eye Map::eye_height above the origin.
    bsp::Map map = collisiontest::brushRoomMap();
    map.eye_height = 26.0f;
    const float eye = 24.0f + 0.125f + 26.0f;
    auto high = app::dropEyeToFloor(map, glm::vec3(128, 128, 200));
    ASSERT_TRUE(high.has_value());
    EXPECT_EQ(high->x, 128.0f);
    EXPECT_NEAR(high->z, eye, kTol);
    auto low = app::dropEyeToFloor(map, glm::vec3(128, 128, 40)); // the box 10 into the floor
    ASSERT_TRUE(low.has_value());
    EXPECT_NEAR(low->z, eye, kTol);
    EXPECT_FALSE(app::dropEyeToFloor(map, glm::vec3(800, 128, 200)).has_value()); // outside
    EXPECT_FALSE(app::dropEyeToFloor(bsp::Map{}, glm::vec3(0.0f)).has_value());   // no collision
}

TEST(BenchWalk, TimesEveryTickFromEveryStart) {
    // Two starts, 180 ticks each, every one timed (a tick takes some time, and far less than a
    // frame); a map without collision data has nothing to walk.
    bsp::Map map = collisiontest::brushRoomMap();
    map.eye_height = 26.0f;
    const std::vector<app::Keyframe> starts = {{{128, 128, 60}, 0.0f, 0.0f},
                                               {{400, 200, 60}, 0.0f, 90.0f}};
    const std::vector<double> us = app::benchWalkTicks(map, starts);
    ASSERT_EQ(us.size(), 2u * app::kBenchWalkTicks);
    for (double t : us) {
        EXPECT_GE(t, 0.0);
        EXPECT_LT(t, 16666.0);
    }
    EXPECT_TRUE(app::benchWalkTicks(bsp::Map{}, starts).empty());
}

} // namespace
