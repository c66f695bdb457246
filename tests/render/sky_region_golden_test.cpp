// The sky region fixture (support/sky_region_fixture.h) against its golden image, as
// golden_test.cpp compares real maps (golden_check.h): the room's grey walls seen at an angle,
// its sky ceiling showing the region drawn at scale 16 behind it, the region's red box in its own
// sky room, half hidden by the region's linear fog (green, ending past the box).
#include "gl_fixture.h"
#include "golden_check.h"
#include "render/render_target.h"
#include "render/world_renderer.h"
#include "scene/view/sky_region.h"
#include "scene/view/visibility.h"
#include "scene/world/light_styles.h"
#include "scene/world/world_mesh.h"
#include "support/sky_region_fixture.h"

#include <gtest/gtest.h>

#include <string>

namespace {

constexpr int kW = 320, kH = 180;

class SkyRegionGolden : public gltest::GlFixture {};

} // namespace

TEST_F(SkyRegionGolden, SkyRegionFixtureMatchesItsGoldenImage) {
    const bsp::Map map = testsupport::skyRegionMap();
    const scene::WorldMesh mesh = scene::buildWorldMesh(map);
    const std::vector<content::TextureInfo> textures = testsupport::skyRegionTextures();
    render::WorldRenderer r;
    std::string error;
    ASSERT_TRUE(r.init(render::GlslLibrary(), &error)) << error;
    ASSERT_TRUE(r.upload({map, mesh, textures}, &error)) << error;
    render::RenderTarget target;
    ASSERT_TRUE(target.create(kW, kH, &error)) << error;

    scene::Camera cam;
    cam.position = {-60.0f, -40.0f, -40.0f};
    cam.pitch = -40.0f; // looking up at the ceiling's near half and the far walls
    cam.yaw = 30.0f;
    cam.aspect = static_cast<float>(kW) / static_cast<float>(kH);
    cam.z_near = 1.0f;
    game::SkyRegion region;
    region.origin = testsupport::kRegionOrigin;
    region.scale = testsupport::kScale;
    region.fog.enabled = true;
    region.fog.colour = glm::vec3(0.2f, 0.6f, 0.3f);
    region.fog.start = 0.0f;
    region.fog.end = testsupport::kScale * 120.0f;
    region.fog.max_density = 0.8f;

    scene::Visibility world_vis(map, mesh), region_vis(map, mesh);
    scene::DrawList list;
    world_vis.update(cam, {}, list);
    scene::RegionView view;
    ASSERT_TRUE(scene::updateRegionView(region, cam, list, region_vis, {}, view));
    target.bind();
    render::RenderOptions ro;
    ro.clear_colour = {0.1f, 0.1f, 0.1f, 1.0f};
    ro.style_values = scene::lightStyleValues(0.0);
    r.draw(list, cam, ro, &view);
    content::Image got;
    got.width = kW;
    got.height = kH;
    got.rgba = target.readPixels();
    golden::expectMatchesGolden("source_sky_region_fixture", got);
}
