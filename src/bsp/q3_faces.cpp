// Quake 3 family faces: fog volumes (effects), draw vertices, and the surfaces built from them
// (planar, triangle soup, tessellated patch, flare). The format is in bsp/q3.cpp.
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
#include <optional>
#include <tuple>
#include <utility>

namespace bsp::q3 {

core::Status Parser::readEffects() {
    const uint64_t brushes = count(kBrushes);
    for (uint64_t i = 0; i < count(kEffects); ++i) {
        const uint64_t o = at(kEffects, i);
        Fog fog;
        fog.shader = m_r.fixedString(o, 64);
        fog.brush = m_r.i32(o + 64);
        fog.visible_side = m_r.i32(o + 68);
        if (fog.brush == -1) {
            // q3map2's global fog (q3map_globalfog): no brush, the whole map is inside.
            // DarkPlaces Mod_Q3BSP_LoadEffects keeps such effects (ioquake3 R_LoadFogs
            // refuses the map); Nexuiz's silvercity, reslimed and ons-reborn have one.
            fog.visible_side = -1;
            fog.mins = glm::vec3(-kFogOpen);
            fog.maxs = glm::vec3(kFogOpen);
            m_map.fogs.push_back(std::move(fog));
            continue;
        }
        if (!indexOk(fog.brush, brushes))
            return makeError(ErrorCode::IndexOutOfRange, "effects", static_cast<int64_t>(i),
                             "brush",
                             "brush " + std::to_string(fog.brush) + " beyond " +
                                 std::to_string(brushes) + " brushes");
        // -1: no visible side (the fog is only seen from inside).
        const int32_t sides = m_r.i32(at(kBrushes, static_cast<uint64_t>(fog.brush)) + 4);
        if (fog.visible_side < -1 || fog.visible_side >= sides)
            return makeError(ErrorCode::IndexOutOfRange, "effects", static_cast<int64_t>(i),
                             "visibleSide",
                             "side " + std::to_string(fog.visible_side) + " beyond " +
                                 std::to_string(sides) + " brush sides");
        fogShape(fog);
        m_map.fogs.push_back(std::move(fog));
    }
    return core::okStatus();
}

void Parser::fogShape(Fog& fog) {
    const uint64_t b = at(kBrushes, static_cast<uint64_t>(fog.brush));
    const auto first = static_cast<uint64_t>(m_r.i32(b));
    const auto num = static_cast<uint64_t>(m_r.i32(b + 4));
    fog.mins = glm::vec3(-kFogOpen);
    fog.maxs = glm::vec3(kFogOpen);
    for (uint64_t s = 0; s < num; ++s) {
        const Plane& p = m_map.planes[static_cast<size_t>(m_r.i32(at(kBrushSides, first + s)))];
        for (int axis = 0; axis < 3; ++axis) {
            if (p.normal[axis] > 0.999f) {
                fog.maxs[axis] = p.dist;
            } else if (p.normal[axis] < -0.999f) {
                fog.mins[axis] = -p.dist;
            }
        }
    }
    if (fog.visible_side >= 0) {
        const Plane& p = m_map.planes[static_cast<size_t>(
            m_r.i32(at(kBrushSides, first + static_cast<uint64_t>(fog.visible_side))))];
        fog.surface = {-p.normal, -p.dist};
    }
}

core::Status Parser::readVertices() {
    const bool fbsp = m_fbsp;
    m_map.vertices.reserve(static_cast<size_t>(count(kVertexes)));
    for (uint64_t i = 0; i < count(kVertexes); ++i) {
        const uint64_t o = at(kVertexes, i);
        Vertex v;
        v.position = vec3At(o);
        v.uv = {m_r.f32(o + 12), m_r.f32(o + 16)};
        // Style 0 of FBSP's four lightmap coordinates and colours.
        v.lm_uv = {m_r.f32(o + 20), m_r.f32(o + 24)};
        v.normal = vec3At(fbsp ? o + 52 : o + 28);
        const uint64_t c = fbsp ? o + 64 : o + 40;
        v.colour = {m_r.u8(c), m_r.u8(c + 1), m_r.u8(c + 2), m_r.u8(c + 3)};
        m_map.vertices.push_back(v);
    }
    return core::okStatus();
}

Parser::DiskFace Parser::readDiskFace(uint64_t index) const {
    const uint64_t o = at(kFaces, index);
    DiskFace f;
    f.texture = m_r.i32(o);
    f.effect = m_r.i32(o + 4);
    f.type = m_r.i32(o + 8);
    f.first_vertex = m_r.i32(o + 12);
    f.num_vertices = m_r.i32(o + 16);
    f.first_meshvert = m_r.i32(o + 20);
    f.num_meshverts = m_r.i32(o + 24);
    uint64_t tail; // lightmap origin, vectors and patch size follow the lightmap fields
    if (!m_fbsp) {
        f.lightmap = m_r.i32(o + 28);
        f.lm_x = m_r.i32(o + 32);
        f.lm_y = m_r.i32(o + 36);
        f.lm_w = m_r.i32(o + 40);
        f.lm_h = m_r.i32(o + 44);
        tail = o + 48;
    } else {
        // q3map2 (bspfile_rbsp.c) writes lightmapX[4] then lightmapY[4]; style 0 only.
        for (size_t k = 0; k < f.styles.size(); ++k)
            f.styles[k] = m_r.u8(o + 28 + k);
        f.lightmap = m_r.i32(o + 36);
        f.lm_x = m_r.i32(o + 52);
        f.lm_y = m_r.i32(o + 68);
        f.lm_w = m_r.i32(o + 84);
        f.lm_h = m_r.i32(o + 88);
        tail = o + 92;
    }
    f.origin = vec3At(tail);
    f.vec0 = vec3At(tail + 12);
    f.normal = vec3At(tail + 36);
    f.patch_w = m_r.i32(tail + 48);
    f.patch_h = m_r.i32(tail + 52);
    return f;
}

namespace {

// The face kind of a surface type; nothing for type 0 (MST_BAD) and extensions such as
// Nuclide's type 256, which engines skip.
std::optional<FaceKind> faceKind(int32_t type) {
    switch (type) {
    case kSurfacePlanar:
        return FaceKind::Polygon;
    case kSurfacePatch:
        return FaceKind::Patch;
    case kSurfaceTriangleSoup:
        return FaceKind::Mesh;
    case kSurfaceFlare:
        return FaceKind::Billboard;
    default:
        return std::nullopt;
    }
}

// Faces of unknown types, skipped: a few distinct types are named in the warning; the rest are
// only counted.
struct SkippedFaceTypes {
    std::vector<std::pair<int32_t, int64_t>> types; // type, count
    int64_t others = 0;

    void note(int32_t type) {
        auto it = std::find_if(types.begin(), types.end(),
                               [&](const auto& p) { return p.first == type; });
        if (it != types.end())
            ++it->second;
        else if (types.size() < 8)
            types.emplace_back(type, 1);
        else
            ++others;
    }
    void warn(Map& map) const {
        for (const auto& [type, n] : types)
            map.warnings.push_back("faces: " + std::to_string(n) + " face(s) of unknown type " +
                                   std::to_string(type) + " skipped");
        if (others)
            map.warnings.push_back("faces: " + std::to_string(others) +
                                   " more face(s) of other unknown types skipped");
    }
};

// A patch face's control grid: at most kMaxPatchSide per side, each side odd and at least 3,
// and as many control points as the face has vertices.
core::Status checkPatchSize(int64_t fi, int32_t w, int32_t h, int32_t num_vertices) {
    if (w > kMaxPatchSide || h > kMaxPatchSide)
        return makeError(ErrorCode::LimitExceeded, "faces", fi, "patch_size",
                         "patch " + std::to_string(w) + "x" + std::to_string(h) + ", limit " +
                             std::to_string(kMaxPatchSide) + " per side");
    if (!validPatchSize(w, h))
        return makeError(ErrorCode::BadPatch, "faces", fi, "patch_size",
                         "patch " + std::to_string(w) + "x" + std::to_string(h) +
                             " (each side must be odd and at least 3)");
    if (int64_t{w} * h != num_vertices)
        return makeError(ErrorCode::BadPatch, "faces", fi, "patch_size",
                         "patch " + std::to_string(w) + "x" + std::to_string(h) + " needs " +
                             std::to_string(w * h) + " control points, face has " +
                             std::to_string(num_vertices));
    return core::okStatus();
}

} // namespace

core::Status Parser::readFaces() {
    const uint64_t faces = count(kFaces), meshverts = count(kMeshVerts);
    m_keep.assign(static_cast<size_t>(faces), true);
    m_map.faces.reserve(static_cast<size_t>(faces));
    int64_t extra_styles = 0;
    uint64_t face_vertices = 0; // sum of num_vertices, against kMaxFaceVertices
    SkippedFaceTypes skipped;
    for (uint64_t i = 0; i < faces; ++i) {
        const auto fi = static_cast<int64_t>(i);
        const DiskFace d = readDiskFace(i);
        const std::optional<FaceKind> kind = faceKind(d.type);
        if (!kind) {
            skipped.note(d.type);
            m_keep[static_cast<size_t>(i)] = false;
            m_map.faces.emplace_back(); // placeholder, removed by dropSkippedFaces
            continue;
        }
        Face face;
        face.kind = *kind;
        if (core::Status s = readFaceRefs(fi, d, face_vertices, face); !s)
            return s;
        for (size_t k = 1; k < d.styles.size(); ++k)
            if (d.styles[k] != kNoStyle) {
                ++extra_styles;
                break;
            }
        if (std::isfinite(glm::length(d.normal)) && glm::length(d.normal) > 0.0f)
            face.normal = d.normal;
        if (core::Status s = readFaceShape(fi, d, meshverts, face); !s)
            return s;
        // Flares carry no lightmap; the others name a page, or a negative number for
        // vertex lighting (-3 LIGHTMAP_BY_VERTEX in oa_ctf2) or none.
        face.lightmap_page = face.kind == FaceKind::Billboard ? -1 : std::max(d.lightmap, -1);
        if (face.lightmap_page >= 0) {
            m_max_lightmap = std::max(m_max_lightmap, face.lightmap_page);
            face.lightmap_rect = rectFrom(d);
        }
        m_map.faces.push_back(face);
    }
    skipped.warn(m_map);
    if (m_partial_triangles)
        m_map.warnings.push_back("faces: " + std::to_string(m_partial_triangles) +
                                 " face(s) with meshverts that are not whole triangles; the "
                                 "extra ones are ignored");
    if (extra_styles)
        m_map.warnings.push_back("faces: " + std::to_string(extra_styles) +
                                 " face(s) use more than one light style; only style 0 is "
                                 "shown");
    return core::okStatus();
}

core::Status Parser::readFaceRefs(int64_t fi, const DiskFace& d, uint64_t& face_vertices,
                                  Face& face) {
    const uint64_t textures = count(kTextures), effects = count(kEffects);
    const uint64_t vertices = count(kVertexes);
    if (!indexOk(d.texture, textures))
        return makeError(ErrorCode::IndexOutOfRange, "faces", fi, "texture",
                         "texture " + std::to_string(d.texture) + " beyond " +
                             std::to_string(textures) + " textures");
    // ioquake3 tr_bsp.c ParseFace takes fogNum + 1 unchecked (OpenArena's aggressor
    // names fog 0 in a map without fogs, and plays): the face is drawn without fog.
    const bool fog_ok = d.effect >= -1 && d.effect < static_cast<int64_t>(effects);
    if (!fog_ok)
        m_dropped.add(makeError(ErrorCode::IndexOutOfRange, "faces", fi, "effect",
                                "effect " + std::to_string(d.effect) + " beyond " +
                                    std::to_string(effects) + " effects"),
                      "drawn without fog");
    if (!rangeOk(d.first_vertex, d.num_vertices, vertices))
        return makeError(ErrorCode::IndexOutOfRange, "faces", fi, "vertex",
                         rangeText(d.first_vertex, d.num_vertices, vertices, "vertexes"));
    face_vertices += static_cast<uint64_t>(d.num_vertices);
    if (face_vertices > kMaxFaceVertices)
        return makeError(ErrorCode::LimitExceeded, "faces", fi, "vertex",
                         "more than " + std::to_string(kMaxFaceVertices) +
                             " face vertices in all (overlapping ranges)");
    face.material = d.texture;
    face.fog = fog_ok ? d.effect : -1;
    face.first_vertex = static_cast<uint32_t>(d.first_vertex);
    face.num_vertices = static_cast<uint32_t>(d.num_vertices);
    face.styles = {d.styles[0], kNoStyle, kNoStyle, kNoStyle};
    return core::okStatus();
}

core::Status Parser::readFaceShape(int64_t fi, const DiskFace& d, uint64_t meshverts, Face& face) {
    if (face.kind == FaceKind::Polygon || face.kind == FaceKind::Mesh) {
        if (core::Status s = readFaceIndices(fi, d, meshverts); !s)
            return s;
        face.first_index = static_cast<uint32_t>(m_map.indices.size()) -
                           static_cast<uint32_t>(d.num_meshverts / 3 * 3);
        face.num_indices = static_cast<uint32_t>(d.num_meshverts / 3 * 3);
    } else if (face.kind == FaceKind::Patch) {
        if (core::Status s = checkPatchSize(fi, d.patch_w, d.patch_h, d.num_vertices); !s)
            return s;
        face.patch_width = static_cast<uint16_t>(d.patch_w);
        face.patch_height = static_cast<uint16_t>(d.patch_h);
    } else {
        addFlareVertex(face, d);
    }
    return core::okStatus();
}

core::Status Parser::readFaceIndices(int64_t fi, const DiskFace& d, uint64_t meshverts) {
    if (!rangeOk(d.first_meshvert, d.num_meshverts, meshverts))
        return makeError(ErrorCode::IndexOutOfRange, "faces", fi, "meshvert",
                         rangeText(d.first_meshvert, d.num_meshverts, meshverts, "meshverts"));
    // Engines draw whole triangles only; a stray one or two indices are ignored.
    const int32_t n = d.num_meshverts / 3 * 3;
    if (n != d.num_meshverts)
        ++m_partial_triangles;
    if (m_map.indices.size() + static_cast<uint64_t>(n) > kMaxIndices)
        return makeError(ErrorCode::LimitExceeded, "faces", fi, "meshvert",
                         "more than " + std::to_string(kMaxIndices) + " indices in all");
    for (int32_t k = 0; k < n; ++k) {
        const uint64_t at_k = static_cast<uint64_t>(d.first_meshvert) + static_cast<uint64_t>(k);
        const int32_t rel = m_r.i32(at(kMeshVerts, at_k));
        if (rel < 0 || rel >= d.num_vertices)
            return makeError(ErrorCode::IndexOutOfRange, "faces", fi, "meshvert",
                             "meshverts[" + std::to_string(at_k) + "] = " + std::to_string(rel) +
                                 " beyond the face's " + std::to_string(d.num_vertices) +
                                 " vertexes");
        m_map.indices.push_back(static_cast<uint32_t>(d.first_vertex + rel));
    }
    return core::okStatus();
}

void Parser::addFlareVertex(Face& face, const DiskFace& d) {
    if (face.num_vertices > 0)
        return;
    Vertex v;
    v.position = d.origin;
    for (int k = 0; k < 3; ++k) {
        const float c = std::isfinite(d.vec0[k]) ? std::clamp(d.vec0[k], 0.0f, 1.0f) : 1.0f;
        v.colour[k] = static_cast<uint8_t>(std::lround(c * 255.0f));
    }
    v.normal = face.normal;
    face.first_vertex = static_cast<uint32_t>(m_map.vertices.size());
    face.num_vertices = 1;
    m_map.vertices.push_back(v);
}

core::Status Parser::dropSkippedFaces() {
    if (std::all_of(m_keep.begin(), m_keep.end(), [](bool k) { return k; }))
        return core::okStatus();
    std::vector<uint32_t> before(m_keep.size() + 1, 0); // kept faces before index i
    for (size_t i = 0; i < m_keep.size(); ++i)
        before[i + 1] = before[i] + (m_keep[i] ? 1u : 0u);
    std::vector<Face> faces;
    faces.reserve(before.back());
    for (size_t i = 0; i < m_keep.size(); ++i)
        if (m_keep[i])
            faces.push_back(m_map.faces[i]);
    m_map.faces = std::move(faces);

    // Compact leaf_faces in place and move each leaf's range by the number of entries
    // dropped before it: linear in the lump sizes, whatever the (possibly overlapping)
    // leaf ranges say.
    std::vector<uint32_t> kept_entries(m_map.leaf_faces.size() + 1, 0);
    std::vector<uint32_t> leaf_faces;
    leaf_faces.reserve(m_map.leaf_faces.size());
    for (size_t p = 0; p < m_map.leaf_faces.size(); ++p) {
        const uint32_t f = m_map.leaf_faces[p];
        kept_entries[p + 1] = kept_entries[p] + (m_keep[f] ? 1u : 0u);
        if (m_keep[f])
            leaf_faces.push_back(before[f]);
    }
    for (Leaf& leaf : m_map.leaves) {
        const uint32_t end = leaf.first_leaf_face + leaf.num_leaf_faces;
        leaf.first_leaf_face = kept_entries[leaf.first_leaf_face];
        leaf.num_leaf_faces = kept_entries[end] - leaf.first_leaf_face;
    }
    m_map.leaf_faces = std::move(leaf_faces);
    for (Submodel& m : m_map.submodels) {
        const uint32_t end = m.first_face + m.num_faces;
        m.first_face = before[m.first_face];
        m.num_faces = before[end] - m.first_face;
    }
    return core::okStatus();
}

} // namespace bsp::q3
