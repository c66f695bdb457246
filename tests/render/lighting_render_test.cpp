// The per-game lighting rules of bsp::Map as the world renderer draws them (Mesa llvmpipe under
// xvfb-run): the missing-texture tile lit by the lightmap, faces without lightmap data in their
// vertex colour, the light style scale and the saturation limit. Expected pixels are computed
// by hand from the texel, the luxel and the rule.
#include "content/image.h"
#include "gl_fixture.h"
#include "render/render_target.h"
#include "render/world_renderer.h"
#include "scene/light_styles.h"
#include "scene/visibility.h"
#include "scene/world_mesh.h"
#include "support/map_builder.h"

#include <gtest/gtest.h>

#include <array>
#include <string>

namespace {

constexpr int kW = 320, kH = 180;
const glm::vec4 kClear{0.0f, 1.0f, 0.0f, 1.0f};

// Two 64-unit floor quads side by side at z = 0: face 0 (x 0..64) with a lightmap whose every
// luxel is `luxel`, face 1 (x 64..128) without lightmap data, its vertices coloured
// `unlit_colour` (what the parser gives such faces). Every vertex samples the texture at
// (0.3, 0.3) repeats, so each face shows one texel value: texel (19, 19) of a 64-texel tile.
bsp::Map twoFloors(uint8_t luxel, uint8_t unlit_colour) {
    bsp::Map m;
    testsupport::addMaterial(m, "floor");
    m.lightmap_width = 8;
    m.lightmap_height = 8;
    m.lightmap_pages.push_back({std::vector<uint8_t>(8 * 8 * 3, luxel)});
    for (int f = 0; f < 2; ++f) {
        bsp::Face face;
        face.material = 0;
        face.normal = {0, 0, 1};
        face.lightmap_page = f == 0 ? 0 : -1;
        face.lightmap_rect = {0, 0, 4, 4};
        const float x0 = 64.0f * static_cast<float>(f);
        // Clockwise seen from above: the front in Quake's winding.
        const std::array<glm::vec3, 4> corners = {
            {{x0, 0, 0}, {x0, 64, 0}, {x0 + 64, 64, 0}, {x0 + 64, 0, 0}}};
        std::array<bsp::Vertex, 4> v{};
        for (size_t k = 0; k < 4; ++k) {
            v[k].position = corners[k];
            v[k].normal = face.normal;
            v[k].uv = {0.3f, 0.3f};
            v[k].lm_uv = {0.25f, 0.25f};
            if (f == 1)
                v[k].colour = {unlit_colour, unlit_colour, unlit_colour, 255};
        }
        testsupport::addQuadVertices(m, v, face);
    }
    testsupport::addWorldLeaf(m, {0, 0, -8}, {128, 64, 8});
    return m;
}

content::Image greyImage(uint8_t v) {
    content::Image img;
    img.width = img.height = 8;
    img.rgba.assign(8 * 8 * 4, v);
    for (size_t i = 3; i < img.rgba.size(); i += 4)
        img.rgba[i] = 255;
    return img;
}

class LightingRender : public gltest::GlFixture {
protected:
    // Renders `map` with `texture` on its material, straight down onto x = 64, and returns the
    // red channel at the middle of face 0 (left) and face 1 (right).
    std::array<int, 2> render(const bsp::Map& map, const content::Image& texture, bool fog = true) {
        const scene::WorldMesh mesh = scene::buildWorldMesh(map);
        std::vector<content::TextureInfo> textures(1);
        textures[0].image = texture;
        render::WorldRenderer r;
        std::string error;
        EXPECT_TRUE(r.init(render::GlslLibrary(), &error)) << error;
        EXPECT_TRUE(r.upload({map, mesh, textures}, &error)) << error;
        render::RenderTarget target;
        EXPECT_TRUE(target.create(kW, kH, &error)) << error;
        scene::Camera cam;
        cam.position = {64, 32, 60};
        cam.pitch = 90.0f;
        cam.yaw = 90.0f; // screen right is +X
        cam.aspect = static_cast<float>(kW) / static_cast<float>(kH);
        cam.z_near = 1.0f;
        scene::Visibility vis(map, mesh);
        scene::DrawList list;
        vis.update(cam, {}, list);
        EXPECT_EQ(list.faces.size(), 2u);
        target.bind();
        render::RenderOptions ro;
        ro.clear_colour = kClear;
        ro.fog = fog;
        ro.style_values = scene::lightStyleValues(0.0); // style 0: 'm'
        r.draw(list, cam, ro);
        const auto img = target.readPixels();
        const uint8_t* left = gltest::pixelAt(img, kW, kW / 4, kH / 2);
        const uint8_t* right = gltest::pixelAt(img, kW, 3 * kW / 4, kH / 2);
        EXPECT_EQ(left[0], left[1]);
        EXPECT_EQ(right[0], right[2]);
        return {left[0], right[0]};
    }
};

} // namespace

// The missing-texture tile is a texture like any other: its grey texel (176) times the light.
TEST_F(LightingRender, MissingTextureIsLitByTheLightmap) {
    const content::Image tile = content::makeMissingTexture();
    ASSERT_EQ(tile.rgba[(19 * 64 + 19) * 4], content::kMissingFill);
    // Luxel 64 under the 2x overbright: 176 * (64 / 255 * 2) = 88.3 -> 88. The unlit face in
    // black stays black, in white it saturates (176 * 2 > 255).
    EXPECT_EQ(render(twoFloors(64, 0), tile), (std::array<int, 2>{88, 0}));
    EXPECT_EQ(render(twoFloors(64, 255), tile), (std::array<int, 2>{88, 255}));
}

// Quake 1 (QuakeSpasm): 'm' is 264 of 256. A texel of 100 under a luxel of 128:
// 100 * 128 / 255 * 2 * 264 / 256 = 103.5 -> 104, where 'm' = 1 gives 100.4 -> 100.
TEST_F(LightingRender, QuakeOneStyleScale) {
    bsp::Map map = twoFloors(128, 0);
    EXPECT_EQ(render(map, greyImage(100)), (std::array<int, 2>{100, 0}));
    map.light_style_scale = 264.0f / 256.0f;
    EXPECT_EQ(render(map, greyImage(100)), (std::array<int, 2>{104, 0}));
}

// Quake 1 saturates the summed lightmap at 255 before doubling: a luxel of 250 under 'm' is
// 250 * 264 / 256 = 257.8 -> 255, so 100 * 2 * 255 / 255 = 200. Without the limit:
// 100 * 250 / 255 * 2 * 1.03125 = 202.2 -> 202.
TEST_F(LightingRender, QuakeOneLightSaturatesBeforeTheOverbright) {
    bsp::Map map = twoFloors(250, 0);
    map.light_style_scale = 264.0f / 256.0f;
    EXPECT_EQ(render(map, greyImage(100))[0], 202);
    map.light_max = 2.0f;
    EXPECT_EQ(render(map, greyImage(100))[0], 200);
}

// Quake 1 worldspawn fog (QuakeSpasm, GL_EXP2): the camera is 60 units above the floor and
// looks straight down, so every floor point is 60 deep. A density of sqrt(ln 2) / 60 leaves
// exp(-(60 d)^2) = 1/2 of the surface: texel 100 under luxel 128 (100.4) becomes
// (100.4 + 0.8 * 255) / 2 = 152.2 -> 152, the black unlit face 0.4 * 255 = 102.
TEST_F(LightingRender, DistanceFogIsExp2ByDepth) {
    bsp::Map map = twoFloors(128, 0);
    map.distance_fog.colour = glm::vec3(0.8f);
    map.distance_fog.density = 0.83255461f / 60.0f;
    EXPECT_EQ(render(map, greyImage(100)), (std::array<int, 2>{152, 102}));
    EXPECT_EQ(render(map, greyImage(100), false), (std::array<int, 2>{100, 0})); // fog off
}
