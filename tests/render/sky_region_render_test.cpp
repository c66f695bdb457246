// A sky region (Source's 3D sky box) drawn behind the world: a room whose ceiling is sky, a
// region far off holding a red box inside its own sky room, seen at scale 16. Looking up through
// the ceiling the box shows where the region camera's projection puts it, the flat sky colour
// elsewhere; with RenderOptions::sky_region off (--no-3d-sky) the ceiling shows the sky alone;
// with the region's fog ending short of the box the box takes the fog colour.
#include "gl_fixture.h"
#include "render/world_renderer.h"
#include "scene/view/sky_region.h"
#include "scene/view/visibility.h"
#include "scene/world/world_mesh.h"
#include "support/sky_region_fixture.h"

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

namespace {

constexpr int kSize = 64;

using testsupport::kBoxCentre;
using testsupport::kBoxHalf;
using testsupport::kRegionOrigin;
using testsupport::kScale;
using testsupport::skyRegionMap;
using testsupport::skyRegionTextures;

class SkyRegionRender : public gltest::GlFixture {
protected:
    void SetUp() override {
        gltest::GlFixture::SetUp();
        std::string error;
        ASSERT_TRUE(renderer.init(render::GlslLibrary(), &error)) << error;
        ASSERT_TRUE(renderer.upload({map, mesh, textures}, &error)) << error;
        ASSERT_TRUE(target.create(kSize, kSize, &error)) << error;
        camera.position = glm::vec3(32.0f, 16.0f, 0.0f);
        camera.pitch = -89.0f;
        camera.aspect = 1.0f;
        camera.z_near = 1.0f;
        region.origin = kRegionOrigin;
        region.scale = kScale;
    }

    // The frame with the region (when `with_region`) at pixel (x, y), y down from the top.
    glm::ivec3 pixel(int x, int y, bool with_region, bool option = true) {
        scene::Visibility world_vis(map, mesh), region_vis(map, mesh);
        scene::DrawList list;
        world_vis.update(camera, {}, list);
        scene::RegionView view;
        const bool shown = scene::updateRegionView(region, camera, list, region_vis, {}, view);
        EXPECT_TRUE(shown);
        render::RenderOptions ro;
        ro.sky_region = option;
        target.bind();
        renderer.draw(list, camera, ro, with_region && shown ? &view : nullptr);
        const std::vector<uint8_t> rgba = target.readPixels();
        // readPixels rows run top down.
        const uint8_t* p = &rgba[static_cast<size_t>((y * kSize + x) * 4)];
        return {p[0], p[1], p[2]};
    }

    // Where the box's lowest face's centre lands, from the region camera's projection.
    glm::ivec2 predictedBoxPixel() const {
        const scene::Camera rc = scene::skyRegionCamera(camera, region);
        const glm::vec4 clip =
            rc.viewProjection() * glm::vec4(kBoxCentre - glm::vec3(0, 0, kBoxHalf), 1.0f);
        const glm::vec2 ndc = glm::vec2(clip) / clip.w;
        return {int((ndc.x * 0.5f + 0.5f) * kSize), int((0.5f - ndc.y * 0.5f) * kSize)};
    }

    bsp::Map map = skyRegionMap();
    scene::WorldMesh mesh = scene::buildWorldMesh(map);
    std::vector<content::TextureInfo> textures = skyRegionTextures();
    render::WorldRenderer renderer;
    render::RenderTarget target;
    scene::Camera camera;
    game::SkyRegion region;
};

// render::kSkyFlatColour (0.32, 0.40, 0.55) in 8 bits.
const glm::ivec3 kFlat{82, 102, 140};

bool isRed(glm::ivec3 c) {
    return c.r > 100 && c.g < 20 && c.b < 20;
}

} // namespace

TEST_F(SkyRegionRender, TheRegionsBoxShowsThroughTheSkyWhereItsCameraProjectsIt) {
    const glm::ivec2 at = predictedBoxPixel();
    // The eye (32, 16, 0) is (2, 1, 0) in the region: the box is off the view's centre.
    ASSERT_GT(at.x, 2);
    ASSERT_LT(at.x, kSize - 3);
    ASSERT_GT(at.y, 2);
    ASSERT_LT(at.y, kSize - 3);
    ASSERT_GT(std::abs(at.x - kSize / 2) + std::abs(at.y - kSize / 2), 6);
    const glm::ivec3 box = pixel(at.x, at.y, true);
    EXPECT_TRUE(isRed(box)) << box.r << " " << box.g << " " << box.b;
    // The mirrored point: the region's sky room, the flat sky colour.
    EXPECT_EQ(pixel(kSize - 1 - at.x, kSize - 1 - at.y, true), kFlat);
    // Without a region, or with the option off, the ceiling is the sky alone.
    EXPECT_EQ(pixel(at.x, at.y, false), kFlat);
    EXPECT_EQ(pixel(at.x, at.y, true, false), kFlat);
}

TEST_F(SkyRegionRender, FogEndingShortOfTheBoxPaintsItTheFogColour) {
    region.fog.enabled = true;
    region.fog.colour = glm::vec3(0.0f, 1.0f, 0.0f);
    region.fog.start = 0.0f;
    region.fog.end = 16.0f * 20.0f; // 20 region units: the box is about 55 away
    const glm::ivec2 at = predictedBoxPixel();
    EXPECT_EQ(pixel(at.x, at.y, true), glm::ivec3(0, 255, 0));
    // Half-way fog (max density 0.5) on the box: half red, half green.
    region.fog.max_density = 0.5f;
    const glm::ivec3 half = pixel(at.x, at.y, true);
    EXPECT_NEAR(half.g, 128, 2);
    EXPECT_GT(half.r, 40);
}

TEST_F(SkyRegionRender, NoSkyInViewNoRegion) {
    scene::Visibility world_vis(map, mesh), region_vis(map, mesh);
    scene::DrawList list;
    world_vis.update(camera, {}, list);
    EXPECT_TRUE(scene::hasSkyBatch(list));
    scene::RegionView view;
    ASSERT_TRUE(scene::updateRegionView(region, camera, list, region_vis, {}, view));
    EXPECT_EQ(view.camera.position, kRegionOrigin + glm::vec3(2.0f, 1.0f, 0.0f));
    EXPECT_EQ(view.camera.z_near, 2.0f);
    // A view that shows no sky surface draws no region (CSkyboxView::Setup).
    const scene::DrawList none;
    EXPECT_FALSE(scene::hasSkyBatch(none));
    EXPECT_FALSE(scene::updateRegionView(region, camera, none, region_vis, {}, view));
}
