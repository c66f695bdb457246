// Quake 3 shader scripts: parser (every keyword, defaults, sort rules, warnings, hostile text),
// the library's ioquake3 load order, texture resolution, and OpenArena's real scripts.
#include "bsp/load.h"
#include "content/image/image.h"
#include "content/material/q3_shader.h"
#include "content/material/q3_shader_names.h"
#include "content/material/shader_library.h"
#include "content/material/textures.h"
#include "content/vfs/vfs.h"
#include "unit/content_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <random>
#include <string>

using namespace content;
using content_test::TempDir;
using content_test::writeText;
using content_test::writeZip;
namespace fs = std::filesystem;

namespace {

ShaderDef parseOne(const std::string& text) {
    ShaderScript s = parseShaderScript(text, "scripts/test.shader");
    EXPECT_EQ(s.shaders.size(), 1u) << text;
    if (s.shaders.empty())
        return ShaderDef{};
    return s.shaders[0];
}

bool hasWarningAt(const ShaderDef& d, int line, const std::string& needle) {
    for (const ShaderWarning& w : d.warnings)
        if (w.line == line && w.message.find(needle) != std::string::npos)
            return true;
    return false;
}

// A small valid PNG, made with our own writer.
std::string tinyPngBytes(const TempDir& dir) {
    const fs::path p = dir / "tiny.png";
    EXPECT_TRUE(writePng(p, makeMissingTexture(4)));
    std::ifstream in(p, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::string dumpWarnings(const ShaderDef& d) {
    std::string out;
    for (const ShaderWarning& w : d.warnings)
        out += std::to_string(w.line) + ": " + w.message + "\n";
    return out;
}

void expectWave(const Wave& w, WaveFunc f, float base, float amp, float phase, float freq) {
    EXPECT_EQ(w.func, f);
    EXPECT_FLOAT_EQ(w.base, base);
    EXPECT_FLOAT_EQ(w.amplitude, amp);
    EXPECT_FLOAT_EQ(w.phase, phase);
    EXPECT_FLOAT_EQ(w.frequency, freq);
}

} // namespace

// ---------------------------------------------------------------------------------------------
// General keywords

TEST(Q3Shader, NameFileLineAndSurfaceParms) {
    const ShaderDef d = parseOne("// header\n\ntextures/base/wall\n{\n"
                                 "  surfaceparm nodraw\n  SURFACEPARM Trans\n"
                                 "  surfaceparm nolightmap\n  surfaceparm fog\n"
                                 "  surfaceparm sky\n  surfaceparm water\n  surfaceparm nomarks\n"
                                 "}\n");
    EXPECT_EQ(d.name, "textures/base/wall");
    EXPECT_EQ(d.file, "scripts/test.shader");
    EXPECT_EQ(d.line, 3);
    EXPECT_EQ(d.surface_parms, kParmNoDraw | kParmTrans | kParmNoLightmap | kParmFog | kParmSky |
                                   kParmWater | kParmNoMarks);
    EXPECT_TRUE(d.warnings.empty()) << dumpWarnings(d);
    EXPECT_EQ(surfaceParmFromName("AlphaShadow"), kParmAlphaShadow);
    EXPECT_EQ(surfaceParmFromName("dust"), kParmDust);
    EXPECT_EQ(surfaceParmFromName("nosuch"), 0u);
}

TEST(Q3Shader, UnknownSurfaceParmWarns) {
    const ShaderDef d = parseOne("a\n{\n surfaceparm shiny\n { map $lightmap }\n}\n");
    EXPECT_EQ(d.surface_parms, 0u);
    EXPECT_TRUE(hasWarningAt(d, 3, "shiny")) << dumpWarnings(d);
}

TEST(Q3Shader, CullModes) {
    const std::pair<const char*, CullMode> cases[] = {
        {"none", CullMode::None},   {"twosided", CullMode::None},  {"disable", CullMode::None},
        {"back", CullMode::Back},   {"backsided", CullMode::Back}, {"BackSide", CullMode::Back},
        {"front", CullMode::Front},
    };
    for (const auto& [word, mode] : cases) {
        const ShaderDef d = parseOne(std::string("a { cull ") + word + "\n{ map x.tga }\n}");
        EXPECT_EQ(d.cull, mode) << word;
        EXPECT_TRUE(d.warnings.empty()) << word << dumpWarnings(d);
    }
    const ShaderDef bad = parseOne("a {\ncull sideways\n{ map x.tga }\n}");
    EXPECT_EQ(bad.cull, CullMode::Front);
    EXPECT_TRUE(hasWarningAt(bad, 2, "sideways"));
}

TEST(Q3Shader, SortNamedAndNumeric) {
    const std::pair<const char*, float> cases[] = {
        {"portal", 1.0f},     {"sky", 2.0f},    {"opaque", 3.0f},     {"decal", 4.0f},
        {"seeThrough", 5.0f}, {"banner", 6.0f}, {"underwater", 8.0f}, {"additive", 10.0f},
        {"nearest", 16.0f},   {"12", 12.0f},    {"6.5", 6.5f},
    };
    for (const auto& [word, value] : cases) {
        const ShaderDef d = parseOne(std::string("a {\nsort ") + word + "\n{ map x.tga }\n}");
        EXPECT_FLOAT_EQ(d.sort, value) << word;
        EXPECT_TRUE(d.sort_explicit) << word;
    }
}

TEST(Q3Shader, SkyParms) {
    const ShaderDef d = parseOne("textures/skies/s\n{\n  skyParms env/space1 256 -\n}\n");
    EXPECT_TRUE(d.sky.present);
    EXPECT_EQ(d.sky.far_box, "env/space1");
    EXPECT_FLOAT_EQ(d.sky.cloud_height, 256.0f);
    EXPECT_EQ(d.sky.near_box, "");
    EXPECT_TRUE(d.isSky());
    EXPECT_FLOAT_EQ(d.sort, kSortEnvironment);
    EXPECT_FALSE(d.ioq3_rejects); // a sky needs no stage

    const ShaderDef z = parseOne("s { skyparms - 0 env/inner\n}");
    EXPECT_EQ(z.sky.far_box, "");
    EXPECT_FLOAT_EQ(z.sky.cloud_height, 512.0f); // 0 means the default
    EXPECT_EQ(z.sky.near_box, "env/inner");

    const ShaderDef short_parms = parseOne("s {\nskyparms env/x\n}");
    EXPECT_TRUE(short_parms.sky.present);
    EXPECT_TRUE(hasWarningAt(short_parms, 2, "skyparms")) << dumpWarnings(short_parms);
}

TEST(Q3Shader, FogParms) {
    const ShaderDef d = parseOne("fog1\n{\n surfaceparm fog\n fogparms ( 0.5 0.25 1 ) 384 old "
                                 "gradient\n}\n");
    EXPECT_TRUE(d.fog.present);
    EXPECT_FLOAT_EQ(d.fog.colour.r, 0.5f);
    EXPECT_FLOAT_EQ(d.fog.colour.g, 0.25f);
    EXPECT_FLOAT_EQ(d.fog.colour.b, 1.0f);
    EXPECT_FLOAT_EQ(d.fog.distance, 384.0f);
    EXPECT_TRUE(d.warnings.empty()) << dumpWarnings(d);
    EXPECT_FLOAT_EQ(d.sort, kSortFog); // no stages, not a sky
    EXPECT_FALSE(d.ioq3_rejects);      // fog shaders need no stage

    const ShaderDef bad = parseOne("f {\nfogparms 0.5 0.5 0.5 100\n}");
    EXPECT_FALSE(bad.fog.present);
    EXPECT_TRUE(hasWarningAt(bad, 2, "'('")) << dumpWarnings(bad);
}

TEST(Q3Shader, FlagsPolygonOffsetMipmaps) {
    const ShaderDef d =
        parseOne("d {\npolygonOffset\nnomipmaps\n{ map x.tga\nblendfunc filter }\n}");
    EXPECT_TRUE(d.polygon_offset);
    EXPECT_TRUE(d.no_mipmaps);
    EXPECT_TRUE(d.no_picmip);
    EXPECT_FLOAT_EQ(d.sort, kSortDecal); // polygonOffset before the blend rule
    const ShaderDef p = parseOne("d {\nnopicmip\n{ map x.tga }\n}");
    EXPECT_FALSE(p.no_mipmaps);
    EXPECT_TRUE(p.no_picmip);
}

TEST(Q3Shader, DeformVertexes) {
    const ShaderDef d = parseOne("d {\n"
                                 "deformVertexes wave 100 sin 3 2 0.5 0.25\n"
                                 "deformVertexes bulge 3 4 5\n"
                                 "deformVertexes move 1 2 3 triangle 0 1 0 0.5\n"
                                 "{ map x.tga }\n}");
    ASSERT_EQ(d.deforms.size(), 3u);
    EXPECT_EQ(d.deforms[0].kind, DeformKind::Wave);
    EXPECT_FLOAT_EQ(d.deforms[0].spread, 100.0f);
    expectWave(d.deforms[0].wave, WaveFunc::Sin, 3, 2, 0.5f, 0.25f);
    EXPECT_EQ(d.deforms[1].kind, DeformKind::Bulge);
    EXPECT_FLOAT_EQ(d.deforms[1].bulge_width, 3.0f);
    EXPECT_FLOAT_EQ(d.deforms[1].bulge_height, 4.0f);
    EXPECT_FLOAT_EQ(d.deforms[1].bulge_speed, 5.0f);
    EXPECT_EQ(d.deforms[2].kind, DeformKind::Move);
    EXPECT_FLOAT_EQ(d.deforms[2].move.x, 1.0f);
    EXPECT_FLOAT_EQ(d.deforms[2].move.y, 2.0f);
    EXPECT_FLOAT_EQ(d.deforms[2].move.z, 3.0f);
    expectWave(d.deforms[2].wave, WaveFunc::Triangle, 0, 1, 0, 0.5f);
    EXPECT_TRUE(d.warnings.empty()) << dumpWarnings(d);

    const ShaderDef e = parseOne("d {\ndeformVertexes normal 0.5 2\ndeformVertexes autosprite\n"
                                 "deformVertexes AUTOSPRITE2\n{ map x.tga }\n}");
    ASSERT_EQ(e.deforms.size(), 3u);
    EXPECT_EQ(e.deforms[0].kind, DeformKind::Normal);
    EXPECT_FLOAT_EQ(e.deforms[0].wave.amplitude, 0.5f);
    EXPECT_FLOAT_EQ(e.deforms[0].wave.frequency, 2.0f);
    EXPECT_EQ(e.deforms[1].kind, DeformKind::Autosprite);
    EXPECT_EQ(e.deforms[2].kind, DeformKind::Autosprite2);

    const ShaderDef f = parseOne("d {\ndeformVertexes text3\ndeformVertexes projectionShadow\n"
                                 "deformVertexes wobble 1\ndeformVertexes wave 0 sin 0 1 0 1\n"
                                 "{ map x.tga }\n}");
    ASSERT_EQ(f.deforms.size(), 3u);
    EXPECT_EQ(f.deforms[0].kind, DeformKind::Text);
    EXPECT_EQ(f.deforms[0].text_index, 3);
    EXPECT_EQ(f.deforms[1].kind, DeformKind::ProjectionShadow);
    EXPECT_TRUE(hasWarningAt(f, 4, "wobble"));
    EXPECT_TRUE(hasWarningAt(f, 5, "div of 0"));

    const ShaderDef many = parseOne("d {\ndeformVertexes autosprite\ndeformVertexes autosprite\n"
                                    "deformVertexes autosprite\ndeformVertexes autosprite\n"
                                    "{ map x.tga }\n}");
    EXPECT_EQ(many.deforms.size(), static_cast<size_t>(kMaxDeforms));
    EXPECT_TRUE(hasWarningAt(many, 5, "deformVertexes"));
}

TEST(Q3Shader, EditorAndCompilerKeywordsAreSilent) {
    const ShaderDef d =
        parseOne("a {\nqer_editorimage textures/x.tga\nq3map_sun 1 1 1 100 45 60\n"
                 "q3map_surfacelight 500\ntessSize 128\nlight 1\nentityMergable\nportal\n"
                 "clampTime 10\n{ map x.tga }\n}");
    EXPECT_TRUE(d.warnings.empty()) << dumpWarnings(d);
    EXPECT_TRUE(d.portal);
    EXPECT_FLOAT_EQ(d.sort, kSortPortal);
    EXPECT_FALSE(d.ioq3_rejects);
}

// ---------------------------------------------------------------------------------------------
// Stages

TEST(Q3Shader, StageMaps) {
    const ShaderDef d = parseOne("a\n{\n"
                                 " {\n  map $lightmap\n }\n"        // 4
                                 " {\n  map textures/a/b.tga\n }\n" // 7
                                 " {\n  clampMap gfx/c.tga\n }\n"
                                 " {\n  animMap 5 f1.tga f2.tga f3.tga\n }\n"
                                 " {\n  map $whiteimage\n }\n"
                                 " {\n  videoMap intro.roq\n }\n"
                                 "}\n");
    ASSERT_EQ(d.stages.size(), 6u);
    EXPECT_EQ(d.stages[0].line, 3);
    EXPECT_EQ(d.stages[0].map, MapKind::Lightmap);
    EXPECT_TRUE(d.stages[0].images.empty());
    EXPECT_EQ(d.stages[0].tc_gen, TcGen::Lightmap); // default for lightmap stages
    EXPECT_EQ(d.stages[1].map, MapKind::Texture);
    ASSERT_EQ(d.stages[1].images.size(), 1u);
    EXPECT_EQ(d.stages[1].images[0], "textures/a/b.tga");
    EXPECT_EQ(d.stages[1].tc_gen, TcGen::Base);
    EXPECT_EQ(d.stages[2].map, MapKind::Clamp);
    EXPECT_EQ(d.stages[2].images[0], "gfx/c.tga");
    EXPECT_EQ(d.stages[3].map, MapKind::Animated);
    EXPECT_FLOAT_EQ(d.stages[3].anim_frequency, 5.0f);
    EXPECT_EQ(d.stages[3].images, (std::vector<std::string>{"f1.tga", "f2.tga", "f3.tga"}));
    EXPECT_EQ(d.stages[4].map, MapKind::White);
    EXPECT_EQ(d.stages[5].map, MapKind::Video);
    EXPECT_EQ(d.stages[5].images[0], "intro.roq");
    EXPECT_TRUE(d.warnings.empty()) << dumpWarnings(d);
    EXPECT_EQ(primaryImage(d), "textures/a/b.tga");
}

TEST(Q3Shader, AnimMapKeepsEightFrames) {
    const ShaderDef d = parseOne("a {\n{\nanimMap 2 a b c d e f g h i j\n}\n}");
    ASSERT_EQ(d.stages.size(), 1u);
    EXPECT_EQ(d.stages[0].images.size(), static_cast<size_t>(kMaxAnimFrames));
    EXPECT_EQ(d.stages[0].images.back(), "h");
    EXPECT_TRUE(hasWarningAt(d, 3, "10 images"));
    EXPECT_EQ(primaryImage(d), "a");
}

TEST(Q3Shader, BlendFuncNamedAndExplicit) {
    struct Case {
        const char* text;
        bool blend;
        BlendFactor src, dst;
    };
    const Case cases[] = {
        {"add", true, BlendFactor::One, BlendFactor::One},
        {"filter", true, BlendFactor::DstColor, BlendFactor::Zero},
        {"BLEND", true, BlendFactor::SrcAlpha, BlendFactor::OneMinusSrcAlpha},
        {"GL_DST_COLOR GL_ONE_MINUS_DST_ALPHA", true, BlendFactor::DstColor,
         BlendFactor::OneMinusDstAlpha},
        {"gl_one_minus_dst_color gl_src_color", true, BlendFactor::OneMinusDstColor,
         BlendFactor::SrcColor},
        {"GL_SRC_ALPHA_SATURATE GL_ONE_MINUS_SRC_COLOR", true, BlendFactor::SrcAlphaSaturate,
         BlendFactor::OneMinusSrcColor},
        {"GL_ZERO GL_DST_ALPHA", true, BlendFactor::Zero, BlendFactor::DstAlpha},
        {"GL_ONE GL_ZERO", false, BlendFactor::One, BlendFactor::Zero}, // means "no blend"
    };
    for (const Case& c : cases) {
        const ShaderDef d =
            parseOne(std::string("a {\n{\nmap x.tga\nblendFunc ") + c.text + "\n}\n}");
        ASSERT_EQ(d.stages.size(), 1u);
        const ShaderStage& s = d.stages[0];
        EXPECT_EQ(s.blend, c.blend) << c.text;
        EXPECT_EQ(s.src, c.src) << c.text;
        EXPECT_EQ(s.dst, c.dst) << c.text;
        EXPECT_EQ(s.depth_write, !c.blend) << c.text; // blended stages do not write depth
        EXPECT_TRUE(d.warnings.empty()) << c.text << dumpWarnings(d);
    }
    const ShaderDef bad = parseOne("a {\n{\nmap x.tga\nblendFunc GL_SRC_COLOR GL_BOGUS\n}\n}");
    EXPECT_EQ(bad.stages[0].src, BlendFactor::One); // GL_SRC_COLOR is not a source factor
    EXPECT_EQ(bad.stages[0].dst, BlendFactor::One);
    EXPECT_TRUE(hasWarningAt(bad, 4, "GL_SRC_COLOR"));
    EXPECT_TRUE(hasWarningAt(bad, 4, "GL_BOGUS"));
}

TEST(Q3Shader, AlphaFuncDepthWriteDepthFuncDetail) {
    const ShaderDef d = parseOne("a {\n"
                                 "{ map a.tga\nalphaFunc GT0\n}\n"
                                 "{ map b.tga\nalphafunc lt128\nblendfunc blend\ndepthWrite\n}\n"
                                 "{ map c.tga\nalphaFunc GE128\ndepthFunc equal\ndetail\n}\n"
                                 "{ map d.tga\ndepthfunc lequal\nalphaFunc GT1\n}\n}");
    ASSERT_EQ(d.stages.size(), 4u);
    EXPECT_EQ(d.stages[0].alpha_func, AlphaFunc::Gt0);
    EXPECT_EQ(d.stages[1].alpha_func, AlphaFunc::Lt128);
    EXPECT_TRUE(d.stages[1].blend);
    EXPECT_TRUE(d.stages[1].depth_write); // explicit depthWrite beats the blend default
    EXPECT_TRUE(d.stages[1].depth_write_explicit);
    EXPECT_EQ(d.stages[2].alpha_func, AlphaFunc::Ge128);
    EXPECT_EQ(d.stages[2].depth_func, DepthFunc::Equal);
    EXPECT_TRUE(d.stages[2].detail);
    EXPECT_FALSE(d.stages[0].detail);
    EXPECT_EQ(d.stages[3].depth_func, DepthFunc::LessEqual);
    EXPECT_EQ(d.stages[3].alpha_func, AlphaFunc::None);
    EXPECT_TRUE(hasWarningAt(d, 17, "GT1")) << dumpWarnings(d);
}

TEST(Q3Shader, RgbGenKinds) {
    const ShaderDef d = parseOne("a {\n"
                                 "{ map a\nrgbGen identity }\n"
                                 "{ map a\nrgbGen identityLighting }\n"
                                 "{ map a\nrgbGen vertex }\n"
                                 "{ map a\nrgbGen exactVertex }\n"
                                 "{ map a\nrgbGen oneMinusVertex }\n"
                                 "{ map a\nrgbGen wave square 0.25 0.75 0.1 2 }\n"
                                 "{ map a\nrgbGen const ( 0.5 0.25 0.125 ) }\n"
                                 "{ map a\nrgbGen lightingDiffuse }\n"
                                 "}");
    ASSERT_EQ(d.stages.size(), 8u);
    EXPECT_EQ(d.stages[0].rgb_gen, RgbGen::Identity);
    EXPECT_EQ(d.stages[1].rgb_gen, RgbGen::IdentityLighting);
    EXPECT_EQ(d.stages[2].rgb_gen, RgbGen::Vertex);
    EXPECT_EQ(d.stages[2].alpha_gen, AlphaGen::Vertex); // rgbGen vertex implies alphaGen vertex
    EXPECT_EQ(d.stages[3].rgb_gen, RgbGen::ExactVertex);
    EXPECT_EQ(d.stages[4].rgb_gen, RgbGen::OneMinusVertex);
    EXPECT_EQ(d.stages[5].rgb_gen, RgbGen::Wave);
    expectWave(d.stages[5].rgb_wave, WaveFunc::Square, 0.25f, 0.75f, 0.1f, 2.0f);
    EXPECT_EQ(d.stages[6].rgb_gen, RgbGen::Const);
    EXPECT_FLOAT_EQ(d.stages[6].rgb_const.r, 0.5f);
    EXPECT_FLOAT_EQ(d.stages[6].rgb_const.g, 0.25f);
    EXPECT_FLOAT_EQ(d.stages[6].rgb_const.b, 0.125f);
    EXPECT_EQ(d.stages[7].rgb_gen, RgbGen::Vertex); // lightingDiffuse -> vertex
    EXPECT_EQ(d.stages[7].alpha_gen, AlphaGen::Identity);
    EXPECT_TRUE(d.warnings.empty()) << dumpWarnings(d);
}

TEST(Q3Shader, RgbGenDefaultsFollowTheBlend) {
    const ShaderDef d = parseOne("a {\n"
                                 "{ map a }\n"
                                 "{ map a\nblendfunc add }\n"
                                 "{ map a\nblendfunc blend }\n"
                                 "{ map a\nblendfunc filter }\n"
                                 "{ map a\nblendfunc GL_ZERO GL_SRC_COLOR }\n"
                                 "}");
    ASSERT_EQ(d.stages.size(), 5u);
    EXPECT_EQ(d.stages[0].rgb_gen, RgbGen::IdentityLighting);
    EXPECT_EQ(d.stages[1].rgb_gen, RgbGen::IdentityLighting);
    EXPECT_EQ(d.stages[2].rgb_gen, RgbGen::IdentityLighting);
    EXPECT_EQ(d.stages[3].rgb_gen, RgbGen::Identity);
    EXPECT_EQ(d.stages[4].rgb_gen, RgbGen::Identity);
    for (const ShaderStage& s : d.stages)
        EXPECT_FALSE(s.rgb_gen_explicit);
}

TEST(Q3Shader, WaveFunctions) {
    const std::pair<const char*, WaveFunc> cases[] = {
        {"sin", WaveFunc::Sin},
        {"triangle", WaveFunc::Triangle},
        {"square", WaveFunc::Square},
        {"sawtooth", WaveFunc::Sawtooth},
        {"inverseSawtooth", WaveFunc::InverseSawtooth},
        {"noise", WaveFunc::Noise},
    };
    for (const auto& [word, func] : cases) {
        const ShaderDef d =
            parseOne(std::string("a {\n{ map a\nalphaGen wave ") + word + " 1 -2 3 4.5\n}\n}");
        ASSERT_EQ(d.stages.size(), 1u);
        EXPECT_EQ(d.stages[0].alpha_gen, AlphaGen::Wave);
        expectWave(d.stages[0].alpha_wave, func, 1, -2, 3, 4.5f);
        EXPECT_EQ(waveFuncName(func).empty(), false);
    }
    const ShaderDef bad = parseOne("a {\n{ map a\nrgbGen wave wobble 1 2 3 4\n}\n}");
    EXPECT_TRUE(hasWarningAt(bad, 3, "wobble"));
    const ShaderDef short_wave = parseOne("a {\n{ map a\nrgbGen wave sin 1 2\n}\n}");
    EXPECT_TRUE(hasWarningAt(short_wave, 3, "missing parameter")) << dumpWarnings(short_wave);
}

TEST(Q3Shader, AlphaGenKinds) {
    const ShaderDef d = parseOne("a {\n"
                                 "{ map a\nalphaGen const 0.25 }\n"
                                 "{ map a\nalphaGen vertex }\n"
                                 "{ map a\nalphaGen oneMinusVertex }\n"
                                 "{ map a\nalphaGen portal 128 }\n"
                                 "{ map a\nalphaGen lightingSpecular }\n"
                                 "{ map a\nalphaGen identity\nrgbGen vertex }\n"
                                 "}");
    ASSERT_EQ(d.stages.size(), 6u);
    EXPECT_EQ(d.stages[0].alpha_gen, AlphaGen::Const);
    EXPECT_FLOAT_EQ(d.stages[0].alpha_const, 0.25f);
    EXPECT_EQ(d.stages[1].alpha_gen, AlphaGen::Vertex);
    EXPECT_EQ(d.stages[2].alpha_gen, AlphaGen::OneMinusVertex);
    EXPECT_EQ(d.stages[3].alpha_gen, AlphaGen::Const); // portal -> const 1
    EXPECT_FLOAT_EQ(d.stages[3].alpha_const, 1.0f);
    EXPECT_FLOAT_EQ(d.stages[3].portal_range, 128.0f);
    EXPECT_EQ(d.stages[4].alpha_gen, AlphaGen::LightingSpecular);
    EXPECT_EQ(d.stages[5].alpha_gen, AlphaGen::Identity); // explicit alphaGen stays
    EXPECT_TRUE(d.warnings.empty()) << dumpWarnings(d);
}

TEST(Q3Shader, TcGenKinds) {
    const ShaderDef d = parseOne("a {\n"
                                 "{ map a\ntcGen environment }\n"
                                 "{ map a\ntcGen lightmap }\n"
                                 "{ map $lightmap\ntcGen base }\n"
                                 "{ map a\ntexgen vector ( 0.01 0 0 ) ( 0 0.02 -1 ) }\n"
                                 "}");
    ASSERT_EQ(d.stages.size(), 4u);
    EXPECT_EQ(d.stages[0].tc_gen, TcGen::Environment);
    EXPECT_EQ(d.stages[1].tc_gen, TcGen::Lightmap);
    EXPECT_EQ(d.stages[2].tc_gen, TcGen::Base); // explicit beats the lightmap default
    EXPECT_EQ(d.stages[3].tc_gen, TcGen::Vector);
    EXPECT_FLOAT_EQ(d.stages[3].tc_vectors[0].x, 0.01f);
    EXPECT_FLOAT_EQ(d.stages[3].tc_vectors[0].y, 0.0f);
    EXPECT_FLOAT_EQ(d.stages[3].tc_vectors[1].y, 0.02f);
    EXPECT_FLOAT_EQ(d.stages[3].tc_vectors[1].z, -1.0f);
    EXPECT_TRUE(d.warnings.empty()) << dumpWarnings(d);
}

TEST(Q3Shader, TcModKinds) {
    const ShaderDef d = parseOne("a {\n{\nmap a\n"
                                 "tcMod scroll 0.5 -0.25\n"
                                 "tcMod scale 2 3\n"
                                 "tcMod rotate 45\n"
                                 "tcMod turb 0 0.25 0.5 0.1\n"
                                 "}\n{\nmap b\n"
                                 "tcMod stretch sawtooth 1 0.5 0 2\n"
                                 "tcMod transform 1 2 3 4 5 6\n"
                                 "tcMod entityTranslate\n"
                                 "}\n}");
    ASSERT_EQ(d.stages.size(), 2u);
    const auto& m = d.stages[0].tc_mods;
    ASSERT_EQ(m.size(), 4u);
    EXPECT_EQ(m[0].kind, TcModKind::Scroll);
    EXPECT_FLOAT_EQ(m[0].s, 0.5f);
    EXPECT_FLOAT_EQ(m[0].t, -0.25f);
    EXPECT_EQ(m[1].kind, TcModKind::Scale);
    EXPECT_FLOAT_EQ(m[1].s, 2.0f);
    EXPECT_FLOAT_EQ(m[1].t, 3.0f);
    EXPECT_EQ(m[2].kind, TcModKind::Rotate);
    EXPECT_FLOAT_EQ(m[2].s, 45.0f);
    EXPECT_EQ(m[3].kind, TcModKind::Turb);
    EXPECT_FLOAT_EQ(m[3].wave.base, 0.0f);
    EXPECT_FLOAT_EQ(m[3].wave.amplitude, 0.25f);
    EXPECT_FLOAT_EQ(m[3].wave.phase, 0.5f);
    EXPECT_FLOAT_EQ(m[3].wave.frequency, 0.1f);
    const auto& n = d.stages[1].tc_mods;
    ASSERT_EQ(n.size(), 3u);
    EXPECT_EQ(n[0].kind, TcModKind::Stretch);
    expectWave(n[0].wave, WaveFunc::Sawtooth, 1, 0.5f, 0, 2);
    EXPECT_EQ(n[1].kind, TcModKind::Transform);
    EXPECT_EQ(n[1].matrix, (std::array<float, 4>{1, 2, 3, 4}));
    EXPECT_EQ(n[1].translate, (std::array<float, 2>{5, 6}));
    EXPECT_EQ(n[2].kind, TcModKind::EntityTranslate);
    EXPECT_TRUE(d.warnings.empty()) << dumpWarnings(d);
}

TEST(Q3Shader, TcModCapsAndErrors) {
    const ShaderDef d = parseOne("a {\n{\nmap a\n"
                                 "tcMod scroll 1 1\ntcMod scroll 1 1\ntcMod scroll 1 1\n"
                                 "tcMod scroll 1 1\ntcMod scroll 1 1\n" // line 8: fifth
                                 "}\n}");
    ASSERT_EQ(d.stages.size(), 1u);
    EXPECT_EQ(d.stages[0].tc_mods.size(), static_cast<size_t>(kMaxTcMods));
    EXPECT_TRUE(hasWarningAt(d, 8, "tcMods")) << dumpWarnings(d);
    EXPECT_TRUE(d.ioq3_rejects);
    const ShaderDef w = parseOne("a {\n{\nmap a\ntcMod wobble 1\ntcMod rotate 5\n}\n}");
    EXPECT_TRUE(hasWarningAt(w, 4, "wobble")) << dumpWarnings(w);
    ASSERT_EQ(w.stages[0].tc_mods.size(), 1u);
    EXPECT_EQ(w.stages[0].tc_mods[0].kind, TcModKind::Rotate);
    const ShaderDef e = parseOne("a {\n{\nmap a\ntcMod scale 2\n}\n}");
    EXPECT_TRUE(e.stages[0].tc_mods.empty()); // incomplete: dropped
    EXPECT_TRUE(hasWarningAt(e, 4, "missing parameter"));
}

// ---------------------------------------------------------------------------------------------
// Sort derivation (FinishShader) and surface flags

TEST(Q3Shader, SortDefaults) {
    EXPECT_FLOAT_EQ(parseOne("a { { map $lightmap } { map a\nblendfunc filter } }").sort,
                    kSortOpaque); // stage 0 not blended
    EXPECT_FLOAT_EQ(parseOne("a { { map a\nblendfunc add } }").sort, kSortBlend0);
    EXPECT_FLOAT_EQ(parseOne("a { { map a\nblendfunc blend\ndepthwrite } }").sort, kSortSeeThrough);
    EXPECT_FLOAT_EQ(parseOne("a { sort additive\n{ map a\nblendfunc blend } }").sort,
                    kSortBlend1); // explicit sort wins over the blend rule
    EXPECT_FLOAT_EQ(parseOne("a { sort 6\nskyparms - 512 -\n}").sort,
                    kSortEnvironment); // skyParms overrides any sort
    EXPECT_FLOAT_EQ(parseOne("a { { map a\nblendfunc GL_ONE GL_ZERO } }").sort, kSortOpaque);
    EXPECT_FLOAT_EQ(parseOne("a { { blendfunc add } }").sort, kSortFog); // no image at all
    EXPECT_TRUE(parseOne("a { surfaceparm nodraw\n}").ioq3_rejects);     // no stages
}

TEST(Q3Shader, SurfaceFlags) {
    EXPECT_EQ(surfaceFlagsOf(parseOne("a { skyparms env/x 512 -\n}")), bsp::kSurfSky);
    EXPECT_EQ(surfaceFlagsOf(parseOne("a { surfaceparm sky\n{ map a } }")), bsp::kSurfSky);
    EXPECT_EQ(surfaceFlagsOf(parseOne("a { surfaceparm nodraw\n}")), bsp::kSurfNoDraw);
    EXPECT_EQ(surfaceFlagsOf(parseOne("a { surfaceparm fog\nfogparms ( 1 1 1 ) 5\n}")),
              bsp::kSurfFog);
    EXPECT_EQ(surfaceFlagsOf(parseOne("a { cull none\n{ map a } }")), bsp::kSurfNoCull);
    EXPECT_EQ(surfaceFlagsOf(parseOne("a { surfaceparm nolightmap\n{ map a } }")),
              bsp::kSurfFullbright);
    EXPECT_EQ(surfaceFlagsOf(parseOne("a { { map a\nblendfunc add } }")),
              bsp::kSurfTranslucent | bsp::kSurfAdditive);
    EXPECT_EQ(surfaceFlagsOf(parseOne("a { { map a\nblendfunc blend } }")), bsp::kSurfTranslucent);
    EXPECT_EQ(surfaceFlagsOf(parseOne("a { cull twosided\n{ map a\nalphaFunc GE128\ndepthWrite\n"
                                      "blendfunc blend }\n{ map $lightmap\nblendfunc filter\n"
                                      "depthFunc equal } }")),
              bsp::kSurfAlphaTest | bsp::kSurfNoCull);
    EXPECT_EQ(surfaceFlagsOf(parseOne("a { { map $lightmap } { map a\nblendfunc filter } }")),
              0u); // the usual lightmapped wall
    EXPECT_EQ(surfaceFlagsOf(implicitShader("textures/a/b", true)), 0u);
}

TEST(Q3Shader, ImplicitShaders) {
    const ShaderDef lm = implicitShader("textures/base/floor", true);
    EXPECT_TRUE(lm.implicit);
    ASSERT_EQ(lm.stages.size(), 2u);
    EXPECT_EQ(lm.stages[0].map, MapKind::Lightmap);
    EXPECT_EQ(lm.stages[0].tc_gen, TcGen::Lightmap);
    EXPECT_EQ(lm.stages[1].map, MapKind::Texture);
    EXPECT_EQ(lm.stages[1].images[0], "textures/base/floor");
    EXPECT_TRUE(lm.stages[1].blend);
    EXPECT_EQ(lm.stages[1].src, BlendFactor::DstColor);
    EXPECT_EQ(lm.stages[1].dst, BlendFactor::Zero);
    EXPECT_FLOAT_EQ(lm.sort, kSortOpaque);
    EXPECT_EQ(primaryImage(lm), "textures/base/floor");

    const ShaderDef v = implicitShader("models/m", false);
    ASSERT_EQ(v.stages.size(), 1u);
    EXPECT_EQ(v.stages[0].map, MapKind::Texture);
    EXPECT_EQ(v.stages[0].rgb_gen, RgbGen::ExactVertex);
    EXPECT_FALSE(v.stages[0].blend);
}

TEST(Q3Shader, DescribeForTheOverlay) {
    const ShaderDef d = parseOne("textures/x/y\n{\n cull none\n surfaceparm trans\n"
                                 " { map $lightmap }\n"
                                 " { map textures/x/y.tga\n blendfunc filter\n"
                                 "   tcMod scroll 0.5 0 }\n bogus\n}");
    const std::vector<std::string> lines = describeShader(d);
    ASSERT_EQ(lines.size(), 5u);
    EXPECT_EQ(lines[0], "scripts/test.shader:1 textures/x/y");
    EXPECT_EQ(lines[1], "sort 3 | cull none | surfaceparm trans");
    EXPECT_EQ(lines[2], "stage 0: map $lightmap | rgbGen identityLighting | tcGen lightmap");
    EXPECT_EQ(lines[3], "stage 1: map textures/x/y.tga | blendFunc GL_DST_COLOR GL_ZERO | "
                        "rgbGen identity | tcMod scroll 0.5 0");
    EXPECT_EQ(lines[4], "warning line 9: unknown shader keyword 'bogus'");
    EXPECT_EQ(describeShader(implicitShader("a", false))[0], "a (implicit)");
}

// ---------------------------------------------------------------------------------------------
// Tokenizer and hostile text

TEST(Q3Shader, CommentsQuotesAndGluedBraces) {
    ShaderScript s = parseShaderScript("/* block\n comment */ \"quoted name\"{// c\n"
                                       "{map \"textures/with space.tga\"}\n"
                                       "/* x */ }\n"
                                       "second{{map $lightmap}}",
                                       "f");
    ASSERT_EQ(s.shaders.size(), 2u);
    EXPECT_EQ(s.shaders[0].name, "quoted name");
    EXPECT_EQ(s.shaders[0].line, 2);
    ASSERT_EQ(s.shaders[0].stages.size(), 1u);
    EXPECT_EQ(s.shaders[0].stages[0].images[0], "textures/with space.tga");
    EXPECT_EQ(s.shaders[1].name, "second");
    EXPECT_EQ(s.shaders[1].line, 5);
    EXPECT_EQ(s.shaders[1].stages[0].map, MapKind::Lightmap);
    EXPECT_TRUE(s.warnings.empty());
    EXPECT_TRUE(s.ioq3_file_ok);
}

TEST(Q3Shader, KeywordsIgnoreCaseAndCrLf) {
    const ShaderDef d = parseOne("A\r\n{\r\n SURFACEPARM NODRAW\r\n CULL NONE\r\n SORT ADDITIVE\r\n"
                                 " SKYPARMS ENV/X 128 -\r\n NOMIPMAPS\r\n"
                                 " { MAP $LIGHTMAP\r\n RGBGEN IDENTITY }\r\n"
                                 " { ANIMMAP 1 A B\r\n BLENDFUNC GL_ONE GL_ONE\r\n"
                                 " ALPHAFUNC ge128\r\n DEPTHWRITE\r\n DEPTHFUNC EQUAL\r\n"
                                 " ALPHAGEN CONST 0.5\r\n TCGEN ENVIRONMENT\r\n"
                                 " TCMOD SCROLL 1 2\r\n DETAIL }\r\n}\r\n");
    EXPECT_TRUE(d.warnings.empty()) << dumpWarnings(d);
    EXPECT_EQ(d.surface_parms, kParmNoDraw);
    EXPECT_EQ(d.cull, CullMode::None);
    EXPECT_EQ(d.sky.far_box, "ENV/X");
    EXPECT_TRUE(d.no_mipmaps);
    ASSERT_EQ(d.stages.size(), 2u);
    EXPECT_EQ(d.stages[0].map, MapKind::Lightmap);
    EXPECT_EQ(d.stages[0].rgb_gen, RgbGen::Identity);
    const ShaderStage& s = d.stages[1];
    EXPECT_EQ(s.map, MapKind::Animated);
    EXPECT_EQ(s.images, (std::vector<std::string>{"A", "B"}));
    EXPECT_TRUE(s.blend);
    EXPECT_EQ(s.alpha_func, AlphaFunc::Ge128);
    EXPECT_TRUE(s.depth_write);
    EXPECT_EQ(s.depth_func, DepthFunc::Equal);
    EXPECT_EQ(s.alpha_gen, AlphaGen::Const);
    EXPECT_FLOAT_EQ(s.alpha_const, 0.5f);
    EXPECT_EQ(s.tc_gen, TcGen::Environment);
    ASSERT_EQ(s.tc_mods.size(), 1u);
    EXPECT_TRUE(s.detail);
    EXPECT_EQ(d.stages[1].line, 10);
}

TEST(Q3Shader, NumbersParseLikeAtof) {
    const ShaderDef d = parseOne("a {\n{ map a\nrgbGen const ( .5 -.25 1. )\n"
                                 "tcMod scale +2 3f\ntcMod scroll abc 1e999\n}\n}");
    ASSERT_EQ(d.stages.size(), 1u);
    EXPECT_FLOAT_EQ(d.stages[0].rgb_const.r, 0.5f);
    EXPECT_FLOAT_EQ(d.stages[0].rgb_const.g, -0.25f);
    EXPECT_FLOAT_EQ(d.stages[0].rgb_const.b, 1.0f);
    ASSERT_EQ(d.stages[0].tc_mods.size(), 2u);
    EXPECT_FLOAT_EQ(d.stages[0].tc_mods[0].s, 2.0f);
    EXPECT_FLOAT_EQ(d.stages[0].tc_mods[0].t, 3.0f); // numeric prefix
    EXPECT_FLOAT_EQ(d.stages[0].tc_mods[1].s, 0.0f); // no number
    EXPECT_FLOAT_EQ(d.stages[0].tc_mods[1].t, 0.0f); // out of range: not inf
}

TEST(Q3Shader, UnknownKeywordsWarnWithLines) {
    const ShaderDef d = parseOne("a\n{\n  frobnicate 1 2 3\n  {\n    map a.tga\n"
                                 "    sparkle yes\n  }\n  surfaceparm nodraw\n}\n");
    EXPECT_TRUE(hasWarningAt(d, 3, "frobnicate")) << dumpWarnings(d);
    EXPECT_TRUE(hasWarningAt(d, 6, "sparkle")) << dumpWarnings(d);
    EXPECT_EQ(d.warnings.size(), 2u) << dumpWarnings(d); // the parameters are not keywords
    EXPECT_TRUE(d.ioq3_rejects);
    EXPECT_EQ(d.surface_parms, kParmNoDraw); // parsing went on
    ASSERT_EQ(d.stages.size(), 1u);
    EXPECT_EQ(d.stages[0].images[0], "a.tga");
}

TEST(Q3Shader, MissingBraces) {
    // EOF inside a stage, then inside the shader.
    ShaderScript s = parseShaderScript("a\n{\n { map x.tga\n", "f");
    ASSERT_EQ(s.shaders.size(), 1u);
    EXPECT_FALSE(s.ioq3_file_ok);
    EXPECT_TRUE(hasWarningAt(s.shaders[0], 4, "inside a stage")) << dumpWarnings(s.shaders[0]);
    ASSERT_EQ(s.shaders[0].stages.size(), 1u);
    EXPECT_EQ(s.shaders[0].stages[0].images[0], "x.tga");

    s = parseShaderScript("a\n{\n { map x.tga }\n surfaceparm trans\n", "f");
    ASSERT_EQ(s.shaders.size(), 1u);
    EXPECT_EQ(s.shaders[0].surface_parms, kParmTrans);
    EXPECT_TRUE(hasWarningAt(s.shaders[0], 5, "closing '}'")) << dumpWarnings(s.shaders[0]);
    EXPECT_FALSE(s.ioq3_file_ok);

    // A name without '{', a stray '}', a section without a name.
    s = parseShaderScript("lonely\nb { { map b } }\n}\n{ map c }\nc { { map c } }", "f");
    ASSERT_EQ(s.shaders.size(), 2u);
    EXPECT_EQ(s.shaders[0].name, "b");
    EXPECT_EQ(s.shaders[1].name, "c");
    ASSERT_EQ(s.warnings.size(), 3u);
    EXPECT_EQ(s.warnings[0].line, 1);
    EXPECT_EQ(s.warnings[1].line, 3);
    EXPECT_EQ(s.warnings[2].line, 4);
    EXPECT_FALSE(s.ioq3_file_ok);
}

TEST(Q3Shader, NestedBraceInStageAndTooManyStages) {
    const ShaderDef d = parseOne("a {\n{ map a\n{ junk { more } }\nblendfunc add\n}\n}");
    ASSERT_EQ(d.stages.size(), 1u);
    EXPECT_TRUE(d.stages[0].blend); // parsing resumed after the skipped section
    EXPECT_TRUE(hasWarningAt(d, 3, "inside a stage"));

    std::string text = "a {\n";
    for (int i = 0; i < 10; ++i)
        text += "{ map s" + std::to_string(i) + " }\n";
    text += "}\n";
    const ShaderDef e = parseOne(text);
    EXPECT_EQ(e.stages.size(), static_cast<size_t>(kMaxShaderStages));
    EXPECT_EQ(e.stages.back().images[0], "s7");
    EXPECT_TRUE(hasWarningAt(e, 10, "stages"));
    EXPECT_TRUE(e.ioq3_rejects);
}

TEST(Q3Shader, LongTokensAreTruncatedWithWarnings) {
    const std::string huge(100000, 'x');
    ShaderScript s = parseShaderScript(huge + " {\n{ map " + huge + " }\n}", "f");
    ASSERT_EQ(s.shaders.size(), 1u);
    const ShaderDef& d = s.shaders[0];
    EXPECT_EQ(d.name.size(), kMaxShaderTokenChars);
    ASSERT_EQ(d.stages.size(), 1u);
    EXPECT_EQ(d.stages[0].images[0].size(), kMaxShaderTokenChars);
    EXPECT_TRUE(hasWarningAt(d, 1, "truncated"));
    EXPECT_TRUE(hasWarningAt(d, 2, "truncated"));
}

TEST(Q3Shader, WarningsAreCapped) {
    std::string text = "a {\n";
    for (int i = 0; i < 1000; ++i)
        text += "bogus" + std::to_string(i) + "\n";
    text += "}";
    const ShaderDef d = parseOne(text);
    EXPECT_EQ(d.warnings.size(), kMaxShaderWarnings);
    EXPECT_EQ(d.dropped_warnings, 1000u - kMaxShaderWarnings);
}

TEST(Q3Shader, GarbageNeverCrashes) {
    // Unclosed comment, unclosed quote, lone braces, control bytes, high bytes.
    const char* samples[] = {
        "",
        "{",
        "}",
        "{{{{",
        "}}}}",
        "a",
        "a {",
        "a { {",
        "a { /* never closed",
        "a { \"never closed",
        "a { { map",
        "a { { animMap",
        "a { { blendfunc GL_ONE",
        "a { fogparms ( 1 2",
        "a { { tcgen vector ( 1",
        "\x01\x02\xff\xfe{}\x7f",
        "a { deformVertexes move 1 2",
        "a { skyparms",
        "a { sort",
        "/",
        "/*",
        "//",
    };
    for (const char* s : samples) {
        const ShaderScript r = parseShaderScript(s, "garbage");
        for (const ShaderDef& d : r.shaders)
            EXPECT_LE(d.stages.size(), static_cast<size_t>(kMaxShaderStages));
    }
    // Random streams over a shader-ish alphabet; exact prefixes of a real script.
    const std::string words[] = {"{",
                                 "}",
                                 "map",
                                 "$lightmap",
                                 "blendfunc",
                                 "add",
                                 "GL_ONE",
                                 "rgbGen",
                                 "wave",
                                 "sin",
                                 "(",
                                 ")",
                                 "1",
                                 "-2.5",
                                 "\n",
                                 "//",
                                 "/*",
                                 "*/",
                                 "\"",
                                 "tcMod",
                                 "scroll",
                                 "animMap",
                                 "deformVertexes",
                                 "skyparms",
                                 "fogparms",
                                 "surfaceparm",
                                 "sort",
                                 "cull",
                                 "x"};
    std::mt19937 rng(1234);
    for (int iter = 0; iter < 2000; ++iter) {
        std::string text;
        const int n = static_cast<int>(rng() % 200);
        for (int i = 0; i < n; ++i) {
            text += words[rng() % std::size(words)];
            text += (rng() % 4 == 0) ? "\n" : " ";
        }
        const ShaderScript r = parseShaderScript(text, "fuzz");
        EXPECT_LE(r.shaders.size(), text.size());
    }
    const std::string script = "a\n{\n surfaceparm nodraw\n {\n  map $lightmap\n  rgbGen "
                               "identity\n }\n { map t.tga\n blendfunc GL_DST_COLOR GL_ZERO\n"
                               "  tcMod scroll 1 2\n }\n}\n";
    for (size_t len = 0; len <= script.size(); ++len)
        parseShaderScript(std::string_view(script).substr(0, len), "prefix");
}

TEST(Q3Shader, ShaderCountIsCapped) {
    std::string text;
    text.reserve((kMaxShadersPerScript + 10) * 6);
    for (size_t i = 0; i < kMaxShadersPerScript + 10; ++i)
        text += "s{ }\n";
    const ShaderScript r = parseShaderScript(text, "many");
    EXPECT_EQ(r.shaders.size(), kMaxShadersPerScript);
    ASSERT_FALSE(r.warnings.empty());
}

// ---------------------------------------------------------------------------------------------
// Library: lookup and override order

TEST(ShaderLibrary, FirstDefinitionWinsAndLookupIgnoresCaseAndExtension) {
    ShaderLibrary lib;
    lib.addScript(parseShaderScript("Textures/A/One { { map first.tga } }", "scripts/a.shader"));
    lib.addScript(parseShaderScript("textures/a/one { { map second.tga } }\n"
                                    "textures/a/two { { map two.tga } }",
                                    "scripts/b.shader"));
    EXPECT_EQ(lib.shaderCount(), 2u);
    EXPECT_EQ(lib.definitionCount(), 3u);
    const ShaderDef* one = lib.find("TEXTURES/a/one.tga");
    ASSERT_NE(one, nullptr);
    EXPECT_EQ(one->file, "scripts/a.shader");
    EXPECT_EQ(primaryImage(*one), "first.tga");
    EXPECT_NE(lib.find("textures/a/two"), nullptr);
    EXPECT_EQ(lib.find("textures/a/three"), nullptr);
    const ShaderDef implicit = lib.resolve("textures/a/three", false);
    EXPECT_TRUE(implicit.implicit);
    EXPECT_EQ(lib.resolve("textures/a/two", true).file, "scripts/b.shader");
    EXPECT_EQ(shaderKey("Textures/X/Y.TGA"), "textures/x/y");
    EXPECT_EQ(shaderKey("textures/x.y/z"), "textures/x.y/z");
}

TEST(ShaderLibrary, ResolveSurfaceFlagsOrsShaderFlagsIn) {
    ShaderLibrary lib;
    lib.addScript(parseShaderScript("glass { { map g\nblendfunc add } }\n"
                                    "sky { skyparms env/s 512 -\n}\n",
                                    "scripts/s.shader"));
    std::vector<bsp::Material> mats(3);
    mats[0].name = "GLASS";
    mats[0].flags = bsp::kSurfLiquid;
    mats[1].name = "sky";
    mats[2].name = "plain";
    mats[2].flags = bsp::kSurfAlphaTest;
    const std::vector<bsp::Material> before = mats;
    EXPECT_EQ(resolveSurfaceFlags(mats[0], &lib),
              bsp::kSurfLiquid | bsp::kSurfTranslucent | bsp::kSurfAdditive);
    EXPECT_EQ(resolveSurfaceFlags(mats[1], &lib), static_cast<uint32_t>(bsp::kSurfSky));
    EXPECT_EQ(resolveSurfaceFlags(mats[2], &lib), static_cast<uint32_t>(bsp::kSurfAlphaTest));
    EXPECT_EQ(resolveSurfaceFlags(mats[0], nullptr), static_cast<uint32_t>(bsp::kSurfLiquid));
    for (size_t i = 0; i < mats.size(); ++i)
        EXPECT_EQ(mats[i].flags, before[i].flags) << i; // the materials are only read
}

TEST(ShaderLibrary, BrokenFileIsSkippedLikeIoquake3) {
    ShaderLibrary lib;
    lib.addScript(parseShaderScript("good { { map g } }\nbroken {\n", "scripts/bad.shader"));
    lib.addScript(parseShaderScript("good { { map h } }", "scripts/ok.shader"));
    ASSERT_NE(lib.find("good"), nullptr);
    EXPECT_EQ(lib.find("good")->file, "scripts/ok.shader");
    ASSERT_EQ(lib.warnings().size(), 1u);
    EXPECT_EQ(lib.warnings()[0].file, "scripts/bad.shader");
    EXPECT_EQ(lib.files(), std::vector<std::string>{"scripts/ok.shader"});

    ShaderLibrary tolerant;
    tolerant.addScript(parseShaderScript("good { { map g } }\nbroken {\n", "scripts/bad.shader"),
                       false);
    EXPECT_NE(tolerant.find("broken"), nullptr);
}

TEST(ShaderLibrary, LoadOrderFollowsIoquake3AcrossArchives) {
    TempDir dir;
    // pak0: base.shader and zeta.shader both define "shared"; alpha.shader defines "x".
    writeZip(dir / "pak0.pk3",
             {{"scripts/alpha.shader", "x { { map pak0_alpha_x } }\n"},
              {"scripts/base.shader", "shared { { map pak0_base } }\nbaseonly { { map b } }\n"},
              {"scripts/zeta.shader", "shared { { map pak0_zeta } }\n"},
              {"scripts/sub/deep.shader", "deep { { map d } }\n"},
              {"scripts/a/b/deeper.shader", "deeper { { map d } }\n"},
              {"scripts/notes.txt", "x { { map txt } }\n"}});
    // pak1 (higher priority): replaces base.shader wholesale; its own new file also
    // defines "x" and "shared".
    writeZip(dir / "pak1.pk3", {{"scripts/base.shader", "shared { { map pak1_base } }\n"},
                                {"scripts/mine.shader",
                                 "x { { map pak1_mine_x } }\nshared { { map pak1_mine } }\n"}});
    // Loose files: the folder itself has the highest priority; its sub-folders are not listed.
    writeText(dir / "scripts/sub/loose.shader", "loose { { map l } }\n");
    writeText(dir / "scripts/top.shader", "x { { map loose_top } }\n");
    FileSystem vfs;
    ASSERT_TRUE(vfs.addGameDir(dir.path()));

    const std::vector<std::string> order = scriptLoadOrder(vfs);
    // pak0's own files first (names descending, one archive sub-folder level included), then
    // the files pak1 provides, then the loose ones.
    EXPECT_EQ(order, (std::vector<std::string>{"scripts/zeta.shader", "scripts/sub/deep.shader",
                                               "scripts/alpha.shader", "scripts/mine.shader",
                                               "scripts/base.shader", "scripts/top.shader"}));

    const ShaderLibrary lib = ShaderLibrary::load(vfs);
    EXPECT_EQ(lib.files(), order);
    // "shared": zeta.shader (pak0) comes first in ioquake3's combined text.
    ASSERT_NE(lib.find("shared"), nullptr);
    EXPECT_EQ(primaryImage(*lib.find("shared")), "pak0_zeta");
    // "x": pak0's alpha.shader beats pak1's mine.shader.
    EXPECT_EQ(primaryImage(*lib.find("x")), "pak0_alpha_x");
    // pak0's base.shader is replaced as a whole file: "baseonly" is gone.
    EXPECT_EQ(lib.find("baseonly"), nullptr);
    EXPECT_NE(lib.find("deep"), nullptr);   // one archive sub-folder level is scanned
    EXPECT_EQ(lib.find("deeper"), nullptr); // two are not
    EXPECT_EQ(lib.find("loose"), nullptr);  // nor loose sub-folders
    EXPECT_TRUE(lib.warnings().empty());
}

TEST(ShaderLibrary, TexturesResolveThroughShaderStages) {
    TempDir dir;
    const std::string png = tinyPngBytes(dir);
    writeZip(dir / "pak0.pk3", {{"scripts/t.shader",
                                 "textures/a/shiny { { map $lightmap } { map textures/a/real.tga\n"
                                 "blendfunc filter } }\n"
                                 "textures/a/anim { { animMap 2 textures/a/f1 textures/a/f2 } }\n"
                                 "textures/a/sky { skyparms env/none 512 -\n}\n"
                                 "textures/a/ghost { { map textures/a/nothere.tga } }\n"},
                                {"textures/a/real.png", png},
                                {"textures/a/f1.png", png},
                                {"textures/a/ghost.png", png},
                                {"textures/a/plain.png", png}});
    FileSystem vfs;
    ASSERT_TRUE(vfs.addGameDir(dir.path()));
    const ShaderLibrary lib = ShaderLibrary::load(vfs);
    bsp::Map map;
    for (const char* n : {"textures/a/shiny", "textures/a/anim", "textures/a/sky",
                          "textures/a/ghost", "textures/a/plain"}) {
        bsp::Material m;
        m.name = n;
        map.materials.push_back(m);
    }
    const auto plain = loadMaterialTextures(map, vfs, 1);
    const auto shaded = loadMaterialTextures(map, vfs, lib, 2);
    ASSERT_EQ(shaded.size(), 5u);
    EXPECT_TRUE(plain[0].missing);
    EXPECT_FALSE(shaded[0].missing);
    EXPECT_EQ(shaded[0].source, "textures/a/real.png");
    EXPECT_EQ(shaded[0].shader_file, "scripts/t.shader");
    EXPECT_EQ(shaded[0].shader_image, "textures/a/real.tga");
    EXPECT_EQ(shaded[1].source, "textures/a/f1.png");
    EXPECT_TRUE(shaded[2].missing); // a sky without stages stays a sky
    EXPECT_EQ(shaded[2].shader_image, "");
    EXPECT_EQ(shaded[3].source, "textures/a/ghost.png"); // stage image absent: the name
    EXPECT_EQ(shaded[4].source, "textures/a/plain.png");
    EXPECT_EQ(shaded[4].shader_file, "");
    EXPECT_EQ(plain[4].source, shaded[4].source);
}

// ---------------------------------------------------------------------------------------------
// OpenArena

TEST(ShaderLibraryReal, OpenArenaScriptsParse) {
    const fs::path base = BSPV_OPENARENA_DIR;
    ASSERT_TRUE(fs::exists(base / "pak0.pk3")) << base;
    FileSystem vfs;
    ASSERT_TRUE(vfs.addGameDir(base));
    const std::vector<std::string> order = scriptLoadOrder(vfs);
    ASSERT_GT(order.size(), 50u);
    const ShaderLibrary lib = ShaderLibrary::load(vfs);
    size_t rejected = 0;
    for (const ShaderDef& d : lib.definitions()) {
        rejected += d.ioq3_rejects ? 1 : 0;
        for (const ShaderWarning& w : d.warnings)
            std::printf("  %s:%d: %s: %s\n", d.file.c_str(), w.line, d.name.c_str(),
                        w.message.c_str());
        if (d.ioq3_rejects && d.warnings.empty())
            std::printf("  %s:%d: %s: no stages (ioquake3 would reject)\n", d.file.c_str(), d.line,
                        d.name.c_str());
    }
    std::printf("OpenArena: %zu scripts, %zu loaded, %zu skipped, %zu definitions, %zu distinct "
                "shaders, %zu parse warnings, %zu definitions ioquake3 would reject\n",
                order.size(), lib.files().size(), lib.warnings().size(), lib.definitionCount(),
                lib.shaderCount(), lib.parseWarningCount(), rejected);
    for (const ShaderLibraryWarning& w : lib.warnings())
        std::printf("  %s:%d: %s\n", w.file.c_str(), w.line, w.message.c_str());
    EXPECT_EQ(lib.files().size() + lib.warnings().size(), order.size());
    EXPECT_GT(lib.shaderCount(), 1000u);
    // Most definitions are clean.
    EXPECT_LT(rejected * 20, lib.definitionCount());
    size_t skies = 0;
    for (const ShaderDef& d : lib.definitions())
        skies += d.sky.present ? 1 : 0;
    EXPECT_GT(skies, 0u);
}

TEST(ShaderLibraryReal, MutatedOpenArenaScriptsNeverCrash) {
    FileSystem vfs;
    ASSERT_TRUE(vfs.addGameDir(BSPV_OPENARENA_DIR));
    const std::vector<std::string> order = scriptLoadOrder(vfs);
    ASSERT_GT(order.size(), 20u);
    std::mt19937 rng(99);
    size_t parsed = 0;
    for (size_t f = 0; f < order.size(); f += 6) {
        auto bytes = vfs.read(order[f]);
        ASSERT_TRUE(bytes) << order[f];
        std::string text(bytes->begin(), bytes->end());
        if (text.empty())
            continue;
        const char kNasty[] = {'{', '}', '"', '/', '*', '(', ')', '\n', '\0', ' '};
        for (int m = 0; m < 10; ++m) {
            std::string t = text;
            for (int k = 0; k < 8; ++k)
                t[rng() % t.size()] = kNasty[rng() % std::size(kNasty)];
            t.resize(rng() % (t.size() + 1));
            const ShaderScript r = parseShaderScript(t, order[f]);
            for (const ShaderDef& d : r.shaders) {
                EXPECT_LE(d.stages.size(), static_cast<size_t>(kMaxShaderStages));
                EXPECT_LE(d.warnings.size(), kMaxShaderWarnings);
            }
            ++parsed;
        }
    }
    EXPECT_GT(parsed, 100u);
}

TEST(ShaderLibraryReal, OaDm5TexturesResolveThroughShaders) {
    const fs::path base = BSPV_OPENARENA_DIR;
    FileSystem vfs;
    ASSERT_TRUE(vfs.addGameDir(base));
    auto bytes = vfs.readChecked("maps/oa_dm5.bsp");
    ASSERT_TRUE(bytes) << bytes.error().message();
    auto map = bsp::loadMap(*bytes, "oa_dm5.bsp");
    ASSERT_TRUE(map) << map.error().message();
    const ShaderLibrary lib = ShaderLibrary::load(vfs);

    const auto plain = loadMaterialTextures(*map, vfs);
    const auto shaded = loadMaterialTextures(*map, vfs, lib);
    ASSERT_EQ(plain.size(), shaded.size());
    size_t missing_plain = 0, missing_shaded = 0, with_shader = 0, got_worse = 0;
    for (size_t i = 0; i < plain.size(); ++i) {
        missing_plain += plain[i].missing ? 1 : 0;
        missing_shaded += shaded[i].missing ? 1 : 0;
        with_shader += shaded[i].shader_file.empty() ? 0 : 1;
        got_worse += (!plain[i].missing && shaded[i].missing) ? 1 : 0;
        if (shaded[i].missing)
            std::printf("  still missing: %s%s\n", map->materials[i].name.c_str(),
                        shaded[i].shader_file.empty() ? "" : " (has a shader)");
    }
    std::printf("oa_dm5: %zu materials, %zu with a shader, missing %zu without shaders, %zu "
                "with\n",
                plain.size(), with_shader, missing_plain, missing_shaded);
    EXPECT_LT(missing_shaded, missing_plain);
    EXPECT_EQ(got_worse, 0u);
}

// q3_shader_names.h: the one table per enum that the parser reads and the display writes.
// Every value from the first to `last` (but those in `unnamed`) has a name, and that name
// reads back as the value in any case; every name of the table, aliases included, reads back
// as a value whose written name is the first one of that value; no name is listed twice.
template <typename Entry, size_t N, typename E>
void expectNamesRoundTrip(const Entry (&table)[N], E last, std::initializer_list<E> unnamed = {}) {
    for (int i = 0; i <= static_cast<int>(last); ++i) {
        const E value = static_cast<E>(i);
        const std::string_view name = shaderNameOf(table, value);
        if (std::find(unnamed.begin(), unnamed.end(), value) != unnamed.end()) {
            EXPECT_EQ(name, "?") << i;
            continue;
        }
        ASSERT_NE(name, "?") << "value " << i << " has no name";
        const Entry* back = findShaderName(table, name);
        ASSERT_NE(back, nullptr) << name;
        EXPECT_EQ(back->value, value) << name;
        std::string upper(name);
        for (char& c : upper)
            c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        ASSERT_NE(findShaderName(table, upper), nullptr) << upper;
        EXPECT_EQ(findShaderName(table, upper)->value, value) << upper;
    }
    for (size_t i = 0; i < N; ++i) {
        const Entry* e = findShaderName(table, table[i].name);
        EXPECT_EQ(e, &table[i]) << table[i].name << " is listed twice (any case)";
        const std::string_view written = shaderNameOf(table, table[i].value);
        EXPECT_EQ(findShaderName(table, written)->value, table[i].value) << table[i].name;
    }
    EXPECT_EQ(findShaderName(table, "no such name"), nullptr);
}

TEST(Q3ShaderNames, EveryTableRoundTrips) {
    expectNamesRoundTrip(kCullModeNames, CullMode::None);
    expectNamesRoundTrip(kWaveFuncNames, WaveFunc::Noise);
    expectNamesRoundTrip(kDeformNames, DeformKind::Text);
    expectNamesRoundTrip(kStageMapNames, MapKind::Video,
                         {MapKind::None, MapKind::Lightmap, MapKind::White});
    expectNamesRoundTrip(
        kBuiltinImageNames, MapKind::Video,
        {MapKind::None, MapKind::Texture, MapKind::Clamp, MapKind::Animated, MapKind::Video});
    expectNamesRoundTrip(kBlendFactorNames, BlendFactor::SrcAlphaSaturate);
    expectNamesRoundTrip(kAlphaFuncNames, AlphaFunc::Ge128, {AlphaFunc::None});
    expectNamesRoundTrip(kDepthFuncNames, DepthFunc::Equal);
    expectNamesRoundTrip(kRgbGenNames, RgbGen::Const);
    expectNamesRoundTrip(kAlphaGenNames, AlphaGen::LightingSpecular);
    expectNamesRoundTrip(kTcGenNames, TcGen::Vector);
    expectNamesRoundTrip(kTcModNames, TcModKind::EntityTranslate);
}

TEST(Q3ShaderNames, SurfaceParmsRoundTrip) {
    for (int bit = 0; bit < 32; ++bit) {
        const uint32_t parm = 1u << bit;
        const std::string_view name = shaderNameOf(kSurfaceParmNames, parm);
        ASSERT_NE(name, "?") << "bit " << bit;
        EXPECT_EQ(surfaceParmFromName(name), parm) << name;
        const ShaderDef d = parseOne("a {\nsurfaceparm " + std::string(name) + "\n}");
        EXPECT_EQ(d.surface_parms, parm) << name;
        EXPECT_NE(describeShader(d)[1].find("surfaceparm " + std::string(name)), std::string::npos);
    }
}

// The display functions of q3_shader.h write the tables' names, and what they write parses
// back to the same value.
TEST(Q3ShaderNames, DisplayNamesComeFromTheTables) {
    for (int i = 0; i <= static_cast<int>(BlendFactor::SrcAlphaSaturate); ++i) {
        const auto f = static_cast<BlendFactor>(i);
        EXPECT_EQ(blendFactorName(f), shaderNameOf(kBlendFactorNames, f));
    }
    for (int i = 0; i <= static_cast<int>(RgbGen::Const); ++i) {
        const auto g = static_cast<RgbGen>(i);
        EXPECT_EQ(rgbGenName(g), shaderNameOf(kRgbGenNames, g));
        const ShaderDef d =
            parseOne("a {\n{ map a\nrgbGen " + std::string(rgbGenName(g)) + "\n}\n}");
        ASSERT_EQ(d.stages.size(), 1u);
        EXPECT_EQ(d.stages[0].rgb_gen, g) << rgbGenName(g);
    }
    for (int i = 0; i <= static_cast<int>(AlphaGen::LightingSpecular); ++i) {
        const auto g = static_cast<AlphaGen>(i);
        EXPECT_EQ(alphaGenName(g), shaderNameOf(kAlphaGenNames, g));
        const ShaderDef d =
            parseOne("a {\n{ map a\nalphaGen " + std::string(alphaGenName(g)) + "\n}\n}");
        ASSERT_EQ(d.stages.size(), 1u);
        EXPECT_EQ(d.stages[0].alpha_gen, g) << alphaGenName(g);
    }
    for (int i = 0; i <= static_cast<int>(TcGen::Vector); ++i) {
        const auto g = static_cast<TcGen>(i);
        EXPECT_EQ(tcGenName(g), shaderNameOf(kTcGenNames, g));
    }
    for (int i = 0; i <= static_cast<int>(WaveFunc::Noise); ++i)
        EXPECT_EQ(waveFuncName(static_cast<WaveFunc>(i)),
                  shaderNameOf(kWaveFuncNames, static_cast<WaveFunc>(i)));
    for (int i = 0; i <= static_cast<int>(TcModKind::EntityTranslate); ++i)
        EXPECT_EQ(tcModName(static_cast<TcModKind>(i)),
                  shaderNameOf(kTcModNames, static_cast<TcModKind>(i)));
    for (int i = 0; i <= static_cast<int>(DeformKind::Text); ++i)
        EXPECT_EQ(deformName(static_cast<DeformKind>(i)),
                  shaderNameOf(kDeformNames, static_cast<DeformKind>(i)));
    EXPECT_EQ(blendFactorName(static_cast<BlendFactor>(99)), "?");
}

// The image search that material textures and shader stage images share (textures.h).
TEST(Q3ShaderTextures, LoadImageTextureTriesTheExtensionsInOrder) {
    TempDir dir;
    const std::string png = tinyPngBytes(dir);
    writeZip(dir / "pak0.pk3", {{"textures/a/b.png", png},
                                {"textures/a/bad.tga", "not an image"},
                                {"textures/a/bad.jpg", png}});
    FileSystem vfs;
    ASSERT_TRUE(vfs.addGameDir(dir.path()));

    const TextureInfo b = loadImageTexture(vfs, "textures/a/b.tga"); // .tga absent: .png
    EXPECT_FALSE(b.missing);
    EXPECT_EQ(b.source, "textures/a/b.png");
    EXPECT_EQ(b.origin, "pak0.pk3");
    EXPECT_TRUE(b.image.valid());

    const TextureInfo bad = loadImageTexture(vfs, "textures/a/bad"); // .tga does not decode
    EXPECT_FALSE(bad.missing);
    EXPECT_EQ(bad.source, "textures/a/bad.jpg");
    EXPECT_FALSE(bad.error.empty());

    const TextureInfo none = loadImageTexture(vfs, "textures/a/none");
    EXPECT_TRUE(none.missing);
    EXPECT_TRUE(none.source.empty());
    EXPECT_EQ(none.image.rgba, makeMissingTexture().rgba);

    TextureInfo keep;
    keep.image = makeMissingTexture(8);
    EXPECT_FALSE(loadImageFile(vfs, "textures/a/none", keep));
    EXPECT_EQ(keep.image.width, 8);
}
