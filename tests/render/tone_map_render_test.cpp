// The tone map of an HDR-lit Source map (game::ToneMapRule, render/tone_map.h) as the world
// renderer draws it (Mesa llvmpipe under xvfb-run): the frame's display-space colour times
// scale^(1/2.2) before the clamp, in the lit and lightmap views only, and nothing at all where
// the rule is off (LDR-lit maps). Expected pixels are worked out here from the luxel, the texel
// and the scale.
#include "bsp/vbsp.h"
#include "content/image/image.h"
#include "gl_fixture.h"
#include "real_map.h"
#include "render/exposure_meter.h"
#include "render/tone_map.h"
#include "render_world.h"
#include "scene/world/world_mesh.h"
#include "support/map_builder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace {

constexpr int kW = 160, kH = 90;
constexpr uint8_t kTexel = 200;

content::Image grey(uint8_t v) {
    content::Image img;
    img.width = img.height = 4;
    for (int i = 0; i < 16; ++i)
        img.rgba.insert(img.rgba.end(), {v, v, v, 255});
    return img;
}

// The HDR luxel ColorRGBExp32 (128, 128, 128, -3): 128 * 2^-3 / 255 = 0.0627 linear, the
// brightest face sample of momentum_mp_lobby (docs/source.md). The lightmap byte the parser
// stores for it, worked out from the engine's table: (linear in 1/1024 steps)^(1/2.2) * 255 / 2,
// rounded down.
uint8_t luxelByte() {
    const double linear = 128.0 * std::ldexp(1.0, -3) / 255.0;
    const double quantised = std::round(linear * 1024.0) / 1024.0;
    return static_cast<uint8_t>(std::floor(std::pow(quantised, 1.0 / 2.2) * 255.0 * 0.5));
}

// The pixel at the floor's middle: the texel times the doubled luxel (the overbright factor of
// 2, game/source.cpp), times the tone map factor, clamped.
double expectedPixel(uint8_t luxel, float factor) {
    return std::min(255.0, kTexel / 255.0 * (2.0 * luxel / 255.0) * factor * 255.0);
}

scene::Camera overFloor() {
    scene::Camera cam;
    cam.position = {32, 32, 60};
    cam.pitch = 90.0f;
    cam.aspect = static_cast<float>(kW) / kH;
    return cam;
}

class ToneMapRender : public gltest::GlFixture {
protected:
    // The floor of `luxel`, under the Source lighting rule with tone map `tm`, drawn in `view`:
    // the red channel at the middle of the frame.
    int centre(uint8_t luxel, const game::ToneMapRule& tm,
               render::ViewMode view = render::ViewMode::Lit) {
        const bsp::Map map = testsupport::litFloorMap(luxel, glm::vec2(0.3f, 0.3f));
        const scene::WorldMesh mesh = scene::buildWorldMesh(map);
        std::vector<content::TextureInfo> textures(1);
        textures[0].image = grey(kTexel);
        textures[0].missing = false;
        render::WorldSource source{map, mesh, textures};
        source.rules.light.lightmap_scale = 2.0f;
        source.rules.light.unlit_faces = game::UnlitFaces::Fullbright;
        source.rules.tonemap = tm;
        render::RenderOptions ro = testsupport::testRenderOptions();
        ro.view = view;
        const std::vector<uint8_t> px = testsupport::renderWorld(source, overFloor(), kW, kH, ro);
        return px[(static_cast<size_t>(kH / 2) * kW + kW / 2) * 4];
    }
};

game::ToneMapRule hdr(float scale) {
    game::ToneMapRule tm;
    tm.enabled = true;
    tm.source = game::ToneMapSource::Defaults;
    tm.scale = scale;
    return tm;
}

} // namespace

TEST_F(ToneMapRender, TheLuxelByteIsTheParsersOwn) {
    EXPECT_EQ(luxelByte(), bsp::sourceLightmapByte(128, -3));
    EXPECT_EQ(luxelByte(), 36);
}

TEST_F(ToneMapRender, FixedScaleMultipliesTheLinearLight) {
    const uint8_t luxel = luxelByte();
    // Scale 1 is the picture without a tone map: 200/255 * 72/255 * 255 = 56.5.
    EXPECT_NEAR(centre(luxel, hdr(1.0f)), expectedPixel(luxel, 1.0f), 1.0);
    EXPECT_EQ(centre(luxel, hdr(1.0f)), centre(luxel, game::ToneMapRule{}));
    for (const float s : {2.0f, 0.5f, 4.0f}) {
        const float factor = std::pow(s, 1.0f / 2.2f); // 2: 1.370, 0.5: 0.730, 4: 1.878
        EXPECT_NEAR(centre(luxel, hdr(s)), expectedPixel(luxel, factor), 1.0) << "scale " << s;
    }
    // Scale 16: 56.5 * 16^(1/2.2) = 200.4; a brighter luxel clamps at white.
    EXPECT_NEAR(centre(luxel, hdr(16.0f)), expectedPixel(luxel, std::pow(16.0f, 1 / 2.2f)), 1.0);
    EXPECT_EQ(centre(200, hdr(16.0f)), 255);
    // Scale 0: the engine's eyes fully closed.
    EXPECT_EQ(centre(luxel, hdr(0.0f)), 0);
}

TEST_F(ToneMapRender, OnlyTheViewsThatShowLight) {
    const uint8_t luxel = 100;
    // Lightmap view: the doubled luxel alone, scaled: 200/255 * 2^(1/2.2) * 255 = 274 -> 255;
    // at 0.5: 200 * 0.730 = 146.0.
    EXPECT_NEAR(centre(luxel, hdr(0.5f), render::ViewMode::Lightmap),
                2.0 * luxel * std::pow(0.5, 1 / 2.2), 1.0);
    // Fullbright view (mat_fullbright 1: the client forces scale 1): the texel as it is.
    EXPECT_EQ(centre(luxel, hdr(0.5f), render::ViewMode::Fullbright), kTexel);
    EXPECT_EQ(centre(luxel, hdr(2.0f), render::ViewMode::Fullbright), kTexel);
}

TEST_F(ToneMapRender, RuleOffChangesNothing) {
    // An LDR-lit map's rule is off: any scale in it leaves the pixel as drawn without one.
    game::ToneMapRule off = hdr(2.0f);
    off.enabled = false;
    const int plain = centre(100, game::ToneMapRule{});
    EXPECT_EQ(centre(100, off), plain);
    EXPECT_NEAR(plain, expectedPixel(100, 1.0f), 1.0);
}

// Real maps: tf2_mp_lobby holds both sets and draws its LDR lightmaps (the rule off), so its
// frame is byte for byte the same whatever scale the rule holds; drawn with --hdr's set (the
// same bytes, docs/source.md), the default scale 1 leaves it as well.
TEST_F(ToneMapRender, LdrMapFrameUnchanged) {
    gltest::RealMap m;
    ASSERT_NO_FATAL_FAILURE(gltest::loadRealMap(
        std::string(BSPV_SHARED_MAPS_DIR) + "/source/tf2_mp_lobby.bsp", kW * 2, kH * 2, m));
    const game::ToneMapRule& rule = m.bundle->profile.rules.tonemap;
    ASSERT_EQ(m.bundle->map.lighting_variant, "LDR");
    ASSERT_FALSE(rule.enabled);
    EXPECT_EQ(rule.source, game::ToneMapSource::Defaults);
    auto cam = scene::spawnCamera(*m.bundle, 0);
    ASSERT_TRUE(cam.has_value());
    cam->aspect = static_cast<float>(kW) / kH;
    scene::Visibility vis(m.bundle->map, m.bundle->mesh);
    scene::DrawList list;
    vis.update(*cam, {}, list);
    const auto draw = [&] {
        m.target.bind();
        m.renderer.draw(list, *cam, testsupport::testRenderOptions());
        return m.target.readPixels();
    };
    const std::vector<uint8_t> before = draw();
    // Auto exposure asked for: not run, the frame the same.
    render::RenderOptions autoexp = testsupport::testRenderOptions();
    autoexp.auto_exposure = true;
    autoexp.frame_seconds = 1.0f;
    EXPECT_FALSE(m.renderer.autoExposed(autoexp));
    for (int i = 0; i < 3; ++i) {
        m.target.bind();
        m.renderer.draw(list, *cam, autoexp);
        EXPECT_EQ(m.target.readPixels(), before);
    }
    m.bundle->profile.rules.tonemap.scale = 2.0f; // off: not applied
    ASSERT_TRUE(render::uploadBundle(m.renderer, *m.bundle).ok());
    EXPECT_EQ(m.renderer.toneScale(testsupport::testRenderOptions()), 1.0f);
    EXPECT_EQ(draw(), before);
    // Turned on at scale 1 (the default fixed exposure): still the same bytes.
    m.bundle->profile.rules.tonemap.scale = 1.0f;
    m.bundle->profile.rules.tonemap.enabled = true;
    ASSERT_TRUE(render::uploadBundle(m.renderer, *m.bundle).ok());
    EXPECT_EQ(draw(), before);
    // At scale 2 the frame brightens (the check that the path is live).
    m.bundle->profile.rules.tonemap.scale = 2.0f;
    ASSERT_TRUE(render::uploadBundle(m.renderer, *m.bundle).ok());
    const std::vector<uint8_t> brighter = draw();
    double sum_before = 0, sum_after = 0;
    for (size_t i = 0; i < before.size(); i += 4) {
        sum_before += before[i] + before[i + 1] + before[i + 2];
        sum_after += brighter[i] + brighter[i + 1] + brighter[i + 2];
    }
    EXPECT_GT(sum_after, sum_before * 1.2);
}

// Auto exposure end to end: a floor filling the view, all one grey, is measured a frame after
// it is drawn (render/exposure_meter.h) and the scale moves a rate * seconds share toward the
// goal that frame asks for (render/tone_map.h, whose arithmetic auto_exposure_test.cpp checks
// against hand figures).
TEST_F(ToneMapRender, AutoExposureFollowsTheMeasuredFrame) {
    for (const uint8_t luxel : {luxelByte(), uint8_t{200}}) {
        const bsp::Map map = testsupport::litFloorMap(luxel, glm::vec2(0.3f, 0.3f));
        const scene::WorldMesh mesh = scene::buildWorldMesh(map);
        std::vector<content::TextureInfo> textures(1);
        textures[0].image = grey(kTexel);
        textures[0].missing = false;
        render::WorldSource source{map, mesh, textures};
        source.rules.light.lightmap_scale = 2.0f;
        source.rules.tonemap = hdr(1.0f);
        render::WorldRenderer r;
        std::string error;
        ASSERT_TRUE(r.init(render::GlslLibrary(), &error)) << error;
        ASSERT_TRUE(r.upload(source, &error)) << error;
        render::RenderTarget target;
        ASSERT_TRUE(target.create(kW, kH, &error)) << error;
        scene::Camera cam = overFloor();
        cam.position.z = 20.0f; // the floor fills the view
        scene::Visibility vis(source.map, source.mesh);
        scene::DrawList list;
        vis.update(cam, {}, list);
        render::RenderOptions ro = testsupport::testRenderOptions();
        ro.auto_exposure = true;
        ro.frame_seconds = 0.25f;
        const auto frame = [&] {
            target.bind();
            r.draw(list, cam, ro);
            glFinish(); // the samples are in for the next frame
            return target.readPixels();
        };
        ASSERT_TRUE(r.autoExposed(ro));
        // Frame 1: nothing measured yet, the fixed scale 1 it starts from.
        const std::vector<uint8_t> first = frame();
        EXPECT_EQ(r.toneScale(ro), 1.0f);
        for (size_t i = 0; i < first.size(); i += 4) // one grey everywhere
            ASSERT_EQ(first[i], first[0]);
        EXPECT_NEAR(first[0], expectedPixel(luxel, 1.0f), 1.0);
        // Frame 2: frame 1's luminance sets the goal; a quarter of the way toward it.
        const float l1 = first[0] / 255.0f;
        render::LuminanceHistogram h;
        for (int i = 0; i < render::kExposureGrid * render::kExposureGrid; ++i)
            render::addLuminance(h, l1);
        const float goal =
            std::clamp(render::exposureTarget(h, source.rules.tonemap, 1.0f), 0.5f, 2.0f);
        // 36: 56/255 is in bin 5, whose border 0.2285 asks for 2.63, clamped to 2. 200: white,
        // the top bin's border 0.99816 asks for 0.6011.
        EXPECT_NEAR(goal, luxel == 200 ? 0.601109f : 2.0f, 1e-5f);
        const std::vector<uint8_t> second = frame();
        EXPECT_NEAR(r.exposureGoal(), goal, 1e-6f);
        const float scale = 1.0f + (goal - 1.0f) * 0.25f;
        EXPECT_NEAR(r.toneScale(ro), scale, 1e-6f);
        EXPECT_NEAR(second[0], expectedPixel(luxel, std::pow(scale, 1.0f / 2.2f)), 1.0);
        // Off again: the fixed scale.
        ro.auto_exposure = false;
        EXPECT_EQ(r.toneScale(ro), 1.0f);
        EXPECT_NEAR(frame()[0], first[0], 0.0);
    }
}

TEST(ToneScaleFactor, DisplaySpaceFactor) {
    game::ToneMapRule tm;
    EXPECT_EQ(render::toneScaleFactor(tm, 1.0f), 1.0f);
    EXPECT_FLOAT_EQ(render::toneScaleFactor(tm, 2.0f), std::pow(2.0f, 1.0f / 2.2f));
    EXPECT_EQ(render::toneScaleFactor(tm, 0.0f), 0.0f);
    EXPECT_EQ(render::toneScaleFactor(tm, -1.0f), 0.0f);
    tm.enabled = true;
    EXPECT_TRUE(render::toneMapped(tm, render::ViewMode::Lit, false));
    EXPECT_TRUE(render::toneMapped(tm, render::ViewMode::Lightmap, false));
    EXPECT_FALSE(render::toneMapped(tm, render::ViewMode::Fullbright, false));
    EXPECT_FALSE(render::toneMapped(tm, render::ViewMode::Lit, true));
    tm.enabled = false;
    EXPECT_FALSE(render::toneMapped(tm, render::ViewMode::Lit, false));
}
