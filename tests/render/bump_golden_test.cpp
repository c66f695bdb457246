// The bump-lit floor (support/bump_fixture.h) against its golden image, as golden_test.cpp
// compares real maps (golden_check.h: same tolerance, BSPV_UPDATE_GOLDEN=1): seen at an angle, its
// left half bump-lit under a striped normal map (normals tilted towards each basis vector in
// turn: red, green, blue stripes, and flat ones grey), its right half flat-lit grey.
#include "content/image/image.h"
#include "gl_fixture.h"
#include "golden_check.h"
#include "render/render_target.h"
#include "render/world_renderer.h"
#include "scene/view/visibility.h"
#include "scene/world/light_styles.h"
#include "scene/world/world_mesh.h"
#include "support/bump_fixture.h"

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

namespace {

constexpr int kW = 320, kH = 180;

class BumpGolden : public gltest::GlFixture {};

// 8 x 8 texels in columns of basis 0, 1, 2, then flat, twice: the bump-lit half spans four.
content::Image stripedNormals() {
    const std::array<std::array<uint8_t, 3>, 4> normals = {
        {{232, 128, 201}, {76, 218, 201}, {76, 37, 201}, {128, 128, 255}}};
    content::Image img;
    img.width = img.height = 8;
    for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 8; ++x) {
            const auto& n = normals[static_cast<size_t>(x % 4)];
            img.rgba.insert(img.rgba.end(), {n[0], n[1], n[2], 255});
        }
    return img;
}

} // namespace

TEST_F(BumpGolden, SourceBumpFixtureMatchesItsGoldenImage) {
    const bsp::Map map = testsupport::bumpFloor();
    const scene::WorldMesh mesh = scene::buildWorldMesh(map);
    std::vector<content::TextureInfo> textures(1);
    textures[0].image.width = textures[0].image.height = 1;
    textures[0].image.rgba = {255, 255, 255, 255};
    textures[0].bump = stripedNormals();
    textures[0].missing = false;
    render::WorldRenderer r;
    std::string error;
    ASSERT_TRUE(r.init(render::GlslLibrary(), &error)) << error;
    render::WorldSource source{map, mesh, textures};
    source.rules.light.lightmap_scale = 1.0f;
    ASSERT_TRUE(r.upload(source, &error)) << error;
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
    ro.fog = false;
    ro.style_values = scene::lightStyleValues(0.0);
    r.draw(list, cam, ro);
    content::Image got;
    got.width = kW;
    got.height = kH;
    got.rgba = target.readPixels();

    golden::expectMatchesGolden("source_bump_fixture", got);
}
