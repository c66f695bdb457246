// Quake 3 patch collision: the facets ioquake3 builds from a patch's control grid and box
// traces against them (docs/collision.md, "Quake 3 patches").
//
// Built as code/qcommon/cm_patch.c CM_GeneratePatchCollide does: the grid is subdivided along
// each direction until every curve segment's midpoint lies within kPatchSubdivideDistance of
// its chord (CM_SubdivideGridColumns, then CM_TransposeGrid and again), identical columns are
// dropped (CM_RemoveDegenerateColumns), and each grid square becomes one flat quad facet or two
// triangle facets (CM_PatchCollideFromGrid). A facet is a zero-thickness convex volume: its
// surface plane, border planes through its edges, axial and edge bevels (CM_AddFacetBevels) and
// the surface plane reversed. Boxes are traced through facets like brushes, except that a hit
// on the reversed plane is ignored, so a patch stops boxes from its front only
// (CM_TraceThroughPatchCollide); points hit the surface plane within the borders
// (CM_TracePointThroughPatchCollide).
//
// Differences, measured in docs/collision.md: a border between two grid squares is the plane
// through the edge perpendicular to the facet (the engine's CM_EdgePlaneNum), where the engine
// uses the neighbouring square's surface plane when it differs; grids are capped at
// kMaxPatchGrid points per side (the engine's MAX_GRID_SIZE, which it does not check while
// subdividing), a curve that would need more stays coarser.
#pragma once

#include "bsp/map.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

namespace physics {

inline constexpr float kPatchSubdivideDistance = 16.0f; // cm_patch.c SUBDIVIDE_DISTANCE
inline constexpr int kMaxPatchGrid = 129;               // cm_patch.c MAX_GRID_SIZE
// cm_patch.c MAX_FACETS: the engine refuses a patch with more; here the rest does not collide.
inline constexpr size_t kMaxPatchFacets = 1024;

// planes[first_plane]: the surface plane, facing the patch's front; then the borders, facing out
// of the facet; last the surface plane reversed (the back, which never stops a trace).
struct PatchFacet {
    uint32_t first_plane = 0;
    uint32_t num_planes = 0;
};

struct PatchCollide {
    glm::vec3 mins{0.0f}; // of the subdivided grid, grown by 1 (cm_patch.c)
    glm::vec3 maxs{0.0f};
    std::vector<bsp::Plane> planes;
    std::vector<PatchFacet> facets;
    int grid_width = 0;  // points of the subdivided grid, along the control grid's height
    int grid_height = 0; // and width (the engine's grid is transposed once)
};

// Facets of a control grid stored row by row (controls[row * width + column]); width and height
// odd and at least 3 (bsp::validPatchSize). An invalid size, too few controls or non-finite
// points give no facets.
PatchCollide buildPatchCollide(std::span<const glm::vec3> controls, int width, int height);

// Sweeps a box of half extents `ext` around its centre from start to end through the facets;
// when it meets one before `fraction`, lowers fraction (stopping `eps` in front of the surface,
// SURFACE_CLIP_EPSILON) and sets `plane` to the facet plane hit, and returns true. ext zero is
// a point trace.
bool tracePatch(const PatchCollide& pc, const glm::vec3& start, const glm::vec3& end,
                const glm::vec3& ext, float eps, float& fraction, bsp::Plane& plane);

} // namespace physics
