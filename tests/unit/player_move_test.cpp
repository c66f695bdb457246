// Player movement in the collision room (tests/support/collision_room.h) for both families: the
// Quake 1 room read back from a BSP29 file (clip hulls, 32 x 32 x 56 box, stops DIST_EPSILON
// 1/32 short of the grown plane) and the same room as Quake 3 brushes (30 x 30 x 56 box, stops
// SURFACE_CLIP_EPSILON 1/8 short). Standing on the floor z = 0 puts the origin at 24 + epsilon.
#include "physics/player_move.h"
#include "physics/walk_script.h"

#include "bsp/load.h"
#include "support/collision_room.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string_view>
#include <vector>

namespace {

using glm::vec3;
using physics::MoveInput;
using physics::PlayerMove;
using physics::PlayerState;

constexpr float kTol = 1e-3f;

// One family: the map, its epsilon and its box's half width.
struct Room {
    bsp::Map map;
    float eps = 0.0f;
    float half = 0.0f;
};

Room quake1Room(const std::vector<q1test::Box>& extra = {},
                const std::vector<q1test::Liquid>& liquids = {}, bool half_life = false) {
    auto b = collisiontest::roomQ1();
    b.half_life = half_life;
    for (const q1test::Box& box : extra)
        b.models[0].solids.push_back(box);
    b.models[0].liquids = liquids;
    auto r = bsp::loadMap(b.build(), "room.bsp");
    EXPECT_TRUE(r.ok()) << r.error().message();
    return {r.ok() ? std::move(*r) : bsp::Map{}, 1.0f / 32.0f, 16.0f};
}

// Quake 1 liquid values to the brush maps' contents bits.
uint32_t liquidBit(int32_t q1_contents) {
    return q1_contents == -3   ? bsp::kCollideWater
           : q1_contents == -4 ? bsp::kCollideSlime
                               : bsp::kCollideLava;
}

Room brushRoom(const std::vector<q1test::Box>& extra = {},
               const std::vector<q1test::Liquid>& liquids = {}) {
    bsp::Map m = collisiontest::brushRoomMap();
    for (const q1test::Box& box : extra)
        collisiontest::addBoxBrush(m, box, bsp::kCollideSolid);
    for (const q1test::Liquid& l : liquids)
        collisiontest::addBoxBrush(m, l.box, liquidBit(l.contents));
    m.collision.leaf_brush_ranges = {{0, uint32_t(m.collision.leaf_brushes.size())}};
    return {std::move(m), 0.125f, 15.0f};
}

// Runs `ticks` ticks of the same input; returns the highest origin z seen.
float run(const PlayerMove& move, PlayerState& s, const MoveInput& in, int ticks) {
    float top = s.origin.z;
    for (int i = 0; i < ticks; ++i) {
        move.tick(s, in);
        top = std::max(top, s.origin.z);
    }
    return top;
}

PlayerState standAt(float x, float y, float z = 30.0f) {
    PlayerState s;
    s.origin = vec3(x, y, z);
    return s;
}

const MoveInput kForward{1.0f, 0.0f, 0.0f, false, false};

class PlayerMoveRoom : public ::testing::TestWithParam<bool> {
protected:
    Room room(const std::vector<q1test::Box>& extra = {},
              const std::vector<q1test::Liquid>& liquids = {}) const {
        return GetParam() ? quake1Room(extra, liquids) : brushRoom(extra, liquids);
    }
};

} // namespace

TEST(PlayerMoveRules, ChosenFromTheCollisionData) {
    const Room q1 = quake1Room();
    const physics::MoveRules r1 = physics::moveRulesFor(q1.map.collision);
    EXPECT_STREQ(r1.game, "quake");
    EXPECT_FALSE(r1.can_crouch);
    EXPECT_EQ(r1.mins, vec3(-16, -16, -24));
    EXPECT_FLOAT_EQ(r1.max_speed, 320.0f);
    EXPECT_FLOAT_EQ(r1.friction, 4.0f);
    EXPECT_FLOAT_EQ(r1.air_wish_cap, 30.0f);

    const Room q3 = brushRoom();
    const physics::MoveRules r3 = physics::moveRulesFor(q3.map.collision);
    EXPECT_STREQ(r3.game, "quake3");
    EXPECT_TRUE(r3.can_crouch);
    EXPECT_EQ(r3.crouch_maxs, vec3(15, 15, 16));
    EXPECT_FLOAT_EQ(r3.friction, 6.0f);

    bsp::Collision q2;
    q2.kind = bsp::CollisionKind::Brushes;
    q2.hulls = {{}, {{-16, -16, -24}, {16, 16, 32}}};
    const physics::MoveRules r2 = physics::moveRulesFor(q2);
    EXPECT_STREQ(r2.game, "quake2");
    EXPECT_FLOAT_EQ(r2.max_speed, 300.0f);
    EXPECT_EQ(r2.crouch_maxs, vec3(16, 16, 4));

    auto b = collisiontest::roomQ1();
    auto bytes = b.build();
    const int32_t version = 30;
    std::memcpy(bytes.data(), &version, 4);
    auto hl = bsp::loadMap(bytes, "room_hl.bsp");
    ASSERT_TRUE(hl.ok()) << hl.error().message();
    const physics::MoveRules rh = physics::moveRulesFor(hl->collision);
    EXPECT_STREQ(rh.game, "half-life");
    EXPECT_EQ(rh.mins, vec3(-16, -16, -36));
    EXPECT_EQ(rh.crouch_mins, vec3(-16, -16, -18));
    // sqrt(2 * 800 * 45): the 45-unit jump of pm_shared.c PM_Jump.
    EXPECT_NEAR(rh.jump_speed, 268.3282f, kTol);
}

TEST_P(PlayerMoveRoom, WalkingIntoAWallStopsAtTheWallMinusTheBox) {
    const Room r = room();
    const physics::CollisionWorld world(r.map);
    const PlayerMove move(world, physics::moveRulesFor(r.map.collision));
    PlayerState s = standAt(128, 128);
    run(move, s, kForward, 120);
    EXPECT_NEAR(s.origin.x, 256.0f - r.half - r.eps, kTol);
    EXPECT_NEAR(s.origin.y, 128.0f, kTol);
    EXPECT_NEAR(s.origin.z, 24.0f + r.eps, kTol);
    EXPECT_TRUE(s.on_ground);
    EXPECT_FLOAT_EQ(s.velocity.x, 0.0f);
}

TEST_P(PlayerMoveRoom, SlidesAlongAWallHitAtAnAngle) {
    const Room r = room();
    const physics::CollisionWorld world(r.map);
    const PlayerMove move(world, physics::moveRulesFor(r.map.collision));
    // Heading 45 degrees into the y+ wall (y = 256): stops at 256 - box and slides along x.
    PlayerState s = standAt(40, 180);
    const MoveInput diagonal{1.0f, 0.0f, 45.0f, false, false};
    run(move, s, diagonal, 30);
    EXPECT_NEAR(s.origin.y, 256.0f - r.half - r.eps, kTol);
    EXPECT_FLOAT_EQ(s.velocity.y, 0.0f);
    EXPECT_GT(s.velocity.x, 200.0f);
    // Into the corner with the middle wall: stopped by both. Quake's hull trace keeps its
    // epsilon only from the plane it crossed, so x ends within DIST_EPSILON of the other.
    run(move, s, diagonal, 150);
    EXPECT_NEAR(s.origin.y, 256.0f - r.half - r.eps, kTol);
    EXPECT_GE(s.origin.x, 256.0f - r.half - r.eps - kTol);
    EXPECT_LT(s.origin.x, 256.0f - r.half);
}

TEST_P(PlayerMoveRoom, ClimbsASixteenUnitStepButNotATwentyFourUnitOne) {
    for (const float h : {16.0f, 24.0f}) {
        const Room r = room({{{160, 0, 0}, {256, 256, h}}});
        const physics::CollisionWorld world(r.map);
        const PlayerMove move(world, physics::moveRulesFor(r.map.collision));
        PlayerState s = standAt(64, 128);
        run(move, s, kForward, 120);
        EXPECT_TRUE(s.on_ground) << h;
        if (h < move.rules().step_height) {
            EXPECT_NEAR(s.origin.x, 256.0f - r.half - r.eps, kTol);
            EXPECT_NEAR(s.origin.z, h + 24.0f + r.eps, kTol);
        } else {
            EXPECT_NEAR(s.origin.x, 160.0f - r.half - r.eps, kTol);
            EXPECT_NEAR(s.origin.z, 24.0f + r.eps, kTol);
        }
    }
}

TEST_P(PlayerMoveRoom, WalkingOffALedgeLandsOnTheFloorBelow) {
    const Room r = room({{{0, 0, 0}, {128, 256, 64}}});
    const physics::CollisionWorld world(r.map);
    const PlayerMove move(world, physics::moveRulesFor(r.map.collision));
    PlayerState s = standAt(64, 128, 90);
    run(move, s, {}, 30);
    ASSERT_TRUE(s.on_ground);
    EXPECT_NEAR(s.origin.z, 64.0f + 24.0f + r.eps, kTol);
    bool fell = false;
    for (int i = 0; i < 120; ++i) {
        move.tick(s, kForward);
        fell = fell || !s.on_ground;
    }
    EXPECT_TRUE(fell);
    EXPECT_TRUE(s.on_ground);
    EXPECT_NEAR(s.origin.z, 24.0f + r.eps, kTol);
    EXPECT_NEAR(s.origin.x, 256.0f - r.half - r.eps, kTol);
}

TEST_P(PlayerMoveRoom, FitsThroughTheDoorButNotTheGap) {
    const Room r = room();
    const physics::CollisionWorld world(r.map);
    const PlayerMove move(world, physics::moveRulesFor(r.map.collision));
    PlayerState door = standAt(128, 64);
    run(move, door, kForward, 180);
    EXPECT_NEAR(door.origin.x, 512.0f - r.half - r.eps, kTol);
    EXPECT_NEAR(door.origin.y, 64.0f, kTol);
    PlayerState gap = standAt(128, 168);
    run(move, gap, kForward, 180);
    EXPECT_NEAR(gap.origin.x, 256.0f - r.half - r.eps, kTol);
}

TEST_P(PlayerMoveRoom, JumpPeaksWhereJumpSpeedAndGravityPutIt) {
    const Room r = room();
    const physics::CollisionWorld world(r.map);
    const PlayerMove move(world, physics::moveRulesFor(r.map.collision));
    PlayerState s = standAt(128, 128);
    run(move, s, {}, 30);
    ASSERT_TRUE(s.on_ground);
    const float floor = s.origin.z;
    // Jump 270, gravity 800 taken off before each 1/60 s move: tick n climbs
    // (270 - 40n/3) / 60 while positive, n = 1..20, in all (20 * 270 - 40/3 * 210) / 60 = 130/3.
    float top = run(move, s, {0.0f, 0.0f, 0.0f, true, false}, 1);
    top = std::max(top, run(move, s, {}, 60));
    EXPECT_NEAR(top - floor, 130.0f / 3.0f, kTol);
    EXPECT_TRUE(s.on_ground);
    EXPECT_NEAR(s.origin.z, floor, kTol);
}

TEST_P(PlayerMoveRoom, DropsToTheFloorBelow) {
    // A 64-high block over x 0..128: dropped over it, or with the box half over it, the player
    // stands on it; beside it, on the floor; from 10 into the floor, lifted onto it; outside
    // the room (nothing below) or with too short a reach it stays where it was.
    const Room r = room({{{0, 0, 0}, {128, 256, 64}}});
    const physics::CollisionWorld world(r.map);
    const PlayerMove move(world, physics::moveRulesFor(r.map.collision));
    const struct {
        vec3 from;
        float reach;
        bool found;
        float z;
    } cases[] = {
        {{64, 128, 200}, 1000.0f, true, 64.0f + 24.0f + r.eps},
        {{140, 128, 200}, 1000.0f, true, 64.0f + 24.0f + r.eps},
        {{200, 128, 200}, 1000.0f, true, 24.0f + r.eps},
        // Lifted by whole units: Quake 1's hull counts the plane itself as open (origin 24),
        // the brushes as inside (25, then dropped to 24 + 1/8).
        {{200, 128, 14}, 1000.0f, true, GetParam() ? 24.0f : 24.0f + r.eps},
        {{200, 128, 200}, 100.0f, false, 200.0f},
        {{700, 128, 200}, 1000.0f, false, 200.0f},
    };
    for (const auto& c : cases) {
        PlayerState s;
        s.origin = c.from;
        s.velocity = vec3(5, 0, 0);
        EXPECT_EQ(move.dropToFloor(s, c.reach), c.found) << c.from.x << " " << c.from.z;
        EXPECT_NEAR(s.origin.z, c.z, kTol) << c.from.x << " " << c.from.z;
        EXPECT_FLOAT_EQ(s.origin.x, c.from.x);
        EXPECT_EQ(s.on_ground, c.found);
        EXPECT_FLOAT_EQ(s.velocity.x, c.found ? 0.0f : 5.0f);
    }
}

// Liquids of the tests: the near half of the room filled to z 128 with slime, or to the
// ceiling with water.
const q1test::Liquid kSlimeTo128{{{0, 0, 0}, {256, 256, 128}}, -4};
const q1test::Liquid kDeepWater{{{0, 0, 0}, {256, 256, 256}}, -3};

TEST_P(PlayerMoveRoom, WaterLevelSamplesFeetWaistAndEye) {
    // Feet at origin - 23 for both. Quake 1: waist at the box middle origin + 4, eye origin + 22
    // (client.qc view_ofs); Quake 3: waist halfway to the eye origin + 1, eye origin + 26
    // (DEFAULT_VIEWHEIGHT). Under z 128 each is in the slime.
    const Room r = room({}, {kSlimeTo128});
    const physics::CollisionWorld world(r.map);
    const PlayerMove move(world, physics::moveRulesFor(r.map.collision));
    const float waist = GetParam() ? 124.0f : 127.0f, eye = GetParam() ? 106.0f : 102.0f;
    const struct {
        float z;
        int level;
    } cases[] = {{151.5f, 0},       {150.5f, 1},     {waist + 0.5f, 1},
                 {waist - 0.5f, 2}, {eye + 0.5f, 2}, {eye - 0.5f, 3}};
    for (const auto& c : cases) {
        uint32_t type = 0;
        EXPECT_EQ(move.waterLevel(vec3(128, 128, c.z), false, &type), c.level) << c.z;
        EXPECT_EQ(type, c.level ? uint32_t(bsp::kCollideSlime) : 0u) << c.z;
    }
}

TEST_P(PlayerMoveRoom, SwimsAtTheSwimSpeedWithoutGravity) {
    // Quake 1: wish 320 x 0.7 = 224 (SV_WaterMove); Quake 3: capped at 320 x 0.5 = 160
    // (PM_WaterMove). Level: no gravity, no drift while a key is held.
    const Room r = room({}, {kDeepWater});
    const physics::CollisionWorld world(r.map);
    const PlayerMove move(world, physics::moveRulesFor(r.map.collision));
    PlayerState s = standAt(40, 128, 100);
    run(move, s, kForward, 45);
    EXPECT_EQ(s.waterlevel, 3);
    EXPECT_NEAR(s.velocity.x, GetParam() ? 224.0f : 160.0f, kTol);
    EXPECT_FLOAT_EQ(s.velocity.z, 0.0f);
    EXPECT_FLOAT_EQ(s.origin.z, 100.0f);
    EXPECT_FALSE(s.on_ground);
}

TEST_P(PlayerMoveRoom, SinksSwimsDownAndUp) {
    const Room r = room({}, {kDeepWater});
    const physics::CollisionWorld world(r.map);
    const PlayerMove move(world, physics::moveRulesFor(r.map.collision));
    const bool q1 = GetParam();
    PlayerState s = standAt(128, 128, 200);
    // No input drifts down at 60: Quake 1 scales it by 0.7 (42), Quake 3 does not cap it.
    run(move, s, {}, 60);
    EXPECT_NEAR(s.velocity.z, q1 ? -42.0f : -60.0f, kTol);
    EXPECT_FLOAT_EQ(s.velocity.x, 0.0f);
    // Crouch is upmove -cl_upspeed: Quake 1 200 x 0.7 = 140, Quake 3 320 capped at 160.
    run(move, s, {0.0f, 0.0f, 0.0f, false, true}, 45);
    EXPECT_NEAR(s.velocity.z, q1 ? -140.0f : -160.0f, kTol);
    // Jump: Quake 1 sets 100 (PlayerJump) and water friction takes 4/60 of it before the move
    // (280/3); Quake 3's jump is upmove, capped at 160.
    const float z = s.origin.z;
    run(move, s, {0.0f, 0.0f, 0.0f, true, false}, 45);
    EXPECT_NEAR(s.velocity.z, q1 ? 280.0f / 3.0f : 160.0f, kTol);
    if (q1) {
        EXPECT_NEAR(s.origin.z - z, 45 * 280.0f / 3.0f / 60.0f, kTol);
    }
    EXPECT_GE(s.waterlevel, 2);
}

TEST_P(PlayerMoveRoom, JumpsOutOfWaterOntoALedge) {
    // A 40-unit ledge from x 160, water to its top: standing in it is waterlevel 2 (waist under,
    // eye over). Swimming at the ledge lifts the player out (Quake 1 CheckWaterJump: 225 up,
    // pushed 50 into the wall; Quake 3 PM_CheckWaterJump: 350 up, 200 forward, falling) onto
    // it; without the water the same walk stops at the ledge.
    const q1test::Box ledge{{160, 0, 0}, {256, 256, 40}};
    for (const bool water : {true, false}) {
        const Room r = water ? room({ledge}, {{{{0, 0, 0}, {256, 256, 40}}, -3}}) : room({ledge});
        const physics::CollisionWorld world(r.map);
        const PlayerMove move(world, physics::moveRulesFor(r.map.collision));
        PlayerState s = standAt(64, 128);
        run(move, s, {}, 10);
        EXPECT_EQ(s.waterlevel, water ? 2 : 0);
        run(move, s, kForward, 120);
        EXPECT_TRUE(s.on_ground) << water;
        if (water) {
            EXPECT_NEAR(s.origin.z, 40.0f + 24.0f + r.eps, kTol);
            EXPECT_GT(s.origin.x, 160.0f + r.half);
        } else {
            EXPECT_NEAR(s.origin.z, 24.0f + r.eps, kTol);
            EXPECT_NEAR(s.origin.x, 160.0f - r.half - r.eps, kTol);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Families, PlayerMoveRoom, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& p) {
                             return p.param ? "Quake1" : "Brushes";
                         });

TEST(PlayerMoveBrushes, CrouchesUnderALowRoofAndCannotStandThere) {
    // A roof 48 above the floor over x 160..256: the standing box (56 tall) stops before it,
    // the crouching one (Quake 3: maxs 16, 40 tall) goes under and stays crouched there.
    const Room r = brushRoom({{{160, 0, 48}, {256, 256, 256}}});
    const physics::CollisionWorld world(r.map);
    const PlayerMove move(world, physics::moveRulesFor(r.map.collision));
    PlayerState s = standAt(64, 128);
    run(move, s, kForward, 120);
    EXPECT_NEAR(s.origin.x, 160.0f - 15.0f - 0.125f, kTol);
    run(move, s, {1.0f, 0.0f, 0.0f, false, true}, 180);
    EXPECT_TRUE(s.crouched);
    EXPECT_NEAR(s.origin.x, 256.0f - 15.0f - 0.125f, kTol);
    run(move, s, {}, 10);
    EXPECT_TRUE(s.crouched); // no room to stand
    EXPECT_NEAR(s.origin.z, 24.125f, kTol);
}

TEST(WalkScript, ParsesEveryCommandIntoTicksAtSixtyHertz) {
    auto steps = physics::parseWalkScript("# comment\n"
                                          "forward 1.5\n"
                                          "\n"
                                          "turn -90   # right\n"
                                          "left 0.25\n"
                                          "jump\n"
                                          "crouch 0.5\n"
                                          "back 0.1\n"
                                          "right 1\n"
                                          "wait 2\n",
                                          "walk.txt");
    ASSERT_TRUE(steps.ok()) << steps.error().message();
    ASSERT_EQ(steps->size(), 8u);
    const std::vector<physics::WalkStep>& s = *steps;
    EXPECT_EQ(s[0].ticks, 90);
    EXPECT_FLOAT_EQ(s[0].input.forward, 1.0f);
    EXPECT_EQ(s[1].ticks, 0);
    EXPECT_FLOAT_EQ(s[1].turn, -90.0f);
    EXPECT_EQ(s[2].ticks, 15);
    EXPECT_FLOAT_EQ(s[2].input.side, -1.0f);
    EXPECT_EQ(s[3].ticks, 1);
    EXPECT_TRUE(s[3].input.jump);
    EXPECT_EQ(s[4].ticks, 30);
    EXPECT_TRUE(s[4].input.crouch);
    EXPECT_EQ(s[5].ticks, 6);
    EXPECT_FLOAT_EQ(s[5].input.forward, -1.0f);
    EXPECT_FLOAT_EQ(s[6].input.side, 1.0f);
    EXPECT_EQ(s[7].ticks, 120);
    EXPECT_FLOAT_EQ(s[7].input.forward, 0.0f);
    EXPECT_FALSE(s[7].input.crouch);
}

TEST(WalkScript, UpHoldsJump) {
    auto steps = physics::parseWalkScript("up 0.5\ncrouch 0.25\n", "walk.txt");
    ASSERT_TRUE(steps.ok()) << steps.error().message();
    ASSERT_EQ(steps->size(), 2u);
    EXPECT_EQ((*steps)[0].ticks, 30);
    EXPECT_TRUE((*steps)[0].input.jump);
    EXPECT_FALSE((*steps)[0].input.crouch);
    EXPECT_FLOAT_EQ((*steps)[0].input.forward, 0.0f);
    EXPECT_EQ((*steps)[1].ticks, 15);
    EXPECT_FALSE((*steps)[1].input.jump);
    EXPECT_TRUE((*steps)[1].input.crouch);
}

TEST(WalkScript, ErrorsNameTheFileAndLine) {
    const struct {
        const char* text;
        const char* message;
    } cases[] = {
        {"forward 1\nhop 2\n", "w.txt: line[2]: unknown command 'hop'"},
        {"forward\n", "w.txt: line[1]: forward needs a number"},
        {"wait 1s\n", "w.txt: line[1]: wait needs a number, got '1s'"},
        {"jump 2\n", "w.txt: line[1]: jump takes no value"},
        {"turn 90 left\n", "w.txt: line[1]: unexpected 'left' after 'turn'"},
        {"wait -1\n", "w.txt: line[1]: wait: seconds must be 0..3600"},
        {"wait nan\n", "w.txt: line[1]: wait needs a number, got 'nan'"},
        {"wait 3000\nwait 3000\n", "w.txt: line[2]: the script runs longer than an hour"},
    };
    for (const auto& c : cases) {
        auto r = physics::parseWalkScript(c.text, "w.txt");
        ASSERT_FALSE(r.ok()) << c.text;
        EXPECT_NE(r.error().message().find(c.message), std::string::npos) << r.error().message();
    }
}

TEST(WalkScript, PlaysTurnsAndMovesInTheRoom) {
    const Room r = quake1Room();
    const physics::CollisionWorld world(r.map);
    const PlayerMove move(world, physics::moveRulesFor(r.map.collision));
    // From (128, 128) facing +x: turn left to +y, walk to the y+ wall, turn right, walk to the
    // middle wall.
    auto steps = physics::parseWalkScript("turn 90\nforward 2\nturn -90\nforward 2\n", "w.txt");
    ASSERT_TRUE(steps.ok());
    PlayerState s = standAt(128, 128);
    float yaw = 0.0f;
    EXPECT_EQ(physics::playWalkScript(move, *steps, s, yaw), 240);
    EXPECT_FLOAT_EQ(yaw, 0.0f);
    EXPECT_NEAR(s.origin.y, 256.0f - 16.0f - r.eps, kTol);
    EXPECT_NEAR(s.origin.x, 256.0f - 16.0f - r.eps, 2 * r.eps); // in the corner, see above
    EXPECT_TRUE(s.on_ground);
}

namespace {

// A Half-Life room (version 30, Half-Life's hulls built for its boxes) with an optional
// brush entity against the middle wall (x 224..256, y 96..160, floor to ceiling).
Room halfLifeRoom(const std::vector<q1test::Liquid>& liquids, const char* entity = nullptr) {
    auto b = collisiontest::roomQ1();
    b.half_life = true;
    b.models[0].liquids = liquids;
    if (entity)
        b.models.push_back({{{{224, 96, 0}, {256, 160, 256}}}, entity});
    auto r = bsp::loadMap(b.build(), "room_hl.bsp");
    EXPECT_TRUE(r.ok()) << r.error().message();
    return {r.ok() ? std::move(*r) : bsp::Map{}, 1.0f / 32.0f, 16.0f};
}

} // namespace

TEST(PlayerMoveHalfLife, WaterLevelAndSwimSpeed) {
    // pm_shared.c PM_CheckWater: feet at origin - 35 (hull 1 -36 + 1), waist at the box middle
    // (the origin), eye at VEC_VIEW 28. PM_WaterMove: wish 320 x 0.8 = 256.
    const Room r = halfLifeRoom({kSlimeTo128});
    const physics::CollisionWorld world(r.map);
    const PlayerMove move(world, physics::moveRulesFor(r.map.collision));
    const struct {
        float z;
        int level;
    } cases[] = {{163.5f, 0}, {162.5f, 1}, {128.5f, 1}, {127.5f, 2}, {100.5f, 2}, {99.5f, 3}};
    for (const auto& c : cases)
        EXPECT_EQ(move.waterLevel(vec3(128, 128, c.z), false), c.level) << c.z;

    const Room deep = halfLifeRoom({kDeepWater});
    const physics::CollisionWorld deep_world(deep.map);
    const PlayerMove deep_move(deep_world, physics::moveRulesFor(deep.map.collision));
    PlayerState s = standAt(40, 128, 100);
    run(deep_move, s, kForward, 45);
    EXPECT_NEAR(s.velocity.x, 256.0f, kTol);
    EXPECT_FLOAT_EQ(s.origin.z, 100.0f);
}

namespace {

// Walks forward 1 s to the ladder, climbs with forward + jump until stopped, then lets go and
// climbs down.
struct Climb {
    float top = 0.0f;
    float held = 0.0f; // origin z after 1 s of no input at the top
    float held_vz = 0.0f;
    float down = 0.0f; // origin z after 0.5 s of crouch
    bool on_ladder = false;
};

Climb climbFrom(const PlayerMove& move, PlayerState s) {
    Climb c;
    run(move, s, kForward, 60);
    c.top = run(move, s, {1.0f, 0.0f, 0.0f, true, false}, 120);
    c.on_ladder = s.on_ladder;
    run(move, s, {}, 60);
    c.held = s.origin.z;
    c.held_vz = s.velocity.z;
    run(move, s, {0.0f, 0.0f, 0.0f, false, true}, 30);
    c.down = s.origin.z;
    return c;
}

} // namespace

TEST(PlayerMoveLadder, ClimbsBrushesMarkedAsLaddersOnly) {
    // A brush against the middle wall (x 240..256, y 96..160), marked as a ladder by its
    // contents (Quake 2 CONTENTS_LADDER) or by its side facing the player (Quake 3
    // SURF_LADDER), or not marked. Forward + jump climbs to the ceiling (256 - maxs 32 - 1/8);
    // letting go holds the player there (the vertical speed decays to 0, pmove.c PM_AirMove);
    // crouch climbs down. Unmarked, the same input only jumps (43.33 high).
    const q1test::Box ladder{{240, 96, 0}, {256, 160, 256}};
    for (const int mark : {0, 1, 2}) {
        Room r = brushRoom();
        const size_t first_side = r.map.collision.brush_sides.size();
        collisiontest::addBoxBrush(r.map, ladder,
                                   bsp::kCollideSolid | (mark == 1 ? bsp::kCollideLadder : 0u));
        if (mark == 2)
            r.map.collision.brush_sides[first_side].contents = bsp::kCollideLadder; // the -x side
        r.map.collision.leaf_brush_ranges = {{0, uint32_t(r.map.collision.leaf_brushes.size())}};
        const physics::CollisionWorld world(r.map);
        const PlayerMove move(world, physics::moveRulesFor(r.map.collision));
        const Climb c = climbFrom(move, standAt(128, 128));
        if (mark) {
            EXPECT_TRUE(c.on_ladder) << mark;
            EXPECT_NEAR(c.top, 256.0f - 32.0f - 0.125f, kTol) << mark;
            EXPECT_FLOAT_EQ(c.held, c.top) << mark;
            EXPECT_FLOAT_EQ(c.held_vz, 0.0f) << mark;
            EXPECT_LT(c.down, c.held - 50.0f) << mark;
        } else {
            EXPECT_FALSE(c.on_ladder);
            EXPECT_NEAR(c.top, 24.125f + 130.0f / 3.0f, kTol);
        }
    }
}

TEST(PlayerMoveLadder, ClimbsHalfLifeLadderVolumes) {
    // func_ladder is not solid (the player walks into it) and is a ladder volume
    // (bsp::ModelCollision::volume); func_wall is solid and only blocks. Half-Life's box is
    // 36 above the origin.
    for (const char* cls : {"func_ladder", "func_wall"}) {
        const Room r = halfLifeRoom({}, cls);
        const physics::CollisionWorld world(r.map);
        const PlayerMove move(world, physics::moveRulesFor(r.map.collision));
        const float floor = 36.0f + r.eps;
        const Climb c = climbFrom(move, standAt(128, 128, 40));
        if (std::string_view(cls) == "func_ladder") {
            EXPECT_EQ(r.map.collision.models[1].volume, uint32_t(bsp::kCollideLadder));
            EXPECT_TRUE(c.on_ladder);
            EXPECT_NEAR(c.top, 256.0f - 36.0f - r.eps, kTol);
            EXPECT_FLOAT_EQ(c.held, c.top);
            EXPECT_LT(c.down, c.held - 50.0f);
        } else {
            EXPECT_FALSE(c.on_ladder);
            EXPECT_LT(c.top, floor + 46.0f); // the 45-unit jump
        }
    }
}

TEST(CollisionPick, StopsAtTheHullShownOrTheBrushesOfTheFilter) {
    // Quake 1 room, from (128, 128, 100) along +x: hull 1's solid (the middle wall grown by the
    // box's 16) starts at x 240, the trace stopping DIST_EPSILON short; hull 2's (grown by 32)
    // at 224. Inside hull 1's solid nothing is picked.
    const Room q1 = quake1Room();
    const physics::CollisionWorld q1_world(q1.map);
    const vec3 from(128, 128, 100), ahead(1, 0, 0);
    auto h1 = physics::pickCollision(q1_world, from, ahead, 1000.0f, 1, 0);
    ASSERT_TRUE(h1.has_value());
    EXPECT_NEAR(h1->distance, 240.0f - 128.0f - 1.0f / 32.0f, kTol);
    EXPECT_EQ(h1->contents, uint32_t(bsp::kCollideSolid));
    auto h2 = physics::pickCollision(q1_world, from, ahead, 1000.0f, 2, 0);
    ASSERT_TRUE(h2.has_value());
    EXPECT_NEAR(h2->distance, 224.0f - 128.0f - 1.0f / 32.0f, kTol);
    EXPECT_FALSE(physics::pickCollision(q1_world, from, ahead, 100.0f, 1, 0).has_value());
    EXPECT_FALSE(
        physics::pickCollision(q1_world, vec3(128, 128, 10), ahead, 1000.0f, 1, 0).has_value());

    // Brushes: a player clip at x 200..208 is met (1/8 short) when the filter has player clip,
    // passed when it does not (then the filter has nothing ahead).
    Room b = brushRoom();
    collisiontest::addBoxBrush(b.map, {{200, 0, 0}, {208, 256, 256}}, bsp::kCollidePlayerClip);
    b.map.collision.leaf_brush_ranges = {{0, uint32_t(b.map.collision.leaf_brushes.size())}};
    const physics::CollisionWorld b_world(b.map);
    auto clip = physics::pickCollision(b_world, from, ahead, 1000.0f, 0, bsp::kCollidePlayerClip);
    ASSERT_TRUE(clip.has_value());
    EXPECT_NEAR(clip->distance, 200.0f - 128.0f - 0.125f, kTol);
    EXPECT_NEAR(clip->point.x, 200.0f - 0.125f, kTol);
    EXPECT_EQ(clip->contents, uint32_t(bsp::kCollidePlayerClip));
    EXPECT_FALSE(
        physics::pickCollision(b_world, from, ahead, 1000.0f, 0, bsp::kCollideWater).has_value());
}
