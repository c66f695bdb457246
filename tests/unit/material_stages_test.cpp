// scene/material_stages: which shaders draw stage by stage, the ioquake3 collapse of lightmap
// pairs, and the per-frame values of waves, colour generators and texture-coordinate mods.
#include "content/material/q3_shader.h"
#include "content/material/shader_library.h"
#include "content/vfs/vfs.h"
#include "scene/world/material_stages.h"

#include <gtest/gtest.h>

#include <glm/glm.hpp>

#include <string>
#include <vector>

namespace {

using content::ShaderDef;
using scene::RenderStage;
using scene::StageSource;

ShaderDef parseOne(const std::string& text) {
    content::ShaderScript s = content::parseShaderScript(text, "scripts/test.shader");
    EXPECT_EQ(s.shaders.size(), 1u);
    return s.shaders.empty() ? ShaderDef() : s.shaders[0];
}

std::vector<RenderStage> stagesOf(const std::string& text,
                                  std::vector<scene::StageImage>* out = nullptr) {
    std::vector<scene::StageImage> images;
    auto stages = scene::buildRenderStages(parseOne(text), images);
    if (out)
        *out = images;
    return stages;
}

glm::vec2 apply(const glm::mat3& m, glm::vec2 st) {
    const glm::vec3 r = m * glm::vec3(st, 1.0f);
    return glm::vec2(r);
}

void expectVec(glm::vec2 got, glm::vec2 want, const char* what) {
    EXPECT_NEAR(got.x, want.x, 1e-4f) << what;
    EXPECT_NEAR(got.y, want.y, 1e-4f) << what;
}

} // namespace

TEST(MaterialStages, ImplicitShaderIsPlainLightmapped) {
    std::vector<scene::StageImage> images;
    const auto stages =
        scene::buildRenderStages(content::implicitShader("textures/a/b", true), images);
    ASSERT_EQ(stages.size(), 1u);
    EXPECT_TRUE(stages[0].times_lightmap);
    EXPECT_EQ(stages[0].shader_stage_count, 2);
    EXPECT_TRUE(scene::isPlainLightmapped(stages));
}

TEST(MaterialStages, LightmapFilterPairCollapsesAndGlowStays) {
    std::vector<scene::StageImage> images;
    const auto stages = stagesOf(R"(x
{
    { map $lightmap rgbGen identity }
    { map textures/a/wall.tga blendFunc filter }
    { map textures/a/wall_glow.tga blendFunc add rgbGen wave sin 0.5 0.5 0 1 }
})",
                                 &images);
    ASSERT_EQ(stages.size(), 2u);
    EXPECT_TRUE(stages[0].times_lightmap);
    EXPECT_EQ(stages[0].source, StageSource::Texture);
    EXPECT_FALSE(stages[0].def.blend) << "the pair draws with the first stage's (no) blend";
    EXPECT_EQ(stages[0].rgb_gen, content::RgbGen::Identity);
    EXPECT_EQ(stages[0].shader_stage, 0);
    EXPECT_FALSE(stages[1].times_lightmap);
    EXPECT_EQ(stages[1].shader_stage, 2);
    ASSERT_EQ(images.size(), 2u);
    EXPECT_EQ(images[static_cast<size_t>(stages[0].frames[0])].name, "textures/a/wall.tga");
    EXPECT_FALSE(scene::isPlainLightmapped(stages)) << "the glow needs the stage path";
}

TEST(MaterialStages, PairsThatIoquake3KeepsApartStayApart) {
    // Additive second stage: not a filter.
    EXPECT_EQ(stagesOf("x\n{\n{ map $lightmap }\n{ map t.tga blendFunc add }\n}\n").size(), 2u);
    // Different alpha tests.
    EXPECT_EQ(
        stagesOf("x\n{\n{ map t.tga alphaFunc GE128 }\n{ map $lightmap blendFunc filter }\n}\n")
            .size(),
        2u);
    // Two texture stages.
    EXPECT_EQ(stagesOf("x\n{\n{ map a.tga }\n{ map b.tga blendFunc filter }\n}\n").size(), 2u);
    // Texture first, lightmap second: collapses when both stages colour alike (ioquake3
    // compares their rgbGen and alphaGen), and the pair is then plain texture x lightmap.
    const auto s =
        stagesOf("x\n{\n{ map a.tga rgbGen identity }\n"
                 "{ map $lightmap blendFunc GL_ZERO GL_SRC_COLOR rgbGen identity }\n}\n");
    ASSERT_EQ(s.size(), 1u);
    EXPECT_TRUE(s[0].times_lightmap);
    EXPECT_TRUE(scene::isPlainLightmapped(s));
    // Different rgbGen (identityLighting against the filter stage's default identity): apart.
    EXPECT_EQ(stagesOf("x\n{\n{ map a.tga rgbGen identityLighting }\n"
                       "{ map $lightmap blendFunc GL_ZERO GL_SRC_COLOR }\n}\n")
                  .size(),
              2u);
    // Only the first two stages can collapse: a lightmap filter at the end stays a stage of
    // its own and darkens everything drawn before it (oa_thor's bluemetalsupport2e).
    EXPECT_EQ(stagesOf("x\n{\n{ map a.tga rgbGen identity }\n{ map b.tga blendFunc add "
                       "rgbGen identity }\n{ map $lightmap blendFunc filter rgbGen identity }\n}\n")
                  .size(),
              3u);
}

TEST(MaterialStages, StagesWithoutMapAreDroppedAndSkiesKeepTheirClouds) {
    const auto s = stagesOf("x\n{\n{ rgbGen identity }\n{ map $whiteimage }\n}\n");
    ASSERT_EQ(s.size(), 1u);
    EXPECT_EQ(s[0].source, StageSource::White);
    EXPECT_EQ(s[0].shader_stage, 1);

    const auto sky = stagesOf(R"(textures/skies/x
{
    surfaceparm sky
    skyParms env/space 512 -
    { map textures/skies/clouds.tga tcMod scroll 0.1 0 }
    { map $lightmap }
    { map textures/skies/clouds2.tga blendFunc add }
})");
    ASSERT_EQ(sky.size(), 2u) << "a sky keeps only its texture stages";
    EXPECT_EQ(sky[1].def.src, content::BlendFactor::One);
}

TEST(MaterialStages, AnimMapFramesAndImagesAreShared) {
    std::vector<scene::StageImage> images;
    const ShaderDef a =
        parseOne("a\n{\n{ animMap 4 f1.tga f2.tga f3.tga }\n{ map f2.tga blendFunc add }\n}\n");
    const auto stages = scene::buildRenderStages(a, images);
    ASSERT_EQ(stages.size(), 2u);
    ASSERT_EQ(stages[0].frames.size(), 3u);
    EXPECT_EQ(images.size(), 3u) << "f2.tga is decoded once";
    EXPECT_EQ(stages[1].frames[0], stages[0].frames[1]);
    // 4 frames a second: frame k during [k/4, (k+1)/4), cycling.
    EXPECT_EQ(scene::evalStage(stages[0], 0.0, 1.0f).image, stages[0].frames[0]);
    EXPECT_EQ(scene::evalStage(stages[0], 0.26, 1.0f).image, stages[0].frames[1]);
    EXPECT_EQ(scene::evalStage(stages[0], 0.51, 1.0f).image, stages[0].frames[2]);
    EXPECT_EQ(scene::evalStage(stages[0], 0.76, 1.0f).image, stages[0].frames[0]);
}

TEST(MaterialStages, WavesMatchIoquake3Tables) {
    content::Wave w;
    w.base = 1.0f;
    w.amplitude = 2.0f;
    w.frequency = 1.0f;
    w.phase = 0.0f;
    w.func = content::WaveFunc::Sin;
    EXPECT_NEAR(scene::evalWave(w, 0.25), 3.0f, 1e-4f);
    EXPECT_NEAR(scene::evalWave(w, 0.75), -1.0f, 1e-4f);
    w.func = content::WaveFunc::Triangle;
    EXPECT_NEAR(scene::evalWave(w, 0.125), 2.0f, 1e-4f);
    EXPECT_NEAR(scene::evalWave(w, 0.5), 1.0f, 1e-4f);
    EXPECT_NEAR(scene::evalWave(w, 0.75), -1.0f, 1e-4f);
    w.func = content::WaveFunc::Square;
    EXPECT_NEAR(scene::evalWave(w, 0.2), 3.0f, 1e-4f);
    EXPECT_NEAR(scene::evalWave(w, 0.7), -1.0f, 1e-4f);
    w.func = content::WaveFunc::Sawtooth;
    EXPECT_NEAR(scene::evalWave(w, 0.25), 1.5f, 1e-4f);
    w.func = content::WaveFunc::InverseSawtooth;
    EXPECT_NEAR(scene::evalWave(w, 0.25), 2.5f, 1e-4f);
    // The phase shifts the cycle; the frequency scales the time.
    w.func = content::WaveFunc::Sawtooth;
    w.phase = 0.5f;
    w.frequency = 2.0f;
    EXPECT_NEAR(scene::evalWave(w, 0.1), 1.0f + 2.0f * 0.7f, 1e-4f);
    w.func = content::WaveFunc::Noise;
    for (double t = 0.0; t < 3.0; t += 0.173) {
        const float v = scene::evalWave(w, t);
        EXPECT_GE(v, -1.0f - 1e-4f);
        EXPECT_LE(v, 3.0f + 1e-4f);
    }
}

TEST(MaterialStages, ColourGeneratorsFollowIoquake3) {
    const auto s = stagesOf(R"(x
{
    { map a.tga }
    { map a.tga blendFunc filter }
    { map a.tga blendFunc add rgbGen wave sin 0.5 0.5 0 1 }
    { map a.tga blendFunc blend rgbGen const ( 0.1 0.2 0.3 ) alphaGen const 0.25 }
    { map a.tga blendFunc blend rgbGen vertex alphaGen wave square 0.5 1 0 1 }
    { map a.tga blendFunc blend rgbGen oneMinusVertex }
    { map a.tga blendFunc blend rgbGen exactVertex }
})");
    ASSERT_EQ(s.size(), 7u);
    const float il = 0.5f; // identityLight with overbright
    // No rgbGen and no blend: identityLighting, the byte tr.identityLightByte = (int)(255 * 0.5).
    EXPECT_EQ(scene::evalStage(s[0], 0.0, il).colour.r, 127.0f / 255.0f);
    // No rgbGen, filter blend (source GL_DST_COLOR): identity.
    EXPECT_NEAR(scene::evalStage(s[1], 0.0, il).colour.r, 1.0f, 1e-5f);
    // Wave times identityLight, clamped to [0, 1].
    EXPECT_NEAR(scene::evalStage(s[2], 0.25, il).colour.r, 0.5f, 1e-5f); // (0.5 + 0.5) * 0.5
    EXPECT_NEAR(scene::evalStage(s[2], 0.75, il).colour.r, 0.0f, 1e-5f);
    const scene::StageFrame c = scene::evalStage(s[3], 0.0, il);
    EXPECT_NEAR(c.colour.g, 0.2f, 1e-5f);
    EXPECT_NEAR(c.colour.a, 0.25f, 1e-5f);
    const scene::StageFrame v = scene::evalStage(s[4], 0.25, il);
    EXPECT_TRUE(v.vertex_rgb);
    EXPECT_NEAR(v.vertex_scale, 0.5f, 1e-5f);
    EXPECT_NEAR(v.colour.a, 1.0f, 1e-5f) << "alphaGen wave clamped";
    EXPECT_NEAR(scene::evalStage(s[4], 0.75, il).colour.a, 0.0f, 1e-5f);
    const scene::StageFrame om = scene::evalStage(s[5], 0.0, il);
    EXPECT_TRUE(om.vertex_rgb && om.one_minus_vertex);
    const scene::StageFrame ex = scene::evalStage(s[6], 0.0, il);
    EXPECT_TRUE(ex.vertex_rgb);
    EXPECT_NEAR(ex.vertex_scale, 1.0f, 1e-5f);
}

TEST(MaterialStages, TcModsComposeInOrder) {
    const auto s = stagesOf(R"(x
{
    { map a.tga tcMod scroll 0.5 0.25 }
    { map a.tga
      tcMod scale 2 4
      tcMod scroll 1 0 }
    { map a.tga tcMod rotate 90 }
    { map a.tga tcMod transform 0 1 1 0 0.5 0 }
    { map a.tga tcMod stretch sin 2 0 0 1 }
    { map a.tga tcMod turb 0 0.1 0.25 2 }
})");
    ASSERT_EQ(s.size(), 6u);
    // Scroll: offset = speed * time, kept in [0, 1).
    expectVec(apply(scene::evalStage(s[0], 1.0, 1.0f).tc_matrix, {0, 0}), {0.5f, 0.25f}, "scroll");
    expectVec(apply(scene::evalStage(s[0], 3.0, 1.0f).tc_matrix, {0, 0}), {0.5f, 0.75f},
              "scroll wraps");
    // Scale then scroll: (s * 2 + 0.5, t * 4) at t = 0.5 s.
    expectVec(apply(scene::evalStage(s[1], 0.5, 1.0f).tc_matrix, {1, 1}), {2.5f, 4.0f},
              "scale then scroll");
    // Rotate 90 degrees a second, clockwise about the texture centre: after 1 s the point to
    // the right of the centre moves to above it (t smaller).
    const glm::mat3 r = scene::evalStage(s[2], 1.0, 1.0f).tc_matrix;
    expectVec(apply(r, {0.5f, 0.5f}), {0.5f, 0.5f}, "rotate keeps the centre");
    expectVec(apply(r, {1.0f, 0.5f}), {0.5f, 0.0f}, "rotate quarter turn");
    // Transform: s' = s * m00 + t * m10 + t0, t' = s * m01 + t * m11 + t1.
    expectVec(apply(scene::evalStage(s[3], 0.0, 1.0f).tc_matrix, {0.2f, 0.7f}), {1.2f, 0.2f},
              "transform swaps axes");
    // Stretch by 1 / wave about the centre: wave = 2 at t = 0 (sin 0 = 0, base 2).
    expectVec(apply(scene::evalStage(s[4], 0.0, 1.0f).tc_matrix, {1.0f, 1.0f}), {0.75f, 0.75f},
              "stretch");
    // Turb is left to the vertex shader: amplitude and the cycle position.
    const scene::StageFrame t = scene::evalStage(s[5], 1.0, 1.0f);
    EXPECT_NEAR(t.turb.x, 0.1f, 1e-5f);
    EXPECT_NEAR(t.turb.y, 0.25f, 1e-5f); // phase 0.25 + 1 s * 2 Hz, fractional part
    EXPECT_EQ(t.turb.w, 1.0f);
    expectVec(apply(t.tc_matrix, {0.3f, 0.4f}), {0.3f, 0.4f}, "turb adds no affine part");
}

namespace {

std::vector<scene::RenderStage> stagesOf(const char* script) {
    const content::ShaderScript parsed = content::parseShaderScript(script, "t.shader");
    std::vector<scene::StageImage> images;
    return scene::buildRenderStages(parsed.shaders.at(0), images);
}

size_t fold(const std::vector<scene::RenderStage>& stages, size_t max = 6, bool base = false) {
    std::vector<const scene::RenderStage*> drawn;
    for (const scene::RenderStage& s : stages)
        drawn.push_back(&s);
    return scene::foldableRun(drawn, max, base);
}

} // namespace

// A run folds from a stage that replaces the frame; a blended first stage needs the frame
// behind the surface (only an opaque base drawn with it, the sky's, lets it fold).
TEST(MaterialStages, FoldableRunsStartWithAStageThatReplacesTheFrame) {
    const auto opaque = stagesOf(R"(a
{
    { map a.tga }
    { map b.tga blendFunc add }
    { map c.tga blendFunc GL_SRC_ALPHA GL_ONE_MINUS_SRC_ALPHA alphaFunc GE128 }
    { map d.tga blendFunc filter depthFunc equal }
})");
    ASSERT_EQ(opaque.size(), 4u);
    EXPECT_EQ(fold(opaque), 4u);
    EXPECT_EQ(fold(opaque, 2), 2u) << "at most max stages";
    EXPECT_EQ(fold(opaque, 1), 1u);

    const auto blended = stagesOf(R"(b
{
    { map a.tga blendFunc blend }
    { map b.tga blendFunc add }
})");
    ASSERT_EQ(blended.size(), 2u);
    EXPECT_EQ(fold(blended), 1u) << "the first stage blends with what is behind";
    EXPECT_EQ(fold(blended, 6, true), 2u) << "on a base drawn in the same program";
    EXPECT_EQ(fold({}), 0u);
}

// alphaFunc on the first stage: its cut-out texels show what is behind, where a later lequal
// stage would draw too; only depthFunc equal stages fold after it.
TEST(MaterialStages, AlphaTestedFirstStageFoldsOnlyDepthEqualStages) {
    const auto equal = stagesOf(R"(c
{
    { map a.tga alphaFunc GE128 }
    { map $lightmap blendFunc filter depthFunc equal }
    { map b.tga blendFunc add depthFunc equal }
    { map c.tga blendFunc add }
})");
    ASSERT_EQ(equal.size(), 4u);
    EXPECT_EQ(fold(equal), 3u) << "stops at the lequal stage";
    const auto later = stagesOf(R"(d
{
    { map a.tga }
    { map b.tga alphaFunc GT0 blendFunc add }
    { map c.tga blendFunc add }
})");
    EXPECT_EQ(fold(later), 3u) << "alphaFunc on a later stage folds";
}

// Additive stages (destination factor one, a source factor of their own) fold from the first:
// their sum is what the frame gets. Anything else, a depth write or another depthFunc ends it.
TEST(MaterialStages, AdditiveStagesFoldFromTheFirst) {
    const auto run = stagesOf(R"(e
{
    { map a.tga blendFunc add }
    { map b.tga blendFunc GL_SRC_ALPHA GL_ONE }
    { map c.tga blendFunc GL_ONE_MINUS_SRC_COLOR GL_ONE alphaFunc GT0 }
    { map d.tga blendFunc blend }
    { map e.tga blendFunc add }
})");
    ASSERT_EQ(run.size(), 5u);
    EXPECT_TRUE(scene::isAdditive(run[0].def));
    EXPECT_FALSE(scene::isAdditive(run[3].def));
    EXPECT_EQ(fold(run), 3u) << "up to the alpha blend";
    const auto depth = stagesOf(R"(f
{
    { map a.tga blendFunc add }
    { map b.tga blendFunc add depthFunc equal }
})");
    EXPECT_EQ(fold(depth), 1u) << "another depthFunc";
    const auto writes = stagesOf(R"(g
{
    { map a.tga blendFunc add depthWrite }
    { map b.tga blendFunc add }
})");
    EXPECT_EQ(fold(writes), 1u) << "a depth write";
    const auto dst_colour = stagesOf(R"(h
{
    { map a.tga blendFunc GL_DST_COLOR GL_ONE }
    { map b.tga blendFunc add }
})");
    EXPECT_FALSE(scene::isAdditive(dst_colour[0].def)) << "its amount depends on the frame";
    EXPECT_EQ(fold(dst_colour), 1u);
}

// Which materials may have their blended faces reordered (scene::BlendOrder): only those that add
// to the frame in every way the renderer draws them.
TEST(MaterialStages, BlendOrderMarksPurelyAdditiveMaterials) {
    const char* script = R"(
textures/t/beam
{ surfaceparm nolightmap
  { map textures/t/beam.tga blendFunc GL_ONE GL_ONE } }
textures/t/beam_two
{ { map textures/t/a.tga blendFunc add alphaFunc GE128 }
  { map textures/t/b.tga blendFunc GL_ONE GL_ONE tcMod scroll 1 0 rgbGen wave sin 0 1 0 1 } }
textures/t/glass
{ { map textures/t/glass.tga blendFunc blend } }
textures/t/add_then_blend
{ { map textures/t/a.tga blendFunc add } { map textures/t/b.tga blendFunc blend } }
textures/t/add_writes_depth
{ { map textures/t/a.tga blendFunc add depthWrite } }
textures/t/src_alpha_one
{ { map textures/t/a.tga blendFunc GL_SRC_ALPHA GL_ONE } }
textures/t/lit
{ { map $lightmap rgbGen identity } { map textures/t/wall.tga blendFunc filter } }
textures/t/fogvol
{ surfaceparm fog fogparms ( 1 0 0 ) 128 { map textures/t/a.tga blendFunc add } }
textures/t/sky
{ surfaceparm sky skyparms - 512 - { map textures/t/cloud.tga blendFunc add } }
)";
    const std::vector<std::pair<std::string, scene::BlendOrder>> want = {
        {"textures/t/beam", scene::BlendOrder::Commutes},
        {"textures/t/beam_two", scene::BlendOrder::Commutes},
        {"textures/t/glass", scene::BlendOrder::Ordered},
        {"textures/t/add_then_blend", scene::BlendOrder::Ordered},
        {"textures/t/add_writes_depth", scene::BlendOrder::Ordered},
        // Commutes in truth, but the single-texture path (debug views) draws it unflagged as
        // additive, so it is left in order.
        {"textures/t/src_alpha_one", scene::BlendOrder::Ordered},
        // Drawn by the single-texture path: its brush model's blending decides.
        {"textures/t/lit", scene::BlendOrder::CommutesInAdditiveModel},
        {"textures/t/fogvol", scene::BlendOrder::Ordered},
        {"textures/t/sky", scene::BlendOrder::Ordered},
        // No shader at all (Quake 1, Half-Life textures): the single-texture path too.
        {"+0lava", scene::BlendOrder::CommutesInAdditiveModel},
    };
    bsp::Map map;
    for (const auto& [name, order] : want) {
        bsp::Material m;
        m.name = name;
        map.materials.push_back(m);
    }
    content::ShaderLibrary shaders;
    shaders.addScript(content::parseShaderScript(script, "scripts/test.shader"));
    scene::MaterialTable table = scene::resolveMaterials(map, &shaders);
    const content::FileSystem fs;
    const scene::MaterialStages stages = scene::buildMaterialStages(map, table, shaders, fs);
    ASSERT_EQ(stages.materials.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i)
        EXPECT_EQ(static_cast<int>(table[i].blend_order), static_cast<int>(want[i].second))
            << want[i].first;
    // A texture that is additive without a shader (a game's own flag) adds in every view.
    bsp::Map flagged;
    flagged.materials.push_back({});
    flagged.materials[0].name = "additive_texture";
    flagged.materials[0].flags = bsp::kSurfTranslucent | bsp::kSurfAdditive;
    scene::MaterialTable flagged_table = scene::resolveMaterials(flagged, &shaders);
    (void)scene::buildMaterialStages(flagged, flagged_table, shaders, fs);
    EXPECT_EQ(flagged_table[0].blend_order, scene::BlendOrder::Commutes);
}
