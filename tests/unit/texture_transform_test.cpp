// Source texture transforms ($basetexturetransform, $bumptransform) and the TextureScroll proxy
// (content/material/texture_transform.h, content::Vmt::motion): matrices worked out by hand from
// the engine's order (translate(-center), scale, rotate counter-clockwise, translate(center),
// translate) and from CTextureScrollMaterialProxy::OnBind.
#include "bsp/map.h"
#include "content/material/texture_transform.h"
#include "content/material/textures.h"
#include "content/material/vmt.h"
#include "support/vtf_builder.h"
#include "unit/content_test_util.h"

#include <gtest/gtest.h>

#include <array>
#include <string>

namespace {

using content::TextureTransform;

void expectMatrix(const TextureTransform& t, const std::array<float, 6>& want) {
    for (size_t i = 0; i < 6; ++i)
        EXPECT_NEAR(t.m[i], want[i], 1e-6f) << "element " << i;
}

content::Vmt vmtOf(const std::string& text) {
    auto v = content::parseVmt(text, "materials/t/m.vmt");
    EXPECT_TRUE(v.ok()) << v.error().message();
    return v.ok() ? *v : content::Vmt();
}

} // namespace

TEST(TextureTransform, DefaultStringIsTheIdentity) {
    const auto t = content::parseTextureTransform("center .5 .5 scale 1 1 rotate 0 translate 0 0");
    ASSERT_TRUE(t.has_value());
    EXPECT_TRUE(t->identity());
    EXPECT_TRUE(TextureTransform().identity());
}

TEST(TextureTransform, RotateNinetyAboutTheCentre) {
    // (u, v) - (.5, .5) turned 90 degrees counter-clockwise is (.5 - v, u - .5); plus the centre:
    // u' = 1 - v, v' = u.
    const auto t = content::parseTextureTransform("center .5 .5 scale 1 1 rotate 90 translate 0 0");
    ASSERT_TRUE(t.has_value());
    expectMatrix(*t, {0, -1, 1, 1, 0, 0});
    const auto corner = t->apply(0.0f, 0.0f); // the corner (0, 0) goes to (1, 0)
    EXPECT_NEAR(corner[0], 1.0f, 1e-6f);
    EXPECT_NEAR(corner[1], 0.0f, 1e-6f);
}

TEST(TextureTransform, ScaleAboutTheCentreAndTranslate) {
    // Scale 2 about (.5, .5): u' = 2 (u - .5) + .5 = 2u - .5.
    const auto s = content::parseTextureTransform("center .5 .5 scale 2 2 rotate 0 translate 0 0");
    ASSERT_TRUE(s.has_value());
    expectMatrix(*s, {2, 0, -0.5f, 0, 2, -0.5f});
    // Translate (.5, .25), any centre: u' = u + .5, v' = v + .25.
    const auto t = content::parseTextureTransform("CENTER 0 0 Scale 1 1 rotate 0 translate .5 .25");
    ASSERT_TRUE(t.has_value());
    expectMatrix(*t, {1, 0, 0.5f, 0, 1, 0.25f});
    // Scale (2, 1) about (0, 0), rotated 90 then moved (1, 0): linear part [0 -1; 2 0],
    // offset (1, 0).
    const auto r = content::parseTextureTransform("center 0 0 scale 2 1 rotate 90 translate 1 0");
    ASSERT_TRUE(r.has_value());
    expectMatrix(*r, {0, -1, 1, 2, 0, 0});
}

TEST(TextureTransform, SixteenNumbersAreTheMatrixRows) {
    const auto t = content::parseTextureTransform("[ 1 2 0 3  4 5 0 6  0 0 1 0  0 0 0 1 ]");
    ASSERT_TRUE(t.has_value());
    expectMatrix(*t, {1, 2, 3, 4, 5, 6});
}

TEST(TextureTransform, IncompleteOrDisorderedIsRefused) {
    for (const char* bad : {"", "center .5 .5", "center .5 .5 scale 1 1 rotate 0 translate 0",
                            "scale 1 1 center .5 .5 rotate 0 translate 0 0",
                            "center .5 .5 scale 1 1 rotate x translate 0 0",
                            "center .5 .5 scale 1 1 rotate 0 translate 0 0 extra",
                            "center .5 .5 scale 1e40 1 rotate 0 translate 0 0", "[1 2 3]"})
        EXPECT_FALSE(content::parseTextureTransform(bad).has_value()) << bad;
}

TEST(TextureScroll, OffsetAlongTheAngleWrapped) {
    // Rate .25 at 90 degrees, t = .5 s: s = .5 cos 90 * .25 = 0, t = .5 sin 90 * .25 = .125.
    const content::TextureScroll up{true, 0.25f, 90.0f, 1.0f};
    expectMatrix(content::textureScrollAt(up, 0.5), {1, 0, 0, 0, 1, 0.125f});
    // At 180 degrees the offset -.125 wraps to .875 (raised by 1 plus its whole part 0); at
    // t = 10.5 the offset -2.625 wraps to .375 (2.625 -> -2.625 + 3 = .375).
    const content::TextureScroll left{true, 0.25f, 180.0f, 1.0f};
    expectMatrix(content::textureScrollAt(left, 0.5), {1, 0, 0.875f, 0, 1, 0});
    expectMatrix(content::textureScrollAt(left, 10.5), {1, 0, 0.375f, 0, 1, 0});
    // textureScale is the diagonal; at 0 degrees rate 1, t = 2.25: s = 2.25 -> .25.
    const content::TextureScroll scaled{true, 1.0f, 0.0f, 2.0f};
    expectMatrix(content::textureScrollAt(scaled, 2.25), {2, 0, 0.25f, 0, 2, 0});
}

TEST(Vmt, TextureTransformsAreRead) {
    const content::Vmt v = vmtOf(R"(LightmappedGeneric { $basetexture t/a $bumpmap t/n
        $basetexturetransform "center .5 .5 scale 1 1 rotate 90 translate 0 0"
        $bumptransform "center 0 0 scale 2 2 rotate 0 translate .5 0" })");
    expectMatrix(v.motion.base, {0, -1, 1, 1, 0, 0});
    expectMatrix(v.motion.bump, {2, 0, 0.5f, 0, 2, 0});
    EXPECT_FALSE(v.motion.still());
    EXPECT_TRUE(v.warnings.empty());
    EXPECT_TRUE(vmtOf("LightmappedGeneric { $basetexture t/a }").motion.still());
}

TEST(Vmt, UnreadableTransformWarnsNamingFileKeyAndValue) {
    const content::Vmt v =
        vmtOf(R"(LightmappedGeneric { $basetexture t/a $basetexturetransform "center 1" })");
    EXPECT_TRUE(v.motion.base.identity());
    ASSERT_EQ(v.warnings.size(), 1u);
    EXPECT_NE(v.warnings[0].find("materials/t/m.vmt: $basetexturetransform 'center 1'"),
              std::string::npos)
        << v.warnings[0];
}

TEST(Vmt, TextureScrollProxiesAreRead) {
    const content::Vmt v = vmtOf(R"(LightmappedGeneric {
        $basetexture t/a  $rate .5
        Proxies {
            TextureScroll { texturescrollvar $basetexturetransform texturescrollrate 0.25
                            texturescrollangle 90 }
            TextureScroll { textureScrollVar $bumptransform textureScrollRate $rate
                            textureScale 2 }
            TextureScroll { texturescrollvar $detailtexturetransform }
            UniformNoise { resultvar $alpha }
        } })");
    EXPECT_EQ(v.motion.base_scroll, (content::TextureScroll{true, 0.25f, 90.0f, 1.0f}));
    // A rate naming a var of the material reads that var (CFloatInput).
    EXPECT_EQ(v.motion.bump_scroll, (content::TextureScroll{true, 0.5f, 0.0f, 2.0f}));
    EXPECT_EQ(v.unevaluated_proxies,
              (std::vector<std::string>{"texturescroll $detailtexturetransform", "uniformnoise"}));
    EXPECT_TRUE(v.warnings.empty());
    // The proxy replaces the written matrix at every time.
    expectMatrix(v.motion.baseAt(0.5), {1, 0, 0, 0, 1, 0.125f});
}

TEST(Vmt, GarbageProxyKeysWarnAndDropTheProxy) {
    const content::Vmt v = vmtOf(R"(LightmappedGeneric { $basetexture t/a
        Proxies {
            TextureScroll { texturescrollvar $basetexturetransform texturescrollrate fast }
            TextureScroll { texturescrollrate 1 }
        } })");
    EXPECT_FALSE(v.motion.base_scroll.enabled);
    ASSERT_EQ(v.warnings.size(), 2u);
    EXPECT_EQ(v.warnings[0], "materials/t/m.vmt: Proxies TextureScroll texturescrollrate 'fast': "
                             "neither a number nor a number var of the material; the proxy is "
                             "ignored");
    EXPECT_EQ(v.warnings[1],
              "materials/t/m.vmt: Proxies TextureScroll texturescrollvar '': missing; the proxy "
              "is ignored");
}

TEST(ValveMaterials, MotionTravelsWithTheMaterialButNotWithWater) {
    testsupport::VtfSpec spec; // one RGBA8888 texel
    const std::vector<uint8_t> vtf = testsupport::makeVtf(spec, {10, 20, 30, 255});
    const std::string texel(vtf.begin(), vtf.end());
    const content::FileSystem fs = content_test::pakfileOf({
        {"materials/t/a.vtf", texel},
        {"materials/t/moving.vmt",
         R"(LightmappedGeneric { $basetexture t/a
            $basetexturetransform "center 0 0 scale 1 1 rotate 0 translate .5 0"
            Proxies { TextureScroll { texturescrollvar $bumptransform texturescrollrate 2 } } })"},
        {"materials/t/water.vmt",
         R"(Water { $fogcolor "{10 20 30}"
            $bumptransform "center 0 0 scale 1 1 rotate 0 translate .5 0" })"},
    });
    bsp::Map map;
    map.format = bsp::Format::Source;
    for (const char* n : {"t/moving", "t/water"})
        map.materials.emplace_back().name = n;
    const auto t = content::loadMaterialTextures(map, fs, 1);
    ASSERT_EQ(t.size(), 2u);
    ASSERT_FALSE(t[0].missing) << t[0].error;
    expectMatrix(t[0].motion.base, {1, 0, 0.5f, 0, 1, 0});
    EXPECT_EQ(t[0].motion.bump_scroll, (content::TextureScroll{true, 2.0f, 0.0f, 1.0f}));
    // Cheap water reads its coordinates untransformed (WaterCheap_vs20.fxc).
    ASSERT_TRUE(t[1].water.enabled);
    EXPECT_TRUE(t[1].motion.still());
}

// CBaseAnimatedTextureProxy::OnBind by hand: 3 frames at 5 a second.
TEST(AnimatedTexture, FrameIsTheClockTimesTheRateWrapped) {
    const content::AnimatedTexture a{true, 5.0f, true};
    EXPECT_EQ(content::animatedTextureFrame(a, 3, 0.0), 0);
    EXPECT_EQ(content::animatedTextureFrame(a, 3, 0.25), 1);  // 1.25
    EXPECT_EQ(content::animatedTextureFrame(a, 3, 0.5), 2);   // 2.5
    EXPECT_EQ(content::animatedTextureFrame(a, 3, 0.65), 0);  // 3.25 mod 3
    EXPECT_EQ(content::animatedTextureFrame(a, 3, 1.05), 2);  // 5.25 mod 3
    EXPECT_EQ(content::animatedTextureFrame(a, 3, 100.1), 2); // 500.5 -> 500 mod 3
    EXPECT_EQ(content::animatedTextureFrame(a, 3, -4.0), 0);  // the time clamped at 0
    // The default rate, 15: t = .1 s is frame 1 (1.5).
    EXPECT_EQ(content::animatedTextureFrame(content::AnimatedTexture{true}, 3, 0.1), 1);
    // A negative rate counts below 0: frame 0.
    EXPECT_EQ(content::animatedTextureFrame({true, -5.0f, true}, 3, 0.25), 0);
    EXPECT_EQ(content::animatedTextureFrame(a, 0, 1.0), 0);
    // animationNoWrap: the bind at which the count wrapped since the previous one (2.75 -> 3.25,
    // frame 2 then 0) shows the last frame; the next bind (3.25 -> 3.5) counts on from 0, as the
    // proxy's start time stays 0. Wrapping, the same binds show 0.
    const content::AnimatedTexture no_wrap{true, 5.0f, false};
    EXPECT_EQ(content::animatedTextureFrame(no_wrap, 3, 0.65, 0.1), 2);
    EXPECT_EQ(content::animatedTextureFrame(a, 3, 0.65, 0.1), 0);
    EXPECT_EQ(content::animatedTextureFrame(no_wrap, 3, 0.7, 0.05), 0);
    EXPECT_EQ(content::animatedTextureFrame(no_wrap, 3, 0.5, 0.1), 2); // no wrap in between
    EXPECT_EQ(content::animatedTextureFrame(no_wrap, 3, 0.65), 0);     // no previous bind
}

TEST(Vmt, AnimatedTextureProxiesAreRead) {
    const content::Vmt v = vmtOf(R"(LightmappedGeneric {
        $basetexture t/a  $bumpmap t/n  $frame 2  $bumpframe "1"
        Proxies {
            AnimatedTexture { animatedtexturevar $basetexture animatedtextureframenumvar $frame
                              animatedtextureframerate 10 }
            animatedTexture { animatedTextureVar $BumpMap animatedTextureFrameNumVar $bumpframe
                              animationNoWrap 1 }
            AnimatedTexture { animatedtexturevar $detail animatedtextureframenumvar $detailframe }
            AnimatedTexture { animatedtexturevar $basetexture animatedtextureframenumvar $bumpframe }
        } })");
    EXPECT_EQ(v.base_animation, (content::AnimatedTexture{true, 10.0f, true}));
    // The rate's default is 15 (Init's GetFloat default).
    EXPECT_EQ(v.bump_animation, (content::AnimatedTexture{true, 15.0f, false}));
    EXPECT_EQ(v.frame, 2);
    EXPECT_EQ(v.bump_frame, 1);
    EXPECT_EQ(v.unevaluated_proxies,
              (std::vector<std::string>{"animatedtexture $detail $detailframe",
                                        "animatedtexture $basetexture $bumpframe"}));
    EXPECT_TRUE(v.warnings.empty());
    // Water's normal map is $normalmap; $bumpmap is not its var.
    const content::Vmt w = vmtOf(R"(Water { $normalmap t/n $fogcolor "{1 2 3}"
        Proxies { AnimatedTexture { animatedtexturevar $normalmap
                                    animatedtextureframenumvar $bumpframe
                                    animatedtextureframerate 2.5 } } })");
    EXPECT_EQ(w.bump_animation, (content::AnimatedTexture{true, 2.5f, true}));
    EXPECT_FALSE(w.base_animation.enabled);
    const content::Vmt w2 = vmtOf(R"(Water { $normalmap t/n
        Proxies { AnimatedTexture { animatedtexturevar $bumpmap
                                    animatedtextureframenumvar $bumpframe } } })");
    EXPECT_FALSE(w2.bump_animation.enabled);
    EXPECT_EQ(w2.unevaluated_proxies,
              (std::vector<std::string>{"animatedtexture $bumpmap $bumpframe"}));
    // Without a proxy or frame vars: nothing plays, frame 0.
    const content::Vmt still = vmtOf("LightmappedGeneric { $basetexture t/a $frame junk }");
    EXPECT_FALSE(still.base_animation.enabled);
    EXPECT_EQ(still.frame, 0);
    EXPECT_EQ(still.bump_frame, 0);
}

TEST(Vmt, GarbageAnimatedTextureKeysWarnAndDropTheProxy) {
    const content::Vmt v = vmtOf(R"(LightmappedGeneric { $basetexture t/a $rate 4
        Proxies {
            AnimatedTexture { animatedtextureframenumvar $frame }
            AnimatedTexture { animatedtexturevar $basetexture }
            AnimatedTexture { animatedtexturevar $basetexture animatedtextureframenumvar $frame
                              animatedtextureframerate fast }
            AnimatedTexture { animatedtexturevar $basetexture animatedtextureframenumvar $frame
                              animatedtextureframerate $rate }
            AnimatedTexture { animatedtexturevar $basetexture animatedtextureframenumvar $frame
                              animationnowrap yes }
            AnimatedTexture { animatedtexturevar $basetexture animatedtextureframenumvar $frame
                              animatedtextureframerate 1e99 }
        } })");
    EXPECT_FALSE(v.base_animation.enabled);
    const std::string at = "materials/t/m.vmt: Proxies AnimatedTexture ";
    EXPECT_EQ(
        v.warnings,
        (std::vector<std::string>{
            at + "animatedtexturevar '': missing; the proxy is ignored",
            at + "animatedtextureframenumvar '': missing; the proxy is ignored",
            at + "animatedtextureframerate 'fast': not a number below 1e30 in size; the proxy is "
                 "ignored",
            // Init reads the rate with GetFloat: a var's name is not read as the var.
            at + "animatedtextureframerate '$rate': not a number below 1e30 in size; the proxy is "
                 "ignored",
            at + "animationnowrap 'yes': not a number below 1e30 in size; the proxy is ignored",
            at + "animatedtextureframerate '1e99': not a number below 1e30 in size; the proxy is "
                 "ignored"}));
    EXPECT_TRUE(v.unevaluated_proxies.empty());
}

// A 1 x 1 RGBA8888 VTF of `colours.size()` frames, frame k every texel colours[k].
std::vector<uint8_t> framesVtf(const std::vector<std::array<uint8_t, 3>>& colours) {
    testsupport::VtfSpec spec;
    spec.frames = static_cast<uint16_t>(colours.size());
    std::vector<uint8_t> payload;
    for (const auto& c : colours)
        payload.insert(payload.end(), {c[0], c[1], c[2], 255});
    return testsupport::makeVtf(spec, payload);
}

TEST(ValveMaterials, AnimatedTexturesLoadEveryFrame) {
    const std::vector<uint8_t> vtf = framesVtf({{200, 0, 0}, {0, 200, 0}, {0, 0, 200}});
    const std::string three(vtf.begin(), vtf.end());
    const std::string proxy = R"(Proxies { AnimatedTexture { animatedtexturevar $basetexture
                                 animatedtextureframenumvar $frame animatedtextureframerate 4 } })";
    const content::FileSystem fs = content_test::pakfileOf({
        {"materials/t/anim.vtf", three},
        {"materials/t/played.vmt", "LightmappedGeneric { $basetexture t/anim " + proxy + " }"},
        {"materials/t/framed.vmt", "LightmappedGeneric { $basetexture t/anim $frame 2 }"},
        {"materials/t/past.vmt", "LightmappedGeneric { $basetexture t/anim $frame 3 }"},
        {"materials/t/water.vmt",
         R"(Water { $fogcolor "{10 20 30}" $normalmap t/anim
            Proxies { AnimatedTexture { animatedtexturevar $normalmap
                      animatedtextureframenumvar $bumpframe animationnowrap 1 } } })"},
        {"materials/t/waterframe.vmt",
         R"(Water { $fogcolor "{10 20 30}" $normalmap t/anim $bumpframe 1 })"},
    });
    bsp::Map map;
    map.format = bsp::Format::Source;
    for (const char* n : {"t/played", "t/framed", "t/past", "t/water", "t/waterframe"})
        map.materials.emplace_back().name = n;
    const auto t = content::loadMaterialTextures(map, fs, 1);
    ASSERT_EQ(t.size(), 5u);
    const auto first = [](const content::Image& img) {
        return std::array<uint8_t, 3>{img.rgba[0], img.rgba[1], img.rgba[2]};
    };
    // Played: every frame, frame 0 the image.
    ASSERT_FALSE(t[0].missing) << t[0].error;
    EXPECT_EQ(t[0].base_animation, (content::AnimatedTexture{true, 4.0f, true}));
    ASSERT_EQ(t[0].base_frames.size(), 3u);
    EXPECT_EQ(first(t[0].image), (std::array<uint8_t, 3>{200, 0, 0}));
    EXPECT_EQ(first(t[0].base_frames[2]), (std::array<uint8_t, 3>{0, 0, 200}));
    EXPECT_TRUE(t[0].animated());
    // $frame 2 without a proxy: the image is frame 2, nothing plays.
    EXPECT_EQ(first(t[1].image), (std::array<uint8_t, 3>{0, 0, 200}));
    EXPECT_TRUE(t[1].base_frames.empty());
    EXPECT_FALSE(t[1].animated());
    // $frame 3 of three: frame 0 (a warning).
    EXPECT_EQ(first(t[2].image), (std::array<uint8_t, 3>{200, 0, 0}));
    // Water's normal map plays through $bumpframe.
    ASSERT_TRUE(t[3].water.enabled);
    EXPECT_EQ(t[3].bump_animation, (content::AnimatedTexture{true, 15.0f, false}));
    ASSERT_EQ(t[3].bump_frames.size(), 3u);
    EXPECT_EQ(first(t[3].bump_frames[1]), (std::array<uint8_t, 3>{0, 200, 0}));
    EXPECT_EQ(first(t[3].bump), (std::array<uint8_t, 3>{200, 0, 0}));
    // $bumpframe 1 without a proxy: the normal map is frame 1.
    EXPECT_EQ(first(t[4].bump), (std::array<uint8_t, 3>{0, 200, 0}));
    EXPECT_FALSE(t[4].animated());
}
