// Source overlays (bsp/overlays.h): a hand-made doverlay_t read to exact values (the face count
// beside the render order, BasisU out of the UV points' z, the V flip), errors naming the lump
// and the record, and a fragment clipped from a 128-unit floor with hand-computed positions,
// texture and lightmap coordinates and leaf links; tf2_test2's two info_overlays.
#include "bsp/dropped.h"
#include "bsp/load.h"
#include "bsp/map.h"
#include "bsp/overlays.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <vector>

#include <glm/geometric.hpp>

namespace {

// One 352-byte record: id 7, `texinfo`, `faces` (render order 2 in the top bits), U (0,1),
// V (0,1), a 32-unit square around `origin` facing +z with BasisU +x; `flip` sets UV point 3's z.
std::vector<uint8_t> record(int16_t texinfo, std::vector<int32_t> faces, glm::vec3 origin,
                            bool flip = false) {
    std::vector<uint8_t> b(bsp::kOverlayBytes, 0);
    auto put = [&](size_t at, const void* p, size_t n) { std::memcpy(b.data() + at, p, n); };
    const int32_t id = 7;
    put(0, &id, 4);
    put(4, &texinfo, 2);
    const uint16_t packed = uint16_t(faces.size()) | uint16_t(2u << 14);
    put(6, &packed, 2);
    put(8, faces.data(), faces.size() * 4);
    const float uv[4] = {0.0f, 1.0f, 0.0f, 1.0f};
    put(264, uv, 16);
    const float points[12] = {-16, -16, 1, -16, 16, 0, 16, 16, 0, 16, -16, flip ? 1.0f : 0.0f};
    put(280, points, 48);
    put(328, &origin, 12);
    const float normal[3] = {0, 0, 1};
    put(340, normal, 12);
    return b;
}

// A 128-unit floor at z 0 (two triangles, lightmap coordinates position / 128) in one leaf.
bsp::Map floorMap() {
    bsp::Map map;
    map.format = bsp::Format::Source;
    map.materials.resize(2);
    for (glm::vec2 p :
         {glm::vec2(0, 0), glm::vec2(128, 0), glm::vec2(128, 128), glm::vec2(0, 128)}) {
        bsp::Vertex v;
        v.position = {p.x, p.y, 0.0f};
        v.lm_uv = p / 128.0f;
        map.vertices.push_back(v);
    }
    map.indices = {0, 1, 2, 0, 2, 3};
    bsp::Face face;
    face.material = 0;
    face.lightmap_page = 0;
    face.num_vertices = 4;
    face.num_indices = 6;
    map.faces.push_back(face);
    map.leaves.resize(1);
    map.leaves[0].num_leaf_faces = 1;
    map.leaf_faces = {0};
    return map;
}

// The fragment's vertex at (x, y), or null.
const bsp::Vertex* vertexAt(const bsp::Map& map, const bsp::Face& f, float x, float y) {
    for (uint32_t k = 0; k < f.num_vertices; ++k) {
        const bsp::Vertex& v = map.vertices[f.first_vertex + k];
        if (std::abs(v.position.x - x) < 1e-3f && std::abs(v.position.y - y) < 1e-3f)
            return &v;
    }
    return nullptr;
}

TEST(Overlays, RecordReadsToExactValues) {
    const auto o = bsp::parseOverlays(record(1, {0, 5}, {64, 64, 0}), 0);
    ASSERT_TRUE(o) << o.error().message();
    ASSERT_EQ(o->size(), 1u);
    const bsp::Overlay& r = (*o)[0];
    EXPECT_EQ(r.id, 7);
    EXPECT_EQ(r.texinfo, 1);
    EXPECT_EQ(r.render_order, 2u);
    EXPECT_EQ(r.faces, (std::vector<int32_t>{0, 5}));
    EXPECT_EQ(r.corners[1], glm::vec2(-16, 16));
    EXPECT_EQ(r.basis_u, glm::vec3(1, 0, 0)); // z of points 0, 1, 2
    EXPECT_EQ(r.basis_v, glm::vec3(0, 1, 0)); // cross(normal, U)
    EXPECT_EQ(r.origin, glm::vec3(64, 64, 0));
    const auto flipped = bsp::parseOverlays(record(1, {0}, {64, 64, 0}, true), 0);
    ASSERT_TRUE(flipped);
    EXPECT_EQ((*flipped)[0].basis_v, glm::vec3(0, -1, 0));
}

TEST(Overlays, ErrorsNameTheLumpAndTheRecord) {
    auto bytes = record(1, {0}, {0, 0, 0});
    const auto v1 = bsp::parseOverlays(bytes, 1);
    ASSERT_FALSE(v1);
    EXPECT_EQ(v1.error().code, core::ErrorCode::UnsupportedVersion);
    EXPECT_NE(v1.error().message().find("overlays"), std::string::npos);
    const auto cut = bsp::parseOverlays(std::span(bytes).first(351), 0);
    ASSERT_FALSE(cut);
    EXPECT_EQ(cut.error().code, core::ErrorCode::LumpSize);
    auto two = bytes;
    two.insert(two.end(), bytes.begin(), bytes.end());
    const uint16_t too_many = 65;
    std::memcpy(two.data() + bsp::kOverlayBytes + 6, &too_many, 2);
    const auto over = bsp::parseOverlays(two, 0);
    ASSERT_FALSE(over);
    EXPECT_EQ(over.error().index, 1);
    EXPECT_NE(over.error().message().find("65"), std::string::npos);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::memcpy(bytes.data() + 328, &nan, 4);
    EXPECT_FALSE(bsp::parseOverlays(bytes, 0));
    const auto empty = bsp::parseOverlays({}, 3);
    ASSERT_TRUE(empty);
    EXPECT_TRUE(empty->empty());
}

TEST(Overlays, FragmentIsTheFaceClippedToTheQuad) {
    bsp::Map map = floorMap();
    const auto o = bsp::parseOverlays(record(1, {0}, {64, 64, 0}), 0);
    ASSERT_TRUE(o);
    bsp::DroppedReferences dropped;
    const bsp::OverlayFaceStats stats = bsp::buildOverlayFaces(map, *o, dropped);
    EXPECT_EQ(stats.fragments, 1u);
    EXPECT_EQ(dropped.count(), 0u);
    ASSERT_EQ(map.faces.size(), 2u);
    const bsp::Face& f = map.faces[1];
    EXPECT_EQ(f.material, 1);      // the overlay's texinfo
    EXPECT_EQ(f.lightmap_page, 0); // the face's light
    float area = 0.0f;
    for (uint32_t k = 0; k < f.num_indices; k += 3) {
        const glm::vec3 a = map.vertices[map.indices[f.first_index + k]].position;
        const glm::vec3 b = map.vertices[map.indices[f.first_index + k + 1]].position;
        const glm::vec3 c = map.vertices[map.indices[f.first_index + k + 2]].position;
        area += 0.5f * std::abs(glm::cross(b - a, c - a).z);
    }
    EXPECT_NEAR(area, 32.0f * 32.0f, 1e-2f);
    const bsp::Vertex* low = vertexAt(map, f, 48, 48);
    const bsp::Vertex* high_v = vertexAt(map, f, 48, 80);
    const bsp::Vertex* high = vertexAt(map, f, 80, 80);
    ASSERT_TRUE(low && high_v && high);
    EXPECT_NEAR(low->position.z, bsp::kOverlayLift, 1e-6f);
    EXPECT_NEAR(low->uv.x, 0.0f, 1e-5f);
    EXPECT_NEAR(low->uv.y, 0.0f, 1e-5f);
    EXPECT_NEAR(high_v->uv.x, 0.0f, 1e-5f); // corner 1: (U0, V1)
    EXPECT_NEAR(high_v->uv.y, 1.0f, 1e-5f);
    EXPECT_NEAR(high->uv.x, 1.0f, 1e-5f);
    EXPECT_NEAR(high->lm_uv.x, 80.0f / 128.0f, 1e-5f);
    EXPECT_NEAR(high->lm_uv.y, 80.0f / 128.0f, 1e-5f);
    // The leaf that holds the floor holds its fragment.
    EXPECT_EQ(map.leaves[0].num_leaf_faces, 2u);
    EXPECT_EQ(map.leaf_faces, (std::vector<uint32_t>{0, 1}));
}

// Source's faces wind clockwise seen from the front: the lift follows the face's normal, not the
// triangles' winding.
TEST(Overlays, LiftFollowsTheFaceNormalNotTheWinding) {
    bsp::Map map = floorMap();
    map.indices = {0, 2, 1, 0, 3, 2};
    const auto o = bsp::parseOverlays(record(1, {0}, {64, 64, 0}), 0);
    ASSERT_TRUE(o);
    bsp::DroppedReferences dropped;
    bsp::buildOverlayFaces(map, *o, dropped);
    ASSERT_EQ(map.faces.size(), 2u);
    const bsp::Vertex* low = vertexAt(map, map.faces[1], 48, 48);
    ASSERT_TRUE(low);
    EXPECT_NEAR(low->position.z, bsp::kOverlayLift, 1e-6f);
    EXPECT_EQ(low->normal, glm::vec3(0, 0, 1));
}

TEST(Overlays, FlippedVSwapsTheVEdges) {
    bsp::Map map = floorMap();
    const auto o = bsp::parseOverlays(record(1, {0}, {64, 64, 0}, true), 0);
    ASSERT_TRUE(o);
    bsp::DroppedReferences dropped;
    bsp::buildOverlayFaces(map, *o, dropped);
    ASSERT_EQ(map.faces.size(), 2u);
    const bsp::Vertex* low = vertexAt(map, map.faces[1], 48, 48);
    ASSERT_TRUE(low);
    EXPECT_NEAR(low->uv.x, 0.0f, 1e-5f);
    EXPECT_NEAR(low->uv.y, 1.0f, 1e-5f);
}

TEST(Overlays, QuadPartlyOffTheFaceKeepsTheOverlap) {
    bsp::Map map = floorMap();
    const auto o = bsp::parseOverlays(record(1, {0}, {128, 64, 0}), 0); // half past x = 128
    ASSERT_TRUE(o);
    bsp::DroppedReferences dropped;
    bsp::buildOverlayFaces(map, *o, dropped);
    ASSERT_EQ(map.faces.size(), 2u);
    const bsp::Vertex* edge = vertexAt(map, map.faces[1], 128, 48);
    ASSERT_TRUE(edge);
    EXPECT_NEAR(edge->uv.x, 0.5f, 1e-5f); // halfway from U0 to U1
}

TEST(Overlays, BadReferencesDropTheOverlayOrTheFace) {
    bsp::Map map = floorMap();
    auto bytes = record(9, {0}, {64, 64, 0});        // texinfo 9 of 2
    const auto far = record(1, {0, 4}, {64, 64, 0}); // face 4 of 1
    bytes.insert(bytes.end(), far.begin(), far.end());
    const auto o = bsp::parseOverlays(bytes, 0);
    ASSERT_TRUE(o);
    bsp::DroppedReferences dropped;
    const auto stats = bsp::buildOverlayFaces(map, *o, dropped);
    EXPECT_EQ(stats.fragments, 1u); // the second overlay on face 0
    EXPECT_EQ(dropped.count(), 2u);
    dropped.flush(map);
    std::string all;
    for (const std::string& w : map.warnings)
        all += w + "\n";
    EXPECT_NE(all.find("overlays[0].nTexInfo"), std::string::npos) << all;
    EXPECT_NE(all.find("overlays[1].aFaces[1]"), std::string::npos) << all;
}

TEST(Overlays, EdgeOnFaceIsMissed) {
    bsp::Map map = floorMap();
    auto bytes = record(1, {0}, {64, 64, 0});
    const float normal[3] = {1, 0, 0}; // a wall's overlay listing the floor
    std::memcpy(bytes.data() + 340, normal, 12);
    const float u_in_z[3] = {0, 1, 0};
    for (int k = 0; k < 3; ++k)
        std::memcpy(bytes.data() + 280 + 12 * k + 8, &u_in_z[k], 4);
    const auto o = bsp::parseOverlays(bytes, 0);
    ASSERT_TRUE(o);
    bsp::DroppedReferences dropped;
    const auto stats = bsp::buildOverlayFaces(map, *o, dropped);
    EXPECT_EQ(stats.fragments, 0u);
    EXPECT_EQ(stats.missed, 1u);
    EXPECT_EQ(map.faces.size(), 1u);
}

TEST(Overlays, Tf2Test2HasItsTwoInfoOverlays) {
    const auto path = std::filesystem::path(BSPV_SHARED_MAPS_DIR) / "source" / "tf2_test2.bsp";
    const auto map = bsp::loadMapFile(path);
    ASSERT_TRUE(map) << map.error().message();
    EXPECT_EQ(map->overlay_count, 2u);
    EXPECT_GE(map->overlay_faces.fragments, 2u);
}

} // namespace
