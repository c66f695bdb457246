// Quake 3 shader stages on a real GL context: the colour each stage adds, the order blended
// surfaces are drawn in, alpha tests, animated texture coordinates and the per-stage toggles.
// Each test builds a tiny map in memory (quads facing the camera) and a shader script, so the
// expected pixel values can be worked out by hand from ioquake3's rules.
#include "content/material/q3_shader.h"
#include "content/material/shader_library.h"
#include "gl_fixture.h"
#include "render/world_renderer.h"
#include "render/world_upload.h"
#include "scene/load/map_bundle.h"
#include "scene/view/visibility.h"
#include "scene/world/material_stages.h"
#include "support/map_builder.h"

#include <gtest/gtest.h>
#include <string>
#include <string_view>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace {

constexpr int kW = 64, kH = 64;

struct Quad {
    std::string material;
    float x;        // distance in front of the camera (the camera looks along +X)
    float half;     // half size
    float y = 0.0f; // centre, sideways (+Y is to the camera's left)
};

// A Quake 3 map and whether its lighting rule has ioquake3's overbright (game::LightRule).
struct QuadMap {
    bsp::Map map;
    bool overbright = false;
};

// Quads facing a camera at the origin looking along +X, wound clockwise as seen from it (the
// Quake 3 front side), all in one leaf of cluster 0 with no vis data.
QuadMap quadMap(const std::vector<Quad>& quads, bool overbright) {
    bsp::Map m;
    m.format = bsp::Format::Quake3;
    for (const Quad& q : quads) {
        bsp::Face f;
        f.material = testsupport::materialNamed(m, q.material);
        // (y, z) corners: top-left, top-right, bottom-right, bottom-left on screen.
        const float c[4][2] = {{1, 1}, {-1, 1}, {-1, -1}, {1, -1}};
        const float st[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
        std::array<bsp::Vertex, 4> v{};
        for (size_t k = 0; k < 4; ++k) {
            v[k].position = glm::vec3(q.x, q.y + c[k][0] * q.half, c[k][1] * q.half);
            v[k].uv = glm::vec2(st[k][0], st[k][1]);
            v[k].normal = glm::vec3(-1, 0, 0);
        }
        testsupport::addQuadVertices(m, v, f);
    }
    testsupport::addWorldLeaf(m, glm::vec3(-1000.0f), glm::vec3(1000.0f));
    return {std::move(m), overbright};
}

content::Image solid(int w, int h, auto colourAt) {
    content::Image img;
    img.width = w;
    img.height = h;
    img.rgba.resize(static_cast<size_t>(w * h) * 4);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const std::array<uint8_t, 4> c = colourAt(x, y);
            std::copy(c.begin(), c.end(), &img.rgba[static_cast<size_t>((y * w + x) * 4)]);
        }
    return img;
}

// A bundle as loadMapBundle would build it, from a map and a shader script; stage images
// named in `images` get those pixels (the rest stay missing: the checker).
std::unique_ptr<scene::MapBundle>
stagedBundle(QuadMap map, const std::string& script,
             const std::vector<std::pair<std::string, content::Image>>& images = {}) {
    auto b = std::make_unique<scene::MapBundle>();
    b->map = std::move(map.map);
    b->profile = game::profileFor(b->map);
    b->profile.rules.light.overbright = map.overbright ? 1 : 0;
    b->shaders.addScript(content::parseShaderScript(script, "scripts/test.shader"));
    b->materials = scene::resolveMaterials(b->map, &b->shaders);
    b->fs = std::make_unique<content::FileSystem>();
    b->stages = scene::buildMaterialStages(b->map, b->materials, b->shaders, *b->fs);
    for (scene::StageImage& img : b->stages.images)
        for (const auto& [name, pixels] : images)
            if (img.name == name) {
                img.image = pixels;
                img.missing = false;
            }
    for (size_t i = 0; i < b->map.materials.size(); ++i) {
        content::TextureInfo t;
        t.image = solid(1, 1, [](int, int) { return std::array<uint8_t, 4>{255, 255, 255, 255}; });
        t.missing = false;
        b->textures.push_back(std::move(t));
    }
    b->mesh = scene::buildWorldMesh(b->map, b->materials);
    return b;
}

class Stages : public gltest::GlFixture {
protected:
    void upload(std::unique_ptr<scene::MapBundle> bundle) {
        m_bundle = std::move(bundle);
        m_renderer = std::make_unique<render::WorldRenderer>();
        std::string error;
        ASSERT_TRUE(m_renderer->init(render::GlslLibrary(), &error)) << error;
        const core::Status st = render::uploadBundle(*m_renderer, *m_bundle);
        ASSERT_TRUE(st.ok()) << (st.ok() ? "" : st.error().message());
        ASSERT_TRUE(m_target.create(kW, kH, &error)) << error;
    }

    std::vector<uint8_t> render(double time = 0.0, bool stages = true, bool fold = true,
                                bool hardware_gamma = true) {
        scene::Camera cam;
        cam.aspect = 1.0f;
        scene::Visibility vis(m_bundle->map, m_bundle->mesh);
        scene::DrawList list;
        vis.update(cam, {}, list);
        m_target.bind();
        render::RenderOptions ro;
        ro.clear_colour = glm::vec4(0.0f, 0.0f, 0.0f, 1.0f);
        ro.time = time;
        ro.shader_stages = stages;
        ro.fold_stages = fold;
        ro.hardware_gamma = hardware_gamma;
        ro.flares = false;
        ro.style_values = scene::lightStyleValues(0.0);
        m_renderer->draw(list, cam, ro);
        return m_target.readPixels();
    }

    std::array<int, 3> centre(const std::vector<uint8_t>& img, int x = kW / 2, int y = kH / 2) {
        const uint8_t* p = gltest::pixelAt(img, kW, x, y);
        return {p[0], p[1], p[2]};
    }

    std::unique_ptr<scene::MapBundle> m_bundle;
    std::unique_ptr<render::WorldRenderer> m_renderer;
    render::RenderTarget m_target;
};

void expectNear(const std::array<int, 3>& got, const std::array<int, 3>& want, int tolerance,
                const char* what) {
    for (int c = 0; c < 3; ++c)
        EXPECT_NEAR(got[static_cast<size_t>(c)], want[static_cast<size_t>(c)], tolerance)
            << what << ": channel " << c << " is " << got[0] << " " << got[1] << " " << got[2];
}

const char* kThreeStages = R"(
textures/test/three
{
    { map $whiteimage rgbGen const ( 0.2 0.2 0.2 ) }
    { map $whiteimage rgbGen const ( 0.3 0 0 ) blendFunc add }
    { map $whiteimage rgbGen const ( 0.5 0.5 0.5 ) blendFunc filter }
}
)";

} // namespace

// Without overbright, the frame holds exactly what the stages blend to: (0.2 + 0.3, 0.2, 0.2)
// times 0.5.
TEST_F(Stages, StagesBlendInOrderWithoutOverbright) {
    upload(stagedBundle(quadMap({{"textures/test/three", 100.0f, 200.0f}}, false), kThreeStages));
    expectNear(centre(render()), {64, 26, 26}, 2, "three stages");
}

// With ioquake3's overbright (fullscreen, r_overBrightBits 1) the gamma ramp doubles the frame:
// ioquake3 blends to (0.25, 0.1, 0.1) and shows twice that.
TEST_F(Stages, OverbrightDoublesTheBlendedFrame) {
    upload(stagedBundle(quadMap({{"textures/test/three", 100.0f, 200.0f}}, true), kThreeStages));
    expectNear(centre(render()), {128, 51, 51}, 2, "three stages, overbright");
}

// The doubling happens once per frame, not once per stage (issue 15, oa_thor's
// textures/base_wall/bluemetalsupport2e): ioquake3 draws each stage at identityLight into its
// 8-bit framebuffer and the gamma ramp doubles the finished frame (tr_image.c
// R_SetColorMappings). A texel of 102 drawn, the same texel added (204: 0.8, more than the
// shown 1.0 halved), then the lightmap as a filter: a luxel of 64 shifted left once is 128, so
// 204 * 128 / 255 = 102.4 -> 102 in the framebuffer, shown as 204. Doubling each adding stage
// instead clamps the sum at 255 before the filter: 255 * 128 / 255 = 128.
TEST_F(Stages, OverbrightDoublesOncePerFrame) {
    const char* script = R"(
textures/test/chrome
{
    { map textures/test/grey.tga }
    { map textures/test/grey.tga blendFunc add }
    { map $lightmap blendFunc filter }
}
)";
    QuadMap quads = quadMap({{"textures/test/chrome", 100.0f, 200.0f}}, true);
    bsp::Map& m = quads.map;
    m.lightmap_width = 8;
    m.lightmap_height = 8;
    m.lightmap_pages.push_back({std::vector<uint8_t>(8 * 8 * 3, 64)});
    m.faces[0].lightmap_page = 0;
    m.faces[0].lightmap_rect = {0, 0, 4, 4};
    for (bsp::Vertex& v : m.vertices)
        v.lm_uv = {0.25f, 0.25f};
    const content::Image grey = solid(1, 1, [](int, int) {
        return std::array<uint8_t, 4>{102, 102, 102, 255};
    });
    upload(stagedBundle(std::move(quads), script, {{"textures/test/grey.tga", grey}}));
    for (bool fold : {true, false}) {
        const std::array<int, 3> got = centre(render(0.0, true, fold));
        EXPECT_EQ(got, (std::array<int, 3>{204, 204, 204})) << (fold ? "folded" : "per stage");
    }
}

// Without the display's gamma ramp (windowed, or a driver without one: tr.overbrightBits 0,
// --no-hardware-gamma) ioquake3 draws rgbGen identity at identityLight 1 and shifts vertex
// colours and luxels left by two (tr_bsp.c R_ColorShiftLightingBytes), a colour passing 255
// scaled down by its largest channel, and the framebuffer is shown as drawn. rgbGen vertex
// (tr_shade.c ComputeColors, CGEN_VERTEX: the colour times identityLight) of a vertex colour
// (100, 50, 25): (400, 200, 100) scaled by 255 / 400 = (255, 128, 64) without the ramp; with
// it (200, 100, 50) halved and shown doubled, (200, 100, 50): the hue-keeping clamp darkens
// only the picture without the ramp. A white identity stage: 255 without the ramp,
// identityLightByte 127 doubled to 254 with it.
TEST_F(Stages, NoHardwareGammaShiftsTheLightByTwo) {
    const char* script = R"(
textures/test/vertex
{
    { map $whiteimage rgbGen vertex }
}
textures/test/white
{
    { map $whiteimage }
}
)";
    struct Case {
        const char* material;
        std::array<int, 3> without_ramp, with_ramp;
    };
    for (const Case& c : {Case{"textures/test/vertex", {255, 128, 64}, {200, 100, 50}},
                          Case{"textures/test/white", {255, 255, 255}, {254, 254, 254}}}) {
        QuadMap quads = quadMap({{c.material, 100.0f, 200.0f}}, true);
        for (bsp::Vertex& v : quads.map.vertices)
            v.colour = {100, 50, 25, 255};
        upload(stagedBundle(std::move(quads), script));
        for (bool fold : {true, false}) {
            const std::string what = std::string(c.material) + (fold ? " folded" : " per stage");
            expectNear(centre(render(0.0, true, fold, false)), c.without_ramp, 1,
                       (what + ", no gamma ramp").c_str());
            expectNear(centre(render(0.0, true, fold, true)), c.with_ramp, 1,
                       (what + ", gamma ramp").c_str());
        }
    }
}

// The overlay's per-stage toggles: without the additive stage only 0.2 x 0.5 remains.
TEST_F(Stages, DisabledStageIsSkipped) {
    upload(stagedBundle(quadMap({{"textures/test/three", 100.0f, 200.0f}}, false), kThreeStages));
    EXPECT_TRUE(m_renderer->stageEnabled(0, 1));
    m_renderer->setStageEnabled(0, 1, false);
    EXPECT_FALSE(m_renderer->stageEnabled(0, 1));
    expectNear(centre(render()), {26, 26, 26}, 2, "additive stage off");
    m_renderer->setStageEnabled(0, 1, true);
    expectNear(centre(render()), {64, 26, 26}, 2, "additive stage back on");
}

// Two half-transparent quads, red in front of blue. With the same sort they are drawn back to
// front (red ends on top); a lower `sort` on the near one draws it first, so blue ends on top.
TEST_F(Stages, BlendedSurfacesFollowSortThenDistance) {
    const auto script = [](const std::string& near_sort) {
        return "textures/test/red\n{\n" + near_sort +
               "\n { map $whiteimage rgbGen const ( 1 0 0 ) alphaGen const 0.5 blendFunc blend "
               "}\n}\n"
               "textures/test/blue\n{\n { map $whiteimage rgbGen const ( 0 0 1 ) alphaGen "
               "const 0.5 blendFunc blend }\n}\n";
    };
    const std::vector<Quad> quads = {{"textures/test/red", 100.0f, 200.0f},
                                     {"textures/test/blue", 200.0f, 400.0f}};
    upload(stagedBundle(quadMap(quads, false), script("")));
    // blue over black: (0, 0, 0.5); red over that: (0.5, 0, 0.25).
    expectNear(centre(render()), {128, 0, 64}, 2, "back to front");

    upload(stagedBundle(quadMap(quads, false), script("sort banner")));
    // red first: (0.5, 0, 0); blue over it: (0.25, 0, 0.5).
    expectNear(centre(render()), {64, 0, 128}, 2, "near quad sorted first");
}

// alphaFunc GE128 cuts out texels with alpha below one half; the cut-out shows what is behind.
TEST_F(Stages, AlphaFuncCutsOutTexels) {
    const char* script = R"(
textures/test/grate
{
    { map textures/test/half.tga alphaFunc GE128 rgbGen identity }
}
textures/test/back
{
    { map $whiteimage rgbGen const ( 0 0 1 ) }
}
)";
    // Left half of the texture opaque white, right half transparent.
    const content::Image half = solid(8, 8, [](int x, int) {
        return x < 4 ? std::array<uint8_t, 4>{255, 255, 255, 255}
                     : std::array<uint8_t, 4>{255, 255, 255, 0};
    });
    upload(stagedBundle(
        quadMap({{"textures/test/grate", 100.0f, 200.0f}, {"textures/test/back", 300.0f, 1000.0f}},
                false),
        script, {{"textures/test/half.tga", half}}));
    const auto img = render();
    // The texture's s runs from the camera's left (screen left) to its right.
    expectNear(centre(img, kW / 4, kH / 2), {255, 255, 255}, 2, "opaque texels");
    expectNear(centre(img, 3 * kW / 4, kH / 2), {0, 0, 255}, 2, "cut-out texels");
}

// tcMod scroll moves the texture by its speed times the time: half a repeat at t = 0.5 swaps a
// texture's left and right halves; animMap switches frames at its frequency.
TEST_F(Stages, ScrollAndAnimMapFollowTheTime) {
    const char* script = R"(
textures/test/scroll
{
    { map textures/test/lr.tga tcMod scroll 1 0 rgbGen identity }
}
textures/test/anim
{
    { animMap 2 textures/test/red.tga textures/test/green.tga rgbGen identity }
}
)";
    const content::Image lr = solid(8, 8, [](int x, int) {
        return x < 4 ? std::array<uint8_t, 4>{255, 0, 0, 255}
                     : std::array<uint8_t, 4>{0, 0, 255, 255};
    });
    const content::Image red = solid(1, 1, [](int, int) {
        return std::array<uint8_t, 4>{255, 0, 0, 255};
    });
    const content::Image green = solid(1, 1, [](int, int) {
        return std::array<uint8_t, 4>{0, 255, 0, 255};
    });
    upload(stagedBundle(quadMap({{"textures/test/scroll", 100.0f, 50.0f, 50.0f},
                                 {"textures/test/anim", 100.0f, 50.0f, -50.0f}},
                                false),
                        script,
                        {{"textures/test/lr.tga", lr},
                         {"textures/test/red.tga", red},
                         {"textures/test/green.tga", green}}));
    // The scrolling quad spans the left half of the image; sample a quarter into it.
    const int sx = kW / 8, sy = kH / 2, ax = 3 * kW / 4;
    const auto t0 = render(0.0), t1 = render(0.5), t2 = render(0.75);
    expectNear(centre(t0, sx, sy), {255, 0, 0}, 4, "scroll t=0");
    expectNear(centre(t1, sx, sy), {0, 0, 255}, 4, "scroll t=0.5");
    expectNear(centre(t0, ax, sy), {255, 0, 0}, 2, "animMap frame 0");
    expectNear(centre(t1, ax, sy), {0, 255, 0}, 2, "animMap frame 1 at 2 Hz");
    expectNear(centre(t2, ax, sy), {0, 255, 0}, 2, "animMap still frame 1");
    // With stages off the single-texture path draws the material's texture (white here).
    expectNear(centre(render(0.5, false), ax, sy), {255, 255, 255}, 2, "stages off");
}

// Neighbouring blended faces of one material (in back-to-front order) share a batch, so a
// window of many faces costs one draw per stage; the blend result is the same as face by face.
// Faces in different fog volumes stay apart (their stages fade by their own fog).
TEST_F(Stages, BlendedNeighboursOfOneMaterialShareABatch) {
    const char* script = R"(
textures/test/red
{ { map $whiteimage rgbGen const ( 1 0 0 ) alphaGen const 0.5 blendFunc blend } }
textures/test/blue
{ { map $whiteimage rgbGen const ( 0 0 1 ) alphaGen const 0.5 blendFunc blend } }
)";
    const std::vector<Quad> quads = {{"textures/test/red", 100.0f, 200.0f},
                                     {"textures/test/blue", 200.0f, 400.0f},
                                     {"textures/test/blue", 300.0f, 600.0f}};
    upload(stagedBundle(quadMap(quads, false), script));
    scene::Camera cam;
    cam.aspect = 1.0f;
    scene::Visibility vis(m_bundle->map, m_bundle->mesh);
    scene::DrawList list;
    vis.update(cam, {}, list);
    ASSERT_EQ(list.batches.size(), 2u);
    EXPECT_EQ(list.batches[0].num_faces, 2u) << "the two blue quads, far one first";
    EXPECT_EQ(list.batches[1].num_faces, 1u);
    // Blue twice over black: 0.5 then 0.75; red over that: (0.5, 0, 0.375).
    expectNear(centre(render()), {128, 0, 96}, 2, "blend order kept");

    bsp::Map fogged = m_bundle->map; // with the shader flags applied
    fogged.faces[2].fog = 0;         // the far blue quad in a fog: its own batch
    scene::WorldMesh mesh = scene::buildWorldMesh(fogged);
    scene::Visibility vis2(fogged, mesh);
    vis2.update(cam, {}, list);
    EXPECT_EQ(list.batches.size(), 3u);
}

// Stage folding (scene::foldableRun): a run that starts with a stage replacing the frame is
// blended in one program. It must draw what one pass per stage draws, in fewer draws.
TEST_F(Stages, FoldedStagesMatchOnePassPerStage) {
    for (bool overbright : {false, true}) {
        upload(stagedBundle(quadMap({{"textures/test/three", 100.0f, 200.0f}}, overbright),
                            kThreeStages));
        const auto separate = centre(render(0.0, true, false));
        EXPECT_EQ(m_renderer->stageDraws(), 3u);
        const auto folded = centre(render(0.0, true, true));
        EXPECT_EQ(m_renderer->stageDraws(), 1u) << "three stages, one program";
        expectNear(folded, separate, 1, overbright ? "overbright" : "no overbright");
    }
}

// Later stages fold with every blendFunc and their alphaFunc: texels failing it leave the
// frame as it was (a discard in the pass of their own), on both halves of the face.
TEST_F(Stages, FoldedAlphaFuncAndBlendFactorsMatch) {
    const char* script = R"(
textures/test/mix
{
    { map textures/test/half.tga rgbGen const ( 0.6 0.2 0.1 ) alphaGen const 0.8 }
    { map textures/test/half.tga alphaFunc GE128 rgbGen const ( 0.1 0.5 0.2 ) blendFunc add }
    { map $whiteimage rgbGen const ( 0.2 0.4 0.9 ) alphaGen const 0.25 blendFunc GL_SRC_ALPHA GL_ONE_MINUS_SRC_ALPHA }
    { map $whiteimage rgbGen const ( 0.5 0.9 0.3 ) blendFunc GL_DST_ALPHA GL_ONE_MINUS_DST_COLOR }
    { map $whiteimage rgbGen const ( 0.7 0.7 0.7 ) blendFunc GL_DST_COLOR GL_SRC_COLOR }
}
)";
    const content::Image half = solid(8, 8, [](int x, int) {
        return x < 4 ? std::array<uint8_t, 4>{255, 255, 255, 255}
                     : std::array<uint8_t, 4>{255, 255, 255, 0};
    });
    for (bool overbright : {false, true}) {
        upload(stagedBundle(quadMap({{"textures/test/mix", 100.0f, 200.0f}}, overbright), script,
                            {{"textures/test/half.tga", half}}));
        const auto separate = render(0.0, true, false);
        EXPECT_EQ(m_renderer->stageDraws(), 5u);
        const auto folded = render(0.0, true, true);
        EXPECT_EQ(m_renderer->stageDraws(), 1u);
        // The framebuffer's unorm8 blend rounds its products its own way (up to 1 per stage
        // here), and the last stage doubles what is there; with overbright the display ramp
        // doubles the frame, and the difference with it.
        for (int x : {kW / 4, 3 * kW / 4})
            expectNear(centre(folded, x, kH / 2), centre(separate, x, kH / 2), overbright ? 4 : 2,
                       x < kW / 2 ? "alphaFunc passes" : "alphaFunc fails");
        // The two halves differ (the add stage counts on one only), so the test can fail.
        EXPECT_NE(centre(folded, kW / 4, kH / 2), centre(folded, 3 * kW / 4, kH / 2));
    }
}

// A first stage that cuts texels out shows what is behind on them; a later lequal stage draws
// there too (over what is behind), so it is not folded; a later depthFunc equal stage is.
TEST_F(Stages, AlphaTestedFirstStageFoldsOnlyEqualStages) {
    const auto script = [](const char* depth_func) {
        return std::string("textures/test/grate\n{\n"
                           " { map textures/test/half.tga alphaFunc GE128 rgbGen identity }\n"
                           " { map $whiteimage rgbGen const ( 0 0.5 0 ) blendFunc add ") +
               depth_func +
               " }\n}\n"
               "textures/test/back\n{\n { map $whiteimage rgbGen const ( 0 0 1 ) }\n}\n";
    };
    const content::Image half = solid(8, 8, [](int x, int) {
        return x < 4 ? std::array<uint8_t, 4>{255, 0, 0, 255}
                     : std::array<uint8_t, 4>{255, 0, 0, 0};
    });
    const std::vector<Quad> quads = {{"textures/test/grate", 100.0f, 200.0f},
                                     {"textures/test/back", 300.0f, 1000.0f}};
    for (const char* depth_func : {"", "depthFunc equal"}) {
        upload(stagedBundle(quadMap(quads, false), script(depth_func),
                            {{"textures/test/half.tga", half}}));
        const bool equal = *depth_func != 0;
        const auto separate = render(0.0, true, false);
        const uint32_t separate_draws = m_renderer->stageDraws();
        const auto folded = render(0.0, true, true);
        EXPECT_EQ(m_renderer->stageDraws(), separate_draws - (equal ? 1u : 0u)) << depth_func;
        expectNear(centre(folded, kW / 4, kH / 2), centre(separate, kW / 4, kH / 2), 1,
                   "kept texels");
        expectNear(centre(folded, 3 * kW / 4, kH / 2), centre(separate, 3 * kW / 4, kH / 2), 1,
                   "cut-out texels");
        // lequal: the green add lands on the blue quad behind the cut-out texels.
        expectNear(centre(folded, 3 * kW / 4, kH / 2), {0, equal ? 0 : 128, 255}, 2, depth_func);
    }
}

// A sky's cloud layer blended over the sky's flat colour (no far box, no sky texture): drawn
// in one program with the colour under it instead of two passes, the same image.
TEST_F(Stages, SkyCloudLayerFoldsOverItsBase) {
    const char* script = R"(
textures/test/sky
{
    surfaceparm sky
    skyparms - 512 -
    { map textures/test/cloud.tga blendFunc add rgbGen identity }
}
)";
    const content::Image cloud = solid(4, 4, [](int x, int) {
        return x < 2 ? std::array<uint8_t, 4>{60, 30, 0, 255}
                     : std::array<uint8_t, 4>{0, 40, 90, 255};
    });
    upload(stagedBundle(quadMap({{"textures/test/sky", 100.0f, 200.0f}}, false), script,
                        {{"textures/test/cloud.tga", cloud}}));
    m_bundle->textures[0].missing = true; // no sky texture: the flat colour
    upload(std::move(m_bundle));
    const auto separate = render(0.0, true, false);
    const uint32_t separate_calls = m_renderer->submitStats().draw_calls;
    const auto folded = render(0.0, true, true);
    EXPECT_EQ(m_renderer->submitStats().draw_calls, separate_calls - 1) << "no base pass";
    const auto plain = render(0.0, false);
    int compared = 0, differ = 0;
    for (int y = 4; y < kH; y += 8)
        for (int x = 4; x < kW; x += 8) {
            expectNear(centre(folded, x, y), centre(separate, x, y), 1, "sky");
            differ += centre(folded, x, y) != centre(plain, x, y) ? 1 : 0;
            ++compared;
        }
    EXPECT_GT(differ, compared / 2) << "the cloud layer shows";
}

// Additive stages on a blended surface fold into one pass that adds their sum to the frame:
// the framebuffer clamps min(frame + a + b, 1) the same either way, and a stage's texels that
// fail its alphaFunc add nothing.
TEST_F(Stages, AdditiveStagesFoldIntoOnePass) {
    const char* script = R"(
textures/test/glow
{
    { map $whiteimage rgbGen const ( 0.7 0.1 0 ) blendFunc add }
    { map $whiteimage rgbGen const ( 0.6 0.4 0 ) alphaGen const 0.5 blendFunc GL_SRC_ALPHA GL_ONE }
    { map textures/test/half.tga alphaFunc GE128 rgbGen const ( 0 0.2 0.1 ) blendFunc add }
}
textures/test/back
{
    { map $whiteimage rgbGen const ( 0 0 0.5 ) }
}
)";
    const content::Image half = solid(8, 8, [](int x, int) {
        return x < 4 ? std::array<uint8_t, 4>{255, 255, 255, 255}
                     : std::array<uint8_t, 4>{255, 255, 255, 0};
    });
    upload(stagedBundle(
        quadMap({{"textures/test/glow", 100.0f, 200.0f}, {"textures/test/back", 300.0f, 1000.0f}},
                false),
        script, {{"textures/test/half.tga", half}}));
    const auto separate = render(0.0, true, false);
    EXPECT_EQ(m_renderer->stageDraws(), 4u);
    const auto folded = render(0.0, true, true);
    EXPECT_EQ(m_renderer->stageDraws(), 2u) << "the back quad, then the three additive stages";
    // Red saturates (0.7 + 0.3); green 0.1 + 0.2 (+ 0.2 where the texel passes); blue 0.5.
    expectNear(centre(folded, kW / 4, kH / 2), {255, 128, 153}, 2, "alphaFunc passes");
    expectNear(centre(folded, 3 * kW / 4, kH / 2), {255, 77, 128}, 2, "alphaFunc fails");
    for (int x : {kW / 4, 3 * kW / 4})
        expectNear(centre(folded, x, kH / 2), centre(separate, x, kH / 2), 1, "folded vs passes");
}

// Additive faces of two materials interleaved back to front regroup into one batch per
// material (scene::VisOptions::commute_blends), but never across an alpha-blended face: the
// glass darkens what is behind it and must stay between the faces behind and in front.
TEST_F(Stages, AdditiveFacesRegroupButNotAcrossGlass) {
    const char* script = R"(
textures/test/addred
{ { map $whiteimage rgbGen const ( 0.25 0 0 ) blendFunc add } }
textures/test/addgreen
{ { map $whiteimage rgbGen const ( 0 0.25 0 ) blendFunc add } }
textures/test/glass
{ { map $whiteimage rgbGen const ( 0 0 1 ) alphaGen const 0.5 blendFunc blend } }
)";
    const std::vector<Quad> quads = {{"textures/test/addred", 500.0f, 1000.0f},
                                     {"textures/test/glass", 400.0f, 900.0f},
                                     {"textures/test/addgreen", 350.0f, 700.0f},
                                     {"textures/test/addred", 300.0f, 600.0f},
                                     {"textures/test/addgreen", 250.0f, 500.0f}};
    upload(stagedBundle(quadMap(quads, false), script));
    scene::Camera cam;
    cam.aspect = 1.0f;
    scene::Visibility vis(m_bundle->map, m_bundle->mesh);
    scene::DrawList list;
    vis.update(cam, {}, list);
    ASSERT_EQ(list.batches.size(), 4u);
    const std::vector<uint32_t> faces = {1, 1, 2, 1}; // red | glass | green green, red
    for (size_t i = 0; i < faces.size(); ++i)
        EXPECT_EQ(list.batches[i].num_faces, faces[i]) << i;
    EXPECT_EQ(m_bundle->map.materials[static_cast<size_t>(list.batches[1].material)].name,
              "textures/test/glass");
    // Red 0.25, halved by the glass under its blue 0.5, then green twice and red once more:
    // (0.125 + 0.25, 0.5, 0.5).
    expectNear(centre(render()), {96, 128, 128}, 2, "additive faces in front of the glass");
}
