// Quake 3 patch collision (physics/patch_collide.h) in the collision room: a curved ramp and a
// wall made of patches. Expected positions are worked out by hand from the facets cm_patch.c
// builds: the ramp z = 64 t^2 over x = 100 + 128 t is subdivided once (its midpoint is 16 from
// the chord, SUBDIVIDE_DISTANCE), each half's midpoint is then 4 from its chord, so the
// collision surface is the two chords (100, 0)-(164, 16) and (164, 16)-(228, 64): slopes 1/4 and
// 3/4, 4 units above the curve at x = 132 and x = 196. A box stops SURFACE_CLIP_EPSILON (1/8)
// short of the facet plane pushed out by the box.
#include "physics/collision.h"
#include "physics/patch_collide.h"

#include "support/collision_room.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace {

using glm::vec3;
using physics::CollisionWorld;
using physics::TraceResult;

constexpr float kTol = 1e-3f;
const vec3 kQ3Mins{-15, -15, -24}, kQ3Maxs{15, 15, 32};

// controls[row][column]: a 3x3 patch face on material `material`, listed in the world leaf.
void addPatch(bsp::Map& m, const std::vector<std::vector<vec3>>& rows, int32_t material) {
    bsp::Face f;
    f.kind = bsp::FaceKind::Patch;
    f.material = material;
    f.first_vertex = uint32_t(m.vertices.size());
    f.patch_height = uint16_t(rows.size());
    f.patch_width = uint16_t(rows[0].size());
    for (const auto& row : rows)
        for (const vec3& p : row) {
            bsp::Vertex v;
            v.position = p;
            m.vertices.push_back(v);
        }
    f.num_vertices = uint32_t(m.vertices.size()) - f.first_vertex;
    m.leaf_faces.push_back(uint32_t(m.faces.size()));
    m.faces.push_back(f);
    m.leaves[0].num_leaf_faces = uint32_t(m.leaf_faces.size());
}

// Columns run along x (ramp) or y (wall), rows along y or z: both face their front as the
// engine's CM_PlaneFromPoints orders them (the ramp up, the wall towards +x).
std::vector<std::vector<vec3>> rampRows() {
    std::vector<std::vector<vec3>> rows;
    for (float y : {32.0f, 96.0f, 160.0f})
        rows.push_back({{100, y, 0}, {164, y, 0}, {228, y, 64}});
    return rows;
}
std::vector<std::vector<vec3>> wallRows(float x) {
    std::vector<std::vector<vec3>> rows;
    for (float z : {0.0f, 64.0f, 128.0f})
        rows.push_back({{x, 32, z}, {x, 96, z}, {x, 160, z}});
    return rows;
}

// The room with the ramp (material 0, solid), a wall at x = 400 (material 0) and one at
// x = 350 whose material is not solid (material 1: a nonsolid shader).
bsp::Map patchRoom() {
    bsp::Map m = collisiontest::brushRoomMap();
    m.materials.resize(2);
    m.materials[0].game_contents = 1;    // CONTENTS_SOLID
    m.materials[1].game_contents = 0x20; // CONTENTS_FOG
    m.collision.material_contents = {bsp::kCollideSolid, bsp::kCollideTrigger};
    addPatch(m, rampRows(), 0);
    addPatch(m, wallRows(400), 0);
    addPatch(m, wallRows(350), 1);
    return m;
}

} // namespace

TEST(PatchCollide, TheRampIsSubdividedToTheEnginesFlatness) {
    std::vector<vec3> controls;
    for (const auto& row : rampRows())
        controls.insert(controls.end(), row.begin(), row.end());
    const physics::PatchCollide pc = physics::buildPatchCollide(controls, 3, 3);
    // Along y the rows are straight: 2 points; along x the chords above: 3.
    EXPECT_EQ(pc.grid_width, 2);
    EXPECT_EQ(pc.grid_height, 3);
    ASSERT_EQ(pc.facets.size(), 2u); // each grid square is flat: one quad facet
    const bsp::Plane& s = pc.planes[pc.facets[0].first_plane];
    EXPECT_NEAR(s.normal.x, -1.0f / std::sqrt(17.0f), 1e-6f);
    EXPECT_NEAR(s.normal.z, 4.0f / std::sqrt(17.0f), 1e-6f);
    EXPECT_EQ(pc.mins, vec3(99, 31, -1));
    EXPECT_EQ(pc.maxs, vec3(229, 161, 65));
    // Invalid sizes, too few points and non-finite points give nothing.
    EXPECT_TRUE(physics::buildPatchCollide(controls, 2, 3).facets.empty());
    EXPECT_TRUE(physics::buildPatchCollide({controls.data(), 8}, 3, 3).facets.empty());
    controls[4].y = NAN;
    EXPECT_TRUE(physics::buildPatchCollide(controls, 3, 3).facets.empty());
}

TEST(PatchCollision, ABoxFallingOnTheRampLandsOnItsFacets) {
    const bsp::Map map = patchRoom();
    const CollisionWorld world(map);
    const vec3 mins(-4, -4, -8), maxs(4, 4, 8);
    // Gentle half at x = 132: the uphill bottom corner (136, 9) touches z = (x - 100) / 4, so
    // the centre is at 17, plus 1/8 along the normal (-1, 0, 4) / sqrt(17): 1/8 * sqrt(17) / 4.
    const TraceResult a = world.trace(vec3(132, 96, 200), vec3(132, 96, -50), mins, maxs);
    EXPECT_NEAR(a.end_pos.z, 17.0f + 0.125f * std::sqrt(17.0f) / 4.0f, kTol);
    EXPECT_NEAR(a.plane.normal.x, -1.0f / std::sqrt(17.0f), 1e-5f);
    EXPECT_EQ(a.contents, bsp::kCollideSolid);
    EXPECT_EQ(a.material, 0);
    EXPECT_FALSE(a.start_solid);
    // Steep half at x = 196: corner (200, 16 + 3/4 * 36 = 43), centre 51, normal (-3, 0, 4) / 5:
    // 1/8 * 5/4 above. The curve itself is at 39.0625 under that corner: 3.94 below the facet.
    const TraceResult b = world.trace(vec3(196, 96, 200), vec3(196, 96, -50), mins, maxs);
    EXPECT_NEAR(b.end_pos.z, 51.15625f, kTol);
    EXPECT_NEAR(b.plane.normal.z, 0.8f, 1e-5f);
    // The player box at the ramp's foot: corner (115, 3.75), centre 27.75 + 1/8 * sqrt(17) / 4.
    const TraceResult c = world.trace(vec3(100, 96, 200), vec3(100, 96, -50), kQ3Mins, kQ3Maxs);
    EXPECT_NEAR(c.end_pos.z, 27.75f + 0.125f * std::sqrt(17.0f) / 4.0f, kTol);
    // A point falls onto the surface plane itself, 1/8 above it along the normal.
    const TraceResult p = world.trace(vec3(132, 96, 200), vec3(132, 96, -50), vec3(0), vec3(0));
    EXPECT_NEAR(p.end_pos.z, 8.0f + 0.125f * std::sqrt(17.0f) / 4.0f, kTol);
    // Beside the ramp (y = 200) the box falls to the floor brush: 8 + 1/8.
    const TraceResult d = world.trace(vec3(132, 200, 200), vec3(132, 200, -50), mins, maxs);
    EXPECT_NEAR(d.end_pos.z, 8.125f, kTol);
}

TEST(PatchCollision, APatchWallStopsBoxesFromItsFrontOnly) {
    const bsp::Map map = patchRoom();
    const CollisionWorld world(map);
    // From the front (+x): 400 + 15 + 1/8.
    const TraceResult t = world.trace(vec3(480, 96, 64), vec3(300, 96, 64), kQ3Mins, kQ3Maxs);
    EXPECT_NEAR(t.end_pos.x, 415.125f, kTol);
    EXPECT_EQ(t.plane.normal, vec3(1, 0, 0));
    EXPECT_FLOAT_EQ(t.plane.dist, 400.0f);
    EXPECT_EQ(t.contents, bsp::kCollideSolid);
    const TraceResult p = world.trace(vec3(480, 96, 64), vec3(300, 96, 64), vec3(0), vec3(0));
    EXPECT_NEAR(p.end_pos.x, 400.125f, kTol);
    // From behind it passes (cm_patch.c never clips against the back side) and meets the x+
    // wall brush at 512 - 15 - 1/8.
    const TraceResult back = world.trace(vec3(380, 96, 64), vec3(600, 96, 64), kQ3Mins, kQ3Maxs);
    EXPECT_NEAR(back.end_pos.x, 496.875f, kTol);
    // Past its edge (y = 200: the wall spans y 32..160, the box reaches 185) nothing stops it
    // before the middle wall brush at x = 272 + 15 + 1/8.
    const TraceResult past = world.trace(vec3(480, 200, 64), vec3(280, 200, 64), kQ3Mins, kQ3Maxs);
    EXPECT_NEAR(past.end_pos.x, 287.125f, kTol);
}

TEST(PatchCollision, APatchWhoseContentsAreNotMaskedLetsTracesThrough) {
    const bsp::Map map = patchRoom();
    const CollisionWorld world(map);
    // The x = 350 wall's material is not solid and the x = 400 wall is met from behind:
    // player traces pass both and stop at the x+ wall brush.
    const TraceResult t = world.trace(vec3(300, 96, 64), vec3(600, 96, 64), kQ3Mins, kQ3Maxs);
    EXPECT_NEAR(t.end_pos.x, 496.875f, kTol);
    // A trace masked for its contents stops at it from the front: 350 + 15 + 1/8.
    const TraceResult m =
        world.trace(vec3(390, 96, 64), vec3(300, 96, 64), kQ3Mins, kQ3Maxs, bsp::kCollideTrigger);
    EXPECT_NEAR(m.end_pos.x, 365.125f, kTol);
    EXPECT_EQ(m.contents, bsp::kCollideTrigger);
    // Without material contents (other games), patches never collide.
    bsp::Map other = patchRoom();
    other.collision.material_contents.clear();
    const CollisionWorld ow(other);
    EXPECT_NEAR(ow.trace(vec3(480, 96, 64), vec3(300, 96, 64), kQ3Mins, kQ3Maxs).end_pos.x, 300.0f,
                kTol);
}
