#include "scene/debug/map_diff.h"

#include "core/file.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <unordered_map>

namespace scene {

namespace {

constexpr float kGrid = 16.0f; // positions snapped to 1/16 unit

// A face's identity: material name (any case) and its vertex positions as a sorted set of
// grid points. `shape` is the same with the positions taken relative to their least corner,
// so it survives a translation.
struct FaceKey {
    std::string exact, shape;
};

void appendInt(std::string& s, int32_t v) {
    s.append(reinterpret_cast<const char*>(&v), sizeof v);
}

FaceKey faceKey(const bsp::Map& map, const bsp::Face& f) {
    std::vector<glm::ivec3> points;
    points.reserve(f.num_vertices);
    for (uint32_t k = 0; k < f.num_vertices; ++k) {
        const glm::vec3 p = map.vertices[f.first_vertex + k].position * kGrid;
        points.emplace_back(static_cast<int32_t>(std::lround(p.x)),
                            static_cast<int32_t>(std::lround(p.y)),
                            static_cast<int32_t>(std::lround(p.z)));
    }
    const auto less = [](const glm::ivec3& a, const glm::ivec3& b) {
        return a.x != b.x ? a.x < b.x : a.y != b.y ? a.y < b.y : a.z < b.z;
    };
    std::sort(points.begin(), points.end(), less);
    points.erase(std::unique(points.begin(), points.end()), points.end());
    glm::ivec3 low = points.empty() ? glm::ivec3(0) : points.front();
    for (const glm::ivec3& p : points)
        low = glm::min(low, p);
    const std::string material =
        f.material >= 0 && static_cast<size_t>(f.material) < map.materials.size()
            ? core::toLower(map.materials[static_cast<size_t>(f.material)].name)
            : std::string();
    FaceKey key;
    key.exact = material;
    key.exact.push_back('\0');
    key.exact.push_back(static_cast<char>(f.kind));
    key.shape = key.exact;
    for (const glm::ivec3& p : points) {
        for (int i = 0; i < 3; ++i) {
            appendInt(key.exact, p[i]);
            appendInt(key.shape, p[i] - low[i]);
        }
    }
    return key;
}

bool differs(uint8_t a, uint8_t b, int threshold) {
    return std::abs(int(a) - int(b)) > threshold;
}

// True when the two faces (same shape) are lit differently: their lightmap blocks (every
// style side by side) or, without lightmaps, their vertex colours.
bool relit(const bsp::Map& a, const bsp::Face& fa, const bsp::Map& b, const bsp::Face& fb,
           int threshold) {
    const bool lit_a =
        fa.lightmap_page >= 0 && static_cast<size_t>(fa.lightmap_page) < a.lightmap_pages.size();
    const bool lit_b =
        fb.lightmap_page >= 0 && static_cast<size_t>(fb.lightmap_page) < b.lightmap_pages.size();
    if (lit_a != lit_b || fa.styles != fb.styles)
        return true;
    if (lit_a) {
        const bsp::LightmapRect& ra = fa.lightmap_rect;
        const bsp::LightmapRect& rb = fb.lightmap_rect;
        if (ra.w != rb.w || ra.h != rb.h)
            return true;
        const auto& pa = a.lightmap_pages[static_cast<size_t>(fa.lightmap_page)].rgb;
        const auto& pb = b.lightmap_pages[static_cast<size_t>(fb.lightmap_page)].rgb;
        for (uint32_t y = 0; y < ra.h; ++y)
            for (uint32_t x = 0; x < ra.w; ++x) {
                const size_t ia = (size_t(ra.y + y) * size_t(a.lightmap_width) + ra.x + x) * 3;
                const size_t ib = (size_t(rb.y + y) * size_t(b.lightmap_width) + rb.x + x) * 3;
                if (ia + 3 > pa.size() || ib + 3 > pb.size())
                    return true;
                for (int c = 0; c < 3; ++c)
                    if (differs(pa[ia + c], pb[ib + c], threshold))
                        return true;
            }
        return false;
    }
    // Vertex-lit: the colours of the matching positions. Vertices are compared in order when
    // the counts agree (a recompile of an unchanged face writes them the same way).
    if (fa.num_vertices != fb.num_vertices)
        return true;
    for (uint32_t k = 0; k < fa.num_vertices; ++k) {
        const glm::u8vec4 ca = a.vertices[fa.first_vertex + k].colour;
        const glm::u8vec4 cb = b.vertices[fb.first_vertex + k].colour;
        for (int c = 0; c < 4; ++c)
            if (differs(ca[c], cb[c], threshold))
                return true;
    }
    return false;
}

bool comparable(const bsp::Map& map, const bsp::Face& f) {
    return f.kind != bsp::FaceKind::Billboard && f.num_vertices > 0 &&
           uint64_t(f.first_vertex) + f.num_vertices <= map.vertices.size();
}

} // namespace

MapDiff diffMaps(const bsp::Map& before, const bsp::Map& after, const MapDiffOptions& options) {
    // Old faces by exact key and by shape; each old face is matched at most once.
    std::unordered_multimap<std::string, uint32_t> by_exact, by_shape;
    std::vector<FaceKey> old_keys(before.faces.size());
    std::vector<bool> used(before.faces.size(), false);
    for (uint32_t i = 0; i < before.faces.size(); ++i) {
        if (!comparable(before, before.faces[i])) {
            used[i] = true; // flares and empty faces take no part
            continue;
        }
        old_keys[i] = faceKey(before, before.faces[i]);
        by_exact.emplace(old_keys[i].exact, i);
    }
    MapDiff diff;
    diff.faces.assign(after.faces.size(), FaceChange::Same);
    std::vector<FaceKey> new_keys(after.faces.size());
    std::vector<uint32_t> unmatched;
    const auto take = [&](std::unordered_multimap<std::string, uint32_t>& index,
                          const std::string& key) -> int64_t {
        auto [lo, hi] = index.equal_range(key);
        for (auto it = lo; it != hi; ++it)
            if (!used[it->second]) {
                const uint32_t old = it->second;
                used[old] = true;
                index.erase(it);
                return old;
            }
        return -1;
    };
    for (uint32_t i = 0; i < after.faces.size(); ++i) {
        const bsp::Face& f = after.faces[i];
        if (!comparable(after, f))
            continue;
        new_keys[i] = faceKey(after, f);
        const int64_t old = take(by_exact, new_keys[i].exact);
        if (old < 0) {
            unmatched.push_back(i);
            continue;
        }
        const bool changed =
            relit(before, before.faces[size_t(old)], after, f, options.relight_threshold);
        diff.faces[i] = changed ? FaceChange::Relit : FaceChange::Same;
    }
    // What is left on both sides: moved when the shape is found among the old leftovers.
    for (uint32_t i = 0; i < before.faces.size(); ++i)
        if (!used[i])
            by_shape.emplace(old_keys[i].shape, i);
    for (uint32_t i : unmatched)
        diff.faces[i] =
            take(by_shape, new_keys[i].shape) >= 0 ? FaceChange::Moved : FaceChange::Added;
    for (uint32_t i = 0; i < before.faces.size(); ++i)
        if (!used[i])
            diff.removed.push_back(i);
    for (uint32_t i = 0; i < after.faces.size(); ++i) {
        if (!comparable(after, after.faces[i]))
            continue;
        switch (diff.faces[i]) {
        case FaceChange::Same:
            ++diff.same;
            break;
        case FaceChange::Added:
            ++diff.added;
            break;
        case FaceChange::Moved:
            ++diff.moved;
            break;
        case FaceChange::Relit:
            ++diff.relit;
            break;
        }
    }
    return diff;
}

glm::u8vec4 changeColour(FaceChange change) {
    switch (change) {
    case FaceChange::Added:
        return {60, 220, 70, 255};
    case FaceChange::Moved:
        return {240, 210, 40, 255};
    case FaceChange::Relit:
        return {60, 130, 255, 255};
    case FaceChange::Same:
        break;
    }
    return {0, 0, 0, 0};
}

void addRemovedFaces(LineList& lines, const bsp::Map& before, const MapDiff& diff) {
    for (uint32_t i : diff.removed) {
        if (i >= before.faces.size())
            continue;
        const bsp::Face& f = before.faces[i];
        if (uint64_t(f.first_index) + f.num_indices > before.indices.size())
            continue;
        for (uint32_t t = 0; t + 2 < f.num_indices; t += 3) {
            glm::vec3 p[3];
            bool ok = true;
            for (int k = 0; k < 3; ++k) {
                const uint32_t v = before.indices[f.first_index + t + uint32_t(k)];
                ok = ok && v < before.vertices.size();
                if (ok)
                    p[k] = before.vertices[v].position;
            }
            if (!ok)
                continue;
            lines.add(p[0], p[1], kRemovedColour);
            lines.add(p[1], p[2], kRemovedColour);
            lines.add(p[2], p[0], kRemovedColour);
        }
    }
}

} // namespace scene
