// Quake 3 Bezier patch tessellation.
//
// A patch surface stores a grid of width x height control vertices (both odd, >= 3). Each
// 3x3 block sharing its border rows/columns with its neighbours is a biquadratic Bezier
// sub-patch (Quake 3 engine R_SubdividePatchToGrid; q3map2 writes the grids this way).
// We tessellate every sub-patch uniformly into level x level quads; the scene layer chooses
// the level and can bound its work first with patchTriangleCount().
//
// Guarantees, relied on by the scene to avoid cracks:
// - corner vertices of every sub-patch are bit-identical copies of the control points;
// - vertices along a patch edge depend only on that edge's three control points per
//   sub-patch and on the step index, and the formula is symmetric under reversing the edge,
//   so two patches whose edges share control points produce bit-identical vertices there,
//   whichever direction or axis each patch runs along;
// - triangles are wound like the map's planar faces (clockwise seen from the front, the
//   Quake 3 convention), so one cull setting serves both.
#pragma once

#include "bsp/map.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace bsp {

inline constexpr int kMaxPatchSide = 65;  // control points per side accepted from files
inline constexpr int kMaxPatchLevel = 64; // subdivisions per sub-patch edge

struct PatchMesh {
    std::vector<Vertex> vertices;
    std::vector<uint32_t> indices; // triangles, indices into vertices
};

// True when width x height is a grid tessellatePatch accepts (odd, 3..kMaxPatchSide).
bool validPatchSize(int width, int height);

// Tessellates a control grid stored row by row (controls[row * width + column]); level is
// clamped to [1, kMaxPatchLevel]. Every vertex attribute is interpolated; normals are
// renormalised (a degenerate normal becomes +Z). Returns an empty mesh when the size is
// invalid or controls holds fewer than width * height vertices.
PatchMesh tessellatePatch(std::span<const Vertex> controls, int width, int height, int level);

// Vertex and triangle counts tessellatePatch produces for these arguments (0 when invalid),
// computed without tessellating, so callers can cap the work a map may cause.
size_t patchVertexCount(int width, int height, int level);
size_t patchTriangleCount(int width, int height, int level);

} // namespace bsp
