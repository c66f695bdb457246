// A floor lit with Source bump-mapped light, built in memory (no VBSP file): tests of the world
// shader's BUMP variant (render/bump_render_test.cpp, render/bump_golden_test.cpp).
#pragma once

#include "bsp/map.h"
#include "support/map_builder.h"

#include <array>
#include <cstdint>

namespace testsupport {

inline constexpr uint8_t kBumpFlat = 100; // the flat lightmap's luxels

// One 16 x 4 page: the flat block (grey kBumpFlat) at x 0..3, then the three directional blocks,
// each a face width (4) further along: red, green, blue at 240.
inline bsp::LightmapPage bumpPage() {
    bsp::LightmapPage page;
    page.rgb.resize(16 * 4 * 3);
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 16; ++x) {
            uint8_t* t = &page.rgb[static_cast<size_t>((y * 16 + x) * 3)];
            const int block = x / 4;
            for (int c = 0; c < 3; ++c)
                t[c] = block == 0 ? kBumpFlat : (block - 1 == c ? 240 : 0);
        }
    return page;
}

// A 64-unit floor at z = 0 in two halves of one material: x [0, 32] bump-lit, [32, 64] not,
// both reading the same flat block (lightmap_rect {0, 0, 4, 4}).
inline bsp::Map bumpFloor() {
    bsp::Map m;
    testsupport::addMaterial(m, "bumped");
    m.lightmap_width = 16;
    m.lightmap_height = 4;
    m.lightmap_pages.push_back(bumpPage());
    for (int half = 0; half < 2; ++half) {
        bsp::Face face;
        face.material = 0;
        face.normal = {0, 0, 1};
        face.lightmap_page = 0;
        face.lightmap_rect = {0, 0, 4, 4};
        face.bump_light = half == 0;
        const float x0 = 32.0f * static_cast<float>(half), x1 = x0 + 32.0f;
        const std::array<glm::vec2, 4> corners = {glm::vec2(x0, 0), glm::vec2(x0, 64),
                                                  glm::vec2(x1, 64), glm::vec2(x1, 0)};
        std::array<bsp::Vertex, 4> v{};
        for (size_t k = 0; k < 4; ++k) {
            v[k].position = {corners[k], 0.0f};
            v[k].normal = face.normal;
            v[k].uv = corners[k] / 64.0f;
            v[k].lm_uv = {2.0f / 16.0f, 0.5f}; // the flat block's centre: uniform around it
        }
        testsupport::addQuadVertices(m, v, face);
    }
    testsupport::addWorldLeaf(m, {0, 0, -8}, {64, 64, 8});
    return m;
}

} // namespace testsupport
