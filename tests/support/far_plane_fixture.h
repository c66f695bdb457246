// A Source-like map whose env_fog_controller pulls the far plane in (farz), for
// far_plane_render_test.cpp (hand-computed pixels) and the visibility test of what the far plane
// culls (scene_test.cpp). The eye stands at the origin looking along +x (yaw 0, pitch 0, 90
// degrees across at 2:1, so at depth d the view spans y in [-d, d] and z in [-d/2, d/2]):
//   - a near wall at x = 500 fills the lower left quarter of the view (leaf 0, with the eye);
//   - a far wall at x = 1500 fills the lower right quarter (leaf 1), beyond farz 1000;
//   - a sky face at x = 3000 fills the upper half (leaf 2), beyond farz too.
// The fog runs from 0 to 2000 in colour (0, 255, 128). No nodes (every point is in leaf 0) and no
// vis (every leaf is in every PVS row).
#pragma once

#include "bsp/map.h"
#include "content/material/textures.h"
#include "support/map_builder.h"

#include <array>
#include <cstdint>
#include <vector>

namespace testsupport {

enum FarPlaneMaterial : int32_t { kFarNearWall, kFarFarWall, kFarSky };

inline constexpr float kFarz = 1000.0f;
inline constexpr float kNearWallX = 500.0f;
inline constexpr float kFarWallX = 1500.0f;
inline constexpr float kFarSkyX = 3000.0f;
inline const std::array<uint8_t, 3> kNearWallColour = {200, 40, 40};
inline const std::array<uint8_t, 3> kFarWallColour = {40, 40, 200};

// A wall across x = `x` over [y0, y1] x [z0, z1], facing the eye at the origin (the corner order
// cubeRoomMap's +x face has, seen from inside).
inline uint32_t addFacingWall(bsp::Map& m, float x, float y0, float y1, float z0, float z1,
                              int32_t material) {
    bsp::Face f;
    f.material = material;
    f.normal = {-1.0f, 0.0f, 0.0f};
    f.lightmap_page = -1;
    return addQuad(m, {{{x, y0, z0}, {x, y1, z0}, {x, y1, z1}, {x, y0, z1}}}, f);
}

// The map, its env_fog_controller's farz given as `farz` (no key when empty).
inline bsp::Map farPlaneMap(const std::string& farz = "1000") {
    bsp::Map m;
    m.format = bsp::Format::Source;
    addMaterial(m, "near_wall");
    addMaterial(m, "far_wall");
    addMaterial(m, "sky", bsp::kSurfSky);
    addFacingWall(m, kNearWallX, 0.0f, 600.0f, -300.0f, 0.0f, kFarNearWall);
    addFacingWall(m, kFarWallX, -1600.0f, 0.0f, -800.0f, 0.0f, kFarFarWall);
    addFacingWall(m, kFarSkyX, -3200.0f, 3200.0f, 0.0f, 1600.0f, kFarSky);
    addLeaf(m, {-10.0f, -700.0f, -400.0f}, {600.0f, 700.0f, 400.0f}, 0, 0, 1);
    addLeaf(m, {1400.0f, -1700.0f, -900.0f}, {1600.0f, 100.0f, 100.0f}, 0, 1, 1);
    addLeaf(m, {2900.0f, -3300.0f, -100.0f}, {3100.0f, 3300.0f, 1700.0f}, 0, 2, 1);
    addWorldModel(m, {-10.0f, -3300.0f, -900.0f}, {3100.0f, 3300.0f, 1700.0f}, 3);
    bsp::Entity world, fog;
    world.pairs = {{"classname", "worldspawn"}};
    fog.pairs = {{"classname", "env_fog_controller"},
                 {"fogenable", "1"},
                 {"fogcolor", "0 255 128"},
                 {"fogstart", "0"},
                 {"fogend", "2000"}};
    if (!farz.empty())
        fog.pairs.push_back({"farz", farz});
    m.entities = {world, fog};
    return m;
}

// The walls' textures (drawn at full light) and the sky's, missing: it draws
// render::kSkyFlatColour.
inline std::vector<content::TextureInfo> farPlaneTextures() {
    const std::array<std::array<uint8_t, 3>, 3> colours = {kNearWallColour, kFarWallColour,
                                                           std::array<uint8_t, 3>{0, 0, 0}};
    std::vector<content::TextureInfo> textures(colours.size());
    for (size_t i = 0; i < colours.size(); ++i) {
        textures[i].image.width = textures[i].image.height = 4;
        for (int p = 0; p < 16; ++p)
            textures[i].image.rgba.insert(textures[i].image.rgba.end(),
                                          {colours[i][0], colours[i][1], colours[i][2], 255});
        textures[i].fullbright_light = 1.0f;
    }
    textures[kFarSky].missing = true;
    return textures;
}

} // namespace testsupport
