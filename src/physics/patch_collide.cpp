// Patch facets and traces (patch_collide.h). Follows ioquake3 code/qcommon/cm_patch.c; the
// function named in each comment is the engine's.
#include "physics/patch_collide.h"

#include "bsp/patch.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <glm/common.hpp>
#include <glm/geometric.hpp>

namespace physics {

namespace {

constexpr float kPlaneTriEpsilon = 0.1f;  // PLANE_TRI_EPSILON: points this near lie on a plane
constexpr float kPointEpsilon = 0.1f;     // POINT_EPSILON: identical grid points
constexpr float kNormalEpsilon = 0.0001f; // NORMAL_EPSILON and DIST_EPSILON of CM_PlaneEqual
constexpr float kDistEpsilon = 0.02f;

// grid[i][j]: i the subdivided direction, j across it (cGrid_t points[width][height]).
using Grid = std::vector<std::vector<glm::vec3>>;

// CM_NeedsSubdivision: the curve's midpoint is too far from its chord's.
bool needsSubdivision(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c) {
    const glm::vec3 curve_mid = (a + 2.0f * b + c) * 0.25f;
    return glm::length(curve_mid - (a + c) * 0.5f) >= kPatchSubdivideDistance;
}

// CM_SubdivideGridColumns: column i is on the curve, i + 1 a control point, i + 2 on the curve.
// Either the control column goes (the chord is close enough on every row) or the curve is split
// in two at its midpoint (de Casteljau) and the first half is looked at again.
void subdivideColumns(Grid& g) {
    for (size_t i = 0; i + 2 < g.size();) {
        bool flat = true;
        for (size_t j = 0; j < g[i].size() && flat; ++j)
            flat = !needsSubdivision(g[i][j], g[i + 1][j], g[i + 2][j]);
        if (flat || g.size() + 2 > size_t(kMaxPatchGrid)) {
            g.erase(g.begin() + std::ptrdiff_t(i + 1));
            ++i;
            continue;
        }
        std::vector<glm::vec3> left(g[i].size()), mid(g[i].size()), right(g[i].size());
        for (size_t j = 0; j < g[i].size(); ++j) {
            left[j] = (g[i][j] + g[i + 1][j]) * 0.5f;
            right[j] = (g[i + 1][j] + g[i + 2][j]) * 0.5f;
            mid[j] = (left[j] + right[j]) * 0.5f;
        }
        g[i + 1] = std::move(left);
        g.insert(g.begin() + std::ptrdiff_t(i + 2), {std::move(mid), std::move(right)});
    }
}

bool samePoint(const glm::vec3& a, const glm::vec3& b) {
    return glm::all(glm::lessThanEqual(glm::abs(a - b), glm::vec3(kPointEpsilon)));
}

// CM_RemoveDegenerateColumns.
void removeDegenerateColumns(Grid& g) {
    for (size_t i = 0; i + 1 < g.size();) {
        bool same = true;
        for (size_t j = 0; j < g[i].size() && same; ++j)
            same = samePoint(g[i][j], g[i + 1][j]);
        if (same)
            g.erase(g.begin() + std::ptrdiff_t(i + 1));
        else
            ++i;
    }
}

Grid transpose(const Grid& g) {
    Grid t(g.empty() ? 0 : g[0].size(), std::vector<glm::vec3>(g.size()));
    for (size_t i = 0; i < g.size(); ++i)
        for (size_t j = 0; j < g[i].size(); ++j)
            t[j][i] = g[i][j];
    return t;
}

// CM_PlaneFromPoints: the normal points out of the clock for clockwise points; false when the
// triangle is degenerate.
bool planeFromPoints(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c, bsp::Plane& p) {
    const glm::vec3 n = glm::cross(c - a, b - a);
    const float len = glm::length(n);
    if (!(len > 0.0f) || !std::isfinite(len))
        return false;
    p.normal = n / len;
    p.dist = glm::dot(a, p.normal);
    return true;
}

float side(const bsp::Plane& p, const glm::vec3& v) {
    return glm::dot(p.normal, v) - p.dist;
}

// CM_PlaneEqual, either way round.
bool samePlane(const bsp::Plane& a, const bsp::Plane& b) {
    auto equal = [](const bsp::Plane& x, const glm::vec3& n, float d) {
        return glm::all(glm::lessThan(glm::abs(x.normal - n), glm::vec3(kNormalEpsilon))) &&
               std::fabs(x.dist - d) < kDistEpsilon;
    };
    return equal(a, b.normal, b.dist) || equal(a, -b.normal, -b.dist);
}

// CM_SnapVector.
glm::vec3 snap(glm::vec3 v) {
    for (int k = 0; k < 3; ++k)
        if (std::fabs(std::fabs(v[k]) - 1.0f) < kNormalEpsilon) {
            const float s = v[k] > 0.0f ? 1.0f : -1.0f;
            v = glm::vec3(0.0f);
            v[k] = s;
            break;
        }
    return v;
}

// One facet from its winding (3 or 4 points, in grid order) and surface plane: borders through
// the edges (CM_EdgePlaneNum: the plane through the edge and a point 4 units along the normal,
// facing away from the facet: CM_SetBorderInward), the axial and edge bevels (CM_AddFacetBevels)
// and the reversed surface plane.
void addFacet(PatchCollide& pc, std::span<const glm::vec3> w, const bsp::Plane& surface) {
    const size_t first = pc.planes.size();
    pc.planes.push_back(surface);
    auto add = [&](const bsp::Plane& p) {
        for (size_t k = first; k < pc.planes.size(); ++k)
            if (samePlane(pc.planes[k], p))
                return;
        pc.planes.push_back(p);
    };
    glm::vec3 centre(0.0f);
    for (const glm::vec3& v : w)
        centre += v;
    centre /= float(w.size());
    for (size_t k = 0; k < w.size(); ++k) {
        const glm::vec3& a = w[k];
        const glm::vec3& b = w[(k + 1) % w.size()];
        bsp::Plane border;
        if (!planeFromPoints(a, b, a + 4.0f * surface.normal, border))
            continue; // a degenerate edge: the other borders and the bevels bound the facet
        if (side(border, centre) > 0.0f)
            border = {-border.normal, -border.dist};
        add(border);
    }
    glm::vec3 lo = w[0], hi = w[0];
    for (const glm::vec3& v : w) {
        lo = glm::min(lo, v);
        hi = glm::max(hi, v);
    }
    for (int axis = 0; axis < 3; ++axis)
        for (const float dir : {-1.0f, 1.0f}) {
            bsp::Plane p;
            p.normal = glm::vec3(0.0f);
            p.normal[axis] = dir;
            p.dist = dir > 0.0f ? hi[axis] : -lo[axis];
            add(p);
        }
    // Edge bevels: planes through each slanted edge and an axis that have the whole facet
    // behind them; they keep a box from catching on the facet's corners.
    for (size_t k = 0; k < w.size(); ++k) {
        glm::vec3 edge = w[k] - w[(k + 1) % w.size()];
        const float len = glm::length(edge);
        if (!(len >= 0.5f))
            continue;
        edge = snap(edge / len);
        if (glm::any(glm::equal(glm::abs(edge), glm::vec3(1.0f))))
            continue; // axial edges are bounded by the axial bevels
        for (int axis = 0; axis < 3; ++axis)
            for (const float dir : {-1.0f, 1.0f}) {
                glm::vec3 a(0.0f);
                a[axis] = dir;
                glm::vec3 n = glm::cross(edge, a);
                const float nl = glm::length(n);
                if (nl < 0.5f)
                    continue;
                n /= nl;
                const bsp::Plane p{n, glm::dot(w[k], n)};
                if (std::all_of(w.begin(), w.end(),
                                [&](const glm::vec3& v) { return side(p, v) <= 0.1f; }))
                    add(p);
            }
    }
    pc.planes.push_back({-surface.normal, -surface.dist}); // the back (never samePlane-merged)
    pc.facets.push_back({uint32_t(first), uint32_t(pc.planes.size() - first)});
}

// CM_PatchCollideFromGrid: a square whose two triangles share a plane (every corner within
// PLANE_TRI_EPSILON of the first triangle's plane, facing the same way) is one quad facet.
void facetsFromGrid(PatchCollide& pc, const Grid& g) {
    for (size_t i = 0; i + 1 < g.size(); ++i)
        for (size_t j = 0; j + 1 < g[i].size() && pc.facets.size() + 2 <= kMaxPatchFacets; ++j) {
            const glm::vec3 p1 = g[i][j], p2 = g[i + 1][j], p3 = g[i + 1][j + 1], p4 = g[i][j + 1];
            bsp::Plane t0, t1;
            const bool ok0 = planeFromPoints(p1, p2, p3, t0);
            const bool ok1 = planeFromPoints(p3, p4, p1, t1);
            if (ok0 && ok1 && glm::dot(t0.normal, t1.normal) >= 0.0f &&
                std::fabs(side(t0, p4)) <= kPlaneTriEpsilon) {
                const std::array<glm::vec3, 4> quad{p1, p2, p3, p4};
                addFacet(pc, quad, t0);
                continue;
            }
            if (ok0) {
                const std::array<glm::vec3, 3> tri{p1, p2, p3};
                addFacet(pc, tri, t0);
            }
            if (ok1) {
                const std::array<glm::vec3, 3> tri{p3, p4, p1};
                addFacet(pc, tri, t1);
            }
        }
}

} // namespace

PatchCollide buildPatchCollide(std::span<const glm::vec3> controls, int width, int height) {
    PatchCollide pc;
    if (!bsp::validPatchSize(width, height) || controls.size() < size_t(width) * size_t(height))
        return pc;
    Grid g(size_t(width), std::vector<glm::vec3>(size_t(height), glm::vec3(0.0f)));
    for (int i = 0; i < width; ++i)
        for (int j = 0; j < height; ++j) {
            const glm::vec3& v = controls[size_t(j) * size_t(width) + size_t(i)];
            if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z))
                return pc;
            g[size_t(i)][size_t(j)] = v;
        }
    // CM_GeneratePatchCollide: both directions, the grid ends transposed.
    subdivideColumns(g);
    removeDegenerateColumns(g);
    g = transpose(g);
    subdivideColumns(g);
    removeDegenerateColumns(g);
    pc.grid_width = int(g.size());
    pc.grid_height = g.empty() ? 0 : int(g[0].size());

    pc.mins = pc.maxs = g[0][0];
    for (const auto& column : g)
        for (const glm::vec3& v : column) {
            pc.mins = glm::min(pc.mins, v);
            pc.maxs = glm::max(pc.maxs, v);
        }
    pc.mins -= 1.0f;
    pc.maxs += 1.0f;
    facetsFromGrid(pc, g);
    return pc;
}

namespace {

// CM_TracePointThroughPatchCollide: the surface plane crossed from the front at a point inside
// every border (the reversed surface plane, last, is not a border here).
bool tracePoint(const PatchCollide& pc, const glm::vec3& start, const glm::vec3& end, float eps,
                float& fraction, bsp::Plane& plane) {
    bool hit = false;
    for (const PatchFacet& f : pc.facets) {
        const bsp::Plane& s = pc.planes[f.first_plane];
        const float d1 = side(s, start), d2 = side(s, end);
        if (!(d1 > 0.0f) || !(d2 < d1))
            continue;
        const float t = d1 / (d1 - d2);
        if (!(t <= fraction))
            continue;
        const glm::vec3 at = start + t * (end - start);
        bool inside = true;
        for (uint32_t k = 1; k + 1 < f.num_planes && inside; ++k)
            inside = side(pc.planes[f.first_plane + k], at) <= kPlaneTriEpsilon;
        if (!inside)
            continue;
        fraction = std::max((d1 - eps) / (d1 - d2), 0.0f);
        plane = s;
        hit = true;
    }
    return hit;
}

} // namespace

bool tracePatch(const PatchCollide& pc, const glm::vec3& start, const glm::vec3& end,
                const glm::vec3& ext, float eps, float& fraction, bsp::Plane& plane) {
    const glm::vec3 lo = glm::min(start, end) - ext, hi = glm::max(start, end) + ext;
    if (glm::any(glm::greaterThan(lo, pc.maxs)) || glm::any(glm::lessThan(hi, pc.mins)))
        return false; // CM_BoundsIntersect
    if (ext == glm::vec3(0.0f))
        return tracePoint(pc, start, end, eps, fraction, plane);
    // CM_TraceThroughPatchCollide with CM_CheckFacetPlane: each plane pushed out by the box.
    bool hit = false;
    for (const PatchFacet& f : pc.facets) {
        float enter = -1.0f, leave = 1.0f;
        int64_t hit_plane = -1;
        bool outside = false;
        for (uint32_t k = 0; k < f.num_planes && !outside; ++k) {
            const bsp::Plane& p = pc.planes[f.first_plane + k];
            const float dist = p.dist + glm::dot(glm::abs(p.normal), ext);
            const float d1 = glm::dot(start, p.normal) - dist;
            const float d2 = glm::dot(end, p.normal) - dist;
            if (d1 > 0.0f && (d2 >= eps || d2 >= d1)) {
                outside = true; // in front of this plane the whole way
            } else if (d1 > 0.0f || d2 > 0.0f) {
                if (d1 > d2) { // entering; earlier planes win ties, the surface first
                    const float e = std::max((d1 - eps) / (d1 - d2), 0.0f);
                    if (e > enter) {
                        enter = e;
                        hit_plane = k;
                    }
                } else {
                    leave = std::min(leave, std::min((d1 + eps) / (d1 - d2), 1.0f));
                }
            }
        }
        if (outside || hit_plane == int64_t(f.num_planes) - 1)
            continue; // never clip against the back side
        if (enter < leave && enter >= 0.0f && enter < fraction) {
            fraction = enter;
            plane = pc.planes[f.first_plane + uint32_t(hit_plane)];
            hit = true;
        }
    }
    return hit;
}

} // namespace physics
