#include "bsp/edge_faces.h"

#include "bsp/lump_table.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string_view>

namespace bsp {

namespace {
core::Error faceError(core::ErrorCode code, const std::string& lump, int64_t index,
                      std::string field, std::string detail) {
    return core::makeError(code, lump, index, std::move(field), std::move(detail));
}

double axisValue(const glm::vec3& p, const glm::vec4& a) {
    return double(p.x) * double(a.x) + double(p.y) * double(a.y) + double(p.z) * double(a.z) +
           double(a.w);
}
} // namespace

core::Status collectFacePolygon(const EdgeGeometry& geo, const std::string& lump,
                                int64_t face_index, int64_t first_edge, int64_t num_edges,
                                std::vector<glm::vec3>& out) {
    out.clear();
    if (num_edges < 0 || num_edges > int64_t(kMaxFaceEdges))
        return faceError(core::ErrorCode::LimitExceeded, lump, face_index, "numedges",
                         std::to_string(num_edges) + " edges (limit " +
                             std::to_string(kMaxFaceEdges) + ")");
    if (first_edge < 0 || first_edge + num_edges > int64_t(geo.surfedges.size()))
        return faceError(core::ErrorCode::IndexOutOfRange, lump, face_index, "firstedge",
                         "range " + std::to_string(first_edge) + "+" + std::to_string(num_edges) +
                             " beyond " + std::to_string(geo.surfedges.size()) + " surfedges");
    out.reserve(static_cast<size_t>(num_edges));
    for (int64_t i = 0; i < num_edges; ++i) {
        const int64_t se = geo.surfedges[static_cast<size_t>(first_edge + i)];
        const int64_t edge = std::llabs(se);
        if (edge >= int64_t(geo.edges.size()))
            return faceError(core::ErrorCode::IndexOutOfRange, lump, face_index, "surfedge",
                             "edge " + std::to_string(se) + " beyond " +
                                 std::to_string(geo.edges.size()) + " edges");
        const auto& e = geo.edges[static_cast<size_t>(edge)];
        const uint32_t v = se < 0 ? e[1] : e[0];
        if (v >= geo.vertices.size())
            return faceError(core::ErrorCode::IndexOutOfRange, lump, face_index, "edge",
                             "vertex " + std::to_string(v) + " beyond " +
                                 std::to_string(geo.vertices.size()) + " vertices");
        out.push_back(geo.vertices[v]);
    }
    return core::okStatus();
}

LightmapExtents computeLightmapExtents(std::span<const glm::vec3> polygon, const TexAxes& axes,
                                       int32_t luxel_size) {
    LightmapExtents ext;
    luxel_size = std::clamp(luxel_size, 1, kMaxLuxelSize);
    ext.luxel_size = luxel_size;
    const double size = luxel_size;
    if (polygon.empty())
        return ext;
    double mins[2] = {1e30, 1e30}, maxs[2] = {-1e30, -1e30};
    for (const glm::vec3& p : polygon) {
        const double v[2] = {axisValue(p, axes.s), axisValue(p, axes.t)};
        if (!std::isfinite(v[0]) || !std::isfinite(v[1])) {
            // NaN or infinite texture axes: an oversized grid, so callers drop the lightmap.
            ext.width = ext.height = std::numeric_limits<int32_t>::max();
            return ext;
        }
        for (int j = 0; j < 2; ++j) {
            mins[j] = std::min(mins[j], v[j]);
            maxs[j] = std::max(maxs[j], v[j]);
        }
    }
    for (int j = 0; j < 2; ++j) {
        // Clamp before converting so a hostile texinfo cannot overflow the int conversion nor
        // the products below: (bmax - bmin) * 16 must fit an int32, so |b| <= 1e7 luxels (the
        // fuzzer found 1e8, which overflowed to 3.2e9). Real faces are far inside: even a
        // 1/64-scale texture on a 2^20-unit BSP2 world spans 4e6 luxels.
        // With larger luxels the bound shrinks so the products still fit.
        const double limit = 16e7 / size;
        const double bmin = std::clamp(std::floor(mins[j] / size), -limit, limit);
        const double bmax = std::clamp(std::ceil(maxs[j] / size), -limit, limit);
        ext.texture_mins[j] = static_cast<int32_t>(bmin) * luxel_size;
        ext.extents[j] = static_cast<int32_t>(bmax - bmin) * luxel_size;
    }
    ext.width = ext.extents[0] / luxel_size + 1;
    ext.height = ext.extents[1] / luxel_size + 1;
    return ext;
}

core::Status checkFaceVertexTotal(uint64_t emitted, uint64_t adding, const std::string& lump,
                                  int64_t face_index) {
    if (adding <= kMaxFaceVerticesTotal && emitted <= kMaxFaceVerticesTotal - adding)
        return core::okStatus();
    return faceError(core::ErrorCode::LimitExceeded, lump, face_index, "numedges",
                     "more than " + std::to_string(kMaxFaceVerticesTotal) +
                         " polygon vertices in all (faces share surfedges)");
}

void emitFacePolygon(Map& map, Face& face, std::span<const glm::vec3> polygon, const TexAxes& axes,
                     float tex_w, float tex_h, const glm::vec3& normal) {
    face.kind = FaceKind::Polygon;
    face.normal = normal;
    face.first_vertex = static_cast<uint32_t>(map.vertices.size());
    face.num_vertices = static_cast<uint32_t>(polygon.size());
    face.first_index = static_cast<uint32_t>(map.indices.size());
    face.num_indices = 0;
    const float inv_w = tex_w > 0.0f ? 1.0f / tex_w : 1.0f;
    const float inv_h = tex_h > 0.0f ? 1.0f / tex_h : 1.0f;
    for (const glm::vec3& p : polygon) {
        Vertex v;
        v.position = p;
        // Clamped so that a hostile texinfo cannot make the double -> float conversion overflow.
        v.uv = glm::vec2(float(std::clamp(axisValue(p, axes.s), -1e30, 1e30)) * inv_w,
                         float(std::clamp(axisValue(p, axes.t), -1e30, 1e30)) * inv_h);
        v.normal = normal;
        map.vertices.push_back(v);
    }
    if (polygon.size() < 3)
        return;
    for (uint32_t i = 1; i + 1 < polygon.size(); ++i) {
        map.indices.push_back(face.first_vertex);
        map.indices.push_back(face.first_vertex + i);
        map.indices.push_back(face.first_vertex + i + 1);
    }
    face.num_indices = static_cast<uint32_t>(map.indices.size()) - face.first_index;
}

bool lightmapFits(const LightmapExtents& ext, int styles, int64_t offset, uint64_t size,
                  int bytes_per_luxel) {
    if (ext.width <= 0 || ext.height <= 0 || ext.width > kMaxLightmapSide ||
        ext.height > kMaxLightmapSide || offset < 0 || uint64_t(offset) > size)
        return false;
    const uint64_t block = uint64_t(ext.width) * uint64_t(ext.height) * uint64_t(bytes_per_luxel);
    return block * uint64_t(std::max(styles, 1)) <= size - uint64_t(offset);
}

core::Status LightmapBuilder::place(Map& map, Face& face, const LightmapExtents& ext,
                                    const TexAxes& axes, std::span<const uint8_t> rgb,
                                    int64_t offset, const std::string& lump, int64_t face_index,
                                    std::span<const uint8_t> dirs) {
    const int styles = std::max(1, face.numStyles());
    const int64_t block = int64_t(ext.width) * ext.height * 3;
    if (ext.width <= 0 || ext.height <= 0 || ext.width > kMaxLightmapSide ||
        ext.height > kMaxLightmapSide)
        return faceError(core::ErrorCode::BadLightmap, lump, face_index, "extents",
                         "lightmap " + std::to_string(ext.width) + "x" +
                             std::to_string(ext.height) + " luxels outside 1.." +
                             std::to_string(kMaxLightmapSide));
    // The engines point a face's samples into the lighting unchecked and read on (QuakeSpasm
    // gl_model.c Mod_LoadFaces, Xash3D FWGS mod_bmodel.c Mod_LoadLighting; GoldSrc reads the
    // file buffer past the lump): a block that runs past the end (the last face of some
    // Half-Life maps) is read as far as the data goes, the rest black.
    if (offset >= 0 &&
        (offset > int64_t(rgb.size()) || block * styles > int64_t(rgb.size()) - offset))
        m_dropped.add(faceError(core::ErrorCode::BadLightmap, lump, face_index, "lightofs",
                                "lightmap at " + std::to_string(offset) + " (" +
                                    std::to_string(styles) + " styles of " + std::to_string(block) +
                                    " bytes) beyond " + std::to_string(rgb.size()) +
                                    " bytes of lighting"),
                      "read to the lump's end, the rest black");
    if (offset >= 0 && !dirs.empty() && !lightmapFits(ext, styles, offset, dirs.size()))
        m_dropped.add(faceError(core::ErrorCode::BadLightmap, lump, face_index, "lightofs",
                                "light directions at " + std::to_string(offset) + " beyond " +
                                    std::to_string(dirs.size()) + " bytes"),
                      "read to the data's end, the rest without direction");
    const int blocks = styles * std::clamp(ext.blocks_per_style, 1, 4);
    auto at = m_atlas.insert(ext.width * blocks, ext.height);
    if (!at) {
        core::Error e = at.error();
        e.code = core::ErrorCode::BadLightmap;
        e.lump = lump;
        e.index = face_index;
        return e;
    }
    const int32_t pw = m_atlas.pageWidth(), ph = m_atlas.pageHeight();
    while (m_pages.size() <= size_t(at->page))
        m_pages.push_back(LightmapPage{std::vector<uint8_t>(size_t(pw) * size_t(ph) * 3, 0)});
    // Rows copied as far as `from` goes; the page is zero (black) beyond.
    const auto copyBlocks = [&](std::span<const uint8_t> from, std::vector<uint8_t>& page) {
        const int64_t size = int64_t(from.size());
        for (int k = 0; k < blocks; ++k)
            for (int32_t y = 0; y < ext.height; ++y) {
                const int64_t begin = offset + k * block + int64_t(y) * ext.width * 3;
                const int64_t n = std::clamp<int64_t>(size - begin, 0, int64_t(ext.width) * 3);
                if (n == 0)
                    continue;
                uint8_t* dst = page.data() +
                               (size_t(at->y + y) * size_t(pw) + size_t(at->x + k * ext.width)) * 3;
                std::copy_n(from.data() + begin, size_t(n), dst);
            }
    };
    if (offset >= 0)
        copyBlocks(rgb, m_pages[size_t(at->page)].rgb);
    if (offset >= 0 && !dirs.empty()) {
        while (m_deluxe.size() < m_pages.size())
            m_deluxe.push_back(LightmapPage{std::vector<uint8_t>(size_t(pw) * size_t(ph) * 3, 0)});
        copyBlocks(dirs, m_deluxe[size_t(at->page)].rgb);
    }
    face.lightmap_page = at->page;
    face.bump_light = blocks > styles;
    face.lightmap_rect = LightmapRect{at->x, at->y, static_cast<uint16_t>(ext.width * styles),
                                      static_cast<uint16_t>(ext.height)};
    for (uint32_t i = 0; i < face.num_vertices; ++i) {
        Vertex& v = map.vertices[face.first_vertex + i];
        // Luxel centres: quakespasm BuildSurfaceDisplayList adds 8 texels (half a luxel).
        const double half = ext.luxel_size * 0.5, size = ext.luxel_size;
        const double s = axisValue(v.position, axes.s) - ext.texture_mins[0] + half;
        const double t = axisValue(v.position, axes.t) - ext.texture_mins[1] + half;
        v.lm_uv = glm::vec2(float((s / size + at->x) / pw), float((t / size + at->y) / ph));
    }
    return core::okStatus();
}

void LightmapBuilder::finish(Map& map) {
    m_dropped.flush(map);
    // Directions, when any face had them, cover every page (pages after the last face with
    // directions stay zero).
    if (!m_deluxe.empty())
        while (m_deluxe.size() < m_pages.size())
            m_deluxe.push_back(LightmapPage{std::vector<uint8_t>(m_deluxe[0].rgb.size(), 0)});
    map.lightmap_pages = std::move(m_pages);
    map.deluxe_pages = std::move(m_deluxe);
    m_pages.clear();
    m_deluxe.clear();
    if (!map.lightmap_pages.empty()) {
        map.lightmap_width = m_atlas.pageWidth();
        map.lightmap_height = m_atlas.pageHeight();
    }
}

core::Status validateNodeTrees(const Map& map, std::span<const int32_t> heads) {
    std::vector<uint32_t> seen(map.nodes.size(), 0); // 1 + walk number of the first visit
    std::vector<int32_t> stack;
    for (size_t h = 0; h < heads.size(); ++h) {
        if (heads[h] < 0)
            continue; // a model that is a single leaf
        if (size_t(heads[h]) >= map.nodes.size())
            return core::makeError(core::ErrorCode::BadTree, "models", int64_t(h), "headnode",
                                   std::to_string(heads[h]) + " beyond " +
                                       std::to_string(map.nodes.size()) + " nodes");
        stack.assign(1, heads[h]);
        while (!stack.empty()) {
            const int32_t n = stack.back();
            stack.pop_back();
            if (seen[size_t(n)] == uint32_t(h + 1))
                return core::makeError(core::ErrorCode::BadTree, "nodes", n, "children",
                                       "node reached twice from model " + std::to_string(h));
            if (seen[size_t(n)])
                continue; // another model's tree; walked already
            seen[size_t(n)] = uint32_t(h + 1);
            for (int32_t c : map.nodes[size_t(n)].children)
                if (c >= 0 && size_t(c) < map.nodes.size())
                    stack.push_back(c);
        }
    }
    return core::okStatus();
}

void bindSubmodelEntities(Map& map) {
    for (size_t e = 0; e < map.entities.size(); ++e) {
        const Entity& ent = map.entities[e];
        const std::string_view model = ent.get("model");
        if (model.size() < 2 || model[0] != '*')
            continue;
        char* end = nullptr;
        const std::string digits(model.substr(1));
        const long n = std::strtol(digits.c_str(), &end, 10);
        if (end != digits.c_str() + digits.size() || n <= 0 || size_t(n) >= map.submodels.size())
            continue;
        Submodel& sm = map.submodels[size_t(n)];
        if (sm.entity >= 0)
            continue; // first owner wins
        sm.entity = static_cast<int32_t>(e);
        if (auto o = ent.vec3("origin"))
            sm.origin = *o;
        // Doors, buttons and the like turn "angle"/"angles" into a move direction and reset
        // their angles (QuakeC/game SetMovedir), so only other entities are drawn rotated.
        const std::string_view cls = ent.classname();
        const bool movedir = cls.starts_with("func_door") || cls.starts_with("func_button") ||
                             cls.starts_with("func_water") || cls.starts_with("trigger_");
        if (auto a = ent.vec3("angles"); a && !movedir)
            sm.angles = *a;
        if (cls.starts_with("trigger_"))
            sm.visible = false;
    }
}

core::Result<std::vector<int32_t>> readEdgeModels(Map& map, const core::ByteReader& r,
                                                  uint64_t count, uint64_t record_size,
                                                  uint64_t faces_at, bool head_may_be_leaf) {
    if (count == 0)
        return core::makeError(core::ErrorCode::BadValue, "models", -1, {}, "no world model");
    map.submodels.resize(count);
    std::vector<int32_t> heads(count);
    for (uint64_t i = 0; i < count; ++i) {
        const uint64_t at = i * record_size;
        const int32_t head = r.i32(at + 36);
        const bool ok = head >= 0
                            ? uint64_t(head) < map.nodes.size()
                            : head_may_be_leaf && uint64_t(-1 - int64_t(head)) < map.leaves.size();
        if (!ok)
            return indexError("models", int64_t(i), "headnode", head, map.nodes.size(), "nodes");
        heads[i] = head;
        Submodel& sm = map.submodels[i];
        r.read(at, sm.mins);
        r.read(at + 12, sm.maxs);
        if (auto st = setModelFaces(map, i, r.i32(at + faces_at), r.i32(at + faces_at + 4)); !st)
            return st.error();
    }
    return heads;
}

core::Status setModelFaces(Map& map, uint64_t index, int64_t first, int64_t num) {
    if (first < 0 || num < 0 || static_cast<uint64_t>(first + num) > map.faces.size())
        return indexError("models", static_cast<int64_t>(index), "firstface", first + num,
                          map.faces.size(), "faces");
    Submodel& sm = map.submodels[index];
    sm.first_face = static_cast<uint32_t>(first);
    sm.num_faces = static_cast<uint32_t>(num);
    if (index > 0)
        for (int64_t f = first; f < first + num; ++f)
            map.faces[static_cast<size_t>(f)].submodel = static_cast<int32_t>(index);
    return core::okStatus();
}

EdgeFaceBuilder::EdgeFaceBuilder(Map& map, const EdgeGeometry& geo, uint64_t face_count)
    : m_map(map), m_geo(geo) {
    map.faces.resize(face_count);
    map.vertices.reserve(geo.surfedges.size());
    map.indices.reserve(geo.surfedges.size() * 3);
}

core::Status EdgeFaceBuilder::emit(uint64_t index, const EdgeFaceRecord& rec,
                                   uint64_t texinfo_count, int32_t material, const TexAxes& axes,
                                   float tex_w, float tex_h) {
    static const std::string kLump = "faces";
    const auto i = static_cast<int64_t>(index);
    if (rec.plane < 0 || static_cast<uint64_t>(rec.plane) >= m_map.planes.size())
        return indexError("faces", i, "planenum", rec.plane, m_map.planes.size(), "planes");
    if (rec.texinfo < 0 || static_cast<uint64_t>(rec.texinfo) >= texinfo_count)
        return indexError("faces", i, "texinfo", rec.texinfo, texinfo_count, "texinfo");
    if (auto st = collectFacePolygon(m_geo, kLump, i, rec.first_edge, rec.num_edges, m_poly); !st)
        return st;
    if (auto st = checkFaceVertexTotal(m_map.vertices.size(), m_poly.size(), kLump, i); !st)
        return st;
    Face& face = m_map.faces[index];
    face.material = material;
    for (size_t k = 0; k < 4; ++k)
        face.styles[k] = rec.styles[k];
    const glm::vec3& plane_normal = m_map.planes[static_cast<size_t>(rec.plane)].normal;
    emitFacePolygon(m_map, face, m_poly, axes, tex_w, tex_h,
                    rec.side ? -plane_normal : plane_normal);
    return core::okStatus();
}

core::Status EdgeFaceBuilder::light(uint64_t index, const TexAxes& axes,
                                    std::span<const uint8_t> lighting, int64_t offset) {
    return light(index, axes, computeLightmapExtents(m_poly, axes), lighting, offset, {});
}

core::Status EdgeFaceBuilder::light(uint64_t index, const TexAxes& axes, const LightmapExtents& ext,
                                    std::span<const uint8_t> lighting, int64_t offset,
                                    std::span<const uint8_t> dirs) {
    Face& face = m_map.faces[index];
    if (m_poly.size() < 3)
        return core::okStatus();
    if (offset < 0 || face.numStyles() == 0) {
        unlit(index);
        return core::okStatus();
    }
    if (ext.width > kMaxLightmapSide || ext.height > kMaxLightmapSide) {
        ++m_oversized;
        return core::okStatus();
    }
    return m_lightmaps.place(m_map, face, ext, axes, lighting, offset, "faces",
                             static_cast<int64_t>(index), dirs);
}

void EdgeFaceBuilder::unlit(uint64_t index) {
    Face& face = m_map.faces[index];
    if (face.unlit)
        return;
    face.unlit = true;
    ++m_map.unlit_face_count;
}

void EdgeFaceBuilder::finish() {
    if (m_oversized)
        m_map.warnings.push_back("faces: " + std::to_string(m_oversized) +
                                 " faces have lightmaps larger than " +
                                 std::to_string(kMaxLightmapSide) + " luxels; drawn unlit");
    m_lightmaps.finish(m_map);
}

} // namespace bsp
