// Source overlays as the world renderer draws them (Mesa llvmpipe under xvfb-run): a lit floor
// with solid-colour overlays read from hand-made doverlay_t records (support/overlay_fixture.h).
// Inside a quad the pixel is the overlay's colour times the floor's lightmap, outside the floor's;
// the quad's edges fall where the camera's projection of its corners puts them; an overlay past
// its fade distance is not drawn.
#include "gl_fixture.h"
#include "render/render_target.h"
#include "render/world_renderer.h"
#include "render_world.h"
#include "scene/view/visibility.h"
#include "scene/world/light_styles.h"
#include "scene/world/world_mesh.h"
#include "support/overlay_fixture.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>
#include <vector>

namespace {

constexpr int kW = 96, kH = 96;
const glm::vec4 kClear{0.0f, 1.0f, 0.0f, 1.0f};
constexpr uint8_t kLuxel = 128;
constexpr std::array<uint8_t, 3> kFloor = {100, 100, 100};
constexpr std::array<uint8_t, 3> kRed = {200, 40, 40};

// A texel under luxel 128 and the default 2x overbright: texel * 128 / 255 * 2, rounded.
// 100 -> 100.4 -> 100, 200 -> 200.8 -> 201, 40 -> 40.2 -> 40.
std::array<int, 3> lit(std::array<uint8_t, 3> texel) {
    std::array<int, 3> out{};
    for (size_t k = 0; k < 3; ++k)
        out[k] = static_cast<int>(std::lround(texel[k] * (kLuxel / 255.0) * 2.0));
    return out;
}

// Straight down from `height` above the point `xy` (the floor's (32, 32) unless given), screen
// right +x, screen up +y.
scene::Camera downCamera(float height, glm::vec2 xy = {32, 32}) {
    scene::Camera cam;
    cam.position = {xy.x, xy.y, height};
    cam.pitch = 90.0f;
    cam.yaw = 90.0f;
    cam.aspect = 1.0f;
    cam.z_near = 1.0f;
    return cam;
}

// Where `cam` puts world point `p` in the image: pixel units, x right, y down from the top row.
glm::vec2 project(const scene::Camera& cam, glm::vec3 p) {
    const glm::vec4 clip = cam.viewProjection() * glm::vec4(p, 1.0f);
    const glm::vec2 ndc = glm::vec2(clip) / clip.w;
    return {(ndc.x + 1.0f) * 0.5f * kW, (1.0f - ndc.y) * 0.5f * kH};
}

class OverlayRender : public gltest::GlFixture {
protected:
    // Renders `map` from `cam` with material 0 grey 100 and the overlays' in `colours`; returns
    // the image (RGBA, top row first).
    std::vector<uint8_t> render(const bsp::Map& map, const scene::Camera& cam,
                                const std::vector<std::array<uint8_t, 3>>& colours) {
        const scene::WorldMesh mesh = scene::buildWorldMesh(map, scene::WorldMeshOptions());
        std::vector<content::TextureInfo> textures(map.materials.size());
        textures[0].image = testsupport::solidImage(kFloor);
        for (size_t k = 0; k < colours.size() && k + 1 < textures.size(); ++k)
            textures[k + 1].image = testsupport::solidImage(colours[k]);
        render::RenderOptions ro = testsupport::testRenderOptions();
        ro.clear_colour = kClear;
        return testsupport::renderWorld({map, mesh, textures}, cam, kW, kH, ro);
    }
};

std::array<int, 3> rgbAt(const std::vector<uint8_t>& img, int x, int y) {
    const uint8_t* p = gltest::pixelAt(img, kW, x, y);
    return {p[0], p[1], p[2]};
}

// Expects `got` within a level of `want` in each channel (llvmpipe's rounding of the product).
void expectNear(std::array<int, 3> got, std::array<int, 3> want, const char* where) {
    for (size_t k = 0; k < 3; ++k)
        EXPECT_NEAR(got[k], want[k], 1) << where << " channel " << k;
}

// The pixel rows or columns on either side of an edge that projects to `e` (pixel units): the
// last whose centre lies below e - 0.1 and the first whose centre lies above e + 0.1.
std::array<int, 2> besideEdge(float e) {
    return {static_cast<int>(std::ceil(e - 0.1f - 0.5f)) - 1,
            static_cast<int>(std::floor(e + 0.1f - 0.5f)) + 1};
}

} // namespace

// A 32-unit red overlay around (36, 32) on the grey floor, seen from 60 units up: inside, red
// times the floor's light; outside, the floor's grey times it; beyond the floor, the clear colour.
// Each edge of the quad is where the projection of its lifted corners (z = overlayLift(0)) puts
// it, to the pixel on both sides.
TEST_F(OverlayRender, QuadShowsTheOverlayLitByTheFloorsLightmap) {
    testsupport::OverlaySpec s;
    s.origin = {36, 32, 0};
    const bsp::Map map = testsupport::overlayFloorMap(kLuxel, {s}, 1);
    ASSERT_EQ(map.overlay_faces.fragments, 1u);
    const scene::Camera cam = downCamera(60.0f);
    const auto img = render(map, cam, {kRed});
    const float z = bsp::overlayLift(0);
    const glm::vec2 centre = project(cam, {36, 32, z});
    expectNear(rgbAt(img, int(centre.x), int(centre.y)), lit(kRed), "centre");
    const glm::vec2 lo = project(cam, {20, 16, z}), hi = project(cam, {52, 48, z});
    // Screen right is +x, screen up +y: the corner (20, 16) is at the bottom left.
    ASSERT_LT(lo.x, hi.x);
    ASSERT_GT(lo.y, hi.y);
    const int mid_y = int(centre.y), mid_x = int(centre.x);
    const auto left = besideEdge(lo.x), right = besideEdge(hi.x);
    const auto top = besideEdge(hi.y), bottom = besideEdge(lo.y);
    expectNear(rgbAt(img, left[0], mid_y), lit(kFloor), "left of the x = 20 edge");
    expectNear(rgbAt(img, left[1], mid_y), lit(kRed), "right of the x = 20 edge");
    expectNear(rgbAt(img, right[0], mid_y), lit(kRed), "left of the x = 52 edge");
    expectNear(rgbAt(img, right[1], mid_y), lit(kFloor), "right of the x = 52 edge");
    expectNear(rgbAt(img, mid_x, top[0]), lit(kFloor), "above the y = 48 edge");
    expectNear(rgbAt(img, mid_x, top[1]), lit(kRed), "below the y = 48 edge");
    expectNear(rgbAt(img, mid_x, bottom[0]), lit(kRed), "above the y = 16 edge");
    expectNear(rgbAt(img, mid_x, bottom[1]), lit(kFloor), "below the y = 16 edge");
    // Past the floor's corner (0, 0): the clear colour.
    const glm::vec2 off = project(cam, {-4, -4, 0});
    EXPECT_EQ(rgbAt(img, int(off.x), int(off.y)), (std::array<int, 3>{0, 255, 0}));
}

// doverlayfade_t: an overlay whose max fade distance is 100 units shows from 60 units above its
// centre and is gone from 150 (the floor's grey there); one without fade shows from both.
TEST_F(OverlayRender, OverlayPastItsFadeDistanceIsNotDrawn) {
    testsupport::OverlaySpec faded;
    faded.fade_min_sq = 80.0f * 80.0f;
    faded.fade_max_sq = 100.0f * 100.0f;
    const bsp::Map map = testsupport::overlayFloorMap(kLuxel, {faded}, 1);
    const bsp::Map unfaded =
        testsupport::overlayFloorMap(kLuxel, std::vector<testsupport::OverlaySpec>(1), 1);
    for (const float height : {60.0f, 150.0f}) {
        const scene::Camera cam = downCamera(height);
        const glm::vec2 c = project(cam, {32, 32, 0});
        const bool near = height < 100.0f;
        expectNear(rgbAt(render(map, cam, {kRed}), int(c.x), int(c.y)), lit(near ? kRed : kFloor),
                   near ? "faded, near" : "faded, far");
        expectNear(rgbAt(render(unfaded, cam, {kRed}), int(c.x), int(c.y)), lit(kRed),
                   near ? "unfaded, near" : "unfaded, far");
    }
}

// Render order decides which of two overlapping overlays shows, not their materials' order: red
// (material 1) in order 1 over blue (material 2) in order 0, and the other way round, seen from
// 60 units up at a point both cover.
TEST_F(OverlayRender, HigherRenderOrderShowsWhereTwoOverlap) {
    constexpr std::array<uint8_t, 3> kBlue = {40, 40, 200};
    for (const uint16_t red_order : {uint16_t(1), uint16_t(0)}) {
        testsupport::OverlaySpec red, blue;
        red.origin = {28, 32, 0};
        red.order = red_order;
        blue.texinfo = 2;
        blue.origin = {36, 32, 0};
        blue.order = uint16_t(1 - red_order);
        const bsp::Map map = testsupport::overlayFloorMap(kLuxel, {red, blue}, 2);
        const scene::Camera cam = downCamera(60.0f);
        const glm::vec2 c = project(cam, {32, 32, 0});
        expectNear(rgbAt(render(map, cam, {kRed, kBlue}), int(c.x), int(c.y)),
                   lit(red_order == 1 ? kRed : kBlue),
                   red_order == 1 ? "red on top" : "blue on top");
    }
}

// A brush entity's overlay (overlayBrushModelMap): the door's floor is stored in its own
// coordinates (x, y in [0, 64], z 0) and placed at (128, 0, 8) turned 90 degrees of yaw, so its
// point (x, y) is drawn at (128 - y, x, 8 + z). The overlay, a 16-unit square around (40, 24) in
// the door's coordinates (x 32..48, y 16..32), is drawn with the door: around (104, 40) at height
// 8.1 (x 96..112, y 32..48), red times the door's light; the door's floor beside it is grey, and
// the world floor under the overlay's unplaced square (around (40, 24), height 0) is grey too.
// Hidden with its model, the overlay goes too.
TEST_F(OverlayRender, BrushModelOverlayIsDrawnWithItsModelsPlacement) {
    testsupport::OverlaySpec s;
    s.origin = {40, 24, 0};
    s.half = 8.0f;
    bsp::Map map = testsupport::overlayBrushModelMap(kLuxel, s, {128, 0, 8}, {0, 90, 0});
    ASSERT_EQ(map.overlay_faces.fragments, 1u);
    ASSERT_EQ(map.faces.size(), 3u);
    EXPECT_EQ(map.faces[2].submodel, 1);
    const scene::Camera cam = downCamera(100.0f, {64, 32});
    const float z = 8.0f + bsp::overlayLift(0);
    const auto at = [&](const std::vector<uint8_t>& img, glm::vec3 p) {
        const glm::vec2 q = project(cam, p);
        return rgbAt(img, int(q.x), int(q.y));
    };
    const auto img = render(map, cam, {kRed});
    expectNear(at(img, {104, 40, z}), lit(kRed), "the placed overlay's centre");
    expectNear(at(img, {98, 34, z}), lit(kRed), "near the placed corner (96, 32)");
    expectNear(at(img, {110, 46, z}), lit(kRed), "near the placed corner (112, 48)");
    // The door's own (24, 24) and (56, 24), beside the overlay on either side, and (8, 56).
    expectNear(at(img, {104, 24, 8}), lit(kFloor), "door below the overlay");
    expectNear(at(img, {104, 56, 8}), lit(kFloor), "door above the overlay");
    expectNear(at(img, {72, 8, 8}), lit(kFloor), "door's far corner");
    // Where the overlay's square would be unplaced: the world floor.
    expectNear(at(img, {40, 24, 0}), lit(kFloor), "the unplaced square");
    map.submodels[1].visible = false;
    const auto hidden = render(map, cam, {kRed});
    EXPECT_EQ(at(hidden, {104, 40, z}), (std::array<int, 3>{0, 255, 0}));
    expectNear(at(hidden, {40, 24, 0}), lit(kFloor), "the world floor, door hidden");
}

// A brush entity's overlay fades by the distance from the eye to its fragment's centre where the
// door draws it, (104, 40, 8.1): with a 70-unit max fade distance it shows from 60 units above
// that point and is gone from 80. (Measured from the unplaced centre (40, 24, 0.1) the eye 60
// units up would be 94.7 units away, past the fade.)
TEST_F(OverlayRender, BrushModelOverlayFadesFromWhereItsModelDrawsIt) {
    testsupport::OverlaySpec s;
    s.origin = {40, 24, 0};
    s.half = 8.0f;
    s.fade_min_sq = 60.0f * 60.0f;
    s.fade_max_sq = 70.0f * 70.0f;
    const bsp::Map map = testsupport::overlayBrushModelMap(kLuxel, s, {128, 0, 8}, {0, 90, 0});
    ASSERT_EQ(map.overlay_faces.fragments, 1u);
    const float z = 8.0f + bsp::overlayLift(0);
    for (const float above : {60.0f, 80.0f}) {
        const scene::Camera cam = downCamera(z + above, {104, 40});
        const glm::vec2 c = project(cam, {104, 40, z});
        const bool near = above < 70.0f;
        expectNear(rgbAt(render(map, cam, {kRed}), int(c.x), int(c.y)), lit(near ? kRed : kFloor),
                   near ? "60 units away" : "80 units away");
    }
}
