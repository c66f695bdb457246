// The Source overlay fixture (support/overlay_fixture.h) against its golden image, as
// golden_test.cpp compares real maps (same tolerance; BSPV_UPDATE_GOLDEN=1 rewrites it): a lit
// grey floor seen at an angle, a red overlay in render order 0 and a blue one in order 1 over
// part of it (the blue, drawn last, covering their overlap), and a green one over the floor's far
// corner, its quad clipped to the floor's edges.
#include "content/image/image.h"
#include "core/file.h"
#include "gl_fixture.h"
#include "golden_diff.h"
#include "render/render_target.h"
#include "render/world_renderer.h"
#include "scene/view/visibility.h"
#include "scene/world/light_styles.h"
#include "scene/world/world_mesh.h"
#include "support/overlay_fixture.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
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

    const std::filesystem::path golden =
        std::filesystem::path(BSPV_SOURCE_DIR) / "tests/golden/source_overlay_fixture.png";
    if (const char* update = std::getenv("BSPV_UPDATE_GOLDEN"); update && *update == '1') {
        ASSERT_TRUE(content::writePng(golden, got)) << golden;
    }
    auto bytes = core::readFile(golden);
    ASSERT_TRUE(bytes.ok()) << "missing golden image " << golden;
    auto want = content::decodeImage(*bytes, golden.string());
    ASSERT_TRUE(want.ok()) << want.error().message();
    ASSERT_EQ(want->width, kW);
    ASSERT_EQ(want->height, kH);
    const golden::Difference d = golden::compare(got.rgba, want->rgba);
    if (d.mean >= 1.5 || d.far_fraction >= 0.01) {
        const std::filesystem::path actual =
            std::filesystem::path(BSPV_GOLDEN_OUT_DIR) / "source_overlay_fixture.actual.png";
        std::error_code ec;
        std::filesystem::create_directories(actual.parent_path(), ec);
        const bool written = content::writePng(actual, got);
        ADD_FAILURE() << "mean difference " << d.mean << ", " << d.far_fraction * 100.0
                      << "% of pixels off by more than " << golden::kFarLevels << "; expected "
                      << golden << ", actual " << actual << (written ? "" : " (not written)");
    }
}
