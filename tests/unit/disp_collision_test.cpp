// Source displacement collision (physics/disp_collide.h) in the collision room: a power-2
// displacement (5 x 5 points, 32 units apart, x 0..128, y 64..192) either flat at z = 64 or
// sloped z = x / 2, with Source's standing box (-16 -16 0)..(16 16 72) and DISPCOLL_DIST_EPSILON
// (1/32). The box is swept about its centre, half extents (16, 16, 36). Expected positions are
// worked out by hand: a box stops where the triangle plane pushed out by the box's reach along
// its normal is 1/32 away.
#include "physics/collision.h"
#include "physics/disp_collide.h"

#include "support/collision_room.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

namespace {

using glm::vec3;
using physics::CollisionWorld;
using physics::TraceResult;

constexpr float kTol = 1e-3f;
constexpr float kEps = 0.03125f;
const vec3 kMins{-16, -16, 0}, kMaxs{16, 16, 72};

// The room as a Source brush map with one displacement of height z = h(x) in the world leaf,
// triangulated as the parser does (bsp/vbsp.cpp: the diagonal alternating from cell to cell).
bsp::Map dispRoom(const std::function<float(float)>& h, uint32_t flags = 0,
                  uint32_t contents = bsp::kCollideSolid) {
    bsp::Map m = collisiontest::brushRoomMap();
    m.collision.clip_epsilon = kEps;
    m.collision.hulls = {{}, {kMins, kMaxs}};
    m.materials.resize(1);
    constexpr uint32_t side = 5;
    bsp::Face f;
    f.kind = bsp::FaceKind::Mesh;
    f.material = 0;
    f.normal = vec3(0, 0, 1);
    f.first_vertex = uint32_t(m.vertices.size());
    for (uint32_t i = 0; i < side; ++i)
        for (uint32_t j = 0; j < side; ++j) {
            bsp::Vertex v;
            const float x = 32.0f * float(i);
            v.position = vec3(x, 64.0f + 32.0f * float(j), h(x));
            m.vertices.push_back(v);
        }
    f.num_vertices = side * side;
    f.first_index = uint32_t(m.indices.size());
    for (uint32_t i = 0; i + 1 < side; ++i)
        for (uint32_t j = 0; j + 1 < side; ++j) {
            const uint32_t v00 = f.first_vertex + i * side + j, v01 = v00 + 1;
            const uint32_t v10 = v00 + side, v11 = v10 + 1;
            if ((i + j) & 1)
                m.indices.insert(m.indices.end(), {v00, v10, v01, v10, v11, v01});
            else
                m.indices.insert(m.indices.end(), {v00, v10, v11, v00, v11, v01});
        }
    f.num_indices = uint32_t(m.indices.size()) - f.first_index;
    m.collision.displacements.push_back({uint32_t(m.faces.size()), contents, 1u, flags});
    m.leaf_faces.push_back(uint32_t(m.faces.size()));
    m.faces.push_back(f);
    m.leaves[0].num_leaf_faces = uint32_t(m.leaf_faces.size());
    return m;
}

float flat(float) {
    return 64.0f;
}
float slope(float x) {
    return x / 2.0f;
}

} // namespace

TEST(DispCollide, TrianglesFaceTheBaseFaceAndCarryTheirEdgePlanes) {
    const bsp::Map m = dispRoom(slope);
    std::vector<vec3> positions;
    for (const bsp::Vertex& v : m.vertices)
        positions.push_back(v.position);
    std::vector<uint32_t> indices(m.indices.begin(), m.indices.end());
    const physics::DispCollide dc = physics::buildDispCollide(positions, indices, vec3(0, 0, 1));
    ASSERT_EQ(dc.triangles.size(), 32u); // 2 x 4 x 4
    EXPECT_EQ(dc.mins, vec3(0, 64, 0));
    EXPECT_EQ(dc.maxs, vec3(128, 192, 64));
    for (const physics::DispTriangle& t : dc.triangles) {
        // Up the slope's normal (-1, 0, 2) / sqrt(5), through the origin.
        EXPECT_NEAR(t.plane.normal.x, -1.0f / std::sqrt(5.0f), 1e-6f);
        EXPECT_NEAR(t.plane.normal.z, 2.0f / std::sqrt(5.0f), 1e-6f);
        EXPECT_NEAR(t.plane.dist, 0.0f, 1e-4f);
        // Edges: one along y (axial with every axis: no plane), one along x and z (against y:
        // the slope's plane), the diagonal (against x, y and z).
        EXPECT_EQ(t.num_edge_planes, 4u);
    }
    // Turned the other way when the front is below.
    const physics::DispCollide down = physics::buildDispCollide(positions, indices, vec3(0, 0, -1));
    EXPECT_NEAR(down.triangles[0].plane.normal.z, -2.0f / std::sqrt(5.0f), 1e-6f);
    // Indices past the positions give nothing.
    indices[5] = 1000;
    EXPECT_TRUE(physics::buildDispCollide(positions, indices, vec3(0, 0, 1)).triangles.empty());
}

TEST(DispCollision, ABoxDroppedOnAFlatDisplacementStandsOnIt) {
    const bsp::Map map = dispRoom(flat);
    const CollisionWorld world(map);
    // The surface z = 64 pushed up by the box's 36 below its centre: the centre stops at
    // 100 + 1/32, the origin (the box's bottom) at 64 + 1/32.
    const TraceResult t = world.trace(vec3(64, 128, 150), vec3(64, 128, -50), kMins, kMaxs);
    EXPECT_NEAR(t.end_pos.z, 64.0f + kEps, kTol);
    EXPECT_NEAR(t.fraction, (150.0f - 64.0f - kEps) / 200.0f, 1e-5f);
    EXPECT_EQ(t.plane.normal, vec3(0, 0, 1));
    EXPECT_FLOAT_EQ(t.plane.dist, 64.0f);
    EXPECT_EQ(t.contents, bsp::kCollideSolid);
    EXPECT_EQ(t.game_contents, 1u);
    EXPECT_EQ(t.material, 0);
    EXPECT_FALSE(t.start_solid);
    // Half off its edge (x = 128) the box still stands on it; past the edge it falls to the
    // room's floor brush (z = 0).
    EXPECT_NEAR(world.trace(vec3(140, 128, 150), vec3(140, 128, -50), kMins, kMaxs).end_pos.z,
                64.0f + kEps, kTol);
    EXPECT_NEAR(world.trace(vec3(150, 128, 150), vec3(150, 128, -50), kMins, kMaxs).end_pos.z, kEps,
                kTol);
    // A point falls onto the surface too.
    EXPECT_NEAR(world.trace(vec3(64, 128, 150), vec3(64, 128, -50), vec3(0), vec3(0)).end_pos.z,
                64.0f + kEps, kTol);
}

TEST(DispCollision, ABoxDroppedOnASlopeRestsOnItsUphillEdge) {
    const bsp::Map map = dispRoom(slope);
    const CollisionWorld world(map);
    // Normal n = (-1, 0, 2) / sqrt(5), plane through the origin; the box reaches
    // (16 x 1 + 36 x 2) / sqrt(5) = 88 / sqrt(5) along -n. The centre c stops where
    // (-c.x + 2 c.z - 88) / sqrt(5) = 1/32: at x = 64, c.z = 76 + sqrt(5) / 64, so the origin
    // is at 40 + sqrt(5) / 64 (the box's uphill bottom edge, x = 80, on z = 40).
    const TraceResult t = world.trace(vec3(64, 128, 150), vec3(64, 128, -50), kMins, kMaxs);
    EXPECT_NEAR(t.end_pos.z, 40.0f + std::sqrt(5.0f) / 64.0f, kTol);
    EXPECT_NEAR(t.plane.normal.x, -1.0f / std::sqrt(5.0f), 1e-5f);
    EXPECT_NEAR(t.plane.normal.z, 2.0f / std::sqrt(5.0f), 1e-5f);
    EXPECT_NEAR(t.plane.dist, 0.0f, 1e-3f);
}

TEST(DispCollision, ABoxSweptAcrossTheSlopeStopsWhereItsCornerMeetsIt) {
    const bsp::Map map = dispRoom(slope);
    const CollisionWorld world(map);
    // Bottom at z = 20, moving +x from x = 16: the box's bottom edge x + 16 meets z = x / 2 at
    // x + 16 = 40, less 1/32 along n: (-c.x + 2 x 56 - 88) / sqrt(5) = 1/32 gives
    // c.x = 24 - sqrt(5) / 32.
    const TraceResult t = world.trace(vec3(16, 128, 20), vec3(116, 128, 20), kMins, kMaxs);
    const float stop = 24.0f - std::sqrt(5.0f) / 32.0f;
    EXPECT_NEAR(t.end_pos.x, stop, kTol);
    EXPECT_NEAR(t.fraction, (stop - 16.0f) / 100.0f, 1e-5f);
    EXPECT_FLOAT_EQ(t.end_pos.z, 20.0f);
    EXPECT_NEAR(t.plane.normal.x, -1.0f / std::sqrt(5.0f), 1e-5f);
    // Moving down the slope (-x) from above it, the box meets nothing before the room's wall
    // (x = 0, the box's side 16 from it, stopped 1/32 short).
    const TraceResult back = world.trace(vec3(100, 128, 60), vec3(-40, 128, 60), kMins, kMaxs);
    EXPECT_NEAR(back.end_pos.x, 16.0f + kEps, kTol);
    EXPECT_EQ(back.plane.normal, vec3(1, 0, 0));
}

TEST(DispCollision, DisplacementsAreOneSidedAndNeverStartSolid) {
    const bsp::Map map = dispRoom(flat);
    const CollisionWorld world(map);
    const vec3 mins(-4, -4, -4), maxs(4, 4, 4);
    // Up through the surface from below: moving away from its normal, never met.
    const TraceResult up = world.trace(vec3(64, 128, 20), vec3(64, 128, 120), mins, maxs);
    EXPECT_FLOAT_EQ(up.fraction, 1.0f);
    // A box straddling the surface is not inside anything.
    const TraceResult at = world.trace(vec3(40, 128, 64), vec3(40, 128, 64), mins, maxs);
    EXPECT_FALSE(at.start_solid);
    EXPECT_FLOAT_EQ(at.fraction, 1.0f);
    // From above it is met: 64 + 4 + 1/32.
    EXPECT_NEAR(world.trace(vec3(64, 128, 120), vec3(64, 128, 20), mins, maxs).end_pos.z,
                68.0f + kEps, kTol);
}

TEST(DispCollision, FlagsAndContentsChooseWhatPasses) {
    const vec3 from(64, 128, 150), to(64, 128, -50);
    const float on_disp = 64.0f + kEps, on_floor = kEps;
    auto land = [&](const bsp::Map& map, const vec3& mins, const vec3& maxs,
                    uint32_t mask = bsp::kMaskPlayerSolid) {
        const CollisionWorld world(map);
        return world.trace(from, to, mins, maxs, mask).end_pos.z;
    };
    // No hull collision: boxes (players) fall through to the floor; rays still stop.
    const bsp::Map no_hull = dispRoom(flat, bsp::kDispNoHullColl);
    EXPECT_NEAR(land(no_hull, kMins, kMaxs), on_floor, kTol);
    EXPECT_NEAR(land(no_hull, vec3(0), vec3(0)), on_disp, kTol);
    // No physics collision affects physics objects only: the player stands on it.
    const bsp::Map no_physics = dispRoom(flat, bsp::kDispNoPhysicsColl);
    EXPECT_NEAR(land(no_physics, kMins, kMaxs), on_disp, kTol);
    // No ray collision: rays pass, boxes stop.
    const bsp::Map no_ray = dispRoom(flat, bsp::kDispNoRayColl);
    EXPECT_NEAR(land(no_ray, vec3(0), vec3(0)), on_floor, kTol);
    EXPECT_NEAR(land(no_ray, kMins, kMaxs), on_disp, kTol);
    // Contents outside the mask pass (player clip against a solid-only mask).
    const bsp::Map clip = dispRoom(flat, 0, bsp::kCollidePlayerClip);
    EXPECT_NEAR(land(clip, kMins, kMaxs), on_disp, kTol);
    EXPECT_NEAR(land(clip, kMins, kMaxs, bsp::kCollideSolid), on_floor, kTol);
}
