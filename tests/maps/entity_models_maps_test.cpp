// Which entity gets which model (scene/entity_models.h): the Quake 1 table's rules on
// hand-made entities, the timing of poses, skins and turning, and LibreQuake's e1m1 with the
// models in ../shared/maps/q1/progs (the item boxes maps/b_*.bsp are not there: listed).
#include "scene/entity_models.h"
#include "scene/map_bundle.h"
#include "scene/visibility.h"

#include "support/model_builder.h"

#include "content/mdl.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>

namespace fs = std::filesystem;

namespace {

const fs::path kMaps = BSPV_SHARED_MAPS_DIR;

bsp::Entity entity(std::vector<std::pair<std::string, std::string>> pairs) {
    bsp::Entity e;
    e.pairs = std::move(pairs);
    return e;
}

} // namespace

TEST(EntityModels, Quake1RulesBySpawnflagsAndWorldtype) {
    const auto rules = scene::entityModelRules(bsp::EntityModelTable::Quake1);
    ASSERT_FALSE(rules.empty());
    EXPECT_TRUE(scene::entityModelRules(bsp::EntityModelTable::None).empty());
    auto model = [&](std::vector<std::pair<std::string, std::string>> pairs, int32_t worldtype) {
        const auto* r = scene::findEntityModelRule(rules, entity(std::move(pairs)), worldtype);
        return r ? std::string(r->model) : std::string("none");
    };
    EXPECT_EQ(model({{"classname", "item_health"}}, 0), "maps/b_bh25.bsp");
    EXPECT_EQ(model({{"classname", "item_health"}, {"spawnflags", "1"}}, 0), "maps/b_bh10.bsp");
    EXPECT_EQ(model({{"classname", "item_health"}, {"spawnflags", "2"}}, 0), "maps/b_bh100.bsp");
    // Skill flags (256 not in easy, ...) do not change the model.
    EXPECT_EQ(model({{"classname", "item_health"}, {"spawnflags", "258"}}, 0), "maps/b_bh100.bsp");
    EXPECT_EQ(model({{"classname", "item_key1"}}, 0), "progs/w_s_key.mdl");
    EXPECT_EQ(model({{"classname", "item_key1"}}, 1), "progs/m_s_key.mdl");
    EXPECT_EQ(model({{"classname", "item_key2"}}, 2), "progs/b_g_key.mdl");
    EXPECT_EQ(model({{"classname", "item_sigil"}, {"spawnflags", "4"}}, 0), "progs/end3.mdl");
    EXPECT_EQ(model({{"classname", "item_sigil"}}, 0), "none");
    EXPECT_EQ(model({{"classname", "light"}}, 0), "none");
    const auto* flame =
        scene::findEntityModelRule(rules, entity({{"classname", "light_flame_large_yellow"}}), 0);
    ASSERT_NE(flame, nullptr);
    EXPECT_EQ(flame->frame, 1);
    EXPECT_TRUE(flame->fullbright);
    const auto* armor =
        scene::findEntityModelRule(rules, entity({{"classname", "item_armorInv"}}), 0);
    ASSERT_NE(armor, nullptr);
    EXPECT_EQ(armor->skin, 2);
}

TEST(EntityModels, PoseSkinAndYawByTime) {
    auto mesh = content::decodeMdl(modeltest::buildMdl(), content::defaultQuakePalette());
    ASSERT_TRUE(mesh.ok());
    scene::EntityModelInstance inst;
    inst.first_frame = 1; // the group: poses 1 (until 0.2 s) and 2 (until 0.5 s)
    EXPECT_EQ(scene::instancePose(inst, *mesh, 0.1), 1u);
    EXPECT_EQ(scene::instancePose(inst, *mesh, 0.3), 2u);
    EXPECT_EQ(scene::instancePose(inst, *mesh, 0.7), 1u);
    // Idle frames at 10 Hz: frames 0, 1, 0, 1, ... (frame 1's group then picks its pose).
    inst.first_frame = 0;
    inst.frame_count = 2;
    EXPECT_EQ(scene::instancePose(inst, *mesh, 0.05), 0u);
    EXPECT_EQ(scene::instancePose(inst, *mesh, 0.15), 1u);
    EXPECT_EQ(scene::instancePose(inst, *mesh, 0.25), 0u);
    inst.skin = 1; // images 1 (until 0.1 s) and 2 (until 0.3 s)
    EXPECT_EQ(scene::instanceSkinImage(inst, *mesh, 0.05), 1u);
    EXPECT_EQ(scene::instanceSkinImage(inst, *mesh, 0.2), 2u);
    inst.skin = 7; // past the skins: the last
    EXPECT_EQ(scene::instanceSkinImage(inst, *mesh, 0.0), 1u);
    inst.angles = {0, 45, 0};
    EXPECT_FLOAT_EQ(scene::instanceYaw(inst, 10.0), 45.0f);
    inst.rotates = true;
    EXPECT_FLOAT_EQ(scene::instanceYaw(inst, 0.5), 50.0f);
    EXPECT_FLOAT_EQ(scene::instanceYaw(inst, 4.0), 40.0f); // 400 degrees
}

// lq_e1m1 places 96 entities with models (the count): 46 monster_army, 15 monster_dog,
// 11 item_health, 7 item_shells, 5 item_spikes, 4 light_torch_small_walltorch, 2 weapons,
// 2 armours, 2 artifacts, 1 light_flame_large_yellow, 1 misc_explobox. The 24 item boxes and
// the explosive box are brush models in maps/b_*.bsp, which the test data does not have.
TEST(EntityModelsMaps, LibreQuakeE1m1) {
    auto loaded = scene::loadMapBundle((kMaps / "q1/lq_e1m1.bsp").string(), {});
    ASSERT_TRUE(loaded.ok()) << loaded.error().message();
    const scene::MapBundle& b = **loaded;
    const scene::EntityModelSet& set = b.models;
    EXPECT_EQ(set.wanted, 96u);
    EXPECT_EQ(set.instances.size(), 72u);
    ASSERT_EQ(set.missing.size(), 24u);
    for (const std::string& m : set.missing)
        EXPECT_NE(m.find(".bsp (not found)"), std::string::npos) << m;
    std::map<std::string, int> by_model;
    int dark_soldiers = 0;
    for (const auto& inst : set.instances) {
        const scene::LoadedModel& lm = set.models[inst.model];
        ASSERT_TRUE(lm.mesh) << lm.path;
        ++by_model[lm.path];
        EXPECT_GT(inst.radius, 0.0f) << lm.path;
        EXPECT_GE(inst.cluster, 0) << lm.path;
        if (lm.path == "progs/soldier.mdl") {
            // stand1..stand8 are frames 0..7 of soldier.mdl.
            EXPECT_EQ(inst.first_frame, 0u);
            EXPECT_EQ(inst.frame_count, 8u);
            EXPECT_FALSE(inst.rotates);
            dark_soldiers += inst.light == glm::vec3(0.0f) ? 1 : 0;
        }
        if (lm.path == "progs/dog.mdl") {
            EXPECT_EQ(inst.first_frame, 69u);
            EXPECT_EQ(inst.frame_count, 9u);
        }
        if (lm.path == "progs/flame.mdl") {
            EXPECT_TRUE(inst.fullbright);
            EXPECT_EQ(inst.light, glm::vec3(1.0f));
        }
        if (lm.path == "progs/armor.mdl") {
            EXPECT_TRUE(inst.rotates);
        }
    }
    EXPECT_EQ(by_model["progs/soldier.mdl"], 46);
    // Four soldiers (at z 360 about (-1000, 900)) stand on t_blok01a face 2714, which has no
    // light data: R_LightPoint finds no samples there and QuakeSpasm draws them black too.
    EXPECT_EQ(dark_soldiers, 4);
    EXPECT_EQ(by_model["progs/dog.mdl"], 15);
    EXPECT_EQ(by_model["progs/flame.mdl"], 4);
    EXPECT_EQ(by_model["progs/flame2.mdl"], 1);
    EXPECT_EQ(by_model["progs/armor.mdl"], 2);

    // Culling: looking down on the first soldier from 64 units above it, every instance is a
    // candidate without PVS and frustum; with them the soldier stays and most others go; none
    // are drawn with models off. (From the player start none is in view: the six instances in
    // front of it lie outside the 90 degree frustum.)
    scene::Visibility vis(b.map, b.mesh, &set.instances);
    scene::Camera cam;
    cam.position = set.instances[0].origin + glm::vec3(0, 0, 64);
    cam.pitch = 89.0f;
    scene::DrawList list;
    scene::VisOptions all;
    all.pvs = all.frustum = false;
    vis.update(cam, all, list);
    EXPECT_EQ(list.stats.models_total, 72u);
    EXPECT_EQ(list.stats.models_drawn, 72u);
    vis.invalidate();
    vis.update(cam, {}, list);
    ASSERT_FALSE(list.models.empty());
    EXPECT_EQ(list.models[0], 0u);
    EXPECT_LT(list.stats.models_drawn, 10u);
    EXPECT_TRUE(std::is_sorted(list.models.begin(), list.models.end()));
    // Picking: straight down from 64 units above the first soldier hits its sphere first.
    const auto pick = scene::pickEntityModel(set, cam.position, glm::vec3(0, 0, -1), 1000.0f);
    ASSERT_TRUE(pick);
    EXPECT_EQ(pick->instance, 0u);
    EXPECT_FLOAT_EQ(pick->distance, 64.0f - set.instances[0].radius);
    EXPECT_FALSE(scene::pickEntityModel(set, cam.position, glm::vec3(0, 0, 1), 10.0f));
    scene::VisOptions none;
    none.models = false;
    vis.invalidate();
    vis.update(cam, none, list);
    EXPECT_EQ(list.stats.models_drawn, 0u);
    EXPECT_EQ(list.stats.models_total, 72u);
}
