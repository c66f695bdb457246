// Click to select, look at the selection and teleport to an entity (app/selection.h), the
// go-to field (app/panels.h parseGoTo) and the game-specific controls (gameControlsFor), on
// real maps without GL.
#include "app/panels.h"
#include "app/selection.h"
#include "core/file.h"
#include "scene/load/map_bundle.h"
#include "support/vbsp_patch.h"
#include "unit/content_test_util.h"

#include <gtest/gtest.h>

#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

namespace fs = std::filesystem;

namespace {

const fs::path kMaps = BSPV_SHARED_MAPS_DIR;

std::unique_ptr<scene::MapBundle> loadBundle(const std::string& spec) {
    auto b = scene::loadMapBundle(spec, scene::LoadSettings());
    EXPECT_TRUE(b.ok()) << spec << ": " << (b.ok() ? "" : b.error().message());
    return b.ok() ? std::move(*b) : nullptr;
}

bool inside(const app::Box& box, const glm::vec3& p) {
    return p.x >= box.mins.x && p.x <= box.maxs.x && p.y >= box.mins.y && p.y <= box.maxs.y &&
           p.z >= box.mins.z && p.z <= box.maxs.z;
}

} // namespace

TEST(Selection, CursorRayThroughTheCentreIsTheViewDirection) {
    scene::Camera c;
    c.position = {1, 2, 3};
    c.pitch = 20.0f;
    c.yaw = 135.0f;
    c.aspect = 16.0f / 9.0f;
    const app::Ray centre = app::cursorRay(c, 639.5f, 359.5f, 1280.0f, 720.0f);
    EXPECT_NEAR(glm::dot(centre.dir, c.forward()), 1.0f, 1e-5f);
    // The left edge is half the horizontal field of view away from it.
    const app::Ray left = app::cursorRay(c, -0.5f, 359.5f, 1280.0f, 720.0f);
    const float angle = glm::degrees(std::acos(glm::dot(left.dir, c.forward())));
    EXPECT_NEAR(angle, c.fov_x * 0.5f, 0.05f);
    EXPECT_GT(glm::dot(left.dir, -c.right()), 0.0f);
}

// Issue 33: the Entities panel's teleport put the eye at a monster's origin, inside it (the
// screen went black). Now it stands in front of the box, looking at it.
TEST(Selection, TeleportToAMonsterStandsOutsideItsBox) {
    auto b = loadBundle((kMaps / "q1/lq_e1m1.bsp").string());
    ASSERT_TRUE(b);
    ASSERT_FALSE(b->models.instances.empty());
    int checked = 0;
    for (const scene::EntityModelInstance& inst : b->models.instances) {
        const auto entity = static_cast<int32_t>(inst.entity);
        if (b->map.entities[inst.entity].classname().rfind("monster_", 0) != 0)
            continue;
        const auto box = app::entityBox(*b, entity);
        ASSERT_TRUE(box);
        // The viewpoint the panel used before is the origin: inside the box.
        const auto vp = app::entityViewpoint(b->map.entities[inst.entity], b->map);
        ASSERT_TRUE(vp);
        EXPECT_TRUE(inside(*box, {vp->x, vp->y, vp->z}));
        const auto cam = app::teleportCamera(*b, entity, scene::Camera());
        ASSERT_TRUE(cam);
        EXPECT_FALSE(inside(*box, cam->position)) << "entity " << entity;
        // Looking at the box's middle.
        const glm::vec3 to = glm::normalize(box->centre() - cam->position);
        EXPECT_GT(glm::dot(to, cam->forward()), 0.99f) << "entity " << entity;
        // And from the side it faces (in front of it).
        const glm::vec3 facing(std::cos(glm::radians(vp->yaw)), std::sin(glm::radians(vp->yaw)),
                               0.0f);
        EXPECT_GT(glm::dot(cam->position - box->centre(), facing), 0.0f);
        ++checked;
    }
    EXPECT_GT(checked, 3);
    // A player start has no model: the teleport is its viewpoint, as the game's spawn.
    for (size_t i = 0; i < b->map.entities.size(); ++i)
        if (b->map.entities[i].classname() == "info_player_start") {
            const auto cam = app::teleportCamera(*b, static_cast<int32_t>(i), scene::Camera());
            const auto vp = app::entityViewpoint(b->map.entities[i], b->map);
            ASSERT_TRUE(cam && vp);
            EXPECT_EQ(cam->position, glm::vec3(vp->x, vp->y, vp->z));
        }
}

// A ray at a monster selects its entity; a ray at a wall selects the face; C looks at the
// selection from outside its box.
TEST(Selection, ClickSelectsTheEntityOrFaceAndLookAtStandsBack) {
    auto b = loadBundle((kMaps / "q1/lq_e1m1.bsp").string());
    ASSERT_TRUE(b);
    const scene::EntityModelInstance* monster = nullptr;
    for (const scene::EntityModelInstance& inst : b->models.instances)
        if (b->map.entities[inst.entity].classname().rfind("monster_", 0) == 0) {
            monster = &inst;
            break;
        }
    ASSERT_NE(monster, nullptr);
    // From just above it, straight down at its origin.
    app::Ray ray;
    ray.origin = monster->origin + glm::vec3(0.0f, 0.0f, monster->radius + 4.0f);
    ray.dir = glm::vec3(0.0f, 0.0f, -1.0f);
    const auto faces = scene::faceBounds(b->map);
    const app::Selection s = app::selectAlong(*b, ray, &faces);
    ASSERT_EQ(s.kind, app::Selection::Kind::Entity);
    EXPECT_EQ(s.entity, static_cast<int32_t>(monster->entity));
    scene::Camera from;
    from.position = ray.origin;
    const scene::Camera look = app::lookAtBox(from, s.box);
    EXPECT_FALSE(inside(s.box, look.position));
    EXPECT_GT(glm::dot(glm::normalize(s.box.centre() - look.position), look.forward()), 0.99f);

    // Straight down from the spawn: the floor face.
    app::Ray down;
    down.origin = b->spawns.at(0).origin;
    down.dir = glm::vec3(0.0f, 0.0f, -1.0f);
    const app::Selection floor = app::selectAlong(*b, down, &faces);
    ASSERT_EQ(floor.kind, app::Selection::Kind::Face);
    EXPECT_GE(floor.face, 0);
    EXPECT_LT(floor.point.z, down.origin.z);
    // Into the void: nothing.
    app::Ray away;
    away.origin = b->map.worldMaxs() + glm::vec3(1000.0f);
    away.dir = glm::vec3(0.0f, 0.0f, 1.0f);
    EXPECT_EQ(app::selectAlong(*b, away, &faces).kind, app::Selection::Kind::None);
}

// The go-to field reads the engines' camera strings; its errors name no command-line flag.
// A face belongs to the entity of the model whose range holds it; a Source overlay fragment on a
// brush entity lies after every range (bsp::buildOverlayFaces appends it) but keeps its face's
// submodel, and belongs to that model's entity.
TEST(Selection, OverlayFragmentOnABrushModelBelongsToItsEntity) {
    bsp::Map map;
    map.faces.resize(4);
    map.faces[1].submodel = 1;
    map.faces[3].submodel = 1; // the fragment on face 1
    map.submodels.resize(2);
    map.submodels[0].num_faces = 1;
    map.submodels[1].first_face = 1;
    map.submodels[1].num_faces = 1;
    map.submodels[1].entity = 5;
    EXPECT_EQ(app::entityOfFace(map, 0), -1);
    EXPECT_EQ(app::entityOfFace(map, 1), 5);
    EXPECT_EQ(app::entityOfFace(map, 2), -1); // a world fragment
    EXPECT_EQ(app::entityOfFace(map, 3), 5);
    EXPECT_EQ(app::entityOfFace(map, 9), -1); // out of range
}

TEST(GoTo, CameraStringsSpawnsAndErrors) {
    auto b = loadBundle((kMaps / "q1/lq_e1m1.bsp").string());
    ASSERT_TRUE(b);
    const scene::Camera current;
    auto plain = app::parseGoTo("128 -880 46 0 90", current, b.get());
    ASSERT_TRUE(plain.ok());
    ASSERT_TRUE(plain->camera);
    EXPECT_EQ(plain->camera->position, glm::vec3(128, -880, 46));
    EXPECT_EQ(plain->camera->yaw, 90.0f);
    // QuakeSpasm's viewpos is the player's origin: the eye is 22 above it on a Quake map.
    auto qs = app::parseGoTo("Viewpos: (128 -880 24) 0 90 0", current, b.get());
    ASSERT_TRUE(qs.ok());
    EXPECT_EQ(qs->camera->position.z, 46.0f);
    auto spawn = app::parseGoTo("spawn:1", current, b.get());
    ASSERT_TRUE(spawn.ok());
    EXPECT_EQ(spawn->spawn, 1);
    for (const char* bad : {"spawn:999", "leak", "1,2", "setpos", "hello"}) {
        auto r = app::parseGoTo(bad, current, b.get());
        ASSERT_FALSE(r.ok()) << bad;
        EXPECT_EQ(r.error().message().find("--camera"), std::string::npos) << r.error().message();
    }
}

// Issue 33: Quake 3 controls (shader stages, flares, patch level) only for maps that have what
// they change.
TEST(GameControls, OnlyWhatTheMapOffers) {
    auto q1 = loadBundle((kMaps / "q1/lq_e1m1.bsp").string());
    auto q3 = loadBundle((kMaps / "q3/bc_crypt.bsp").string());
    auto oa = loadBundle(std::string(BSPV_OPENARENA_DIR) + "/pak6-patch088.pk3:maps/oa_thor.bsp");
    ASSERT_TRUE(q1 && q3 && oa);
    const app::GameControls a = app::gameControlsFor(*q1);
    EXPECT_FALSE(a.shader_stages);
    EXPECT_FALSE(a.flares);
    EXPECT_FALSE(a.patches);
    EXPECT_TRUE(a.liquids); // e1m1's water
    const app::GameControls c = app::gameControlsFor(*q3);
    EXPECT_TRUE(c.patches);        // bc_crypt's 22 patches (cli.info_q3)
    EXPECT_FALSE(c.shader_stages); // no shader scripts beside it
    const app::GameControls t = app::gameControlsFor(*oa);
    EXPECT_TRUE(t.shader_stages); // OpenArena's scripts
    EXPECT_TRUE(t.flares || t.fog || t.patches);
}

// The 3D sky switch only for a map with a sky region: tf2_test2 has no sky_camera; the same file
// with one added (its origin, scale 16 and fog keys) has, read as game/source.cpp reads them.
TEST(GameControls, SkyRegionSwitchOnlyForAMapWithASkyCamera) {
    const fs::path original = kMaps / "source/tf2_test2.bsp";
    auto plain = loadBundle(original.string());
    ASSERT_TRUE(plain);
    EXPECT_FALSE(plain->profile.sky_region.has_value());
    EXPECT_FALSE(app::gameControlsFor(*plain).sky_region);

    auto bytes = core::readFile(original);
    ASSERT_TRUE(bytes.ok());
    const std::vector<uint8_t> patched = testsupport::vbspWithEntities(
        *bytes, "{\n\"classname\" \"sky_camera\"\n\"origin\" \"64 -32 128\"\n\"scale\" "
                "\"16\"\n\"fogenable\" \"1\"\n\"fogcolor\" \"255 128 0\"\n\"fogstart\" "
                "\"500\"\n\"fogend\" \"4000\"\n}\n");
    ASSERT_FALSE(patched.empty());
    content_test::TempDir dir;
    const fs::path file = dir / "tf2_test2_sky.bsp";
    content_test::writeBytes(file, patched);
    auto sky = loadBundle(file.string());
    ASSERT_TRUE(sky);
    ASSERT_TRUE(sky->profile.sky_region.has_value());
    const game::SkyRegion& r = *sky->profile.sky_region;
    EXPECT_EQ(r.origin, glm::vec3(64.0f, -32.0f, 128.0f));
    EXPECT_EQ(r.scale, 16.0f);
    EXPECT_TRUE(r.fog.enabled);
    EXPECT_NEAR(r.fog.colour.g, 128.0f / 255.0f, 1e-6f);
    EXPECT_EQ(r.fog.start, 500.0f);
    EXPECT_EQ(r.fog.end, 4000.0f);
    EXPECT_TRUE(app::gameControlsFor(*sky).sky_region);
    // The rest of the map as it was.
    EXPECT_EQ(sky->map.faces.size(), plain->map.faces.size());
}
