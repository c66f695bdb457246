// Traces in the collision room (tests/support/collision_room.h) for both families: the Quake 1
// room read back from a BSP29 file (clip hulls) and the same room as Quake 3-style brushes.
// Expected positions are worked out by hand from the room's planes, the hull sizes and the
// engines' epsilons: Quake 1 stops DIST_EPSILON (1/32) short of the grown plane, Quake 3 stops
// SURFACE_CLIP_EPSILON (1/8) short of the plane pushed out by the box.
#include "physics/collision.h"

#include "bsp/load.h"
#include "support/collision_room.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

namespace {

using bsp::kCollideSolid;
using glm::vec3;
using physics::CollisionWorld;
using physics::TraceResult;

constexpr float kTol = 1e-3f;
const vec3 kQ1Mins{-16, -16, -24}, kQ1Maxs{16, 16, 32}; // Quake hull 1
const vec3 kQ3Mins{-15, -15, -24}, kQ3Maxs{15, 15, 32}; // Quake 3 player box

bsp::Map loadRoom(bool door = false, const char* door_class = "func_door") {
    auto b = collisiontest::roomQ1(door, door_class);
    auto r = bsp::loadMap(b.build(), "room.bsp");
    EXPECT_TRUE(r.ok()) << r.error().message();
    return r.ok() ? std::move(*r) : bsp::Map{};
}

} // namespace

TEST(CollisionQuake1, HullChoiceFollowsTheBoxSize) {
    const bsp::Map map = loadRoom();
    const CollisionWorld world(map);
    vec3 offset;
    EXPECT_EQ(world.hullForBox(vec3(0), vec3(0), &offset), 0);
    EXPECT_EQ(offset, vec3(0));
    EXPECT_EQ(world.hullForBox(kQ1Mins, kQ1Maxs, &offset), 1);
    EXPECT_EQ(offset, vec3(0));
    // A smaller box still takes hull 1, aligned at its mins: offset = hull mins - box mins.
    EXPECT_EQ(world.hullForBox(vec3(-8, -8, -8), vec3(8, 8, 8), &offset), 1);
    EXPECT_EQ(offset, vec3(-8, -8, -16));
    EXPECT_EQ(world.hullForBox(vec3(-20, -20, -24), vec3(20, 20, 40), &offset), 2);
}

TEST(CollisionHalfLife, HullChoiceCrouchesInHullThreeAndCentresHullZero) {
    auto b = collisiontest::roomQ1();
    auto bytes = b.build();
    const int32_t version = 30;
    std::memcpy(bytes.data(), &version, 4);
    auto r = bsp::loadMap(bytes, "room_hl.bsp");
    ASSERT_TRUE(r.ok()) << r.error().message();
    const CollisionWorld world(*r);
    EXPECT_EQ(world.hullCount(), 4);
    vec3 offset;
    EXPECT_EQ(world.hullForBox(vec3(-16, -16, -36), vec3(16, 16, 36), &offset), 1);
    EXPECT_EQ(offset, vec3(0));
    EXPECT_EQ(world.hullForBox(vec3(-16, -16, -18), vec3(16, 16, 18), &offset), 3);
    EXPECT_EQ(offset, vec3(0));
    EXPECT_EQ(world.hullForBox(vec3(-32, -32, -32), vec3(32, 32, 32), &offset), 2);
    // Boxes up to 8 wide use hull 0 at their origin (Xash3D), not at their mins (Quake).
    EXPECT_EQ(world.hullForBox(vec3(-4, -4, -4), vec3(4, 4, 4), &offset), 0);
    EXPECT_EQ(offset, vec3(0));
    // A 36-wide box taller than 36 stands in hull 1, aligned at its mins.
    EXPECT_EQ(world.hullForBox(vec3(-18, -18, -30), vec3(18, 18, 30), &offset), 1);
    EXPECT_EQ(offset, vec3(2, 2, -6));
}

TEST(CollisionQuake1, BoxAgainstAWallStopsAtThePlaneMinusTheHullOffset) {
    const bsp::Map map = loadRoom();
    const CollisionWorld world(map);
    // The middle wall's face is x = 256; hull 1 grows it by 16, so the box origin stops at
    // 240 - 1/32.
    const TraceResult t = world.trace(vec3(128, 128, 100), vec3(400, 128, 100), kQ1Mins, kQ1Maxs);
    EXPECT_NEAR(t.end_pos.x, 239.96875f, kTol);
    EXPECT_NEAR(t.end_pos.y, 128.0f, kTol);
    EXPECT_NEAR(t.fraction, (239.96875f - 128.0f) / 272.0f, kTol);
    EXPECT_EQ(t.plane.normal, vec3(-1, 0, 0));
    EXPECT_FLOAT_EQ(t.plane.dist, -240.0f);
    EXPECT_EQ(t.contents, kCollideSolid);
    EXPECT_FALSE(t.start_solid);
    EXPECT_EQ(t.submodel, 0);
    // The point (hull 0) reaches the face itself.
    const TraceResult p = world.trace(vec3(128, 128, 100), vec3(400, 128, 100), vec3(0), vec3(0));
    EXPECT_NEAR(p.end_pos.x, 255.96875f, kTol);
}

TEST(CollisionQuake1, PointContentsInHullZeroAndHullOne) {
    const bsp::Map map = loadRoom();
    const CollisionWorld world(map);
    EXPECT_EQ(world.hullCount(), 3);
    EXPECT_EQ(world.pointContents(vec3(264, 128, 100), 0), kCollideSolid); // inside the wall
    EXPECT_EQ(world.pointContents(vec3(250, 128, 100), 0), 0u);
    // Hull 1 is the wall grown by the box: x from 240 on is solid for the box's origin.
    EXPECT_EQ(world.pointContents(vec3(250, 128, 100), 1), kCollideSolid);
    EXPECT_EQ(world.pointContents(vec3(239, 128, 100), 1), 0u);
    // Floor: hull 1 is solid below z = 24 (the box's mins.z is -24).
    EXPECT_EQ(world.pointContents(vec3(100, 200, 23), 1), kCollideSolid);
    EXPECT_EQ(world.pointContents(vec3(100, 200, 25), 1), 0u);
    EXPECT_EQ(world.pointContents(vec3(100, 200, 25), 3), 0u); // no hull 3 in Quake
}

TEST(CollisionQuake1, ABoxFitsThroughTheDoorButNotTheGap) {
    const bsp::Map map = loadRoom();
    const CollisionWorld world(map);
    const TraceResult door = world.trace(vec3(128, 64, 40), vec3(400, 64, 40), kQ1Mins, kQ1Maxs);
    EXPECT_FLOAT_EQ(door.fraction, 1.0f);
    EXPECT_EQ(door.end_pos, vec3(400, 64, 40));
    const TraceResult gap = world.trace(vec3(128, 168, 40), vec3(400, 168, 40), kQ1Mins, kQ1Maxs);
    EXPECT_NEAR(gap.end_pos.x, 239.96875f, kTol);
    // The point goes through the gap.
    EXPECT_FLOAT_EQ(world.trace(vec3(128, 168, 40), vec3(400, 168, 40), vec3(0), vec3(0)).fraction,
                    1.0f);
}

TEST(CollisionQuake1, AFallLandsOnTheFloor) {
    const bsp::Map map = loadRoom();
    const CollisionWorld world(map);
    const TraceResult t = world.trace(vec3(100, 200, 200), vec3(100, 200, -100), kQ1Mins, kQ1Maxs);
    EXPECT_NEAR(t.end_pos.z, 24.03125f, kTol);
    EXPECT_EQ(t.plane.normal, vec3(0, 0, 1));
    EXPECT_FLOAT_EQ(t.plane.dist, 24.0f);
    // Starting inside the floor: stuck.
    const TraceResult s = world.trace(vec3(100, 200, 10), vec3(100, 200, 100), kQ1Mins, kQ1Maxs);
    EXPECT_TRUE(s.start_solid);
}

TEST(CollisionQuake1, AClosedDoorStaysClosedATriggerDoesNot) {
    {
        const bsp::Map map = loadRoom(true, "func_door");
        const CollisionWorld world(map);
        const TraceResult t = world.trace(vec3(128, 64, 40), vec3(400, 64, 40), kQ1Mins, kQ1Maxs);
        EXPECT_NEAR(t.end_pos.x, 239.96875f, kTol);
        EXPECT_EQ(t.submodel, 1);
    }
    {
        const bsp::Map map = loadRoom(true, "trigger_multiple");
        ASSERT_EQ(map.collision.models.size(), 2u);
        EXPECT_FALSE(map.collision.models[1].solid);
        const CollisionWorld world(map);
        EXPECT_FLOAT_EQ(
            world.trace(vec3(128, 64, 40), vec3(400, 64, 40), kQ1Mins, kQ1Maxs).fraction, 1.0f);
    }
}

TEST(CollisionBrushes, BoxAgainstAWallStopsAtThePlaneMinusTheBoxAndEpsilon) {
    const bsp::Map map = collisiontest::brushRoomMap();
    const CollisionWorld world(map);
    // x = 256 pushed out by the box's 15: 241, minus 1/8.
    const TraceResult t = world.trace(vec3(128, 128, 100), vec3(400, 128, 100), kQ3Mins, kQ3Maxs);
    EXPECT_NEAR(t.end_pos.x, 240.875f, kTol);
    EXPECT_NEAR(t.fraction, (240.875f - 128.0f) / 272.0f, kTol);
    EXPECT_EQ(t.plane.normal, vec3(-1, 0, 0));
    EXPECT_FLOAT_EQ(t.plane.dist, -256.0f);
    EXPECT_EQ(t.contents, kCollideSolid);
    EXPECT_FALSE(t.start_solid);
    const TraceResult p = world.trace(vec3(128, 128, 100), vec3(400, 128, 100), vec3(0), vec3(0));
    EXPECT_NEAR(p.end_pos.x, 255.875f, kTol);
}

TEST(CollisionBrushes, PointContentsForThePointAndThePlayerBox) {
    const bsp::Map map = collisiontest::brushRoomMap();
    const CollisionWorld world(map);
    EXPECT_EQ(world.hullCount(), 2);
    EXPECT_EQ(world.pointContents(vec3(264, 128, 100), 0), kCollideSolid);
    EXPECT_EQ(world.pointContents(vec3(250, 128, 100), 0), 0u);
    // Hull 1 is the player box around the point: it reaches the wall from x = 241 on.
    EXPECT_EQ(world.pointContents(vec3(245, 128, 100), 1), kCollideSolid);
    EXPECT_EQ(world.pointContents(vec3(240, 128, 100), 1), 0u);
}

TEST(CollisionBrushes, ABoxFitsThroughTheDoorButNotTheGap) {
    const bsp::Map map = collisiontest::brushRoomMap();
    const CollisionWorld world(map);
    EXPECT_FLOAT_EQ(world.trace(vec3(128, 64, 40), vec3(400, 64, 40), kQ3Mins, kQ3Maxs).fraction,
                    1.0f);
    const TraceResult gap = world.trace(vec3(128, 168, 40), vec3(400, 168, 40), kQ3Mins, kQ3Maxs);
    EXPECT_NEAR(gap.end_pos.x, 240.875f, kTol);
}

TEST(CollisionBrushes, AFallLandsOnTheFloorAndADoorModelBlocks) {
    const bsp::Map map = collisiontest::brushRoomMap(true);
    const CollisionWorld world(map);
    const TraceResult t = world.trace(vec3(100, 200, 200), vec3(100, 200, -100), kQ3Mins, kQ3Maxs);
    EXPECT_NEAR(t.end_pos.z, 24.125f, kTol);
    EXPECT_EQ(t.plane.normal, vec3(0, 0, 1));
    const TraceResult d = world.trace(vec3(128, 64, 40), vec3(400, 64, 40), kQ3Mins, kQ3Maxs);
    EXPECT_NEAR(d.end_pos.x, 240.875f, kTol);
    EXPECT_EQ(d.submodel, 1);
    // A box starting inside the floor is all solid when it stays there.
    const TraceResult s = world.trace(vec3(100, 200, -8), vec3(110, 200, -8), vec3(-1), vec3(1));
    EXPECT_TRUE(s.start_solid);
    EXPECT_TRUE(s.all_solid);
    EXPECT_FLOAT_EQ(s.fraction, 0.0f);
}

TEST(CollisionBrushes, ClipBrushesBlockPlayersOnlyWhenMasked) {
    bsp::Map map = collisiontest::brushRoomMap();
    collisiontest::addBoxBrush(map, {{100, 0, 0}, {116, 256, 256}}, bsp::kCollidePlayerClip);
    map.collision.leaf_brush_ranges = {{0, uint32_t(map.collision.leaf_brushes.size())}};
    const CollisionWorld world(map);
    const TraceResult player =
        world.trace(vec3(50, 128, 100), vec3(200, 128, 100), kQ3Mins, kQ3Maxs);
    EXPECT_NEAR(player.end_pos.x, 100.0f - 15.0f - 0.125f, kTol);
    EXPECT_EQ(player.contents, bsp::kCollidePlayerClip);
    const TraceResult shot =
        world.trace(vec3(50, 128, 100), vec3(200, 128, 100), vec3(0), vec3(0), kCollideSolid);
    EXPECT_FLOAT_EQ(shot.fraction, 1.0f);
}

TEST(CollisionWorld, NonFiniteInputIsStuckNotACrash) {
    const bsp::Map map = loadRoom();
    const CollisionWorld world(map);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const TraceResult t = world.trace(vec3(nan, 0, 0), vec3(400, 128, 100), kQ1Mins, kQ1Maxs);
    EXPECT_TRUE(t.all_solid);
    EXPECT_EQ(world.pointContents(vec3(nan), 0), 0u);
}

// fuzz_load_map found it (an 850 KB mutant of a real map, not kept): planes with non-finite
// values made a trace's fraction NaN. Every plane of each room broken in turn.
TEST(CollisionWorld, NonFinitePlanesKeepTheFractionInRange) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    for (const bool hulls : {true, false}) {
        const bsp::Map good = hulls ? loadRoom() : collisiontest::brushRoomMap();
        for (size_t i = 0; i < good.planes.size(); ++i)
            for (const bsp::Plane bad :
                 {bsp::Plane{vec3(nan, 0, 0), 0.0f}, bsp::Plane{vec3(1, 0, 0), inf},
                  bsp::Plane{vec3(inf, 0, 1), 8.0f}}) {
                bsp::Map map = good;
                map.planes[i] = bad;
                const CollisionWorld world(map);
                for (const vec3& size : {vec3(0), vec3(16)}) {
                    const TraceResult t =
                        world.trace(vec3(128, 128, 100), vec3(400, 100, 20), -size, size);
                    ASSERT_GE(t.fraction, 0.0f) << (hulls ? "hulls" : "brushes") << " plane " << i;
                    ASSERT_LE(t.fraction, 1.0f) << (hulls ? "hulls" : "brushes") << " plane " << i;
                    ASSERT_TRUE(std::isfinite(t.end_pos.x) && std::isfinite(t.end_pos.y) &&
                                std::isfinite(t.end_pos.z));
                }
            }
    }
}
