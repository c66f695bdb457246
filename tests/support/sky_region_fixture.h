// A sky region (Source's 3D sky box) fixture built in memory, for sky_region_render_test.cpp
// (hand-computed pixels) and sky_region_golden_test.cpp: a room whose ceiling is sky, and far off
// a region holding a red box inside its own sky room, meant to be seen at scale 16.
#pragma once

#include "bsp/map.h"
#include "content/material/textures.h"
#include "support/map_builder.h"

#include <array>
#include <cstdint>
#include <vector>

namespace testsupport {

inline const glm::vec3 kRegionOrigin{2000.0f, 0.0f, 0.0f};
inline constexpr float kScale = 16.0f;
inline const glm::vec3 kBoxCentre = kRegionOrigin + glm::vec3(20.0f, 10.0f, 60.0f);
inline constexpr float kBoxHalf = 6.0f;

enum SkyRegionMaterial : int32_t { kWall, kSky, kRed, kBlue };

// The six faces of an axis-aligned box, each from the corner order cubeRoomMap uses (seen from
// inside), reversed when `outside`.
inline void addSkyRegionBox(bsp::Map& m, glm::vec3 centre, float h,
                            const std::array<int32_t, 6>& materials, bool outside) {
    const glm::vec3 c[8] = {{-h, -h, -h}, {h, -h, -h}, {h, h, -h}, {-h, h, -h},
                            {-h, -h, h},  {h, -h, h},  {h, h, h},  {-h, h, h}};
    const int quads[6][4] = {{1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7},
                             {0, 1, 5, 4}, {4, 5, 6, 7}, {0, 3, 2, 1}};
    for (size_t q = 0; q < 6; ++q) {
        bsp::Face f;
        f.material = materials[q];
        std::array<glm::vec3, 4> corners{};
        for (size_t k = 0; k < 4; ++k)
            corners[outside ? 3 - k : k] = centre + c[quads[q][k]];
        testsupport::addQuad(m, corners, f);
    }
}

// The main room (200 units around the origin, its ceiling sky), the region's sky room (400 units
// around kRegionOrigin) and the red box in it; one leaf, no vis.
inline bsp::Map skyRegionMap() {
    bsp::Map m;
    testsupport::addMaterial(m, "wall");
    testsupport::addMaterial(m, "sky", bsp::kSurfSky);
    testsupport::addMaterial(m, "red");
    addSkyRegionBox(m, glm::vec3(0.0f), 100.0f, {kWall, kWall, kWall, kWall, kSky, kWall}, false);
    addSkyRegionBox(m, kRegionOrigin, 200.0f, {kSky, kSky, kSky, kSky, kSky, kSky}, false);
    addSkyRegionBox(m, kBoxCentre, kBoxHalf, {kRed, kRed, kRed, kRed, kRed, kRed}, true);
    testsupport::addWorldLeaf(m, glm::vec3(-300.0f), kRegionOrigin + glm::vec3(300.0f));
    return m;
}

// A blue box in the region, across the origin from the red one.
inline const glm::vec3 kOtherAreaBoxCentre = kRegionOrigin + glm::vec3(-20.0f, -10.0f, 60.0f);

// skyRegionMap in two areas (Source's: area 0 the outside, 1 and 2 rooms): the map's one leaf
// (leaf 0, everything so far, the region's origin in it) in area 1, and a second leaf (leaf 1) in
// area 2 holding a blue box in the region, also seen from the region's origin (no vis: every
// leaf is in every PVS row). No nodes: every point is in leaf 0.
inline bsp::Map skyRegionTwoAreaMap() {
    bsp::Map m = skyRegionMap();
    testsupport::addMaterial(m, "blue");
    const auto first = static_cast<uint32_t>(m.faces.size());
    addSkyRegionBox(m, kOtherAreaBoxCentre, kBoxHalf, {kBlue, kBlue, kBlue, kBlue, kBlue, kBlue},
                    true);
    testsupport::addLeaf(m, kOtherAreaBoxCentre - glm::vec3(kBoxHalf),
                         kOtherAreaBoxCentre + glm::vec3(kBoxHalf), 0, first, 6);
    m.submodels[0].num_faces = static_cast<uint32_t>(m.faces.size());
    m.areas.resize(3);
    m.leaves[0].area = 1;
    m.leaves[1].area = 2;
    return m;
}

// The textures of skyRegionMap's materials (grey wall, missing sky, red), blue appended with
// `blue` (for skyRegionTwoAreaMap).
inline std::vector<content::TextureInfo> skyRegionTextures(bool blue = false) {
    std::vector<std::array<uint8_t, 3>> colours = {{90, 90, 90}, {0, 0, 0}, {255, 0, 0}};
    if (blue)
        colours.push_back({0, 0, 255});
    std::vector<content::TextureInfo> textures(colours.size());
    for (size_t i = 0; i < colours.size(); ++i) {
        textures[i].image.width = textures[i].image.height = 8;
        for (int p = 0; p < 64; ++p)
            textures[i].image.rgba.insert(textures[i].image.rgba.end(),
                                          {colours[i][0], colours[i][1], colours[i][2], 255});
    }
    textures[kSky].missing = true; // the sky draws render::kSkyFlatColour
    return textures;
}

} // namespace testsupport
