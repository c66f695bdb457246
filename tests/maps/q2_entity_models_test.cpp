// The Quake 2 entity model table (scene/entity_models.cpp kQuake2, from yquake2's g_items.c
// and game/monster/): its rules on hand-made entities, the shared maps whose models are not in
// the test data (listed, never an error), and hand-made .md2 files standing in for the game's
// models to check droptofloor and EF_ROTATE.
#include "scene/collision.h"
#include "scene/entity_models.h"
#include "scene/map_bundle.h"

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
    const auto rules = scene::entityModelRules(bsp::EntityModelTable::Quake2);
    ASSERT_EQ(rules.size(), 66u); // 39 items with a world model, 4 healths, 23 monsters
    auto rule = [&](const char* classname) {
        return scene::findEntityModelRule(rules, entity({{"classname", classname}}), 0);
    };
    const auto* rail = rule("weapon_railgun");
    ASSERT_NE(rail, nullptr);
    EXPECT_EQ(rail->model, "models/weapons/g_rail/tris.md2");
    EXPECT_TRUE(rail->rotates);
    EXPECT_EQ(rail->still_spawnflags, 2u);
    EXPECT_TRUE(rail->drops_to_floor);
    const auto* shells = rule("ammo_shells");
    ASSERT_NE(shells, nullptr);
    EXPECT_EQ(shells->model, "models/items/ammo/shells/medium/tris.md2");
    EXPECT_FALSE(shells->rotates);
    EXPECT_TRUE(shells->drops_to_floor);
    const auto* mega = rule("item_health_mega");
    ASSERT_NE(mega, nullptr);
    EXPECT_EQ(mega->model, "models/items/mega_h/tris.md2");
    const auto* ss = rule("monster_soldier_ss");
    ASSERT_NE(ss, nullptr);
    EXPECT_EQ(ss->model, "models/monsters/soldier/tris.md2");
    EXPECT_EQ(ss->skin, 4);
    EXPECT_FALSE(ss->drops_to_floor);
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
    const scene::CollisionWorld world(map);
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
