// A sky region (Source's 3D sky box) drawn behind the world: a room whose ceiling is sky, a
// region far off holding a red box inside its own sky room, seen at scale 16. Looking up through
// the ceiling the box shows where the region camera's projection puts it, the flat sky colour
// elsewhere; with RenderOptions::sky_region off (--no-3d-sky) the ceiling shows the sky alone;
// with the region's fog ending short of the box the box takes the fog colour.
#include "gl_fixture.h"
#include "render/world_renderer.h"
#include "scene/models/model_set.h"
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

// A model standing in the region (a 3D sky box's prop): a 16-unit green square facing down,
// 70 units above the region's origin and off to one side, full bright and two-sided. Drawn by
// the region's camera, it shows through the world's sky where that camera projects its centre.
TEST_F(SkyRegionRender, AModelInTheRegionShowsWhereItsCameraProjectsIt) {
    const glm::vec3 at = kRegionOrigin + glm::vec3(-40.0f, -30.0f, 70.0f);
    content::ModelMesh quad;
    for (const glm::vec2 c :
         {glm::vec2(-8, -8), glm::vec2(8, -8), glm::vec2(8, 8), glm::vec2(-8, 8)}) {
        quad.positions.push_back({c.x, c.y, 0.0f});
        quad.normals.push_back({0.0f, 0.0f, -1.0f});
        quad.uv.push_back({0.5f, 0.5f});
    }
    quad.indices = {0, 1, 2, 0, 2, 3};
    content::ModelDrawRange range;
    range.index_count = 6;
    range.two_sided = true;
    quad.ranges.push_back(range);
    quad.vertex_count = 4;
    quad.pose_count = 1;
    quad.frames.push_back({"f", {}});
    content::ModelImage green;
    green.width = green.height = 1;
    green.rgba = {0, 255, 0, 255};
    green.fullbright = {0};
    quad.images.push_back(green);
    quad.skins.push_back({});
    quad.mins = {-8, -8, 0};
    quad.maxs = {8, 8, 0};
    scene::EntityModelSet set;
    set.models.push_back({"square", quad, std::nullopt, {}, {}});
    scene::EntityModelInstance inst;
    inst.origin = at;
    inst.radius = 12.0f;
    inst.fullbright = true;
    set.instances.push_back(inst);

    render::WorldRenderer with_models;
    std::string error;
    ASSERT_TRUE(with_models.init(render::GlslLibrary(), &error)) << error;
    render::WorldSource source{map, mesh, textures};
    source.models = &set;
    ASSERT_TRUE(with_models.upload(source, &error)) << error;

    const scene::Camera rc = scene::skyRegionCamera(camera, region);
    const glm::vec4 clip = rc.viewProjection() * glm::vec4(at, 1.0f);
    const glm::vec2 ndc = glm::vec2(clip) / clip.w;
    const int x = int((ndc.x * 0.5f + 0.5f) * kSize), y = int((0.5f - ndc.y * 0.5f) * kSize);
    ASSERT_GT(x, 1);
    ASSERT_LT(x, kSize - 2);
    ASSERT_GT(y, 1);
    ASSERT_LT(y, kSize - 2);

    for (const bool models_in_region : {true, false}) {
        scene::Visibility world_vis(map, mesh, &set.instances);
        scene::Visibility region_vis(map, mesh, models_in_region ? &set.instances : nullptr);
        scene::DrawList list;
        world_vis.update(camera, {}, list);
        // The world's own view does not reach the region's model (it is behind the ceiling).
        scene::RegionView view;
        ASSERT_TRUE(scene::updateRegionView(region, camera, list, region_vis, {}, view));
        EXPECT_EQ(view.list.models.size(), models_in_region ? 1u : 0u);
        list.models.clear();
        target.bind();
        with_models.draw(list, camera, render::RenderOptions(), &view);
        const std::vector<uint8_t> rgba = target.readPixels();
        const uint8_t* p = &rgba[static_cast<size_t>((y * kSize + x) * 4)];
        const glm::ivec3 got{p[0], p[1], p[2]};
        if (models_in_region)
            EXPECT_EQ(got, glm::ivec3(0, 255, 0));
        else
            EXPECT_EQ(got, kFlat); // the region's sky room behind where the model stood
    }
}

// The region is drawn with its camera's area alone (CSkyboxView::DrawInternal sets that one
// area bit): skyRegionTwoAreaMap puts a blue box in the region in area 2, the region's origin in
// area 1. Its leaf is in the region's PVS row (the map has no vis), yet where the region camera
// projects the blue box's lowest face the region's sky room shows, the flat sky colour; the
// red box (area 1) still shows. With the areas dropped (a broken areas lump) the blue box shows.
TEST_F(SkyRegionRender, AnotherAreasBoxIsNotDrawnInTheRegion) {
    bsp::Map two = testsupport::skyRegionTwoAreaMap();
    const scene::WorldMesh two_mesh = scene::buildWorldMesh(two);
    const std::vector<content::TextureInfo> two_textures = skyRegionTextures(true);
    const scene::Camera rc = scene::skyRegionCamera(camera, region);
    const glm::vec4 clip =
        rc.viewProjection() *
        glm::vec4(testsupport::kOtherAreaBoxCentre - glm::vec3(0, 0, kBoxHalf), 1.0f);
    const glm::vec2 ndc = glm::vec2(clip) / clip.w;
    const int x = int((ndc.x * 0.5f + 0.5f) * kSize), y = int((0.5f - ndc.y * 0.5f) * kSize);
    ASSERT_GT(x, 2);
    ASSERT_LT(x, kSize - 3);
    ASSERT_GT(y, 2);
    ASSERT_LT(y, kSize - 3);
    const glm::ivec2 red = predictedBoxPixel();

    for (const bool areas : {true, false}) {
        if (!areas)
            two.areas.clear();
        render::WorldRenderer r;
        std::string error;
        ASSERT_TRUE(r.init(render::GlslLibrary(), &error)) << error;
        ASSERT_TRUE(r.upload({two, two_mesh, two_textures}, &error)) << error;
        scene::Visibility world_vis(two, two_mesh), region_vis(two, two_mesh);
        scene::DrawList list;
        world_vis.update(camera, {}, list);
        scene::RegionView view;
        ASSERT_TRUE(scene::updateRegionView(region, camera, list, region_vis, {}, view));
        EXPECT_EQ(view.list.stats.area, areas ? 1 : -1);
        EXPECT_EQ(view.list.stats.pvs_leaves, areas ? 1u : 2u);
        for (uint32_t f = 18; f < 24; ++f) // the blue box's faces
            EXPECT_EQ(view.list.containsFace(f), !areas) << f;
        target.bind();
        r.draw(list, camera, render::RenderOptions(), &view);
        const std::vector<uint8_t> rgba = target.readPixels();
        const auto at = [&](int px, int py) {
            const uint8_t* p = &rgba[static_cast<size_t>((py * kSize + px) * 4)];
            return glm::ivec3(p[0], p[1], p[2]);
        };
        const glm::ivec3 got = at(x, y);
        if (areas)
            EXPECT_EQ(got, kFlat) << x << "," << y;
        else
            EXPECT_TRUE(got.b > 100 && got.r < 20 && got.g < 20)
                << got.r << " " << got.g << " " << got.b;
        EXPECT_TRUE(isRed(at(red.x, red.y)));
    }
}
