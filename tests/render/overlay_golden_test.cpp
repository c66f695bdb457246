// The Source overlay fixture (support/overlay_fixture.h) against its golden image, as
// golden_test.cpp compares real maps (golden_check.h: same tolerance, BSPV_UPDATE_GOLDEN=1): a lit
// grey floor seen at an angle, a red overlay in render order 0 and a blue one in order 1 over
// part of it (the blue, drawn last, covering their overlap), and a green one over the floor's far
// corner, its quad clipped to the floor's edges. A second image: a brush entity's overlay drawn
// with its model, turned and moved beside the world floor.
#include "content/image/image.h"
#include "gl_fixture.h"
#include "golden_check.h"
#include "render/render_target.h"
#include "render/world_renderer.h"
#include "scene/view/visibility.h"
#include "scene/world/light_styles.h"
#include "scene/world/world_mesh.h"
#include "support/overlay_fixture.h"

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

namespace {

constexpr int kW = 320, kH = 180;

class OverlayGolden : public gltest::GlFixture {};

// `map` drawn from `cam` with material 0 a grey-brown and the overlays' materials 1.. in
// `colours`, into a kW x kH image.
content::Image draw(const bsp::Map& map, const scene::Camera& cam,
                    const std::vector<std::array<uint8_t, 3>>& colours) {
    const scene::WorldMesh mesh = scene::buildWorldMesh(map, scene::WorldMeshOptions());
    std::vector<content::TextureInfo> textures(map.materials.size());
    textures[0].image = testsupport::solidImage({110, 100, 90});
    for (size_t k = 0; k < colours.size() && k + 1 < textures.size(); ++k)
        textures[k + 1].image = testsupport::solidImage(colours[k]);
    render::WorldRenderer r;
    std::string error;
    EXPECT_TRUE(r.init(render::GlslLibrary(), &error)) << error;
    EXPECT_TRUE(r.upload(render::WorldSource{map, mesh, textures}, &error)) << error;
    render::RenderTarget target;
    EXPECT_TRUE(target.create(kW, kH, &error)) << error;
    scene::Visibility vis(map, mesh);
    scene::DrawList list;
    vis.update(cam, {}, list);
    target.bind();
    render::RenderOptions ro;
    ro.clear_colour = {0.1f, 0.1f, 0.1f, 1.0f};
    ro.style_values = scene::lightStyleValues(0.0);
    r.draw(list, cam, ro);
    content::Image got;
    got.width = kW;
    got.height = kH;
    got.rgba = target.readPixels();
    return got;
}

} // namespace

TEST_F(OverlayGolden, SourceOverlayFixtureMatchesItsGoldenImage) {
    testsupport::OverlaySpec red, blue, green;
    red.origin = {20, 24, 0};
    blue.texinfo = 2;
    blue.origin = {40, 30, 0};
    blue.half = 12.0f;
    blue.order = 1;
    green.texinfo = 3;
    green.origin = {56, 56, 0};
    green.half = 14.0f;
    const bsp::Map map = testsupport::overlayFloorMap(160, {red, blue, green}, 3);
    ASSERT_EQ(map.overlay_faces.fragments, 3u);
    scene::Camera cam;
    cam.position = {32, -30, 50};
    cam.pitch = 45.0f;
    cam.yaw = 90.0f;
    cam.aspect = static_cast<float>(kW) / static_cast<float>(kH);
    cam.z_near = 1.0f;
    golden::expectMatchesGolden("source_overlay_fixture",
                                draw(map, cam, {{200, 40, 40}, {40, 40, 200}, {40, 180, 60}}));
}

// testsupport::overlayBrushModelMap: the world floor (x, y 0..64, z 0) and a door's 64-unit floor
// placed at (128, 0, 8) turned 90 degrees of yaw (x 64..128, 8 units up), seen at an angle from
// the -y side. The door's red overlay, a 16-unit square around (40, 24) in the door's
// coordinates, shows where the turned door puts that point, around (104, 40); nothing on the
// world floor.
TEST_F(OverlayGolden, BrushModelOverlayMatchesItsGoldenImage) {
    testsupport::OverlaySpec s;
    s.origin = {40, 24, 0};
    s.half = 8.0f;
    const bsp::Map map = testsupport::overlayBrushModelMap(160, s, {128, 0, 8}, {0, 90, 0});
    ASSERT_EQ(map.overlay_faces.fragments, 1u);
    scene::Camera cam;
    cam.position = {64, -50, 70};
    cam.pitch = 45.0f;
    cam.yaw = 90.0f;
    cam.aspect = static_cast<float>(kW) / static_cast<float>(kH);
    cam.z_near = 1.0f;
    golden::expectMatchesGolden("source_brush_overlay_fixture", draw(map, cam, {{200, 40, 40}}));
}
