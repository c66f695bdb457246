// q3map2 external lightmaps and deluxe maps on screen: the tiny Quake 3 map of tests/support
// with an empty lightmap lump and uniform lm_0000 (light) / lm_0001 (direction) images beside
// it, looked at from above; the quad's pixels are the images' texels through the lightmap and
// deluxe views.
#include "gl_fixture.h"
#include "render/render_target.h"
#include "render/world_renderer.h"
#include "render/world_upload.h"
#include "scene/load/map_bundle.h"
#include "scene/view/visibility.h"
#include "scene/world/light_styles.h"
#include "support/q3_builder.h"
#include "unit/content_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>

using namespace content_test;

namespace {

// A w x h 24-bit TGA of one colour (BGR on disk).
Bytes uniformTga(int w, int h, uint8_t r, uint8_t g, uint8_t b) {
    Bytes t(18, 0);
    t[2] = 2;
    t[12] = static_cast<uint8_t>(w);
    t[14] = static_cast<uint8_t>(h);
    t[16] = 24;
    for (int i = 0; i < w * h; ++i)
        t.insert(t.end(), {b, g, r});
    return t;
}

class LightmapRender : public gltest::GlFixture {};

} // namespace

TEST_F(LightmapRender, ExternalLightAndDirectionTexelsReachTheScreen) {
    TempDir dir;
    q3test::Q3Builder b = q3test::Q3Builder::tiny();
    b.lightmaps.clear();
    b.faces[1].lightmap = 0; // only page 0 in use, page 1 lit: a light / direction pair
    writeBytes(dir / "maps/ext.bsp", b.build());
    writeBytes(dir / "maps/ext/lm_0000.tga", uniformTga(4, 2, 100, 50, 25));
    writeBytes(dir / "maps/ext/lm_0001.tga", uniformTga(4, 2, 200, 128, 60));
    auto loaded = scene::loadMapBundle((dir / "maps/ext.bsp").string(), {});
    ASSERT_TRUE(loaded) << loaded.error().message();
    const scene::MapBundle& bundle = **loaded;
    ASSERT_EQ(bundle.lightmaps.pages.size(), 1u);
    ASSERT_EQ(bundle.lightmaps.deluxe.size(), 1u);

    render::WorldRenderer renderer;
    std::string error;
    ASSERT_TRUE(renderer.init(render::GlslLibrary(), &error)) << error;
    ASSERT_TRUE(render::uploadBundle(renderer, bundle));

    // Above the middle of the 64 x 64 quad at z = 0 (the door, 16 units across at the
    // origin, and the other faces are out of view), looking straight down.
    scene::Camera cam;
    cam.position = {40.0f, 40.0f, 60.0f};
    cam.pitch = 89.0f;
    cam.fov_x = 30.0f;
    cam.aspect = 1.0f;
    scene::Visibility vis(bundle.map, bundle.mesh);
    scene::DrawList list;
    scene::VisOptions vo;
    vo.pvs = false;
    vis.update(cam, vo, list);

    auto centre = [&](render::ViewMode view) {
        render::RenderTarget target;
        std::string e;
        EXPECT_TRUE(target.create(32, 32, &e)) << e;
        target.bind();
        render::RenderOptions ro;
        ro.clear_colour = {0.0f, 1.0f, 0.0f, 1.0f};
        ro.view = view;
        ro.style_values = scene::lightStyleValues(0.0);
        renderer.draw(list, cam, ro);
        const std::vector<uint8_t> rgba = target.readPixels();
        const uint8_t* p = gltest::pixelAt(rgba, 32, 16, 16);
        return std::array<int, 3>{p[0], p[1], p[2]};
    };
    // The direction texel as stored.
    EXPECT_EQ(centre(render::ViewMode::Deluxe), (std::array<int, 3>{200, 128, 60}));
    // The light texel through the Quake 3 overbright path, as for a page in the map: times
    // style 0's value, doubled (no channel above 1, so the hue is kept as it is), doubled
    // again by the gamma ramp and clamped: 100, 50, 25 -> 255, 200, 100 at a style value of 1.
    const float style = scene::lightStyleValues(0.0)[0];
    auto expected = [&](int texel) {
        return static_cast<int>(
            std::lround(std::min(1.0f, texel / 255.0f * style * 4.0f) * 255.0f));
    };
    const std::array<int, 3> lm = centre(render::ViewMode::Lightmap);
    EXPECT_EQ(lm[0], 255);
    EXPECT_NEAR(lm[1], expected(50), 1);
    EXPECT_NEAR(lm[2], expected(25), 1);
}
