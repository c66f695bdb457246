// The classes of defect real maps carry (issue 29), each in a map built here, opened the way the
// viewer opens a file and drawn: the exact warning, then a picture with the map in it and no GL
// error (the fixture checks). The Source class is Momentum's background_01 itself, which must
// draw with none of its textures missing. tests/unit/tolerance_test.cpp has the parser side.
#include "gl_fixture.h"
#include "physics/collision.h"
#include "render/render_target.h"
#include "render/world_renderer.h"
#include "render/world_upload.h"
#include "scene/load/map_bundle.h"
#include "scene/view/visibility.h"
#include "scene/world/light_styles.h"
#include "support/q1_builder.h"
#include "support/q3_builder.h"
#include "unit/content_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

using namespace content_test;

namespace {

class ToleranceRender : public gltest::GlFixture {
protected:
    // The map written as maps/NAME.bsp of a temporary game folder, opened as the viewer does.
    std::unique_ptr<scene::MapBundle> open(const std::vector<uint8_t>& bytes, const char* name) {
        const auto path = m_dir / ("maps/" + std::string(name));
        writeBytes(path, bytes);
        return openSpec(path.string());
    }
    static std::unique_ptr<scene::MapBundle> openSpec(const std::string& spec) {
        auto b = scene::loadMapBundle(spec, {});
        EXPECT_TRUE(b.ok()) << (b.ok() ? "" : b.error().message());
        return b.ok() ? std::move(*b) : nullptr;
    }

    static bool hasWarning(const scene::MapBundle& b, const std::string& text) {
        return std::find(b.warnings.begin(), b.warnings.end(), text) != b.warnings.end();
    }

    // A 64x64 picture of the bundle from `cam` (no PVS), in `view`.
    static std::vector<uint8_t> draw(const scene::MapBundle& b, const scene::Camera& cam,
                                     render::ViewMode view = render::ViewMode::Lit) {
        render::WorldRenderer renderer;
        std::string error;
        EXPECT_TRUE(renderer.init(render::GlslLibrary(), &error)) << error;
        EXPECT_TRUE(render::uploadBundle(renderer, b).ok());
        scene::Visibility vis(b.map, b.mesh);
        scene::DrawList list;
        scene::VisOptions vo;
        vo.pvs = false;
        vis.update(cam, vo, list);
        render::RenderTarget target;
        EXPECT_TRUE(target.create(64, 64, &error)) << error;
        target.bind();
        render::RenderOptions ro;
        ro.clear_colour = {0.0f, 1.0f, 0.0f, 1.0f};
        ro.view = view;
        ro.style_values = scene::lightStyleValues(0.0);
        renderer.draw(list, cam, ro);
        return target.readPixels();
    }

    // Share of the picture that is not the green clear colour: the map drawn.
    static double covered(const std::vector<uint8_t>& rgba) {
        size_t n = 0;
        for (size_t i = 0; i + 3 < rgba.size(); i += 4)
            n += !(rgba[i] == 0 && rgba[i + 1] == 255 && rgba[i + 2] == 0);
        return double(n) / double(rgba.size() / 4);
    }

    // Straight down on the point (or up at it from below, `height` < 0), seeing a square about
    // 2 * |height| * tan(fov / 2) across.
    static scene::Camera above(glm::vec3 at, float height, float fov) {
        scene::Camera cam;
        cam.position = at + glm::vec3(0.0f, 0.0f, height);
        cam.pitch = height > 0.0f ? 89.0f : -89.0f;
        cam.fov_x = fov;
        cam.aspect = 1.0f;
        return cam;
    }

    TempDir m_dir;
};

} // namespace

// OpenArena's aggressor: fog 0 named in a map without fogs.
TEST_F(ToleranceRender, Quake3FogIndexWithoutFogsDraws) {
    q3test::Q3Builder b = q3test::Q3Builder::tiny();
    b.fogs.clear(); // face 1 still names effect 0
    auto bundle = open(b.build(), "nofog.bsp");
    ASSERT_TRUE(bundle);
    EXPECT_TRUE(hasWarning(
        *bundle, "nofog.bsp: faces[1].effect: effect 0 beyond 0 effects; drawn without fog"))
        << bundle->warnings.size();
    EXPECT_GT(covered(draw(*bundle, above({32, 32, 0}, 60.0f, 30.0f))), 0.9);
}

// A Counter-Strike map's last brush model: clip heads at the clipnode count. The map draws, and
// walk mode's player box passes through that model while the model before it blocks.
TEST_F(ToleranceRender, HalfLifeEmptyClipHullDrawsAndIsNotSolidToThePlayer) {
    q1test::Q1Options o;
    o.half_life = true;
    o.entities = "{\n\"classname\" \"worldspawn\"\n}\n"
                 "{\n\"classname\" \"func_wall\"\n\"model\" \"*1\"\n}\n"
                 "{\n\"classname\" \"func_wall\"\n\"model\" \"*2\"\n}\n";
    o.clipnodes = {{{0, -1, -2}}};                   // z = 0: empty above, solid below
    o.model_clip_heads = {{{0, 0, 0}}, {{1, 1, 1}}}; // model 2's heads: the count
    auto bundle = open(q1test::buildQ1(o), "cs_empty.bsp");
    ASSERT_TRUE(bundle);
    EXPECT_TRUE(hasWarning(*bundle, "cs_empty.bsp: models[2].headnode: hull 1 head 1 beyond 1 "
                                    "clipnodes; empty hulls: walk mode's player passes through "
                                    "the model"));
    // buildQ1's quads face down (their front is -z): looked at from below.
    EXPECT_GT(covered(draw(*bundle, above({64, 32, 0}, -40.0f, 90.0f))), 0.5);

    const physics::CollisionWorld world(bundle->map);
    const glm::vec3 mins(-16, -16, -36), maxs(16, 16, 36); // Half-Life's standing player
    const physics::TraceResult blocked =
        world.traceModel(1, {32, 32, 100}, {32, 32, -100}, mins, maxs);
    EXPECT_TRUE(blocked.hit());
    EXPECT_NEAR(blocked.end_pos.z, 0.0f, 0.1f); // the hull's own plane (no compiler growth here)
    const physics::TraceResult through =
        world.traceModel(2, {32, 32, 100}, {32, 32, -100}, mins, maxs);
    EXPECT_FALSE(through.hit());
}

// The last face's lightmap runs past the lighting lump: what is there is drawn, the rest black.
TEST_F(ToleranceRender, HalfLifeLightmapPastTheLumpDrawsHalfLitHalfBlack) {
    q1test::Q1Options o;
    o.half_life = true;
    o.clipnodes = {{{0, -1, -2}}};
    o.luxel = 255;
    o.face1_lightofs = 40; // 10 of its 25 luxels in the lump
    auto bundle = open(q1test::buildQ1(o), "hl_light.bsp");
    ASSERT_TRUE(bundle);
    EXPECT_TRUE(hasWarning(*bundle, "hl_light.bsp: faces[1].lightofs: lightmap at 120 (1 styles "
                                    "of 75 bytes) beyond 150 bytes of lighting; read to the "
                                    "lump's end, the rest black"));
    // Face 1 (x 64..128) from below (its front), its lightmap alone: lit luxels and black ones.
    const std::vector<uint8_t> img =
        draw(*bundle, above({96, 32, 0}, -32.0f, 90.0f), render::ViewMode::Lightmap);
    EXPECT_GT(covered(img), 0.9);
    size_t black = 0, lit = 0;
    for (size_t i = 0; i + 3 < img.size(); i += 4) {
        const int v = std::max({img[i], img[i + 1], img[i + 2]});
        black += v < 16;
        lit += v > 128 && img[i + 1] != 255;
    }
    // Two of the five luxel rows lit, the filtering blurring their edge into the black ones
    // (tests/unit/tolerance_test.cpp checks the luxels themselves).
    EXPECT_GT(black, 64u * 64u / 4);
    EXPECT_GT(lit, 64u * 64u / 20);
}

// Momentum's background_01: "momentum/World 1//White1" in its VMTs, read as the engine reads it.
TEST_F(ToleranceRender, SourceDoubleSlashMaterialsDrawWithNoneMissing) {
    auto bundle = openSpec(std::string(BSPV_SHARED_MAPS_DIR) +
                           "/source/mom_background_01/maps/background_01.bsp");
    ASSERT_TRUE(bundle);
    EXPECT_TRUE(bundle->missing_textures.empty()) << bundle->missing_textures.front().name << " ("
                                                  << bundle->missing_textures.size() << " names)";
    ASSERT_FALSE(bundle->spawns.empty());
    const bsp::SpawnPoint& s = bundle->spawns[0];
    scene::Camera cam;
    cam.position = s.origin + glm::vec3(0.0f, 0.0f, bundle->profile.view.eye_height);
    cam.yaw = s.yaw;
    cam.fov_x = 90.0f;
    cam.aspect = 1.0f;
    EXPECT_GT(covered(draw(*bundle, cam)), 0.5);
}
