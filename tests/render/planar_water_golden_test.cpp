// Source water's expensive path (render/pass_water.cpp, world.frag.glsl WATER_PLANAR) against a
// checked golden image: the pool of tests/support/planar_water_fixture.h, its wall striped, its
// water rippled by a normal map, reflecting the wall and refracting the fogged floor and pillar.
#include "content/image/image.h"
#include "gl_fixture.h"
#include "golden_check.h"
#include "render/world_renderer.h"
#include "render_world.h"
#include "scene/world/material_table.h"
#include "scene/world/world_mesh.h"
#include "support/envmap_fixture.h"
#include "support/planar_water_fixture.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <vector>

namespace {

using namespace testsupport::planar_water;

constexpr int kW = 320, kH = 180;

class PlanarWaterGolden : public gltest::GlFixture {};

// Seen from 40 units over the water looking 20 degrees down along +y: the wall in green and
// white stripes (8 texels of a 16 x 16 image, 16 units each) and its reflection in the water,
// moved by ripples (a 16 x 16 normal map, sin along u on red and along v on green, amplitude 0.35
// before normalising) times $reflectamount 0.05; under it the red floor and the blue pillar
// through the refraction ($refractamount 0.03), fogged toward $fogcolor over 0 to 120 units of
// depth, with the fresnel factor rising toward the horizon.
TEST_F(PlanarWaterGolden, SourcePlanarWaterMatchesItsGoldenImage) {
    const bsp::Map map = pool();
    std::vector<content::TextureInfo> textures(4);
    const auto bytes = [](const Rgb& c) {
        return std::array<uint8_t, 3>{static_cast<uint8_t>(std::lround(c[0] * 255.0f)),
                                      static_cast<uint8_t>(std::lround(c[1] * 255.0f)),
                                      static_cast<uint8_t>(std::lround(c[2] * 255.0f))};
    };
    textures[0].image = solid(bytes(kFloor));
    textures[3].image = solid(bytes(kPillar));
    content::Image& stripes = textures[2].image;
    stripes.width = stripes.height = 16;
    for (int y = 0; y < 16; ++y)
        for (int x = 0; x < 16; ++x) {
            const bool white = (x / 8 + y / 8) % 2 == 0;
            const auto c = bytes(kWall);
            stripes.rgba.insert(stripes.rgba.end(),
                                {white ? uint8_t(240) : c[0], white ? uint8_t(240) : c[1],
                                 white ? uint8_t(240) : c[2], 255});
        }
    for (size_t k : {0u, 2u, 3u}) {
        textures[k].fullbright_light = 1.0f;
        textures[k].missing = false;
    }
    content::TextureInfo& water = textures[1];
    water.image = solid({1, 2, 3}, 128);
    water.surface_flags = bsp::kSurfFullbright | bsp::kSurfTranslucent;
    water.fullbright_light = 1.0f;
    water.missing = false;
    water.water.enabled = true;
    water.water.planar = true;
    water.water.refract = true;
    water.water.base_colour = {0.1f, 0.25f, 0.3f};
    water.water.reflect_tint = {0.9f, 0.95f, 1.0f};
    water.water.reflect_amount = 0.05f;
    water.water.refract_amount = 0.03f;
    water.water.fog_start = 0.0f;
    water.water.fog_end = 120.0f;
    water.bump = testsupport::rippledNormalMap();
    const scene::WorldMesh mesh =
        scene::buildWorldMesh(map, scene::resolveMaterials(map, nullptr, textures));
    scene::Camera cam;
    cam.position = {0.0f, 0.0f, kWaterZ + 40.0f};
    cam.pitch = 20.0f;
    cam.yaw = 90.0f;
    cam.aspect = static_cast<float>(kW) / static_cast<float>(kH);
    cam.z_near = 1.0f;
    render::RenderOptions options = testsupport::testRenderOptions();
    options.clear_colour = {kClear[0], kClear[1], kClear[2], 1.0f};
    content::Image got;
    got.width = kW;
    got.height = kH;
    got.rgba = testsupport::renderWorld({map, mesh, textures}, cam, kW, kH, options);
    golden::expectMatchesGolden("source_planar_water_fixture", got);
}

} // namespace
