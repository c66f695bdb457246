// Builds small bsp::Map values in code for scene, render and app tests: the pieces the tests
// used to copy (a quad face, a flare, one leaf holding the whole world, a lit floor, a cube
// room). Each helper appends
// to a map and fills in the ranges (vertices, indices, leaf faces) it creates, so a test only
// states what it is about: materials, corners, normals, fogs, lightmaps.
//
// For maps that must go through a parser, build file bytes instead (q2_builder.h,
// q3_builder.h).
#pragma once

#include "bsp/map.h"

#include <array>
#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

namespace testsupport {

// Appends a material named `name` with SurfaceFlags `flags`; returns its index.
inline int32_t addMaterial(bsp::Map& m, std::string name, uint32_t flags = 0) {
    bsp::Material mat;
    mat.name = std::move(name);
    mat.flags = flags;
    m.materials.push_back(std::move(mat));
    return static_cast<int32_t>(m.materials.size() - 1);
}

// The index of the material named `name`, appended (without flags) when the map has none yet.
inline int32_t materialNamed(bsp::Map& m, const std::string& name) {
    for (size_t i = 0; i < m.materials.size(); ++i)
        if (m.materials[i].name == name)
            return static_cast<int32_t>(i);
    return addMaterial(m, name);
}

// Appends a polygon face over four vertices, triangulated as the fan (0 1 2, 0 2 3). `face`
// gives everything but the vertex and index ranges (material, normal, fog, lightmap...).
// Returns the new face's index.
inline uint32_t addQuadVertices(bsp::Map& m, const std::array<bsp::Vertex, 4>& vertices,
                                bsp::Face face) {
    face.first_vertex = static_cast<uint32_t>(m.vertices.size());
    face.num_vertices = 4;
    face.first_index = static_cast<uint32_t>(m.indices.size());
    face.num_indices = 6;
    m.vertices.insert(m.vertices.end(), vertices.begin(), vertices.end());
    for (uint32_t k : {0u, 1u, 2u, 0u, 2u, 3u})
        m.indices.push_back(face.first_vertex + k);
    m.faces.push_back(face);
    return static_cast<uint32_t>(m.faces.size() - 1);
}

// addQuadVertices from corner positions: every vertex takes the face's normal, the rest default.
inline uint32_t addQuad(bsp::Map& m, const std::array<glm::vec3, 4>& corners,
                        const bsp::Face& face) {
    std::array<bsp::Vertex, 4> v{};
    for (size_t k = 0; k < 4; ++k) {
        v[k].position = corners[k];
        v[k].normal = face.normal;
    }
    return addQuadVertices(m, v, face);
}

// Appends a flare (FaceKind::Billboard): one vertex at `position` taking the face's normal, no
// indices. Returns the new face's index.
inline uint32_t addFlare(bsp::Map& m, const glm::vec3& position, bsp::Face face) {
    face.kind = bsp::FaceKind::Billboard;
    face.first_vertex = static_cast<uint32_t>(m.vertices.size());
    face.num_vertices = 1;
    face.first_index = static_cast<uint32_t>(m.indices.size());
    face.num_indices = 0;
    bsp::Vertex v;
    v.position = position;
    v.normal = face.normal;
    m.vertices.push_back(v);
    m.faces.push_back(face);
    return static_cast<uint32_t>(m.faces.size() - 1);
}

// Appends a leaf of cluster `cluster` with bounds (mins, maxs) holding faces [first, first +
// count); returns its index.
inline uint32_t addLeaf(bsp::Map& m, const glm::vec3& mins, const glm::vec3& maxs, int32_t cluster,
                        uint32_t first, uint32_t count) {
    bsp::Leaf leaf;
    leaf.cluster = cluster;
    leaf.mins = mins;
    leaf.maxs = maxs;
    leaf.first_leaf_face = static_cast<uint32_t>(m.leaf_faces.size());
    leaf.num_leaf_faces = count;
    m.leaves.push_back(leaf);
    const size_t at = m.leaf_faces.size();
    m.leaf_faces.resize(at + count);
    std::iota(m.leaf_faces.begin() + static_cast<std::ptrdiff_t>(at), m.leaf_faces.end(), first);
    return static_cast<uint32_t>(m.leaves.size() - 1);
}

// Appends the world submodel (model 0) over the first `faces` faces with bounds (mins, maxs).
inline void addWorldModel(bsp::Map& m, const glm::vec3& mins, const glm::vec3& maxs,
                          uint32_t faces) {
    bsp::Submodel world;
    world.mins = mins;
    world.maxs = maxs;
    world.num_faces = faces;
    m.submodels.push_back(world);
}

// Ends a one-room map: one leaf of cluster `cluster` with bounds (mins, maxs) holding every face
// so far, and the world submodel over the same faces and bounds. No vis data: every face is
// drawn from everywhere.
inline void addWorldLeaf(bsp::Map& m, const glm::vec3& mins, const glm::vec3& maxs,
                         int32_t cluster = 0) {
    const auto count = static_cast<uint32_t>(m.faces.size());
    addLeaf(m, mins, maxs, cluster, 0, count);
    addWorldModel(m, mins, maxs, count);
}

// Appends an 8x8 lightmap page whose every luxel is `luxel` (grey) and makes 8x8 the map's page
// size; returns the page's index.
inline int32_t addGreyLightmapPage(bsp::Map& m, uint8_t luxel) {
    m.lightmap_width = 8;
    m.lightmap_height = 8;
    m.lightmap_pages.push_back({std::vector<uint8_t>(8 * 8 * 3, luxel)});
    return static_cast<int32_t>(m.lightmap_pages.size() - 1);
}

// A 64-unit floor quad at z = 0 over x [x0, x0 + 64] and y [0, 64], facing up.
struct FloorQuad {
    float x0 = 0.0f;
    int32_t material = 0;
    int32_t lightmap_page = 0; // -1: no lightmap data
    // Every vertex samples the texture here (in repeats); none: the texture once across the quad.
    std::optional<glm::vec2> uv;
    glm::u8vec4 colour{255, 255, 255, 255};
};

// Appends `q`: clockwise seen from above (the front in Quake's winding), every vertex at luxel
// (0.25, 0.25) of its page (lightmap rect 0, 0, 4, 4). Returns the new face's index.
inline uint32_t addFloorQuad(bsp::Map& m, const FloorQuad& q) {
    bsp::Face face;
    face.material = q.material;
    face.normal = {0, 0, 1};
    face.lightmap_page = q.lightmap_page;
    face.lightmap_rect = {0, 0, 4, 4};
    const std::array<glm::vec3, 4> corners = {
        {{q.x0, 0, 0}, {q.x0, 64, 0}, {q.x0 + 64, 64, 0}, {q.x0 + 64, 0, 0}}};
    std::array<bsp::Vertex, 4> v{};
    for (size_t k = 0; k < 4; ++k) {
        v[k].position = corners[k];
        v[k].normal = face.normal;
        v[k].uv = q.uv ? *q.uv : glm::vec2(corners[k].x - q.x0, corners[k].y) / 64.0f;
        v[k].lm_uv = {0.25f, 0.25f};
        v[k].colour = q.colour;
    }
    return addQuadVertices(m, v, face);
}

// A one-room map of one 64-unit floor (material "floor", lightmap page 0 of `luxel` everywhere,
// the texture sampled at `uv` or once across it), its leaf 8 units above and below.
inline bsp::Map litFloorMap(uint8_t luxel, std::optional<glm::vec2> uv) {
    bsp::Map m;
    addMaterial(m, "floor");
    FloorQuad q;
    q.lightmap_page = addGreyLightmapPage(m, luxel);
    q.uv = uv;
    addFloorQuad(m, q);
    addWorldLeaf(m, {0, 0, -8}, {64, 64, 8});
    return m;
}

// A one-room map of a cube with half-size `half` around the origin, its six faces of one material
// (`name`, `flags`) wound to be seen from inside, no lightmaps.
inline bsp::Map cubeRoomMap(std::string name, uint32_t flags, float half = 100.0f) {
    bsp::Map m;
    addMaterial(m, std::move(name), flags);
    const float h = half;
    const glm::vec3 c[8] = {{-h, -h, -h}, {h, -h, -h}, {h, h, -h}, {-h, h, -h},
                            {-h, -h, h},  {h, -h, h},  {h, h, h},  {-h, h, h}};
    const int quads[6][4] = {{1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7},
                             {0, 1, 5, 4}, {4, 5, 6, 7}, {0, 3, 2, 1}};
    for (const auto& q : quads) {
        bsp::Face f;
        f.material = 0;
        addQuad(m, {c[q[0]], c[q[1]], c[q[2]], c[q[3]]}, f);
    }
    addWorldLeaf(m, glm::vec3(-h), glm::vec3(h));
    return m;
}

} // namespace testsupport
