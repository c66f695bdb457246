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
    std::vector<uint8_t> draw(render::ViewMode view, const glm::vec4& blend) {
        m_map.target.bind();
        render::RenderOptions ro;
        ro.view = view;
        ro.view_blend = blend;
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
