#include "scene/debug/compile_overlays.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>
#include <unordered_set>

namespace scene {

glm::u8vec4 portalColour(const content::Portal& portal, uint8_t alpha) {
    glm::u8vec4 c = hashColour(portal.a);
    c.a = alpha;
    return c;
}

PortalOverlayStats addPortals(TriangleList& fill, LineList& outline, const content::PortalFile& prt,
                              uint8_t fill_alpha) {
    PortalOverlayStats stats;
    std::unordered_set<uint32_t> clusters;
    for (const content::Portal& p : prt.portals) {
        const uint64_t end = static_cast<uint64_t>(p.first_point) + p.num_points;
        if (p.num_points < 3 || end > prt.points.size())
            continue;
        const glm::vec3* w = prt.points.data() + p.first_point;
        fill.addFan(w, p.num_points, portalColour(p, fill_alpha));
        // Outlines lighter than the fill, so edges read against it and against the walls.
        const glm::u8vec4 c = portalColour(p, 255);
        const glm::u8vec4 edge =
            p.hint ? glm::u8vec4(255, 255, 255, 255)
                   : glm::u8vec4((c.r + 255) / 2, (c.g + 255) / 2, (c.b + 255) / 2, 255);
        for (uint32_t k = 0; k < p.num_points; ++k)
            outline.add(w[k], w[(k + 1) % p.num_points], edge);
        ++stats.portals;
        stats.hints += p.hint ? 1 : 0;
        clusters.insert(p.a);
        clusters.insert(p.b);
    }
    stats.clusters = static_cast<uint32_t>(clusters.size());
    return stats;
}

namespace {

// Distance along `dir` (unit) to triangle abc, both sides; negative when missed.
float rayTriangle(const glm::vec3& o, const glm::vec3& dir, const glm::vec3& a, const glm::vec3& b,
                  const glm::vec3& c) {
    const glm::vec3 e1 = b - a, e2 = c - a;
    const glm::vec3 p = glm::cross(dir, e2);
    const float det = glm::dot(e1, p);
    if (std::abs(det) < 1e-9f)
        return -1.0f;
    const float inv = 1.0f / det;
    const glm::vec3 s = o - a;
    const float u = glm::dot(s, p) * inv;
    if (u < 0.0f || u > 1.0f)
        return -1.0f;
    const glm::vec3 q = glm::cross(s, e1);
    const float v = glm::dot(dir, q) * inv;
    if (v < 0.0f || u + v > 1.0f)
        return -1.0f;
    return glm::dot(e2, q) * inv;
}

} // namespace

std::optional<PortalHit> pickPortal(const content::PortalFile& prt, const glm::vec3& origin,
                                    const glm::vec3& dir_in, float max_distance) {
    const float len = glm::length(dir_in);
    if (!(len > 0.0f))
        return std::nullopt;
    const glm::vec3 dir = dir_in / len;
    std::optional<PortalHit> best;
    float best_t = max_distance;
    for (uint32_t i = 0; i < prt.portals.size(); ++i) {
        const content::Portal& p = prt.portals[i];
        if (p.num_points < 3 ||
            static_cast<uint64_t>(p.first_point) + p.num_points > prt.points.size())
            continue;
        const glm::vec3* w = prt.points.data() + p.first_point;
        for (uint32_t k = 1; k + 1 < p.num_points; ++k) {
            const float t = rayTriangle(origin, dir, w[0], w[k], w[k + 1]);
            if (t > 0.0f && t < best_t) {
                best_t = t;
                best = PortalHit{i, t, origin + dir * t};
            }
        }
    }
    return best;
}

namespace {

glm::u8vec4 leakColour(size_t i, size_t count) {
    const float t = count > 1 ? static_cast<float>(i) / static_cast<float>(count - 1) : 0.0f;
    return {255, static_cast<uint8_t>(40.0f + 200.0f * t), 0, 255};
}

// Two unit vectors across a segment's direction and across each other.
void acrossAxes(const glm::vec3& dir, glm::vec3& side, glm::vec3& lift) {
    side = glm::cross(dir, glm::vec3(0.0f, 0.0f, 1.0f));
    if (glm::length(side) < 1e-3f)
        side = glm::cross(dir, glm::vec3(1.0f, 0.0f, 0.0f));
    side = glm::normalize(side);
    lift = glm::normalize(glm::cross(side, dir));
}

} // namespace

void addLeakLine(TriangleList& ribbon, LineList& lines, const content::LeakLine& leak, float width,
                 int32_t current) {
    const std::vector<glm::vec3>& pts = leak.points;
    const float half = width * 0.5f;
    for (size_t i = 0; i + 1 < pts.size(); ++i) {
        const glm::vec3 a = pts[i], b = pts[i + 1];
        const float len = glm::length(b - a);
        const glm::u8vec4 ca = leakColour(i, pts.size()), cb = leakColour(i + 1, pts.size());
        lines.vertices.push_back({a, ca});
        lines.vertices.push_back({b, cb});
        if (len <= 0.0f)
            continue;
        glm::vec3 side, lift;
        acrossAxes((b - a) / len, side, lift);
        for (const glm::vec3& across : {side * half, lift * half}) {
            ribbon.vertices.push_back({a - across, ca});
            ribbon.vertices.push_back({a + across, ca});
            ribbon.vertices.push_back({b + across, cb});
            ribbon.vertices.push_back({a - across, ca});
            ribbon.vertices.push_back({b + across, cb});
            ribbon.vertices.push_back({b - across, cb});
        }
    }
    for (size_t s = 0; s < leak.stops.size(); ++s) {
        const uint32_t at = leak.stops[s];
        if (at >= pts.size())
            continue;
        const bool is_current = current >= 0 && s == static_cast<size_t>(current);
        const glm::vec3 r(is_current ? width * 3.0f : width * 1.5f);
        lines.addBox(pts[at] - r, pts[at] + r,
                     is_current ? glm::u8vec4(255, 255, 255, 255) : leakColour(at, pts.size()));
    }
}

std::optional<Camera> leakStopCamera(const content::LeakLine& leak, int32_t stop,
                                     const Camera& base) {
    if (leak.points.empty() || leak.stops.empty())
        return std::nullopt;
    const size_t s = static_cast<size_t>(
        std::clamp<int32_t>(stop, 0, static_cast<int32_t>(leak.stops.size()) - 1));
    const glm::vec3 here = leak.points[std::min<size_t>(leak.stops[s], leak.points.size() - 1)];
    // Look towards the next stop; at the last one, along the way the line arrived.
    glm::vec3 dir(1.0f, 0.0f, 0.0f);
    if (s + 1 < leak.stops.size())
        dir = leak.points[leak.stops[s + 1]] - here;
    else if (s > 0)
        dir = here - leak.points[leak.stops[s - 1]];
    if (glm::length(dir) > 0.0f)
        dir = glm::normalize(dir);
    else
        dir = glm::vec3(1.0f, 0.0f, 0.0f);
    Camera c = base;
    // Behind and above the stop, so the stop's marker and the line ahead are seen from the side
    // rather than end-on through the eye (the ribbon is only a few units wide).
    c.position = here - dir * 64.0f + glm::vec3(0.0f, 0.0f, 40.0f);
    const glm::vec3 look = glm::normalize(here + dir * 64.0f - c.position);
    c.yaw = glm::degrees(std::atan2(look.y, look.x));
    c.pitch = -glm::degrees(std::asin(std::clamp(look.z, -1.0f, 1.0f)));
    return c;
}

} // namespace scene
