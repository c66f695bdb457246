#include "scene/camera.h"
#include "scene/frustum.h"
#include "scene/light_styles.h"
#include "scene/visibility.h"
#include "scene/world_mesh.h"

#include <gtest/gtest.h>

#include <glm/geometric.hpp>

namespace {

void expectNear(const glm::vec3& a, const glm::vec3& b) {
    EXPECT_NEAR(a.x, b.x, 1e-5f);
    EXPECT_NEAR(a.y, b.y, 1e-5f);
    EXPECT_NEAR(a.z, b.z, 1e-5f);
}

// A quad face in the plane x = const, spanning y and z in [-32, 32].
void addQuad(bsp::Map& m, float x, int material) {
    bsp::Face f;
    f.material = material;
    f.first_vertex = static_cast<uint32_t>(m.vertices.size());
    f.num_vertices = 4;
    f.first_index = static_cast<uint32_t>(m.indices.size());
    f.num_indices = 6;
    const float ys[4] = {-32, 32, 32, -32}, zs[4] = {-32, -32, 32, 32};
    for (int i = 0; i < 4; ++i) {
        bsp::Vertex v;
        v.position = {x, ys[i], zs[i]};
        m.vertices.push_back(v);
    }
    for (uint32_t k : {0u, 1u, 2u, 0u, 2u, 3u})
        m.indices.push_back(f.first_vertex + k);
    m.faces.push_back(f);
}

// Two leaves split by the plane x = 0: leaf 1 (x > 0, cluster 0) and leaf 2 (x < 0,
// cluster 1), each holding one face, and a PVS in which the clusters cannot see each other.
bsp::Map twoRoomMap() {
    bsp::Map m;
    m.materials.push_back({});
    m.materials[0].name = "wall";
    m.planes.push_back({glm::vec3(1, 0, 0), 0.0f});
    bsp::Node n;
    n.plane = 0;
    n.children = {-2, -3};
    n.mins = glm::vec3(-512);
    n.maxs = glm::vec3(512);
    m.nodes.push_back(n);
    m.leaves.resize(3);
    m.leaves[0].cluster = -1;
    m.leaves[1].cluster = 0;
    m.leaves[1].mins = {0, -512, -512};
    m.leaves[1].maxs = {512, 512, 512};
    m.leaves[1].first_leaf_face = 0;
    m.leaves[1].num_leaf_faces = 1;
    m.leaves[2].cluster = 1;
    m.leaves[2].mins = {-512, -512, -512};
    m.leaves[2].maxs = {0, 512, 512};
    m.leaves[2].first_leaf_face = 1;
    m.leaves[2].num_leaf_faces = 1;
    addQuad(m, 200.0f, 0);  // face 0, in room A
    addQuad(m, -200.0f, 0); // face 1, in room B
    m.leaf_faces = {0, 1};
    bsp::Submodel world;
    world.mins = glm::vec3(-512);
    world.maxs = glm::vec3(512);
    world.num_faces = 2;
    m.submodels.push_back(world);
    m.vis.num_clusters = 2;
    m.vis.row_size = 1;
    m.vis.rows = {0b01, 0b10};
    return m;
}

} // namespace

TEST(Camera, QuakeAxes) {
    scene::Camera c;
    expectNear(c.forward(), {1, 0, 0});
    c.yaw = 90;
    expectNear(c.forward(), {0, 1, 0});
    expectNear(c.right(), {1, 0, 0});
    c.yaw = 0;
    c.pitch = 90; // positive pitch looks down
    expectNear(c.forward(), {0, 0, -1});
}

TEST(Camera, VerticalFovFromHorizontal) {
    scene::Camera c;
    c.aspect = 16.0f / 9.0f;
    EXPECT_NEAR(c.fovY(), 58.7155f, 1e-3f);
    c.aspect = 4.0f / 3.0f;
    EXPECT_NEAR(c.fovY(), 73.7398f, 1e-3f);
}

TEST(Camera, ViewMatrixPutsForwardOnMinusZAndRightOnPlusX) {
    scene::Camera c;
    c.position = {10, 20, 30};
    c.yaw = 90;
    const glm::mat4 v = c.view();
    const glm::vec4 ahead = v * glm::vec4(c.position + c.forward() * 100.0f, 1.0f);
    EXPECT_NEAR(ahead.z, -100.0f, 1e-3f);
    EXPECT_NEAR(ahead.x, 0.0f, 1e-3f);
    const glm::vec4 right = v * glm::vec4(c.position + c.right() * 5.0f, 1.0f);
    EXPECT_NEAR(right.x, 5.0f, 1e-3f);
    const glm::vec4 up = v * glm::vec4(c.position + glm::vec3(0, 0, 7), 1.0f);
    EXPECT_NEAR(up.y, 7.0f, 1e-3f);
}

TEST(Frustum, BoxInsideOutsideAndBehind) {
    scene::Camera c;
    c.aspect = 1.0f;
    const scene::Frustum f = scene::Frustum::fromMatrix(c.viewProjection());
    EXPECT_TRUE(f.intersectsBox({100, -10, -10}, {120, 10, 10}));    // ahead
    EXPECT_FALSE(f.intersectsBox({-120, -10, -10}, {-100, 10, 10})); // behind
    EXPECT_FALSE(f.intersectsBox({100, 300, -10}, {120, 320, 10}));  // far left of 90 deg fov
    EXPECT_TRUE(f.intersectsBox({100, 90, -10}, {120, 130, 10}));    // straddles the left plane
    EXPECT_FALSE(f.intersectsBox({1, -1, -1}, {2, 1, 1}));           // before the near plane
    EXPECT_TRUE(f.intersectsBox({-1000, -1000, -1000}, {1000, 1000, 1000})); // contains the eye
}

TEST(Visibility, PvsHidesTheOtherRoom) {
    const bsp::Map map = twoRoomMap();
    const scene::WorldMesh mesh = scene::buildWorldMesh(map);
    ASSERT_EQ(mesh.drawable_faces, 2u);
    scene::Visibility vis(map, mesh);
    scene::DrawList list;
    scene::Camera cam;
    cam.position = {100, 0, 0};
    cam.yaw = 180; // looking at -X: both faces are inside the frustum
    vis.update(cam, {}, list);
    EXPECT_EQ(list.stats.camera_leaf, 1);
    EXPECT_EQ(list.stats.camera_cluster, 0);
    // Culling is per leaf: face 0 is behind the eye but its leaf contains the camera.
    EXPECT_TRUE(list.containsFace(0));
    EXPECT_FALSE(list.containsFace(1)); // other cluster
    cam.yaw = 0;
    vis.update(cam, {}, list);
    EXPECT_TRUE(list.containsFace(0));
    EXPECT_EQ(list.stats.faces_drawn, 1u);
    EXPECT_EQ(list.stats.draw_calls, 1u);
    EXPECT_EQ(list.stats.triangles, 2u);

    scene::VisOptions no_pvs;
    no_pvs.pvs = false;
    cam.yaw = 180;
    vis.update(cam, no_pvs, list);
    EXPECT_TRUE(list.containsFace(1));
}

TEST(Visibility, FrustumCullsLeavesBehindTheCamera) {
    const bsp::Map map = twoRoomMap();
    const scene::WorldMesh mesh = scene::buildWorldMesh(map);
    scene::Visibility vis(map, mesh);
    scene::DrawList list;
    scene::Camera cam;
    cam.position = {300, 0, 0}; // in room A, looking +X: room B's leaf is behind
    scene::VisOptions opts;
    opts.pvs = false;
    vis.update(cam, opts, list);
    EXPECT_FALSE(list.containsFace(1));
    opts.frustum = false;
    vis.update(cam, opts, list);
    EXPECT_TRUE(list.containsFace(0));
    EXPECT_TRUE(list.containsFace(1));
    EXPECT_EQ(list.stats.visible_leaves, 2u);
}

TEST(Visibility, LockKeepsTheSetWhileTheCameraMoves) {
    const bsp::Map map = twoRoomMap();
    const scene::WorldMesh mesh = scene::buildWorldMesh(map);
    scene::Visibility vis(map, mesh);
    scene::DrawList list;
    scene::Camera cam;
    cam.position = {100, 0, 0};
    scene::VisOptions opts;
    vis.update(cam, opts, list);
    const std::vector<uint32_t> locked = list.faces;
    opts.lock = true;
    cam.position = {-100, 0, 0};
    cam.yaw = 180;
    vis.update(cam, opts, list);
    EXPECT_EQ(list.faces, locked);
    EXPECT_EQ(list.stats.camera_cluster, 1); // the stats still follow the camera
    opts.lock = false;
    vis.update(cam, opts, list);
    EXPECT_NE(list.faces, locked);
    EXPECT_TRUE(list.containsFace(1));
}

TEST(Visibility, CameraOutsideTheMapDrawsEverythingInTheFrustum) {
    bsp::Map map = twoRoomMap();
    map.nodes[0].children = {-2, -1}; // x < 0 is now the solid leaf 0 (cluster -1)
    const scene::WorldMesh mesh = scene::buildWorldMesh(map);
    scene::Visibility vis(map, mesh);
    scene::DrawList list;
    scene::Camera cam;
    cam.position = {-100, 0, 0};
    vis.update(cam, {}, list);
    EXPECT_EQ(list.stats.camera_cluster, -1);
    EXPECT_TRUE(list.containsFace(0));
}

TEST(Visibility, MapWithoutVisDrawsAllLeaves) {
    bsp::Map map = twoRoomMap();
    map.vis = bsp::Vis();
    const scene::WorldMesh mesh = scene::buildWorldMesh(map);
    scene::Visibility vis(map, mesh);
    scene::DrawList list;
    scene::Camera cam;
    cam.position = {100, 0, 0};
    cam.yaw = 180;
    vis.update(cam, {}, list);
    EXPECT_TRUE(list.containsFace(1));
}

TEST(WorldMesh, NoDrawAndSkyAreClassified) {
    bsp::Map map = twoRoomMap();
    map.materials.push_back({});
    map.materials[1].flags = bsp::kSurfNoDraw;
    map.materials.push_back({});
    map.materials[2].flags = bsp::kSurfSky;
    map.faces[0].material = 1;
    map.faces[1].material = 2;
    const scene::WorldMesh mesh = scene::buildWorldMesh(map);
    EXPECT_EQ(mesh.faces[0].num_indices, 0u);
    EXPECT_EQ(mesh.faces[1].pass, scene::Pass::Sky);
    EXPECT_EQ(mesh.drawable_faces, 1u);
}

TEST(WorldMesh, SameMaterialFacesMergeIntoOneRange) {
    bsp::Map map = twoRoomMap();
    const scene::WorldMesh mesh = scene::buildWorldMesh(map);
    scene::Visibility vis(map, mesh);
    scene::DrawList list;
    scene::Camera cam;
    scene::VisOptions opts;
    opts.pvs = false;
    opts.frustum = false;
    vis.update(cam, opts, list);
    ASSERT_EQ(list.batches.size(), 1u);
    EXPECT_EQ(list.batches[0].num_ranges, 1u);
    EXPECT_EQ(list.ranges[0].count, 12u);
}

TEST(LightStyles, StandardStringsAtTenStepsPerSecond) {
    EXPECT_EQ(scene::lightStyleString(0), "m");
    EXPECT_EQ(scene::lightStyleString(40), "m");
    auto v = scene::lightStyleValues(0.0);
    EXPECT_FLOAT_EQ(v[0], 1.0f);
    EXPECT_FLOAT_EQ(v[2], 0.0f);       // 'a'
    v = scene::lightStyleValues(0.25); // third letter of style 2: 'c'
    EXPECT_FLOAT_EQ(v[2], 2.0f / 12.0f);
    v = scene::lightStyleValues(5.1); // style 4 "mamamamamama": step 51 % 12 = 3 -> 'a'
    EXPECT_FLOAT_EQ(v[4], 0.0f);
    std::array<bool, scene::kNumLightStyles> enabled;
    enabled.fill(true);
    enabled[0] = false;
    v = scene::lightStyleValues(0.0, &enabled);
    EXPECT_FLOAT_EQ(v[0], 0.0f);
}

TEST(Visibility, CullReasonsAddUpToTheFacesConsidered) {
    const bsp::Map map = twoRoomMap();
    const scene::WorldMesh mesh = scene::buildWorldMesh(map);
    scene::Visibility vis(map, mesh);
    scene::DrawList list;
    scene::Camera cam;
    cam.position = {100, 0, 0};
    cam.yaw = 90; // face 0 (x = 200) is in the camera's leaf, face 1 in the other cluster
    scene::VisOptions opts;
    opts.classify = true;
    vis.update(cam, opts, list);
    const scene::DrawStats& s = list.stats;
    EXPECT_EQ(s.faces_considered, 2u);
    EXPECT_EQ(s.drawn_world + s.culled_pvs + s.culled_frustum, s.faces_considered);
    EXPECT_EQ(list.culled_pvs, std::vector<uint32_t>{1});
    EXPECT_TRUE(list.culled_frustum.empty());

    // Without the PVS the other room's leaf is behind the camera: the frustum rejects it.
    cam.yaw = 0;
    cam.position = {300, 0, 0};
    opts.pvs = false;
    vis.update(cam, opts, list);
    EXPECT_EQ(list.culled_frustum, std::vector<uint32_t>{1});
    EXPECT_TRUE(list.culled_pvs.empty());
    EXPECT_EQ(list.stats.drawn_world + list.stats.culled_pvs + list.stats.culled_frustum,
              list.stats.faces_considered);
}

TEST(WorldMesh, BrushModelBlendingMovesFacesToTheirPass) {
    bsp::Map map = twoRoomMap();
    bsp::Submodel door;
    door.blend = bsp::BlendMode::Additive;
    door.alpha = 0.5f;
    door.first_face = 1;
    door.num_faces = 1;
    map.submodels.push_back(door);
    map.faces[1].submodel = 1;
    scene::WorldMesh mesh = scene::buildWorldMesh(map);
    EXPECT_EQ(mesh.faces[0].pass, scene::Pass::Opaque);
    EXPECT_EQ(mesh.faces[1].pass, scene::Pass::Translucent);
    map.submodels[1].blend = bsp::BlendMode::AlphaTest;
    mesh = scene::buildWorldMesh(map);
    EXPECT_EQ(mesh.faces[1].pass, scene::Pass::AlphaTest);
    map.submodels[1].visible = false; // triggers
    mesh = scene::buildWorldMesh(map);
    EXPECT_EQ(mesh.faces[1].num_indices, 0u);
}
