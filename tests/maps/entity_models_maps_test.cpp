// Which entity gets which model (game/entity_models.h): the Quake 1 table's rules on
// hand-made entities, the timing of poses, skins and turning, and LibreQuake's e1m1 with the
// models in ../shared/maps/q1/progs (the item boxes maps/b_*.bsp are not there: listed).
#include "game/entity_models.h"
#include "scene/load/map_bundle.h"
#include "scene/models/animation.h"
#include "scene/models/half_life_keys.h"
#include "scene/models/model_pick.h"
#include "scene/models/model_set.h"
#include "scene/view/visibility.h"

#include "support/model_builder.h"
#include "support/studio_builder.h"

#include "content/model/mdl.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

namespace fs = std::filesystem;

namespace {

const fs::path kMaps = BSPV_SHARED_MAPS_DIR;

bsp::Entity entity(std::vector<std::pair<std::string, std::string>> pairs) {
    bsp::Entity e;
    e.pairs = std::move(pairs);
    return e;
}

// The Half-Life studio key tests' setting: freehl_test_weapons, a copy of its map to add
// entities to, the hand-made studio model (tests/support/studio_builder.h) written to
// TempDir/`folder`/models/test.mdl with that folder as the search path, and the player start's
// origin where the added entities stand.
struct StudioOnMap {
    std::unique_ptr<scene::MapBundle> bundle;
    fs::path dir;
    content::FileSystem files;
    bsp::Map map;
    std::string origin;
};

void setUpStudioOnMap(StudioOnMap& c, const char* folder, const studiotest::StudioOptions& o) {
    auto loaded = scene::loadMapBundle((kMaps / "hl/freehl_test_weapons.bsp").string(), {});
    ASSERT_TRUE(loaded.ok()) << loaded.error().message();
    c.bundle = std::move(*loaded);
    c.dir = fs::path(testing::TempDir()) / folder;
    fs::remove_all(c.dir);
    fs::create_directories(c.dir / "models");
    const auto bytes = studiotest::buildStudio(o);
    std::ofstream(c.dir / "models/test.mdl", std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    ASSERT_TRUE(c.files.addDirectory(c.dir).ok());
    c.map = c.bundle->map;
    for (const bsp::Entity& e : c.map.entities)
        if (e.classname() == "info_player_start")
            c.origin = std::string(e.get("origin"));
    ASSERT_FALSE(c.origin.empty());
}

} // namespace

TEST(EntityModels, Quake1RulesBySpawnflagsAndWorldtype) {
    const auto rules = game::entityModelRules(game::EntityModelTable::Quake1);
    ASSERT_FALSE(rules.empty());
    EXPECT_TRUE(game::entityModelRules(game::EntityModelTable::None).empty());
    auto model = [&](std::vector<std::pair<std::string, std::string>> pairs, int32_t worldtype) {
        const auto* r = game::findEntityModelRule(rules, entity(std::move(pairs)), worldtype);
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
        game::findEntityModelRule(rules, entity({{"classname", "light_flame_large_yellow"}}), 0);
    ASSERT_NE(flame, nullptr);
    EXPECT_EQ(flame->frame, 1);
    EXPECT_TRUE(flame->fullbright);
    const auto* armor =
        game::findEntityModelRule(rules, entity({{"classname", "item_armorInv"}}), 0);
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

TEST(EntityModels, HalfLifeItemsAndRenderModes) {
    const auto rules = game::entityModelRules(game::EntityModelTable::HalfLife);
    auto model = [&](const char* classname) {
        const auto* r = game::findEntityModelRule(rules, entity({{"classname", classname}}), 0);
        return r ? std::string(r->model) : std::string("none");
    };
    EXPECT_EQ(model("item_battery"), "models/w_battery.mdl");
    EXPECT_EQ(model("weapon_9mmAR"), "models/w_9mmAR.mdl");
    EXPECT_EQ(model("weapon_mp5"), "models/w_9mmAR.mdl");
    EXPECT_EQ(model("weapon_tripmine"), "models/v_tripmine.mdl");
    EXPECT_EQ(model("ammo_buckshot"), "models/w_shotbox.mdl");
    EXPECT_EQ(model("env_sprite"), "none"); // drawn by its model key, not the table
    EXPECT_EQ(model("monster_scientist"), "none");

    const auto normal = scene::halfLifeRenderMode(entity({{"renderamt", "100"}}));
    EXPECT_EQ(normal.blend, scene::ModelBlend::Normal);
    EXPECT_EQ(normal.alpha, 1.0f); // renderamt counts only when blended
    const auto add = scene::halfLifeRenderMode(
        entity({{"rendermode", "5"}, {"renderamt", "51"}, {"rendercolor", "255 0 51"}}));
    EXPECT_EQ(add.blend, scene::ModelBlend::Additive);
    EXPECT_FLOAT_EQ(add.alpha, 0.2f);
    EXPECT_EQ(add.tint, glm::vec3(1.0f, 0.0f, 0.2f));
    EXPECT_TRUE(add.depth_test);
    const auto glow =
        scene::halfLifeRenderMode(entity({{"rendermode", "3"}, {"renderamt", "255"}}));
    EXPECT_EQ(glow.blend, scene::ModelBlend::Additive);
    EXPECT_FALSE(glow.depth_test);
    EXPECT_EQ(glow.tint, glm::vec3(1.0f)); // no rendercolor
    const auto solid =
        scene::halfLifeRenderMode(entity({{"rendermode", "4"}, {"renderamt", "510"}}));
    EXPECT_EQ(solid.blend, scene::ModelBlend::Alpha);
    EXPECT_TRUE(solid.alpha_test);
    EXPECT_EQ(solid.alpha, 1.0f); // clamped to 255
    const auto texture = scene::halfLifeRenderMode(entity({{"rendermode", "2"}}));
    EXPECT_EQ(texture.blend, scene::ModelBlend::Alpha);
    EXPECT_EQ(texture.alpha, 0.0f); // renderamt 0: invisible, as in the game
}

TEST(EntityModels, SpriteFramesAtTheEntityFrameRate) {
    auto spr = content::decodeSprite(modeltest::buildSprite(), content::defaultQuakePalette());
    ASSERT_TRUE(spr.ok());
    scene::EntityModelInstance inst;
    // Frame 0 alone: picture 0 at any time.
    EXPECT_EQ(scene::instanceSpritePicture(inst, *spr, 0.6), 0u);
    // Both frames at 4 frames a second: frame 0 for 0.25 s, then frame 1's group (pictures 1
    // until 0.25 s, 2 until 0.75 s of its own loop, timed from the map's clock).
    inst.frame_count = 2;
    inst.frame_rate = 4.0f;
    EXPECT_EQ(scene::instanceSpritePicture(inst, *spr, 0.1), 0u);
    EXPECT_EQ(scene::instanceSpritePicture(inst, *spr, 0.3), 2u); // 0.3 s: the group's second
    EXPECT_EQ(scene::instanceSpritePicture(inst, *spr, 0.55), 0u);
}

// The shared Half-Life maps come without their models: freehl_test_weapons places 21 weapons
// and ammo by class and a cycler with models/barney.mdl (22 wanted, all listed as not found);
// jf_trainride2 a monster_furniture with models/skeleton.mdl; the two Counter-Strike maps none.
TEST(EntityModelsMaps, HalfLifeMapsListTheirMissingModels) {
    const std::pair<const char*, size_t> maps[] = {{"hl/freehl_test_weapons.bsp", 22},
                                                   {"hl/jf_trainride2.bsp", 1},
                                                   {"hl/cs_awp_india.bsp", 0},
                                                   {"hl/cs_fy_pool_day.bsp", 0}};
    for (const auto& [name, wanted] : maps) {
        SCOPED_TRACE(name);
        auto loaded = scene::loadMapBundle((kMaps / name).string(), {});
        ASSERT_TRUE(loaded.ok()) << loaded.error().message();
        const scene::EntityModelSet& set = (*loaded)->models;
        EXPECT_EQ((*loaded)->profile.entities.model_table, game::EntityModelTable::HalfLife);
        EXPECT_EQ(set.wanted, wanted);
        EXPECT_TRUE(set.instances.empty());
        ASSERT_EQ(set.missing.size(), wanted);
        for (const std::string& m : set.missing)
            EXPECT_NE(m.find(".mdl (not found)"), std::string::npos) << m;
    }
}

// The same map with assimp-testmodels' Half-Life models standing in for two of its models (in
// a --base folder): the cycler's barney.mdl is man.mdl with its textures in barneyT.mdl, the
// crowbar is chrome_sphere.mdl; the other 20 are still missing.
TEST(EntityModelsMaps, HalfLifeStudioModelsOnAMap) {
    const fs::path hl1 = "/usr/share/assimp/models/MDL/MDL (HL1)";
    const fs::path base = fs::path(testing::TempDir()) / "bspv_studio_base";
    fs::remove_all(base);
    fs::create_directories(base / "models");
    fs::copy_file(hl1 / "man.mdl", base / "models/barney.mdl");
    fs::copy_file(hl1 / "manT.mdl", base / "models/barneyT.mdl");
    fs::copy_file(hl1 / "chrome_sphere.mdl", base / "models/w_crowbar.mdl");
    scene::LoadSettings settings;
    settings.base_dirs = {base};
    auto loaded = scene::loadMapBundle((kMaps / "hl/freehl_test_weapons.bsp").string(), settings);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message();
    const scene::EntityModelSet& set = (*loaded)->models;
    EXPECT_EQ(set.wanted, 22u);
    EXPECT_EQ(set.missing.size(), 20u);
    ASSERT_EQ(set.instances.size(), 2u);
    for (const auto& inst : set.instances) {
        const scene::LoadedModel& lm = set.models[inst.model];
        ASSERT_TRUE(lm.mesh) << lm.path << ": " << lm.error;
        EXPECT_GT(inst.radius, 0.0f);
        EXPECT_GE(inst.cluster, 0);
        EXPECT_EQ(inst.render.blend, scene::ModelBlend::Normal);
        if (lm.path == "models/barney.mdl") {
            EXPECT_EQ(lm.mesh->images.size(), 2u); // manT.mdl's two skin families
            EXPECT_EQ(lm.mesh->pose_count, 2u);
        }
    }
    fs::remove_all(base);
}

// Half-Life "body", "sequence" and "skin" keys on hand-made cyclers of freehl_test_weapons, all
// showing the hand-made studio model (tests/support/studio_builder.h): a body or sequence other
// than 0 makes a mesh of its own, named with the model each part shows (body 2: part 0's model
// 0, part 1's model 1) and the sequence; a sequence the model lacks plays the first (and shares
// the mesh of sequence 0).
TEST(EntityModelsMaps, HalfLifeBodySequenceAndSkinKeys) {
    StudioOnMap c;
    setUpStudioOnMap(c, "bspv_studio_keys", {.body_groups = true, .walk_sequence = true});
    if (HasFatalFailure())
        return;
    const scene::MapBundle& b = *c.bundle;
    const fs::path& dir = c.dir;
    const content::FileSystem& files = c.files;
    bsp::Map& map = c.map;
    const std::string& origin = c.origin;
    const uint32_t first = uint32_t(map.entities.size());
    using Pairs = std::vector<std::pair<std::string, std::string>>;
    const Pairs keys[3] = {
        {}, {{"body", "2"}, {"sequence", "1"}, {"skin", "1"}}, {{"body", "3"}, {"sequence", "7"}}};
    for (const Pairs& k : keys) {
        Pairs pairs = {{"classname", "cycler"}, {"model", "models/test.mdl"}, {"origin", origin}};
        pairs.insert(pairs.end(), k.begin(), k.end());
        map.entities.push_back(entity(pairs));
    }
    const scene::EntityModelSet set = scene::loadEntityModels(map, files, b.lightmaps, b.mesh);
    struct Expected {
        const char* path;
        size_t indices;
        const char* frame;
        int32_t skin;
    };
    const Expected expected[3] = {{"models/test.mdl", 9, "idle", 0},
                                  {"models/test.mdl#body 0.1 sequence 1", 18, "walk", 1},
                                  {"models/test.mdl#body 1.1 sequence 0", 9, "idle", 0}};
    size_t found = 0;
    for (const scene::EntityModelInstance& inst : set.instances) {
        if (inst.entity < first)
            continue;
        const Expected& e = expected[inst.entity - first];
        const scene::LoadedModel& lm = set.models[inst.model];
        ASSERT_TRUE(lm.mesh) << lm.path << ": " << lm.error;
        EXPECT_EQ(lm.path, e.path);
        EXPECT_EQ(lm.mesh->indices.size(), e.indices) << e.path;
        ASSERT_EQ(lm.mesh->frames.size(), 1u);
        EXPECT_EQ(lm.mesh->frames[0].name, e.frame) << e.path;
        EXPECT_EQ(inst.skin, e.skin) << e.path;
        // The skin's palette went through Half-Life's texgammatable on the way (the map's game
        // gives ModelRequest::palette_table): texel 5, palette (5, 10, 15), is (10, 19, 26),
        // 255 (i / 255)^0.8 truncated (Studio.SkinPalettesThroughTheGameTable).
        ASSERT_FALSE(lm.mesh->images.empty());
        EXPECT_EQ(lm.mesh->images[0].rgba[5 * 4 + 0], 10) << e.path;
        EXPECT_EQ(lm.mesh->images[0].rgba[5 * 4 + 1], 19) << e.path;
        EXPECT_EQ(lm.mesh->images[0].rgba[5 * 4 + 2], 26) << e.path;
        ++found;
    }
    EXPECT_EQ(found, 3u);
    fs::remove_all(dir);
}

// The hand-made model with bone controllers (tests/support/studio_builder.h) on entities of
// freehl_test_weapons, as each class leaves pev->framerate and pev->controller:
//   a cycler: rate 1, InitBoneControllers' settings 127 0 0 255 (studio_test.cpp);
//   a cycler with sequence 1: rate 0 (CCycler::Spawn stops it), the same settings;
//   monster_furniture with framerate 3 and controller 26367 (0x66FF): rate 1 (ResetSequenceInfo
//     overrides the key), settings 255 102 0 0, which put vertex 0 at (15, 0, 0) and vertex 2 at
//     (13, 8, 0) (Studio.BoneControllersMoveTheirBones);
//   monster_scientist_dead: rate 0 (MonsterInitDead), the cycler's settings: its mesh;
//   cycler_wreckage with framerate 2.5: the key, settings 0: the plain model;
//   cycler_wreckage without: rate 0, the plain model's mesh again.
// Four meshes in all, one per distinct (body, sequence, controllers).
TEST(EntityModelsMaps, HalfLifeFrameRateAndControllersByClass) {
    StudioOnMap c;
    setUpStudioOnMap(c, "bspv_studio_rates", {.walk_sequence = true, .controllers = true});
    if (HasFatalFailure())
        return;
    const scene::MapBundle& b = *c.bundle;
    const fs::path& dir = c.dir;
    const content::FileSystem& files = c.files;
    bsp::Map& map = c.map;
    const std::string& origin = c.origin;
    const uint32_t first = uint32_t(map.entities.size());
    using Pairs = std::vector<std::pair<std::string, std::string>>;
    const std::pair<const char*, Pairs> entities[6] = {
        {"cycler", {}},
        {"cycler", {{"sequence", "1"}}},
        {"monster_furniture", {{"framerate", "3"}, {"controller", "26367"}}},
        {"monster_scientist_dead", {}},
        {"cycler_wreckage", {{"framerate", "2.5"}}},
        {"cycler_wreckage", {}}};
    for (const auto& [classname, k] : entities) {
        Pairs pairs = {{"classname", classname}, {"model", "models/test.mdl"}, {"origin", origin}};
        pairs.insert(pairs.end(), k.begin(), k.end());
        map.entities.push_back(entity(pairs));
    }
    const scene::EntityModelSet set = scene::loadEntityModels(map, files, b.lightmaps, b.mesh);
    struct Expected {
        const char* path;
        float rate;
    };
    const Expected expected[6] = {
        {"models/test.mdl#controllers 127 0 0 255", 1.0f},
        {"models/test.mdl#body 0 sequence 1#controllers 127 0 0 255", 0.0f},
        {"models/test.mdl#controllers 255 102 0 0", 1.0f},
        {"models/test.mdl#controllers 127 0 0 255", 0.0f},
        {"models/test.mdl", 2.5f},
        {"models/test.mdl", 0.0f}};
    std::vector<const scene::EntityModelInstance*> insts(6, nullptr);
    for (const scene::EntityModelInstance& inst : set.instances)
        if (inst.entity >= first && inst.entity < first + 6)
            insts[inst.entity - first] = &inst;
    for (size_t i = 0; i < 6; ++i) {
        SCOPED_TRACE(i);
        ASSERT_NE(insts[i], nullptr);
        const scene::LoadedModel& lm = set.models[insts[i]->model];
        ASSERT_TRUE(lm.mesh) << lm.path << ": " << lm.error;
        EXPECT_EQ(lm.path, expected[i].path);
        EXPECT_EQ(insts[i]->anim_rate, expected[i].rate);
    }
    EXPECT_EQ(insts[3]->model, insts[0]->model);
    EXPECT_EQ(insts[5]->model, insts[4]->model);
    std::set<uint32_t> meshes;
    for (const scene::EntityModelInstance* inst : insts)
        meshes.insert(inst->model);
    EXPECT_EQ(meshes.size(), 4u);
    const content::ModelMesh& furniture = *set.models[insts[2]->model].mesh;
    ASSERT_EQ(furniture.pose_count, 2u);
    for (size_t k = 0; k < 3; ++k) { // pose 0: the idle's first frame, the root at rest
        EXPECT_NEAR(furniture.positions[0][k], (std::array<float, 3>{15, 0, 0})[k], 1e-5f);
        EXPECT_NEAR(furniture.positions[2][k], (std::array<float, 3>{13, 8, 0})[k], 1e-5f);
    }

    // The idle's two poses last 0.1 s each; at rate 2.5 the second shows from 0.04 s, at rate
    // 0 never.
    const content::ModelMesh& plain = *set.models[insts[4]->model].mesh;
    EXPECT_EQ(scene::instancePose(*insts[4], plain, 0.03), 0u);
    EXPECT_EQ(scene::instancePose(*insts[4], plain, 0.05), 1u);
    EXPECT_EQ(scene::instancePose(*insts[5], plain, 0.15), 0u);
    EXPECT_EQ(scene::instancePose(*insts[0], plain, 0.15), 1u);
    fs::remove_all(dir);
}
