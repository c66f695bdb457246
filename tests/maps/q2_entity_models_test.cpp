// The Quake 2 entity model table (game/quake2.cpp kQuake2, from yquake2's g_items.c
// and game/monster/): its rules on hand-made entities, the shared maps whose models are not in
// the test data (listed, never an error), and hand-made .md2 files standing in for the game's
// models to check droptofloor, EF_ROTATE, the monsters' stand loops and M_droptofloor.
#include "game/entity_models.h"
#include "physics/collision.h"
#include "scene/load/map_bundle.h"
#include "scene/models/animation.h"
#include "scene/models/model_set.h"

#include "support/collision_room.h"
#include "support/md2_builder.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace {

const fs::path kMaps = BSPV_SHARED_MAPS_DIR;

bsp::Entity entity(std::vector<std::pair<std::string, std::string>> pairs) {
    bsp::Entity e;
    e.pairs = std::move(pairs);
    return e;
}

void writeFile(const fs::path& path, const std::vector<uint8_t>& bytes) {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

} // namespace

TEST(EntityModels, Quake2ItemsAndMonsters) {
    const auto rules = game::entityModelRules(game::EntityModelTable::Quake2);
    ASSERT_EQ(rules.size(), 66u); // 39 items with a world model, 4 healths, 23 monsters
    auto rule = [&](const char* classname) {
        return game::findEntityModelRule(rules, entity({{"classname", classname}}), 0);
    };
    const auto* rail = rule("weapon_railgun");
    ASSERT_NE(rail, nullptr);
    EXPECT_EQ(rail->model, "models/weapons/g_rail/tris.md2");
    EXPECT_TRUE(rail->rotates);
    EXPECT_EQ(rail->still_spawnflags, 2u);
    EXPECT_EQ(rail->drop.distance, 128.0f); // g_items.c droptofloor
    EXPECT_EQ(rail->drop.raise, 0.0f);
    EXPECT_EQ(rail->drop.mins, glm::vec3(-15.0f));
    EXPECT_EQ(rail->drop.maxs, glm::vec3(15.0f));
    EXPECT_EQ(rail->drop.mask, uint32_t(bsp::kCollideSolid));
    EXPECT_TRUE(rail->drop.removes_in_solid);
    EXPECT_FALSE(rail->drop.needs_floor);
    const auto* shells = rule("ammo_shells");
    ASSERT_NE(shells, nullptr);
    EXPECT_EQ(shells->model, "models/items/ammo/shells/medium/tris.md2");
    EXPECT_FALSE(shells->rotates);
    EXPECT_EQ(shells->drop.distance, 128.0f);
    const auto* mega = rule("item_health_mega");
    ASSERT_NE(mega, nullptr);
    EXPECT_EQ(mega->model, "models/items/mega_h/tris.md2");
    const auto* ss = rule("monster_soldier_ss");
    ASSERT_NE(ss, nullptr);
    EXPECT_EQ(ss->model, "models/monsters/soldier/tris.md2");
    EXPECT_EQ(ss->skin, 4);
    // soldier.h FRAME_stand101 = 146 .. FRAME_stand130 = 175; SP_monster_soldier_x's box.
    EXPECT_EQ(ss->frame, 146);
    EXPECT_EQ(ss->idle_frames, 30);
    EXPECT_EQ(ss->drop.distance, 256.0f); // g_monster.c M_droptofloor
    EXPECT_EQ(ss->drop.raise, 1.0f);
    EXPECT_EQ(ss->drop.mins, glm::vec3(-16, -16, -24));
    EXPECT_EQ(ss->drop.maxs, glm::vec3(16, 16, 32));
    EXPECT_EQ(ss->drop.mask, uint32_t(bsp::kCollideSolid | bsp::kCollideMonsterClip));
    EXPECT_EQ(ss->drop.skip_spawnflags, 2u);
    EXPECT_TRUE(ss->drop.needs_floor);
    EXPECT_FALSE(ss->drop.removes_in_solid);
    // Flying and swimming monsters are not dropped; flipper_move_stand is one frame.
    EXPECT_EQ(rule("monster_flyer")->drop.distance, 0.0f);
    EXPECT_EQ(rule("monster_flyer")->frame, 13);
    EXPECT_EQ(rule("monster_flyer")->idle_frames, 45);
    EXPECT_EQ(rule("monster_boss2")->drop.distance, 0.0f);
    EXPECT_EQ(rule("monster_flipper")->drop.distance, 0.0f);
    EXPECT_EQ(rule("monster_flipper")->frame, 41);
    EXPECT_EQ(rule("monster_flipper")->idle_frames, 1);
    // The commander's body is no monster: frame 0, where the map puts it.
    EXPECT_EQ(rule("monster_commander_body")->frame, 0);
    EXPECT_EQ(rule("monster_commander_body")->idle_frames, 0);
    EXPECT_EQ(rule("monster_commander_body")->drop.distance, 0.0f);
    // Jorg carries makron's rider on its own frames (boss31.c modelindex2).
    EXPECT_EQ(rule("monster_jorg")->model2, "models/monsters/boss3/rider/tris.md2");
    EXPECT_EQ(rule("monster_jorg")->frame, 112);
    EXPECT_EQ(rule("monster_jorg")->idle_frames, 51);
    EXPECT_EQ(rule("monster_makron")->frame, 414);
    EXPECT_EQ(rule("monster_makron")->idle_frames, 60);
    ASSERT_NE(rule("monster_tank_commander"), nullptr);
    EXPECT_EQ(rule("monster_tank_commander")->skin, 2);
    EXPECT_EQ(rule("monster_makron")->model, "models/monsters/boss3/rider/tris.md2");
    EXPECT_EQ(rule("weapon_blaster"), nullptr); // no world model in the item list
    EXPECT_EQ(rule("info_player_start"), nullptr);
}

// aq_urbanjungle places 39 weapons and ammo boxes (counted with Python from its entity lump);
// the shared data has no Quake 2 models, so every one is listed as not found.
TEST(EntityModelsMaps, Quake2ModelsMissingAreListed) {
    auto loaded = scene::loadMapBundle((kMaps / "q2/aq_urbanjungle.bsp").string(), {});
    ASSERT_TRUE(loaded.ok()) << loaded.error().message();
    const scene::EntityModelSet& set = (*loaded)->models;
    EXPECT_EQ(set.wanted, 39u);
    EXPECT_TRUE(set.instances.empty());
    ASSERT_EQ(set.missing.size(), 39u);
    for (const std::string& m : set.missing)
        EXPECT_NE(m.find("tris.md2 (not found)"), std::string::npos) << m;
}

// The hand-made .md2 as the railgun and the slugs of aq_urbanjungle (2 and 4 entities): the
// items stand on the floor after droptofloor and the railgun turns unless ITEM_NO_TOUCH.
TEST(EntityModelsMaps, Quake2ItemsDropAndRotate) {
    auto loaded = scene::loadMapBundle((kMaps / "q2/aq_urbanjungle.bsp").string(), {});
    ASSERT_TRUE(loaded.ok()) << loaded.error().message();
    const scene::MapBundle& b = **loaded;
    const fs::path dir = fs::temp_directory_path() / "bspv_q2_models";
    fs::remove_all(dir);
    writeFile(dir / "models/weapons/g_rail/tris.md2", md2test::buildMd2());
    writeFile(dir / "models/items/ammo/slugs/medium/tris.md2", md2test::buildMd2());
    content::FileSystem files;
    ASSERT_TRUE(files.addDirectory(dir).ok());

    bsp::Map map = b.map;
    uint32_t first_rail = 0;
    for (uint32_t i = 0; i < map.entities.size(); ++i)
        if (map.entities[i].classname() == "weapon_railgun") {
            first_rail = i;
            map.entities[i].pairs.emplace_back("spawnflags", "2"); // ITEM_NO_TOUCH
            break;
        }
    const scene::EntityModelSet set = scene::loadEntityModels(map, files, b.lightmaps, b.mesh);
    EXPECT_EQ(set.wanted, 39u);
    ASSERT_EQ(set.instances.size(), 6u);
    EXPECT_EQ(set.missing.size(), 33u);
    const physics::CollisionWorld world(map);
    int rotating = 0;
    for (const auto& inst : set.instances) {
        const auto origin = map.entities[inst.entity].vec3("origin");
        ASSERT_TRUE(origin);
        EXPECT_EQ(inst.origin.x, origin->x);
        EXPECT_EQ(inst.origin.y, origin->y);
        EXPECT_LE(inst.origin.z, origin->z);
        EXPECT_GE(inst.origin.z, origin->z - 128.0f);
        // Resting: the +-15 box one unit lower meets solid.
        const glm::vec3 half(15.0f);
        const auto below = world.trace(inst.origin, inst.origin - glm::vec3(0, 0, 1), -half, half,
                                       bsp::kCollideSolid);
        EXPECT_LT(below.fraction, 1.0f) << inst.entity;
        const bool rail = map.entities[inst.entity].classname() == "weapon_railgun";
        EXPECT_EQ(inst.rotates, rail && inst.entity != first_rail) << inst.entity;
        rotating += inst.rotates ? 1 : 0;
        const scene::LoadedModel& lm = set.models[inst.model];
        ASSERT_TRUE(lm.mesh);
        // The skin models/test/skin.pcx is absent: a checker, listed as a warning.
        EXPECT_EQ(lm.mesh->images.size(), 1u);
        EXPECT_EQ(lm.warnings.size(), 1u);
    }
    EXPECT_EQ(rotating, 1);
    fs::remove_all(dir);
}

// Hand-made monsters in the collision tests' brush room (floor top z = 0, a middle wall at
// x 256..272) with Quake 2's DIST_EPSILON, which keeps a box 1/32 unit above what it lands on
// (cmodel.c CM_ClipBoxToBrush), and a monster clip slab (x 384..480, y 32..224, z 0..32).
TEST(EntityModels, Quake2MonstersStandAndDrop) {
    bsp::Map map = collisiontest::brushRoomMap();
    map.collision.clip_epsilon = 0.03125f;
    collisiontest::addBoxBrush(map, {{384, 32, 0}, {480, 224, 32}}, bsp::kCollideMonsterClip);
    map.collision.leaf_brush_ranges[0].count = uint32_t(map.collision.leaf_brushes.size());
    map.format = bsp::Format::Quake2; // its game's table (game::profileFor)
    map.entities = {
        entity({{"classname", "worldspawn"}}),
        // Box bottom 40 units over the floor: lands with mins.z -24 on it.
        entity({{"classname", "monster_soldier"}, {"origin", "64 64 64"}}),
        // MONSTER_TRIGGER_SPAWN: not dropped (walkmonster_start_go).
        entity({{"classname", "monster_soldier_ss"}, {"origin", "64 192 64"}, {"spawnflags", "2"}}),
        // Flying and swimming: left where they are.
        entity({{"classname", "monster_flyer"}, {"origin", "160 64 100"}}),
        entity({{"classname", "monster_flipper"}, {"origin", "160 192 100"}}),
        entity({{"classname", "monster_floater"}, {"origin", "200 128 100"}}),
        // On the monster clip (MASK_MONSTERSOLID), which an item falls through (MASK_SOLID).
        entity({{"classname", "monster_gladiator"}, {"origin", "432 128 100"}}),
        entity({{"classname", "weapon_railgun"}, {"origin", "432 200 64"}}),
        // Inside the middle wall: moved to the floor all the same, kept, and reported.
        entity({{"classname", "monster_soldier_light"}, {"origin", "264 16 100"}}),
        // Outside the room, no floor within 256 units: left 1 unit up.
        entity({{"classname", "monster_tank"}, {"origin", "1000 100 100"}}),
    };

    const fs::path dir = fs::temp_directory_path() / "bspv_q2_monsters";
    fs::remove_all(dir);
    auto md2 = [&](const char* path, int32_t frames) {
        md2test::Md2Options o;
        o.frames = frames;
        writeFile(dir / path, md2test::buildMd2(o));
    };
    md2("models/monsters/soldier/tris.md2", 176); // stand101..130 = 146..175: all there
    md2("models/monsters/flyer/tris.md2", 58);    // stand01..45 = 13..57: all there
    md2("models/monsters/float/tris.md2", 195);   // stand101..152 = 144..195: one short
    md2("models/monsters/flipper/tris.md2", 2);   // flphor01 = 41: past the end
    md2("models/monsters/gladiatr/tris.md2", 7);  // stand1..7 = 0..6
    md2("models/monsters/tank/tris.md2", 30);     // stand01..30 = 0..29
    md2("models/weapons/g_rail/tris.md2", 2);
    content::FileSystem files;
    ASSERT_TRUE(files.addDirectory(dir).ok());
    const scene::EntityModelSet set =
        scene::loadEntityModels(map, files, scene::LightmapSet{}, scene::WorldMesh{});
    fs::remove_all(dir);
    EXPECT_EQ(set.wanted, 9u);
    EXPECT_TRUE(set.missing.empty()) << set.missing.front();
    ASSERT_EQ(set.instances.size(), 9u);
    auto at = [&](const char* classname) -> const scene::EntityModelInstance& {
        for (const auto& inst : set.instances)
            if (map.entities[inst.entity].classname() == classname)
                return inst;
        ADD_FAILURE() << classname;
        return set.instances.front();
    };
    auto pose = [&](const scene::EntityModelInstance& inst, double t) {
        return scene::instancePose(inst, *set.models[inst.model].mesh, t);
    };

    const scene::EntityModelInstance& soldier = at("monster_soldier");
    EXPECT_EQ(soldier.origin, glm::vec3(64, 64, 24.03125f));
    EXPECT_EQ(soldier.skin, 0); // skin 2 asked for, the model has one
    // soldier_move_stand1 at 10 Hz: frame 146 + floor(10 t) mod 30.
    EXPECT_EQ(soldier.first_frame, 146u);
    EXPECT_EQ(soldier.frame_count, 30u);
    EXPECT_EQ(pose(soldier, 0.0), 146u);
    EXPECT_EQ(pose(soldier, 0.1), 147u);
    EXPECT_EQ(pose(soldier, 0.25), 148u);
    EXPECT_EQ(pose(soldier, 2.95), 175u);
    EXPECT_EQ(pose(soldier, 3.0), 146u);
    EXPECT_EQ(pose(soldier, 7.45), 160u); // step 74, 74 mod 30 = 14

    EXPECT_EQ(at("monster_soldier_ss").origin, glm::vec3(64, 192, 64));
    EXPECT_EQ(pose(at("monster_soldier_ss"), 1.0), 156u);

    const scene::EntityModelInstance& flyer = at("monster_flyer");
    EXPECT_EQ(flyer.origin, glm::vec3(160, 64, 100));
    EXPECT_EQ(pose(flyer, 0.0), 13u);
    EXPECT_EQ(pose(flyer, 4.45), 57u);
    EXPECT_EQ(pose(flyer, 4.5), 13u);
    EXPECT_EQ(at("monster_flipper").origin, glm::vec3(160, 192, 100));
    EXPECT_EQ(at("monster_floater").origin, glm::vec3(200, 128, 100));
    // Models too short for their loop stand still on the loop's first frame, clamped to the
    // last frame the file has.
    EXPECT_EQ(at("monster_floater").frame_count, 1u);
    EXPECT_EQ(pose(at("monster_floater"), 0.0), 144u);
    EXPECT_EQ(pose(at("monster_floater"), 1.0), 144u);
    EXPECT_EQ(pose(at("monster_flipper"), 0.0), 1u);
    EXPECT_EQ(pose(at("monster_flipper"), 3.7), 1u);

    // Slab top 32 + 24 + 1/32; the railgun's +-15 box passes the clip to the floor.
    const scene::EntityModelInstance& gladiator = at("monster_gladiator");
    EXPECT_EQ(gladiator.origin, glm::vec3(432, 128, 56.03125f));
    EXPECT_EQ(pose(gladiator, 0.65), 6u);
    EXPECT_EQ(pose(gladiator, 0.75), 0u);
    EXPECT_EQ(at("weapon_railgun").origin, glm::vec3(432, 200, 15.03125f));

    EXPECT_EQ(at("monster_soldier_light").origin, glm::vec3(264, 16, 24.03125f));
    ASSERT_EQ(set.warnings.size(), 1u);
    EXPECT_EQ(set.warnings[0], "monster_soldier_light in solid at (264 16 24)");

    EXPECT_EQ(at("monster_tank").origin, glm::vec3(1000, 100, 101));
    EXPECT_EQ(pose(at("monster_tank"), 2.95), 29u);
}
