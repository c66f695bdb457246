// Source displacements: the grids that replace their four-sided base faces (Parser::displacements)
// and their links into the leaves they touch (Parser::linkDisplacements). The format is in
// bsp/vbsp.cpp's header comment.
#include "bsp/collision_read.h"
#include "bsp/lump_table.h"
#include "bsp/tree.h"
#include "bsp/vbsp_parser.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

namespace bsp::vbsp {

namespace {

// A vertex attribute over the quad c0 c1 c2 c3 at (a along c0->c1 and c3->c2, then b across).
template <class T> T bilerp(const std::array<Vertex, 4>& c, T Vertex::*field, float a, float b) {
    const T left = c[0].*field + (c[1].*field - c[0].*field) * a;
    const T right = c[3].*field + (c[2].*field - c[3].*field) * a;
    return left + (right - left) * b;
}

constexpr std::string_view kFlat = "the base face drawn flat";

// The fields of one ddispinfo_t this reader builds the grid from: startPosition vec3,
// DispVertStart, DispTriStart, power, ...
struct DispRecord {
    glm::vec3 start;
    int32_t first_vert = 0;
    uint32_t side = 0; // vertices along each edge of the grid, 2^power + 1
};

// Displacement `disp`'s record at `at`; one whose power is outside 2..4 or whose vertices run
// past the DispVerts lump is dropped (its base face stays flat).
std::optional<DispRecord> readDispRecord(const core::ByteReader& r, uint64_t at, int64_t disp,
                                         uint64_t num_disp_verts, DroppedReferences& dropped) {
    DispRecord rec;
    r.read(at, rec.start);
    rec.first_vert = r.i32(at + 12);
    const int32_t power = r.i32(at + 20);
    if (power < 2 || power > 4) {
        dropped.add(core::makeError(core::ErrorCode::BadValue, "dispinfo", disp, "power",
                                    std::to_string(power) + " outside 2..4"),
                    kFlat);
        return std::nullopt;
    }
    rec.side = (1u << power) + 1;
    const uint64_t grid = uint64_t(rec.side) * rec.side;
    if (rec.first_vert < 0 || uint64_t(rec.first_vert) + grid > num_disp_verts) {
        dropped.add(indexError("dispinfo", disp, "DispVertStart", int64_t(rec.first_vert) + grid,
                               num_disp_verts, "displacement vertices"),
                    kFlat);
        return std::nullopt;
    }
    return rec;
}

// The base quad's corners in surfedge order, starting at the one nearest the start position.
std::array<Vertex, 4> baseCorners(const Map& map, const Face& face, const glm::vec3& start) {
    std::array<Vertex, 4> corner;
    uint32_t first = 0;
    float best = INFINITY;
    for (uint32_t k = 0; k < 4; ++k) {
        const float d = glm::length(map.vertices[face.first_vertex + k].position - start);
        if (d < best) {
            best = d;
            first = k;
        }
    }
    for (uint32_t k = 0; k < 4; ++k)
        corner[k] = map.vertices[face.first_vertex + (first + k) % 4];
    return corner;
}

// Appends the side x side grid: the base quad interpolated, each point moved by its CDispVert
// (vec3 vector, float dist, float alpha).
void appendGridVertices(Map& map, const std::array<Vertex, 4>& corner, const core::ByteReader& dv,
                        const DispRecord& rec) {
    const uint32_t side = rec.side;
    const float inv = 1.0f / float(side - 1);
    for (uint32_t i = 0; i < side; ++i) {
        const float a = float(i) * inv;
        for (uint32_t j = 0; j < side; ++j) {
            const float b = float(j) * inv;
            Vertex v = corner[0];
            v.position = bilerp(corner, &Vertex::position, a, b);
            v.uv = bilerp(corner, &Vertex::uv, a, b);
            v.lm_uv = bilerp(corner, &Vertex::lm_uv, a, b);
            const uint64_t vat = (uint64_t(rec.first_vert) + uint64_t(i) * side + j) * 20;
            glm::vec3 offset;
            dv.read(vat, offset);
            const float dist = dv.f32(vat + 12);
            if (std::isfinite(dist) && std::isfinite(offset.x) && std::isfinite(offset.y) &&
                std::isfinite(offset.z))
                v.position += offset * dist;
            // Hammer's painted alpha, 0..255: the weight of a two-layer material's second
            // texture, carried in the colour's alpha as Source's own vertex format carries
            // it (bsp::Vertex::colour). Out of range clamps, NaN reads as the first layer.
            const float alpha = dv.f32(vat + 16);
            v.colour.a =
                std::isnan(alpha) ? 0 : uint8_t(std::lround(std::clamp(alpha, 0.0f, 255.0f)));
            map.vertices.push_back(v);
        }
    }
}

// Vertex normals across the grid at `grid_first` (central differences, one-sided at the
// edges), turned to the base face's side.
void gridNormals(Map& map, uint32_t grid_first, uint32_t side, const glm::vec3& face_normal) {
    for (uint32_t i = 0; i < side; ++i)
        for (uint32_t j = 0; j < side; ++j) {
            auto pos = [&](uint32_t a, uint32_t b) {
                return map.vertices[grid_first + a * side + b].position;
            };
            const glm::vec3 di = pos(std::min(i + 1, side - 1), j) - pos(i ? i - 1 : 0, j);
            const glm::vec3 dj = pos(i, std::min(j + 1, side - 1)) - pos(i, j ? j - 1 : 0);
            glm::vec3 normal = glm::cross(di, dj);
            const float len = glm::length(normal);
            normal = len > 1e-6f ? normal / len : face_normal;
            if (glm::dot(normal, face_normal) < 0.0f)
                normal = -normal;
            map.vertices[grid_first + i * side + j].normal = normal;
        }
}

// Two triangles per grid cell, in the same turn as the base quad (c0, c1, c2); the diagonal
// alternates from cell to cell as Source's own triangulation does.
void appendGridIndices(Map& map, uint32_t grid_first, uint32_t side) {
    for (uint32_t i = 0; i + 1 < side; ++i)
        for (uint32_t j = 0; j + 1 < side; ++j) {
            const uint32_t v00 = grid_first + i * side + j, v01 = v00 + 1;
            const uint32_t v10 = v00 + side, v11 = v10 + 1;
            if ((i + j) & 1)
                map.indices.insert(map.indices.end(), {v00, v10, v01, v10, v11, v01});
            else
                map.indices.insert(map.indices.end(), {v00, v10, v11, v00, v11, v01});
        }
}

// ddispinfo_t: minTess (24) holds the collision flags when its top bit is set
// (DISP_INFO_FLAG_MAGIC), contents (32). Strata's wide record is not documented for these;
// its displacements collide as solid.
DisplacementCollision dispCollision(const core::ByteReader& r, uint64_t at, bool wide,
                                    uint32_t face) {
    DisplacementCollision dc{face, kCollideSolid, 1u, 0u};
    if (!wide) {
        const uint32_t min_tess = r.u32(at + 24);
        dc.game_contents = r.u32(at + 32);
        dc.contents = sourceContents(dc.game_contents);
        if (min_tess & 0x80000000u)
            dc.flags = min_tess & (kDispNoPhysicsColl | kDispNoHullColl | kDispNoRayColl);
    }
    return dc;
}

} // namespace

core::Status Parser::displacements() {
    const core::ByteReader& r = data[kDispInfo];
    const uint64_t n = count(kDispInfo);
    if (n == 0)
        return core::okStatus();
    const core::ByteReader& fr = data[faces_lump];
    const bool wide_faces = dir[faces_lump].version == 2;
    const uint64_t face_size = wide_faces ? 72 : 56;
    const bool wide = dir[kDispInfo].version == 1;
    const uint64_t disp_size = wide ? 236 : 176;
    const uint64_t num_disp_verts = count(kDispVerts);
    for (uint64_t f = 0; f < map.faces.size(); ++f) {
        const int64_t disp = wide_faces ? int64_t(fr.i32(f * face_size + 20))
                                        : int64_t(fr.get<int16_t>(f * face_size + 12));
        if (disp < 0)
            continue;
        // A displacement this reader cannot build leaves its base face flat.
        if (uint64_t(disp) >= n) {
            dropped.add(indexError(kLumpNames[faces_lump], int64_t(f), "dispinfo", disp, n,
                                   "displacements"),
                        kFlat);
            continue;
        }
        const uint64_t at = uint64_t(disp) * disp_size;
        const std::optional<DispRecord> rec = readDispRecord(r, at, disp, num_disp_verts, dropped);
        if (!rec)
            continue;
        Face& face = map.faces[f];
        if (face.num_vertices != 4) {
            map.warnings.push_back("dispinfo[" + std::to_string(disp) + "]: base face " +
                                   std::to_string(f) + " has " + std::to_string(face.num_vertices) +
                                   " vertices, not 4; drawn flat");
            continue;
        }
        // The base quad's vertices and triangles are the last ones emitted for this face only
        // if no later face followed; rather than move arrays, the grid is appended and the face
        // pointed at it (the four base vertices stay unused).
        const uint32_t grid_first = uint32_t(map.vertices.size());
        appendGridVertices(map, baseCorners(map, face, rec->start), data[kDispVerts], *rec);
        gridNormals(map, grid_first, rec->side, face.normal);
        const uint32_t grid_index = uint32_t(map.indices.size());
        appendGridIndices(map, grid_first, rec->side);
        face.kind = FaceKind::Mesh;
        displacement_faces.push_back(uint32_t(f));
        map.collision.displacements.push_back(dispCollision(r, at, wide, uint32_t(f)));
        face.first_vertex = grid_first;
        face.num_vertices = rec->side * rec->side;
        face.first_index = grid_index;
        face.num_indices = uint32_t(map.indices.size()) - grid_index;
    }
    return core::okStatus();
}

// Displacement faces are in no leaf's face list: the engine links each displacement to the
// leaves its bounding box touches when it loads the map. Done the same way here, walking the
// world's tree from model 0's head node, so PVS and frustum culling treat them like any face.
core::Status Parser::linkDisplacements() {
    if (displacement_faces.empty() || map.nodes.empty())
        return core::okStatus();
    std::vector<std::vector<uint32_t>> added(map.leaves.size());
    std::vector<int32_t> stack;
    // Bounds the references a hostile tree could make (every box in every leaf).
    const uint64_t cap = kLeafFaceRefFactor * map.faces.size() + kLeafFaceRefSlack;
    uint64_t total = map.leaf_faces.size();
    for (uint32_t f : displacement_faces) {
        const Face& face = map.faces[f];
        if (face.submodel != 0)
            continue;
        glm::vec3 mins(INFINITY), maxs(-INFINITY);
        for (uint32_t k = 0; k < face.num_vertices; ++k) {
            mins = glm::min(mins, map.vertices[face.first_vertex + k].position);
            maxs = glm::max(maxs, map.vertices[face.first_vertex + k].position);
        }
        stack.assign(1, 0);
        // validateNodeTrees has ruled out cycles, so the walk visits each node at most once.
        while (!stack.empty()) {
            const int32_t child = stack.back();
            stack.pop_back();
            if (child < 0) {
                if (++total > cap)
                    return core::makeError(core::ErrorCode::LimitExceeded, "dispinfo", -1, {},
                                           "displacements reach more than " + std::to_string(cap) +
                                               " leaf references");
                added[size_t(-1 - child)].push_back(f);
                continue;
            }
            const Node& node = map.nodes[size_t(child)];
            const Plane& pl = map.planes[size_t(node.plane)];
            // The box's nearest and farthest corners along the plane normal.
            float lo = 0.0f, hi = 0.0f;
            for (int k = 0; k < 3; ++k) {
                const float a = pl.normal[k] * mins[k], b = pl.normal[k] * maxs[k];
                lo += std::min(a, b);
                hi += std::max(a, b);
            }
            if (hi >= pl.dist)
                stack.push_back(node.children[0]);
            if (lo < pl.dist)
                stack.push_back(node.children[1]);
        }
    }
    std::vector<uint32_t> leaf_faces;
    leaf_faces.reserve(map.leaf_faces.size());
    for (size_t i = 0; i < map.leaves.size(); ++i) {
        Leaf& leaf = map.leaves[i];
        const uint32_t first = uint32_t(leaf_faces.size());
        leaf_faces.insert(leaf_faces.end(), map.leaf_faces.begin() + leaf.first_leaf_face,
                          map.leaf_faces.begin() + leaf.first_leaf_face + leaf.num_leaf_faces);
        leaf_faces.insert(leaf_faces.end(), added[i].begin(), added[i].end());
        leaf.first_leaf_face = first;
        leaf.num_leaf_faces = uint32_t(leaf_faces.size()) - first;
    }
    map.leaf_faces = std::move(leaf_faces);
    return checkLeafFaceTotal(map, map.leaf_faces.size());
}

} // namespace bsp::vbsp
