// Source texture matrices in the world shader (content::TextureMotion, world.vert.glsl): the
// base texture's coordinates move by $basetexturetransform, the normal map's by $bumptransform
// and neither by the other's (lightmappedgeneric_vs20.fxc: cBaseTexCoordTransform,
// cDetailOrBumpTexCoordTransform), and a TextureScroll proxy moves them with the viewer's clock
// (Mesa llvmpipe under xvfb-run). The floor (support/bump_fixture.h) is 64 units with u = x / 64,
// under the flat lightmap 100; the stripe texture is 4 x 1 texels, two red then two blue, so u in
// [0, .5) is red and [.5, 1) blue, and at u = .25 and .75 (x = 16 and 48, between two texels of
// one colour) the filtered colour is that colour alone.
#include "content/image/image.h"
#include "content/image/vtf.h"
#include "content/material/vmt.h"
#include "gl_fixture.h"
#include "render/glsl_library.h"
#include "render/programs.h"
#include "render_world.h"
#include "scene/world/material_table.h"
#include "scene/world/world_mesh.h"
#include "support/bump_fixture.h"
#include "support/vtf_builder.h"

#include <glm/mat4x4.hpp>
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>

namespace {

constexpr int kW = 320, kH = 180;
constexpr int kFlat = testsupport::kBumpFlat;
using Rgb = std::array<int, 3>;
const Rgb kRed{kFlat, 0, 0}, kBlue{0, 0, kFlat};

// Four texels in a row, the first two `a`, the last two `b`.
content::Image stripe(std::array<uint8_t, 3> a, std::array<uint8_t, 3> b) {
    content::Image img;
    img.width = 4;
    img.height = 1;
    for (int x = 0; x < 4; ++x) {
        const std::array<uint8_t, 3>& c = x < 2 ? a : b;
        img.rgba.insert(img.rgba.end(), {c[0], c[1], c[2], 255});
    }
    return img;
}

content::Image white() {
    return stripe({255, 255, 255}, {255, 255, 255});
}

scene::Camera topDown() {
    scene::Camera cam;
    cam.position = {32, 32, 64};
    cam.pitch = 90.0f;
    cam.yaw = 90.0f;
    cam.aspect = static_cast<float>(kW) / static_cast<float>(kH);
    cam.z_near = 1.0f;
    return cam;
}

// The colour at the floor point (x, y, 0).
Rgb colourAt(const std::vector<uint8_t>& pixels, float x, float y = 32.0f) {
    const glm::vec4 clip = topDown().viewProjection() * glm::vec4(x, y, 0.0f, 1.0f);
    const int column = static_cast<int>(std::floor((clip.x / clip.w * 0.5f + 0.5f) * kW));
    const int row = kH - 1 - static_cast<int>(std::floor((clip.y / clip.w * 0.5f + 0.5f) * kH));
    if (column < 0 || column >= kW || row < 0 || row >= kH || pixels.size() != kW * kH * 4u)
        return {-1, -1, -1}; // off the view: fails every comparison
    const size_t i = (static_cast<size_t>(row) * kW + static_cast<size_t>(column)) * 4;
    return {pixels[i], pixels[i + 1], pixels[i + 2]};
}

void expectNear(const Rgb& got, const std::array<float, 3>& want, const char* what) {
    for (size_t c = 0; c < 3; ++c)
        EXPECT_NEAR(got[c], want[c], 1.0f) << what << " channel " << c;
}

class TextureTransformRender : public gltest::GlFixture {
protected:
    // `black`: cleared to black instead of the default colour (a blended face over nothing).
    std::vector<uint8_t> render(const content::TextureInfo& texture, double time = 0.0,
                                bool black = false) {
        std::vector<content::TextureInfo> textures{texture};
        textures[0].missing = false;
        const bsp::Map map = testsupport::bumpFloor();
        const scene::WorldMesh mesh =
            scene::buildWorldMesh(map, scene::resolveMaterials(map, nullptr, textures));
        render::WorldSource source{map, mesh, textures};
        source.rules.light.lightmap_scale = 1.0f;
        render::RenderOptions options = testsupport::testRenderOptions();
        options.time = time;
        if (black)
            options.clear_colour = {0.0f, 0.0f, 0.0f, 1.0f};
        return testsupport::renderWorld(source, topDown(), kW, kH, options);
    }
};

content::TextureTransform translate(float u) {
    return content::centredTextureTransform({0.5f, 0.5f}, {1.0f, 1.0f}, 0.0f, {u, 0.0f});
}

} // namespace

TEST_F(TextureTransformRender, BaseTranslateOfHalfShowsTheOtherColour) {
    content::TextureInfo t;
    t.image = stripe({255, 0, 0}, {0, 0, 255});
    const std::vector<uint8_t> still = render(t);
    EXPECT_EQ(colourAt(still, 16.0f), kRed);
    EXPECT_EQ(colourAt(still, 48.0f), kBlue);
    // u' = u + .5: x = 16 reads u' = .75 (blue), x = 48 reads 1.25, repeated .25 (red).
    t.motion.base = translate(0.5f);
    const std::vector<uint8_t> moved = render(t);
    EXPECT_EQ(colourAt(moved, 16.0f), kBlue);
    EXPECT_EQ(colourAt(moved, 48.0f), kRed);
}

TEST_F(TextureTransformRender, BaseRotationTurnsTheStripeAcross) {
    // Rotate 90 about the centre: u' = 1 - v, v' = u, so the colour follows the floor's v
    // (y / 64), not x: at y = 16 (v = .25) u' = .75, blue, at y = 48 u' = .25, red, at any x.
    content::TextureInfo t;
    t.image = stripe({255, 0, 0}, {0, 0, 255});
    t.motion.base =
        content::centredTextureTransform({0.5f, 0.5f}, {1.0f, 1.0f}, 90.0f, {0.0f, 0.0f});
    const std::vector<uint8_t> px = render(t);
    for (const float x : {16.0f, 48.0f}) {
        EXPECT_EQ(colourAt(px, x, 16.0f), kBlue) << "x " << x;
        EXPECT_EQ(colourAt(px, x, 48.0f), kRed) << "x " << x;
    }
}

TEST_F(TextureTransformRender, BumpTransformMovesTheNormalMapAlone) {
    // A white base; the normal map's first half basis 0 (232, 128, 201: the red map, 240, alone
    // on the bump-lit half, x < 32), its second half flat (128, 128, 255: about a third of each
    // map; bump_render_test.cpp works both out).
    content::TextureInfo t;
    t.image = white();
    t.bump = stripe({232, 128, 201}, {128, 128, 255});
    const std::vector<uint8_t> still = render(t);
    expectNear(colourAt(still, 16.0f), {240.0f, 0.0f, 0.0f}, "basis 0");
    // $basetexturetransform moves the base texture only: the normal map stays.
    t.motion.base = translate(0.5f);
    expectNear(colourAt(render(t), 16.0f), {240.0f, 0.0f, 0.0f}, "base moved, bump not");
    // $bumptransform moves the normal map: x = 16 reads its flat half.
    t.motion.base = {};
    t.motion.bump = translate(0.5f);
    const Rgb flat = colourAt(render(t), 16.0f);
    for (size_t c = 0; c < 3; ++c)
        EXPECT_NEAR(flat[c], 80.0f, 2.0f) << "flat normal, channel " << c;
}

TEST_F(TextureTransformRender, TextureScrollFollowsTheClock) {
    // TextureScroll at rate .25 along u (angle 0): offset .25 t, so at t = 0 nothing moves and at
    // t = 2 s the offset is .5, the stripe's other colour; at t = 6 s it is 1.5, wrapped to .5.
    content::TextureInfo t;
    t.image = stripe({255, 0, 0}, {0, 0, 255});
    t.motion.base_scroll = {true, 0.25f, 0.0f, 1.0f};
    const std::vector<uint8_t> at0 = render(t, 0.0);
    EXPECT_EQ(colourAt(at0, 16.0f), kRed);
    EXPECT_EQ(colourAt(at0, 48.0f), kBlue);
    const std::vector<uint8_t> at2 = render(t, 2.0);
    EXPECT_EQ(colourAt(at2, 16.0f), kBlue);
    EXPECT_EQ(colourAt(at2, 48.0f), kRed);
    EXPECT_EQ(colourAt(render(t, 6.0), 16.0f), kBlue);
    // The proxy replaces the written matrix: a base translate of .5 under it changes nothing.
    t.motion.base = translate(0.5f);
    EXPECT_EQ(colourAt(render(t, 0.0), 16.0f), kRed);
}

TEST_F(TextureTransformRender, EveryBumpVariantCompilesWithAndWithoutMotion) {
    // BUMP_MOTION with each way the normal map is read: $ssbump, the reflection about its normal
    // and each mask, in the lit and lightmap views; and the uniforms it sets are there.
    render::ProgramCache cache;
    std::string error;
    ASSERT_TRUE(cache.init(render::GlslLibrary(), &error)) << error;
    int compiled = 0;
    for (const render::ViewMode view : {render::ViewMode::Lit, render::ViewMode::Lightmap})
        for (int bits = 0; bits < 32; ++bits) {
            render::WorldVariant v;
            v.view = view;
            v.bump = true;
            v.ssbump = (bits & 1) != 0;
            v.envmap = (bits & 2) != 0;
            v.envmap_mask = v.envmap && (bits & 4) != 0;
            v.envmap_normal_alpha = v.envmap && (bits & 8) != 0;
            v.bump_motion = (bits & 16) != 0;
            const render::WorldProgram* p = cache.world(v);
            ASSERT_NE(p, nullptr) << "view " << static_cast<int>(view) << " bits " << bits;
            EXPECT_NE(p->uv_linear, -1);
            EXPECT_EQ(p->bump_linear != -1, v.bump_motion) << "bits " << bits;
            EXPECT_EQ(p->bump_offset != -1, v.bump_motion) << "bits " << bits;
            ++compiled;
        }
    EXPECT_EQ(compiled, 64);
}

// The AnimatedTexture proxy (content::TextureInfo::base_animation, CBaseAnimatedTextureProxy::
// OnBind): a 4 x 1 RGBA8888 VTF of three solid frames, red, green and blue, decoded by
// content::decodeVtfFrames, played at 4 frames a second. At t the floor shows frame
// floor(4 t) mod 3: t = 0 red, .3 s (1.2) green, .6 s (2.4) blue, .8 s (3.2) red, 2.6 s (10.4,
// 10 mod 3 = 1) green, under the flat lightmap 100 (kFlat).
TEST_F(TextureTransformRender, AnimatedTexturePlaysItsFramesWithTheClock) {
    const std::array<std::array<uint8_t, 3>, 3> colours = {
        std::array<uint8_t, 3>{255, 0, 0}, {0, 255, 0}, {0, 0, 255}};
    testsupport::VtfSpec spec;
    spec.width = 4;
    spec.frames = 3;
    std::vector<uint8_t> payload;
    for (const auto& c : colours)
        for (int x = 0; x < 4; ++x)
            payload.insert(payload.end(), {c[0], c[1], c[2], 255});
    auto frames = content::decodeVtfFrames(testsupport::makeVtf(spec, payload), "anim.vtf");
    ASSERT_TRUE(frames.ok()) << frames.error().message();
    ASSERT_EQ(frames->size(), 3u);
    content::TextureInfo t;
    t.image = (*frames)[0];
    t.base_frames = *frames;
    t.base_animation = {true, 4.0f, true};
    const Rgb kGreen{0, kFlat, 0};
    struct Case {
        double time;
        Rgb want;
    };
    for (const Case& c : {Case{0.0, kRed}, Case{0.3, kGreen}, Case{0.6, kBlue}, Case{0.8, kRed},
                          Case{2.6, kGreen}}) {
        const std::vector<uint8_t> px = render(t, c.time);
        EXPECT_EQ(colourAt(px, 16.0f), c.want) << "t " << c.time;
        EXPECT_EQ(colourAt(px, 48.0f), c.want) << "t " << c.time;
    }
    // animationNoWrap: the engine shows the last frame only on the bind at which the count
    // wrapped, then counts on from 0 (its start time stays 0); a drawn frame has no previous
    // bind, so .8 s is red as with wrapping.
    t.base_animation.wrap = false;
    EXPECT_EQ(colourAt(render(t, 0.8), 16.0f), kRed);
    EXPECT_EQ(colourAt(render(t, 0.6), 16.0f), kBlue);
    // Without the proxy the frames are not played: frame 0 at every time.
    t.base_animation = {};
    EXPECT_EQ(colourAt(render(t, 0.3), 16.0f), kRed);
}

// Source's number proxies (content::TextureInfo::proxies, content/material/material_proxy.h)
// run per batch at the viewer's clock: a Sine on $color[1] scales the lit colour's green (the
// engine's modulation colour, lightmappedgeneric_dx9_helper.cpp ComputeModulationColor into
// g_TintValuesAndLightmapScale), and a LinearRamp turning a TextureTransform's rotateVar turns
// the base texture.
namespace {

content::MaterialProxies proxiesOf(const std::string& vars, const std::string& proxies) {
    auto v = content::parseVmt("LightmappedGeneric { $basetexture t/a " + vars + " Proxies { " +
                                   proxies + " } }",
                               "materials/t/m.vmt");
    EXPECT_TRUE(v.ok() && v->warnings.empty());
    return v.ok() ? v->proxies : content::MaterialProxies();
}

} // namespace

TEST_F(TextureTransformRender, SineOnColourFollowsTheClock) {
    // A white texel under the flat lightmap 100 is (100, 100, 100); $color[1] = sin(2 pi t / 4)
    // / 2 + 1/2 scales the green: t = 1 s full (100), t = 3 s none, t = .5 s 50 + 50 sqrt(2) / 2.
    content::TextureInfo t;
    t.image = white();
    t.proxies = proxiesOf("", R"(Sine { resultVar "$color[1]" sinePeriod 4 })");
    ASSERT_FALSE(t.proxies.empty());
    for (const double time : {1.0, 3.0, 0.5}) {
        const float green = static_cast<float>(
            kFlat * (std::sin(2.0 * 3.14159265358979323846 * time / 4.0) * 0.5 + 0.5));
        const std::vector<uint8_t> px = render(t, time);
        for (const float x : {16.0f, 48.0f})
            expectNear(colourAt(px, x),
                       {static_cast<float>(kFlat), green, static_cast<float>(kFlat)},
                       ("t " + std::to_string(time)).c_str());
    }
    // The clock matters: t = 1 and t = 3 differ by the whole green.
    EXPECT_NE(colourAt(render(t, 1.0), 16.0f), colourAt(render(t, 3.0), 16.0f));
    // Without the proxy the colour stays white at every time.
    t.proxies = {};
    EXPECT_EQ(colourAt(render(t, 3.0), 16.0f), (Rgb{kFlat, kFlat, kFlat}));
}

TEST_F(TextureTransformRender, TextureTransformProxyTurnsWithTheClock) {
    // $r = 45 t degrees, about the centre: at t = 0 the stripe as drawn (red at x = 16, blue at
    // 48); at t = 2 s 90 degrees, the colour follows y (blue at y = 16, red at 48) as
    // BaseRotationTurnsTheStripeAcross; a written translate under the proxy changes nothing.
    content::TextureInfo t;
    t.image = stripe({255, 0, 0}, {0, 0, 255});
    t.proxies = proxiesOf("$r 0", R"(LinearRamp { resultVar $r rate 45 }
        TextureTransform { rotateVar $r resultVar $basetexturetransform })");
    t.motion.base = translate(0.5f);
    const std::vector<uint8_t> at0 = render(t, 0.0);
    EXPECT_EQ(colourAt(at0, 16.0f), kRed);
    EXPECT_EQ(colourAt(at0, 48.0f), kBlue);
    const std::vector<uint8_t> at2 = render(t, 2.0);
    for (const float x : {16.0f, 48.0f}) {
        EXPECT_EQ(colourAt(at2, x, 16.0f), kBlue) << "x " << x;
        EXPECT_EQ(colourAt(at2, x, 48.0f), kRed) << "x " << x;
    }
}

TEST_F(TextureTransformRender, SineOnAlphaBlendsATranslucentFaceWithTheClock) {
    // $alpha = sin(2 pi t / 4) / 2 + 1/2 scales the opacity of a translucent white face (lit
    // 100) over black: 100 alpha, so 100 at t = 1 s, 0 at t = 3 s, 50 + 50 sqrt 2 / 2 at .5 s. On
    // an opaque face $alpha is not drawn: 100 at every time.
    content::TextureInfo t;
    t.image = white();
    t.surface_flags = bsp::kSurfTranslucent;
    t.proxies = proxiesOf("", "Sine { resultVar $alpha sinePeriod 4 }");
    for (const double time : {1.0, 3.0, 0.5}) {
        const float alpha =
            static_cast<float>(std::sin(2.0 * 3.14159265358979323846 * time / 4.0) * 0.5 + 0.5);
        const float want = kFlat * alpha;
        expectNear(colourAt(render(t, time, true), 16.0f), {want, want, want},
                   ("t " + std::to_string(time)).c_str());
    }
    t.surface_flags = 0;
    expectNear(colourAt(render(t, 3.0, true), 16.0f),
               {static_cast<float>(kFlat), static_cast<float>(kFlat), static_cast<float>(kFlat)},
               "opaque");
}
