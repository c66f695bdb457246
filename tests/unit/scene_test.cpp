#include "scene/models/model_set.h"
#include "scene/view/camera.h"
#include "scene/view/frustum.h"
#include "scene/view/sky_region.h"
#include "scene/view/visibility.h"
#include "scene/world/light_styles.h"
#include "scene/world/world_mesh.h"
#include "support/far_plane_fixture.h"
#include "support/map_builder.h"

#include <gtest/gtest.h>

#include <glm/geometric.hpp>
#include <glm/vector_relational.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <new>
#include <vector>

// Every allocation of this test program, counted (RegroupingAllocatesNothingOnceWarm). Every
// non-aligned form is replaced, so memory from one is never freed by another's allocator (a
// sanitizer's nothrow new against this free would be a mismatch). Not inlined: GCC would
// otherwise pair the inlined malloc with the library's operator delete at -O2 and warn
// (-Wmismatched-new-delete) about a mismatch that is not there.
namespace {
std::atomic<size_t> g_allocations{0};

void* countedAlloc(size_t size) noexcept {
    ++g_allocations;
    return std::malloc(size ? size : 1);
}
} // namespace

[[gnu::noinline]] void* operator new(size_t size) {
    if (void* p = countedAlloc(size))
        return p;
    throw std::bad_alloc();
}
[[gnu::noinline]] void* operator new[](size_t size) {
    if (void* p = countedAlloc(size))
        return p;
    throw std::bad_alloc();
}
[[gnu::noinline]] void* operator new(size_t size, const std::nothrow_t&) noexcept {
    return countedAlloc(size);
}
[[gnu::noinline]] void* operator new[](size_t size, const std::nothrow_t&) noexcept {
    return countedAlloc(size);
}
[[gnu::noinline]] void operator delete(void* p) noexcept {
    std::free(p);
}
[[gnu::noinline]] void operator delete[](void* p) noexcept {
    std::free(p);
}
[[gnu::noinline]] void operator delete(void* p, size_t) noexcept {
    std::free(p);
}
[[gnu::noinline]] void operator delete[](void* p, size_t) noexcept {
    std::free(p);
}
[[gnu::noinline]] void operator delete(void* p, const std::nothrow_t&) noexcept {
    std::free(p);
}
[[gnu::noinline]] void operator delete[](void* p, const std::nothrow_t&) noexcept {
    std::free(p);
}

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
    testsupport::addQuad(m, {{{x, -32, -32}, {x, 32, -32}, {x, 32, 32}, {x, -32, 32}}}, f);
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

// twoRoomMap with a flare in each room, seen from every side: face 2 at (150, 0, 0) in room A
// (cluster 0) and face 3 at (-150, 0, 0) in room B (cluster 1).
bsp::Map twoRoomFlareMap() {
    bsp::Map m = twoRoomMap();
    for (const float x : {150.0f, -150.0f}) {
        bsp::Face f;
        f.material = 0;
        testsupport::addFlare(m, {x, 0, 0}, f);
    }
    m.submodels[0].num_faces = 4;
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

// A map without spawn points opens looking at its whole geometry from outside it.
TEST(Camera, OverviewSeesTheWholeBoxFromOutside) {
    const glm::vec3 mins{-100, 0, 0}, maxs{300, 200, 50};
    scene::Camera c = scene::overviewCamera(mins, maxs);
    c.aspect = 16.0f / 9.0f;
    EXPECT_FLOAT_EQ(c.pitch, 30.0f);
    EXPECT_FLOAT_EQ(c.yaw, 45.0f);
    // The eye is outside the box, above it, and looks at its centre.
    const glm::vec3 centre = (mins + maxs) * 0.5f;
    EXPECT_TRUE(glm::any(glm::lessThan(c.position, mins)) ||
                glm::any(glm::greaterThan(c.position, maxs)));
    EXPECT_GT(c.position.z, maxs.z);
    const glm::vec3 to_centre = glm::normalize(centre - c.position);
    EXPECT_NEAR(glm::dot(to_centre, c.forward()), 1.0f, 1e-5f);
    // Every corner projects inside the picture, between the near and far planes.
    const glm::mat4 vp = c.viewProjection();
    for (int i = 0; i < 8; ++i) {
        const glm::vec3 p{(i & 1) ? maxs.x : mins.x, (i & 2) ? maxs.y : mins.y,
                          (i & 4) ? maxs.z : mins.z};
        const glm::vec4 clip = vp * glm::vec4(p, 1.0f);
        ASSERT_GT(clip.w, 0.0f) << i;
        EXPECT_LE(std::abs(clip.x), clip.w) << i;
        EXPECT_LE(std::abs(clip.y), clip.w) << i;
        EXPECT_LE(std::abs(clip.z), clip.w) << i;
    }
    // Nothing to look at: the default camera.
    const scene::Camera none = scene::overviewCamera(glm::vec3(1.0f), glm::vec3(-1.0f));
    EXPECT_EQ(none.position, glm::vec3(0.0f));
    EXPECT_EQ(none.pitch, 0.0f);
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

// A sky region (game::SkyRegion) in room B seen from a world eye in room A: its camera stands at
// origin + eye / scale with the same angles, and its set comes from the cluster at its origin.
TEST(Visibility, SkyRegionSeesItsOwnClusterFromItsOwnEye) {
    const bsp::Map map = twoRoomMap();
    const scene::WorldMesh mesh = scene::buildWorldMesh(map);
    game::SkyRegion region;
    region.origin = {-300.0f, 0.0f, 0.0f};
    region.scale = 16.0f;
    scene::Camera world;
    world.position = {160.0f, 0.0f, 0.0f};
    world.yaw = 30.0f;
    world.pitch = -10.0f;
    const scene::Camera sky = scene::skyRegionCamera(world, region);
    EXPECT_EQ(sky.position, glm::vec3(-290.0f, 0.0f, 0.0f)); // -300 + 160 / 16
    EXPECT_EQ(sky.yaw, 30.0f);
    EXPECT_EQ(sky.pitch, -10.0f);
    EXPECT_EQ(sky.fov_x, world.fov_x);
    EXPECT_EQ(sky.z_near, 2.0f);
    EXPECT_EQ(sky.z_far, 1.732050807569f * 32768.0f) << "MAX_TRACE_LENGTH, not the world's";

    scene::Visibility world_vis(map, mesh), sky_vis(map, mesh);
    scene::DrawList world_list, sky_list;
    world_vis.update(world, {}, world_list);
    EXPECT_TRUE(world_list.containsFace(0));
    EXPECT_FALSE(world_list.containsFace(1));
    sky_vis.update(sky, scene::skyRegionVis(region, {}), sky_list);
    EXPECT_EQ(sky_list.stats.camera_leaf, 2);
    EXPECT_EQ(sky_list.stats.camera_cluster, 1);
    EXPECT_TRUE(sky_list.containsFace(1));
    EXPECT_FALSE(sky_list.containsFace(0)) << "room A is not in room B's PVS row";
    // The PVS comes from the origin, not the moved eye: unscaled, the eye lands in room A at
    // (-300 + 400, 0, 0) = (100, 0, 0) yet the set is still room B's.
    region.scale = 1.0f;
    world.position = {400.0f, 0.0f, 0.0f};
    world.yaw = 180.0f;
    world.pitch = 0.0f;
    EXPECT_EQ(scene::skyRegionCamera(world, region).position, glm::vec3(100.0f, 0.0f, 0.0f));
    sky_vis.update(scene::skyRegionCamera(world, region), scene::skyRegionVis(region, {}),
                   sky_list);
    EXPECT_EQ(sky_list.stats.camera_cluster, 1);
    EXPECT_TRUE(sky_list.containsFace(1));
    EXPECT_FALSE(sky_list.containsFace(0));
}

// The sky region's set keeps the leaves of its camera's area alone (CSkyboxView::DrawInternal
// opens that one area bit): twoRoomFlareMap with room A (leaf 1, face 0, flare 2) in area 1 and
// room B (leaf 2, face 1, flare 3) in area 2, each cluster seeing the other. From room B's origin
// the PVS row holds both rooms, yet only room B's leaf, face, flare and model are kept.
TEST(Visibility, SkyRegionKeepsOnlyItsCamerasArea) {
    bsp::Map map = twoRoomFlareMap();
    map.vis.rows = {0b11, 0b11};
    map.areas.resize(3); // area 0: the outside, as vbsp numbers them
    map.leaves[1].area = 1;
    map.leaves[2].area = 2;
    const scene::WorldMesh mesh = scene::buildWorldMesh(map);
    std::vector<scene::EntityModelInstance> models(2);
    models[0].origin = {250.0f, 0.0f, 0.0f}; // room A
    models[0].cluster = 0;
    models[1].origin = {-250.0f, 0.0f, 0.0f}; // room B
    models[1].cluster = 1;
    for (scene::EntityModelInstance& m : models)
        m.radius = 8.0f;
    game::SkyRegion region;
    region.origin = {-300.0f, 0.0f, 0.0f};
    region.scale = 16.0f;
    scene::VisOptions no_frustum;
    no_frustum.frustum = false;
    scene::Camera sky;
    sky.position = region.origin;

    scene::Visibility vis(map, mesh, &models);
    scene::DrawList list;
    vis.update(sky, no_frustum, list); // the plain view: both rooms
    EXPECT_EQ(list.stats.area, -1);
    EXPECT_EQ(list.stats.pvs_leaves, 2u);
    EXPECT_EQ(list.faces, std::vector<uint32_t>({0, 1}));
    EXPECT_EQ(list.flares, std::vector<uint32_t>({2, 3}));
    EXPECT_EQ(list.models, std::vector<uint32_t>({0, 1}));

    const scene::VisOptions region_options = scene::skyRegionVis(region, no_frustum);
    EXPECT_TRUE(region_options.own_area_only);
    vis.update(sky, region_options, list);
    EXPECT_EQ(list.stats.camera_leaf, 2);
    EXPECT_EQ(list.stats.area, 2);
    EXPECT_EQ(list.stats.pvs_leaves, 1u) << "leaf 1 is in area 1";
    EXPECT_EQ(list.stats.visible_leaves, 1u);
    EXPECT_EQ(list.faces, std::vector<uint32_t>({1}));
    EXPECT_EQ(list.flares, std::vector<uint32_t>({3}));
    EXPECT_EQ(list.models, std::vector<uint32_t>({1}));

    // The region's origin moved into room A (area 1): room A alone.
    region.origin = {300.0f, 0.0f, 0.0f};
    vis.update(sky, scene::skyRegionVis(region, no_frustum), list);
    EXPECT_EQ(list.stats.area, 1);
    EXPECT_EQ(list.faces, std::vector<uint32_t>({0}));
    EXPECT_EQ(list.flares, std::vector<uint32_t>({2}));
    EXPECT_EQ(list.models, std::vector<uint32_t>({0}));

    // Without areas (a map with none, or dropped as broken: bsp::kAreasDropped) nothing is
    // restricted.
    map.areas.clear();
    scene::Visibility no_areas(map, mesh, &models);
    no_areas.update(sky, scene::skyRegionVis(region, no_frustum), list);
    EXPECT_EQ(list.stats.area, -1);
    EXPECT_EQ(list.faces, std::vector<uint32_t>({0, 1}));
    EXPECT_EQ(scene::leafArea(map, 1), -1);
    map.areas.resize(2); // area 2 is past the areas: leaf 2 has none
    EXPECT_EQ(scene::leafArea(map, 1), 1);
    EXPECT_EQ(scene::leafArea(map, 2), -1);
    EXPECT_EQ(scene::leafArea(map, 3), -1);
    EXPECT_EQ(scene::leafArea(map, -1), -1);
}

// A linear fog as a view draws it (scene::viewFog): distances divided by the view's scale (a
// sky region's are world distances: Enable3dSkyboxFog), the colour blended by where the camera
// looks.
TEST(LinearFog, ViewFogScalesDistancesAndBlendsTheColourByTheViewDirection) {
    game::SkyRegion region;
    region.scale = 16.0f;
    region.fog.enabled = true;
    region.fog.start = 500.0f;
    region.fog.end = 2000.5f;
    region.fog.max_density = 0.75f;
    region.fog.radial = true;
    region.fog.blend = true;
    region.fog.colour = {1.0f, 0.0f, 0.0f};
    region.fog.colour2 = {0.0f, 0.0f, 1.0f};
    region.fog.direction = {4.0f, 0.0f, 0.0f};
    scene::Camera cam; // yaw 0: looking along +x, the fog's direction
    scene::LinearFog f = scene::skyRegionFog(region, cam);
    EXPECT_TRUE(f.enabled);
    EXPECT_EQ(f.start, 500.0f / 16.0f);
    EXPECT_EQ(f.end, 2000.5f / 16.0f);
    EXPECT_EQ(f.max_density, 0.75f);
    EXPECT_TRUE(f.radial);
    EXPECT_LT(glm::distance(f.colour, glm::vec3(1.0f, 0.0f, 0.0f)), 1e-6f);
    cam.yaw = 180.0f;
    f = scene::viewFog(region.fog, cam);
    EXPECT_EQ(f.start, 500.0f) << "a world view keeps the distances";
    EXPECT_LT(glm::distance(f.colour, glm::vec3(0.0f, 0.0f, 1.0f)), 1e-6f);
    cam.yaw = 90.0f;
    EXPECT_LT(glm::distance(scene::viewFog(region.fog, cam).colour, glm::vec3(0.5f, 0.0f, 0.5f)),
              1e-6f);
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

TEST(Visibility, FlareCandidatesFollowThePvsSwitch) {
    const bsp::Map map = twoRoomFlareMap();
    const scene::WorldMesh mesh = scene::buildWorldMesh(map);
    scene::Visibility vis(map, mesh);
    scene::DrawList list;
    scene::Camera cam;
    cam.position = {100, 0, 0}; // in room A, looking at -X: both flares are in the frustum
    cam.yaw = 180;
    vis.update(cam, {}, list);
    EXPECT_EQ(list.flares, std::vector<uint32_t>({2})) << "room B's flare is outside the PVS";
    scene::VisOptions no_pvs;
    no_pvs.pvs = false;
    vis.update(cam, no_pvs, list);
    EXPECT_EQ(list.flares, std::vector<uint32_t>({2, 3})) << "no PVS: every flare";
    EXPECT_TRUE(list.containsFace(1)) << "as every world face";
    vis.update(cam, {}, list);
    EXPECT_EQ(list.flares, std::vector<uint32_t>({2}));
}

TEST(Visibility, FlareCandidatesFollowTheFrustumSwitch) {
    const bsp::Map map = twoRoomFlareMap();
    const scene::WorldMesh mesh = scene::buildWorldMesh(map);
    scene::Visibility vis(map, mesh);
    scene::DrawList list;
    scene::Camera cam;
    cam.position = {300, 0, 0}; // in room A, looking +X: room B's leaf is behind
    scene::VisOptions opts;
    opts.pvs = false;
    vis.update(cam, opts, list);
    EXPECT_EQ(list.flares, std::vector<uint32_t>({2})) << "per leaf, like the world faces";
    opts.frustum = false;
    vis.update(cam, opts, list);
    EXPECT_EQ(list.flares, std::vector<uint32_t>({2, 3}));
}

TEST(Visibility, LockedFlareCandidatesStayTheFrozenSet) {
    const bsp::Map map = twoRoomFlareMap();
    const scene::WorldMesh mesh = scene::buildWorldMesh(map);
    scene::Visibility vis(map, mesh);
    scene::DrawList list;
    scene::Camera cam;
    cam.position = {100, 0, 0};
    cam.yaw = 180;
    scene::VisOptions opts;
    vis.update(cam, opts, list);
    ASSERT_EQ(list.flares, std::vector<uint32_t>({2}));
    // Into room B, whose PVS has only its own flare: locked, the set stays room A's.
    opts.lock = true;
    cam.position = {-100, 0, 0};
    cam.yaw = 0;
    vis.update(cam, opts, list);
    EXPECT_EQ(list.stats.camera_cluster, 1);
    EXPECT_EQ(list.flares, std::vector<uint32_t>({2}));
    opts.lock = false;
    vis.update(cam, opts, list);
    EXPECT_EQ(list.flares, std::vector<uint32_t>({3}));
    // Locked in room B with PVS culling off, then switched on while still locked: the frozen
    // set (both flares) stays.
    opts.pvs = false;
    vis.update(cam, opts, list);
    ASSERT_EQ(list.flares, std::vector<uint32_t>({2, 3}));
    opts.lock = true;
    opts.pvs = true;
    cam.position = {100, 0, 0};
    vis.update(cam, opts, list);
    EXPECT_EQ(list.flares, std::vector<uint32_t>({2, 3}));
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

// A door (face 1 made brush model 1, its box x -200, y and z +-32) in room B, culled as Quake 1's
// server culls entities (game::EntityRules::brush_model_vis: box spread by 2, leaves within 8
// units of the eye, 32 leaves at most). From room A the PVS cannot see room B.
TEST(Visibility, BrushModelsOutsideThePvsAreNotDrawn) {
    bsp::Map map = twoRoomMap();
    bsp::Submodel door;
    door.mins = {-200, -32, -32};
    door.maxs = {-200, 32, 32};
    door.first_face = 1;
    door.num_faces = 1;
    map.submodels.push_back(door);
    map.faces[1].submodel = 1;
    const game::BrushModelVis quake1{true, 2.0f, 8.0f, 32};
    map.format = bsp::Format::Quake1; // game/quake1.cpp's rule is that one
    ASSERT_EQ(game::profileFor(map).entities.brush_model_vis.leaf_limit, quake1.leaf_limit);
    const scene::WorldMesh mesh = scene::buildWorldMesh(map);
    scene::DrawList list;
    scene::Camera cam;
    cam.yaw = 180; // looking at -X, the door in front
    const auto drawnBy = [&](const game::BrushModelVis& rule, const bsp::Map& m, glm::vec3 eye) {
        scene::Visibility vis(m, mesh, nullptr, rule);
        cam.position = eye;
        vis.update(cam, {}, list);
        return list.containsFace(1);
    };
    const auto drawn = [&](const bsp::Map& m, glm::vec3 eye, const scene::VisOptions& opts = {}) {
        scene::Visibility vis(m, mesh, nullptr, quake1);
        cam.position = eye;
        vis.update(cam, opts, list);
        return list.containsFace(1);
    };
    EXPECT_FALSE(drawn(map, {100, 0, 0}));
    EXPECT_EQ(list.stats.brush_models_culled_pvs, 1u);
    EXPECT_TRUE(drawn(map, {-100, 0, 0})); // from room B
    EXPECT_EQ(list.stats.brush_models_culled_pvs, 0u);
    // The fat PVS: 8 units from the plane x = 0 the eye's leaves are both rooms, 9 only room A.
    EXPECT_TRUE(drawn(map, {8, 0, 0}));
    EXPECT_FALSE(drawn(map, {9, 0, 0}));
    scene::VisOptions no_pvs;
    no_pvs.pvs = false;
    EXPECT_TRUE(drawn(map, {100, 0, 0}, no_pvs));

    // Moved by its origin to x -1.5 .. -1.5, the box spread by 2 reaches x = 0.5 and touches
    // room A's leaf; at x -2 it reaches 0, the plane itself, which counts as the front too
    // (BOX_ON_PLANE_SIDE); at -2.25 it stays in room B.
    bsp::Map moved = map;
    moved.submodels[1].origin = {198.5f, 0, 0};
    EXPECT_TRUE(drawn(moved, {100, 0, 0}));
    moved.submodels[1].origin = {198.0f, 0, 0};
    EXPECT_TRUE(drawn(moved, {100, 0, 0}));
    moved.submodels[1].origin = {197.75f, 0, 0};
    EXPECT_FALSE(drawn(moved, {100, 0, 0}));

    // A model linked into leaf_limit leaves or more is always sent: the door touches one.
    game::BrushModelVis limited = quake1;
    limited.leaf_limit = 1;
    EXPECT_TRUE(drawnBy(limited, map, {100, 0, 0}));
    limited.leaf_limit = 2;
    EXPECT_FALSE(drawnBy(limited, map, {100, 0, 0}));

    // Without the rule (other games) only the frustum decides.
    EXPECT_TRUE(drawnBy(game::BrushModelVis{}, map, {100, 0, 0}));
    EXPECT_EQ(list.stats.brush_models_culled_pvs, 0u);
}

// An eye in solid (x < 0 is leaf 0 here) reaches only the leaves within 8 units: from x = -9 no
// leaf, so no brush model is sent, although the world is drawn whole (no cluster, no PVS); from
// x = -8 room A's leaf, whose row shows the door (face 1 moved by its origin to x = 200).
TEST(Visibility, EyeInSolidSeesBrushModelsOnlyNearALeaf) {
    bsp::Map map = twoRoomMap();
    map.nodes[0].children = {-2, -1};
    map.leaves[0].contents = bsp::kContentsSolid;
    bsp::Submodel door;
    door.mins = {-200, -32, -32};
    door.maxs = {-200, 32, 32};
    door.origin = {400, 0, 0};
    door.first_face = 1;
    door.num_faces = 1;
    map.submodels.push_back(door);
    map.faces[1].submodel = 1;
    const scene::WorldMesh mesh = scene::buildWorldMesh(map);
    const game::BrushModelVis quake1{true, 2.0f, 8.0f, 32};
    scene::Visibility vis(map, mesh, nullptr, quake1);
    scene::DrawList list;
    scene::Camera cam; // looking at +X
    cam.position = {-9, 0, 0};
    vis.update(cam, {}, list);
    EXPECT_EQ(list.stats.camera_cluster, -1);
    EXPECT_TRUE(list.containsFace(0));
    EXPECT_FALSE(list.containsFace(1));
    cam.position = {-8, 0, 0};
    vis.update(cam, {}, list);
    EXPECT_TRUE(list.containsFace(1));
    // Without vis data a reached leaf sees everything, and still none is reached from -9.
    map.vis = bsp::Vis();
    scene::Visibility no_vis(map, mesh, nullptr, quake1);
    no_vis.update(cam, {}, list);
    EXPECT_TRUE(list.containsFace(1));
    cam.position = {-9, 0, 0};
    no_vis.update(cam, {}, list);
    EXPECT_FALSE(list.containsFace(1));
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

TEST(LightStyles, TheMapsSpawnStringsReplaceTheStandardOnes) {
    const std::vector<game::LightStyleString> spawn = {{2, "z"}, {32, "a"}, {40, "ma"}};
    EXPECT_EQ(scene::lightStyleString(32, spawn), "a");
    EXPECT_EQ(scene::lightStyleString(33, spawn), "m");
    auto v = scene::lightStyleValues(0.0, nullptr, spawn);
    EXPECT_FLOAT_EQ(v[2], 25.0f / 12.0f); // 'z' instead of the pulse's 'a'
    EXPECT_FLOAT_EQ(v[32], 0.0f);         // switched off at spawn
    EXPECT_FLOAT_EQ(v[33], 1.0f);
    EXPECT_FLOAT_EQ(v[40], 1.0f);
    v = scene::lightStyleValues(0.15, nullptr, spawn); // second letter of "ma"
    EXPECT_FLOAT_EQ(v[40], 0.0f);
    EXPECT_FLOAT_EQ(scene::lightStyleValues(0.0)[32], 1.0f); // without the map: 'm'
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

namespace {

// Blended faces for the commuting-blend tests: quads at x (all in front of a camera at the
// origin looking along +X, so farther is drawn first), in one leaf of a map without vis.
// Materials: 0 and 1 add (BlendOrder::Commutes), 2 alpha-blends (Ordered), 3 and 4 are opaque
// and drawn with their brush model's blending (CommutesInAdditiveModel).
struct BlendedQuad {
    float x;
    int material;
    int32_t fog = -1;
    int32_t submodel = 0;
};

constexpr uint32_t kBlended = bsp::kSurfTranslucent;
constexpr struct {
    const char* name;
    uint32_t flags;
    scene::BlendOrder order;
} kBlendedMaterials[] = {{"add_a", kBlended | bsp::kSurfAdditive, scene::BlendOrder::Commutes},
                         {"add_b", kBlended | bsp::kSurfAdditive, scene::BlendOrder::Commutes},
                         {"glass", kBlended, scene::BlendOrder::Ordered},
                         {"model_a", 0, scene::BlendOrder::CommutesInAdditiveModel},
                         {"model_b", 0, scene::BlendOrder::CommutesInAdditiveModel}};

bsp::Map blendedMap(const std::vector<BlendedQuad>& quads, bsp::BlendMode model_blend) {
    bsp::Map m;
    for (const auto& d : kBlendedMaterials)
        testsupport::addMaterial(m, d.name, d.flags);
    bsp::Submodel world;
    world.mins = glm::vec3(-1000.0f);
    world.maxs = glm::vec3(1000.0f);
    bsp::Submodel model = world;
    model.blend = model_blend;
    model.alpha = 0.5f;
    model.entity = 1;
    // World faces first (the leaf's), then the model's: the parsers' layout.
    for (int pass = 0; pass < 2; ++pass)
        for (const BlendedQuad& q : quads) {
            if ((q.submodel != 0) != (pass == 1))
                continue;
            if (pass == 1 && model.num_faces == 0)
                model.first_face = static_cast<uint32_t>(m.faces.size());
            addQuad(m, q.x, q.material);
            m.faces.back().fog = q.fog;
            m.faces.back().submodel = q.submodel;
            (pass == 0 ? world : model).num_faces++;
        }
    testsupport::addLeaf(m, world.mins, world.maxs, 0, 0, world.num_faces);
    m.submodels.push_back(world);
    m.submodels.push_back(model);
    return m;
}

// The mesh of a blendedMap with the blend orders buildMaterialStages would resolve.
scene::WorldMesh blendedMesh(const bsp::Map& map) {
    scene::MaterialTable table = scene::resolveMaterials(map);
    for (size_t i = 0; i < table.size(); ++i)
        table[i].blend_order = kBlendedMaterials[i].order;
    return scene::buildWorldMesh(map, table);
}

struct BlendedList {
    scene::DrawList list;
    std::vector<uint32_t> indices; // every index drawn, in drawing order
};

BlendedList drawBlended(const bsp::Map& map, const scene::WorldMesh& mesh, bool commute) {
    scene::Visibility vis(map, mesh);
    BlendedList out;
    scene::VisOptions opts;
    opts.pvs = false;
    opts.frustum = false;
    opts.commute_blends = commute;
    vis.update(scene::Camera(), opts, out.list);
    for (const scene::DrawBatch& b : out.list.batches) {
        EXPECT_EQ(b.pass, scene::Pass::Translucent);
        for (uint32_t r = 0; r < b.num_ranges; ++r) {
            const scene::DrawRange& range = out.list.ranges[b.first_range + r];
            for (uint32_t k = 0; k < range.count; ++k)
                out.indices.push_back(mesh.indices[range.first_index + k]);
        }
    }
    return out;
}

// (material, faces) of each batch, in drawing order.
std::vector<std::pair<int32_t, uint32_t>> batchShape(const scene::DrawList& list) {
    std::vector<std::pair<int32_t, uint32_t>> shape;
    for (const scene::DrawBatch& b : list.batches)
        shape.emplace_back(b.material, b.num_faces);
    return shape;
}

// Regrouping only reorders: the same faces and triangles, each drawn once, and the counts in
// the batches and stats add up.
void expectSameFacesDrawn(const BlendedList& on, const BlendedList& off) {
    std::vector<uint32_t> a = on.indices, b = off.indices;
    EXPECT_EQ(a.size(), b.size());
    // Triangles as units: sort them (three indices each) and compare.
    auto triangles = [](const std::vector<uint32_t>& v) {
        std::vector<std::array<uint32_t, 3>> t;
        for (size_t i = 0; i + 2 < v.size(); i += 3)
            t.push_back({v[i], v[i + 1], v[i + 2]});
        std::sort(t.begin(), t.end());
        return t;
    };
    EXPECT_EQ(triangles(a), triangles(b));
    uint32_t faces = 0, ranges = 0;
    for (const scene::DrawBatch& batch : on.list.batches) {
        faces += batch.num_faces;
        ranges += batch.num_ranges;
        EXPECT_GE(batch.num_ranges, 1u);
    }
    EXPECT_EQ(faces, on.list.stats.faces_drawn);
    EXPECT_EQ(ranges, on.list.ranges.size());
    EXPECT_EQ(on.list.stats.draw_calls, on.list.batches.size());
    EXPECT_EQ(on.list.stats.faces_drawn, off.list.stats.faces_drawn);
    EXPECT_EQ(on.list.stats.triangles, off.list.stats.triangles);
}

} // namespace

TEST(Visibility, InterleavedAdditiveFacesRegroupByMaterial) {
    const bsp::Map map =
        blendedMap({{400, 0}, {300, 1}, {200, 0}, {100, 1}}, bsp::BlendMode::Opaque);
    const scene::WorldMesh mesh = blendedMesh(map);
    const BlendedList off = drawBlended(map, mesh, false);
    using Shape = std::vector<std::pair<int32_t, uint32_t>>;
    EXPECT_EQ(batchShape(off.list), (Shape{{0, 1}, {1, 1}, {0, 1}, {1, 1}})) << "back to front";
    const BlendedList on = drawBlended(map, mesh, true);
    // Groups in order of their first (farthest) face, faces far to near within a group.
    EXPECT_EQ(batchShape(on.list), (Shape{{0, 2}, {1, 2}}));
    ASSERT_EQ(on.list.batches.size(), 2u);
    // The mesh lays one material's faces side by side: faces 0 and 2 merge into one range.
    EXPECT_EQ(on.list.batches[0].num_ranges, 1u);
    EXPECT_EQ(on.list.ranges[on.list.batches[0].first_range].first_index,
              mesh.faces[0].first_index);
    EXPECT_EQ(on.list.ranges[on.list.batches[0].first_range].count, 12u);
    expectSameFacesDrawn(on, off);
}

TEST(Visibility, AlphaBlendedFaceEndsACommutingRun) {
    const bsp::Map map =
        blendedMap({{500, 0}, {400, 1}, {300, 0}, {250, 2}, {200, 0}, {150, 1}, {100, 0}, {50, 1}},
                   bsp::BlendMode::Opaque);
    const scene::WorldMesh mesh = blendedMesh(map);
    const BlendedList off = drawBlended(map, mesh, false);
    EXPECT_EQ(off.list.batches.size(), 8u);
    const BlendedList on = drawBlended(map, mesh, true);
    using Shape = std::vector<std::pair<int32_t, uint32_t>>;
    // Nothing crosses the glass: the faces behind it and in front of it group separately.
    EXPECT_EQ(batchShape(on.list), (Shape{{0, 2}, {1, 1}, {2, 1}, {0, 2}, {1, 2}}));
    expectSameFacesDrawn(on, off);
}

TEST(Visibility, FogAndModelKeepCommutingFacesApart) {
    // Material 0 everywhere: in the world without fog, in fog 0, and in brush model 1.
    const bsp::Map map =
        blendedMap({{600, 0}, {500, 0, 0}, {400, 0, -1, 1}, {300, 0}, {200, 0, 0}, {100, 0, -1, 1}},
                   bsp::BlendMode::Opaque);
    const scene::WorldMesh mesh = blendedMesh(map);
    const BlendedList off = drawBlended(map, mesh, false);
    EXPECT_EQ(off.list.batches.size(), 6u);
    const BlendedList on = drawBlended(map, mesh, true);
    ASSERT_EQ(on.list.batches.size(), 3u);
    const std::array<std::pair<int32_t, int32_t>, 3> want = {{{-1, 0}, {0, 0}, {-1, 1}}};
    for (size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(on.list.batches[i].fog, want[i].first) << i;
        EXPECT_EQ(on.list.batches[i].submodel, want[i].second) << i;
        EXPECT_EQ(on.list.batches[i].num_faces, 2u) << i;
    }
    expectSameFacesDrawn(on, off);
}

TEST(Visibility, ModelBlendingDecidesWhetherUnstagedFacesCommute) {
    // Opaque materials 3 and 4 in brush model 1: blended by the model, interleaved.
    const std::vector<BlendedQuad> quads = {
        {400, 3, -1, 1}, {300, 4, -1, 1}, {200, 3, -1, 1}, {100, 4, -1, 1}};
    {
        const bsp::Map map = blendedMap(quads, bsp::BlendMode::Additive);
        const scene::WorldMesh mesh = blendedMesh(map);
        const BlendedList on = drawBlended(map, mesh, true);
        EXPECT_EQ(on.list.batches.size(), 2u) << "an additive model adds its faces";
        expectSameFacesDrawn(on, drawBlended(map, mesh, false));
    }
    {
        const bsp::Map map = blendedMap(quads, bsp::BlendMode::Alpha);
        const scene::WorldMesh mesh = blendedMesh(map);
        EXPECT_EQ(drawBlended(map, mesh, true).list.batches.size(), 4u)
            << "an alpha-blended model keeps its order";
    }
}

TEST(Visibility, RegroupingAllocatesNothingOnceWarm) {
    // The second frame of the same view allocates nothing (counted by this file's operator
    // new): the scratch arrays and the list keep their storage.
    const bsp::Map map = blendedMap({{500, 0}, {400, 1}, {300, 0}, {250, 2}, {200, 0}, {150, 1}},
                                    bsp::BlendMode::Opaque);
    const scene::WorldMesh mesh = blendedMesh(map);
    scene::Visibility vis(map, mesh);
    scene::VisOptions opts;
    opts.pvs = false;
    opts.frustum = false;
    scene::DrawList list;
    const scene::Camera cam;
    const size_t before_first = g_allocations.load();
    vis.update(cam, opts, list);
    EXPECT_GT(g_allocations.load(), before_first) << "the counter sees the first frame's arrays";
    EXPECT_EQ(list.batches.size(), 5u);
    const size_t before = g_allocations.load();
    vis.update(cam, opts, list);
    EXPECT_EQ(g_allocations.load(), before);
    EXPECT_EQ(list.batches.size(), 5u);
}

// Source's farz pulls the main view's far plane in (game::ViewRule::far_plane): the frustum's
// far plane culls the leaves and models beyond it, except the sky faces of a leaf that only the
// far plane rejects (DrawStats::sky_leaves_past_far): the sky is drawn at the far plane whatever
// its distance. testsupport::farPlaneMap: leaf 0 (the eye, the near wall at x 500), leaf 1 (the
// far wall at 1500), leaf 2 (the sky face at 3000).
TEST(Visibility, FarzCullsWhatLiesBeyondItButTheSky) {
    const bsp::Map map = testsupport::farPlaneMap();
    const scene::WorldMesh mesh = scene::buildWorldMesh(
        map, scene::resolveMaterials(map, nullptr, testsupport::farPlaneTextures()));
    // Two models: one by the near wall, one 1500 units off (radius 16).
    std::vector<scene::EntityModelInstance> models(2);
    models[0].origin = {400.0f, 100.0f, -100.0f};
    models[1].origin = {1450.0f, -100.0f, -100.0f};
    for (scene::EntityModelInstance& m : models) {
        m.radius = 16.0f;
        m.cluster = 0;
    }
    scene::Visibility vis(map, mesh, &models);
    scene::Camera cam;
    cam.aspect = 2.0f;
    cam.z_near = 1.0f;
    cam.z_far = game::profileFor(map).view.far_plane;
    ASSERT_EQ(cam.z_far, 1000.0f);
    scene::VisOptions options;
    options.classify = true;
    scene::DrawList list;
    vis.update(cam, options, list);
    EXPECT_EQ(list.stats.pvs_leaves, 3u);
    EXPECT_EQ(list.stats.visible_leaves, 1u) << "leaf 0 alone is within farz";
    EXPECT_EQ(list.stats.sky_leaves_past_far, 1u) << "leaf 2: its sky face kept";
    EXPECT_EQ(list.faces, (std::vector<uint32_t>{0, 2}));
    EXPECT_EQ(list.stats.faces_drawn, 2u);
    EXPECT_EQ(list.culled_frustum, (std::vector<uint32_t>{1})) << "the far wall";
    EXPECT_EQ(list.stats.models_drawn, 1u);
    EXPECT_EQ(list.models, (std::vector<uint32_t>{0}));

    // The far plane of a map that does not pull it in: everything is drawn.
    cam.z_far = 16384.0f;
    vis.update(cam, options, list);
    EXPECT_EQ(list.stats.visible_leaves, 3u);
    EXPECT_EQ(list.stats.sky_leaves_past_far, 0u);
    EXPECT_EQ(list.faces, (std::vector<uint32_t>{0, 1, 2}));
    EXPECT_EQ(list.stats.models_drawn, 2u);

    // Looking away (yaw 180): the sky leaf is behind the eye, outside the side planes as well,
    // so nothing of it is kept.
    cam.z_far = 1000.0f;
    cam.yaw = 180.0f;
    vis.update(cam, options, list);
    EXPECT_EQ(list.stats.sky_leaves_past_far, 0u);
    EXPECT_FALSE(list.containsFace(2));
    EXPECT_FALSE(list.containsFace(1));
}

// VisOptions::own_area_only keeps the brush models of the area kept alone (a sky region's view
// opens its camera's area: CSkyboxView::DrawInternal; the client draws the renderables of the
// view's leaves: CClientLeafSystem::BuildRenderablesList). twoRoomMap with leaf 1 (x > 0) in
// area 1 and leaf 2 (x < 0) in area 2, and two brush models: model 1 a quad at x = 100 (area 1),
// model 2 a quad at x = -100 (area 2), drawn at their origins.
TEST(Visibility, OwnAreaOnlyKeepsTheBrushModelsOfThatArea) {
    bsp::Map map = twoRoomMap();
    map.areas.resize(3);
    map.leaves[1].area = 1;
    map.leaves[2].area = 2;
    for (const float x : {100.0f, -100.0f}) {
        bsp::Submodel sm;
        sm.first_face = static_cast<uint32_t>(map.faces.size());
        sm.num_faces = 1;
        addQuad(map, 0.0f, 0); // at the model's origin
        sm.mins = glm::vec3(0.0f, -32.0f, -32.0f);
        sm.maxs = glm::vec3(0.0f, 32.0f, 32.0f);
        sm.origin = glm::vec3(x, 0.0f, 0.0f);
        map.submodels.push_back(sm);
    }
    const scene::WorldMesh mesh = scene::buildWorldMesh(map);
    scene::Visibility vis(map, mesh);
    scene::Camera cam;
    cam.position = {150.0f, 0.0f, 0.0f};
    scene::VisOptions options;
    options.frustum = false;
    options.pvs = false; // every leaf a candidate: the area alone decides
    scene::DrawList list;
    vis.update(cam, options, list);
    EXPECT_EQ(list.faces, (std::vector<uint32_t>{0, 1, 2, 3})) << "no area kept: both models";
    EXPECT_EQ(list.stats.brush_models_culled_area, 0u);

    options.own_area_only = true;
    vis.update(cam, options, list);
    EXPECT_EQ(list.stats.area, 1);
    EXPECT_EQ(list.faces, (std::vector<uint32_t>{0, 2})) << "area 1: its world face, model 1";
    EXPECT_EQ(list.stats.brush_models_culled_area, 1u);

    // From the other room (the region's origin in area 2): model 2 alone.
    options.pvs_point = glm::vec3(-150.0f, 0.0f, 0.0f);
    vis.update(cam, options, list);
    EXPECT_EQ(list.stats.area, 2);
    EXPECT_EQ(list.faces, (std::vector<uint32_t>{1, 3}));

    // Model 2's box widened to x in [-8, 24] about its origin moved to -16: it spans -24..8,
    // touches both areas across x = 0, and is kept from area 1 too.
    map.submodels[2].mins.x = -8.0f;
    map.submodels[2].maxs.x = 24.0f;
    map.submodels[2].origin.x = -16.0f;
    scene::Visibility vis2(map, mesh);
    options.pvs_point = glm::vec3(150.0f, 0.0f, 0.0f);
    vis2.update(cam, options, list);
    EXPECT_EQ(list.faces, (std::vector<uint32_t>{0, 2, 3}));
    EXPECT_EQ(list.stats.brush_models_culled_area, 0u);
}
