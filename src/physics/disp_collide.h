// Source displacement collision: a box swept against the triangles of a displacement's grid
// (docs/collision.md, "Source displacements").
//
// The test is Source SDK 2013 public/dispcoll_common.cpp CDispCollTree::SweepAABBTriIntersect:
// a separating-axis sweep of the box against each triangle over the triangle's axial bounds
// (AxisPlanesXYZ), the planes through each edge and a coordinate axis (EdgeCrossAxis, built
// by Cache_EdgeCrossAxisX/Y/Z with the triangle behind them) and the triangle's own plane
// (FacePlane), each pushed out by the box and entered or left with DISPCOLL_DIST_EPSILON
// (ResolveRayPlaneIntersect). A triangle the box moves away from is skipped, and a box that
// starts inside a triangle's volume is not stopped by it: displacements are one-sided and never
// make a trace start solid. The engine finds candidate triangles with an AABB tree
// (AABBTree_SweepAABB); here every triangle whose bounds meet the swept box is tested, after
// the displacement's own bounds.
#pragma once

#include "bsp/map.h"

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

namespace physics {

struct DispTriangle {
    bsp::Plane plane; // facing the displacement's front (the side its base face shows)
    glm::vec3 mins{0.0f};
    glm::vec3 maxs{0.0f};
    std::array<bsp::Plane, 9> edge_planes{}; // edge x axis planes, the triangle behind them
    uint32_t num_edge_planes = 0;
};

struct DispCollide {
    glm::vec3 mins{0.0f}; // of every triangle
    glm::vec3 maxs{0.0f};
    std::vector<DispTriangle> triangles;
};

// Triangles of a grid: `indices` (three a triangle) into `positions`. `front` is the side the
// displacement faces (its base face's normal); the triangles' winding is turned to face it.
// Degenerate and non-finite triangles are left out.
DispCollide buildDispCollide(std::span<const glm::vec3> positions,
                             std::span<const uint32_t> indices, const glm::vec3& front);

// Sweeps a box of half extents `ext` around its centre from start to end against the
// triangles; when one is met before `fraction`, lowers fraction (kept `eps` from the surface,
// DISPCOLL_DIST_EPSILON) and sets `plane` to the plane entered last, and returns true.
bool traceDisp(const DispCollide& dc, const glm::vec3& start, const glm::vec3& end,
               const glm::vec3& ext, float eps, float& fraction, bsp::Plane& plane);

} // namespace physics
