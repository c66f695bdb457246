// GL-free geometry of the collision views (issue #18): what the games' movement code collides
// with, as polygons a level designer can look at.
//
// - Clip hulls (Quake 1, BSP2, Half-Life hulls 1..3): every solid region of the hull's
//   clipnode tree becomes the convex solid cut out by the planes on its path (inside a box
//   around the world), and only the faces that border open space are kept. Hull k is the space
//   a player box of hull k's size cannot put its origin into, so the surfaces stand off the
//   walls by the box size: they show where a player fits.
// - Brushes (Quake 2, Quake 3): each brush is the intersection of its sides' half-spaces,
//   drawn by contents (solid, player clip, monster clip, water, slime, lava, trigger, ladder);
//   brushes of a brush model carry its entity, so triggers and clips can be labelled.
//
// Every polygon is a convex winding built the way the compilers build brush faces (a huge
// polygon on the plane clipped by every other plane), in double precision.
#pragma once

#include "bsp/map.h"
#include "scene/debug/debug_geometry.h"

#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

namespace scene {

struct CollisionPolygon {
    std::vector<glm::vec3> points; // convex, clockwise seen from outside (Quake winding)
    glm::vec3 normal{0.0f};        // out of the solid
    uint32_t contents = 0;         // bsp::CollisionContents
    int32_t brush = -1;            // brushes: the brush index
    int32_t entity = -1;           // Quake 3 brushes of a brush model: its entity
};

struct CollisionSolids {
    std::vector<CollisionPolygon> polygons;
    uint32_t solids = 0;    // convex solids built (hull regions or brushes)
    bool truncated = false; // stopped at the solid cap
};

// The solids of clip hull `hull` (1..3) of the world model; nothing for a map without that
// hull or without clip hulls.
CollisionSolids hullSolids(const bsp::Map& map, int32_t hull, size_t max_solids = 100000);

// The brushes whose contents meet `contents_mask`, world and brush models; nothing for a map
// without brushes.
CollisionSolids brushSolids(const bsp::Map& map, uint32_t contents_mask,
                            size_t max_solids = 200000);

// The view's colour for a contents set (the first bit that has one, solid last).
glm::u8vec4 contentsColour(uint32_t contents);

// The outlines of the polygons, in their contents colour.
void addCollisionOutlines(LineList& lines, const CollisionSolids& solids);

// The convex polygons bounding the intersection of the half-spaces dot(normal, p) <= dist of
// `planes` (each plane's normal points out of the solid); empty when they bound nothing.
// Faces smaller than a square of 1/16 unit are dropped. Exposed for tests.
std::vector<CollisionPolygon> convexSolid(const std::vector<bsp::Plane>& planes);

} // namespace scene
