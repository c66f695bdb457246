// Quake 1 entity state at spawn (game/quake1.cpp): brush models where LibreQuake's QuakeC puts
// them (game::spawnBrushModels) and the light styles it switches off (game::EntityRules), on
// hand-built maps. Every expected origin is worked out from the QuakeC rule with the engine's
// model bounds (file bounds spread by 1).
#include "bsp/load.h"
#include "game/profile.h"
#include "support/q1_builder.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace {

using Keys = std::vector<std::pair<std::string, std::string>>;

const q1test::Box kFloor{{-512, -512, -64}, {512, 512, -48}};

// The world floor plus one brush entity per (classname, box, keys).
struct Ent {
    const char* classname;
    q1test::Box box;
    Keys keys;
};

bsp::Map build(const std::vector<Ent>& ents, std::string extra = {}, std::string world = {}) {
    q1test::Q1Builder b;
    b.world_keys = std::move(world);
    b.models.push_back({{kFloor}, "", {}});
    for (const Ent& e : ents)
        b.models.push_back({{e.box}, e.classname, e.keys});
    b.extra_entities = std::move(extra);
    auto r = bsp::loadMap(b.build(), "spawn.bsp");
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message());
    bsp::Map m = r.ok() ? std::move(*r) : bsp::Map{};
    game::spawnBrushModels(game::profileFor(m), m);
    return m;
}

game::GameProfile profileOf(const std::vector<Ent>& ents, std::string extra = {},
                            std::string world = {}) {
    return game::profileFor(build(ents, std::move(extra), std::move(world)));
}

void expectOrigin(const bsp::Map& m, size_t model, glm::vec3 want) {
    ASSERT_LT(model, m.submodels.size());
    const glm::vec3 o = m.submodels[model].origin;
    // Yaw 90 leaves cos(pi/2) ~ 6e-17 in the move direction, as in the engine.
    EXPECT_NEAR(o.x, want.x, 1e-4f) << "model " << model;
    EXPECT_NEAR(o.y, want.y, 1e-4f) << "model " << model;
    EXPECT_NEAR(o.z, want.z, 1e-4f) << "model " << model;
}

const q1test::Box kDoorBox{{0, 0, 0}, {64, 8, 96}}; // engine size 66 x 10 x 98

} // namespace

TEST(Q1Spawn, StartOpenDoorsMoveByTheirSizeLessTheLip) {
    const bsp::Map m = build({
        {"func_door", kDoorBox, {{"spawnflags", "1"}, {"angle", "-1"}}},               // up
        {"func_door", kDoorBox, {{"spawnflags", "1"}, {"angle", "0"}}},                // +x
        {"func_door", kDoorBox, {{"spawnflags", "1"}, {"angle", "90"}, {"lip", "4"}}}, // +y
        {"func_door", kDoorBox, {{"spawnflags", "1"}, {"angle", "-2"}, {"lip", "0"}}}, // down
        {"func_door", kDoorBox, {{"spawnflags", "32"}, {"angle", "-1"}}}, // toggle, closed
        {"func_door", kDoorBox, {{"spawnflags", "1"}, {"angles", "-90 0 0"}, {"origin", "8 0 0"}}},
    });
    ASSERT_EQ(m.submodels.size(), 7u);
    expectOrigin(m, 1, {0, 0, 98 - 8}); // |(0,0,1).size| = 98, lip 8
    expectOrigin(m, 2, {66 - 8, 0, 0}); // yaw 0: +x, 66 - 8
    expectOrigin(m, 3, {0, 10 - 4, 0}); // yaw 90: +y, 10 - lip 4
    expectOrigin(m, 4, {0, 0, -90});    // down; lip 0 means the default 8
    expectOrigin(m, 5, {0, 0, 0});      // no START_OPEN: where the map has it
    expectOrigin(m, 6, {8, 0, 98 - 8}); // pitch -90 looks up: from its own origin
}

TEST(Q1Spawn, PlatsWithoutATargetnameStartLowered) {
    const q1test::Box plat{{100, 0, 0}, {164, 64, 128}}; // engine height 130
    const bsp::Map m = build({
        {"func_plat", plat, {}},
        {"func_plat", plat, {{"height", "40"}}},
        {"func_plat", plat, {{"targetname", "lift"}}},
        {"func_plat", plat, {{"angles", "0 90 0"}}},
    });
    ASSERT_EQ(m.submodels.size(), 5u);
    expectOrigin(m, 1, {0, 0, -(130 - 8)});
    expectOrigin(m, 2, {0, 0, -40});
    expectOrigin(m, 3, {0, 0, 0}); // triggered: waits at the top
    expectOrigin(m, 4, {0, 0, -(130 - 8)});
    EXPECT_EQ(m.submodels[4].angles, glm::vec3(0.0f)); // func_plat draws unturned
}

TEST(Q1Spawn, TrainsSitAtTheirFirstTarget) {
    const q1test::Box car{{200, 200, 0}, {264, 264, 16}}; // engine mins 199 199 -1
    const bsp::Map m = build(
        {
            {"func_train", car, {{"target", "p1"}}},
            {"func_train", car, {{"target", "nowhere"}}},
            {"func_train", car, {}},
            {"func_train", car, {{"target", "p2"}}},
        },
        "{\n\"classname\" \"path_corner\"\n\"targetname\" \"p1\"\n\"origin\" \"300 400 50\"\n}\n"
        "{\n\"classname\" \"path_corner\"\n\"targetname\" \"p1\"\n\"origin\" \"0 0 0\"\n}\n"
        "{\n\"classname\" \"path_corner\"\n\"targetname\" \"p2\"\n\"origin\" \"9 9 9\"\n"
        "\"spawnflags\" \"512\"\n}\n"
        "{\n\"classname\" \"path_corner\"\n\"targetname\" \"p2\"\n\"origin\" \"-40 8 -16\"\n}\n");
    ASSERT_EQ(m.submodels.size(), 5u);
    expectOrigin(m, 1, {300 - 199, 400 - 199, 50 + 1}); // the first p1 in entity order
    expectOrigin(m, 2, {-199, -199, 1});                // no such target: find gives the world
    EXPECT_FALSE(m.submodels[3].visible);               // no target: objerror removes it
    expectOrigin(m, 4, {-40 - 199, 8 - 199, -16 + 1});  // the p2 not spawned on skill 1 skipped
    EXPECT_TRUE(m.submodels[1].visible);
}

TEST(Q1Spawn, EntitiesExcludedFromNormalSkillAreHidden) {
    const q1test::Box box{{0, 0, 0}, {32, 32, 32}};
    const bsp::Map m = build({
        {"func_wall", box, {{"spawnflags", "512"}}},  // not in normal
        {"func_wall", box, {{"spawnflags", "256"}}},  // not in easy
        {"func_wall", box, {{"spawnflags", "1024"}}}, // not in hard
        {"func_door", box, {{"spawnflags", "513"}, {"angle", "-1"}}},
    });
    ASSERT_EQ(m.submodels.size(), 5u);
    EXPECT_FALSE(m.submodels[1].visible);
    EXPECT_TRUE(m.submodels[2].visible);
    EXPECT_TRUE(m.submodels[3].visible);
    EXPECT_FALSE(m.submodels[4].visible);
    expectOrigin(m, 4, {0, 0, 0}); // never spawned, never opened
}

TEST(Q1Spawn, SwitchableLightsThatStartOffAreDark) {
    const auto light = [](const char* cls, const char* extra) {
        return std::string("{\n\"classname\" \"") + cls + "\"\n" + extra + "}\n";
    };
    const game::GameProfile p = profileOf(
        {}, light("light", "\"targetname\" \"a\"\n\"style\" \"32\"\n\"spawnflags\" \"1\"\n") +
                light("light_fluoro", "\"targetname\" \"b\"\n\"style\" \"33\"\n") +
                light("light", "\"style\" \"34\"\n\"spawnflags\" \"1\"\n") + // inert: removed
                light("light", "\"targetname\" \"c\"\n\"style\" \"35\"\n\"spawnflags\" \"513\"\n") +
                light("light", "\"targetname\" \"d\"\n\"style\" \"5\"\n\"spawnflags\" \"1\"\n") +
                light("light", "\"targetname\" \"e\"\n\"style\" \"36\"\n\"spawnflags\" \"1\"\n") +
                light("light", "\"targetname\" \"f\"\n\"style\" \"36\"\n")); // last one wins
    std::vector<std::pair<int32_t, std::string>> got;
    for (const game::LightStyleString& s : p.entities.light_styles)
        got.emplace_back(s.style, s.letters);
    const std::vector<std::pair<int32_t, std::string>> want = {
        {32, "a"}, {33, "m"}, {36, "m"}, {63, "a"}};
    EXPECT_EQ(got, want);
}

// QuakeSpasm Fog_ParseWorldspawn: "fog" or "_fog", density then colour, sscanf-style; the
// density reaches GL divided by 64, the colour rounded to 8 bits; r_skyfog 0.5 over the sky.
TEST(Q1Spawn, WorldspawnFogAsQuakeSpasmReadsIt) {
    const auto fogOf = [](const std::string& world) { return profileOf({}, {}, world).rules.fog; };
    game::DistanceFog f = fogOf("\"_fog\" \"0.035 0.921569 0 0.0156863\"\n"); // mt_sm214
    EXPECT_FLOAT_EQ(f.density, 0.035f / 64.0f);
    EXPECT_FLOAT_EQ(f.colour.r, 235.0f / 255.0f); // 0.921569 * 255 = 235.000
    EXPECT_FLOAT_EQ(f.colour.g, 0.0f);
    EXPECT_FLOAT_EQ(f.colour.b, 4.0f / 255.0f); // 4.000002 -> 4
    EXPECT_FLOAT_EQ(f.sky, 0.5f);

    f = fogOf("\"fog\" \"0.1\"\n\"skyfog\" \"0.25\"\n"); // no colour: 0.3 grey
    EXPECT_FLOAT_EQ(f.density, 0.1f / 64.0f);
    EXPECT_EQ(f.colour, glm::vec3(77.0f / 255.0f)); // 76.5 -> 77
    EXPECT_FLOAT_EQ(f.sky, 0.25f);

    f = fogOf("\"fog\" \"0.1 2 x 0\"\n\"_fog \" \"0.2 0.5\"\n"); // the last key wins
    EXPECT_FLOAT_EQ(f.density, 0.2f / 64.0f);
    EXPECT_EQ(f.colour, glm::vec3(128.0f / 255.0f, 77.0f / 255.0f, 77.0f / 255.0f));

    EXPECT_EQ(fogOf("").density, 0.0f);
    EXPECT_EQ(fogOf("\"fog\" \"0 1 0 0\"\n").density, 0.0f); // density 0: no fog
    EXPECT_EQ(fogOf("\"fog\" \"dense\"\n").density, 0.0f);
    EXPECT_FLOAT_EQ(profileOf({}).rules.warp.period, 128.0f); // QuakeSpasm's warp image
}
