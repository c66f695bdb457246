// Source props on the shared maps (scene/models/source_props.h): Momentum's background_01 with
// its game folder (the sakura tree's model and materials are there, the cattails' model is
// not) and tf2_test2, whose Team Fortress 2 models are not shipped.
#include "scene/load/map_bundle.h"
#include "scene/models/model_pick.h"
#include "scene/models/model_set.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

namespace {

const std::filesystem::path kSource = std::filesystem::path(BSPV_SHARED_MAPS_DIR) / "source";

std::unique_ptr<scene::MapBundle> open(const std::filesystem::path& path) {
    auto b = scene::loadMapBundle(path.string(), {});
    EXPECT_TRUE(b.ok()) << (b.ok() ? "" : b.error().message());
    return b.ok() ? std::move(*b) : nullptr;
}

} // namespace

TEST(SourcePropsMaps, MomBackgroundSakuraTreeDrawnLitCattailsMissing) {
    const auto bundle = open(kSource / "mom_background_01/maps/background_01.bsp");
    ASSERT_TRUE(bundle);
    const scene::EntityModelSet& set = bundle->models;
    // 3 static props: the tree, and two cattails whose model the folder lacks.
    EXPECT_EQ(set.wanted, 3u);
    ASSERT_EQ(set.missing.size(), 2u);
    for (const std::string& m : set.missing)
        EXPECT_EQ(m, "prop_static: models/props_foliage/cattails.mdl (not found)");
    ASSERT_EQ(set.instances.size(), 1u);
    const scene::EntityModelInstance& tree = set.instances[0];
    const scene::LoadedModel& model = set.models[tree.model];
    EXPECT_EQ(model.path, "models/props_japan/sakura_tree01b.mdl");
    // Where SourcePropsMaps.MomBackgroundThreeProps reads its record.
    EXPECT_EQ(tree.origin, glm::vec3(-32, -200, 97));
    EXPECT_TRUE(tree.pitch_down);
    // Every material found and decoded: no warning, no missing-texture tile (64x64 grey).
    EXPECT_TRUE(model.warnings.empty()) << model.warnings.front();
    ASSERT_TRUE(model.mesh.has_value());
    ASSERT_EQ(model.mesh->images.size(), 7u);
    for (const content::ModelImage& img : model.mesh->images)
        EXPECT_GT(img.width * img.height, 0);
    // The branches are alpha-tested and two-sided ($alphatest, $nocull).
    const auto& ranges = model.mesh->skin_ranges.at(size_t(tree.skin));
    EXPECT_TRUE(std::any_of(ranges.begin(), ranges.end(), [](const content::ModelDrawRange& r) {
        return r.masked && r.two_sided;
    }));
    // Lit by the leaf ambient cube (the tree has STATIC_PROP_NO_PER_VERTEX_LIGHTING): some light
    // from above, none of it negative.
    EXPECT_TRUE(tree.cube_lit);
    EXPECT_GT(tree.ambient_cube[4].r + tree.ambient_cube[4].g + tree.ambient_cube[4].b, 0.0f);
    for (const glm::vec3& side : tree.ambient_cube)
        EXPECT_GE(std::min({side.r, side.g, side.b}), 0.0f);
    // Plus the map's world lights (scene/models/prop_lights.h): the sun (light 4, whose ray from
    // the lighting origin reaches the sky brushes) among the four local lights, as a directional
    // light along its normal.
    ASSERT_GE(tree.local_light_count, 1u) << tree.lighting;
    bool sun = false;
    for (uint32_t i = 0; i < tree.local_light_count; ++i)
        sun = sun || (tree.local_lights[i].directional &&
                      tree.local_lights[i].direction == bundle->map.world_lights[4].normal);
    EXPECT_TRUE(sun) << tree.lighting;
    EXPECT_NE(tree.lighting.find("+ world lights"), std::string::npos) << tree.lighting;
    const std::vector<std::string> lines = scene::describeInstance(set, 0);
    ASSERT_GE(lines.size(), 3u);
    EXPECT_EQ(lines[0].rfind("model models/props_japan/sakura_tree01b.mdl  skin ", 0), 0u);
    EXPECT_NE(lines[2].find("leaf ambient cube at"), std::string::npos) << lines[2];
}

TEST(SourcePropsMaps, Tf2Test2PropsAreListedMissing) {
    const auto bundle = open(kSource / "tf2_test2.bsp");
    ASSERT_TRUE(bundle);
    const scene::EntityModelSet& set = bundle->models;
    // 17 static props and 9 prop_dynamic / prop_physics entities, none of whose models ship.
    EXPECT_EQ(set.instances.size(), 0u);
    EXPECT_EQ(set.missing.size(), set.wanted);
    EXPECT_GE(set.wanted, 17u + 9u);
}
