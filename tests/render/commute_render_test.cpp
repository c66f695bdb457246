// Blended faces whose blending commutes (scene::VisOptions::commute_blends, scene::BlendOrder)
// are regrouped into fewer batches; the picture must not change by a single bit. Real
// OpenArena views full of additive beams and glows, drawn both ways in the lit view (shader
// stages), with stages off (the single-texture path) and in the flat debug view.
#include "gl_fixture.h"
#include "real_map.h"
#include "render/world_renderer.h"
#include "render/world_upload.h"
#include "scene/load/map_bundle.h"
#include "scene/view/visibility.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <ostream>
#include <string>
#include <vector>

namespace {

constexpr int kW = 480, kH = 270;

struct CommuteCase {
    const char* name;
    std::string spec;
    float x, y, z, pitch, yaw;
};

void PrintTo(const CommuteCase& c, std::ostream* os) {
    *os << c.name;
}

std::vector<CommuteCase> cases() {
    const std::string oa = BSPV_OPENARENA_DIR;
    return {
        // Team goal glows and beams (textures/sfx/beam_*, sfx2/*goal2: blendFunc GL_ONE GL_ONE)
        // interleaved back to front.
        {"oa_thor_intermission", oa + "/pak6-patch088.pk3:maps/oa_thor.bsp", 2560, 1656, 160, 0,
         -90},
        // A spawn point looking down the other base's corridor of beams.
        {"oa_thor_spawn9", oa + "/pak6-patch088.pk3:maps/oa_thor.bsp", 832, -448, 18, 0, 90},
        // Another map and shader set: am_thornish's spawn 1 (lava glows, flame sprites).
        {"am_thornish_spawn1", oa + "/pak6-patch088.pk3:maps/am_thornish.bsp", 704, -320, -574, 0,
         -90},
    };
}

class CommuteRender : public gltest::GlFixture,
                      public ::testing::WithParamInterface<CommuteCase> {};

struct Frame {
    std::vector<uint8_t> rgba;
    size_t batches = 0, translucent_faces = 0, commuting_faces = 0;
    uint32_t gl_draws = 0;
};

TEST_P(CommuteRender, RegroupedBlendsDrawTheSamePictureInFewerBatches) {
    const CommuteCase& c = GetParam();
    gltest::RealMap real;
    ASSERT_NO_FATAL_FAILURE(gltest::loadRealMap(c.spec, kW, kH, real));
    const scene::MapBundle& b = *real.bundle;
    render::WorldRenderer& renderer = real.renderer;
    render::RenderTarget& target = real.target;
    scene::Camera camera;
    camera.position = glm::vec3(c.x, c.y, c.z);
    camera.pitch = c.pitch;
    camera.yaw = c.yaw;
    camera.aspect = static_cast<float>(kW) / static_cast<float>(kH);

    const auto draw = [&](bool commute, const render::RenderOptions& ro) {
        scene::Visibility vis(b.map, b.mesh);
        scene::VisOptions vo;
        vo.commute_blends = commute;
        scene::DrawList list;
        vis.update(camera, vo, list);
        target.bind();
        renderer.draw(list, camera, ro);
        Frame f;
        f.rgba = target.readPixels();
        f.batches = list.batches.size();
        f.gl_draws = renderer.submitStats().draw_calls;
        for (const scene::DrawBatch& batch : list.batches)
            if (batch.pass == scene::Pass::Translucent) {
                f.translucent_faces += batch.num_faces;
                const scene::ResolvedMaterial& m = b.materials[static_cast<size_t>(batch.material)];
                f.commuting_faces +=
                    m.blend_order == scene::BlendOrder::Commutes ? batch.num_faces : 0;
            }
        return f;
    };
    const auto expectSamePicture = [](const Frame& on, const Frame& off, const char* what) {
        ASSERT_EQ(on.rgba.size(), off.rgba.size());
        size_t differ = 0;
        for (size_t i = 0; i < on.rgba.size(); i += 4)
            differ += on.rgba[i] != off.rgba[i] || on.rgba[i + 1] != off.rgba[i + 1] ||
                              on.rgba[i + 2] != off.rgba[i + 2]
                          ? 1
                          : 0;
        EXPECT_EQ(differ, 0u) << what << ": pixels that differ";
    };

    render::RenderOptions lit;
    lit.flares = false;
    lit.style_values = scene::lightStyleValues(0.0);
    std::vector<uint8_t> first;
    for (const double time : {0.0, 1.37}) {
        lit.time = time;
        const Frame off = draw(false, lit), on = draw(true, lit);
        EXPECT_GT(off.commuting_faces, 20u) << "the view must show many additive faces";
        EXPECT_EQ(on.translucent_faces, off.translucent_faces);
        EXPECT_LT(on.batches, off.batches);
        EXPECT_LT(on.gl_draws, off.gl_draws);
        std::printf("%s t=%.2f: %zu -> %zu batches, %u -> %u GL draws, %zu additive faces\n",
                    c.name, time, off.batches, on.batches, off.gl_draws, on.gl_draws,
                    on.commuting_faces);
        expectSamePicture(on, off, "lit");
        // The picture is not blank: the test would pass on two black frames otherwise.
        size_t lit_pixels = 0;
        for (size_t i = 0; i < on.rgba.size(); i += 4)
            lit_pixels += (on.rgba[i] | on.rgba[i + 1] | on.rgba[i + 2]) > 16 ? 1 : 0;
        EXPECT_GT(lit_pixels, on.rgba.size() / 8);
        if (first.empty())
            first = on.rgba;
        else
            EXPECT_NE(first, on.rgba) << "the shaders animate: the comparison must see that";
    }
    render::RenderOptions flat_path = lit;
    flat_path.shader_stages = false;
    expectSamePicture(draw(true, flat_path), draw(false, flat_path), "stages off");
    render::RenderOptions flat_view = lit;
    flat_view.view = render::ViewMode::Flat;
    expectSamePicture(draw(true, flat_view), draw(false, flat_view), "flat view");
}

INSTANTIATE_TEST_SUITE_P(OpenArena, CommuteRender, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<CommuteCase>& param) {
                             return std::string(param.param.name);
                         });

} // namespace
