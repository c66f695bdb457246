// A planar water's reflection view (scene/view/water_reflection.h): the plane, the mirrored
// camera and its own visible set, built from the pool of tests/support/planar_water_fixture.h
// with each part in a leaf of its own.
#include "scene/view/water_reflection.h"
#include "scene/world/material_table.h"
#include "scene/world/world_mesh.h"
#include "support/planar_water_fixture.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace {

using namespace testsupport::planar_water;

// The pool's materials, its water (material 1) planar unless `planar` is false.
scene::MaterialTable poolMaterials(const bsp::Map& map, bool planar = true) {
    std::vector<content::TextureInfo> textures(4);
    for (content::TextureInfo& t : textures) {
        t.image = solid({100, 100, 100});
        t.missing = false;
    }
    textures[1].surface_flags = bsp::kSurfTranslucent;
    textures[1].water.enabled = true;
    textures[1].water.blended = true;
    textures[1].water.planar = planar;
    return scene::resolveMaterials(map, nullptr, textures);
}

// The eye 40 units over the water at the origin, looking along +y, 60 degrees down: the top of
// its view (the vertical half angle at 16:9 is 29.4 degrees) runs 30.6 degrees down, under the
// whole wall (at most 7.6 degrees down from the eye), which the frustum therefore culls.
scene::Camera steepCamera() {
    scene::Camera cam;
    cam.position = {0.0f, 0.0f, kWaterZ + 40.0f};
    cam.pitch = 60.0f;
    cam.yaw = 90.0f;
    cam.z_near = 1.0f;
    return cam;
}

bool hasMaterial(const scene::DrawList& list, int32_t material) {
    return std::any_of(list.batches.begin(), list.batches.end(),
                       [material](const scene::DrawBatch& b) { return b.material == material; });
}

} // namespace

TEST(WaterReflection, PlanarWaterHeightsAreTheWaterFacesPlanes) {
    const bsp::Map map = pool(true);
    const std::vector<float> heights = scene::planarWaterHeights(map, poolMaterials(map));
    ASSERT_EQ(heights.size(), 4u);
    EXPECT_EQ(heights[1], kWaterZ);
    for (size_t k : {0u, 2u, 3u})
        EXPECT_TRUE(std::isnan(heights[k])) << k;
    // Water without the expensive path reflects nothing.
    for (float h : scene::planarWaterHeights(map, poolMaterials(map, false)))
        EXPECT_TRUE(std::isnan(h));
}

TEST(WaterReflection, TheCameraIsMirroredInThePlane) {
    const scene::Camera cam = steepCamera();
    const scene::Camera m = scene::reflectionCamera(cam, kWaterZ);
    EXPECT_EQ(m.position, glm::vec3(0.0f, 0.0f, 2.0f * kWaterZ - (kWaterZ + 40.0f))); // z = -32
    EXPECT_EQ(m.pitch, -60.0f);
    EXPECT_EQ(m.yaw, cam.yaw);
    EXPECT_EQ(m.fov_x, cam.fov_x);
    EXPECT_EQ(m.aspect, cam.aspect);
    EXPECT_EQ(m.z_near, cam.z_near);
    EXPECT_EQ(m.z_far, cam.z_far);
    // Its forward is the main view's mirrored: z negated.
    EXPECT_NEAR(m.forward().x, cam.forward().x, 1e-6f);
    EXPECT_NEAR(m.forward().y, cam.forward().y, 1e-6f);
    EXPECT_NEAR(m.forward().z, -cam.forward().z, 1e-6f);
}

TEST(WaterReflection, ItsListHoldsTheWallTheMainFrustumLeavesOut) {
    const bsp::Map map = pool(true);
    const scene::WorldMesh mesh = scene::buildWorldMesh(map, poolMaterials(map));
    const std::vector<float> heights = scene::planarWaterHeights(map, mesh.materials);
    scene::Visibility vis(map, mesh), reflection_vis(map, mesh);
    const scene::Camera cam = steepCamera();
    scene::DrawList list;
    vis.update(cam, {}, list);
    ASSERT_TRUE(hasMaterial(list, 1));  // the water is in view
    ASSERT_FALSE(hasMaterial(list, 2)); // the wall is not: its leaf is above the view
    scene::ReflectionView view;
    ASSERT_TRUE(scene::updateReflectionView(cam, list, heights, reflection_vis, {}, view));
    EXPECT_EQ(view.plane, kWaterZ);
    EXPECT_EQ(view.camera.position, scene::reflectionCamera(cam, kWaterZ).position);
    EXPECT_EQ(view.camera.pitch, -cam.pitch);
    // The mirrored camera looks up at the wall: its leaf is in its frustum and the eye's PVS.
    EXPECT_TRUE(hasMaterial(view.list, 2));
    // The wall's leaf is the one the main view culled; the pillar's stays out of both views.
    EXPECT_FALSE(hasMaterial(view.list, 3));
}

TEST(WaterReflection, NoneWithoutPlanarWaterBelowTheEye) {
    const bsp::Map map = pool(true);
    const scene::WorldMesh mesh = scene::buildWorldMesh(map, poolMaterials(map));
    const std::vector<float> heights = scene::planarWaterHeights(map, mesh.materials);
    scene::Visibility vis(map, mesh), reflection_vis(map, mesh);
    scene::ReflectionView view;
    view.plane = -1.0f;
    // The eye under the water (CAboveWaterView only): no view, `out` untouched.
    scene::Camera below = steepCamera();
    below.position.z = kWaterZ - 4.0f;
    below.pitch = -60.0f;
    scene::DrawList list;
    vis.update(below, {}, list);
    ASSERT_TRUE(hasMaterial(list, 1));
    EXPECT_FALSE(scene::updateReflectionView(below, list, heights, reflection_vis, {}, view));
    EXPECT_EQ(view.plane, -1.0f);
    EXPECT_TRUE(view.list.batches.empty());
    // No water in the list: only the wall's batches, as a view of the wall alone holds.
    scene::DrawList walls;
    for (const scene::DrawBatch& b : list.batches)
        if (b.material != 1)
            walls.batches.push_back(b);
    EXPECT_FALSE(
        scene::updateReflectionView(steepCamera(), walls, heights, reflection_vis, {}, view));
    // Water that is not planar.
    const scene::WorldMesh cheap = scene::buildWorldMesh(map, poolMaterials(map, false));
    scene::Visibility cheap_vis(map, cheap);
    vis.update(steepCamera(), {}, list);
    EXPECT_FALSE(scene::updateReflectionView(
        steepCamera(), list, scene::planarWaterHeights(map, cheap.materials), cheap_vis, {}, view));
}
