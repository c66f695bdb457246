// GL-free geometry of the debug overlays (scene/debug_geometry): frustum corners, box and
// frustum lines, visible leaves, face keys, area borders, entity markers and links, patch
// nets, ray cast -> face -> luxel, and the --debug list.
#include "scene/debug/debug_geometry.h"
#include "support/map_builder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <set>

namespace {

void expectNear(const glm::vec3& a, const glm::vec3& b, float eps = 1e-2f) {
    EXPECT_NEAR(a.x, b.x, eps);
    EXPECT_NEAR(a.y, b.y, eps);
    EXPECT_NEAR(a.z, b.z, eps);
}

TEST(DebugGeometry, FrustumCornersOfAKnownCamera) {
    scene::Camera cam; // at the origin looking along +X
    cam.fov_x = 90.0f;
    cam.aspect = 1.0f;
    cam.z_near = 4.0f;
    cam.z_far = 100.0f;
    const auto c = scene::frustumCorners(cam);
    // Near plane: x = 4, half extents 4 (90 degrees). Left is +Y, so bottom-left is (+Y, -Z).
    expectNear(c[0], {4, 4, -4});
    expectNear(c[1], {4, -4, -4});
    expectNear(c[2], {4, -4, 4});
    expectNear(c[3], {4, 4, 4});
    expectNear(c[4], {100, 100, -100}, 0.2f);
    expectNear(c[6], {100, -100, 100}, 0.2f);
    // A shorter drawn depth moves only the far corners.
    const auto d = scene::frustumCorners(cam, 50.0f);
    expectNear(d[0], c[0]);
    expectNear(d[5], {50, -50, -50}, 0.1f);
    // Looking down (pitch 90): the far plane is below the eye.
    cam.pitch = 90.0f;
    for (const glm::vec3& p : scene::frustumCorners(cam))
        EXPECT_LT(p.z, 0.0f);
}

TEST(DebugGeometry, BoxAndFrustumLines) {
    scene::LineList lines;
    lines.addBox({0, 0, 0}, {1, 2, 3}, {255, 0, 0, 255});
    ASSERT_EQ(lines.segments(), 12u);
    for (size_t i = 0; i < lines.vertices.size(); i += 2) {
        const glm::vec3 d = lines.vertices[i + 1].position - lines.vertices[i].position;
        // Every edge runs along exactly one axis, with the box's length on that axis.
        int axes = 0;
        for (int k = 0; k < 3; ++k)
            if (d[k] != 0.0f) {
                ++axes;
                EXPECT_FLOAT_EQ(std::abs(d[k]), static_cast<float>(k + 1));
            }
        EXPECT_EQ(axes, 1);
        for (int e = 0; e < 2; ++e)
            for (int k = 0; k < 3; ++k) {
                const float v = lines.vertices[i + e].position[k];
                EXPECT_TRUE(v == 0.0f || v == static_cast<float>(k + 1));
            }
    }
    scene::Camera cam;
    cam.aspect = 1.0f;
    scene::LineList f;
    scene::addFrustum(f, cam, {255, 255, 0, 255}, 256.0f);
    EXPECT_EQ(f.segments(), 16u);
    for (const scene::LineVertex& v : f.vertices) {
        EXPECT_GE(v.position.x, 0.0f); // all in front of (or at) the eye
        EXPECT_LE(v.position.x, 256.5f);
    }
    scene::LineList arrow;
    arrow.addArrow({0, 0, 0}, {10, 0, 0}, {255, 255, 255, 255});
    EXPECT_EQ(arrow.segments(), 3u);
    expectNear(arrow.vertices[1].position, {10, 0, 0});
}

TEST(DebugGeometry, HashColoursAreStableAndDistinct) {
    EXPECT_EQ(scene::hashColour(7), scene::hashColour(7));
    std::set<uint32_t> seen;
    for (uint32_t k = 0; k < 64; ++k) {
        const glm::u8vec4 c = scene::hashColour(k);
        seen.insert(uint32_t(c.r) << 16 | uint32_t(c.g) << 8 | c.b);
        EXPECT_EQ(c.a, 255);
    }
    EXPECT_EQ(seen.size(), 64u);
}

// Two 64-unit leaves side by side along x (clusters 0 and 1, areas 1 and 2), one quad face
// each, and a PVS in which neither cluster sees the other.
bsp::Map twoRooms() {
    bsp::Map m;
    testsupport::addMaterial(m, "wall");
    m.lightmap_width = 8;
    m.lightmap_height = 8;
    bsp::LightmapPage page;
    page.rgb.resize(8 * 8 * 3);
    for (size_t i = 0; i < 64; ++i) { // texel (x, y) = (10 * x, 10 * y, 7)
        page.rgb[i * 3] = static_cast<uint8_t>(10 * (i % 8));
        page.rgb[i * 3 + 1] = static_cast<uint8_t>(10 * (i / 8));
        page.rgb[i * 3 + 2] = 7;
    }
    m.lightmap_pages.push_back(page);
    for (int room = 0; room < 2; ++room) {
        const float x0 = 64.0f * static_cast<float>(room);
        bsp::Face f;
        f.material = 0;
        f.normal = {0, 0, 1};
        f.lightmap_page = 0;
        f.lightmap_rect = {static_cast<uint16_t>(4 * room), 0, 4, 4};
        const glm::vec3 corners[4] = {{x0, 0, 0}, {x0 + 64, 0, 0}, {x0 + 64, 64, 0}, {x0, 64, 0}};
        const glm::vec2 lm[4] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
        std::array<bsp::Vertex, 4> v{};
        for (size_t k = 0; k < 4; ++k) {
            v[k].position = corners[k];
            // The block's 4x4 texels of the 8x8 page.
            v[k].lm_uv = (glm::vec2(static_cast<float>(4 * room), 0.0f) + lm[k] * 4.0f) / 8.0f;
        }
        const uint32_t face = testsupport::addQuadVertices(m, v, f);
        const uint32_t leaf = testsupport::addLeaf(m, {x0, 0, 0}, {x0 + 64, 64, 64}, room, face, 1);
        m.leaves[leaf].area = room + 1;
    }
    // Node 0 splits at x = 64: front (x >= 64) is leaf 1, back is leaf 0.
    m.planes.push_back({{1, 0, 0}, 64.0f});
    bsp::Node node;
    node.plane = 0;
    node.children = {-2, -1};
    node.mins = {0, 0, 0};
    node.maxs = {128, 64, 64};
    m.nodes.push_back(node);
    m.areas.resize(3);
    m.vis.num_clusters = 2;
    m.vis.row_size = 1;
    m.vis.rows = {0x01, 0x02};
    testsupport::addWorldModel(m, glm::vec3(0), {128, 64, 64}, 2);
    return m;
}

TEST(DebugGeometry, VisibleLeavesFollowThePvsAndTheFrustum) {
    const bsp::Map m = twoRooms();
    scene::Camera cam;
    cam.position = {32, 32, 32}; // in leaf 0, looking along +X at leaf 1
    cam.aspect = 1.0f;
    EXPECT_EQ(scene::visibleLeaves(m, cam, true, true), std::vector<uint32_t>{0});
    EXPECT_EQ(scene::visibleLeaves(m, cam, false, true), (std::vector<uint32_t>{0, 1}));
    cam.position = {100, 32, 32}; // in leaf 1 looking away from leaf 0
    EXPECT_EQ(scene::visibleLeaves(m, cam, false, true), std::vector<uint32_t>{1});
    EXPECT_EQ(scene::visibleLeaves(m, cam, false, false), (std::vector<uint32_t>{0, 1}));
}

TEST(DebugGeometry, FaceClustersAreasAndAreaBorders) {
    bsp::Map m = twoRooms();
    EXPECT_EQ(scene::faceClusters(m), (std::vector<int32_t>{0, 1}));
    EXPECT_EQ(scene::faceAreas(m), (std::vector<int32_t>{1, 2}));
    // The rooms share the plane x = 64: one flat border there.
    auto borders = scene::areaBorders(m);
    ASSERT_EQ(borders.size(), 1u);
    EXPECT_EQ(borders[0].mins.x, 64.0f);
    EXPECT_EQ(borders[0].maxs.x, 64.0f);
    EXPECT_EQ(borders[0].maxs.y, 64.0f);
    EXPECT_EQ(borders[0].area_a, 1);
    EXPECT_EQ(borders[0].area_b, 2);
    // Same area: no border. Apart: no border.
    m.leaves[1].area = 1;
    EXPECT_TRUE(scene::areaBorders(m).empty());
    m.leaves[1].area = 2;
    m.leaves[1].mins.x = 70.0f;
    EXPECT_TRUE(scene::areaBorders(m).empty());
}

bsp::Entity entity(std::vector<std::pair<std::string, std::string>> pairs) {
    bsp::Entity e;
    e.pairs = std::move(pairs);
    return e;
}

TEST(DebugGeometry, EntityMarkersLinksAndFilter) {
    bsp::Map m = twoRooms();
    m.entities.push_back(entity({{"classname", "worldspawn"}}));
    m.entities.push_back(
        entity({{"classname", "info_player_start"}, {"origin", "10 20 30"}, {"angle", "90"}}));
    m.entities.push_back(entity({{"classname", "func_door"}, {"model", "*0"}, {"target", "t1"}}));
    m.entities.push_back(
        entity({{"classname", "light"}, {"origin", "0 0 100"}, {"targetname", "t1"}}));
    const auto markers = scene::entityMarkers(m);
    ASSERT_EQ(markers.size(), 2u); // worldspawn has no origin, the door is a brush model
    EXPECT_EQ(markers[0].classname, "info_player_start");
    EXPECT_TRUE(markers[0].has_facing);
    EXPECT_FLOAT_EQ(markers[0].yaw, 90.0f);
    EXPECT_FALSE(markers[1].has_facing);
    const auto links = scene::targetLinks(m);
    ASSERT_EQ(links.size(), 1u);
    EXPECT_EQ(links[0].from, 2u);
    EXPECT_EQ(links[0].to, 3u);
    expectNear(links[0].a, {64, 32, 32}); // the brush model's centre
    expectNear(links[0].b, {0, 0, 100});

    EXPECT_TRUE(scene::classnameMatches("info_player_start", ""));
    EXPECT_TRUE(scene::classnameMatches("info_player_start", "PLAYER"));
    EXPECT_FALSE(scene::classnameMatches("light", "player"));

    scene::LineList all, players, none;
    scene::addEntityMarkers(all, m, markers, links, "");
    // Two boxes, one facing arrow, one target line with its tick.
    EXPECT_EQ(all.segments(), 12u * 2 + 3 + 2);
    scene::addEntityMarkers(players, m, markers, {}, "player");
    EXPECT_EQ(players.segments(), 12u + 3);
    // The arrow of a yaw-90 spawn points along +Y.
    const glm::vec3 arrow = players.vertices[25].position - players.vertices[24].position;
    EXPECT_GT(arrow.y, 0.0f);
    EXPECT_NEAR(arrow.x, 0.0f, 1e-3f);
    scene::addEntityMarkers(none, m, markers, links, "no_such_class");
    EXPECT_EQ(none.segments(), 0u);
}

TEST(DebugGeometry, PatchControlNets) {
    bsp::Map m = twoRooms();
    EXPECT_EQ(scene::patchCount(m), 0u);
    bsp::Face p;
    p.kind = bsp::FaceKind::Patch;
    p.patch_width = 3;
    p.patch_height = 5;
    p.first_vertex = static_cast<uint32_t>(m.vertices.size());
    p.num_vertices = 15;
    for (int i = 0; i < 15; ++i) {
        bsp::Vertex v;
        v.position = {static_cast<float>(i % 3), static_cast<float>(i / 3), 0.0f};
        m.vertices.push_back(v);
    }
    m.faces.push_back(p);
    EXPECT_EQ(scene::patchCount(m), 1u);
    scene::LineList lines;
    scene::addPatchNets(lines, m, {255, 0, 255, 255});
    // 5 rows of 2 segments and 3 columns of 4.
    EXPECT_EQ(lines.segments(), 5u * 2 + 3u * 4);
    for (size_t i = 0; i < lines.vertices.size(); i += 2)
        EXPECT_FLOAT_EQ(glm::length(lines.vertices[i + 1].position - lines.vertices[i].position),
                        1.0f);
    // One face's net: the same segments; a non-patch face or a bad index gives none.
    scene::LineList one;
    scene::addPatchNet(one, m, static_cast<uint32_t>(m.faces.size() - 1), {255, 255, 255, 255});
    EXPECT_EQ(one.segments(), lines.segments());
    scene::addPatchNet(one, m, 0, {255, 255, 255, 255});
    scene::addPatchNet(one, m, 999, {255, 255, 255, 255});
    EXPECT_EQ(one.segments(), lines.segments());
    // A grid that claims more control points than the file has is skipped.
    m.faces.back().num_vertices = 14;
    lines.clear();
    scene::addPatchNets(lines, m, {255, 0, 255, 255});
    EXPECT_EQ(lines.segments(), 0u);
}

TEST(DebugGeometry, RayCastFindsTheFaceAndItsLuxel) {
    const bsp::Map m = twoRooms();
    const scene::WorldMesh mesh = scene::buildWorldMesh(m);
    // Straight down onto room 1 at (64 + 40, 20): local luxel (2, 1) of its block at x = 4.
    const auto hit = scene::rayCast(m, mesh, {104, 20, 50}, {0, 0, -1});
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->face, 1u);
    EXPECT_NEAR(hit->distance, 50.0f, 1e-3f);
    expectNear(hit->point, {104, 20, 0});
    const auto luxel = scene::luxelAt(m, hit->face, hit->lm_uv);
    ASSERT_TRUE(luxel);
    EXPECT_EQ(luxel->page, 0);
    EXPECT_EQ(luxel->local_x, 2);
    EXPECT_EQ(luxel->local_y, 1);
    EXPECT_EQ(luxel->x, 6);
    EXPECT_EQ(luxel->y, 1);
    EXPECT_EQ(luxel->rgb, (std::array<uint8_t, 3>{60, 10, 7}));
    // The nearest face wins; a ray that misses everything, or points away, finds nothing.
    EXPECT_EQ(scene::rayCast(m, mesh, {20, 20, 50}, {0, 0, -1})->face, 0u);
    EXPECT_FALSE(scene::rayCast(m, mesh, {200, 20, 50}, {0, 0, -1}));
    EXPECT_FALSE(scene::rayCast(m, mesh, {20, 20, 50}, {0, 0, 1}));
    // Face bounds only skip work: the same answers with them, for rays in every direction.
    const auto bounds = scene::faceBounds(m);
    ASSERT_EQ(bounds.size(), m.faces.size());
    EXPECT_EQ(bounds[1].mins.x, 63.5f);
    for (int i = 0; i < 200; ++i) {
        const float a = static_cast<float>(i) * 0.37f, b = static_cast<float>(i) * 0.11f;
        const glm::vec3 o(64.0f + 50.0f * std::cos(a), 32.0f + 20.0f * std::sin(b), 40.0f);
        const glm::vec3 d(std::cos(b) * std::sin(a), std::sin(b),
                          -0.3f - 0.7f * std::abs(std::cos(a)));
        const auto plain = scene::rayCast(m, mesh, o, d);
        const auto fast = scene::rayCast(m, mesh, o, d, 1e9f, &bounds);
        ASSERT_EQ(plain.has_value(), fast.has_value()) << i;
        if (plain) {
            EXPECT_EQ(plain->face, fast->face);
            EXPECT_FLOAT_EQ(plain->distance, fast->distance);
        }
    }
    EXPECT_EQ(scene::rayCast(m, mesh, {104, 20, 50}, {0, 0, -1}, 1e9f, &bounds)->face, 1u);
    // Out-of-range faces and faces without a lightmap give no luxel.
    EXPECT_FALSE(scene::luxelAt(m, 99, {0, 0}));
    bsp::Map unlit = m;
    unlit.faces[0].lightmap_page = -1;
    EXPECT_FALSE(scene::luxelAt(unlit, 0, {0.1f, 0.1f}));
}

TEST(DebugGeometry, DebugViewList) {
    scene::DebugViews v;
    std::string error;
    EXPECT_FALSE(v.any());
    ASSERT_TRUE(scene::parseDebugViews("frustum,leaf-bounds,entities", &v, &error)) << error;
    EXPECT_TRUE(v.frustum && v.leaf_bounds && v.entities);
    EXPECT_FALSE(v.clusters || v.luxels || v.patches || v.areas || v.area_borders);
    ASSERT_TRUE(scene::parseDebugViews("all", &v, &error));
    EXPECT_TRUE(v.clusters && v.luxels && v.patches && v.areas && v.area_borders);
    EXPECT_FALSE(v.changes) << "changes needs a second map: only by name";
    EXPECT_FALSE(v.hull1 || v.hull2 || v.hull3 || v.brushes) << "collision views by name only";
    ASSERT_TRUE(scene::parseDebugViews("changes,hull2,brushes", &v, &error));
    EXPECT_TRUE(v.changes && v.hull2 && v.brushes);
    EXPECT_FALSE(v.hull1 || v.hull3);
    ASSERT_TRUE(scene::parseDebugViews("none", &v, &error));
    EXPECT_FALSE(v.any());
    EXPECT_FALSE(scene::parseDebugViews("clusters,bogus", &v, &error));
    EXPECT_NE(error.find("bogus"), std::string::npos);
    EXPECT_FALSE(v.clusters); // unchanged on failure
}

} // namespace
