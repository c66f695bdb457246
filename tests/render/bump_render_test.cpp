// Source radiosity normal mapping (content::TextureInfo::bump, the world shader's BUMP variant):
// a bump-lit face (bsp::Face::bump_light) weights its three directional lightmaps by its
// material's normal map as lightmappedgeneric_ps2_3_x.h does, dp_i = saturate(dot(n, basis_i))^2
// over their sum, or by an $ssbump texel as it is; a face of the same material that is not
// bump-lit, and every face of a material without a normal map, keeps its flat lightmap (Mesa
// llvmpipe under xvfb-run). Expected colours are worked out by hand below.
#include "content/image/image.h"
#include "gl_fixture.h"
#include "render/render_target.h"
#include "render/world_renderer.h"
#include "render_world.h"
#include "scene/view/visibility.h"
#include "scene/world/light_styles.h"
#include "scene/world/world_mesh.h"
#include "support/bump_fixture.h"

#include <glm/mat4x4.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

namespace {

constexpr int kW = 320, kH = 180;
constexpr uint8_t kFlat = testsupport::kBumpFlat;
using testsupport::bumpFloor;

content::Image solid(uint8_t r, uint8_t g, uint8_t b) {
    content::Image img;
    img.width = img.height = 4;
    for (int i = 0; i < 16; ++i)
        img.rgba.insert(img.rgba.end(), {r, g, b, 255});
    return img;
}

scene::Camera topDown() {
    scene::Camera cam;
    cam.position = {32, 32, 64};
    cam.pitch = 90.0f;
    cam.yaw = 90.0f;
    cam.aspect = static_cast<float>(kW) / static_cast<float>(kH);
    cam.z_near = 1.0f;
    return cam;
}

// The colour at the floor point (x, 32, 0), from a top-down frame of the floor.
std::array<int, 3> colourAt(const std::vector<uint8_t>& pixels, float x) {
    const glm::vec4 clip = topDown().viewProjection() * glm::vec4(x, 32.0f, 0.0f, 1.0f);
    const int column = static_cast<int>(std::floor((clip.x / clip.w * 0.5f + 0.5f) * kW));
    const int row = kH - 1 - static_cast<int>(std::floor((clip.y / clip.w * 0.5f + 0.5f) * kH));
    const size_t i = (static_cast<size_t>(row) * kW + static_cast<size_t>(column)) * 4;
    return {pixels[i], pixels[i + 1], pixels[i + 2]};
}

class BumpRender : public gltest::GlFixture {
protected:
    // The floor under a white texture with `bump` as its normal map, the light at 1x.
    std::vector<uint8_t> render(const content::Image& bump, bool ssbump) {
        std::vector<content::TextureInfo> textures(1);
        textures[0].image = solid(255, 255, 255);
        textures[0].bump = bump;
        textures[0].bump_ssbump = ssbump;
        textures[0].missing = false;
        const bsp::Map map = bumpFloor();
        const scene::WorldMesh mesh = scene::buildWorldMesh(map);
        render::WorldSource source{map, mesh, textures};
        source.rules.light.lightmap_scale = 1.0f;
        return testsupport::renderWorld(source, topDown(), kW, kH);
    }
};

// The engine's weights (bumpvects.h g_localBumpBasis) for the normal a texel (r, g, b) decodes
// to (2 * texel / 255 - 1), times the directional maps' 240 each.
std::array<float, 3> expectedBumpColour(float r, float g, float b) {
    const float nx = 2.0f * r / 255.0f - 1.0f, ny = 2.0f * g / 255.0f - 1.0f,
                nz = 2.0f * b / 255.0f - 1.0f;
    const float s6 = std::sqrt(6.0f), s2 = std::sqrt(2.0f), s3 = std::sqrt(3.0f);
    const std::array<float, 3> dot = {nx * 2.0f / s6 + nz / s3, -nx / s6 + ny / s2 + nz / s3,
                                      -nx / s6 - ny / s2 + nz / s3};
    std::array<float, 3> dp{};
    float sum = 0.0f;
    for (size_t i = 0; i < 3; ++i) {
        dp[i] = std::pow(std::clamp(dot[i], 0.0f, 1.0f), 2.0f);
        sum += dp[i];
    }
    return {240.0f * dp[0] / sum, 240.0f * dp[1] / sum, 240.0f * dp[2] / sum};
}

void expectNear(const std::array<int, 3>& got, const std::array<float, 3>& want, const char* what) {
    for (size_t c = 0; c < 3; ++c)
        EXPECT_NEAR(got[c], want[c], 1.0f) << what << " channel " << c;
}

} // namespace

TEST_F(BumpRender, FlatNormalGivesTheAverageOfTheThreeMaps) {
    // (128, 128, 255) is the normal (1/255, 1/255, 1): each basis vector meets it at about
    // 1/sqrt(3), so each weight is about 1/3 and each map's 240 gives 80 (a texel cannot hold
    // 0 exactly: the 1/255 tilt moves the weights by about 1.5 %, 78.8 / 80.3 / 80.9).
    const std::vector<uint8_t> px = render(solid(128, 128, 255), false);
    const std::array<float, 3> want = expectedBumpColour(128, 128, 255);
    for (const float w : want)
        ASSERT_NEAR(w, 80.0f, 1.5f); // the hand figure and the formula agree
    expectNear(colourAt(px, 16.0f), want, "bump-lit half");
    // The face that is not bump-lit keeps its flat lightmap, under the same material.
    EXPECT_EQ(colourAt(px, 48.0f), (std::array<int, 3>{kFlat, kFlat, kFlat}));
}

TEST_F(BumpRender, NormalAlongABasisVectorPicksItsMap) {
    // Basis 0, (sqrt(2/3), 0, 1/sqrt(3)), as a texel: (232, 128, 201). Basis 1 and 2 meet it at
    // sqrt(2/3) * -1/sqrt(6) + 1/3 = 0: the red map alone.
    const std::vector<uint8_t> px = render(solid(232, 128, 201), false);
    const std::array<float, 3> want = expectedBumpColour(232, 128, 201);
    ASSERT_NEAR(want[0], 240.0f, 1.0f);
    ASSERT_NEAR(want[1] + want[2], 0.0f, 1.0f);
    expectNear(colourAt(px, 16.0f), want, "basis 0");
    // Tilted between basis 1 and 2 (along -x): green and blue equal, no red.
    const std::vector<uint8_t> tilted = render(solid(40, 128, 200), false);
    const std::array<float, 3> t = expectedBumpColour(40, 128, 200);
    ASSERT_NEAR(t[0], 0.0f, 0.01f);
    ASSERT_NEAR(t[1], 120.0f, 2.0f); // 1/255 of y tips it a little to basis 1
    expectNear(colourAt(tilted, 16.0f), t, "between basis 1 and 2");
}

TEST_F(BumpRender, SelfShadowedBumpTexelIsTheWeights) {
    // $ssbump: (128, 64, 32) weighs the maps by 128/255, 64/255, 32/255, not normalised.
    const std::vector<uint8_t> px = render(solid(128, 64, 32), true);
    expectNear(colourAt(px, 16.0f),
               {240.0f * 128.0f / 255.0f, 240.0f * 64.0f / 255.0f, 240.0f * 32.0f / 255.0f},
               "ssbump");
    EXPECT_EQ(colourAt(px, 48.0f), (std::array<int, 3>{kFlat, kFlat, kFlat}));
}

TEST_F(BumpRender, WithoutANormalMapBumpLitFacesDrawTheirFlatLightmap) {
    const std::vector<uint8_t> px = render(content::Image(), false);
    EXPECT_EQ(colourAt(px, 16.0f), (std::array<int, 3>{kFlat, kFlat, kFlat}));
    EXPECT_EQ(colourAt(px, 48.0f), (std::array<int, 3>{kFlat, kFlat, kFlat}));
}
