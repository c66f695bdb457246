// GPU time per pass (render/gpu_timers.h) as WorldRenderer::draw reports it, and the switches
// that take an optional pass out (RenderOptions: depth_prepass, display_ramp, fog, flares,
// shader_stages). Timed with GpuTimers::Mode::Finish and FinishCpu, which read every frame back
// at once (llvmpipe's timer queries time one tile, so only names and counts are checked there).
#include "gl_fixture.h"
#include "render/gpu_timers.h"
#include "render/render_target.h"
#include "render/world_renderer.h"
#include "render/world_upload.h"
#include "scene/load/map_bundle.h"
#include "scene/view/visibility.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

namespace {

constexpr int kW = 320, kH = 180;

class PassTiming : public gltest::GlFixture {
protected:
    // oa_dm1 from its intermission camera: an overbright map (display ramp) with shader stages,
    // fog, flares and item models in view.
    static void SetUpTestSuite() {
        GlFixture::SetUpTestSuite();
        auto b =
            scene::loadMapBundle(std::string(BSPV_OPENARENA_DIR) + "/pak1-maps.pk3:maps/oa_dm1.bsp",
                                 scene::LoadSettings());
        ASSERT_TRUE(b.ok()) << (b.ok() ? "" : b.error().message());
        s_bundle = std::move(*b).release();
    }
    static void TearDownTestSuite() {
        delete s_bundle;
        s_bundle = nullptr;
        GlFixture::TearDownTestSuite();
    }
    void SetUp() override {
        GlFixture::SetUp();
        ASSERT_NE(s_bundle, nullptr);
        m_renderer = std::make_unique<render::WorldRenderer>();
        std::string error;
        ASSERT_TRUE(m_renderer->init(m_shaders, &error)) << error;
        const core::Status st = render::uploadBundle(*m_renderer, *s_bundle);
        ASSERT_TRUE(st.ok()) << (st.ok() ? "" : st.error().message());
        ASSERT_TRUE(m_target.create(kW, kH, &error)) << error;
        m_camera.position = {296.0f, 1152.0f, 200.0f};
        m_camera.pitch = 26.5651f;
        m_camera.yaw = 180.0f;
        m_camera.aspect = static_cast<float>(kW) / static_cast<float>(kH);
        scene::Visibility vis(s_bundle->map, s_bundle->mesh, &s_bundle->models.instances);
        vis.update(m_camera, {}, m_list);
    }

    // Draws `frames` frames timed in Finish mode; returns the names of the last complete one.
    std::vector<std::string>
    timedPasses(render::RenderOptions ro,
                render::GpuTimers::Mode mode = render::GpuTimers::Mode::Finish, int frames = 3) {
        render::GpuTimers timers(mode);
        ro.timers = &timers;
        for (int f = 0; f < frames; ++f) {
            timers.beginFrame();
            m_target.bind();
            ro.time = f / 60.0;
            m_renderer->draw(m_list, m_camera, ro);
        }
        timers.beginFrame(); // completes the last frame
        EXPECT_EQ(timers.framesRead(), static_cast<uint64_t>(frames));
        EXPECT_EQ(timers.framesNotReady() + timers.framesInvalid(), 0u);
        double sum = 0.0;
        std::vector<std::string> names;
        for (const render::GpuTimers::PassTime& t : timers.latest()) {
            EXPECT_GE(t.ms, 0.0) << t.name;
            sum += t.ms;
            names.push_back(t.name);
        }
        EXPECT_LE(sum, timers.latestFrameMs() + 1e-9);
        return names;
    }

    // The frame's options as --bench sets them (light styles at time 0).
    static render::RenderOptions options() {
        render::RenderOptions ro;
        ro.style_values =
            scene::lightStyleValues(0.0, nullptr, s_bundle->profile.entities.light_styles);
        return ro;
    }

    static bool has(const std::vector<std::string>& names, const char* name) {
        return std::find(names.begin(), names.end(), name) != names.end();
    }

    static inline scene::MapBundle* s_bundle = nullptr;
    render::GlslLibrary m_shaders;
    std::unique_ptr<render::WorldRenderer> m_renderer;
    render::RenderTarget m_target;
    scene::Camera m_camera;
    scene::DrawList m_list;
};

TEST_F(PassTiming, EveryPassOnceInTheOrderOfTheList) {
    const std::vector<std::string> names = timedPasses(options());
    for (const char* expected :
         {"clear", "depth prepass", "opaque", "stages", "models", "display ramp"})
        EXPECT_TRUE(has(names, expected)) << expected;
    // Each name once, and in the order of render::kTimedPasses (nothing outside it).
    std::vector<size_t> order;
    for (const std::string& n : names) {
        const auto it =
            std::find(std::begin(render::kTimedPasses), std::end(render::kTimedPasses), n);
        ASSERT_NE(it, std::end(render::kTimedPasses)) << n;
        order.push_back(static_cast<size_t>(it - std::begin(render::kTimedPasses)));
    }
    EXPECT_TRUE(std::is_sorted(order.begin(), order.end()));
    EXPECT_EQ(std::adjacent_find(order.begin(), order.end()), order.end());
}

TEST_F(PassTiming, EachSwitchTakesOutItsPassOnly) {
    const std::vector<std::string> all = timedPasses(options());
    struct Case {
        const char* pass;
        bool render::RenderOptions::*option;
    };
    for (const Case c : {Case{"depth prepass", &render::RenderOptions::depth_prepass},
                         Case{"display ramp", &render::RenderOptions::display_ramp},
                         // Without the gamma ramp the frame is drawn as shown: no ramp pass.
                         Case{"display ramp", &render::RenderOptions::hardware_gamma},
                         Case{"stages", &render::RenderOptions::shader_stages},
                         Case{"fog", &render::RenderOptions::fog},
                         Case{"flares", &render::RenderOptions::flares}}) {
        ASSERT_TRUE(has(all, c.pass)) << c.pass << " is not drawn in this view";
        render::RenderOptions ro = options();
        ro.*c.option = false;
        // Timed by the process's CPU time (--pass-timing cpu): the same passes.
        std::vector<std::string> without = timedPasses(ro, render::GpuTimers::Mode::FinishCpu);
        EXPECT_FALSE(has(without, c.pass)) << c.pass;
        // The others stay (without stages, their surfaces move to the single-texture passes).
        for (const std::string& n : all) {
            const bool staged = n == "blended stages";
            if (n != c.pass && !(c.option == &render::RenderOptions::shader_stages && staged)) {
                EXPECT_TRUE(has(without, n.c_str())) << c.pass << " off took out " << n;
            }
        }
    }
}

// --no-display-ramp leaves the frame as the passes drew it: the ramp is exactly min(255, 2 v).
TEST_F(PassTiming, DisplayRampOffIsTheFrameBeforeItsDoubling) {
    render::RenderOptions ro = options();
    m_target.bind();
    m_renderer->draw(m_list, m_camera, ro);
    const std::vector<uint8_t> on = m_target.readPixels();
    ro.display_ramp = false;
    m_renderer->draw(m_list, m_camera, ro);
    const std::vector<uint8_t> off = m_target.readPixels();
    ASSERT_EQ(on.size(), off.size());
    size_t differ = 0, lit = 0;
    for (size_t i = 0; i < on.size(); i += 4) {
        for (size_t c = 0; c < 3; ++c) // not alpha
            differ += on[i + c] != std::min(255, 2 * off[i + c]);
        lit += std::max({off[i], off[i + 1], off[i + 2]}) > 8;
    }
    EXPECT_EQ(differ, 0u);
    EXPECT_GT(lit, on.size() / 4 / 2); // a real picture: most pixels lit
}

} // namespace
