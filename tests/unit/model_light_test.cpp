// Models lit from the light grid (scene/models/model_light.h) against values worked out by hand
// from ioquake3 tr_light.c R_SetupEntityLightingGrid and R_SetupEntityLighting.
#include "scene/models/model_light.h"

#include <gtest/gtest.h>

#include <array>

namespace {

bsp::LightGridPoint point(std::array<uint8_t, 3> ambient, std::array<uint8_t, 3> directed,
                          glm::vec3 direction) {
    return {ambient, directed, direction};
}

void expectNear(const glm::vec3& got, const glm::vec3& want, float tolerance = 1e-4f) {
    EXPECT_NEAR(got.x, want.x, tolerance);
    EXPECT_NEAR(got.y, want.y, tolerance);
    EXPECT_NEAR(got.z, want.z, tolerance);
}

// 2 x 2 x 2 points from the origin, cells 64 x 64 x 128; point (1, 0, 0) lies in solid (no
// ambient), although it has directed light, which the engine's test does not look at.
bsp::LightGrid cube() {
    bsp::LightGrid g;
    g.origin = glm::vec3(0.0f);
    g.cell_size = glm::vec3(64, 64, 128);
    g.counts = {2, 2, 2};
    const glm::vec3 up(0, 0, 1);
    g.points = {
        point({100, 100, 100}, {40, 0, 0}, glm::vec3(1, 0, 0)), // (0, 0, 0)
        point({0, 0, 0}, {255, 255, 255}, glm::vec3(0, 1, 0)),  // (1, 0, 0): solid
        point({200, 0, 0}, {0, 0, 0}, up),                      // (0, 1, 0)
        point({50, 50, 50}, {100, 100, 100}, up),               // (1, 1, 0)
    };
    for (int i = 0; i < 4; ++i) // z = 1
        g.points.push_back(point({10, 10, 10}, {0, 0, 0}, up));
    return g;
}

} // namespace

TEST(ModelLight, TrilinearSkipsSolidPoints) {
    // (16, 32, 32): fractions 0.25, 0.5, 0.25. Weights: (0,0,0) 0.28125, (1,0,0) 0.09375 (solid,
    // left out), (0,1,0) 0.28125, (1,1,0) 0.09375, the z = 1 layer 0.25 in all. The total
    // 0.90625 is below 0.99, so the sums are divided by it (times 32 / 29):
    //   ambient r = (28.125 + 56.25 + 4.6875 + 2.5) * 32 / 29 = 2930 / 29
    //   ambient g = b = (28.125 + 4.6875 + 2.5) * 32 / 29 = 1130 / 29
    //   directed r = (11.25 + 9.375) * 32 / 29 = 660 / 29, g = b = 9.375 * 32 / 29 = 300 / 29
    //   direction = 0.28125 (1, 0, 0) + 0.625 (0, 0, 1), normalised.
    const scene::ModelLight l = scene::sampleLightGrid(cube(), glm::vec3(16, 32, 32), 0);
    expectNear(l.ambient, glm::vec3(2930.0f / 29, 1130.0f / 29, 1130.0f / 29));
    expectNear(l.directed, glm::vec3(660.0f / 29, 300.0f / 29, 300.0f / 29));
    expectNear(l.dir, glm::vec3(0.4103647f, 0.0f, 0.9119215f), 1e-6f);
}

TEST(ModelLight, ExactPointsAndTheGridEdge) {
    // On point (0, 1, 0): the corners past y's last point are left out, the others weigh 0
    // except the point itself.
    const scene::ModelLight on = scene::sampleLightGrid(cube(), glm::vec3(0, 64, 0), 0);
    expectNear(on.ambient, glm::vec3(200, 0, 0));
    expectNear(on.directed, glm::vec3(0.0f));
    expectNear(on.dir, glm::vec3(0, 0, 1));

    // Beyond the grid the cell is clamped and the engine keeps the fraction: x = 96 is cell 1
    // (clamped to 1, the last), fraction 0.5, and no corner past it; y = 0, z = 0 exactly.
    // Only (1, 0, 0) carries weight, and it is solid; its +y and +z neighbours weigh 0.
    const scene::ModelLight past = scene::sampleLightGrid(cube(), glm::vec3(96, 0, 0), 0);
    expectNear(past.ambient, glm::vec3(0.0f));
    EXPECT_EQ(past.dir, glm::vec3(0.0f)); // nothing lit: no direction
}

TEST(ModelLight, OverbrightShiftKeepsTheHue) {
    // tr_bsp.c R_ColorShiftLightingBytes with shift 1: (200, 100, 50) -> (400, 200, 100), over
    // 255, so times 255 / 400 in integers: (255, 127, 63); (10, 20, 30) -> (20, 40, 60).
    bsp::LightGrid g;
    g.counts = {1, 1, 1};
    g.points = {point({200, 100, 50}, {10, 20, 30}, glm::vec3(0, 0, 1))};
    const scene::ModelLight l = scene::sampleLightGrid(g, glm::vec3(5, 5, 5), 1);
    // (5, 5, 5) weighs the one point below 1 and the sums are divided by that weight again.
    expectNear(l.ambient, glm::vec3(255, 127, 63));
    expectNear(l.directed, glm::vec3(20, 40, 60));
}

TEST(ModelLight, EntityLightFromTheGrid) {
    // Overbright map (identity light 1/2): grid (100, 50, 0) / (100, 100, 100) shifted to
    // (200, 100, 0) / (200, 200, 200); ambient times r_ambientScale 0.6 = (120, 60, 0), plus
    // 32 / 2 = (136, 76, 16), clamped at the identity light byte 127: (127, 76, 16). In texel
    // units (the gamma ramp doubles, so / 127.5): (0.996078, 0.596078, 0.125490); directed
    // 200 / 127.5 = 1.568627.
    bsp::Map map;
    map.format = bsp::Format::Quake3;
    const game::LightRule rule = game::profileFor(map).rules.light; // ioquake3's overbright
    ASSERT_EQ(rule.overbright, 1);
    bsp::LightGrid g;
    g.counts = {1, 1, 1};
    g.points = {point({100, 50, 0}, {100, 100, 100}, glm::vec3(0, 1, 0))};
    map.light_grid = g;
    const scene::ModelLight l = scene::gridModelLight(map, rule, glm::vec3(0.0f));
    expectNear(l.ambient, glm::vec3(0.996078f, 0.596078f, 0.125490f), 1e-5f);
    expectNear(l.directed, glm::vec3(1.568627f), 1e-5f);
    expectNear(l.dir, glm::vec3(0, 1, 0));
    // The engine's vertex colours are bytes, 255 of them at identity light 1/2 making 2 here.
    EXPECT_EQ(l.bytes, 127.5f);

    // No grid: the engine's fixed 150 (75 at identity light 1/2) from its default sun, (0.45,
    // 0.3, 0.9) / 1.05; ambient 75 + 16 = 91. In texel units 91 / 127.5 and 75 / 127.5.
    map.light_grid.reset();
    const scene::ModelLight fixed = scene::gridModelLight(map, rule, glm::vec3(0.0f));
    expectNear(fixed.ambient, glm::vec3(0.713725f), 1e-5f);
    expectNear(fixed.directed, glm::vec3(0.588235f), 1e-5f);
    expectNear(fixed.dir, glm::vec3(0.428571f, 0.285714f, 0.857143f), 1e-5f);

    // Every point in solid: only the minimum ambient, 16 / 127.5, and no directed light.
    g.points[0].ambient = {0, 0, 0};
    map.light_grid = g;
    const scene::ModelLight dark = scene::gridModelLight(map, rule, glm::vec3(0.0f));
    expectNear(dark.ambient, glm::vec3(0.125490f), 1e-5f);
    expectNear(dark.directed, glm::vec3(0.0f));
}

// GoldSrc studio lighting (R_StudioDynamicLight, v_direct 0.9): the brightest channel is the
// total; 0.9 of it is the shade light, the rest ambient; the colour is the light over its
// brightest channel; both in texel units through illum * 4 / 1023.
TEST(StudioLight, AmbientAndShadeFromTheLightBelow) {
    // Light (200, 100, 50), an even floor around: straight down. Shade 180, ambient 20,
    // colour (1, 0.5, 0.25): ambient 20 * 4 / 1023 = 0.078201 per unit of colour, shade
    // 180 * 4 / 1023 = 0.703812.
    const scene::StudioLight l = scene::studioModelLight({200, 100, 50}, {0.5f, 0.5f, 0.5f, 0.5f});
    expectNear(l.light.ambient, glm::vec3(0.078201f, 0.039101f, 0.019550f), 1e-5f);
    expectNear(l.light.directed, glm::vec3(0.703812f, 0.351906f, 0.175953f), 1e-5f);
    expectNear(l.light.dir, glm::vec3(0, 0, 1));
    expectNear(l.wrap, glm::vec3(1.0f, 1.495f, 1.0f));

    // Brighter under the two -x points (g0, g3 = 0.6; g1, g2 = 0.2): the lean x = 0.6 - 0.2 -
    // 0.2 + 0.6 = 0.8, y = 0.2 + 0.6 - 0.2 - 0.6 = 0, so the light travels along (0.8, 0, -1) /
    // 1.280625 = (0.624695, 0, -0.780869) and comes from the opposite direction.
    const scene::StudioLight lean =
        scene::studioModelLight({255, 255, 255}, {0.6f, 0.2f, 0.2f, 0.6f});
    expectNear(lean.light.dir, glm::vec3(-0.624695f, 0.0f, 0.780869f), 1e-5f);
    // 255: shade 229.5 and ambient 25.5, which sum to exactly 255 (no clamp).
    expectNear(lean.light.ambient, glm::vec3(25.5f * 4.0f / 1023.0f), 1e-6f);
    expectNear(lean.light.directed, glm::vec3(229.5f * 4.0f / 1023.0f), 1e-6f);

    // Nothing lit below: total 1 (the engine's guard), white colour: ambient 0.1 and shade 0.9
    // levels.
    const scene::StudioLight dark = scene::studioModelLight({0, 0, 0}, {0, 0, 0, 0});
    expectNear(dark.light.ambient, glm::vec3(0.1f * 4.0f / 1023.0f), 1e-7f);
    expectNear(dark.light.directed, glm::vec3(0.9f * 4.0f / 1023.0f), 1e-7f);
}
