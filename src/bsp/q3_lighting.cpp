// Quake 3 family lighting: lightmap pages and the light grid. The format is in bsp/q3.cpp.
#include "bsp/q3_parser.h"

#include "bsp/collision_read.h"
#include "bsp/dropped.h"
#include "bsp/entities.h"
#include "bsp/patch.h"
#include "bsp/tree.h"
#include "core/byte_reader.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <glm/geometric.hpp>
#include <tuple>
#include <utility>

namespace bsp::q3 {

namespace {

// The light grid's cell size as ioquake3 reads it (renderergl1 tr_bsp.c R_LoadEntities): the
// first entity's keys in order, "gridsize" compared without case, its value read by sscanf
// "%f %f %f" (the numbers before the first that does not parse replace the default's, the rest
// keep it), a later key replacing an earlier one; a "vertexremapshader..." or "remapshader..."
// key (prefixes compared with case) whose value has no ';' ends the reading.
glm::vec3 engineGridSize(const std::vector<Entity>& entities) {
    glm::vec3 size(64.0f, 64.0f, 128.0f);
    if (entities.empty())
        return size;
    for (const auto& [key, value] : entities[0].pairs) {
        const bool remap = std::string_view(key).starts_with("vertexremapshader") ||
                           std::string_view(key).starts_with("remapshader");
        if (remap && value.find(';') == std::string::npos)
            break;
        if (remap || key.size() != 8)
            continue;
        bool grid = true;
        for (size_t i = 0; i < 8; ++i)
            grid = grid && std::tolower(static_cast<unsigned char>(key[i])) == "gridsize"[i];
        if (!grid)
            continue;
        const char* p = value.c_str();
        for (int i = 0; i < 3; ++i) {
            char* end = nullptr;
            const float v = std::strtof(p, &end);
            if (end == p)
                break;
            size[i] = v;
            p = end;
        }
    }
    return size;
}

} // namespace

LightmapRect Parser::rectFrom(const DiskFace& d) {
    const int32_t side = 512; // largest page; clamped again once the page size is known
    auto fit = [&](int32_t v) { return static_cast<uint16_t>(std::clamp(v, 0, side)); };
    if (d.lm_x < 0 || d.lm_y < 0 || d.lm_w < 0 || d.lm_h < 0)
        ++m_bad_rects;
    return {fit(d.lm_x), fit(d.lm_y), fit(d.lm_w), fit(d.lm_h)};
}

core::Status Parser::readLightmaps() {
    const LumpRange& l = m_lumps[kLightmaps];
    if (l.length == 0) {
        // q3map2 -external keeps no pages in the file: faces that still name one name the
        // image maps/NAME/lm_NNNN beside the map, which the scene loads (DarkPlaces
        // model_brush.c Mod_Q3BSP_LoadLightmaps looks for them when the lump is empty).
        // Their rectangles mean nothing then; the vertices' lm_uv span the whole image.
        for (Face& f : m_map.faces)
            if (f.lightmap_page >= 0) {
                m_map.lightmap_storage = LightmapStorage::External;
                f.lightmap_rect = {};
            }
        m_map.has_light_data = m_map.lightmap_storage == LightmapStorage::External;
        return core::okStatus();
    }
    m_map.has_light_data = true;
    // IBSP pages are 128 square. FBSP writers use 512 (Qfusion's default) or 128: take the
    // larger that divides the lump and holds every page the faces name.
    int32_t side = 128;
    if (m_fbsp) {
        const uint64_t big = 512ull * 512 * 3;
        side = (l.length % big == 0 && static_cast<uint64_t>(m_max_lightmap) < l.length / big)
                   ? 512
                   : 128;
    }
    const uint64_t page_bytes = static_cast<uint64_t>(side) * static_cast<uint64_t>(side) * 3;
    if (l.length % page_bytes != 0)
        return makeError(ErrorCode::LumpSize, "lightmaps", -1, {},
                         "length " + std::to_string(l.length) + " is not a whole number of " +
                             std::to_string(side) + "x" + std::to_string(side) + " pages");
    const uint64_t pages = l.length / page_bytes;
    if (pages > kMaxLightmapPages)
        return makeError(ErrorCode::LimitExceeded, "lightmaps", -1, {},
                         std::to_string(pages) + " pages, limit " +
                             std::to_string(kMaxLightmapPages));
    for (size_t i = 0; i < m_map.faces.size(); ++i) {
        Face& f = m_map.faces[i];
        if (f.lightmap_page < 0)
            continue;
        if (static_cast<uint64_t>(f.lightmap_page) >= pages) {
            // ioquake3 tr_shader.c R_FindShader draws a face whose lightmap the file does
            // not hold with vertex lighting (LIGHTMAP_BY_VERTEX).
            m_dropped.add(makeError(ErrorCode::IndexOutOfRange, "faces", static_cast<int64_t>(i),
                                    "lightmap",
                                    "lightmap " + std::to_string(f.lightmap_page) + " beyond " +
                                        std::to_string(pages) + " pages"),
                          "vertex lit");
            f.lightmap_page = -1;
            f.lightmap_rect = {};
            continue;
        }
        LightmapRect& r = f.lightmap_rect;
        const auto s = static_cast<uint16_t>(side);
        if (r.x > s || r.y > s || r.w > s - r.x || r.h > s - r.y) {
            ++m_bad_rects;
            r.x = std::min(r.x, s);
            r.y = std::min(r.y, s);
            r.w = static_cast<uint16_t>(std::min<int>(r.w, s - r.x));
            r.h = static_cast<uint16_t>(std::min<int>(r.h, s - r.y));
        }
    }
    if (m_bad_rects)
        m_map.warnings.push_back("faces: " + std::to_string(m_bad_rects) +
                                 " lightmap rectangle(s) outside their page, clamped");
    m_map.lightmap_width = side;
    m_map.lightmap_height = side;
    m_map.lightmap_pages.resize(static_cast<size_t>(pages));
    for (uint64_t p = 0; p < pages; ++p) {
        const auto bytes = m_r.bytes().subspan(static_cast<size_t>(l.offset + p * page_bytes),
                                               static_cast<size_t>(page_bytes));
        m_map.lightmap_pages[static_cast<size_t>(p)].rgb.assign(bytes.begin(), bytes.end());
    }
    LumpInfo& info = m_map.lumps[kLightmaps];
    info.record_size = static_cast<uint32_t>(page_bytes);
    info.count = static_cast<uint32_t>(pages);
    return core::okStatus();
}

core::Status Parser::readLightGrid() {
    const LumpRange& l = m_lumps[kLightVols];
    if (m_fbsp || l.length == 0 || m_map.submodels.empty())
        return core::okStatus();
    LightGrid grid;
    grid.cell_size = engineGridSize(m_map.entities);
    const Submodel& world = m_map.submodels[0];
    // Point counts in doubles: a hostile gridsize or bounds may ask for more than any lump
    // holds, and then the product is compared, never allocated.
    std::array<double, 3> n{};
    for (int i = 0; i < 3; ++i) {
        // In floats and truncated, as the engine computes it.
        const float cell = grid.cell_size[i];
        const float lo = cell * std::ceil(world.mins[i] / cell);
        const float hi = cell * std::floor(world.maxs[i] / cell);
        n[size_t(i)] = std::trunc(double((hi - lo) / cell + 1.0f));
        if (!(cell > 0.0f) || !std::isfinite(n[size_t(i)]) || n[size_t(i)] < 1.0) {
            m_map.warnings.push_back("lightvols: gridsize " + std::to_string(cell) +
                                     " over bounds " + std::to_string(world.mins[i]) + ".." +
                                     std::to_string(world.maxs[i]) + " gives no grid along axis " +
                                     std::to_string(i) + "; ignored");
            return core::okStatus();
        }
        grid.origin[i] = lo;
    }
    const double points = n[0] * n[1] * n[2];
    if (points != double(l.count)) {
        auto text = [](double v) {
            return v < 1e15 ? std::to_string(static_cast<uint64_t>(v)) : std::string("huge");
        };
        m_map.warnings.push_back("lightvols: " + std::to_string(l.count) + " points, the grid of " +
                                 text(n[0]) + "x" + text(n[1]) + "x" + text(n[2]) + " needs " +
                                 text(points) + " (light grid mismatch); ignored");
        return core::okStatus();
    }
    for (size_t i = 0; i < 3; ++i)
        grid.counts[i] = static_cast<int32_t>(n[i]); // each at most the lump's count
    // tr_light.c R_SetupEntityLightingGrid: byte 7 is the latitude, byte 6 the longitude,
    // each a 256th of a turn; x = cos(lat) sin(lng), y = sin(lat) sin(lng), z = cos(lng).
    constexpr double kStep = 2.0 * 3.14159265358979323846 / 256.0;
    grid.points.resize(static_cast<size_t>(l.count));
    for (uint64_t i = 0; i < l.count; ++i) {
        const uint64_t o = at(kLightVols, i);
        LightGridPoint& p = grid.points[static_cast<size_t>(i)];
        for (uint64_t c = 0; c < 3; ++c) {
            p.ambient[c] = m_r.u8(o + c);
            p.directed[c] = m_r.u8(o + 3 + c);
        }
        const double lng = m_r.u8(o + 6) * kStep, lat = m_r.u8(o + 7) * kStep;
        p.direction =
            glm::vec3(std::cos(lat) * std::sin(lng), std::sin(lat) * std::sin(lng), std::cos(lng));
    }
    m_map.light_grid = std::move(grid);
    return core::okStatus();
}

} // namespace bsp::q3
