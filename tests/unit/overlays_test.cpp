// Source overlays (bsp/overlays.h): a hand-made doverlay_t read to exact values (the face count
// beside the render order, BasisU out of the UV points' z, the V flip), errors naming the lump
// and the record, and a fragment clipped from a 128-unit floor with hand-computed positions,
// texture and lightmap coordinates and leaf links; tf2_test2's two info_overlays.
#include "bsp/dropped.h"
#include "bsp/load.h"
#include "bsp/map.h"
#include "bsp/overlays.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include <glm/geometric.hpp>

namespace {

// One 352-byte record: id 7, `texinfo`, `faces` (render order `order` in the top bits), U (0,1),
// V (0,1), a 32-unit square around `origin` facing +z with BasisU +x; `flip` sets UV point 3's z.
std::vector<uint8_t> record(int16_t texinfo, std::vector<int32_t> faces, glm::vec3 origin,
                            bool flip = false, uint16_t order = 2) {
    std::vector<uint8_t> b(bsp::kOverlayBytes, 0);
    auto put = [&](size_t at, const void* p, size_t n) { std::memcpy(b.data() + at, p, n); };
    const int32_t id = 7;
    put(0, &id, 4);
    put(4, &texinfo, 2);
    const uint16_t packed = uint16_t(faces.size() | (order << 14));
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
    EXPECT_NEAR(low->position.z, 3 * bsp::kOverlayLift, 1e-6f); // render order 2
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

// vbsp lists a brush entity's faces in aFaces as it lists the world's (EmitFace calls
// Overlay_AddFaceToLists for every model), one overlay may list both: face 0 is the world's
// 128-unit floor, face 1 a door's 64-unit floor stored in the door's own coordinates (x, y in
// [0, 64], lightmap coordinates position / 64). The quad (32..64 on both axes, render order 0)
// gives each its fragment, cut in the face's own coordinates; the door's keeps submodel 1 (drawn
// with the door's placement) and stays out of the world's leaf.
TEST(Overlays, FragmentOnABrushModelFaceKeepsItsSubmodel) {
    bsp::Map map = floorMap();
    for (glm::vec2 p : {glm::vec2(0, 0), glm::vec2(64, 0), glm::vec2(64, 64), glm::vec2(0, 64)}) {
        bsp::Vertex v;
        v.position = {p.x, p.y, 0.0f};
        v.lm_uv = p / 64.0f;
        map.vertices.push_back(v);
    }
    map.indices.insert(map.indices.end(), {4, 5, 6, 4, 6, 7});
    bsp::Face door;
    door.material = 0;
    door.lightmap_page = 0;
    door.first_vertex = 4;
    door.num_vertices = 4;
    door.first_index = 6;
    door.num_indices = 6;
    door.submodel = 1;
    map.faces.push_back(door);
    map.submodels.resize(2);
    map.submodels[1].first_face = 1;
    map.submodels[1].num_faces = 1;
    map.submodels[1].origin = {200, 0, 0};
    const auto o = bsp::parseOverlays(record(1, {0, 1}, {48, 48, 0}, false, 0), 0);
    ASSERT_TRUE(o);
    bsp::DroppedReferences dropped;
    const bsp::OverlayFaceStats stats = bsp::buildOverlayFaces(map, *o, dropped);
    EXPECT_EQ(stats.fragments, 2u);
    EXPECT_EQ(stats.not_polygons, 0u);
    EXPECT_EQ(stats.missed, 0u);
    EXPECT_EQ(dropped.count(), 0u);
    ASSERT_EQ(map.faces.size(), 4u);
    EXPECT_EQ(map.faces[2].submodel, 0); // the world floor's
    const bsp::Face& f = map.faces[3];
    EXPECT_EQ(f.submodel, 1);
    EXPECT_EQ(f.material, 1);
    EXPECT_EQ(f.lightmap_page, 0);
    // Every vertex is a corner of [32, 64]^2 in the door's coordinates (not moved by its origin),
    // lifted 0.1 along +z, with the quad's texture coordinates and the door's lightmap ones.
    const std::array<glm::vec2, 4> corners = {glm::vec2(32, 32), glm::vec2(64, 32),
                                              glm::vec2(64, 64), glm::vec2(32, 64)};
    std::array<bool, 4> seen{};
    ASSERT_GE(f.num_vertices, 4u);
    for (uint32_t k = 0; k < f.num_vertices; ++k) {
        const bsp::Vertex& v = map.vertices[f.first_vertex + k];
        bool corner = false;
        for (size_t c = 0; c < 4; ++c)
            if (std::abs(v.position.x - corners[c].x) < 1e-4f &&
                std::abs(v.position.y - corners[c].y) < 1e-4f)
                seen[c] = corner = true;
        EXPECT_TRUE(corner) << v.position.x << ", " << v.position.y;
        EXPECT_NEAR(v.position.z, 0.1f, 1e-6f);
        EXPECT_NEAR(v.uv.x, (v.position.x - 32.0f) / 32.0f, 1e-5f);
        EXPECT_NEAR(v.uv.y, (v.position.y - 32.0f) / 32.0f, 1e-5f);
        EXPECT_NEAR(v.lm_uv.x, v.position.x / 64.0f, 1e-5f);
        EXPECT_NEAR(v.lm_uv.y, v.position.y / 64.0f, 1e-5f);
    }
    EXPECT_EQ(seen, (std::array<bool, 4>{true, true, true, true}));
    float area = 0.0f;
    for (uint32_t k = 0; k < f.num_indices; k += 3) {
        const glm::vec3 a = map.vertices[map.indices[f.first_index + k]].position;
        const glm::vec3 b = map.vertices[map.indices[f.first_index + k + 1]].position;
        const glm::vec3 c = map.vertices[map.indices[f.first_index + k + 2]].position;
        area += 0.5f * std::abs(glm::cross(b - a, c - a).z);
    }
    EXPECT_NEAR(area, 32.0f * 32.0f, 1e-2f);
    // The world's leaf gains the world fragment only: the door's face is in no leaf.
    EXPECT_EQ(map.leaf_faces, (std::vector<uint32_t>{0, 2}));
    // The door's range is its own faces: the fragment lies after them (drawn by its submodel).
    EXPECT_EQ(map.submodels[1].first_face, 1u);
    EXPECT_EQ(map.submodels[1].num_faces, 1u);
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
    EXPECT_NEAR(low->position.z, bsp::overlayLift(2), 1e-6f);
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

// OVERLAY_RENDER_ORDER_*: an overlay of a later order stands higher over the face and its
// fragment follows those of earlier orders, whatever the lump's order; one order keeps the lump's.
TEST(Overlays, LaterRenderOrderStandsHigherAndFollows) {
    bsp::Map map = floorMap();
    map.materials.resize(4);
    std::vector<uint8_t> bytes;
    for (const auto& [texinfo, order] :
         {std::pair<int16_t, uint16_t>{3, 3}, {1, 0}, {2, 0}, {0, 1}}) {
        const auto r = record(texinfo, {0}, {64, 64, 0}, false, order);
        bytes.insert(bytes.end(), r.begin(), r.end());
    }
    const auto o = bsp::parseOverlays(bytes, 0);
    ASSERT_TRUE(o);
    bsp::DroppedReferences dropped;
    ASSERT_EQ(bsp::buildOverlayFaces(map, *o, dropped).fragments, 4u);
    ASSERT_EQ(map.faces.size(), 5u);
    const int32_t materials[4] = {1, 2, 0, 3};
    const float heights[4] = {0.1f, 0.1f, 0.2f, 0.4f};
    for (size_t k = 0; k < 4; ++k) {
        EXPECT_EQ(map.faces[1 + k].material, materials[k]) << k;
        const bsp::Vertex* v = vertexAt(map, map.faces[1 + k], 48, 48);
        ASSERT_TRUE(v) << k;
        EXPECT_NEAR(v->position.z, heights[k], 1e-6f) << k;
    }
    // The leaf lists each fragment after its face, in the same order.
    EXPECT_EQ(map.leaf_faces, (std::vector<uint32_t>{0, 1, 2, 3, 4}));
}

// LUMP_OVERLAY_FADES: one doverlayfade_t (squared min and max distance) per overlay; the max
// becomes the fragment's max_distance_sq, 0 (no fade) stays 0. Bad lumps name overlay_fades.
TEST(Overlays, FadesReachTheFragmentsAndBadLumpsAreNamed) {
    auto bytes = record(1, {0}, {64, 64, 0});
    const auto second = record(1, {0}, {32, 32, 0});
    bytes.insert(bytes.end(), second.begin(), second.end());
    auto o = bsp::parseOverlays(bytes, 0);
    ASSERT_TRUE(o);
    std::vector<float> fades = {100.0f * 100.0f, 200.0f * 200.0f, 0.0f, 0.0f};
    const auto asBytes = [](const std::vector<float>& f) {
        std::vector<uint8_t> b(f.size() * 4);
        std::memcpy(b.data(), f.data(), b.size());
        return b;
    };
    ASSERT_TRUE(bsp::readOverlayFades(asBytes(fades), *o));
    EXPECT_EQ((*o)[0].fade_min_sq, 10000.0f);
    EXPECT_EQ((*o)[0].fade_max_sq, 40000.0f);
    EXPECT_EQ((*o)[1].fade_max_sq, 0.0f);
    bsp::Map map = floorMap();
    bsp::DroppedReferences dropped;
    ASSERT_EQ(bsp::buildOverlayFaces(map, *o, dropped).fragments, 2u);
    EXPECT_EQ(map.faces[1].max_distance_sq, 40000.0f);
    EXPECT_EQ(map.faces[2].max_distance_sq, 0.0f);
    EXPECT_EQ(map.faces[0].max_distance_sq, 0.0f); // the floor itself

    auto cut = asBytes(fades);
    cut.pop_back();
    const auto size = bsp::readOverlayFades(cut, *o);
    ASSERT_FALSE(size);
    EXPECT_EQ(size.error().code, core::ErrorCode::LumpSize);
    EXPECT_NE(size.error().message().find("overlay_fades"), std::string::npos);
    const std::vector<uint8_t> all = asBytes(fades);
    const auto one = bsp::readOverlayFades(std::span(all).first(8), *o);
    ASSERT_FALSE(one);
    EXPECT_NE(one.error().message().find("1 records for 2 overlays"), std::string::npos)
        << one.error().message();
    fades[3] = std::numeric_limits<float>::infinity();
    const auto inf = bsp::readOverlayFades(asBytes(fades), *o);
    ASSERT_FALSE(inf);
    EXPECT_EQ(inf.error().index, 1);
    EXPECT_NE(inf.error().message().find("flFadeDistMaxSq"), std::string::npos)
        << inf.error().message();
    EXPECT_EQ((*o)[1].fade_max_sq, 0.0f); // left as it was
    EXPECT_TRUE(bsp::readOverlayFades({}, *o));
}

// A displacement (FaceKind::Mesh) is clipped triangle by triangle: on its flat half the fragment
// lies 0.1 above z 0; on its slope z = (x - 64) / 2 the point above (80, 16) is on the slope at
// z 8 and lifted 0.1 along the slope's normal (-1, 0, 2) / sqrt(5).
TEST(Overlays, DisplacementFragmentFollowsEachTriangle) {
    bsp::Map map;
    map.materials.resize(2);
    for (glm::vec3 p : {glm::vec3(0, 0, 0), glm::vec3(64, 0, 0), glm::vec3(64, 64, 0),
                        glm::vec3(0, 64, 0), glm::vec3(128, 0, 32), glm::vec3(128, 64, 32)}) {
        bsp::Vertex v;
        v.position = p;
        v.lm_uv = glm::vec2(p.x, p.y) / 128.0f;
        map.vertices.push_back(v);
    }
    map.indices = {0, 1, 2, 0, 2, 3, 1, 4, 5, 1, 5, 2};
    bsp::Face face;
    face.kind = bsp::FaceKind::Mesh;
    face.material = 0;
    face.num_vertices = 6;
    face.num_indices = 12;
    map.faces.push_back(face);
    map.leaves.resize(1);
    map.leaves[0].num_leaf_faces = 1;
    map.leaf_faces = {0};
    const auto o = bsp::parseOverlays(record(1, {0}, {64, 32, 0}, false, 0), 0);
    ASSERT_TRUE(o);
    bsp::DroppedReferences dropped;
    const bsp::OverlayFaceStats stats = bsp::buildOverlayFaces(map, *o, dropped);
    EXPECT_EQ(stats.fragments, 1u);
    EXPECT_EQ(stats.on_displacements, 1u);
    EXPECT_EQ(stats.not_polygons, 0u);
    ASSERT_EQ(map.faces.size(), 2u);
    const bsp::Face& f = map.faces[1];
    EXPECT_EQ(f.kind, bsp::FaceKind::Polygon);
    const bsp::Vertex* flat = vertexAt(map, f, 48, 16);
    ASSERT_TRUE(flat);
    EXPECT_NEAR(flat->position.z, 0.1f, 1e-5f);
    const glm::vec3 n = glm::normalize(glm::vec3(-1, 0, 2));
    const glm::vec3 want = glm::vec3(80, 16, 8) + 0.1f * n;
    const bsp::Vertex* slope = vertexAt(map, f, want.x, want.y);
    ASSERT_TRUE(slope);
    EXPECT_NEAR(slope->position.z, want.z, 1e-4f);
    EXPECT_NEAR(slope->normal.x, n.x, 1e-5f);
    EXPECT_NEAR(slope->lm_uv.x, 80.0f / 128.0f, 1e-5f); // the point on the slope's light
    EXPECT_NEAR(slope->uv.x, 1.0f, 1e-5f);              // the quad's U1 edge
}

TEST(Overlays, Tf2Test2HasItsTwoInfoOverlays) {
    const auto path = std::filesystem::path(BSPV_SHARED_MAPS_DIR) / "source" / "tf2_test2.bsp";
    const auto map = bsp::loadMapFile(path);
    ASSERT_TRUE(map) << map.error().message();
    EXPECT_EQ(map->overlay_count, 2u);
    EXPECT_GE(map->overlay_faces.fragments, 2u);
}

} // namespace
