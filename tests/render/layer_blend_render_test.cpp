// A material's second layer (content::TextureInfo::layer2, Source WorldVertexTransition's
// $basetexture2) blended over its image by the vertex colour's alpha: 0 draws the image, 255
// the second layer, and what lies between mixes them linearly; a material without a second
// layer ignores the alpha (Mesa llvmpipe under xvfb-run).
#include "content/image/image.h"
#include "gl_fixture.h"
#include "render/render_target.h"
#include "render/world_renderer.h"
#include "render_world.h"
#include "scene/view/visibility.h"
#include "scene/world/light_styles.h"
#include "scene/world/world_mesh.h"
#include "support/map_builder.h"

#include <glm/mat4x4.hpp>
#include <glm/matrix.hpp>
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>

namespace {

constexpr int kW = 320, kH = 180;

// A 64-unit floor at z = 0 in three strips along x: [0, 16] of weight 0, [16, 48] rising from 0
// to 255, [48, 64] of weight 255, under a full-white lightmap drawn at 1x, so a pixel is its
// texel.
bsp::Map blendFloor() {
    bsp::Map m;
    testsupport::addMaterial(m, "blend");
    m.lightmap_width = 8;
    m.lightmap_height = 8;
    m.lightmap_pages.push_back({std::vector<uint8_t>(8 * 8 * 3, 255)});
    const std::array<float, 4> xs = {0.0f, 16.0f, 48.0f, 64.0f};
    const std::array<uint8_t, 4> weights = {0, 0, 255, 255};
    for (size_t s = 0; s < 3; ++s) {
        bsp::Face face;
        face.material = 0;
        face.normal = {0, 0, 1};
        face.lightmap_page = 0;
        face.lightmap_rect = {0, 0, 4, 4};
        const std::array<size_t, 4> column = {s, s, s + 1, s + 1};
        const std::array<float, 4> ys = {0.0f, 64.0f, 64.0f, 0.0f};
        std::array<bsp::Vertex, 4> v{};
        for (size_t k = 0; k < 4; ++k) {
            v[k].position = {xs[column[k]], ys[k], 0.0f};
            v[k].normal = face.normal;
            v[k].uv = {v[k].position.x / 64.0f, v[k].position.y / 64.0f};
            v[k].lm_uv = {0.25f, 0.25f};
            v[k].colour = {255, 255, 255, weights[column[k]]};
        }
        testsupport::addQuadVertices(m, v, face);
    }
    testsupport::addWorldLeaf(m, {0, 0, -8}, {64, 64, 8});
    return m;
}

content::Image solid(uint8_t r, uint8_t g, uint8_t b) {
    content::Image img;
    img.width = img.height = 4;
    for (int i = 0; i < 16; ++i)
        img.rgba.insert(img.rgba.end(), {r, g, b, 255});
    return img;
}

scene::Camera topDown() {
    scene::Camera cam;
    cam.position = {32, 32, 64}; // the whole floor in view
    cam.pitch = 90.0f;
    cam.yaw = 90.0f;
    cam.aspect = static_cast<float>(kW) / static_cast<float>(kH);
    cam.z_near = 1.0f;
    return cam;
}

struct Pixel {
    int column = 0, row = 0; // row 0 at the top (RenderTarget::readPixels)
};

// The pixel whose area holds the floor point (x, y, 0).
Pixel pixelAt(const scene::Camera& cam, float x, float y) {
    const glm::vec4 clip = cam.viewProjection() * glm::vec4(x, y, 0.0f, 1.0f);
    const float nx = clip.x / clip.w, ny = clip.y / clip.w;
    const int column = static_cast<int>(std::floor((nx * 0.5f + 0.5f) * kW));
    const int from_bottom = static_cast<int>(std::floor((ny * 0.5f + 0.5f) * kH));
    return {column, kH - 1 - from_bottom};
}

// The floor's x under the centre of a pixel (the view ray met with z = 0).
float floorXAt(const scene::Camera& cam, Pixel p) {
    const glm::mat4 inv = glm::inverse(cam.viewProjection());
    const float nx = (static_cast<float>(p.column) + 0.5f) / kW * 2.0f - 1.0f;
    const float ny = (static_cast<float>(kH - 1 - p.row) + 0.5f) / kH * 2.0f - 1.0f;
    glm::vec4 a = inv * glm::vec4(nx, ny, -1.0f, 1.0f), b = inv * glm::vec4(nx, ny, 1.0f, 1.0f);
    a /= a.w;
    b /= b.w;
    const float t = a.z / (a.z - b.z);
    return a.x + t * (b.x - a.x);
}

class LayerBlend : public gltest::GlFixture {
protected:
    std::vector<uint8_t> render(const std::vector<content::TextureInfo>& textures) {
        const bsp::Map map = blendFloor();
        const scene::WorldMesh mesh = scene::buildWorldMesh(map);
        render::WorldSource source{map, mesh, textures};
        source.rules.light.lightmap_scale = 1.0f; // the lightmap at 1x
        return testsupport::renderWorld(source, topDown(), kW, kH);
    }
};

std::array<int, 3> rgbAt(const std::vector<uint8_t>& pixels, Pixel p) {
    const size_t i = (static_cast<size_t>(p.row) * kW + static_cast<size_t>(p.column)) * 4;
    return {pixels[i], pixels[i + 1], pixels[i + 2]};
}

} // namespace

TEST_F(LayerBlend, VertexAlphaMixesTheSecondLayerOverTheFirst) {
    std::vector<content::TextureInfo> textures(1);
    textures[0].image = solid(255, 0, 0);
    textures[0].layer2 = solid(0, 0, 255);
    textures[0].missing = false;
    const std::vector<uint8_t> pixels = render(textures);
    const scene::Camera cam = topDown();
    // Weight 0: the first layer alone; weight 255: the second alone.
    EXPECT_EQ(rgbAt(pixels, pixelAt(cam, 8, 32)), (std::array<int, 3>{255, 0, 0}));
    EXPECT_EQ(rgbAt(pixels, pixelAt(cam, 56, 32)), (std::array<int, 3>{0, 0, 255}));
    // Halfway up the ramp: the weight at the pixel's centre is (x - 16) / 32 and the colour
    // mixes red and blue by it (one step of rounding either way).
    for (const float x : {24.0f, 32.0f, 40.0f}) {
        const Pixel p = pixelAt(cam, x, 32);
        const float w = (floorXAt(cam, p) - 16.0f) / 32.0f;
        ASSERT_GT(w, 0.1f);
        ASSERT_LT(w, 0.9f);
        const std::array<int, 3> c = rgbAt(pixels, p);
        EXPECT_NEAR(c[0], 255.0f * (1.0f - w), 1.0f) << "x " << x;
        EXPECT_EQ(c[1], 0) << "x " << x;
        EXPECT_NEAR(c[2], 255.0f * w, 1.0f) << "x " << x;
    }
}

TEST_F(LayerBlend, WithoutASecondLayerTheVertexAlphaIsIgnored) {
    std::vector<content::TextureInfo> textures(1);
    textures[0].image = solid(255, 0, 0);
    textures[0].missing = false;
    const std::vector<uint8_t> pixels = render(textures);
    const scene::Camera cam = topDown();
    for (const float x : {8.0f, 32.0f, 56.0f})
        EXPECT_EQ(rgbAt(pixels, pixelAt(cam, x, 32)), (std::array<int, 3>{255, 0, 0})) << x;
}
