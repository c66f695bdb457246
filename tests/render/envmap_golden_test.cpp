// The cube-map room (support/envmap_fixture.h) against its golden image, as golden_test.cpp
// compares real maps (golden_check.h: same tolerance, BSPV_UPDATE_GOLDEN=1): seen from high in
// one corner, looking down at the far one, the floor and two walls reflect a cube whose faces
// are each a colour with a white quarter in the face's first texel rows and columns (so a face
// turned or mirrored shows), tinted half; the wall on the right is masked by vertical stripes,
// the floor by its base alpha (a ramp: no reflection where the alpha is 255). And a pool of
// cheap water with a rippled $normalmap reflecting the same cube.
#include "content/image/image.h"
#include "gl_fixture.h"
#include "golden_check.h"
#include "render/render_target.h"
#include "render/world_renderer.h"
#include "render_world.h"
#include "scene/world/material_table.h"
#include "scene/world/world_mesh.h"
#include "support/envmap_fixture.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>
#include <vector>

namespace {

constexpr int kW = 320, kH = 180;

class EnvMapGolden : public gltest::GlFixture {};

// Face k: its colour, with the 8 x 8 face's top-left 4 x 4 texels white.
content::Image markedFace(size_t k) {
    const auto& c = testsupport::kEnvMapFaceColours[k];
    content::Image img;
    img.width = img.height = 8;
    for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 8; ++x) {
            const bool mark = x < 4 && y < 4;
            img.rgba.insert(img.rgba.end(), {mark ? uint8_t(255) : c[0], mark ? uint8_t(255) : c[1],
                                             mark ? uint8_t(255) : c[2], 255});
        }
    return img;
}

// `source` seen from `position`, 20 degrees down at `yaw`, against golden image `name`.
void expectViewMatches(const render::WorldSource& source, glm::vec3 position, float yaw,
                       const char* name) {
    scene::Camera cam;
    cam.position = position;
    cam.yaw = yaw;
    cam.pitch = 20.0f;
    cam.aspect = static_cast<float>(kW) / static_cast<float>(kH);
    cam.z_near = 1.0f;
    content::Image got;
    got.width = kW;
    got.height = kH;
    got.rgba = testsupport::renderWorld(source, cam, kW, kH);
    golden::expectMatchesGolden(name, got);
}

} // namespace

TEST_F(EnvMapGolden, SourceEnvMapFixtureMatchesItsGoldenImage) {
    content::EnvMapShading half;
    half.tint = {0.5f, 0.5f, 0.5f};
    content::EnvMapShading striped = half;
    striped.mask = content::EnvMapMask::Texture;
    content::EnvMapShading ramp = half;
    ramp.mask = content::EnvMapMask::BaseAlpha;
    std::vector<content::TextureInfo> textures = {testsupport::envMapMaterial(70, half),
                                                  testsupport::envMapMaterial(70, striped),
                                                  testsupport::envMapMaterial(70, ramp)};
    for (content::TextureInfo& t : textures)
        for (size_t k = 0; k < 6; ++k)
            t.envmap[k] = markedFace(k);
    content::Image stripes;
    stripes.width = stripes.height = 8;
    for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 8; ++x) {
            const uint8_t v = y % 2 ? 255 : 0;
            stripes.rgba.insert(stripes.rgba.end(), {v, v, v, 255});
        }
    textures[1].envmap_mask = stripes;
    content::Image& alpha = textures[2].image;
    alpha.width = alpha.height = 8;
    alpha.rgba.clear();
    for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 8; ++x)
            alpha.rgba.insert(alpha.rgba.end(), {70, 70, 70, static_cast<uint8_t>(x * 36)});
    // Walls +X, -X, +Y, -Y, floor, ceiling.
    const bsp::Map map = testsupport::envMapRoom({0, 1, 0, 0, 2, 0});
    const scene::WorldMesh mesh =
        scene::buildWorldMesh(map, scene::resolveMaterials(map, nullptr, textures));
    render::WorldSource source{map, mesh, textures};
    source.rules.light.lightmap_scale = 1.0f;
    expectViewMatches(source, {-56, -56, 40}, 45.0f, "source_envmap_fixture");
}

// Opaque cheap water ($forcecheap: mix($fogcolor, cube * $reflecttint, F)) 256 units square at
// z = 0 over a red floor, its texture's u along +x and v along +y (one repeat per 32 units), seen
// from 40 units up looking along +y: a 16 x 16 normal map of ripples, sin along u on red and
// along v on green (amplitude 0.35 before normalising), bends the fresnel factor and the
// reflected view, which far off shows the +Y face (blue) and nearer the +Z face (cyan) with
// their white marks.
TEST_F(EnvMapGolden, SourceWaterNormalMapAndCubeMatchesItsGoldenImage) {
    constexpr float kHalfSide = 128.0f;
    bsp::Map map;
    testsupport::addMaterial(map, "floor");
    testsupport::addMaterial(map, "water", bsp::kSurfLiquid);
    for (int32_t material = 0; material < 2; ++material) {
        bsp::Face face;
        face.material = material;
        face.normal = {0, 0, 1};
        face.lightmap_page = -1;
        const float z = material == 0 ? -32.0f : 0.0f;
        const std::array<glm::vec3, 4> corners = {{{-kHalfSide, -kHalfSide, z},
                                                   {-kHalfSide, kHalfSide, z},
                                                   {kHalfSide, kHalfSide, z},
                                                   {kHalfSide, -kHalfSide, z}}};
        std::array<bsp::Vertex, 4> v{};
        for (size_t k = 0; k < 4; ++k) {
            v[k].position = corners[k];
            v[k].normal = face.normal;
            v[k].uv = glm::vec2(corners[k].x, corners[k].y) / 32.0f;
        }
        testsupport::addQuadVertices(map, v, face);
    }
    testsupport::addWorldLeaf(map, {-kHalfSide, -kHalfSide, -40}, {kHalfSide, kHalfSide, 256});

    std::vector<content::TextureInfo> textures(2);
    textures[0].image = testsupport::solidImage(4, 200, 40, 40);
    textures[0].fullbright_light = 1.0f;
    textures[0].missing = false;
    content::TextureInfo& water = textures[1];
    water.image = testsupport::solidImage(4, 20, 60, 80);
    water.surface_flags = bsp::kSurfFullbright;
    water.fullbright_light = 1.0f;
    water.missing = false;
    water.water.enabled = true;
    water.water.blended = false;
    water.water.base_colour = {0.08f, 0.24f, 0.31f};
    water.water.reflect_tint = {1.0f, 1.0f, 1.0f};
    water.bump = testsupport::rippledNormalMap();
    for (size_t k = 0; k < 6; ++k)
        water.envmap[k] = markedFace(k);
    water.envmap_source = "materials/maps/pool/c0_0_0.vtf";
    water.envmap_shading.enabled = true;

    const scene::WorldMesh mesh =
        scene::buildWorldMesh(map, scene::resolveMaterials(map, nullptr, textures));
    render::WorldSource source{map, mesh, textures};
    expectViewMatches(source, {0, -120, 40}, 90.0f, "source_water_normalmap_fixture");
}
