#include "scene/debug/debug_geometry.h"

#include "bsp/tree.h"
#include "scene/view/frustum.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/mat4x4.hpp>
#include <glm/matrix.hpp>
#include <glm/trigonometric.hpp>
#include <unordered_map>

namespace scene {

bool parseDebugViews(std::string_view text, DebugViews* out, std::string* error) {
    DebugViews v = *out;
    size_t start = 0;
    while (start <= text.size()) {
        const size_t comma = std::min(text.find(',', start), text.size());
        const std::string_view word = text.substr(start, comma - start);
        start = comma + 1;
        if (word.empty())
            continue;
        if (word == "all") {
            // Every view but changes, which needs a second map (--compare).
            // Every view but changes, which needs a second map (--compare), and the collision
            // views, which stand for the world rather than draw over it.
            v = {true, true, true,  true,  true,  true,  true, true,
                 true, true, false, false, false, false, false};
        } else if (word == "none") {
            v = DebugViews();
        } else {
            bool* field = word == "frustum"        ? &v.frustum
                          : word == "leaf-bounds"  ? &v.leaf_bounds
                          : word == "clusters"     ? &v.clusters
                          : word == "areas"        ? &v.areas
                          : word == "area-borders" ? &v.area_borders
                          : word == "entities"     ? &v.entities
                          : word == "luxels"       ? &v.luxels
                          : word == "patches"      ? &v.patches
                          : word == "portals"      ? &v.portals
                          : word == "leak"         ? &v.leak
                          : word == "changes"      ? &v.changes
                          : word == "hull1"        ? &v.hull1
                          : word == "hull2"        ? &v.hull2
                          : word == "hull3"        ? &v.hull3
                          : word == "brushes"      ? &v.brushes
                                                   : nullptr;
            if (!field) {
                if (error)
                    *error = "unknown debug view '" + std::string(word) + "' (expected " +
                             kDebugViewNames + ", all or none)";
                return false;
            }
            *field = true;
        }
    }
    *out = v;
    return true;
}

void LineList::add(const glm::vec3& a, const glm::vec3& b, glm::u8vec4 colour) {
    vertices.push_back({a, colour});
    vertices.push_back({b, colour});
}

void TriangleList::addFan(const glm::vec3* points, uint32_t count, glm::u8vec4 colour) {
    for (uint32_t k = 1; k + 1 < count; ++k) {
        vertices.push_back({points[0], colour});
        vertices.push_back({points[k], colour});
        vertices.push_back({points[k + 1], colour});
    }
}

void LineList::addBox(const glm::vec3& lo, const glm::vec3& hi, glm::u8vec4 colour) {
    const glm::vec3 c[8] = {{lo.x, lo.y, lo.z}, {hi.x, lo.y, lo.z}, {hi.x, hi.y, lo.z},
                            {lo.x, hi.y, lo.z}, {lo.x, lo.y, hi.z}, {hi.x, lo.y, hi.z},
                            {hi.x, hi.y, hi.z}, {lo.x, hi.y, hi.z}};
    static constexpr int kEdges[12][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6},
                                          {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
    for (const auto& e : kEdges)
        add(c[e[0]], c[e[1]], colour);
}

void LineList::addArrow(const glm::vec3& from, const glm::vec3& dir, glm::u8vec4 colour) {
    const float len = glm::length(dir);
    if (len <= 0.0f)
        return;
    const glm::vec3 tip = from + dir;
    const glm::vec3 d = dir / len;
    // A side vector perpendicular to the arrow, preferring the horizontal plane.
    glm::vec3 side = glm::cross(d, glm::vec3(0.0f, 0.0f, 1.0f));
    if (glm::length(side) < 1e-3f)
        side = glm::cross(d, glm::vec3(1.0f, 0.0f, 0.0f));
    side = glm::normalize(side) * (len * 0.25f);
    add(from, tip, colour);
    add(tip, tip - d * (len * 0.35f) + side, colour);
    add(tip, tip - d * (len * 0.35f) - side, colour);
}

glm::u8vec4 hashColour(uint32_t key) {
    // Golden-ratio hue steps keep neighbouring keys apart; a second hash varies the value so
    // keys that land on similar hues still differ.
    uint32_t h = key * 2654435761u;
    h ^= h >> 15;
    const float hue = std::fmod(static_cast<float>(key) * 0.61803398875f, 1.0f) * 6.0f;
    const float value = 0.65f + 0.35f * static_cast<float>(h & 255) / 255.0f;
    const float sat = 0.55f + 0.45f * static_cast<float>((h >> 8) & 255) / 255.0f;
    const int sector = static_cast<int>(hue) % 6;
    const float f = hue - std::floor(hue);
    const float p = value * (1.0f - sat), q = value * (1.0f - sat * f),
                t = value * (1.0f - sat * (1.0f - f));
    glm::vec3 rgb;
    switch (sector) {
    case 0:
        rgb = {value, t, p};
        break;
    case 1:
        rgb = {q, value, p};
        break;
    case 2:
        rgb = {p, value, t};
        break;
    case 3:
        rgb = {p, q, value};
        break;
    case 4:
        rgb = {t, p, value};
        break;
    default:
        rgb = {value, p, q};
        break;
    }
    return {static_cast<uint8_t>(rgb.r * 255.0f + 0.5f),
            static_cast<uint8_t>(rgb.g * 255.0f + 0.5f),
            static_cast<uint8_t>(rgb.b * 255.0f + 0.5f), 255};
}

std::array<glm::vec3, 8> frustumCorners(const Camera& camera, float far_distance) {
    Camera c = camera;
    if (far_distance > 0.0f)
        c.z_far = std::max(far_distance, c.z_near * 2.0f);
    const glm::mat4 inv = glm::inverse(c.viewProjection());
    std::array<glm::vec3, 8> out{};
    static constexpr float kNdc[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    for (int plane = 0; plane < 2; ++plane) {
        for (int k = 0; k < 4; ++k) {
            const glm::vec4 p =
                inv * glm::vec4(kNdc[k][0], kNdc[k][1], plane == 0 ? -1.0f : 1.0f, 1.0f);
            out[static_cast<size_t>(plane * 4 + k)] = glm::vec3(p) / p.w;
        }
    }
    return out;
}

void addFrustum(LineList& lines, const Camera& camera, glm::u8vec4 colour, float far_distance) {
    const auto c = frustumCorners(camera, far_distance);
    for (int k = 0; k < 4; ++k) {
        const size_t a = static_cast<size_t>(k), b = static_cast<size_t>((k + 1) % 4);
        lines.add(c[a], c[b], colour);         // near rectangle
        lines.add(c[a + 4], c[b + 4], colour); // far rectangle
        lines.add(c[a], c[a + 4], colour);     // side edges
        lines.add(camera.position, c[a], colour);
    }
}

std::vector<uint32_t> visibleLeaves(const bsp::Map& map, const Camera& camera, bool use_pvs,
                                    bool use_frustum) {
    std::vector<uint32_t> out;
    const int32_t leaf = bsp::pointLeaf(map, camera.position);
    const int32_t cluster = leaf >= 0 ? map.leaves[static_cast<size_t>(leaf)].cluster : -1;
    const bool all = !use_pvs || cluster < 0 || !map.vis.present();
    const Frustum frustum = Frustum::fromMatrix(camera.viewProjection());
    for (uint32_t i = 0; i < map.leaves.size(); ++i) {
        const bsp::Leaf& l = map.leaves[i];
        if (l.num_leaf_faces == 0)
            continue;
        if (all) {
            if (use_pvs && map.vis.present() && l.cluster < 0)
                continue;
        } else if (l.cluster < 0 || !map.vis.visible(cluster, l.cluster)) {
            continue;
        }
        if (use_frustum && !frustum.intersectsBox(l.mins, l.maxs))
            continue;
        out.push_back(i);
    }
    return out;
}

namespace {

std::vector<int32_t> faceLeafKey(const bsp::Map& map, bool area) {
    std::vector<int32_t> key(map.faces.size(), -1);
    for (const bsp::Leaf& l : map.leaves) {
        const int32_t k = area ? l.area : l.cluster;
        if (l.cluster < 0)
            continue;
        for (uint32_t j = 0; j < l.num_leaf_faces; ++j) {
            const size_t at = static_cast<size_t>(l.first_leaf_face) + j;
            if (at >= map.leaf_faces.size())
                break;
            const uint32_t face = map.leaf_faces[at];
            if (face < key.size() && key[face] < 0)
                key[face] = k;
        }
    }
    return key;
}

bool touches(const bsp::Leaf& a, const bsp::Leaf& b) {
    for (int k = 0; k < 3; ++k)
        if (a.mins[k] > b.maxs[k] || b.mins[k] > a.maxs[k])
            return false;
    return true;
}

} // namespace

std::vector<int32_t> faceClusters(const bsp::Map& map) {
    return faceLeafKey(map, false);
}

std::vector<int32_t> faceAreas(const bsp::Map& map) {
    return faceLeafKey(map, true);
}

std::vector<AreaBorder> areaBorders(const bsp::Map& map, size_t max_borders) {
    std::vector<AreaBorder> out;
    if (map.areas.size() < 2)
        return out;
    std::vector<uint32_t> order;
    for (uint32_t i = 0; i < map.leaves.size(); ++i) {
        const bsp::Leaf& l = map.leaves[i];
        if (l.cluster >= 0 && l.area > 0 && !(l.contents & bsp::kContentsSolid))
            order.push_back(i);
    }
    std::sort(order.begin(), order.end(),
              [&](uint32_t a, uint32_t b) { return map.leaves[a].mins.x < map.leaves[b].mins.x; });
    for (size_t i = 0; i < order.size() && out.size() < max_borders; ++i) {
        const bsp::Leaf& a = map.leaves[order[i]];
        for (size_t j = i + 1; j < order.size() && out.size() < max_borders; ++j) {
            const bsp::Leaf& b = map.leaves[order[j]];
            if (b.mins.x > a.maxs.x)
                break; // sorted by mins.x: no later leaf reaches a
            if (a.area == b.area || !touches(a, b))
                continue;
            AreaBorder border;
            border.mins = glm::max(a.mins, b.mins);
            border.maxs = glm::min(a.maxs, b.maxs);
            border.area_a = std::min(a.area, b.area);
            border.area_b = std::max(a.area, b.area);
            out.push_back(border);
        }
    }
    return out;
}

std::optional<glm::vec3> entityPosition(const bsp::Map& map, const bsp::Entity& entity) {
    const std::string_view model = entity.get("model");
    if (model.size() > 1 && model[0] == '*') {
        int index = 0;
        for (char ch : model.substr(1)) {
            if (ch < '0' || ch > '9' || index > 1000000)
                return std::nullopt;
            index = index * 10 + (ch - '0');
        }
        if (static_cast<size_t>(index) >= map.submodels.size())
            return std::nullopt;
        const bsp::Submodel& sm = map.submodels[static_cast<size_t>(index)];
        return (sm.mins + sm.maxs) * 0.5f + sm.origin;
    }
    return entity.vec3("origin");
}

std::vector<EntityMarker> entityMarkers(const bsp::Map& map) {
    std::vector<EntityMarker> out;
    for (uint32_t i = 0; i < map.entities.size(); ++i) {
        const bsp::Entity& e = map.entities[i];
        if (e.get("model").starts_with("*"))
            continue; // brush entities are drawn as geometry
        const auto origin = e.vec3("origin");
        if (!origin)
            continue;
        EntityMarker m;
        m.entity = i;
        m.classname = std::string(e.classname());
        m.origin = *origin;
        if (const auto angle = e.number("angle")) {
            m.yaw = *angle;
            m.has_facing = true;
        } else if (const auto angles = e.vec3("angles")) {
            m.yaw = angles->y;
            m.has_facing = true;
        }
        if (m.classname.starts_with("info_player") || m.classname.starts_with("team_CTF"))
            m.half_size = {16.0f, 16.0f, 28.0f};
        else if (m.classname.starts_with("light"))
            m.half_size = glm::vec3(4.0f);
        out.push_back(std::move(m));
    }
    return out;
}

std::vector<TargetLink> targetLinks(const bsp::Map& map, size_t max_links) {
    std::unordered_multimap<std::string_view, uint32_t> by_name;
    for (uint32_t i = 0; i < map.entities.size(); ++i) {
        const std::string_view name = map.entities[i].get("targetname");
        if (!name.empty())
            by_name.emplace(name, i);
    }
    std::vector<TargetLink> out;
    for (uint32_t i = 0; i < map.entities.size() && out.size() < max_links; ++i) {
        const std::string_view target = map.entities[i].get("target");
        if (target.empty())
            continue;
        const auto from = entityPosition(map, map.entities[i]);
        if (!from)
            continue;
        const auto range = by_name.equal_range(target);
        for (auto it = range.first; it != range.second && out.size() < max_links; ++it) {
            const auto to = entityPosition(map, map.entities[it->second]);
            if (to)
                out.push_back({i, it->second, *from, *to});
        }
    }
    return out;
}

bool classnameMatches(std::string_view classname, std::string_view filter) {
    if (filter.empty())
        return true;
    if (filter.size() > classname.size())
        return false;
    const auto lower = [](char c) {
        return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    };
    for (size_t i = 0; i + filter.size() <= classname.size(); ++i) {
        size_t k = 0;
        while (k < filter.size() && lower(classname[i + k]) == lower(filter[k]))
            ++k;
        if (k == filter.size())
            return true;
    }
    return false;
}

void addEntityMarkers(LineList& lines, const bsp::Map& map,
                      const std::vector<EntityMarker>& markers,
                      const std::vector<TargetLink>& links, std::string_view filter) {
    for (const EntityMarker& m : markers) {
        if (!classnameMatches(m.classname, filter))
            continue;
        const glm::u8vec4 colour = hashColour(
            static_cast<uint32_t>(std::hash<std::string_view>()(m.classname) & 0xffffffu));
        lines.addBox(m.origin - m.half_size, m.origin + m.half_size, colour);
        if (m.has_facing) {
            const float yaw = glm::radians(m.yaw);
            const glm::vec3 dir(std::cos(yaw), std::sin(yaw), 0.0f);
            lines.addArrow(m.origin, dir * (m.half_size.x * 2.5f + 8.0f),
                           glm::u8vec4(255, 255, 255, 255));
        }
    }
    for (const TargetLink& link : links) {
        const std::string_view from_class = map.entities[link.from].classname();
        const std::string_view to_class = map.entities[link.to].classname();
        if (!classnameMatches(from_class, filter) && !classnameMatches(to_class, filter))
            continue;
        lines.add(link.a, link.b, glm::u8vec4(255, 220, 40, 255));
        // A short tick at the target end shows the direction.
        lines.add(link.b, link.b + glm::vec3(0.0f, 0.0f, 12.0f), glm::u8vec4(255, 120, 0, 255));
    }
}

size_t patchCount(const bsp::Map& map) {
    size_t n = 0;
    for (const bsp::Face& f : map.faces)
        n += f.kind == bsp::FaceKind::Patch ? 1 : 0;
    return n;
}

void addPatchNet(LineList& lines, const bsp::Map& map, uint32_t face, glm::u8vec4 colour) {
    if (face >= map.faces.size())
        return;
    const bsp::Face& f = map.faces[face];
    const uint32_t w = f.patch_width, h = f.patch_height;
    if (f.kind != bsp::FaceKind::Patch || w < 2 || h < 2 ||
        static_cast<uint64_t>(w) * h > f.num_vertices ||
        static_cast<uint64_t>(f.first_vertex) + static_cast<uint64_t>(w) * h > map.vertices.size())
        return;
    const auto at = [&](uint32_t row, uint32_t col) {
        return map.vertices[f.first_vertex + row * w + col].position;
    };
    for (uint32_t r = 0; r < h; ++r)
        for (uint32_t c = 0; c + 1 < w; ++c)
            lines.add(at(r, c), at(r, c + 1), colour);
    for (uint32_t c = 0; c < w; ++c)
        for (uint32_t r = 0; r + 1 < h; ++r)
            lines.add(at(r, c), at(r + 1, c), colour);
}

void addPatchNets(LineList& lines, const bsp::Map& map, glm::u8vec4 colour) {
    for (uint32_t i = 0; i < map.faces.size(); ++i)
        addPatchNet(lines, map, i, colour);
}

std::vector<FaceBounds> faceBounds(const bsp::Map& map) {
    std::vector<FaceBounds> out(map.faces.size());
    for (size_t i = 0; i < map.faces.size(); ++i) {
        const bsp::Face& f = map.faces[i];
        const uint64_t end = static_cast<uint64_t>(f.first_vertex) + f.num_vertices;
        if (f.num_vertices == 0 || end > map.vertices.size()) {
            // Unknown extent: a box that every ray hits.
            out[i].mins = glm::vec3(-1e30f);
            out[i].maxs = glm::vec3(1e30f);
            continue;
        }
        glm::vec3 lo(1e30f), hi(-1e30f);
        for (uint32_t v = f.first_vertex; v < end; ++v) {
            lo = glm::min(lo, map.vertices[v].position);
            hi = glm::max(hi, map.vertices[v].position);
        }
        out[i].mins = lo - glm::vec3(0.5f);
        out[i].maxs = hi + glm::vec3(0.5f);
    }
    return out;
}

namespace {

// Entry distance of a ray into a box (slab test), or a negative value when it misses.
float rayBoxEntry(const glm::vec3& o, const glm::vec3& inv_dir, const FaceBounds& b,
                  float max_distance) {
    float t0 = 0.0f, t1 = max_distance;
    for (int k = 0; k < 3; ++k) {
        float a = (b.mins[k] - o[k]) * inv_dir[k];
        float c = (b.maxs[k] - o[k]) * inv_dir[k];
        if (a > c)
            std::swap(a, c);
        t0 = std::max(t0, a);
        t1 = std::min(t1, c);
        if (t0 > t1)
            return -1.0f;
    }
    return t0;
}

} // namespace

std::optional<RayHit> rayCast(const bsp::Map& map, const WorldMesh& mesh, const glm::vec3& origin,
                              const glm::vec3& dir_in, float max_distance,
                              const std::vector<FaceBounds>* bounds) {
    const float len = glm::length(dir_in);
    if (len <= 0.0f)
        return std::nullopt;
    const glm::vec3 dir = dir_in / len;
    // Division by a zero component gives +-inf, which the slab test handles (IEEE).
    const glm::vec3 inv_dir(1.0f / dir.x, 1.0f / dir.y, 1.0f / dir.z);
    std::optional<RayHit> best;
    float best_t = max_distance;
    for (uint32_t face = 0; face < mesh.faces.size(); ++face) {
        const MeshFace& mf = mesh.faces[face];
        if (mf.num_indices == 0)
            continue;
        glm::vec3 offset(0.0f);
        if (mf.submodel > 0 && static_cast<size_t>(mf.submodel) < map.submodels.size())
            offset = map.submodels[static_cast<size_t>(mf.submodel)].origin;
        const glm::vec3 o = origin - offset;
        if (bounds && face < bounds->size() &&
            !(rayBoxEntry(o, inv_dir, (*bounds)[face], best_t) >= 0.0f))
            continue;
        for (uint32_t k = 0; k + 2 < mf.num_indices; k += 3) {
            const WorldVertex& v0 = mesh.vertices[mesh.indices[mf.first_index + k]];
            const WorldVertex& v1 = mesh.vertices[mesh.indices[mf.first_index + k + 1]];
            const WorldVertex& v2 = mesh.vertices[mesh.indices[mf.first_index + k + 2]];
            // Moller-Trumbore, both sides (patches and meshes are often two-sided).
            const glm::vec3 e1 = v1.position - v0.position, e2 = v2.position - v0.position;
            const glm::vec3 p = glm::cross(dir, e2);
            const float det = glm::dot(e1, p);
            if (std::abs(det) < 1e-9f)
                continue;
            const float inv = 1.0f / det;
            const glm::vec3 s = o - v0.position;
            const float u = glm::dot(s, p) * inv;
            if (u < 0.0f || u > 1.0f)
                continue;
            const glm::vec3 q = glm::cross(s, e1);
            const float v = glm::dot(dir, q) * inv;
            if (v < 0.0f || u + v > 1.0f)
                continue;
            const float t = glm::dot(e2, q) * inv;
            if (t <= 0.0f || t >= best_t)
                continue;
            best_t = t;
            RayHit hit;
            hit.face = face;
            hit.distance = t;
            hit.point = origin + dir * t;
            hit.lm_uv = v0.lm_uv * (1.0f - u - v) + v1.lm_uv * u + v2.lm_uv * v;
            best = hit;
        }
    }
    return best;
}

namespace {

// The luxel of `f` at lm_uv in `pages[page]` (pages of w x h), within the block `r`.
std::optional<Luxel> luxelIn(const bsp::Face& f, const std::vector<bsp::LightmapPage>& pages,
                             int32_t page, int32_t w, int32_t h, bsp::LightmapRect r,
                             const glm::vec2& lm_uv) {
    if (page < 0 || static_cast<size_t>(page) >= pages.size() || w <= 0 || h <= 0 || r.w == 0 ||
        r.h == 0)
        return std::nullopt;
    const bsp::LightmapPage& p = pages[static_cast<size_t>(page)];
    if (p.rgb.size() < static_cast<size_t>(w) * static_cast<size_t>(h) * 3)
        return std::nullopt;
    // Style 0's block is the first w / styles columns of the face's rectangle.
    const int styles = std::max(1, f.numStyles());
    const int block_w = std::max(1, r.w / styles);
    const int x = static_cast<int>(std::floor(lm_uv.x * static_cast<float>(w)));
    const int y = static_cast<int>(std::floor(lm_uv.y * static_cast<float>(h)));
    Luxel l;
    l.page = page;
    l.x = std::clamp(x, static_cast<int>(r.x), static_cast<int>(r.x) + block_w - 1);
    l.y = std::clamp(y, static_cast<int>(r.y), static_cast<int>(r.y) + r.h - 1);
    l.x = std::clamp(l.x, 0, w - 1);
    l.y = std::clamp(l.y, 0, h - 1);
    l.local_x = l.x - r.x;
    l.local_y = l.y - r.y;
    const size_t at =
        (static_cast<size_t>(l.y) * static_cast<size_t>(w) + static_cast<size_t>(l.x)) * 3;
    l.rgb = {p.rgb[at], p.rgb[at + 1], p.rgb[at + 2]};
    return l;
}

} // namespace

std::optional<Luxel> luxelAt(const bsp::Map& map, uint32_t face, const glm::vec2& lm_uv) {
    if (face >= map.faces.size())
        return std::nullopt;
    const bsp::Face& f = map.faces[face];
    return luxelIn(f, map.lightmap_pages, f.lightmap_page, map.lightmap_width, map.lightmap_height,
                   f.lightmap_rect, lm_uv);
}

std::optional<Luxel> luxelAt(const bsp::Map& map, const LightmapSet& set, uint32_t face,
                             const glm::vec2& lm_uv) {
    if (face >= map.faces.size())
        return std::nullopt;
    const bsp::Face& f = map.faces[face];
    bsp::LightmapRect r = f.lightmap_rect;
    if (set.storage == bsp::LightmapStorage::External)
        r = {0, 0, static_cast<uint16_t>(std::clamp(set.width, 0, 65535)),
             static_cast<uint16_t>(std::clamp(set.height, 0, 65535))};
    return luxelIn(f, set.pages, set.pageOf(f.lightmap_page), set.width, set.height, r, lm_uv);
}

} // namespace scene
