#include "scene/debug/collision_view.h"

#include "physics/collision.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

namespace scene {

namespace {

using dvec3 = glm::dvec3;

constexpr double kHuge = 1 << 20;      // base winding half size (beyond any map's bounds)
constexpr double kOnEpsilon = 0.01;    // a point this close to a plane is on it
constexpr double kMinArea = 1.0 / 256; // faces smaller than this (units^2) are dropped

// A square on the plane, centred on the plane's point nearest the origin, wound so its
// normal is the plane's (qbsp / q3map2 BaseWindingForPlane).
std::vector<dvec3> baseWinding(const dvec3& n, double d) {
    const dvec3 a = std::fabs(n.z) > std::fabs(n.x) && std::fabs(n.z) > std::fabs(n.y)
                        ? dvec3(1, 0, 0)
                        : dvec3(0, 0, 1);
    const dvec3 up = glm::normalize(a - n * glm::dot(a, n));
    const dvec3 right = glm::cross(up, n);
    const dvec3 c = n * d;
    return {c - right * kHuge + up * kHuge, c + right * kHuge + up * kHuge,
            c + right * kHuge - up * kHuge, c - right * kHuge - up * kHuge};
}

// Keeps the part of the winding with dot(n, p) <= d.
std::vector<dvec3> clipBehind(const std::vector<dvec3>& w, const dvec3& n, double d) {
    std::vector<dvec3> out;
    if (w.empty())
        return out;
    out.reserve(w.size() + 2);
    for (size_t i = 0; i < w.size(); ++i) {
        const dvec3& p = w[i];
        const dvec3& q = w[(i + 1) % w.size()];
        const double dp = glm::dot(n, p) - d;
        const double dq = glm::dot(n, q) - d;
        if (dp <= kOnEpsilon)
            out.push_back(p);
        if ((dp > kOnEpsilon && dq < -kOnEpsilon) || (dp < -kOnEpsilon && dq > kOnEpsilon))
            out.push_back(p + (q - p) * (dp / (dp - dq)));
    }
    return out;
}

double area(const std::vector<dvec3>& w) {
    dvec3 sum(0.0);
    for (size_t i = 1; i + 1 < w.size(); ++i)
        sum += glm::cross(w[i] - w[0], w[i + 1] - w[0]);
    return 0.5 * glm::length(sum);
}

bool usablePlane(const bsp::Plane& p) {
    const float len = glm::length(p.normal);
    return std::isfinite(len) && std::isfinite(p.dist) && std::fabs(len - 1.0f) < 0.01f;
}

// Clip-hull descent: the half-spaces of the path to each solid region.
struct HullBuilder {
    const bsp::Map& map;
    const physics::CollisionWorld& world;
    int32_t hull;
    size_t max_solids;
    std::vector<bsp::Plane> path;
    CollisionSolids out;

    void walk(int32_t node, int depth) {
        if (out.truncated || depth > 2048)
            return;
        if (node < 0) {
            const uint32_t contents = map.collision.contentsOfValue(node);
            if (!(contents & (bsp::kCollideSolid | bsp::kCollidePlayerClip)))
                return;
            if (out.solids >= max_solids) {
                out.truncated = true;
                return;
            }
            ++out.solids;
            for (CollisionPolygon& poly : convexSolid(path)) {
                // Faces on the bounding box are not the hull's; faces between two solid
                // regions are inside the hull: keep the ones with open space in front.
                glm::vec3 centre(0.0f);
                for (const glm::vec3& p : poly.points)
                    centre += p;
                centre /= static_cast<float>(poly.points.size());
                const glm::vec3 ahead = centre + poly.normal * 0.25f;
                if (world.pointContents(ahead, hull) &
                    (bsp::kCollideSolid | bsp::kCollidePlayerClip))
                    continue;
                poly.contents = contents;
                out.polygons.push_back(std::move(poly));
            }
            return;
        }
        if (size_t(node) >= map.collision.clipnodes.size())
            return;
        const bsp::ClipNode& c = map.collision.clipnodes[size_t(node)];
        if (c.plane < 0 || size_t(c.plane) >= map.planes.size() ||
            !usablePlane(map.planes[size_t(c.plane)]))
            return;
        const bsp::Plane& p = map.planes[size_t(c.plane)];
        // Front child: dot(n, x) >= d, as a solid's outward plane (-n, -d).
        path.push_back({-p.normal, -p.dist});
        walk(c.children[0], depth + 1);
        path.back() = p;
        walk(c.children[1], depth + 1);
        path.pop_back();
    }
};

} // namespace

std::vector<CollisionPolygon> convexSolid(const std::vector<bsp::Plane>& planes) {
    std::vector<CollisionPolygon> out;
    for (size_t i = 0; i < planes.size(); ++i) {
        const dvec3 n(planes[i].normal);
        const double d = planes[i].dist;
        std::vector<dvec3> w = baseWinding(n, d);
        for (size_t j = 0; j < planes.size() && !w.empty(); ++j) {
            if (j == i)
                continue;
            const dvec3 nj(planes[j].normal);
            const double dj = planes[j].dist;
            // The same plane twice: keep the first.
            if (glm::dot(nj, n) > 0.999999 && std::fabs(dj - d) < kOnEpsilon) {
                if (j < i)
                    w.clear();
                continue;
            }
            w = clipBehind(w, nj, dj);
        }
        if (w.size() < 3 || area(w) < kMinArea)
            continue;
        CollisionPolygon poly;
        poly.normal = glm::vec3(n);
        poly.points.reserve(w.size());
        for (const dvec3& p : w)
            poly.points.emplace_back(p);
        out.push_back(std::move(poly));
    }
    return out;
}

CollisionSolids hullSolids(const bsp::Map& map, int32_t hull, size_t max_solids) {
    const bsp::Collision& c = map.collision;
    if (c.kind != bsp::CollisionKind::Hulls || hull < 1 || hull > 3 || c.models.empty() ||
        size_t(hull) >= c.hulls.size())
        return {};
    const physics::CollisionWorld world(map);
    HullBuilder b{map, world, hull, max_solids, {}, {}};
    // A box around the world, grown by the hull size and a margin, closes the outside.
    const glm::vec3 lo = map.worldMins() + c.hulls[size_t(hull)].mins - glm::vec3(64.0f);
    const glm::vec3 hi = map.worldMaxs() + c.hulls[size_t(hull)].maxs + glm::vec3(64.0f);
    b.path = {{{1, 0, 0}, hi.x},   {{-1, 0, 0}, -lo.x}, {{0, 1, 0}, hi.y},
              {{0, -1, 0}, -lo.y}, {{0, 0, 1}, hi.z},   {{0, 0, -1}, -lo.z}};
    b.walk(c.models[0].heads[size_t(hull)], 0);
    return std::move(b.out);
}

CollisionSolids brushSolids(const bsp::Map& map, uint32_t contents_mask, size_t max_solids) {
    const bsp::Collision& c = map.collision;
    CollisionSolids out;
    if (c.kind != bsp::CollisionKind::Brushes)
        return out;
    // The entity owning each brush, where the map lists a model's brushes (Quake 3). Quake 2
    // reaches them only through the model's leaves; its brushes stay unlabelled.
    std::vector<int32_t> brush_entity(c.brushes.size(), -1);
    for (size_t m = 1; m < c.models.size() && m < map.submodels.size(); ++m) {
        const int32_t entity = map.submodels[m].entity;
        const bsp::Range r = c.models[m].brushes;
        for (uint64_t b = r.first; b < uint64_t(r.first) + r.count && b < c.brushes.size(); ++b)
            brush_entity[size_t(b)] = entity;
    }
    std::vector<bsp::Plane> planes;
    for (size_t b = 0; b < c.brushes.size(); ++b) {
        const bsp::Brush& brush = c.brushes[b];
        if (!(brush.contents & contents_mask))
            continue;
        if (out.solids >= max_solids) {
            out.truncated = true;
            break;
        }
        planes.clear();
        for (uint64_t s = brush.first_side;
             s < uint64_t(brush.first_side) + brush.num_sides && s < c.brush_sides.size(); ++s) {
            const int32_t pi = c.brush_sides[size_t(s)].plane;
            if (pi >= 0 && size_t(pi) < map.planes.size() && usablePlane(map.planes[size_t(pi)]))
                planes.push_back(map.planes[size_t(pi)]);
        }
        if (planes.size() < 4)
            continue;
        ++out.solids;
        for (CollisionPolygon& poly : convexSolid(planes)) {
            poly.contents = brush.contents;
            poly.brush = static_cast<int32_t>(b);
            poly.entity = brush_entity[b];
            out.polygons.push_back(std::move(poly));
        }
    }
    return out;
}

glm::u8vec4 contentsColour(uint32_t contents) {
    if (contents & bsp::kCollidePlayerClip)
        return {200, 80, 255, 255};
    if (contents & bsp::kCollideMonsterClip)
        return {255, 150, 40, 255};
    if (contents & bsp::kCollideLava)
        return {255, 60, 30, 255};
    if (contents & bsp::kCollideSlime)
        return {90, 230, 60, 255};
    if (contents & bsp::kCollideWater)
        return {50, 140, 255, 255};
    if (contents & bsp::kCollideLadder)
        return {180, 120, 60, 255};
    if (contents & bsp::kCollideTrigger)
        return {255, 230, 40, 255};
    if (contents & bsp::kCollideSky)
        return {140, 220, 255, 255};
    return {90, 200, 210, 255}; // solid
}

void addCollisionOutlines(LineList& lines, const CollisionSolids& solids) {
    for (const CollisionPolygon& poly : solids.polygons) {
        const glm::u8vec4 colour = contentsColour(poly.contents);
        for (size_t i = 0; i < poly.points.size(); ++i)
            lines.add(poly.points[i], poly.points[(i + 1) % poly.points.size()], colour);
    }
}

} // namespace scene
