// A room for tests of Source cube-map reflections (content::TextureInfo::envmap, the world
// shader's ENVMAP variants; render/envmap_render_test.cpp, render/envmap_golden_test.cpp): a
// 128-unit cube around the origin seen from inside, each wall facing in with its own material,
// every wall lit by one grey lightmap page, and cube maps of one colour per face.
#pragma once

#include "bsp/map.h"
#include "content/image/image.h"
#include "content/material/textures.h"
#include "support/map_builder.h"

#include <array>
#include <cmath>
#include <cstdint>

namespace testsupport {

inline constexpr float kEnvMapRoomHalf = 64.0f;
inline constexpr uint8_t kEnvMapRoomLuxel = 128; // every wall's light

// The walls, by the axis of their inward normal: +X (the wall at x = -64), -X, +Y, -Y, +Z (the
// floor), -Z (the ceiling): the order of a cube map's faces, so that wall k seen head-on from
// the centre reflects face k.
inline const std::array<glm::vec3, 6> kEnvMapRoomNormals = {
    glm::vec3(1, 0, 0),  glm::vec3(-1, 0, 0), glm::vec3(0, 1, 0),
    glm::vec3(0, -1, 0), glm::vec3(0, 0, 1),  glm::vec3(0, 0, -1)};

// The room; wall k takes material materials[k] (materials 0..max named "m0", "m1", ...).
inline bsp::Map envMapRoom(const std::array<int32_t, 6>& materials) {
    bsp::Map m;
    int32_t most = 0;
    for (const int32_t k : materials)
        most = std::max(most, k);
    for (int32_t k = 0; k <= most; ++k)
        addMaterial(m, "m" + std::to_string(k));
    addGreyLightmapPage(m, kEnvMapRoomLuxel);
    const float h = kEnvMapRoomHalf;
    for (size_t k = 0; k < 6; ++k) {
        const glm::vec3 n = kEnvMapRoomNormals[k];
        // Two axes across the wall, wound clockwise seen from inside (against the normal).
        const glm::vec3 a = std::abs(n.z) > 0.5f ? glm::vec3(1, 0, 0) : glm::vec3(0, 0, 1);
        const glm::vec3 b = glm::cross(n, a);
        const glm::vec3 c = -n * h;
        const std::array<glm::vec3, 4> corners = {c - a * h - b * h, c - a * h + b * h,
                                                  c + a * h + b * h, c + a * h - b * h};
        bsp::Face face;
        face.material = materials[k];
        face.normal = n;
        face.lightmap_page = 0;
        face.lightmap_rect = {0, 0, 4, 4};
        std::array<bsp::Vertex, 4> v{};
        for (size_t i = 0; i < 4; ++i) {
            v[i].position = corners[i];
            v[i].normal = n;
            v[i].uv = {i == 2 || i == 3 ? 1.0f : 0.0f, i == 1 || i == 2 ? 1.0f : 0.0f};
            v[i].lm_uv = {0.25f, 0.25f};
        }
        addQuadVertices(m, v, face);
    }
    addWorldLeaf(m, glm::vec3(-h - 8.0f), glm::vec3(h + 8.0f));
    return m;
}

// A side x side image of one colour.
inline content::Image solidImage(int side, uint8_t r, uint8_t g, uint8_t b, uint8_t a = 255) {
    content::Image img;
    img.width = img.height = side;
    for (int i = 0; i < side * side; ++i)
        img.rgba.insert(img.rgba.end(), {r, g, b, a});
    return img;
}

// A 16x16 tangent-space normal map of ripples: the normal (a, b, 1) normalised, a and b
// 0.35 sin(x pi / 8) and 0.35 sin(y pi / 8), stored as (n + 1) / 2 bytes.
inline content::Image rippledNormalMap() {
    content::Image ripples;
    ripples.width = ripples.height = 16;
    const auto byte = [](float c) {
        return static_cast<uint8_t>(std::lround((c * 0.5f + 0.5f) * 255.0f));
    };
    for (int y = 0; y < 16; ++y)
        for (int x = 0; x < 16; ++x) {
            const float a = 0.35f * std::sin(static_cast<float>(x) * 0.39269908f);
            const float b = 0.35f * std::sin(static_cast<float>(y) * 0.39269908f);
            const float len = std::sqrt(a * a + b * b + 1.0f);
            ripples.rgba.insert(ripples.rgba.end(),
                                {byte(a / len), byte(b / len), byte(1.0f / len), 255});
        }
    return ripples;
}

// Right, left, back, front, up, down: six colours no two faces share.
inline const std::array<std::array<uint8_t, 3>, 6> kEnvMapFaceColours = {
    {{200, 0, 0}, {0, 200, 0}, {0, 0, 200}, {160, 160, 0}, {0, 160, 160}, {160, 0, 160}}};

// A material of base colour (grey, alpha) that reflects a cube of kEnvMapFaceColours (8x8
// faces) with `shading` (enabled set here).
inline content::TextureInfo envMapMaterial(uint8_t grey, content::EnvMapShading shading,
                                           uint8_t alpha = 255) {
    content::TextureInfo t;
    t.image = solidImage(4, grey, grey, grey, alpha);
    t.missing = false;
    t.source = "materials/base.vtf";
    for (size_t k = 0; k < 6; ++k) {
        const auto& c = kEnvMapFaceColours[k];
        t.envmap[k] = solidImage(8, c[0], c[1], c[2]);
    }
    t.envmap_source = "materials/maps/room/c0_0_0.vtf";
    shading.enabled = true;
    t.envmap_shading = shading;
    return t;
}

} // namespace testsupport
