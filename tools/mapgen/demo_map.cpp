#include "demo_map.h"

#include "demo_textures.h"
#include "lightmap_packer.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <charconv>
#include <cmath>
#include <functional>
#include <map>
#include <numbers>

#include <glm/geometric.hpp>
#include <glm/vec2.hpp>

namespace mapgen {

namespace {

using core::ErrorCode;

// In-plane axes of an axis-aligned face whose normal lies along axis: (u, v).
constexpr std::array<int, 3> kAxisU = {1, 0, 0};
constexpr std::array<int, 3> kAxisV = {2, 2, 1};

struct Box {
    glm::vec3 mins{0.0f};
    glm::vec3 maxs{0.0f};
};

struct Rect2 {
    float u0 = 0, u1 = 0, v0 = 0, v1 = 0;
};

glm::vec3 axisVector(int axis, float scale = 1.0f) {
    glm::vec3 v(0.0f);
    v[axis] = scale;
    return v;
}

core::Error layoutError(std::string what, int64_t index, std::string detail) {
    return core::makeError(ErrorCode::BadArgument, "layout." + what, index, {}, std::move(detail));
}

// Shortest round-trip text for a float (locale-independent).
std::string num(float v) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof(buf), v);
    return std::string(buf, r.ptr);
}

std::string vecText(const glm::vec3& v) {
    return num(v.x) + " " + num(v.y) + " " + num(v.z);
}

bool insideClosed(const glm::vec3& p, const Box& b) {
    for (int a = 0; a < 3; ++a)
        if (p[a] < b.mins[a] || p[a] > b.maxs[a])
            return false;
    return true;
}

int32_t spaceContaining(const std::vector<DemoSpace>& spaces, const glm::vec3& p) {
    for (size_t i = 0; i < spaces.size(); ++i)
        if (insideClosed(p, {spaces[i].mins, spaces[i].maxs}))
            return static_cast<int32_t>(i);
    return -1;
}

// ------------------------------------------------------------------------- layout checks

// The axis along which a corridor touches its rooms, or -1.
int corridorAxis(const std::vector<DemoSpace>& spaces, const DemoSpace& c) {
    for (int a = 0; a < 2; ++a) {
        bool ok = true;
        bool ends[2] = {false, false};
        for (int32_t r : c.rooms) {
            const DemoSpace& room = spaces[static_cast<size_t>(r)];
            const bool at_min = c.mins[a] == room.maxs[a];
            const bool at_max = c.maxs[a] == room.mins[a];
            ok = ok && (at_min || at_max);
            ends[at_min ? 0 : 1] = true;
            for (int k = 0; k < 3; ++k)
                if (k != a && (c.mins[k] < room.mins[k] || c.maxs[k] > room.maxs[k]))
                    ok = false;
        }
        if (ok && ends[0] && ends[1])
            return a;
    }
    return -1;
}

core::Status checkLayout(const DemoLayout& layout) {
    const auto& sp = layout.spaces;
    if (sp.empty())
        return layoutError("spaces", -1, "no spaces");
    for (size_t i = 0; i < sp.size(); ++i) {
        const DemoSpace& s = sp[i];
        for (int a = 0; a < 3; ++a)
            if (!(s.mins[a] < s.maxs[a]))
                return layoutError("spaces", static_cast<int64_t>(i), "empty box");
        for (size_t j = 0; j < i; ++j) {
            bool overlap = true;
            for (int a = 0; a < 3; ++a)
                overlap = overlap && s.mins[a] < sp[j].maxs[a] && sp[j].mins[a] < s.maxs[a];
            if (overlap)
                return layoutError("spaces", static_cast<int64_t>(i),
                                   "overlaps space " + std::to_string(j));
        }
        if (!s.corridor) {
            if (s.vaulted)
                return layoutError("spaces", static_cast<int64_t>(i), "only corridors vault");
            continue;
        }
        for (int32_t r : s.rooms)
            if (r < 0 || r >= static_cast<int32_t>(sp.size()) ||
                sp[static_cast<size_t>(r)].corridor)
                return layoutError("spaces", static_cast<int64_t>(i), "rooms must be rooms");
        if (s.rooms[0] == s.rooms[1] || corridorAxis(sp, s) < 0)
            return layoutError("spaces", static_cast<int64_t>(i),
                               "corridor does not join two room walls end to end");
        if (s.vaulted) {
            const int b = 1 - corridorAxis(sp, s);
            const float radius = (s.maxs[b] - s.mins[b]) * 0.5f;
            if (!(s.wall_top > s.mins.z) || s.wall_top + radius != s.maxs.z)
                return layoutError("spaces", static_cast<int64_t>(i),
                                   "vault: maxs.z must be wall_top + width / 2");
        }
    }
    for (size_t i = 0; i < layout.lights.size(); ++i)
        if (spaceContaining(sp, layout.lights[i].origin) < 0)
            return layoutError("lights", static_cast<int64_t>(i), "outside every space");
    for (size_t i = 0; i < layout.spawns.size(); ++i)
        if (spaceContaining(sp, layout.spawns[i].origin) < 0)
            return layoutError("spawns", static_cast<int64_t>(i), "outside every space");
    return core::okStatus();
}

// ------------------------------------------------------------------------------ surfaces

// A face before lighting: geometry, texture mapping and its lightmap parametrisation.
struct Surface {
    int32_t space = -1;
    int32_t texture = 0;
    bool patch = false;
    glm::vec3 normal{0.0f}; // polygons; patches store 0 as q3map2 does
    std::vector<glm::vec3> positions;
    std::vector<glm::vec3> normals;
    std::vector<glm::vec2> uvs;
    std::vector<glm::vec2> lm_local; // texel coordinates inside the block, 0..size-1
    std::vector<int32_t> indices;    // polygons: triangles, relative to the first vertex
    int32_t patch_w = 0, patch_h = 0;
    int32_t lm_w = 0, lm_h = 0;
    glm::vec3 lm_origin{0.0f};
    std::array<glm::vec3, 2> lm_vecs{};
    // World position and normal of lightmap texel (i, j).
    std::function<void(int32_t, int32_t, glm::dvec3&, glm::dvec3&)> sample;
};

glm::vec2 planarUv(const glm::vec3& p, const glm::vec3& n, float repeat) {
    if (n.z != 0.0f)
        return {p.x / repeat, -p.y / repeat};
    // s runs to the viewer's right when facing the wall, t downwards, so nothing is mirrored.
    const glm::vec3 right = glm::cross(glm::vec3(0, 0, 1), n);
    return {glm::dot(p, right) / repeat, -p.z / repeat};
}

int32_t blockSize(double length, double luxel) {
    return static_cast<int32_t>(std::ceil(length / luxel)) + 1;
}

// An axis-aligned rectangle on plane p[axis] == plane, front towards sign * axis.
Surface makeRect(int32_t space, int32_t texture, int axis, float plane, int sign, const Rect2& r,
                 const DemoMapOptions& o) {
    Surface s;
    s.space = space;
    s.texture = texture;
    s.normal = axisVector(axis, static_cast<float>(sign));
    const int u = kAxisU[static_cast<size_t>(axis)], v = kAxisV[static_cast<size_t>(axis)];
    auto point = [=](float pu, float pv) {
        glm::vec3 p(0.0f);
        p[axis] = plane;
        p[u] = pu;
        p[v] = pv;
        return p;
    };
    const std::array<glm::vec2, 4> corners = {glm::vec2(r.u0, r.v0), glm::vec2(r.u1, r.v0),
                                              glm::vec2(r.u1, r.v1), glm::vec2(r.u0, r.v1)};
    const float luxel = o.luxel_size;
    for (const glm::vec2& c : corners) {
        const glm::vec3 p = point(c.x, c.y);
        s.positions.push_back(p);
        s.normals.push_back(s.normal);
        s.uvs.push_back(planarUv(p, s.normal, o.texture_repeat));
        s.lm_local.push_back({(c.x - r.u0) / luxel, (c.y - r.v0) / luxel});
    }
    // cross(e_u, e_v) is +x, -y, +z for axis 0, 1, 2. Quake 3 wants triangles clockwise seen
    // from the front, so the corner order (0, 1, 2) is kept only when it is clockwise.
    const int handed = axis == 1 ? -1 : 1;
    if (handed * sign < 0)
        s.indices = {0, 1, 2, 0, 2, 3};
    else
        s.indices = {0, 2, 1, 0, 3, 2};
    s.lm_w = blockSize(double{r.u1} - r.u0, luxel);
    s.lm_h = blockSize(double{r.v1} - r.v0, luxel);
    s.lm_origin = point(r.u0, r.v0);
    s.lm_vecs = {axisVector(u, luxel), axisVector(v, luxel)};
    const glm::dvec3 n(s.normal);
    s.sample = [=](int32_t i, int32_t j, glm::dvec3& pos, glm::dvec3& nrm) {
        const double pu = std::min(double{r.u0} + double{luxel} * i, double{r.u1});
        const double pv = std::min(double{r.v0} + double{luxel} * j, double{r.v1});
        pos = glm::dvec3(0.0);
        pos[axis] = plane;
        pos[u] = pu;
        pos[v] = pv;
        nrm = n;
    };
    return s;
}

// Rectangle minus holes, as rectangles: vertical strips at every hole edge, each strip split
// around the holes that cover it.
std::vector<Rect2> subtractHoles(const Rect2& wall, const std::vector<Rect2>& holes) {
    std::vector<float> us = {wall.u0, wall.u1};
    for (const Rect2& h : holes) {
        us.push_back(std::clamp(h.u0, wall.u0, wall.u1));
        us.push_back(std::clamp(h.u1, wall.u0, wall.u1));
    }
    std::sort(us.begin(), us.end());
    us.erase(std::unique(us.begin(), us.end()), us.end());
    std::vector<Rect2> out;
    for (size_t k = 0; k + 1 < us.size(); ++k) {
        std::vector<std::pair<float, float>> covered;
        for (const Rect2& h : holes)
            if (h.u0 <= us[k] && h.u1 >= us[k + 1])
                covered.push_back({h.v0, h.v1});
        std::sort(covered.begin(), covered.end());
        float v = wall.v0;
        for (const auto& [c0, c1] : covered) {
            if (c0 > v)
                out.push_back({us[k], us[k + 1], v, std::min(c0, wall.v1)});
            v = std::max(v, c1);
        }
        if (v < wall.v1)
            out.push_back({us[k], us[k + 1], v, wall.v1});
    }
    return out;
}

// Biquadratic Bezier patch made of (w-1)/2 x (h-1)/2 pieces, evaluated at s, t in [0, 1].
glm::dvec3 evalPatch(const std::vector<glm::vec3>& grid, int32_t w, int32_t h, double s, double t) {
    auto piece = [](double x, int32_t n, int32_t& k, double& f) {
        const int32_t pieces = (n - 1) / 2;
        const double p = x * pieces;
        k = std::clamp(static_cast<int32_t>(p), 0, pieces - 1);
        f = p - k;
    };
    int32_t ks = 0, kt = 0;
    double fs = 0, ft = 0;
    piece(s, w, ks, fs);
    piece(t, h, kt, ft);
    const double bs[3] = {(1 - fs) * (1 - fs), 2 * fs * (1 - fs), fs * fs};
    const double bt[3] = {(1 - ft) * (1 - ft), 2 * ft * (1 - ft), ft * ft};
    glm::dvec3 p(0.0);
    for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 3; ++i)
            p += glm::dvec3(grid[static_cast<size_t>((2 * kt + j) * w + 2 * ks + i)]) *
                 (bs[i] * bt[j]);
    return p;
}

double polylineLength(const std::vector<glm::vec3>& grid, int32_t w, int32_t h, bool along_s,
                      int32_t line) {
    double len = 0;
    const int32_t n = along_s ? w : h;
    for (int32_t k = 0; k + 1 < n; ++k) {
        const size_t a = static_cast<size_t>(along_s ? line * w + k : k * w + line);
        const size_t b = static_cast<size_t>(along_s ? line * w + k + 1 : (k + 1) * w + line);
        len += glm::length(glm::dvec3(grid[b]) - glm::dvec3(grid[a]));
    }
    return len;
}

// A patch surface from a control grid (row by row, w wide). Columns are mirrored when needed
// so that the front (cross(d/ds, d/dt), as Quake 3 orients patches) faces `front`.
// normal_at gives the vertex normal for a position on the surface.
Surface makePatch(int32_t space, int32_t texture, std::vector<glm::vec3> grid, int32_t w, int32_t h,
                  const glm::vec3& front,
                  const std::function<glm::dvec3(const glm::dvec3&)>& normal_at,
                  const std::function<glm::vec2(const glm::vec3&, int32_t, int32_t)>& uv_at,
                  const DemoMapOptions& o) {
    // Sum the surface's own orientation over a grid of samples. The control net is no guide:
    // for the wall above an arch its quads turn both ways while the surface does not.
    glm::dvec3 area(0.0);
    constexpr double kStep = 1.0 / 8.0, kDelta = 1.0 / 1024.0;
    for (double t = kStep / 2; t < 1.0; t += kStep) {
        for (double u = kStep / 2; u < 1.0; u += kStep) {
            const glm::dvec3 ds =
                evalPatch(grid, w, h, u + kDelta, t) - evalPatch(grid, w, h, u - kDelta, t);
            const glm::dvec3 dt =
                evalPatch(grid, w, h, u, t + kDelta) - evalPatch(grid, w, h, u, t - kDelta);
            area += glm::cross(ds, dt);
        }
    }
    if (glm::dot(area, glm::dvec3(front)) < 0)
        for (int32_t j = 0; j < h; ++j)
            std::reverse(grid.begin() + j * w, grid.begin() + (j + 1) * w);

    Surface s;
    s.space = space;
    s.texture = texture;
    s.patch = true;
    s.patch_w = w;
    s.patch_h = h;
    double len_s = 0, len_t = 0;
    for (int32_t j = 0; j < h; ++j)
        len_s = std::max(len_s, polylineLength(grid, w, h, true, j));
    for (int32_t i = 0; i < w; ++i)
        len_t = std::max(len_t, polylineLength(grid, w, h, false, i));
    s.lm_w = blockSize(len_s, o.luxel_size);
    s.lm_h = blockSize(len_t, o.luxel_size);
    glm::vec3 mins = grid[0], maxs = grid[0];
    for (int32_t j = 0; j < h; ++j) {
        for (int32_t i = 0; i < w; ++i) {
            const glm::vec3 p = grid[static_cast<size_t>(j * w + i)];
            mins = glm::min(mins, p);
            maxs = glm::max(maxs, p);
            s.positions.push_back(p);
            s.normals.push_back(glm::vec3(normal_at(glm::dvec3(p))));
            s.uvs.push_back(uv_at(p, i, j));
            s.lm_local.push_back(
                {static_cast<float>(i) / static_cast<float>(w - 1) * static_cast<float>(s.lm_w - 1),
                 static_cast<float>(j) / static_cast<float>(h - 1) *
                     static_cast<float>(s.lm_h - 1)});
        }
    }
    s.lm_vecs = {mins, maxs}; // patches keep their bounds here (ioquake3 ParseMesh)
    const int32_t lw = s.lm_w, lh = s.lm_h;
    s.sample = [grid, w, h, lw, lh, normal_at](int32_t i, int32_t j, glm::dvec3& pos,
                                               glm::dvec3& nrm) {
        const double ps = lw > 1 ? static_cast<double>(i) / (lw - 1) : 0.0;
        const double pt = lh > 1 ? static_cast<double>(j) / (lh - 1) : 0.0;
        pos = evalPatch(grid, w, h, ps, pt);
        nrm = normal_at(pos);
    };
    return s;
}

struct TextureIds {
    std::map<std::string, int32_t, std::less<>> by_name;
    int32_t get(std::string_view name) const {
        const auto it = by_name.find(name);
        return it == by_name.end() ? -1 : it->second;
    }
};

// The arch of a vaulted corridor in its cross-section: (c, z) control points of two
// quadratic pieces approximating a half circle from c0 to c1 springing at wall_top.
std::array<glm::vec2, 5> archCurve(float c0, float c1, float wall_top) {
    const float r = (c1 - c0) * 0.5f, cm = c0 + r;
    return {glm::vec2(c0, wall_top), glm::vec2(c0, wall_top + r), glm::vec2(cm, wall_top + r),
            glm::vec2(c1, wall_top + r), glm::vec2(c1, wall_top)};
}

glm::vec3 crossPoint(int a, float pa, int b, float pb, float z) {
    glm::vec3 p(0.0f);
    p[a] = pa;
    p[b] = pb;
    p.z = z;
    return p;
}

void addRoomSurfaces(const std::vector<DemoSpace>& spaces, int32_t index, const TextureIds& tex,
                     const DemoMapOptions& o, std::vector<Surface>& out) {
    const DemoSpace& room = spaces[static_cast<size_t>(index)];
    // floor, ceiling, then walls -x, +x, -y, +y
    const std::array<std::pair<int, int>, 6> sides = {std::pair{2, 0}, std::pair{2, 1},
                                                      std::pair{0, 0}, std::pair{0, 1},
                                                      std::pair{1, 0}, std::pair{1, 1}};
    for (const auto& [axis, side] : sides) {
        const int u = kAxisU[static_cast<size_t>(axis)], v = kAxisV[static_cast<size_t>(axis)];
        const float plane = side ? room.maxs[axis] : room.mins[axis];
        std::vector<Rect2> holes;
        for (const DemoSpace& c : spaces) {
            if (!c.corridor || (c.rooms[0] != index && c.rooms[1] != index))
                continue;
            if ((side && c.mins[axis] == plane) || (!side && c.maxs[axis] == plane))
                holes.push_back({c.mins[u], c.maxs[u], c.mins[v], c.maxs[v]});
        }
        const char* name = axis == 2
                               ? (side ? room.ceiling_texture.c_str() : room.floor_texture.c_str())
                               : room.wall_texture.c_str();
        const Rect2 wall = {room.mins[u], room.maxs[u], room.mins[v], room.maxs[v]};
        for (const Rect2& r : subtractHoles(wall, holes))
            out.push_back(makeRect(index, tex.get(name), axis, plane, side ? -1 : 1, r, o));
    }
    // Vaulted corridors leave a rectangular hole; flat patches close it above the arch.
    for (const DemoSpace& c : spaces) {
        if (!c.corridor || !c.vaulted || (c.rooms[0] != index && c.rooms[1] != index))
            continue;
        const int a = corridorAxis(spaces, c), b = 1 - a;
        const bool room_beyond_max = c.maxs[a] == room.mins[a];
        const float plane = room_beyond_max ? c.maxs[a] : c.mins[a];
        const std::array<glm::vec2, 5> curve = archCurve(c.mins[b], c.maxs[b], c.wall_top);
        const float top = c.maxs.z, quarter = (c.maxs[b] - c.mins[b]) * 0.25f;
        std::vector<glm::vec3> grid;
        for (int row = 0; row < 3; ++row) {
            for (int i = 0; i < 5; ++i) {
                const glm::vec2 lo = curve[static_cast<size_t>(i)];
                const glm::vec2 hi(c.mins[b] + quarter * static_cast<float>(i), top);
                const glm::vec2 q = row == 0 ? lo : row == 2 ? hi : (lo + hi) * 0.5f;
                grid.push_back(crossPoint(a, plane, b, q.x, q.y));
            }
        }
        const glm::vec3 n = axisVector(a, room_beyond_max ? 1.0f : -1.0f);
        const float repeat = o.texture_repeat;
        out.push_back(makePatch(
            index, tex.get(room.wall_texture), std::move(grid), 5, 3, n,
            [n](const glm::dvec3&) { return glm::dvec3(n); },
            [n, repeat](const glm::vec3& p, int32_t, int32_t) { return planarUv(p, n, repeat); },
            o));
    }
}

void addCorridorSurfaces(const std::vector<DemoSpace>& spaces, int32_t index, const TextureIds& tex,
                         const DemoMapOptions& o, std::vector<Surface>& out) {
    const DemoSpace& c = spaces[static_cast<size_t>(index)];
    const int a = corridorAxis(spaces, c), b = 1 - a;
    const int32_t wall = tex.get(c.wall_texture);
    out.push_back(makeRect(index, tex.get(c.floor_texture), 2, c.mins.z, 1,
                           {c.mins.x, c.maxs.x, c.mins.y, c.maxs.y}, o));
    if (!c.vaulted)
        out.push_back(makeRect(index, tex.get(c.ceiling_texture), 2, c.maxs.z, -1,
                               {c.mins.x, c.maxs.x, c.mins.y, c.maxs.y}, o));
    const float wall_top = c.vaulted ? c.wall_top : c.maxs.z;
    // Side walls lie on planes of axis b; their in-plane u axis is a (both are horizontal).
    out.push_back(
        makeRect(index, wall, b, c.mins[b], 1, {c.mins[a], c.maxs[a], c.mins.z, wall_top}, o));
    out.push_back(
        makeRect(index, wall, b, c.maxs[b], -1, {c.mins[a], c.maxs[a], c.mins.z, wall_top}, o));
    if (!c.vaulted)
        return;
    const std::array<glm::vec2, 5> curve = archCurve(c.mins[b], c.maxs[b], c.wall_top);
    const float along[3] = {c.mins[a], (c.mins[a] + c.maxs[a]) * 0.5f, c.maxs[a]};
    std::vector<glm::vec3> grid;
    for (float pa : along)
        for (const glm::vec2& q : curve)
            grid.push_back(crossPoint(a, pa, b, q.x, q.y));
    const double axis_c = (double{c.mins[b]} + c.maxs[b]) * 0.5, axis_z = c.wall_top;
    const float repeat = o.texture_repeat;
    const float arc = (c.maxs[b] - c.mins[b]) * 0.5f * std::numbers::pi_v<float>;
    out.push_back(makePatch(
        index, tex.get("trim"), std::move(grid), 5, 3, glm::vec3(0, 0, -1),
        [b, axis_c, axis_z](const glm::dvec3& p) {
            // Towards the arch's axis: the cylinder's inward normal.
            glm::dvec3 n(0.0);
            n[b] = axis_c - p[b];
            n.z = axis_z - p.z;
            const double len = glm::length(n);
            return len > 0 ? n / len : glm::dvec3(0, 0, -1);
        },
        [a, arc, repeat](const glm::vec3& p, int32_t i, int32_t) {
            return glm::vec2(static_cast<float>(i) / 4.0f * arc / repeat, p[a] / repeat);
        },
        o));
}

// ------------------------------------------------------------------------------ lighting

// Distance at which a light's strength has halved (before the Lambert term).
constexpr double kFalloff = 384.0;

struct Lighting {
    const std::vector<DemoLight>* lights = nullptr;
    std::vector<std::vector<uint8_t>> reaches; // [light][space]
    double ambient = 0;

    glm::dvec3 at(const glm::dvec3& p, const glm::dvec3& n, int32_t space) const {
        glm::dvec3 c(ambient);
        for (size_t l = 0; l < lights->size(); ++l) {
            const DemoLight& light = (*lights)[l];
            if (space < 0 || !reaches[l][static_cast<size_t>(space)])
                continue;
            const glm::dvec3 d = glm::dvec3(light.origin) - p;
            const double dist = std::max(glm::length(d), 1.0);
            const double lambert = glm::dot(n, d) / dist;
            if (lambert <= 0)
                continue;
            c += glm::dvec3(light.colour) * (scale(light, dist) * lambert);
        }
        return c;
    }
    static double scale(const DemoLight& light, double dist) {
        const double k = dist / kFalloff;
        return double{light.intensity} / 300.0 / (1.0 + k * k);
    }
};

// Light level (1 = full texture brightness) to a stored byte at half intensity.
uint8_t storeLight(double v) {
    return static_cast<uint8_t>(std::clamp(std::lround(v * 127.5), 0L, 255L));
}

std::array<uint8_t, 3> storeColour(const glm::dvec3& c) {
    return {storeLight(c.x), storeLight(c.y), storeLight(c.z)};
}

// ------------------------------------------------------------------------------ BSP tree

struct TreeBuilder {
    const std::vector<DemoSpace>& spaces;
    const std::vector<Surface>& surfaces;
    Q3MapDesc& d;
    std::map<std::pair<int, float>, int32_t> plane_ids;
    int32_t brush_texture = 0;

    struct Item {
        int32_t space;
        Box box; // the part of the space inside the current region
    };

    // Index of the plane with normal +axis at value; its -axis twin follows it (q3map2
    // stores planes in such pairs, brush sides pick the outward one).
    int32_t plane(int axis, float value) {
        const auto key = std::pair{axis, value};
        if (const auto it = plane_ids.find(key); it != plane_ids.end())
            return it->second;
        const int32_t id = static_cast<int32_t>(d.planes.size());
        d.planes.push_back({axisVector(axis), value});
        d.planes.push_back({axisVector(axis, -1.0f), -value});
        plane_ids.emplace(key, id);
        return id;
    }

    static glm::ivec3 ivec(const glm::vec3& v) {
        return {static_cast<int32_t>(std::floor(v.x)), static_cast<int32_t>(std::floor(v.y)),
                static_cast<int32_t>(std::floor(v.z))};
    }

    int32_t leaf(const Box& region, const std::vector<Item>& items) {
        Q3Leaf l;
        l.mins = ivec(region.mins);
        l.maxs = ivec(region.maxs);
        const int32_t id = static_cast<int32_t>(d.leaves.size());
        l.first_leaf_face = static_cast<int32_t>(d.leaf_faces.size());
        l.first_leaf_brush = static_cast<int32_t>(d.leaf_brushes.size());
        if (items.empty()) {
            // Solid: one box brush filling the leaf, sides -x +x -y +y -z +z.
            const int32_t brush = static_cast<int32_t>(d.brushes.size());
            d.brushes.push_back({static_cast<int32_t>(d.brush_sides.size()), 6, brush_texture});
            for (int a = 0; a < 3; ++a) {
                d.brush_sides.push_back({plane(a, region.mins[a]) + 1, brush_texture});
                d.brush_sides.push_back({plane(a, region.maxs[a]), brush_texture});
            }
            d.leaf_brushes.push_back(brush);
            l.num_leaf_brushes = 1;
        } else {
            const int32_t s = items[0].space;
            l.cluster = spaces[static_cast<size_t>(s)].cluster;
            l.area = 0;
            for (size_t f = 0; f < surfaces.size(); ++f)
                if (surfaces[f].space == s && touches(surfaces[f], region))
                    d.leaf_faces.push_back(static_cast<int32_t>(f));
            l.num_leaf_faces = static_cast<int32_t>(d.leaf_faces.size()) - l.first_leaf_face;
        }
        d.leaves.push_back(l);
        return id;
    }

    // True when the surface's bounds meet the region with positive extent on two axes.
    static bool touches(const Surface& s, const Box& region) {
        glm::vec3 mins = s.positions[0], maxs = s.positions[0];
        for (const glm::vec3& p : s.positions) {
            mins = glm::min(mins, p);
            maxs = glm::max(maxs, p);
        }
        int positive = 0;
        for (int a = 0; a < 3; ++a) {
            const float lo = std::max(mins[a], region.mins[a]);
            const float hi = std::min(maxs[a], region.maxs[a]);
            if (lo > hi)
                return false;
            positive += lo < hi;
        }
        return positive >= 2;
    }

    // Builds the subtree for region; returns a node index or -(leaf + 1).
    int32_t build(const Box& region, const std::vector<Item>& items) {
        if (items.empty())
            return -1 - leaf(region, items);
        if (items.size() == 1 && items[0].box.mins == region.mins &&
            items[0].box.maxs == region.maxs)
            return -1 - leaf(region, items);
        // Candidate planes: item box faces strictly inside the region. Prefer planes that
        // cut no box, then balanced splits, then the lowest axis and value (deterministic).
        int best_axis = -1;
        float best_value = 0;
        std::tuple<int, int, int, float> best_key{};
        for (const Item& it : items) {
            for (int a = 0; a < 3; ++a) {
                for (float value : {it.box.mins[a], it.box.maxs[a]}) {
                    if (!(value > region.mins[a] && value < region.maxs[a]))
                        continue;
                    int cuts = 0, front = 0, back = 0;
                    for (const Item& o : items) {
                        if (o.box.mins[a] >= value)
                            ++front;
                        else if (o.box.maxs[a] <= value)
                            ++back;
                        else
                            ++cuts;
                    }
                    const std::tuple<int, int, int, float> key{cuts, std::abs(front - back), a,
                                                               value};
                    if (best_axis < 0 || key < best_key) {
                        best_key = key;
                        best_axis = a;
                        best_value = value;
                    }
                }
            }
        }
        if (best_axis < 0) // boxes that fill the region exactly: cannot happen for disjoint ones
            return -1 - leaf(region, {items[0]});
        const int32_t id = static_cast<int32_t>(d.nodes.size());
        d.nodes.emplace_back();
        Box front_region = region, back_region = region;
        front_region.mins[best_axis] = best_value;
        back_region.maxs[best_axis] = best_value;
        std::vector<Item> front_items, back_items;
        for (const Item& it : items) {
            if (it.box.maxs[best_axis] > best_value) {
                Item f = it;
                f.box.mins[best_axis] = std::max(f.box.mins[best_axis], best_value);
                front_items.push_back(f);
            }
            if (it.box.mins[best_axis] < best_value) {
                Item b = it;
                b.box.maxs[best_axis] = std::min(b.box.maxs[best_axis], best_value);
                back_items.push_back(b);
            }
        }
        Q3Node node;
        node.plane = plane(best_axis, best_value);
        node.mins = ivec(region.mins);
        node.maxs = ivec(region.maxs);
        node.children[0] = build(front_region, front_items);
        node.children[1] = build(back_region, back_items);
        d.nodes[static_cast<size_t>(id)] = node;
        return id;
    }
};

// ------------------------------------------------------------------------------ entities

std::string entityText(const DemoLayout& layout) {
    std::string s = "{\n\"classname\" \"worldspawn\"\n";
    if (!layout.message.empty())
        s += "\"message\" \"" + layout.message + "\"\n";
    s += "}\n";
    for (const DemoSpawn& sp : layout.spawns) {
        s += "{\n\"classname\" \"" + sp.classname + "\"\n";
        s += "\"origin\" \"" + vecText(sp.origin) + "\"\n";
        if (sp.pitch != 0.0f || sp.classname == "info_player_intermission")
            s += "\"angles\" \"" + num(sp.pitch) + " " + num(sp.yaw) + " 0\"\n";
        else
            s += "\"angle\" \"" + num(sp.yaw) + "\"\n";
        s += "}\n";
    }
    for (const DemoLight& l : layout.lights) {
        s += "{\n\"classname\" \"light\"\n";
        s += "\"origin\" \"" + vecText(l.origin) + "\"\n";
        s += "\"light\" \"" + num(l.intensity) + "\"\n";
        s += "\"_color\" \"" + vecText(l.colour) + "\"\n";
        s += "}\n";
    }
    return s;
}

// Graph distance between spaces (corridor - room edges), -1 when unreachable.
std::vector<int32_t> spaceDistances(const std::vector<DemoSpace>& spaces, size_t from) {
    std::vector<int32_t> dist(spaces.size(), -1);
    std::vector<size_t> queue{from};
    dist[from] = 0;
    for (size_t q = 0; q < queue.size(); ++q) {
        const size_t s = queue[q];
        for (size_t t = 0; t < spaces.size(); ++t) {
            const bool linked =
                (spaces[s].corridor && (spaces[s].rooms[0] == static_cast<int32_t>(t) ||
                                        spaces[s].rooms[1] == static_cast<int32_t>(t))) ||
                (spaces[t].corridor && (spaces[t].rooms[0] == static_cast<int32_t>(s) ||
                                        spaces[t].rooms[1] == static_cast<int32_t>(s)));
            if (linked && dist[t] < 0) {
                dist[t] = dist[s] + 1;
                queue.push_back(t);
            }
        }
    }
    return dist;
}

void buildLightGrid(DemoMap& m, const Lighting& lighting, const DemoMapOptions& o) {
    const glm::vec3 g = o.light_grid_size;
    glm::vec3 maxs;
    for (int a = 0; a < 3; ++a) {
        m.light_grid_origin[a] = g[a] * std::ceil(m.world_mins[a] / g[a]);
        maxs[a] = g[a] * std::floor(m.world_maxs[a] / g[a]);
        m.light_grid_bounds[a] =
            static_cast<int32_t>((maxs[a] - m.light_grid_origin[a]) / g[a]) + 1;
    }
    const glm::ivec3 nb = m.light_grid_bounds;
    for (int32_t z = 0; z < nb.z; ++z) {
        for (int32_t y = 0; y < nb.y; ++y) {
            for (int32_t x = 0; x < nb.x; ++x) {
                const glm::vec3 p = m.light_grid_origin + glm::vec3(x, y, z) * g;
                Q3LightGridPoint pt;
                const int32_t space = spaceContaining(m.spaces, p);
                if (space >= 0) {
                    pt.ambient = storeColour(glm::dvec3(lighting.ambient));
                    glm::dvec3 directed(0.0), dir(0.0);
                    for (size_t l = 0; l < m.lights.size(); ++l) {
                        if (!lighting.reaches[l][static_cast<size_t>(space)])
                            continue;
                        const glm::dvec3 d = glm::dvec3(m.lights[l].origin) - glm::dvec3(p);
                        const double dist = std::max(glm::length(d), 1.0);
                        const double k = Lighting::scale(m.lights[l], dist);
                        directed += glm::dvec3(m.lights[l].colour) * k;
                        dir += d / dist * k;
                    }
                    pt.directed = storeColour(directed);
                    const double len = glm::length(dir);
                    if (len > 0) {
                        dir /= len;
                        const double turn = 256.0 / (2.0 * std::numbers::pi);
                        const double polar = std::acos(std::clamp(dir.z, -1.0, 1.0)) * turn;
                        double around = std::atan2(dir.y, dir.x) * turn;
                        if (around < 0)
                            around += 256.0;
                        pt.direction = {static_cast<uint8_t>(std::lround(polar) & 255),
                                        static_cast<uint8_t>(std::lround(around) & 255)};
                    }
                }
                m.desc.light_grid.push_back(pt);
            }
        }
    }
}

} // namespace

bool DemoMap::expectedVisible(int32_t from_cluster, int32_t to_cluster) const {
    if (from_cluster < 0 || to_cluster < 0 || from_cluster >= num_clusters ||
        to_cluster >= num_clusters)
        return false;
    return expected_pvs[static_cast<size_t>(from_cluster * num_clusters + to_cluster)] != 0;
}

int32_t DemoMap::spaceIndex(std::string_view name) const {
    for (size_t i = 0; i < spaces.size(); ++i)
        if (spaces[i].name == name)
            return static_cast<int32_t>(i);
    return -1;
}

core::Result<DemoMap> buildMap(const DemoLayout& layout, const DemoMapOptions& o) {
    if (core::Status st = checkLayout(layout); !st)
        return st.error();
    DemoMap m;
    m.spaces = layout.spaces;
    m.lights = layout.lights;
    m.spawns = layout.spawns;
    Q3MapDesc& d = m.desc;
    const size_t n = m.spaces.size();
    for (size_t i = 0; i < n; ++i) {
        m.spaces[i].cluster = static_cast<int32_t>(i);
        m.spaces[i].faces.clear();
        m.spaces[i].leaves.clear();
    }
    for (DemoLight& l : m.lights)
        l.space = spaceContaining(m.spaces, l.origin);
    for (DemoSpawn& s : m.spawns)
        s.space = spaceContaining(m.spaces, s.origin);

    // Materials: every demo texture, in a fixed order.
    TextureIds tex;
    for (const DemoTexture& t : buildDemoTextures()) {
        tex.by_name.emplace(t.name, static_cast<int32_t>(d.textures.size()));
        d.textures.push_back({demoMaterialName(t.name), 0, kQ3ContentsSolid});
    }
    for (size_t i = 0; i < n; ++i) {
        const DemoSpace& s = m.spaces[i];
        for (const std::string* t : {&s.wall_texture, &s.floor_texture, &s.ceiling_texture})
            if (tex.get(*t) < 0)
                return layoutError("spaces", static_cast<int64_t>(i), "unknown texture " + *t);
    }

    // Surfaces, space by space.
    std::vector<Surface> surfaces;
    for (size_t i = 0; i < n; ++i) {
        if (m.spaces[i].corridor)
            addCorridorSurfaces(m.spaces, static_cast<int32_t>(i), tex, o, surfaces);
        else
            addRoomSurfaces(m.spaces, static_cast<int32_t>(i), tex, o, surfaces);
    }

    // Lighting: a light reaches its own space and the spaces one step away.
    Lighting lighting;
    lighting.lights = &m.lights;
    lighting.ambient = o.ambient;
    for (const DemoLight& l : m.lights) {
        const std::vector<int32_t> dist = spaceDistances(m.spaces, static_cast<size_t>(l.space));
        std::vector<uint8_t> r(n);
        for (size_t s = 0; s < n; ++s)
            r[s] = dist[s] >= 0 && dist[s] <= 1;
        lighting.reaches.push_back(std::move(r));
    }

    std::vector<std::pair<int32_t, int32_t>> sizes;
    for (size_t f = 0; f < surfaces.size(); ++f) {
        const Surface& s = surfaces[f];
        if (s.lm_w > kQ3LightmapSize || s.lm_h > kQ3LightmapSize)
            return layoutError("spaces", s.space,
                               "a face needs a " + std::to_string(s.lm_w) + "x" +
                                   std::to_string(s.lm_h) + " lightmap block");
        sizes.push_back({s.lm_w, s.lm_h});
    }
    int32_t pages = 0;
    const std::vector<PackedBlock> blocks = packBlocks(sizes, kQ3LightmapSize, &pages);
    d.lightmaps.assign(static_cast<size_t>(pages), Q3Lightmap{});
    for (Q3Lightmap& page : d.lightmaps)
        page.rgb.assign(kQ3LightmapBytes, 0);

    for (size_t f = 0; f < surfaces.size(); ++f) {
        const Surface& s = surfaces[f];
        const PackedBlock& blk = blocks[f];
        std::vector<uint8_t>& rgb = d.lightmaps[static_cast<size_t>(blk.page)].rgb;
        for (int32_t j = 0; j < s.lm_h; ++j) {
            for (int32_t i = 0; i < s.lm_w; ++i) {
                glm::dvec3 pos, nrm;
                s.sample(i, j, pos, nrm);
                const std::array<uint8_t, 3> c = storeColour(lighting.at(pos, nrm, s.space));
                const size_t at = (static_cast<size_t>(blk.y + j) * kQ3LightmapSize +
                                   static_cast<size_t>(blk.x + i)) *
                                  3;
                std::copy(c.begin(), c.end(), rgb.begin() + static_cast<std::ptrdiff_t>(at));
            }
        }
        Q3Face face;
        face.texture = s.texture;
        face.type = s.patch ? Q3FaceType::Patch : Q3FaceType::Polygon;
        face.first_vertex = static_cast<int32_t>(d.vertices.size());
        face.num_vertices = static_cast<int32_t>(s.positions.size());
        face.first_meshvert = static_cast<int32_t>(d.meshverts.size());
        face.num_meshverts = static_cast<int32_t>(s.indices.size());
        face.lightmap = blk.page;
        face.lm_start = {blk.x, blk.y};
        face.lm_size = {s.lm_w, s.lm_h};
        face.lm_origin = s.lm_origin;
        face.lm_vecs = s.lm_vecs;
        face.normal = s.normal;
        if (s.patch)
            face.patch_size = {s.patch_w, s.patch_h};
        for (size_t k = 0; k < s.positions.size(); ++k) {
            Q3Vertex v;
            v.position = s.positions[k];
            v.uv = s.uvs[k];
            v.lm_uv = {(static_cast<float>(blk.x) + s.lm_local[k].x + 0.5f) / kQ3LightmapSize,
                       (static_cast<float>(blk.y) + s.lm_local[k].y + 0.5f) / kQ3LightmapSize};
            v.normal = s.normals[k];
            const std::array<uint8_t, 3> c =
                storeColour(lighting.at(glm::dvec3(v.position), glm::dvec3(v.normal), s.space));
            v.colour = {c[0], c[1], c[2], 255};
            d.vertices.push_back(v);
        }
        d.meshverts.insert(d.meshverts.end(), s.indices.begin(), s.indices.end());
        const int32_t face_index = static_cast<int32_t>(d.faces.size());
        d.faces.push_back(face);
        m.face_space.push_back(s.space);
        m.spaces[static_cast<size_t>(s.space)].faces.push_back(face_index);
        if (s.patch)
            m.patch_faces.push_back(face_index);
    }

    // Tree over the world box: the spaces' bounds grown by the wall thickness.
    Box world{m.spaces[0].mins, m.spaces[0].maxs};
    for (const DemoSpace& s : m.spaces) {
        world.mins = glm::min(world.mins, s.mins);
        world.maxs = glm::max(world.maxs, s.maxs);
    }
    world.mins -= glm::vec3(o.wall_thickness);
    world.maxs += glm::vec3(o.wall_thickness);
    m.world_mins = world.mins;
    m.world_maxs = world.maxs;
    TreeBuilder tree{m.spaces, surfaces, d, {}, tex.get("stone")};
    std::vector<TreeBuilder::Item> items;
    for (size_t i = 0; i < n; ++i)
        items.push_back({static_cast<int32_t>(i), {m.spaces[i].mins, m.spaces[i].maxs}});
    const int32_t root = tree.build(world, items);
    if (root < 0) { // a single space filling the world box cannot happen (walls), but be safe
        return layoutError("spaces", -1, "the tree has no node");
    }
    for (size_t l = 0; l < d.leaves.size(); ++l)
        if (d.leaves[l].cluster >= 0)
            m.spaces[static_cast<size_t>(d.leaves[l].cluster)].leaves.push_back(
                static_cast<int32_t>(l));

    Q3Model world_model;
    world_model.mins = world.mins;
    world_model.maxs = world.maxs;
    world_model.num_faces = static_cast<int32_t>(d.faces.size());
    world_model.num_brushes = static_cast<int32_t>(d.brushes.size());
    d.models.push_back(world_model);

    // Visibility: spaces at most vis_steps apart in the room-corridor graph.
    m.num_clusters = static_cast<int32_t>(n);
    m.expected_pvs.assign(n * n, 0);
    d.vis.num_clusters = m.num_clusters;
    d.vis.row_size = ((m.num_clusters + 63) & ~63) >> 3; // whole 64-bit words, as q3map2
    d.vis.bits.assign(n * static_cast<size_t>(d.vis.row_size), 0);
    for (size_t i = 0; i < n; ++i) {
        const std::vector<int32_t> dist = spaceDistances(m.spaces, i);
        for (size_t j = 0; j < n; ++j) {
            if (dist[j] < 0 || dist[j] > o.vis_steps)
                continue;
            m.expected_pvs[i * n + j] = 1;
            d.vis.bits[i * static_cast<size_t>(d.vis.row_size) + j / 8] |=
                static_cast<uint8_t>(1u << (j % 8));
        }
    }

    d.entities = entityText(layout);
    buildLightGrid(m, lighting, o);
    return m;
}

// ------------------------------------------------------------------------------ layouts

namespace {

DemoSpace room(std::string name, glm::vec3 mins, glm::vec3 maxs, std::string wall) {
    DemoSpace s;
    s.name = std::move(name);
    s.mins = mins;
    s.maxs = maxs;
    s.wall_texture = std::move(wall);
    return s;
}

DemoSpace corridor(std::string name, int32_t a, int32_t b, glm::vec3 mins, glm::vec3 maxs) {
    DemoSpace s;
    s.name = std::move(name);
    s.corridor = true;
    s.rooms[0] = a;
    s.rooms[1] = b;
    s.mins = mins;
    s.maxs = maxs;
    s.wall_texture = "stone";
    s.floor_texture = "stone";
    s.ceiling_texture = "panel";
    return s;
}

DemoMap buildOrDie(const DemoLayout& layout, const DemoMapOptions& o) {
    core::Result<DemoMap> r = buildMap(layout, o);
    // The built-in layouts are fixed data; a failure here is a bug in this file.
    assert(r.ok() && "built-in demo layout rejected");
    if (!r.ok())
        return DemoMap{};
    return std::move(r).value();
}

} // namespace

DemoLayout demoLayout() {
    DemoLayout l;
    l.message = "bspview demo";
    // Rooms: A west, B east of A, C north of B, D west of C, E south of B.
    l.spaces.push_back(room("A", {0, 0, 0}, {512, 512, 256}, "brick"));
    l.spaces.push_back(room("B", {768, 0, 0}, {1280, 512, 256}, "panel"));
    l.spaces.push_back(room("C", {768, 768, 0}, {1280, 1280, 320}, "brick"));
    l.spaces.push_back(room("D", {0, 768, 0}, {512, 1280, 256}, "panel"));
    l.spaces.push_back(room("E", {768, -768, 0}, {1280, -256, 192}, "brick"));
    // Corridors are 64 wide and 256 long, so a line of sight through one stays within
    // 1/4 of its direction. A-B enters B's west wall mid-way; B-C leaves B's north wall
    // near the east corner and B-E its south wall near the west corner, so no straight
    // line passes through two corridors of B: A cannot see C or E, C cannot see E.
    l.spaces.push_back(corridor("A-B", 0, 1, {512, 224, 0}, {768, 288, 128}));
    DemoSpace bc = corridor("B-C", 1, 2, {1152, 512, 0}, {1216, 768, 160});
    bc.vaulted = true;
    bc.wall_top = 128;
    l.spaces.push_back(bc);
    l.spaces.push_back(corridor("B-E", 1, 4, {832, -256, 0}, {896, 0, 128}));
    l.spaces.push_back(corridor("C-D", 2, 3, {512, 1152, 0}, {768, 1216, 128}));

    l.lights = {
        {{256, 256, 208}, 320, {1.0f, 0.9f, 0.75f}, -1},
        {{1024, 256, 208}, 320, {0.75f, 0.85f, 1.0f}, -1},
        {{1024, 1024, 272}, 340, {1.0f, 0.95f, 0.85f}, -1},
        {{880, 880, 64}, 160, {1.0f, 0.45f, 0.3f}, -1},
        {{256, 1024, 208}, 320, {0.8f, 1.0f, 0.8f}, -1},
        {{1024, -512, 152}, 300, {1.0f, 0.8f, 0.6f}, -1},
        {{1184, 640, 112}, 140, {1.0f, 0.85f, 0.6f}, -1},
    };
    l.spawns = {
        {"info_player_start", {128, 256, 32}, 0, 0, -1},
        {"info_player_deathmatch", {384, 96, 32}, 90, 0, -1},
        {"info_player_deathmatch", {1024, 384, 32}, 270, 0, -1},
        {"info_player_deathmatch", {1024, 1152, 32}, 270, 0, -1},
        {"info_player_deathmatch", {128, 1024, 32}, 0, 0, -1},
        {"info_player_deathmatch", {1024, -640, 32}, 90, 0, -1},
        {"info_player_intermission", {832, 832, 256}, 45, 20, -1},
    };
    return l;
}

DemoMap buildDemoMap(const DemoMapOptions& options) {
    return buildOrDie(demoLayout(), options);
}

DemoLayout twoRoomLayout() {
    DemoLayout l;
    l.message = "two rooms";
    l.spaces.push_back(room("A", {0, 0, 0}, {256, 256, 128}, "brick"));
    l.spaces.push_back(room("B", {512, 0, 0}, {768, 256, 128}, "panel"));
    l.lights = {{{128, 128, 96}, 300, {1, 1, 1}, -1}, {{640, 128, 96}, 300, {1, 1, 1}, -1}};
    l.spawns = {{"info_player_start", {64, 128, 32}, 0, 0, -1},
                {"info_player_deathmatch", {704, 128, 32}, 180, 0, -1}};
    return l;
}

DemoMap buildTwoRoomMap(const DemoMapOptions& options) {
    return buildOrDie(twoRoomLayout(), options);
}

} // namespace mapgen
