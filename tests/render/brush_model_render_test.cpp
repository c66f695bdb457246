// Quake 1 item boxes drawn as brush models (issue #16; scene/load/brush_model.h,
// render/brush_model_renderer.h), on Mesa llvmpipe under xvfb-run. The box is a BSP file of its
// own, maps/b_bh25.bsp under a --base folder: buildQ1's two 64-unit quads (x 0..128, y 0..64,
// z 0, facing down), texture index 7, every luxel 80. The map is the same two quads with every
// luxel 200 and an item_health at (256, 0, 0). A camera 60 units under the box's second quad,
// looking up, sees only the box; its pixel is the box's texel under the box's own luxel by
// Quake 1's rule, not the map's light.
#include "content/image/palette.h"
#include "gl_fixture.h"
#include "render/brush_model_renderer.h"
#include "render/render_target.h"
#include "render/world_renderer.h"
#include "render/world_upload.h"
#include "scene/load/brush_model.h"
#include "scene/load/map_bundle.h"
#include "scene/view/visibility.h"
#include "scene/world/light_styles.h"
#include "support/q1_builder.h"
#include "unit/content_test_util.h"

#include <gtest/gtest.h>

#include <array>
#include <memory>
#include <string>

using namespace content_test;

namespace {

constexpr int kSize = 32;

class BrushModelRender : public gltest::GlFixture {
protected:
    // Writes the map and, unless `box` is empty, the box; loads the map with the base folder.
    // `keys`: more keys of the item_health.
    std::unique_ptr<scene::MapBundle> load(const Bytes& box, const std::string& keys = {},
                                           bool map_lit = true) {
        q1test::Q1Options map;
        map.luxel = 200;
        map.lighting = map_lit;
        map.entities = "{\n\"classname\" \"worldspawn\"\n}\n"
                       "{\n\"classname\" \"item_health\"\n\"origin\" \"256 0 0\"\n" +
                       keys + "}\n";
        writeBytes(m_dir / "world.bsp", q1test::buildQ1(map));
        if (!box.empty())
            writeBytes(m_dir / "base/maps/b_bh25.bsp", box);
        scene::LoadSettings settings;
        settings.base_dirs = {m_dir / "base"};
        auto loaded = scene::loadMapBundle((m_dir / "world.bsp").string(), settings);
        EXPECT_TRUE(loaded) << loaded.error().message();
        return loaded ? std::move(*loaded) : nullptr;
    }

    // The centre pixel seen from 60 units under (x, y, 0), looking straight up, and the
    // frame's draw list.
    std::array<int, 3> centre(const scene::MapBundle& bundle, bool models,
                              scene::DrawList* list_out = nullptr, float x = 320.0f,
                              float y = 32.0f) {
        render::WorldRenderer renderer;
        std::string error;
        EXPECT_TRUE(renderer.init(render::GlslLibrary(), &error)) << error;
        EXPECT_TRUE(render::uploadBundle(renderer, bundle));
        scene::Camera cam;
        cam.position = {x, y, -60.0f};
        cam.pitch = -89.0f;
        cam.fov_x = 30.0f;
        cam.aspect = 1.0f;
        scene::Visibility vis(bundle.map, bundle.mesh, &bundle.models.instances);
        scene::DrawList list;
        scene::VisOptions vo;
        vo.models = models;
        vis.update(cam, vo, list);
        render::RenderTarget target;
        EXPECT_TRUE(target.create(kSize, kSize, &error)) << error;
        target.bind();
        render::RenderOptions ro;
        ro.clear_colour = {0.0f, 1.0f, 0.0f, 1.0f};
        ro.style_values = scene::lightStyleValues(0.0);
        renderer.draw(list, cam, ro);
        const std::vector<uint8_t> rgba = target.readPixels();
        const uint8_t* p = gltest::pixelAt(rgba, kSize, kSize / 2, kSize / 2);
        if (list_out)
            *list_out = list;
        return {p[0], p[1], p[2]};
    }

    TempDir m_dir;
};

Bytes box() {
    q1test::Q1Options o;
    o.luxel = 80;
    return q1test::buildQ1(o);
}

} // namespace

// Quake palette index 7 is grey 107. Under the box's luxel of 80 and Quake 1's rule (the 2x
// overbright, style 'm' at 264 / 256: QuakeSpasm's d_lightstylevalue 264 over the lightmap's
// 256 = 1.0): 107 * 80 / 255 * 2 * 264 / 256 = 69.2 -> 69. The map's own light under the box
// (luxel 200) would give 173.
TEST_F(BrushModelRender, ItemBoxIsItsTexelUnderItsOwnLuxel) {
    ASSERT_EQ(content::defaultQuakePalette().rgb[7 * 3], 107);
    auto bundle = load(box());
    ASSERT_TRUE(bundle);
    const scene::EntityModelSet& set = bundle->models;
    EXPECT_EQ(set.wanted, 1u);
    EXPECT_TRUE(set.missing.empty());
    ASSERT_EQ(set.instances.size(), 1u);
    const scene::LoadedModel& model = set.models[set.instances[0].model];
    EXPECT_EQ(model.path, "maps/b_bh25.bsp");
    ASSERT_TRUE(model.brush);
    EXPECT_EQ(model.brush->faces.faces.size(), 2u); // both quads of its model 0
    EXPECT_EQ(set.instances[0].origin, glm::vec3(256.0f, 0.0f, 0.0f));

    scene::DrawList list;
    EXPECT_EQ(centre(*bundle, true, &list), (std::array<int, 3>{69, 69, 69}));
    EXPECT_EQ(list.stats.models_total, 1u);
    EXPECT_EQ(list.stats.models_drawn, 1u);
    // --no-models: nothing there but the clear colour.
    EXPECT_EQ(centre(*bundle, false, &list), (std::array<int, 3>{0, 255, 0}));
    EXPECT_EQ(list.stats.models_drawn, 0u);
}

// A truncated box is listed with the parser's error naming the file, and nothing is drawn in
// its place (the entities overlay keeps the entity's box); a missing one is listed as not found.
TEST_F(BrushModelRender, TruncatedOrMissingBoxIsListed) {
    Bytes cut = box();
    cut.resize(cut.size() / 2);
    auto bundle = load(cut);
    ASSERT_TRUE(bundle);
    EXPECT_TRUE(bundle->models.instances.empty());
    ASSERT_EQ(bundle->models.missing.size(), 1u);
    const std::string& why = bundle->models.missing[0];
    // Cut at 512 of its 1024 bytes: the texture lump (at 194, 388 bytes) runs past the end.
    ASSERT_EQ(cut.size(), 512u);
    EXPECT_EQ(why, "item_health: maps/b_bh25.bsp (maps/b_bh25.bsp: textures: lump 194+388 beyond "
                   "file size 512)");
    EXPECT_EQ(centre(*bundle, true), (std::array<int, 3>{0, 255, 0}));

    std::filesystem::remove(m_dir / "base/maps/b_bh25.bsp");
    bundle = load({});
    ASSERT_TRUE(bundle);
    ASSERT_EQ(bundle->models.missing.size(), 1u);
    EXPECT_EQ(bundle->models.missing[0], "item_health: maps/b_bh25.bsp (not found)");
}

// The entity's "angle" turns the box about its origin: at 90 degrees its quads (x 0..128,
// y 0..64 in the file) cover x 192..256, y 0..128 of the map. Under (224, 96) the box shows;
// unturned, that point is open (the box would be at x 256..384).
TEST_F(BrushModelRender, AngleTurnsTheBoxAboutTheOrigin) {
    auto turned = load(box(), "\"angle\" \"90\"\n");
    ASSERT_TRUE(turned);
    EXPECT_EQ(centre(*turned, true, nullptr, 224.0f, 96.0f), (std::array<int, 3>{69, 69, 69}));
    auto straight = load(box());
    ASSERT_TRUE(straight);
    EXPECT_EQ(centre(*straight, true, nullptr, 224.0f, 96.0f), (std::array<int, 3>{0, 255, 0}));
}

// QuakeSpasm's R_DrawBrushModel negates the pitch before R_RotateForEntity, which turns by
// -pitch about y: a brush model turns by +pitch about y (glRotatef's right hand), so pitch 90
// takes its +x to -z. Yaw 90 takes +x to +y.
TEST(BrushModelPlacement, PitchIsNotNegatedAsForAliasModels) {
    const glm::vec4 x(1.0f, 0.0f, 0.0f, 0.0f);
    const glm::vec4 pitched = render::brushModelPlacement({}, {90.0f, 0.0f, 0.0f}) * x;
    EXPECT_NEAR(pitched.x, 0.0f, 1e-6f);
    EXPECT_NEAR(pitched.z, -1.0f, 1e-6f);
    const glm::vec4 turned = render::brushModelPlacement({5, 6, 7}, {0.0f, 90.0f, 0.0f}) *
                             glm::vec4(1.0f, 0.0f, 0.0f, 1.0f);
    EXPECT_NEAR(turned.x, 5.0f, 1e-5f);
    EXPECT_NEAR(turned.y, 7.0f, 1e-5f);
    EXPECT_NEAR(turned.z, 7.0f, 1e-5f);
}

// The world's light data decides, not the box's (QuakeSpasm R_BuildLightMap tests
// cl.worldmodel->lightdata): a box compiled without light in this lit map is black, where the
// box file alone would be full bright.
TEST_F(BrushModelRender, UnlitBoxInALitMapIsBlack) {
    q1test::Q1Options o;
    o.lighting = false;
    auto bundle = load(q1test::buildQ1(o));
    ASSERT_TRUE(bundle);
    ASSERT_EQ(bundle->models.instances.size(), 1u);
    EXPECT_EQ(centre(*bundle, true), (std::array<int, 3>{0, 0, 0}));
}

// And in a map without light data every face of a lit box is full bright, its luxels of 80
// unused, as the map's own floor is: QuakeSpasm fills blocklights with 255 * 256, which the 2x
// overbright doubles, so texel 107 shows as 214 (69 under the box's own luxels).
TEST_F(BrushModelRender, LitBoxInAnUnlitMapIsFullBright) {
    auto bundle = load(box(), {}, false);
    ASSERT_TRUE(bundle);
    ASSERT_EQ(bundle->models.instances.size(), 1u);
    const std::array<int, 3> floor = centre(*bundle, true, nullptr, 96.0f, 32.0f);
    EXPECT_EQ(floor, (std::array<int, 3>{214, 214, 214}));
    EXPECT_EQ(centre(*bundle, true), floor);
}
