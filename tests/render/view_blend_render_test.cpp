// The eye inside a liquid (scene::EyeLiquid, render::RenderOptions::view_blend): the liquid's
// colour over the finished frame, pixel = frame * (1 - a) + rgb * a as QuakeSpasm's V_PolyBlend
// draws it (GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA over the 8-bit frame), the frame's alpha kept;
// the debug views are drawn without it.
#include "gl_fixture.h"
#include "real_map.h"
#include "scene/view/eye_liquid.h"
#include "scene/view/visibility.h"
#include "scene/world/light_styles.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace {

constexpr int kW = 160, kH = 90;

class ViewBlendRender : public gltest::GlFixture {
protected:
    // lq_e1m1 with the eye in the water of its first pool (leaf contents -3).
    void SetUp() override {
        gltest::GlFixture::SetUp();
        if (HasFatalFailure())
            return;
        ASSERT_NO_FATAL_FAILURE(gltest::loadRealMap(
            std::string(BSPV_SHARED_MAPS_DIR) + "/q1/lq_e1m1.bsp", kW, kH, m_map));
        m_cam.position = {629.0f, 122.0f, 76.0f};
        m_cam.aspect = static_cast<float>(kW) / kH;
        scene::Visibility vis(m_map.bundle->map, m_map.bundle->mesh);
        vis.update(m_cam, {}, m_list);
    }
    std::vector<uint8_t> draw(render::ViewMode view, const glm::vec4& blend,
                              const glm::vec3& warp = glm::vec3(0.0f), double time = 0.0) {
        m_map.target.bind();
        render::RenderOptions ro;
        ro.view = view;
        ro.view_blend = blend;
        ro.screen_warp = warp;
        ro.time = time;
        ro.style_values = scene::lightStyleValues(0.0);
        m_map.renderer.draw(m_list, m_cam, ro);
        return m_map.target.readPixels();
    }

    gltest::RealMap m_map;
    scene::Camera m_cam;
    scene::DrawList m_list;
};

} // namespace

TEST_F(ViewBlendRender, TheEyesLiquidIsBlendedOverEveryPixel) {
    const scene::EyeLiquid eye =
        scene::eyeLiquid(m_map.bundle->map, m_map.bundle->profile.view.liquid, m_cam, 0.0);
    ASSERT_EQ(eye.liquid, scene::Liquid::Water);
    const glm::vec4 blend = eye.blend; // QuakeSpasm's cshift_water: 130 80 50, 128 / 255
    ASSERT_GT(blend.a, 0.0f);
    const auto plain = draw(render::ViewMode::Lit, glm::vec4(0.0f));
    const auto under = draw(render::ViewMode::Lit, blend);
    ASSERT_EQ(plain.size(), under.size());
    int off = 0, changed = 0;
    for (size_t i = 0; i + 3 < plain.size(); i += 4) {
        for (int c = 0; c < 3; ++c) {
            const double want = plain[i + c] * (1.0 - blend.a) + 255.0 * blend[c] * blend.a;
            off += std::abs(under[i + c] - want) > 1.0;
            changed += under[i + c] != plain[i + c];
        }
        off += under[i + 3] != plain[i + 3]; // alpha as the frame left it
    }
    EXPECT_EQ(off, 0);
    EXPECT_GT(changed, kW * kH); // not a no-op: most channels move
}

TEST_F(ViewBlendRender, DebugViewsAreDrawnWithoutIt) {
    const glm::vec4 blend(1.0f, 0.0f, 0.0f, 0.5f);
    for (const render::ViewMode v :
         {render::ViewMode::Normals, render::ViewMode::Lightmap, render::ViewMode::Overdraw})
        EXPECT_EQ(draw(v, blend), draw(v, glm::vec4(0.0f))) << render::viewModeName(v);
    // The fullbright view shows it, as the lit one does.
    EXPECT_NE(draw(render::ViewMode::Fullbright, blend),
              draw(render::ViewMode::Fullbright, glm::vec4(0.0f)));
}

// yquake2 GL3's underwater picture (render::RenderOptions::screen_warp): each pixel shows the
// frame at (u, v) + (sin(rate t + v waves) (1 - 2 |0.5 - u|), sin(rate t + u waves)
// (1 - 2 |0.5 - v|)) * amplitude, (u, v) its centre in 0..1 from the lower-left corner, read
// bilinearly and clamped to the edges: every pixel worked out here from the unwarped frame.
TEST_F(ViewBlendRender, TheScreenWarpReadsTheFrameWhereTheWavesPoint) {
    const glm::vec3 warp(0.02f, 2.0f, 10.0f * 3.14159265f); // three times yquake2's amplitude
    const double t = 0.7;
    const auto plain = draw(render::ViewMode::Lit, glm::vec4(0.0f), glm::vec3(0.0f), t);
    const auto warped = draw(render::ViewMode::Lit, glm::vec4(0.0f), warp, t);
    // The frame as GL holds it: row 0 at the bottom.
    auto texel = [&](int x, int y, int c) {
        x = std::clamp(x, 0, kW - 1);
        y = std::clamp(y, 0, kH - 1);
        return static_cast<double>(gltest::pixelAt(plain, kW, x, kH - 1 - y)[c]);
    };
    int off = 0, moved = 0;
    for (int gy = 0; gy < kH; ++gy)
        for (int x = 0; x < kW; ++x) {
            const double u = (x + 0.5) / kW, v = (gy + 0.5) / kH;
            const double phase = warp.y * t;
            double su = u + std::sin(phase + v * warp.z) * (1.0 - 2.0 * std::abs(0.5 - u)) * warp.x;
            double sv = v + std::sin(phase + u * warp.z) * (1.0 - 2.0 * std::abs(0.5 - v)) * warp.x;
            su = std::clamp(su, 0.0, 1.0) * kW - 0.5;
            sv = std::clamp(sv, 0.0, 1.0) * kH - 0.5;
            const int x0 = static_cast<int>(std::floor(su)), y0 = static_cast<int>(std::floor(sv));
            const double fx = su - x0, fy = sv - y0;
            const uint8_t* got = gltest::pixelAt(warped, kW, x, kH - 1 - gy);
            for (int c = 0; c < 3; ++c) {
                const double want =
                    (texel(x0, y0, c) * (1 - fx) + texel(x0 + 1, y0, c) * fx) * (1 - fy) +
                    (texel(x0, y0 + 1, c) * (1 - fx) + texel(x0 + 1, y0 + 1, c) * fx) * fy;
                off += std::abs(got[c] - want) > 2.0;
                moved += got[c] != gltest::pixelAt(plain, kW, x, kH - 1 - gy)[c];
            }
        }
    EXPECT_EQ(off, 0);
    EXPECT_GT(moved, kW * kH / 4); // not the frame as it was
    // No warp: the frame as drawn; the debug views never take it.
    EXPECT_EQ(draw(render::ViewMode::Normals, glm::vec4(0.0f), warp, t),
              draw(render::ViewMode::Normals, glm::vec4(0.0f), glm::vec3(0.0f), t));
}
