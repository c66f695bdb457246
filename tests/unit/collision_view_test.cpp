// scene/collision_view: clip hulls and brushes turned into polygons, on the collision room
// (tests/support/collision_room.h) whose numbers are known by hand.
#include "bsp/load.h"
#include "scene/debug/collision_view.h"
#include "support/collision_room.h"

#include <gtest/gtest.h>

#include <cmath>

#include <glm/geometric.hpp>

namespace {

double polygonArea(const scene::CollisionPolygon& p) {
    glm::dvec3 sum(0.0);
    for (size_t i = 1; i + 1 < p.points.size(); ++i)
        sum += glm::cross(glm::dvec3(p.points[i] - p.points[0]),
                          glm::dvec3(p.points[i + 1] - p.points[0]));
    return 0.5 * glm::length(sum);
}

// Total area of the polygons facing `normal` on the plane dot(normal, p) = dist.
double areaOn(const scene::CollisionSolids& s, glm::vec3 normal, float dist) {
    double total = 0.0;
    for (const scene::CollisionPolygon& p : s.polygons)
        if (glm::dot(p.normal, normal) > 0.999f &&
            std::fabs(glm::dot(p.points[0], normal) - dist) < 0.01f)
            total += polygonArea(p);
    return total;
}

bsp::Map loadRoom() {
    auto b = collisiontest::roomQ1();
    auto r = bsp::loadMap(b.build(), "room.bsp");
    EXPECT_TRUE(r.ok()) << r.error().message();
    return r.ok() ? std::move(*r) : bsp::Map{};
}

} // namespace

TEST(CollisionView, ConvexSolidOfABoxHasSixSquareFaces) {
    const std::vector<bsp::Plane> box = {{{1, 0, 0}, 2},  {{-1, 0, 0}, 0}, {{0, 1, 0}, 2},
                                         {{0, -1, 0}, 0}, {{0, 0, 1}, 2},  {{0, 0, -1}, 0}};
    const auto faces = scene::convexSolid(box);
    ASSERT_EQ(faces.size(), 6u);
    for (const scene::CollisionPolygon& f : faces) {
        EXPECT_EQ(f.points.size(), 4u);
        EXPECT_NEAR(polygonArea(f), 4.0, 1e-6);
        // Clockwise seen from outside: the winding's normal points in.
        const glm::vec3 w = glm::cross(f.points[1] - f.points[0], f.points[2] - f.points[0]);
        EXPECT_LT(glm::dot(w, f.normal), 0.0f);
    }
    // A plane that cuts nothing off adds nothing; two that leave nothing give nothing.
    auto more = box;
    more.push_back({{1, 1, 0}, 100});
    EXPECT_EQ(scene::convexSolid(more).size(), 6u);
    more.push_back({{-1, 0, 0}, -5}); // x >= 5 and x <= 2
    EXPECT_TRUE(scene::convexSolid(more).empty());
}

// Hull 1 of the room: the floor a standing player's origin can reach is 24 units above the
// floor, 16 units off every wall, and the middle wall (x 256..272) grown to x 240..288 leaves
// only the 64-unit door open (y 32..96 grown to 48..80); the 16-unit gap closes.
TEST(CollisionView, Hull1FloorIsTheRoomShrunkByThePlayerBox) {
    const bsp::Map map = loadRoom();
    const scene::CollisionSolids hull1 = scene::hullSolids(map, 1);
    EXPECT_GT(hull1.solids, 0u);
    EXPECT_FALSE(hull1.truncated);
    const double floor = 480.0 * 224.0 - 48.0 * 224.0 + 48.0 * 32.0;
    EXPECT_NEAR(areaOn(hull1, {0, 0, 1}, 24.0f), floor, 0.5);
    // Ceiling: the origin stays 32 below it (hull 1 maxs z).
    EXPECT_NEAR(areaOn(hull1, {0, 0, -1}, -224.0f), 480.0 * 224.0 - 48.0 * 224.0, 0.5)
        << "the door is only 128 high: closed at the ceiling";
    // The x- wall: 16 off it, over the height the origin can take (24..224).
    EXPECT_NEAR(areaOn(hull1, {1, 0, 0}, 16.0f), 224.0 * 200.0, 0.5);
    // Nothing faces into solid: no polygon between two solid regions.
    for (const scene::CollisionPolygon& p : hull1.polygons)
        EXPECT_TRUE(p.contents & bsp::kCollideSolid);
}

TEST(CollisionView, Hull2ClosesTheDoor) {
    const bsp::Map map = loadRoom();
    const scene::CollisionSolids hull2 = scene::hullSolids(map, 2);
    // 32 off the walls, origin 24 above the floor: x 32..480 minus the wall grown to 224..304.
    EXPECT_NEAR(areaOn(hull2, {0, 0, 1}, 24.0f), 448.0 * 192.0 - 80.0 * 192.0, 0.5);
    EXPECT_TRUE(scene::hullSolids(map, 3).polygons.empty()) << "Quake 1 has no hull 3";
    EXPECT_TRUE(scene::hullSolids(map, 0).polygons.empty()) << "hull 0 is not a clip hull";
}

TEST(CollisionView, BrushesByContents) {
    bsp::Map map = collisiontest::brushRoomMap();
    const scene::CollisionSolids solid = scene::brushSolids(map, bsp::kCollideSolid);
    EXPECT_EQ(solid.solids, collisiontest::roomBoxes().size());
    EXPECT_EQ(solid.polygons.size(), 6 * collisiontest::roomBoxes().size());
    // The floor brush's top: 544 x 288 at z = 0.
    EXPECT_NEAR(areaOn(solid, {0, 0, 1}, 0.0f), 544.0 * 288.0, 0.5);
    EXPECT_TRUE(scene::brushSolids(map, bsp::kCollideWater).polygons.empty());
    collisiontest::addBoxBrush(map, {{100, 100, 0}, {200, 200, 40}}, bsp::kCollideWater);
    const scene::CollisionSolids water = scene::brushSolids(map, bsp::kCollideWater);
    ASSERT_EQ(water.solids, 1u);
    EXPECT_NEAR(areaOn(water, {0, 0, 1}, 40.0f), 100.0 * 100.0, 0.5);
    EXPECT_EQ(scene::contentsColour(water.polygons[0].contents),
              scene::contentsColour(bsp::kCollideWater));
    scene::LineList lines;
    scene::addCollisionOutlines(lines, water);
    EXPECT_EQ(lines.segments(), 24u);
}
