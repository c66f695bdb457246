// Draw submission: range merging (no GL), and on a real context (Mesa llvmpipe under xvfb-run)
// that the multi-draw-indirect path and the GL 3.3 fallback draw pixel-identical images with at
// most one GL call per batch (plus one per brush model for the depth pre-pass).
#include "gl_fixture.h"
#include "real_map.h"
#include "render/draw_submitter.h"
#include "render/world_renderer.h"
#include "render/world_upload.h"
#include "scene/load/map_bundle.h"
#include "scene/view/visibility.h"
#include "scene/world/light_styles.h"

#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

namespace {

using render::IndexRange;

TEST(RangeMerge, TouchingRangesMerge) {
    std::vector<IndexRange> r;
    EXPECT_FALSE(render::appendMergedRange(r, 0, 6));
    EXPECT_TRUE(render::appendMergedRange(r, 6, 3));
    EXPECT_TRUE(render::appendMergedRange(r, 9, 12));
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].first, 0u);
    EXPECT_EQ(r[0].count, 21u);
}

TEST(RangeMerge, GapsAndOverlapsAndBackwardsStaySeparate) {
    std::vector<IndexRange> r;
    render::appendMergedRange(r, 0, 6);
    EXPECT_FALSE(render::appendMergedRange(r, 7, 3)); // gap of one
    EXPECT_FALSE(render::appendMergedRange(r, 8, 3)); // overlaps the last
    EXPECT_FALSE(render::appendMergedRange(r, 0, 6)); // before it
    ASSERT_EQ(r.size(), 4u);
    EXPECT_EQ(r[1].first, 7u);
    EXPECT_EQ(r[1].count, 3u);
    EXPECT_EQ(r[3].first, 0u);
}

TEST(RangeMerge, EmptyRangesAreDropped) {
    std::vector<IndexRange> r;
    EXPECT_TRUE(render::appendMergedRange(r, 5, 0));
    EXPECT_TRUE(r.empty());
    render::appendMergedRange(r, 5, 3);
    EXPECT_TRUE(render::appendMergedRange(r, 8, 0));
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].count, 3u);
}

TEST(RangeMerge, NoWrapAroundAtTheTopOfTheIndexSpace) {
    std::vector<IndexRange> r;
    render::appendMergedRange(r, 0xFFFFFFF0u, 0x10u); // ends at 2^32
    EXPECT_FALSE(render::appendMergedRange(r, 0, 3));
    EXPECT_EQ(r.size(), 2u);
}

TEST(DrawPathNames, ParseAndName) {
    render::DrawPath p = render::DrawPath::Auto;
    ASSERT_TRUE(render::parseDrawPath("33", &p));
    EXPECT_EQ(p, render::DrawPath::Fallback);
    ASSERT_TRUE(render::parseDrawPath("indirect", &p));
    EXPECT_EQ(p, render::DrawPath::Indirect);
    ASSERT_TRUE(render::parseDrawPath("auto", &p));
    EXPECT_EQ(p, render::DrawPath::Auto);
    EXPECT_FALSE(render::parseDrawPath("44", &p));
    EXPECT_STREQ(render::drawPathName(render::DrawPath::Fallback), "33");
    EXPECT_STREQ(render::drawPathName(render::DrawPath::Indirect), "43");
}

class Submit : public gltest::GlFixture {};

// Opaque brush-model runs: the depth pre-pass issues one call per run.
uint32_t opaqueModelRuns(const scene::DrawList& list) {
    uint32_t runs = 0;
    int32_t sub = -1;
    for (const scene::DrawBatch& b : list.batches) {
        if (b.pass != scene::Pass::Opaque)
            continue;
        if (b.submodel != sub)
            ++runs;
        sub = b.submodel;
    }
    return runs;
}

TEST_F(Submit, IndirectAndFallbackDrawIdenticalImages) {
    const std::vector<std::string> specs = {
        std::string(BSPV_OPENARENA_DIR) + "/pak1-maps.pk3:maps/oa_dm1.bsp",
        std::string(BSPV_SHARED_MAPS_DIR) + "/q3/bc_crypt.bsp",
        std::string(BSPV_SHARED_MAPS_DIR) + "/q1/lq_e1m1.bsp",
        std::string(BSPV_SHARED_MAPS_DIR) + "/q2/aq_urbanjungle.bsp",
        std::string(BSPV_SHARED_MAPS_DIR) + "/hl/cs_fy_pool_day.bsp",
    };
    const bool gl43 = render::caps().multi_draw_indirect;
    for (const std::string& spec : specs) {
        SCOPED_TRACE(spec);
        gltest::RealMap real;
        ASSERT_NO_FATAL_FAILURE(gltest::loadRealMap(spec, 256, 144, real));
        const scene::MapBundle& b = *real.bundle;
        render::WorldRenderer& r = real.renderer;
        render::RenderTarget& target = real.target;
        scene::Visibility vis(b.map, b.mesh);
        scene::DrawList list;
        const size_t cameras = std::max<size_t>(1, std::min<size_t>(b.spawns.size(), 3));
        for (size_t c = 0; c < cameras; ++c) {
            auto cam = scene::spawnCamera(b, c);
            ASSERT_TRUE(cam.has_value());
            cam->aspect = 16.0f / 9.0f;
            // With shader stages a batch is drawn once per stage, and the fog pass draws fogged
            // faces again; the exact range accounting below holds for one draw per batch, so it
            // runs with both off.
            for (const bool prepass : {true, false})
                for (const bool stages : {false, true}) {
                    SCOPED_TRACE("camera " + std::to_string(c) + (prepass ? " prepass" : "") +
                                 (stages ? " stages" : ""));
                    vis.update(*cam, {}, list);
                    ASSERT_GT(list.batches.size(), 0u);
                    render::RenderOptions ro;
                    ro.depth_prepass = prepass;
                    ro.shader_stages = stages;
                    ro.fog = stages; // the fog pass draws fogged faces again
                    ro.style_values = scene::lightStyleValues(0.0);
                    std::vector<uint8_t> images[2];
                    render::SubmitStats stats[2];
                    const render::DrawPath paths[2] = {render::DrawPath::Indirect,
                                                       render::DrawPath::Fallback};
                    for (int i = 0; i < 2; ++i) {
                        ro.draw_path = paths[i];
                        target.bind();
                        // A few frames, so the indirect ring goes round its regions.
                        for (int f = 0; f < 4; ++f)
                            r.draw(list, *cam, ro);
                        images[i] = target.readPixels();
                        stats[i] = r.submitStats();
                        EXPECT_EQ(r.drawPath(), i == 0 && gl43 ? render::DrawPath::Indirect
                                                               : render::DrawPath::Fallback);
                    }
                    EXPECT_TRUE(images[0] == images[1]) << "indirect and fallback images differ";
                    const uint32_t batches = static_cast<uint32_t>(list.batches.size());
                    const uint32_t limit = batches + (prepass ? opaqueModelRuns(list) : 0);
                    if (stages) { // one call per stage drawn, besides the batches
                        EXPECT_LE(stats[0].draw_calls, limit + r.stageDraws());
                        EXPECT_LE(stats[1].draw_calls, 2 * stats[0].draw_calls);
                        continue;
                    }
                    EXPECT_LE(stats[0].draw_calls, limit);
                    EXPECT_LE(stats[1].draw_calls, 2 * stats[0].draw_calls);
                    EXPECT_GT(stats[0].draw_calls, 0u);
                    EXPECT_EQ(stats[0].ranges_drawn, stats[1].ranges_drawn);
                    EXPECT_LE(stats[0].ranges_drawn, stats[0].ranges_appended);
                    // Every range of the list once, the opaque ones again for the pre-pass;
                    // a fog volume's own surfaces only ever go through the fog pass.
                    uint32_t expected_ranges = 0;
                    for (const scene::DrawBatch& batch : list.batches) {
                        const bsp::Material& m =
                            b.map.materials[static_cast<size_t>(batch.material)];
                        if ((m.flags & bsp::kSurfFog) && !(m.flags & bsp::kSurfSky))
                            continue;
                        expected_ranges += batch.num_ranges *
                                           (prepass && batch.pass == scene::Pass::Opaque ? 2 : 1);
                    }
                    EXPECT_EQ(stats[0].ranges_appended, expected_ranges);
                }
        }
    }
}

// Far more commands in one frame than the ring's first allocation holds: every face its own
// non-adjacent range (odd faces only), so nothing merges; the ring must grow mid-frame and the
// picture must still match the fallback's.
TEST_F(Submit, RingGrowsWhenAFrameNeedsMoreCommands) {
    gltest::RealMap real;
    ASSERT_NO_FATAL_FAILURE(gltest::loadRealMap(
        std::string(BSPV_SHARED_MAPS_DIR) + "/q2/aq_urbanjungle.bsp", 256, 144, real));
    const scene::MapBundle& b = *real.bundle;
    render::WorldRenderer& r = real.renderer;
    render::RenderTarget& target = real.target;
    auto cam = scene::spawnCamera(b, 0);
    ASSERT_TRUE(cam.has_value());
    cam->aspect = 16.0f / 9.0f;
    scene::Visibility vis(b.map, b.mesh);
    scene::DrawList full;
    scene::VisOptions everything;
    everything.pvs = false;
    everything.frustum = false;
    vis.update(*cam, everything, full);
    scene::DrawList list = full;
    list.ranges.clear();
    for (scene::DrawBatch& batch : list.batches) {
        const uint32_t first = batch.first_range, n = batch.num_ranges;
        batch.first_range = static_cast<uint32_t>(list.ranges.size());
        batch.num_ranges = 0;
        for (uint32_t i = 0; i < n; ++i) {
            const scene::DrawRange& range = full.ranges[first + i];
            // Split each range into single triangles, keeping those at even triangle numbers
            // of the whole index buffer: no two kept ones touch.
            for (uint32_t t = 0; t + 3 <= range.count; t += 3) {
                const uint32_t first_index = range.first_index + t;
                if ((first_index / 3) % 2 != 0)
                    continue;
                list.ranges.push_back({first_index, 3});
                ++batch.num_ranges;
            }
        }
    }
    ASSERT_GT(list.ranges.size(), 5000u);
    render::RenderOptions ro;
    ro.style_values = scene::lightStyleValues(0.0);
    std::vector<uint8_t> images[2];
    for (int i = 0; i < 2; ++i) {
        ro.draw_path = i == 0 ? render::DrawPath::Indirect : render::DrawPath::Fallback;
        target.bind();
        for (int f = 0; f < 3; ++f)
            r.draw(list, *cam, ro);
        images[i] = target.readPixels();
        EXPECT_EQ(r.submitStats().ranges_drawn, r.submitStats().ranges_appended);
    }
    EXPECT_TRUE(images[0] == images[1]) << "indirect and fallback images differ";
}

// Materials with identical images share one GL texture: aq_urbanjungle names about 100
// textures from 1,460 materials (one per texinfo).
TEST_F(Submit, IdenticalImagesShareOneTexture) {
    auto loaded = scene::loadMapBundle(std::string(BSPV_SHARED_MAPS_DIR) + "/q2/aq_urbanjungle.bsp",
                                       scene::LoadSettings());
    ASSERT_TRUE(loaded.ok()) << loaded.error().message();
    const scene::MapBundle& b = **loaded;
    // Distinct images (and glows), by source name and a hash of size and content (the
    // renderer looks for twins among images of the same source).
    const auto hash = [](const content::Image& img) {
        uint64_t h = 1469598103934665603ull ^ static_cast<uint64_t>(img.width) << 32 ^
                     static_cast<uint64_t>(img.height);
        for (const uint8_t v : img.rgba)
            h = (h ^ v) * 1099511628211ull;
        return h;
    };
    std::set<std::pair<std::string, uint64_t>> distinct;
    for (const content::TextureInfo& t : b.textures) {
        distinct.insert({t.source, hash(t.image)});
        if (t.glow.valid())
            distinct.insert({t.source + "/glow", hash(t.glow)});
    }
    render::WorldRenderer r;
    std::string error;
    ASSERT_TRUE(r.init(render::GlslLibrary(), &error)) << error;
    ASSERT_TRUE(render::uploadBundle(r, b).ok());
    EXPECT_LT(r.gpuStats().textures, b.textures.size() / 4);
    EXPECT_LE(r.gpuStats().textures, distinct.size());
    EXPECT_EQ(r.gpuStats().textures, distinct.size());
}

} // namespace
