// Source's farz (env_fog_controller: game::ViewRule::far_plane, game/client/view.cpp
// CViewRender::GetZFar): the main view's far plane pulled in to 1000 units. The wall within it
// is drawn (fogged as LinearFogRender works out), the wall beyond it is not and shows the clear
// colour, which with the fog on is the fog's colour (scene::farClearColour), and the sky face
// beyond it still draws the sky (its leaf kept by scene::Visibility, its depth clamped at the far
// plane). Mesa llvmpipe under xvfb-run; every expected colour is computed here from the inputs.
#include "game/profile.h"
#include "gl_fixture.h"
#include "render_world.h"
#include "scene/view/sky_region.h"
#include "scene/world/material_table.h"
#include "scene/world/world_mesh.h"
#include "support/far_plane_fixture.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace {

constexpr int kW = 128, kH = 64;

using testsupport::kFarWallColour;
using testsupport::kNearWallColour;

// Pixels at the centres of the view's quarters: lower left (the near wall), lower right (the far
// wall), and the upper half (the sky face).
constexpr std::array<int, 2> kNearPixel = {32, 48};
constexpr std::array<int, 2> kFarPixel = {96, 48};
constexpr std::array<int, 2> kSkyPixel = {64, 16};

// render::kSkyFlatColour (0.32, 0.40, 0.55) in 8 bits.
constexpr std::array<int, 3> kFlat = {82, 102, 140};

scene::Camera eye(float z_far) {
    scene::Camera cam;
    cam.position = {0.0f, 0.0f, 0.0f};
    cam.aspect = 2.0f;
    cam.z_near = 1.0f;
    cam.z_far = z_far;
    return cam;
}

// A wall of `colour` facing the eye at depth `depth` under the fog: mix(colour, fog, depth /
// fogend), fogstart 0 (the depth along the view axis is the wall's x).
std::array<float, 3> fogged(const std::array<uint8_t, 3>& colour, const game::LinearFog& fog,
                            float depth) {
    const float amount = std::clamp((depth - fog.start) / (fog.end - fog.start), 0.0f, 1.0f);
    std::array<float, 3> c{};
    for (size_t i = 0; i < 3; ++i)
        c[i] = float(colour[i]) + (255.0f * fog.colour[i] - float(colour[i])) * amount;
    return c;
}

std::array<int, 3> at(const std::vector<uint8_t>& px, std::array<int, 2> p) {
    const size_t i = (static_cast<size_t>(p[1]) * kW + static_cast<size_t>(p[0])) * 4;
    return {px[i], px[i + 1], px[i + 2]};
}

void expectNear(std::array<int, 3> got, std::array<float, 3> want, const std::string& what) {
    for (size_t c = 0; c < 3; ++c)
        EXPECT_NEAR(got[c], want[c], 1.5f) << what << " channel " << c;
}

std::array<float, 3> eightBit(glm::vec3 c) {
    return {255.0f * c.r, 255.0f * c.g, 255.0f * c.b};
}

class FarPlaneRender : public gltest::GlFixture {
protected:
    // The frame from eye(z_far), with the clear colour the viewer would take for it.
    std::vector<uint8_t> render(float z_far, bool fog_switch) {
        render::WorldSource source{map, mesh, textures};
        source.rules.linear_fog = profile.rules.linear_fog;
        source.rules.sky = profile.rules.sky; // the sky at the far plane (Source)
        render::RenderOptions options = testsupport::testRenderOptions();
        options.fog = fog_switch;
        const scene::Camera cam = eye(z_far);
        if (const auto c = scene::farClearColour(profile, cam, fog_switch))
            options.clear_colour = glm::vec4(*c, 1.0f);
        return testsupport::renderWorld(source, cam, kW, kH, options);
    }

    bsp::Map map = testsupport::farPlaneMap();
    game::GameProfile profile = game::profileFor(map);
    std::vector<content::TextureInfo> textures = testsupport::farPlaneTextures();
    scene::WorldMesh mesh =
        scene::buildWorldMesh(map, scene::resolveMaterials(map, nullptr, textures));
};

} // namespace

TEST_F(FarPlaneRender, TheWallBeyondFarzShowsTheFogColourAndTheSkyStillDraws) {
    ASSERT_EQ(profile.view.far_plane, testsupport::kFarz);
    ASSERT_TRUE(profile.rules.linear_fog.enabled);
    ASSERT_TRUE(profile.rules.sky.at_far_plane);
    const game::LinearFog& fog = profile.rules.linear_fog;
    const std::vector<uint8_t> px = render(profile.view.far_plane, true);
    // Within farz: the near wall, a quarter of the way into the fog (500 of 2000).
    expectNear(at(px, kNearPixel), fogged(kNearWallColour, fog, testsupport::kNearWallX),
               "near wall");
    // Beyond it: the far wall is cut; the clear colour is the fog's (0, 255, 128).
    expectNear(at(px, kFarPixel), eightBit(fog.colour), "far wall cut");
    EXPECT_EQ(at(px, kFarPixel), (std::array<int, 3>{0, 255, 128}));
    // The sky face at 3000, three times farz, still draws the sky.
    EXPECT_EQ(at(px, kSkyPixel), kFlat);
}

TEST_F(FarPlaneRender, WithoutTheFarPlaneTheFarWallIsDrawnFogged) {
    // The same view with the far plane of a map that does not pull it in: the far wall 1500
    // units off is drawn, three quarters into the fog.
    const std::vector<uint8_t> px = render(16384.0f, true);
    const game::LinearFog& fog = profile.rules.linear_fog;
    expectNear(at(px, kNearPixel), fogged(kNearWallColour, fog, testsupport::kNearWallX),
               "near wall");
    expectNear(at(px, kFarPixel), fogged(kFarWallColour, fog, testsupport::kFarWallX),
               "far wall drawn");
    EXPECT_EQ(at(px, kSkyPixel), kFlat);
}

TEST_F(FarPlaneRender, TheFogSwitchOffKeepsFarzAndClearsToTheUsualColour) {
    // GetZFar does not read fog_enable: the far plane stays; the clear colour is the viewer's.
    const std::vector<uint8_t> px = render(profile.view.far_plane, false);
    const glm::vec4 clear = render::RenderOptions{}.clear_colour;
    expectNear(at(px, kNearPixel),
               {float(kNearWallColour[0]), float(kNearWallColour[1]), float(kNearWallColour[2])},
               "near wall unfogged");
    expectNear(at(px, kFarPixel), eightBit(glm::vec3(clear)), "far wall cut, usual clear");
    EXPECT_EQ(at(px, kSkyPixel), kFlat);
}
