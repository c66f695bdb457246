// Quake 3 flares as data (scene/world/flares.h): extraction from a parsed IBSP 46 map, the ioquake3
// size/intensity rule and the fade across frames.
#include "bsp/load.h"
#include "bsp/tree.h"
#include "scene/world/flares.h"
#include "support/q3_builder.h"

#include <gtest/gtest.h>

#include <cmath>

TEST(Flares, ExtractedFromBillboardFaces) {
    q3test::Q3Builder b = q3test::Q3Builder::tiny();
    b.faces[3].vecs[2][0] = -2.0f; // facing -X (lightmapVecs[2]), not normalised on disk
    b.faces[3].vecs[2][2] = 0.0f;
    auto m = bsp::loadMap(b.build(), "tiny.bsp");
    ASSERT_TRUE(m.ok()) << m.error().message();
    const auto flares = scene::extractFlares(*m);
    ASSERT_EQ(flares.size(), 1u);
    EXPECT_EQ(flares[0].face, 3u);
    EXPECT_EQ(flares[0].origin, glm::vec3(10, 20, 30));
    EXPECT_NEAR(flares[0].colour.r, 1.0f, 1e-6f);
    EXPECT_NEAR(flares[0].colour.g, 128.0f / 255.0f, 1e-6f);
    EXPECT_NEAR(flares[0].colour.b, 0.0f, 1e-6f);
    EXPECT_EQ(flares[0].normal, glm::vec3(-1, 0, 0));
    EXPECT_EQ(flares[0].material, m->faces[3].material);
    // Its cluster is that of the leaf holding (10, 20, 30).
    const int32_t leaf = bsp::pointLeaf(*m, {10, 20, 30});
    ASSERT_GE(leaf, 0);
    EXPECT_EQ(flares[0].leaf, leaf);
    EXPECT_EQ(flares[0].cluster, m->leaves[static_cast<size_t>(leaf)].cluster);
    // Black (q3map2 writes such flares for sky box images): skipped.
    const glm::u8vec4 colour = m->vertices[m->faces[3].first_vertex].colour;
    m->vertices[m->faces[3].first_vertex].colour = glm::u8vec4(0, 0, 0, 255);
    EXPECT_TRUE(scene::extractFlares(*m).empty());
    m->vertices[m->faces[3].first_vertex].colour = colour;
    ASSERT_EQ(scene::extractFlares(*m).size(), 1u);
    // Owned by a brush model: skipped.
    m->faces[3].submodel = 1;
    EXPECT_TRUE(scene::extractFlares(*m).empty());
}

TEST(Flares, FacingDimsByTheCosine) {
    scene::Flare f;
    f.origin = glm::vec3(0);
    f.normal = glm::vec3(1, 0, 0);
    EXPECT_NEAR(scene::flareFacing(f, {100, 0, 0}), 1.0f, 1e-6f);
    EXPECT_NEAR(scene::flareFacing(f, {100, 100, 0}), std::sqrt(0.5f), 1e-6f);
    EXPECT_EQ(scene::flareFacing(f, {-100, 0, 0}), 0.0f);
    f.normal = glm::vec3(0);
    EXPECT_EQ(scene::flareFacing(f, {-100, 0, 0}), 1.0f);
}

TEST(Flares, ShapeFollowsIoquake3) {
    // RB_RenderFlare on a 640-wide view: size = 640 * (40 / 640 + 8 / d).
    const scene::FlareShape near = scene::flareShape(64.0f, 640.0f);
    EXPECT_NEAR(near.half_size, 40.0f + 80.0f, 1e-3f);
    const float factor = 64.0f + 120.0f * std::sqrt(150.0f);
    EXPECT_NEAR(near.intensity, 150.0f * 120.0f * 120.0f / (factor * factor), 1e-5f);
    const scene::FlareShape far = scene::flareShape(4096.0f, 640.0f);
    EXPECT_LT(far.half_size, near.half_size);
    EXPECT_GT(far.half_size, 40.0f);
    // Twice the viewport: twice the pixels.
    EXPECT_NEAR(scene::flareShape(64.0f, 1280.0f).half_size, 2.0f * near.half_size, 1e-3f);
}

TEST(Flares, FadeInAndOutOverATenthOfASecond) {
    scene::FlareFade fade;
    EXPECT_EQ(fade.update(false, 0.0), 0.0f);
    EXPECT_EQ(fade.update(true, 1.0), 0.0f); // flips now: starts fading in
    EXPECT_NEAR(fade.update(true, 1.05), 0.5f, 1e-4f);
    EXPECT_EQ(fade.update(true, 1.2), 1.0f);
    EXPECT_EQ(fade.update(true, 100.0), 1.0f);
    EXPECT_EQ(fade.update(false, 100.0), 1.0f); // hidden now: fades out from full
    EXPECT_NEAR(fade.update(false, 100.025), 0.75f, 1e-4f);
    EXPECT_EQ(fade.update(false, 100.2), 0.0f);
}

TEST(Flares, PvsFromTheCameraCluster) {
    bsp::Vis vis;
    vis.num_clusters = 2;
    vis.row_size = 1;
    vis.rows = {0x01, 0x03}; // cluster 0 sees itself, cluster 1 sees both
    scene::Flare f;
    f.cluster = 1;
    EXPECT_FALSE(scene::flareInPvs(vis, f, 0));
    EXPECT_TRUE(scene::flareInPvs(vis, f, 1));
    EXPECT_TRUE(scene::flareInPvs(vis, f, -1)); // camera outside the map
    f.cluster = -1;                             // flare outside every cluster
    EXPECT_TRUE(scene::flareInPvs(vis, f, 0));
    f.cluster = 1;
    EXPECT_TRUE(scene::flareInPvs(bsp::Vis{}, f, 0)); // no vis
}
