// The synthetic maps written by tools/mapgen, read back by the real parser and run through
// the scene: exact visibility answers known in advance.
#include "bsp/entities.h"
#include "bsp/load.h"
#include "bsp/tree.h"
#include "mapgen/demo_map.h"
#include "mapgen/q3_writer.h"
#include "scene/view/visibility.h"
#include "scene/world/world_mesh.h"

#include <gtest/gtest.h>

#include <set>

namespace {

glm::vec3 centre(const mapgen::DemoSpace& s) {
    return (s.mins + s.maxs) * 0.5f;
}

// A camera in the middle of a space, looking along +X.
scene::Camera cameraIn(const mapgen::DemoSpace& s) {
    scene::Camera c;
    c.position = centre(s);
    return c;
}

} // namespace

TEST(DemoMap, ParsesAndMatchesItsGroundTruth) {
    const mapgen::DemoMap demo = mapgen::buildDemoMap();
    const std::vector<uint8_t> bytes = mapgen::writeQ3Bsp(demo.desc);
    auto map = bsp::loadMap(bytes, "demo.bsp");
    ASSERT_TRUE(map.ok()) << map.error().message();
    EXPECT_EQ(map->vis.num_clusters, demo.num_clusters);
    for (int32_t a = 0; a < demo.num_clusters; ++a)
        for (int32_t b = 0; b < demo.num_clusters; ++b)
            EXPECT_EQ(map->vis.visible(a, b), demo.expectedVisible(a, b)) << a << " -> " << b;
    // Every space's centre lies in a leaf of that space's cluster.
    for (const mapgen::DemoSpace& s : demo.spaces) {
        const int32_t leaf = bsp::pointLeaf(*map, centre(s));
        ASSERT_GE(leaf, 0);
        EXPECT_EQ(map->leaves[static_cast<size_t>(leaf)].cluster, s.cluster) << s.name;
    }
    EXPECT_EQ(bsp::findSpawnPoints(*map).size(), demo.spawns.size());
    size_t patches = 0;
    for (const bsp::Face& f : map->faces)
        patches += f.kind == bsp::FaceKind::Patch;
    EXPECT_EQ(patches, demo.patch_faces.size());
}

TEST(DemoMap, CameraInRoomADoesNotDrawRoomC) {
    const mapgen::DemoMap demo = mapgen::buildDemoMap();
    auto map = bsp::loadMap(mapgen::writeQ3Bsp(demo.desc), "demo.bsp");
    ASSERT_TRUE(map.ok()) << map.error().message();
    const scene::WorldMesh mesh = scene::buildWorldMesh(*map);
    scene::Visibility vis(*map, mesh);
    scene::DrawList list;
    const auto& A = demo.spaces[static_cast<size_t>(demo.spaceIndex("A"))];
    const auto& C = demo.spaces[static_cast<size_t>(demo.spaceIndex("C"))];
    ASSERT_FALSE(demo.expectedVisible(A.cluster, C.cluster));
    scene::VisOptions no_frustum; // the PVS alone decides
    no_frustum.frustum = false;
    vis.update(cameraIn(A), no_frustum, list);
    EXPECT_EQ(list.stats.camera_cluster, A.cluster);
    const std::set<uint32_t> drawn(list.faces.begin(), list.faces.end());
    for (int32_t f : C.faces)
        EXPECT_EQ(drawn.count(static_cast<uint32_t>(f)), 0u) << "face " << f << " of room C";
    for (int32_t f : A.faces)
        EXPECT_EQ(drawn.count(static_cast<uint32_t>(f)), 1u) << "face " << f << " of room A";
    // Without the PVS, room C's faces come back.
    no_frustum.pvs = false;
    vis.update(cameraIn(A), no_frustum, list);
    const std::set<uint32_t> all(list.faces.begin(), list.faces.end());
    for (int32_t f : C.faces)
        EXPECT_EQ(all.count(static_cast<uint32_t>(f)), 1u);
}

TEST(DemoMap, EveryClusterDrawsExactlyTheSpacesItCanSee) {
    const mapgen::DemoMap demo = mapgen::buildDemoMap();
    auto map = bsp::loadMap(mapgen::writeQ3Bsp(demo.desc), "demo.bsp");
    ASSERT_TRUE(map.ok()) << map.error().message();
    const scene::WorldMesh mesh = scene::buildWorldMesh(*map);
    scene::Visibility vis(*map, mesh);
    scene::DrawList list;
    scene::VisOptions opts;
    opts.frustum = false;
    for (const mapgen::DemoSpace& from : demo.spaces) {
        vis.update(cameraIn(from), opts, list);
        const std::set<uint32_t> drawn(list.faces.begin(), list.faces.end());
        for (const mapgen::DemoSpace& to : demo.spaces) {
            const bool expected = demo.expectedVisible(from.cluster, to.cluster);
            for (int32_t f : to.faces) {
                // A face shared by two spaces' leaves is visible if either is.
                if (!expected && drawn.count(static_cast<uint32_t>(f)))
                    ADD_FAILURE() << from.name << " draws face " << f << " of " << to.name;
                if (expected && to.name == from.name) {
                    EXPECT_EQ(drawn.count(static_cast<uint32_t>(f)), 1u);
                }
            }
        }
    }
}

TEST(TwoRoomMap, NeitherRoomSeesTheOther) {
    const mapgen::DemoMap demo = mapgen::buildTwoRoomMap();
    auto map = bsp::loadMap(mapgen::writeQ3Bsp(demo.desc), "two_rooms.bsp");
    ASSERT_TRUE(map.ok()) << map.error().message();
    const scene::WorldMesh mesh = scene::buildWorldMesh(*map);
    scene::Visibility vis(*map, mesh);
    scene::DrawList list;
    scene::VisOptions opts;
    opts.frustum = false;
    const auto& A = demo.spaces[0];
    const auto& B = demo.spaces[1];
    vis.update(cameraIn(A), opts, list);
    const std::set<uint32_t> drawn(list.faces.begin(), list.faces.end());
    EXPECT_FALSE(drawn.empty());
    for (int32_t f : B.faces)
        EXPECT_EQ(drawn.count(static_cast<uint32_t>(f)), 0u);
}
