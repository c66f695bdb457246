#include "bsp/overlays.h"

#include "bsp/dropped.h"
#include "bsp/lump_table.h"
#include "bsp/map.h"
#include "bsp/tree.h"
#include "core/byte_reader.h"
#include "core/error.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include <glm/geometric.hpp>

namespace bsp {

namespace {

constexpr const char* kLump = "overlays";

// The record at `at`, or the reason it is refused.
std::string readOverlay(const core::ByteReader& r, uint64_t at, Overlay& o) {
    o.id = r.i32(at);
    o.texinfo = r.get<int16_t>(at + 4);
    const uint16_t packed = r.u16(at + 6);
    const uint32_t count = packed & 0x3fffu;
    o.render_order = packed >> 14;
    if (count > kOverlayFaceSlots)
        return "face count " + std::to_string(count) + " beyond the " +
               std::to_string(kOverlayFaceSlots) + " slots";
    o.faces.resize(count);
    for (uint32_t k = 0; k < count; ++k)
        o.faces[k] = r.i32(at + 8 + 4 * uint64_t(k));
    const uint64_t tail = at + 8 + 4 * uint64_t(kOverlayFaceSlots);
    o.u = {r.f32(tail), r.f32(tail + 4)};
    o.v = {r.f32(tail + 8), r.f32(tail + 12)};
    std::array<glm::vec3, 4> points{};
    for (int k = 0; k < 4; ++k) {
        points[size_t(k)] = vec3At(r, tail + 16 + 12 * uint64_t(k));
        o.corners[size_t(k)] = {points[size_t(k)].x, points[size_t(k)].y};
    }
    o.origin = vec3At(r, tail + 64);
    o.basis_normal = vec3At(r, tail + 76);
    o.basis_u = {points[0].z, points[1].z, points[2].z};
    const float flip = points[3].z == 1.0f ? -1.0f : 1.0f;
    o.basis_v = flip * glm::cross(o.basis_normal, o.basis_u);
    bool ok = std::isfinite(o.u.x) && std::isfinite(o.u.y) && std::isfinite(o.v.x) &&
              std::isfinite(o.v.y) && finite(o.origin) && finite(o.basis_normal);
    for (const glm::vec3& p : points)
        ok = ok && finite(p);
    if (!ok)
        return "a number is not finite";
    // Far outside any map (Source's MAX_COORD_INTEGER is 16384; Strata's largest maps stay
    // well inside this): a quad that size would be clipped to a face with float rounding
    // larger than the face itself.
    constexpr float kFar = 262144.0f;
    const auto far = [&](glm::vec3 p) {
        return std::abs(p.x) > kFar || std::abs(p.y) > kFar || std::abs(p.z) > kFar;
    };
    bool out = far(o.origin);
    for (const glm::vec3& p : points)
        out = out || std::abs(p.x) > kFar || std::abs(p.y) > kFar;
    return out ? "a coordinate lies past +-262144 units" : std::string();
}

} // namespace

core::Result<std::vector<Overlay>> parseOverlays(std::span<const uint8_t> lump, int32_t version) {
    if (lump.empty())
        return std::vector<Overlay>{};
    if (version != 0)
        return core::makeError(core::ErrorCode::UnsupportedVersion, kLump, -1, "version",
                               "version " + std::to_string(version) +
                                   " (only 0, the Source SDK 2013's, is read)");
    if (lump.size() % kOverlayBytes != 0)
        return core::makeError(core::ErrorCode::LumpSize, kLump, -1, {},
                               std::to_string(lump.size()) + " bytes is not a whole number of " +
                                   std::to_string(kOverlayBytes) + "-byte records");
    const core::ByteReader r(lump);
    std::vector<Overlay> overlays(lump.size() / kOverlayBytes);
    for (size_t i = 0; i < overlays.size(); ++i)
        if (std::string why = readOverlay(r, i * kOverlayBytes, overlays[i]); !why.empty())
            return core::makeError(core::ErrorCode::BadValue, kLump, int64_t(i), {}, why);
    return overlays;
}

core::Status readOverlayFades(std::span<const uint8_t> lump, std::vector<Overlay>& overlays) {
    constexpr const char* kFades = "overlay_fades";
    if (lump.empty())
        return core::okStatus();
    if (lump.size() % kOverlayFadeBytes != 0)
        return core::makeError(core::ErrorCode::LumpSize, kFades, -1, {},
                               std::to_string(lump.size()) + " bytes is not a whole number of " +
                                   std::to_string(kOverlayFadeBytes) + "-byte records");
    const uint64_t count = lump.size() / kOverlayFadeBytes;
    if (count != overlays.size())
        return core::makeError(core::ErrorCode::LumpSize, kFades, -1, {},
                               std::to_string(count) + " records for " +
                                   std::to_string(overlays.size()) + " overlays");
    const core::ByteReader r(lump);
    for (uint64_t i = 0; i < count; ++i) {
        const float lo = r.f32(i * kOverlayFadeBytes), hi = r.f32(i * kOverlayFadeBytes + 4);
        if (!std::isfinite(lo) || !std::isfinite(hi))
            return core::makeError(core::ErrorCode::BadValue, kFades, int64_t(i),
                                   std::isfinite(lo) ? "flFadeDistMaxSq" : "flFadeDistMinSq",
                                   "a distance is not finite");
    }
    for (uint64_t i = 0; i < count; ++i) {
        overlays[i].fade_min_sq = r.f32(i * kOverlayFadeBytes);
        overlays[i].fade_max_sq = r.f32(i * kOverlayFadeBytes + 4);
    }
    return core::okStatus();
}

namespace {

float cross2(glm::vec2 a, glm::vec2 b) {
    return a.x * b.y - a.y * b.x;
}
double cross2(glm::dvec2 a, glm::dvec2 b) {
    return a.x * b.y - a.y * b.x;
}

// The overlay's frame: unit normal, unit U in its plane, V = cross(N, U) with the record's flip.
// In double precision, as the clip below: a quad may lie up to 262144 units from its origin,
// where a float's rounding (1/32 unit), divided by a grazing face's cosine on the way back to
// the face, would put a fragment's vertex units off its face.
struct Frame {
    glm::dvec3 origin, u, v, n;
};

std::optional<Frame> frameOf(const Overlay& o) {
    const glm::dvec3 basis_normal(o.basis_normal), basis_u(o.basis_u);
    const double nl = glm::length(basis_normal);
    if (!(nl > 1e-6))
        return std::nullopt;
    Frame f{glm::dvec3(o.origin), {}, {}, basis_normal / nl};
    const glm::dvec3 u = basis_u - f.n * glm::dot(basis_u, f.n);
    const double ul = glm::length(u);
    if (!(ul > 1e-6))
        return std::nullopt;
    f.u = u / ul;
    // basis_v carries the flip: cross(N, U) or its negation.
    const bool flip = glm::dot(o.basis_v, glm::cross(o.basis_normal, o.basis_u)) < 0.0f;
    f.v = glm::cross(f.n, f.u) * (flip ? -1.0 : 1.0);
    return f;
}

using Polygon2 = std::vector<glm::dvec2>;

// Sutherland-Hodgman: `poly` clipped to the inside of the convex quad `corners` (either
// winding). A cut point lies on its edge of `poly` by construction (a weight in [0, 1]).
Polygon2 clipToQuad(Polygon2 poly, const std::array<glm::vec2, 4>& corners) {
    std::array<glm::dvec2, 4> q;
    for (size_t k = 0; k < 4; ++k)
        q[k] = glm::dvec2(corners[k]);
    double area = 0.0;
    for (size_t k = 0; k < 4; ++k)
        area += cross2(q[k], q[(k + 1) % 4]);
    const double side = area < 0.0 ? -1.0 : 1.0;
    for (size_t k = 0; k < 4 && !poly.empty(); ++k) {
        const glm::dvec2 a = q[k], e = q[(k + 1) % 4] - a;
        const auto dist = [&](glm::dvec2 p) { return side * cross2(e, p - a); };
        Polygon2 out;
        for (size_t i = 0; i < poly.size(); ++i) {
            const glm::dvec2 p = poly[i], n = poly[(i + 1) % poly.size()];
            const double dp = dist(p), dn = dist(n);
            if (dp >= 0.0)
                out.push_back(p);
            if ((dp >= 0.0) != (dn >= 0.0))
                out.push_back(p + (n - p) * std::clamp(dp / (dp - dn), 0.0, 1.0));
        }
        poly = std::move(out);
    }
    return poly;
}

// (s, t) in the quad with p = c0 + s (c3 - c0) + t (c1 - c0) + s t (c0 - c1 + c2 - c3): s runs
// from the U0 edge to the U1 edge, t from V0 to V1 (Hammer's corner order).
glm::vec2 quadCoordinates(const std::array<glm::vec2, 4>& c, glm::vec2 p) {
    const glm::vec2 e = c[3] - c[0], f = c[1] - c[0], g = c[0] - c[1] + c[2] - c[3], h = p - c[0];
    const float k2 = cross2(g, f), k1 = cross2(e, f) + cross2(h, g), k0 = cross2(h, e);
    float t = 0.0f;
    if (std::abs(k2) <= 1e-6f * std::abs(cross2(e, f))) {
        t = k1 != 0.0f ? -k0 / k1 : 0.0f;
    } else {
        const float w = std::sqrt(std::max(0.0f, k1 * k1 - 4.0f * k0 * k2));
        t = (-k1 - w) / (2.0f * k2);
        if (t < -0.001f || t > 1.001f)
            t = (-k1 + w) / (2.0f * k2);
    }
    const glm::vec2 d = e + g * t, r = h - f * t;
    const bool by_x = std::abs(d.x) >= std::abs(d.y);
    const float den = by_x ? d.x : d.y;
    const float s = den != 0.0f ? (by_x ? r.x : r.y) / den : 0.0f;
    return {s, t};
}

// Barycentric weights of the face triangle (a, b, c) that give lightmap coordinates anywhere in
// its plane (the lightmap mapping is affine in the plane).
struct PlaneLerp {
    Vertex a, b, c;
    glm::vec3 n;
    float nn;
    glm::vec2 lm(const glm::vec3& p) const {
        const float wb = glm::dot(glm::cross(p - a.position, c.position - a.position), n) / nn;
        const float wc = glm::dot(glm::cross(b.position - a.position, p - a.position), n) / nn;
        return a.lm_uv * (1.0f - wb - wc) + b.lm_uv * wb + c.lm_uv * wc;
    }
};

// The face triangle of largest area, or none when every one is degenerate.
std::optional<PlaneLerp> planeLerpOf(const Map& map, const Face& face) {
    std::optional<PlaneLerp> best;
    for (uint32_t k = 0; k + 2 < face.num_indices; k += 3) {
        const Vertex& a = map.vertices[map.indices[face.first_index + k]];
        const Vertex& b = map.vertices[map.indices[face.first_index + k + 1]];
        const Vertex& c = map.vertices[map.indices[face.first_index + k + 2]];
        const glm::vec3 n = glm::cross(b.position - a.position, c.position - a.position);
        const float nn = glm::dot(n, n);
        if (nn > 1e-8f && (!best || nn > best->nn))
            best = PlaneLerp{a, b, c, n, nn};
    }
    return best;
}

// A plane of the face (its largest triangle's, or one triangle's), its normal turned to the face's
// front (the triangles wind either way): the fragment is lifted off the side the face is seen
// from. Null when the triangle is degenerate or edge-on to the overlay.
struct FacePlane {
    PlaneLerp lerp;
    glm::vec3 normal;
    float facing; // dot(normal, overlay normal)
};

std::optional<FacePlane> facePlane(const std::optional<PlaneLerp>& lerp, const Face& base,
                                   const Frame& fr) {
    if (!lerp)
        return std::nullopt;
    glm::vec3 fn = glm::normalize(lerp->n);
    if (glm::dot(fn, base.normal) < 0.0f)
        fn = -fn;
    const float facing = float(glm::dot(glm::dvec3(fn), fr.n));
    if (std::abs(facing) < 0.01f)
        return std::nullopt;
    return FacePlane{*lerp, fn, facing};
}

// Appends the part of triangle `k` (of `base`'s indices) inside the quad, put on `plane` along
// the overlay's normal and lifted along the plane's normal by the overlay's order.
void addClippedTriangle(Map& map, const Overlay& o, const Frame& fr, const Face& base, uint32_t k,
                        const FacePlane& plane) {
    const auto to2 = [&](glm::vec3 p) {
        const glm::dvec3 d = glm::dvec3(p) - fr.origin;
        return glm::dvec2(glm::dot(d, fr.u), glm::dot(d, fr.v));
    };
    Polygon2 tri;
    for (uint32_t j = 0; j < 3; ++j)
        tri.push_back(to2(map.vertices[map.indices[base.first_index + k + j]].position));
    const Polygon2 clipped = clipToQuad(std::move(tri), o.corners);
    if (clipped.size() < 3)
        return;
    const uint32_t first = uint32_t(map.vertices.size());
    const glm::dvec3 plane_normal(plane.normal), plane_point(plane.lerp.a.position);
    for (const glm::dvec2 p2 : clipped) {
        const glm::dvec3 q = fr.origin + fr.u * p2.x + fr.v * p2.y;
        const glm::vec3 on_face(
            q + fr.n * (glm::dot(plane_normal, plane_point - q) / double(plane.facing)));
        const glm::vec2 st = quadCoordinates(o.corners, glm::vec2(p2));
        Vertex v;
        v.position = on_face + plane.normal * overlayLift(o.render_order);
        v.uv = {o.u.x + (o.u.y - o.u.x) * st.x, o.v.x + (o.v.y - o.v.x) * st.y};
        v.lm_uv = plane.lerp.lm(on_face);
        v.normal = plane.normal;
        map.vertices.push_back(v);
    }
    for (uint32_t j = 1; j + 1 < clipped.size(); ++j)
        map.indices.insert(map.indices.end(), {first, first + j, first + j + 1});
}

// The triangle `k` of `face` as a plane of its own (a displacement's).
std::optional<PlaneLerp> trianglePlane(const Map& map, const Face& face, uint32_t k) {
    const Vertex& a = map.vertices[map.indices[face.first_index + k]];
    const Vertex& b = map.vertices[map.indices[face.first_index + k + 1]];
    const Vertex& c = map.vertices[map.indices[face.first_index + k + 2]];
    const glm::vec3 n = glm::cross(b.position - a.position, c.position - a.position);
    const float nn = glm::dot(n, n);
    if (!(nn > 1e-8f))
        return std::nullopt;
    return PlaneLerp{a, b, c, n, nn};
}

// One fragment: `face` clipped to `o`'s quad, appended to the map. A polygon is one plane (its
// largest triangle's); a displacement (FaceKind::Mesh) is clipped triangle by triangle, each
// put back on its own plane and lifted along its own normal. False when nothing of the face lies
// inside the quad or the face is edge-on to the overlay.
bool addFragment(Map& map, const Overlay& o, const Frame& fr, uint32_t face_index) {
    const Face base = map.faces[face_index];
    const bool per_triangle = base.kind == FaceKind::Mesh;
    std::optional<FacePlane> whole;
    if (!per_triangle && !(whole = facePlane(planeLerpOf(map, base), base, fr)))
        return false;
    Face frag = base;
    frag.kind = FaceKind::Polygon;
    frag.material = o.texinfo;
    frag.max_distance_sq = std::max(0.0f, o.fade_max_sq);
    frag.first_vertex = uint32_t(map.vertices.size());
    frag.first_index = uint32_t(map.indices.size());
    for (uint32_t k = 0; k + 2 < base.num_indices; k += 3) {
        const std::optional<FacePlane> own =
            per_triangle ? facePlane(trianglePlane(map, base, k), base, fr) : whole;
        if (own)
            addClippedTriangle(map, o, fr, base, k, *own);
    }
    frag.num_vertices = uint32_t(map.vertices.size()) - frag.first_vertex;
    frag.num_indices = uint32_t(map.indices.size()) - frag.first_index;
    if (frag.num_indices == 0)
        return false;
    map.faces.push_back(frag);
    return true;
}

// Adds each fragment to every leaf that lists its face.
void linkFragments(Map& map, const std::vector<std::pair<uint32_t, uint32_t>>& base_to_fragment) {
    std::vector<std::vector<uint32_t>> by_base(map.faces.size());
    for (const auto& [base, frag] : base_to_fragment)
        by_base[base].push_back(frag);
    std::vector<uint32_t> leaf_faces;
    leaf_faces.reserve(map.leaf_faces.size() + base_to_fragment.size());
    for (Leaf& leaf : map.leaves) {
        const uint32_t first = uint32_t(leaf_faces.size());
        for (uint32_t k = 0; k < leaf.num_leaf_faces; ++k) {
            const uint32_t f = map.leaf_faces[leaf.first_leaf_face + k];
            leaf_faces.push_back(f);
            if (f < by_base.size())
                leaf_faces.insert(leaf_faces.end(), by_base[f].begin(), by_base[f].end());
        }
        leaf.first_leaf_face = first;
        leaf.num_leaf_faces = uint32_t(leaf_faces.size()) - first;
    }
    map.leaf_faces = std::move(leaf_faces);
}

} // namespace

OverlayFaceStats buildOverlayFaces(Map& map, const std::vector<Overlay>& overlays,
                                   DroppedReferences& dropped) {
    OverlayFaceStats stats;
    const uint32_t map_faces = uint32_t(map.faces.size());
    // Fragments stand in leaves beside their faces: bound the references a hostile lump could
    // add as the tree's own leaf lists are bounded.
    const uint64_t cap = kLeafFaceRefFactor * map.leaf_faces.size() + kLeafFaceRefSlack;
    uint64_t refs = 0;
    std::vector<uint32_t> leaf_count(map_faces, 0);
    for (uint32_t f : map.leaf_faces)
        if (f < map_faces)
            ++leaf_count[f];
    std::vector<std::pair<uint32_t, uint32_t>> base_to_fragment;
    // Fragments follow in render order (lump order within one), so that blended ones of a later
    // order draw after (over) the earlier ones; the lift does it for the depth-tested ones.
    std::vector<size_t> sequence(overlays.size());
    for (size_t i = 0; i < sequence.size(); ++i)
        sequence[i] = i;
    std::stable_sort(sequence.begin(), sequence.end(), [&](size_t a, size_t b) {
        return overlays[a].render_order < overlays[b].render_order;
    });
    for (const size_t i : sequence) {
        const Overlay& o = overlays[i];
        if (o.texinfo < 0 || size_t(o.texinfo) >= map.materials.size()) {
            dropped.add(indexError(kLump, int64_t(i), "nTexInfo", o.texinfo, map.materials.size(),
                                   "texinfos"),
                        "overlay not drawn");
            continue;
        }
        const auto frame = frameOf(o);
        if (!frame) {
            dropped.add(core::makeError(core::ErrorCode::BadValue, kLump, int64_t(i),
                                        "vecBasisNormal", "a zero or edge-on basis"),
                        "overlay not drawn");
            continue;
        }
        for (size_t k = 0; k < o.faces.size(); ++k) {
            const int32_t f = o.faces[k];
            if (f < 0 || uint32_t(f) >= map_faces) {
                dropped.add(indexError(kLump, int64_t(i), "aFaces[" + std::to_string(k) + "]", f,
                                       map_faces, "faces"),
                            "the overlay left off that face");
                continue;
            }
            // A face of a brush entity's model is cut as a world face is, in the coordinates the
            // face is stored in; the fragment keeps the face's submodel and so is drawn with that
            // model's placement (vbsp lists such faces: EmitFace, utils/vbsp/writebsp.cpp, calls
            // Overlay_AddFaceToLists for every model's faces, world and entities alike).
            const FaceKind kind = map.faces[size_t(f)].kind; // addFragment grows map.faces
            if (kind != FaceKind::Polygon && kind != FaceKind::Mesh) {
                ++stats.not_polygons;
                continue;
            }
            refs += leaf_count[size_t(f)];
            if (refs > cap) {
                dropped.add(core::makeError(core::ErrorCode::LimitExceeded, kLump, int64_t(i), {},
                                            "overlays reach more than " + std::to_string(cap) +
                                                " leaf references"),
                            "this and later overlays not drawn");
                linkFragments(map, base_to_fragment);
                return stats;
            }
            if (!addFragment(map, o, *frame, uint32_t(f))) {
                ++stats.missed;
                continue;
            }
            base_to_fragment.emplace_back(uint32_t(f), uint32_t(map.faces.size() - 1));
            ++stats.fragments;
            if (kind == FaceKind::Mesh)
                ++stats.on_displacements;
        }
    }
    if (!base_to_fragment.empty())
        linkFragments(map, base_to_fragment);
    return stats;
}

} // namespace bsp
