// Source displacement triangles and box sweeps against them (Source SDK 2013
// public/dispcoll_common.cpp, names in disp_collide.h).
#include "physics/disp_collide.h"

#include <algorithm>
#include <cmath>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

namespace physics {

namespace {

// dispcoll_common.h DISPCOLL_DIST_EPSILON: an edge plane's third vertex this close counts as on
// it (the Cache_EdgeCrossAxis* facing rule).
constexpr float kDispDistEpsilon = 0.03125f;
// DISPCOLL_INVALID_FRAC: no plane entered yet.
constexpr float kInvalidFraction = -99999.9f;
// Entering fractions this close count as a tie between the face and an edge or bounds plane.
constexpr float kFaceTie = 1e-4f;

bool finite(const glm::vec3& v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

bool overlaps(const glm::vec3& lo, const glm::vec3& hi, const glm::vec3& mins,
              const glm::vec3& maxs) {
    return !glm::any(glm::greaterThan(lo, maxs)) && !glm::any(glm::lessThan(hi, mins));
}

// Cache_EdgeCrossAxisX/Y/Z: the plane through the edge a -> b and the axis, facing away from
// `off` (the third vertex). An edge parallel to the axis or lying in an axial plane gives an
// axial normal, which the bounds planes already cover: no plane.
bool edgeAxisPlane(const glm::vec3& a, const glm::vec3& b, const glm::vec3& off, int axis,
                   bsp::Plane& out) {
    glm::vec3 unit(0.0f);
    unit[axis] = 1.0f;
    glm::vec3 n = glm::cross(b - a, unit);
    const float len = glm::length(n);
    if (!(len > 0.0f))
        return false;
    n /= len;
    if (n[(axis + 1) % 3] == 0.0f || n[(axis + 2) % 3] == 0.0f)
        return false;
    const float dist = glm::dot(n, a), off_dist = glm::dot(n, off);
    if (!(std::fabs(off_dist - dist) < kDispDistEpsilon) && off_dist > dist)
        out = {-n, -dist};
    else
        out = {n, dist};
    return true;
}

// One triangle's sweep (SweepAABBTriIntersect): the latest plane entered and the earliest
// left, over every plane pushed out by the box.
struct TriSweep {
    const glm::vec3& start;
    const glm::vec3& end;
    const glm::vec3& ext;
    float eps;
    float enter = kInvalidFraction;
    float leave = 1.0f;
    bsp::Plane impact;

    // ResolveRayPlaneIntersect: false when the whole move is in front of the plane (a miss).
    bool plane(const bsp::Plane& p) {
        const float expanded = p.dist + glm::dot(glm::abs(p.normal), ext);
        const float d1 = glm::dot(p.normal, start) - expanded;
        const float d2 = glm::dot(p.normal, end) - expanded;
        if (d1 > 0.0f && d2 > 0.0f)
            return false;
        if (d1 < 0.0f && d2 < 0.0f)
            return true;
        const float denom = d1 - d2;
        if (d1 >= 0.0f && d2 <= 0.0f) {
            const float t = denom != 0.0f ? (d1 - eps) / denom : 0.0f;
            if (t > enter) {
                enter = t;
                impact = p;
            }
        } else {
            leave = std::min(leave, denom != 0.0f ? (d1 + eps) / denom : 0.0f);
        }
        return true;
    }

    // When the plane is entered (the fraction ResolveRayPlaneIntersect would take), or
    // kInvalidFraction.
    float faceEnter(const bsp::Plane& p) const {
        const float expanded = p.dist + glm::dot(glm::abs(p.normal), ext);
        const float d1 = glm::dot(p.normal, start) - expanded;
        const float d2 = glm::dot(p.normal, end) - expanded;
        if (!(d1 >= 0.0f && d2 <= 0.0f))
            return kInvalidFraction;
        return d1 - d2 != 0.0f ? (d1 - eps) / (d1 - d2) : 0.0f;
    }

    bool triangle(const DispTriangle& tri) {
        // AxisPlanesXYZ (z first, as the engine), then the edge planes, then FacePlane.
        for (int axis = 2; axis >= 0; --axis) {
            bsp::Plane lo, hi;
            lo.normal = hi.normal = glm::vec3(0.0f);
            lo.normal[axis] = -1.0f;
            lo.dist = -tri.mins[axis];
            hi.normal[axis] = 1.0f;
            hi.dist = tri.maxs[axis];
            if (!plane(lo) || !plane(hi))
                return false;
        }
        for (uint32_t k = 0; k < tri.num_edge_planes; ++k)
            if (!plane(tri.edge_planes[k]))
                return false;
        const float before_face = enter;
        if (!plane(tri.plane))
            return false;
        const float face_enter = faceEnter(tri.plane);
        // Where the box touches the surface at an edge, the edge's plane and the face are
        // entered at the same time up to rounding; the face is the surface hit (a walking
        // player slides along it), so it is reported when it is entered within kFaceTie of the
        // last plane. The engine keeps whichever rounds later.
        if (impact.normal != tri.plane.normal && before_face - face_enter <= kFaceTie)
            impact = tri.plane;
        return (enter < leave || std::fabs(enter - leave) < 0.001f) && enter != kInvalidFraction;
    }
};

} // namespace

DispCollide buildDispCollide(std::span<const glm::vec3> positions,
                             std::span<const uint32_t> indices, const glm::vec3& front) {
    DispCollide dc;
    // The grid's winding is the same for every triangle; which way it turns is read from the
    // sum of their normals (CDispCollTri::CalcPlane's (v2 - v0) x (v1 - v0) on the engine's
    // own winding).
    glm::vec3 sum(0.0f);
    for (size_t i = 0; i + 2 < indices.size(); i += 3) {
        if (indices[i] >= positions.size() || indices[i + 1] >= positions.size() ||
            indices[i + 2] >= positions.size())
            return dc;
        const glm::vec3 &a = positions[indices[i]], &b = positions[indices[i + 1]],
                        &c = positions[indices[i + 2]];
        if (finite(a) && finite(b) && finite(c))
            sum += glm::cross(b - a, c - a);
    }
    const bool flip = glm::dot(sum, front) < 0.0f;
    dc.mins = glm::vec3(INFINITY);
    dc.maxs = glm::vec3(-INFINITY);
    for (size_t i = 0; i + 2 < indices.size(); i += 3) {
        std::array<glm::vec3, 3> v{positions[indices[i]], positions[indices[i + 1]],
                                   positions[indices[i + 2]]};
        if (flip)
            std::swap(v[1], v[2]);
        if (!finite(v[0]) || !finite(v[1]) || !finite(v[2]))
            continue;
        glm::vec3 n = glm::cross(v[1] - v[0], v[2] - v[0]);
        const float len = glm::length(n);
        if (!(len > 0.0f) || !std::isfinite(len))
            continue;
        DispTriangle t;
        n /= len;
        t.plane = {n, glm::dot(n, v[0])};
        t.mins = glm::min(v[0], glm::min(v[1], v[2]));
        t.maxs = glm::max(v[0], glm::max(v[1], v[2]));
        // Cache_Create: edges 1 -> 2, 2 -> 3, 3 -> 1 against x, y and z.
        for (int axis = 0; axis < 3; ++axis)
            for (int e = 0; e < 3; ++e) {
                bsp::Plane p;
                if (edgeAxisPlane(v[size_t(e)], v[size_t(e + 1) % 3], v[size_t(e + 2) % 3], axis,
                                  p))
                    t.edge_planes[t.num_edge_planes++] = p;
            }
        dc.mins = glm::min(dc.mins, t.mins);
        dc.maxs = glm::max(dc.maxs, t.maxs);
        dc.triangles.push_back(t);
    }
    return dc;
}

bool traceDisp(const DispCollide& dc, const glm::vec3& start, const glm::vec3& end,
               const glm::vec3& ext, float eps, float& fraction, bsp::Plane& plane) {
    // The swept box, grown by the epsilon the planes are entered with.
    const glm::vec3 lo = glm::min(start, end) - ext - eps;
    const glm::vec3 hi = glm::max(start, end) + ext + eps;
    if (dc.triangles.empty() || !overlaps(lo, hi, dc.mins, dc.maxs))
        return false;
    const glm::vec3 delta = end - start;
    bool hit = false;
    for (const DispTriangle& tri : dc.triangles) {
        if (!overlaps(lo, hi, tri.mins, tri.maxs))
            continue;
        // "Make sure objects are traveling toward one another."
        if (glm::dot(tri.plane.normal, delta) > eps)
            continue;
        TriSweep s{start, end, ext, eps, kInvalidFraction, 1.0f, {}};
        if (s.triangle(tri) && s.enter < fraction) {
            fraction = std::max(s.enter, 0.0f);
            plane = s.impact;
            hit = true;
        }
    }
    return hit;
}

} // namespace physics
