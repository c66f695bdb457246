// A pool for tests of Source water's expensive path (content::WaterShading::planar; the world
// shader's WATER_PLANAR variant, render/pass_water.cpp; render/planar_water_render_test.cpp and
// planar_water_golden_test.cpp): a floor under a water plane, a wall standing on the water and a
// pillar under it, both facing the eye at the origin.
#pragma once

#include "bsp/map.h"
#include "content/image/image.h"
#include "support/map_builder.h"

#include <array>
#include <cstdint>

namespace testsupport::planar_water {

inline constexpr float kWaterZ = 8.0f; // the water plane; the floor lies at z = 0
inline constexpr float kWallY = 300.0f, kWallHalf = 64.0f, kWallTop = 200.0f;
inline constexpr float kPillarY = 100.0f, kPillarTop = 5.5f; // under the water, below plane - 2

using Rgb = std::array<float, 3>; // 0..1
inline const Rgb kFloor = {200 / 255.0f, 40 / 255.0f, 40 / 255.0f};
inline const Rgb kWall = {40 / 255.0f, 200 / 255.0f, 40 / 255.0f};
inline const Rgb kPillar = {40 / 255.0f, 40 / 255.0f, 220 / 255.0f};
inline const Rgb kClear = {0.25f, 0.5f, 0.75f};

inline bsp::Face upFace(int32_t material) {
    bsp::Face face;
    face.material = material;
    face.normal = {0, 0, 1};
    face.lightmap_page = -1;
    return face;
}

// A floor (material 0) at z = 0 and the water (material 1) at kWaterZ over x in [-1024, 1024],
// y in [-64, 1024]; a wall (material 2) standing on the water at y = kWallY, x in [-64, 64], up to
// kWallTop; a pillar (material 3) under the water at y = kPillarY, x in [-64, 64], z 0 to
// kPillarTop. Both face -y, towards the eye at y = 0. The water's texture runs one repeat per 64
// units along x (u) and y (v), the walls' one per 32 along x (u) and down z (v).
// `leaves`: each in a leaf of its own (floor and water, wall, pillar; one cluster, no vis data),
// so that the frustum culls the wall apart from the water; else one leaf holds everything.
inline bsp::Map pool(bool leaves = false) {
    bsp::Map m;
    testsupport::addMaterial(m, "floor");
    testsupport::addMaterial(m, "water", bsp::kSurfLiquid);
    testsupport::addMaterial(m, "wall");
    testsupport::addMaterial(m, "pillar");
    for (int32_t material = 0; material < 2; ++material) {
        const float z = material == 0 ? 0.0f : kWaterZ;
        const std::array<glm::vec3, 4> corners = {
            {{-1024, -64, z}, {-1024, 1024, z}, {1024, 1024, z}, {1024, -64, z}}};
        const bsp::Face face = upFace(material);
        std::array<bsp::Vertex, 4> v{};
        for (size_t k = 0; k < 4; ++k) {
            v[k].position = corners[k];
            v[k].normal = face.normal;
            v[k].uv = glm::vec2(corners[k].x, corners[k].y) / 64.0f;
        }
        testsupport::addQuadVertices(m, v, face);
    }
    const auto wall = [&m](int32_t material, float y, float z0, float z1) {
        bsp::Face face = upFace(material);
        face.normal = {0, -1, 0};
        const std::array<glm::vec3, 4> corners = {
            {{-kWallHalf, y, z0}, {-kWallHalf, y, z1}, {kWallHalf, y, z1}, {kWallHalf, y, z0}}};
        std::array<bsp::Vertex, 4> v{};
        for (size_t k = 0; k < 4; ++k) {
            v[k].position = corners[k];
            v[k].normal = face.normal;
            v[k].uv = glm::vec2(corners[k].x, -corners[k].z) / 32.0f;
        }
        testsupport::addQuadVertices(m, v, face);
    };
    wall(2, kWallY, kWaterZ, kWallTop);
    wall(3, kPillarY, 0.0f, kPillarTop);
    if (!leaves) {
        testsupport::addWorldLeaf(m, {-1024, -64, -8}, {1024, 1024, 512});
        return m;
    }
    testsupport::addLeaf(m, {-1024, -64, -8}, {1024, 1024, kWaterZ + 4}, 0, 0, 2);
    testsupport::addLeaf(m, {-kWallHalf, kWallY - 4, kWaterZ}, {kWallHalf, kWallY + 4, kWallTop}, 0,
                         2, 1);
    testsupport::addLeaf(m, {-kWallHalf, kPillarY - 4, 0}, {kWallHalf, kPillarY + 4, kPillarTop}, 0,
                         3, 1);
    testsupport::addWorldModel(m, {-1024, -64, -8}, {1024, 1024, 512}, 4);
    return m;
}

inline content::Image solid(std::array<uint8_t, 3> c, uint8_t a = 255) {
    content::Image img;
    img.width = img.height = 4;
    for (int i = 0; i < 16; ++i)
        img.rgba.insert(img.rgba.end(), {c[0], c[1], c[2], a});
    return img;
}

} // namespace testsupport::planar_water
