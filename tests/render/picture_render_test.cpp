// View > Picture (render::PictureAdjust, issue 33): exposure, gamma and brightness over the
// finished frame, after the engine's look; the defaults leave the frame byte for byte as it
// was; in the lightmap-only view the exposure scales the light before it clips to white.
#include "gl_fixture.h"
#include "real_map.h"
#include "render/world_upload.h"
#include "scene/view/visibility.h"
#include "scene/world/light_styles.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace {

constexpr int kW = 320, kH = 180;

class PictureRender : public gltest::GlFixture {
protected:
    // The map's first spawn point, drawn at kW x kH.
    void load(const std::string& rel) {
        ASSERT_NO_FATAL_FAILURE(
            gltest::loadRealMap(std::string(BSPV_SHARED_MAPS_DIR) + "/" + rel, kW, kH, m_map));
        auto cam = scene::spawnCamera(*m_map.bundle, 0);
        ASSERT_TRUE(cam.has_value());
        m_cam = *cam;
        m_cam.aspect = static_cast<float>(kW) / kH;
        scene::Visibility vis(m_map.bundle->map, m_map.bundle->mesh);
        vis.update(m_cam, {}, m_list);
    }
    std::vector<uint8_t> draw(render::ViewMode view, render::PictureAdjust picture) {
        m_map.target.bind();
        render::RenderOptions ro;
        ro.view = view;
        ro.picture = picture;
        ro.style_values = scene::lightStyleValues(0.0);
        m_map.renderer.draw(m_list, m_cam, ro);
        return m_map.target.readPixels();
    }
    static double mean(const std::vector<uint8_t>& img) {
        double sum = 0.0;
        for (size_t i = 0; i + 3 < img.size(); i += 4)
            sum += img[i] + img[i + 1] + img[i + 2];
        return sum / (3.0 * static_cast<double>(img.size() / 4));
    }
    static size_t clipped(const std::vector<uint8_t>& img) {
        size_t n = 0;
        for (size_t i = 0; i + 3 < img.size(); i += 4)
            n += img[i] == 255 || img[i + 1] == 255 || img[i + 2] == 255;
        return n;
    }

    gltest::RealMap m_map;
    scene::Camera m_cam;
    scene::DrawList m_list;
};

} // namespace

TEST_F(PictureRender, DefaultsLeaveTheFrameAsTheEngineDrawsIt) {
    ASSERT_NO_FATAL_FAILURE(load("q1/lq_e1m1.bsp"));
    const auto plain = draw(render::ViewMode::Lit, {});
    const auto brighter = draw(render::ViewMode::Lit, {1.0f, 1.0f, 0.0f});
    const auto back = draw(render::ViewMode::Lit, {});
    EXPECT_EQ(plain, back);
    EXPECT_GT(mean(brighter), mean(plain) * 1.5); // one stop: about twice, less what clips
    const auto gamma = draw(render::ViewMode::Lit, {0.0f, 2.0f, 0.0f});
    EXPECT_GT(mean(gamma), mean(plain) * 1.3);
    const auto lifted = draw(render::ViewMode::Lit, {0.0f, 1.0f, 0.1f});
    EXPECT_NEAR(mean(lifted), mean(plain) + 25.5, 3.0);
    const auto darker = draw(render::ViewMode::Lit, {-1.0f, 1.0f, 0.0f});
    EXPECT_LT(mean(darker), mean(plain) * 0.6);
}

// Issue 33: the lightmap-only view clipped to white with no way back. A negative exposure
// scales the light before the clamp: the clipped areas come back with their detail.
// cs_fy_pool_day's first spawn looks at a wall lit past white in the lightmap view.
TEST_F(PictureRender, LightmapExposureBringsBackWhatClipped) {
    ASSERT_NO_FATAL_FAILURE(load("hl/cs_fy_pool_day.bsp"));
    const auto at0 = draw(render::ViewMode::Lightmap, {});
    const auto down = draw(render::ViewMode::Lightmap, {-1.5f, 1.0f, 0.0f});
    const size_t was = clipped(at0);
    std::printf("lightmap view: %zu clipped pixels at exposure 0, %zu at -1.5\n", was,
                clipped(down));
    ASSERT_GT(was, 100u);
    EXPECT_LT(clipped(down), was / 4);
    // Where the frame was white, the darker exposure shows a grey (GoldSrc saturates the light
    // per channel before that, gl_rsurf.c: the engine's look stays).
    size_t white = 0, grey = 0;
    for (size_t i = 0; i + 3 < at0.size(); i += 4)
        if (at0[i] == 255 && at0[i + 1] == 255 && at0[i + 2] == 255) {
            ++white;
            const uint8_t m = std::max({down[i], down[i + 1], down[i + 2]});
            grey += m > 40 && m < 255;
        }
    ASSERT_GT(white, 100u);
    EXPECT_EQ(grey, white);
}
