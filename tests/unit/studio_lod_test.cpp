// Source studio model LOD choice (scene/models/studio_lod.h): the engine's metric from depth,
// fov and viewport height, and studiohwdata_t::GetLODForMetric with ComputeRenderLOD's clamp,
// on hand-picked switch points and on the Wiremod hologram sphere's real ones.
#include "content/model/source_model.h"
#include "content/vfs/vfs.h"
#include "scene/models/studio_lod.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <vector>

namespace {

// hq_sphere.mdl's (tests/maps/source_models_test.cpp WireHologramSwitchPoints).
const std::vector<float> kSphere = {0.0f, 150.0f, 300.0f, -1.0f};

} // namespace

// metric = 100 * depth * tan(fov_y / 2) / height: 90 degrees, 720 pixels, 1080 units deep is
// 100 * 1080 / 720 = 150; 60 degrees (tan 30 = 0.577350), 1000 deep: 80.1875.
TEST(StudioLod, MetricFromDepthFovAndHeight) {
    EXPECT_FLOAT_EQ(scene::studioLodMetric(1080.0f, 90.0f, 720.0f), 150.0f);
    EXPECT_NEAR(scene::studioLodMetric(1000.0f, 60.0f, 720.0f), 80.1875f, 1e-3f);
    // Twice the window height halves it: the model covers twice the pixels.
    EXPECT_FLOAT_EQ(scene::studioLodMetric(1080.0f, 90.0f, 1440.0f), 75.0f);
    // Behind the eye or at it: the engine's clip w floor of 0.001, 100 * 0.001 / 720.
    EXPECT_FLOAT_EQ(scene::studioLodMetric(-50.0f, 90.0f, 720.0f), 0.1f / 720.0f);
    EXPECT_FLOAT_EQ(scene::studioLodMetric(0.0f, 90.0f, 720.0f), 0.1f / 720.0f);
    EXPECT_EQ(scene::studioLodMetric(100.0f, 90.0f, 0.0f), 0.0f);
}

// GetLODForMetric: LOD i while the next switch point is above the metric; at the switch point
// itself the coarser one. The shadow LOD (-1, last) is never chosen.
TEST(StudioLod, SwitchPointsPickTheLod) {
    EXPECT_EQ(scene::studioLodForMetric(kSphere, 0.0f, true), 0u);
    EXPECT_EQ(scene::studioLodForMetric(kSphere, 149.9f, true), 0u);
    EXPECT_EQ(scene::studioLodForMetric(kSphere, 150.0f, true), 1u);
    EXPECT_EQ(scene::studioLodForMetric(kSphere, 299.9f, true), 1u);
    EXPECT_EQ(scene::studioLodForMetric(kSphere, 300.0f, true), 2u);
    EXPECT_EQ(scene::studioLodForMetric(kSphere, 1e9f, true), 2u);
    // Without the flag the -1 still keeps GetLODForMetric off the last LOD.
    EXPECT_EQ(scene::studioLodForMetric(kSphere, 1e9f, false), 2u);
    // No shadow LOD: the last LOD is reachable.
    const std::vector<float> three = {0.0f, 20.0f, 40.0f};
    EXPECT_EQ(scene::studioLodForMetric(three, 39.0f, false), 1u);
    EXPECT_EQ(scene::studioLodForMetric(three, 40.0f, false), 2u);
    // The flag without a negative switch point: ComputeRenderLOD's clamp stops one short.
    EXPECT_EQ(scene::studioLodForMetric(three, 40.0f, true), 1u);
    EXPECT_EQ(scene::studioLodForMetric({}, 500.0f, false), 0u);
    EXPECT_EQ(scene::studioLodForMetric(std::vector<float>{0.0f}, 500.0f, false), 0u);
}

// The real sphere seen with a 90-degree vertical fov in a 720-pixel viewport: LOD 1 from
// 1080 units deep (metric 150), LOD 2 from 2160 (300), LOD 0 nearer than 1080.
TEST(StudioLod, WireHologramSphereByDistance) {
    content::FileSystem fs;
    ASSERT_TRUE(fs.addDirectory(std::filesystem::path(BSPV_SHARED_MAPS_DIR) / ".." / "models" /
                                "source" / "wire")
                    .ok());
    auto m = content::loadSourceModel(fs, "models/holograms/hq_sphere.mdl");
    ASSERT_TRUE(m.ok()) << m.error().message();
    const std::vector<float> points = content::sourceLodSwitchPoints(*m);
    const bool shadow = content::sourceHasShadowLod(m->mdl);
    auto lodAt = [&](float depth) {
        return scene::studioLodForMetric(points, scene::studioLodMetric(depth, 90.0f, 720.0f),
                                         shadow);
    };
    EXPECT_EQ(lodAt(100.0f), 0u);
    EXPECT_EQ(lodAt(1070.0f), 0u);
    EXPECT_EQ(lodAt(1090.0f), 1u);
    EXPECT_EQ(lodAt(2150.0f), 1u);
    EXPECT_EQ(lodAt(2170.0f), 2u);
    EXPECT_EQ(lodAt(100000.0f), 2u);
}
