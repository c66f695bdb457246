// Renders compared with golden images in tests/golden/, made with this renderer on Mesa
// llvmpipe and checked by eye against ioquake3's own screenshots of the same cameras
// (tools/refcompare.sh; docs/fidelity.md has the SSIM of the full-size pairs).
//
// They catch unintended changes to the picture. After an intended change, regenerate them with
//   BSPV_UPDATE_GOLDEN=1 build/tests/test_golden
// (under xvfb-run), look at every changed image, and commit them with the change.
//
// Tolerance: another Mesa version may round a little differently, so a render passes when the
// mean absolute difference stays under 1.5 levels and fewer than 1% of the pixels differ by more
// than 24 levels in some channel. A lost stage, a wrong blend or lighting rule moves far more.
//
// A failing comparison writes <name>.actual.png (this render) and <name>.diff.png (red where a
// pixel is off by more than 24 levels, else grey at 8 times its difference; golden_diff.h) into
// BSPV_GOLDEN_OUT_DIR, build/tests/golden_out in the build tree, and names them in the failure.
#include "content/image/image.h"
#include "gl_fixture.h"
#include "golden_check.h"
#include "real_map.h"
#include "render/world_renderer.h"
#include "render/world_upload.h"
#include "scene/load/map_bundle.h"
#include "scene/view/visibility.h"

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <ostream>
#include <string>

namespace {

constexpr int kW = 320, kH = 180;

// Where a case looks from: a spawn point of the map (scene::spawnCamera), or a position and
// angles as --camera X,Y,Z,PITCH,YAW gives them.
struct View {
    int spawn = 0; // < 0: `position`, `pitch` and `yaw`
    glm::vec3 position{0.0f};
    float pitch = 0.0f, yaw = 0.0f;
};

struct GoldenCase {
    const char* name;
    std::string spec;
    View camera;
};

// gtest prints a failing parameter through this instead of its bytes.
void PrintTo(const GoldenCase& c, std::ostream* os) {
    *os << c.name;
}

View at(float x, float y, float z, float pitch, float yaw) {
    return {-1, {x, y, z}, pitch, yaw};
}

View spawn(int index) {
    View v;
    v.spawn = index;
    return v;
}

// The camera of `v` in `bundle`, with the far plane of the world bounds; nullopt for a spawn
// point the map lacks.
std::optional<scene::Camera> cameraOf(const View& v, const scene::MapBundle& bundle) {
    if (v.spawn >= 0)
        return scene::spawnCamera(bundle, static_cast<size_t>(v.spawn));
    scene::Camera cam;
    cam.z_far = scene::farPlaneForBounds(bundle.map.worldMins(), bundle.map.worldMaxs());
    cam.position = v.position;
    cam.pitch = v.pitch;
    cam.yaw = v.yaw;
    return cam;
}

std::vector<GoldenCase> cases() {
    const std::string maps = BSPV_SHARED_MAPS_DIR;
    const std::string oa = BSPV_OPENARENA_DIR;
    return {
        {"demo_spawn0", std::string(BSPV_SOURCE_DIR) + "/assets/maps/demo.bsp", spawn(0)},
        // Multi-stage shaders, sky box and cloud layers, blended glass.
        {"oa_dm1_intermission", oa + "/pak1-maps.pk3:maps/oa_dm1.bsp",
         at(296, 1152, 200, 26.565f, 180)},
        // Quake 3 items: the rocket launcher (1.5 times its size, about its midpoint, dropped
        // to the floor and raised 8) and, behind, the health by the door.
        {"oa_dm1_items", oa + "/pak1-maps.pk3:maps/oa_dm1.bsp", at(170, 1150, 90, 15, 180)},
        {"oasago2_intermission", oa + "/pak6-patch088.pk3:maps/oasago2.bsp",
         at(-60, -1536, 436, 0, 90)},
        {"oa_thor_intermission", oa + "/pak6-patch088.pk3:maps/oa_thor.bsp",
         at(2560, 1656, 160, 0, -90)},
        // Ground fog over multi-stage floors (fogged by their own programs).
        {"oacmpdm1_intermission", oa + "/z_oacmp-volume1-v3.pk3:maps/oacmpdm1.bsp",
         at(2176, 360, -144, 0, -135)},
        // Quake 1 lightmaps with styles, Quake 2 sky box and .wal textures.
        {"lq_e1m1_spawn0", maps + "/q1/lq_e1m1.bsp", spawn(0)},
        // Entity models: two soldiers in their first stand frame, lit from the floor below.
        {"lq_e1m1_soldiers", maps + "/q1/lq_e1m1.bsp", at(176, -820, 140, 5, 90)},
        {"aq_wizs_spawn0", maps + "/q2/aq_wizs.bsp", spawn(0)},
        // Quake 2 under yquake2 GL3's curve: .wal textures, water, town and trees (the sky box
        // the map names is not in the test pak: Yamagi's gl3_notexture stands in).
        {"aq_urbanjungle_town", maps + "/q2/aq_urbanjungle.bsp", at(3872, 1376, -434, 18, 180)},
        // Half-Life under GoldSrc's gamma curves: WAD3 textures with their own palettes, the
        // pool (func_water, render mode texture: blended, no lightmap), tiles lit without 2x.
        {"cs_fy_pool_day_pool", maps + "/hl/cs_fy_pool_day.bsp", at(-420, 330, 80, 25, 35)},
        // The shared reference views (../shared/refshots/cameras.txt, compared with Yamagi Quake
        // II and Xash3D FWGS in docs/fidelity.md, "Quake 2 looks and Half-Life lighting"):
        // Quake 2 under yquake2 GL3's defaults, aq_credits compiled without light (each face
        // lit once per style it lists, 4x); Half-Life under GoldSrc's curves.
        {"ref_wizs_a", maps + "/q2/aq_wizs.bsp",
         at(1936.0625f, 0.0625f, -568.9375f, 4.998779f, -180)},
        {"ref_credits_a", maps + "/q2/aq_credits.bsp", at(0.0625f, -319.9375f, -1664.9375f, 0, 90)},
        {"ref_uj_a", maps + "/q2/aq_urbanjungle.bsp", at(2576.0625f, 900.0625f, -829.9375f, 0, 0)},
        {"ref_uj_b", maps + "/q2/aq_urbanjungle.bsp",
         at(3120.0625f, 2304.0625f, -455.9375f, 45, -119.998169f)},
        {"ref_wizs_b", maps + "/q2/aq_wizs.bsp",
         at(896.0625f, -1423.9375f, -568.9375f, 4.998779f, 90)},
        {"ref_wizs_c", maps + "/q2/aq_wizs.bsp",
         at(1872.0625f, 320.0625f, -568.9375f, 4.998779f, -180)},
        {"ref_pool_a", maps + "/hl/cs_fy_pool_day.bsp", at(-74, -67, 71, 10, 0)},
        {"ref_pool_b", maps + "/hl/cs_fy_pool_day.bsp", at(-450, 1100, 95, 15, 300)},
        {"ref_pool_c", maps + "/hl/cs_fy_pool_day.bsp", at(-197, 157, 65, 0, 0)},
        {"ref_india_a", maps + "/hl/cs_awp_india.bsp", at(-64, -1216, 92, 20, 90)},
        {"ref_india_b", maps + "/hl/cs_awp_india.bsp", at(-320, 1088, 92, 15, 300)},
        // Source: every shared VBSP map from its first spawn point (the two without one from the
        // overview camera). tf2_test2: displacements on their base faces, lightmaps, the flat
        // sky (sky_tf2_04 is TF2's own); the lobbies' rooms from a corner, momentum's lit by its
        // one weak light_spot (HDR only); the tool-texture maps from their spawn point looking back
        // at a sky brush (their tool faces hidden, their dev textures missing: the grey tile).
        {"source_tf2_test2_spawn0", maps + "/source/tf2_test2.bsp", spawn(0)},
        // Static props: Momentum's background_01 with its game folder from its start, which
        // looks at the sakura tree (its bark, alpha-tested two-sided branches, lit by its leaf's
        // ambient cube, the sun and the point lights that reach it; its canopy above the sky
        // brushes drawn over the sky, which writes no depth; the cattails' model is missing: not
        // drawn), and from its sunlit side.
        {"source_mom_background_01_sakura",
         maps + "/source/mom_background_01/maps/background_01.bsp", spawn(0)},
        {"source_mom_background_01_tree_sunlit",
         maps + "/source/mom_background_01/maps/background_01.bsp", at(-420, 170, 300, 12, 316)},
        {"source_tf2_test_displacement", maps + "/source/tf2_test_displacement.bsp", spawn(0)},
        {"source_tf2_test_physcollide", maps + "/source/tf2_test_physcollide.bsp", spawn(0)},
        {"source_tf2_mp_lobby", maps + "/source/tf2_mp_lobby.bsp", at(-200, -200, 120, 20, 45)},
        {"source_momentum_mp_lobby", maps + "/source/momentum_mp_lobby.bsp",
         at(-200, -200, 120, 20, 45)},
        {"source_csgo_tooltextures", maps + "/source/csgo_tooltextures.bsp",
         at(256, 256, 72, 10, 180)},
        {"source_gmod_tooltextures", maps + "/source/gmod_tooltextures.bsp",
         at(256, 256, 72, 10, 180)},
        {"source_l4d2_tooltextures", maps + "/source/l4d2_tooltextures.bsp",
         at(256, 256, 72, 10, 180)},
    };
}

class Golden : public gltest::GlFixture, public ::testing::WithParamInterface<GoldenCase> {
protected:
    // The case's map, camera and visible set.
    void SetUp() override {
        gltest::GlFixture::SetUp();
        const GoldenCase& c = GetParam();
        ASSERT_NO_FATAL_FAILURE(gltest::loadRealMap(c.spec, kW, kH, m_map));
        auto camera = cameraOf(c.camera, *m_map.bundle);
        ASSERT_TRUE(camera.has_value()) << "no spawn point " << c.camera.spawn;
        m_camera = *camera;
        m_camera.aspect = static_cast<float>(kW) / static_cast<float>(kH);
        scene::Visibility vis(m_map.bundle->map, m_map.bundle->mesh,
                              &m_map.bundle->models.instances);
        vis.update(m_camera, {}, m_list);
    }

    gltest::RealMap m_map;
    scene::Camera m_camera;
    scene::DrawList m_list;
};

TEST_P(Golden, RenderMatchesItsGoldenImage) {
    const GoldenCase& c = GetParam();
    render::WorldRenderer& renderer = m_map.renderer;
    render::RenderTarget& target = m_map.target;
    target.bind();
    render::RenderOptions ro;
    ro.time = 0.0;
    ro.flares = false; // their fade needs several frames
    ro.style_values = scene::lightStyleValues(0.0);
    renderer.draw(m_list, m_camera, ro);
    content::Image got;
    got.width = kW;
    got.height = kH;
    got.rgba = target.readPixels();

    golden::expectMatchesGolden(c.name, got);
}

// Stage folding (render::RenderOptions::fold_stages) draws what one pass per stage draws: the
// same picture up to the framebuffer's rounding between passes, with fewer stage draws on the
// maps with shader scripts (and the same draws, none, on the others).
TEST_P(Golden, FoldedStagesDrawWhatOnePassPerStageDraws) {
    const GoldenCase& c = GetParam();
    render::WorldRenderer& renderer = m_map.renderer;
    render::RenderTarget& target = m_map.target;
    const auto draw = [&](bool fold) {
        target.bind();
        render::RenderOptions ro;
        ro.flares = false;
        ro.fold_stages = fold;
        ro.style_values = scene::lightStyleValues(0.0);
        renderer.draw(m_list, m_camera, ro);
        return target.readPixels();
    };
    const std::vector<uint8_t> separate = draw(false);
    const uint32_t separate_draws = renderer.stageDraws();
    const std::vector<uint8_t> folded = draw(true);
    const uint32_t folded_draws = renderer.stageDraws();
    ASSERT_EQ(separate.size(), folded.size());
    double total = 0.0;
    size_t off = 0;
    for (size_t i = 0; i + 3 < folded.size(); i += 4) {
        int worst = 0;
        for (size_t k = 0; k < 3; ++k) {
            const int d = std::abs(int(folded[i + k]) - int(separate[i + k]));
            total += d;
            worst = std::max(worst, d);
        }
        off += worst > 2 ? 1 : 0;
    }
    const double pixels = static_cast<double>(kW) * kH;
    EXPECT_LT(total / (pixels * 3.0), 0.5) << c.name;
    EXPECT_LT(static_cast<double>(off) / pixels, 0.005) << c.name << ": pixels off by more than 2";
    if (m_map.bundle->stages.staged >
        0) // the OpenArena views: each has multi-stage shaders in sight
        EXPECT_LT(folded_draws, separate_draws) << c.name;
    else
        EXPECT_EQ(folded_draws, separate_draws) << c.name;
}

INSTANTIATE_TEST_SUITE_P(Maps, Golden, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<GoldenCase>& param) {
                             return std::string(param.param.name);
                         });

} // namespace
