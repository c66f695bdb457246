// The Source overlay fixture (support/overlay_fixture.h) against its golden image, as
// golden_test.cpp compares real maps (golden_check.h: same tolerance, BSPV_UPDATE_GOLDEN=1): a lit
// grey floor seen at an angle, a red overlay in render order 0 and a blue one in order 1 over
// part of it (the blue, drawn last, covering their overlap), and a green one over the floor's far
// corner, its quad clipped to the floor's edges.
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

#include <string>
#include <vector>

namespace {

constexpr int kW = 320, kH = 180;

class OverlayGolden : public gltest::GlFixture {};

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
    const scene::WorldMesh mesh = scene::buildWorldMesh(map, scene::WorldMeshOptions());
    std::vector<content::TextureInfo> textures(4);
    textures[0].image = testsupport::solidImage({110, 100, 90});
    textures[1].image = testsupport::solidImage({200, 40, 40});
    textures[2].image = testsupport::solidImage({40, 40, 200});
    textures[3].image = testsupport::solidImage({40, 180, 60});
    render::WorldRenderer r;
    std::string error;
    ASSERT_TRUE(r.init(render::GlslLibrary(), &error)) << error;
    ASSERT_TRUE(r.upload(render::WorldSource{map, mesh, textures}, &error)) << error;
    render::RenderTarget target;
    ASSERT_TRUE(target.create(kW, kH, &error)) << error;
    scene::Camera cam;
    cam.position = {32, -30, 50};
    cam.pitch = 45.0f;
    cam.yaw = 90.0f;
    cam.aspect = static_cast<float>(kW) / static_cast<float>(kH);
    cam.z_near = 1.0f;
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

    golden::expectMatchesGolden("source_overlay_fixture", got);
}
