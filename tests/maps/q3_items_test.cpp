// Quake 3 / OpenArena items (game/entity_models.h, game/quake3.cpp, animation.h): the table from
// bg_itemlist, the turn and bob of cgame's CG_Item, and oa_dm1's items loaded through the map's
// pk3.
#include "game/entity_models.h"
#include "scene/load/map_bundle.h"
#include "scene/models/animation.h"
#include "scene/models/model_set.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

namespace {

bsp::Entity entity(std::vector<std::pair<std::string, std::string>> pairs) {
    bsp::Entity e;
    e.pairs = std::move(pairs);
    return e;
}

} // namespace

TEST(Quake3Items, TableFromTheItemList) {
    const auto rules = game::entityModelRules(game::EntityModelTable::Quake3);
    const auto* health = game::findEntityModelRule(
        rules, entity({{"classname", "item_health"}, {"origin", "0 0 0"}}), 0);
    ASSERT_NE(health, nullptr);
    EXPECT_EQ(health->model, "models/powerups/health/medium_cross.md3");
    EXPECT_EQ(health->model2, "models/powerups/health/medium_sphere.md3");
    EXPECT_TRUE(health->item_motion);
    EXPECT_FALSE(health->weapon);
    const auto* rl =
        game::findEntityModelRule(rules, entity({{"classname", "weapon_rocketlauncher"}}), 0);
    ASSERT_NE(rl, nullptr);
    EXPECT_EQ(rl->model, "models/weapons2/rocketl/rocketl.md3");
    EXPECT_TRUE(rl->weapon);
    const auto* misc = game::findEntityModelRule(rules, entity({{"classname", "misc_model"}}), 0);
    ASSERT_NE(misc, nullptr);
    EXPECT_TRUE(misc->model.empty());
    EXPECT_EQ(game::findEntityModelRule(rules, entity({{"classname", "monster_army"}}), 0),
              nullptr);
}

TEST(Quake3Items, TurnAndBobByTime) {
    scene::EntityModelInstance inst;
    inst.origin = glm::vec3(10, 20, 30);
    inst.rotates = true;
    inst.spin_rate = 360.0f / 2.048f;
    inst.bob_scale = 0.005f;
    // (1024 & 2047) * 360 / 2048 = 180 degrees at 1.024 s.
    EXPECT_NEAR(scene::instanceYaw(inst, 1.024), 180.0f, 1e-3f);
    EXPECT_NEAR(scene::instanceYaw(inst, 2.048 + 0.512), 90.0f, 1e-3f);
    // 4 + cos((0 + 1000) * 0.005) * 4 = 4 + 4 cos 5 = 5.134649 at time 0.
    EXPECT_NEAR(scene::instanceOrigin(inst, 0.0).z, 30.0f + 5.134649f, 1e-4f);
    // At 0.5 s: 4 + 4 cos(1500 * 0.005) = 4 + 4 cos 7.5 = 5.386541.
    EXPECT_NEAR(scene::instanceOrigin(inst, 0.5).z, 30.0f + 5.386541f, 1e-4f);
    EXPECT_EQ(scene::instanceOrigin(inst, 0.5).x, 10.0f);
    inst.bob_scale = 0.0f; // Quake 1 models do not bob
    EXPECT_EQ(scene::instanceOrigin(inst, 0.5), inst.origin);
}

TEST(Quake3Items, OpenArenaDm1) {
    const std::string spec =
        (std::filesystem::path(BSPV_OPENARENA_DIR) / "pak1-maps.pk3").string() + ":maps/oa_dm1.bsp";
    auto loaded = scene::loadMapBundle(spec, {});
    ASSERT_TRUE(loaded.ok()) << loaded.error().message();
    const scene::EntityModelSet& set = (*loaded)->models;
    // 31 items in the entity lump; the armour shards' sphere (8) and the invisibility ring (1)
    // are not in OpenArena's paks.
    EXPECT_EQ(set.wanted, 31u);
    ASSERT_EQ(set.missing.size(), 9u);
    EXPECT_EQ(set.missing[0],
              "item_armor_shard: models/powerups/armor/shard_sphere.md3 (not found)");
    size_t launchers = 0;
    for (const scene::EntityModelInstance& inst : set.instances) {
        EXPECT_TRUE(inst.rotates);
        EXPECT_GT(inst.bob_scale, 0.0f);
        const scene::LoadedModel& m = set.models[inst.model];
        ASSERT_TRUE(m.mesh.has_value()) << m.path;
        ASSERT_EQ(m.mesh->images.size(), 1u) << m.path;
        EXPECT_GT(m.mesh->images[0].width, 0) << m.path;
        if (m.path.starts_with("models/weapons2/rocketl/rocketl.md3#")) {
            ++launchers;
            EXPECT_EQ(inst.scale, 1.5f);
            // Dropped: below the origin the map gives ("61 1152 48" and "894 1217 30"), never
            // above it plus the 8-unit lift.
            EXPECT_LE(inst.origin.z, 56.0f);
        }
    }
    EXPECT_GE(launchers, 2u);
}
