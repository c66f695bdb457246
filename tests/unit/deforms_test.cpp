// Quake 3 deformVertexes maths (scene/world/deforms.h) and ioquake3's stage collapse rules
// (scene/world/material_stages.h), without GL.
#include "content/material/q3_shader.h"
#include "scene/world/deforms.h"
#include "scene/world/material_stages.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>

#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

namespace {

constexpr float kTwoPi = 2.0f * std::numbers::pi_v<float>;

content::ShaderDef parseOne(const std::string& text) {
    content::ShaderScript script = content::parseShaderScript(text, "scripts/test.shader");
    EXPECT_EQ(script.shaders.size(), 1u);
    return script.shaders.empty() ? content::ShaderDef{} : script.shaders[0];
}

content::ShaderDef deformShader(const std::string& deform) {
    return parseOne("textures/test/d\n{\n deformVertexes " + deform +
                    "\n {\n  map textures/test/d.tga\n }\n}\n");
}

scene::DeformedVertex deformAt(const content::ShaderDef& def, double time, glm::vec3 p, glm::vec3 n,
                               glm::vec2 st = glm::vec2(0.0f)) {
    const auto frames = scene::evalDeforms(def, time);
    scene::DeformedVertex v{p, n};
    for (const scene::DeformFrame& f : frames)
        v = scene::applyDeform(f, v.position, v.normal, st);
    return v;
}

TEST(Deforms, WaveMovesAlongTheNormalWithSpread) {
    // deformVertexes wave <div> <func> <base> <amp> <phase> <freq>
    const content::ShaderDef def = deformShader("wave 100 sin 0 7 0 0.5");
    ASSERT_EQ(def.deforms.size(), 1u);
    EXPECT_TRUE(scene::hasDrawnDeform(def));
    const glm::vec3 n(0.0f, 0.0f, 1.0f);
    for (double t : {0.0, 0.3, 1.7}) {
        for (glm::vec3 p :
             {glm::vec3(0.0f), glm::vec3(10.0f, 20.0f, 5.0f), glm::vec3(-40.0f, 3.0f, 12.0f)}) {
            const float x = static_cast<float>(t * 0.5) + (p.x + p.y + p.z) / 100.0f;
            const float want = 7.0f * std::sin(kTwoPi * (x - std::floor(x)));
            const scene::DeformedVertex v = deformAt(def, t, p, n);
            EXPECT_NEAR(v.position.z - p.z, want, 1e-3f) << "t=" << t << " x=" << p.x;
            EXPECT_FLOAT_EQ(v.position.x, p.x);
            EXPECT_FLOAT_EQ(v.position.y, p.y);
        }
    }
    // Different positions are at different phases: the surface ripples.
    const float a = deformAt(def, 0.1, glm::vec3(0.0f), n).position.z;
    const float b = deformAt(def, 0.1, glm::vec3(25.0f, 0.0f, 0.0f), n).position.z;
    EXPECT_GT(std::abs(a - b), 1.0f);
}

TEST(Deforms, StillWaveMovesTheWholeSurfaceTogether) {
    // Frequency 0: one value for every vertex (ioquake3 EvalWaveForm), no spread.
    const content::ShaderDef def = deformShader("wave 10 sin 2 3 0.25 0");
    const glm::vec3 n(1.0f, 0.0f, 0.0f);
    for (glm::vec3 p : {glm::vec3(0.0f), glm::vec3(7.0f, 11.0f, 13.0f)}) {
        const scene::DeformedVertex v = deformAt(def, 5.0, p, n);
        EXPECT_NEAR(v.position.x - p.x, 2.0f + 3.0f, 1e-4f); // sin at a quarter cycle is 1
    }
}

TEST(Deforms, TriangleAndSquareWaves) {
    EXPECT_NEAR(scene::waveTable(content::WaveFunc::Triangle, 0.25f), 1.0f, 1e-6f);
    EXPECT_NEAR(scene::waveTable(content::WaveFunc::Triangle, 0.75f), -1.0f, 1e-6f);
    EXPECT_NEAR(scene::waveTable(content::WaveFunc::Square, 0.2f), 1.0f, 1e-6f);
    EXPECT_NEAR(scene::waveTable(content::WaveFunc::Square, 0.7f), -1.0f, 1e-6f);
    EXPECT_NEAR(scene::waveTable(content::WaveFunc::Sawtooth, 1.25f), 0.25f, 1e-6f);
    EXPECT_NEAR(scene::waveTable(content::WaveFunc::InverseSawtooth, 0.25f), 0.75f, 1e-6f);
}

TEST(Deforms, BulgeFollowsTheTextureCoordinate) {
    // deformVertexes bulge <width> <height> <speed>
    const content::ShaderDef def = deformShader("bulge 3 5 2");
    const glm::vec3 n(0.0f, 1.0f, 0.0f);
    for (double t : {0.0, 0.4, 2.5}) {
        for (float s : {0.0f, 0.3f, 1.1f}) {
            const float want =
                std::sin(s * 3.0f + static_cast<float>(std::fmod(t * 2.0, kTwoPi))) * 5.0f;
            const scene::DeformedVertex v =
                deformAt(def, t, glm::vec3(1.0f), n, glm::vec2(s, 0.0f));
            EXPECT_NEAR(v.position.y - 1.0f, want, 1e-4f) << "t=" << t << " s=" << s;
            EXPECT_FLOAT_EQ(v.position.x, 1.0f);
        }
    }
}

TEST(Deforms, MoveShiftsEveryVertexByTheWave) {
    // deformVertexes move <x> <y> <z> <func> <base> <amp> <phase> <freq>
    const content::ShaderDef def = deformShader("move 0 0 10 sin 0 1 0 1");
    for (double t : {0.0, 0.25, 0.5, 0.75, 3.1}) {
        const float w = std::sin(kTwoPi * static_cast<float>(std::fmod(t, 1.0)));
        for (glm::vec3 p : {glm::vec3(0.0f), glm::vec3(100.0f, -50.0f, 8.0f)}) {
            const scene::DeformedVertex v = deformAt(def, t, p, glm::vec3(1.0f, 0.0f, 0.0f));
            EXPECT_NEAR(v.position.z - p.z, 10.0f * w, 1e-3f) << "t=" << t;
            EXPECT_FLOAT_EQ(v.position.x, p.x);
            EXPECT_FLOAT_EQ(v.normal.x, 1.0f); // the normal stays
        }
    }
}

TEST(Deforms, NormalDeformPerturbsAndNormalises) {
    const content::ShaderDef def = deformShader("normal 0.5 2");
    const glm::vec3 n(0.0f, 0.0f, 1.0f);
    bool moved = false;
    for (double t : {0.0, 0.37, 1.9}) {
        const scene::DeformedVertex v = deformAt(def, t, glm::vec3(13.0f, 7.0f, 2.0f), n);
        EXPECT_NEAR(glm::length(v.normal), 1.0f, 1e-4f);
        EXPECT_EQ(v.position, glm::vec3(13.0f, 7.0f, 2.0f)); // positions stay
        moved = moved || glm::length(v.normal - n) > 0.01f;
    }
    EXPECT_TRUE(moved);
    const content::ShaderDef still = deformShader("normal 0 2");
    EXPECT_NEAR(glm::length(deformAt(still, 0.5, glm::vec3(3.0f), n).normal - n), 0.0f, 1e-6f);
}

TEST(Deforms, TextAndProjectionShadowAreNotDrawn) {
    EXPECT_FALSE(scene::hasDrawnDeform(deformShader("projectionShadow")));
    EXPECT_FALSE(scene::drawsDeform(content::DeformKind::Text));
    EXPECT_TRUE(scene::drawsDeform(content::DeformKind::Autosprite2));
}

// A mesh of one face: the given corners (in order, as a fan 0 1 2, 0 2 3), material 0.
scene::WorldMesh quadMesh(const std::array<glm::vec3, 4>& corners) {
    scene::WorldMesh mesh;
    for (const glm::vec3& c : corners) {
        scene::WorldVertex v{};
        v.position = c;
        v.normal = glm::vec3(0.0f, 0.0f, 1.0f);
        mesh.vertices.push_back(v);
    }
    mesh.indices = {0, 1, 2, 0, 2, 3};
    scene::MeshFace f;
    f.first_index = 0;
    f.num_indices = 6;
    f.material = 0;
    mesh.faces.push_back(f);
    return mesh;
}

struct ViewAxes {
    glm::vec3 forward, left, up;
};

// Quake axes for a yaw (degrees) with no pitch or roll.
ViewAxes axesForYaw(float yaw_degrees) {
    const float y = glm::radians(yaw_degrees);
    const glm::vec3 forward(std::cos(y), std::sin(y), 0.0f);
    const glm::vec3 up(0.0f, 0.0f, 1.0f);
    return {forward, glm::cross(up, forward), up};
}

TEST(Deforms, AutospriteQuadFacesTheViewer) {
    // A square lying in the XY plane (as a map often stores a sprite), centred at (100, 50, 20).
    const scene::WorldMesh mesh = quadMesh({glm::vec3(92, 42, 20), glm::vec3(108, 42, 20),
                                            glm::vec3(108, 58, 20), glm::vec3(92, 58, 20)});
    const content::ShaderDef def = deformShader("autosprite");
    const content::ShaderDef* shaders[] = {&def};
    const std::vector<scene::SpriteVertex> sprites = scene::buildSpriteVertices(mesh, shaders);
    ASSERT_EQ(sprites.size(), 4u);
    const glm::vec3 centre(100, 50, 20);
    const float radius = glm::length(glm::vec3(-8, -8, 0)) * 0.707f;
    for (float yaw : {0.0f, 90.0f, 215.0f}) {
        const ViewAxes ax = axesForYaw(yaw);
        std::array<glm::vec3, 4> p;
        for (size_t k = 0; k < 4; ++k) {
            const scene::DeformedVertex v = scene::spriteVertex(
                scene::DeformCode::Autosprite, sprites[k], mesh.vertices[k].position,
                mesh.vertices[k].normal, ax.forward, ax.left, ax.up);
            p[k] = v.position;
            // In the plane through the centre that faces the viewer.
            EXPECT_NEAR(glm::dot(p[k] - centre, ax.forward), 0.0f, 1e-3f) << "yaw " << yaw;
            EXPECT_NEAR(glm::length(p[k] - centre), radius * std::sqrt(2.0f), 1e-3f);
            EXPECT_NEAR(glm::dot(v.normal, ax.forward), -1.0f, 1e-5f);
        }
        // Corner order of RB_AddQuadStamp: left+up, right+up, right-down, left-down.
        EXPECT_GT(glm::dot(p[0] - centre, ax.left), 0.0f);
        EXPECT_GT(glm::dot(p[0] - centre, ax.up), 0.0f);
        EXPECT_LT(glm::dot(p[1] - centre, ax.left), 0.0f);
        EXPECT_GT(glm::dot(p[1] - centre, ax.up), 0.0f);
        EXPECT_LT(glm::dot(p[2] - centre, ax.up), 0.0f);
        EXPECT_GT(glm::dot(p[3] - centre, ax.left), 0.0f);
    }
    EXPECT_EQ(scene::spriteSt(scene::DeformCode::Autosprite, sprites[0], glm::vec2(5.0f)),
              glm::vec2(0.0f, 0.0f));
    EXPECT_EQ(scene::spriteSt(scene::DeformCode::Autosprite, sprites[2], glm::vec2(5.0f)),
              glm::vec2(1.0f, 1.0f));
}

TEST(Deforms, Autosprite2TurnsAboutItsLongAxis) {
    // A tall thin quad (8 wide, 64 high) in the XZ plane: the long axis is vertical.
    const scene::WorldMesh mesh = quadMesh(
        {glm::vec3(-4, 0, 0), glm::vec3(4, 0, 0), glm::vec3(4, 0, 64), glm::vec3(-4, 0, 64)});
    const content::ShaderDef def = deformShader("autosprite2");
    const content::ShaderDef* shaders[] = {&def};
    const std::vector<scene::SpriteVertex> sprites = scene::buildSpriteVertices(mesh, shaders);
    ASSERT_EQ(sprites.size(), 4u);
    for (float yaw : {0.0f, 45.0f, 90.0f}) {
        const ViewAxes ax = axesForYaw(yaw);
        for (size_t k = 0; k < 4; ++k) {
            const glm::vec3 p =
                scene::spriteVertex(scene::DeformCode::Autosprite2, sprites[k],
                                    mesh.vertices[k].position, mesh.vertices[k].normal, ax.forward,
                                    ax.left, ax.up)
                    .position;
            // Heights stay (the axis is kept); the width turns across the view.
            EXPECT_NEAR(p.z, mesh.vertices[k].position.z, 1e-4f);
            EXPECT_NEAR(glm::dot(p, ax.forward), 0.0f, 1e-4f) << "yaw " << yaw;
            EXPECT_NEAR(glm::length(glm::vec2(p.x, p.y)), 4.0f, 1e-4f);
        }
    }
}

TEST(Deforms, OddVertexCountIsLeftAlone) {
    scene::WorldMesh mesh =
        quadMesh({glm::vec3(0), glm::vec3(1, 0, 0), glm::vec3(1, 1, 0), glm::vec3(0, 1, 0)});
    mesh.indices = {0, 1, 2}; // a triangle: three vertices used
    mesh.faces[0].num_indices = 3;
    const content::ShaderDef def = deformShader("autosprite");
    const content::ShaderDef* shaders[] = {&def};
    EXPECT_TRUE(scene::buildSpriteVertices(mesh, shaders).empty());
    const content::ShaderDef* none[] = {nullptr};
    EXPECT_TRUE(scene::buildSpriteVertices(quadMesh({}), none).empty());
}

// ioquake3 CollapseMultitexture folds stages[0] and stages[1] only.
TEST(StageCollapse, OnlyTheFirstTwoStagesCollapse) {
    std::vector<scene::StageImage> images;
    const content::ShaderDef first = parseOne(R"(textures/t/a
{
    { map $lightmap
      rgbGen identity }
    { map textures/t/a.tga
      blendFunc filter }
})");
    const auto a = scene::buildRenderStages(first, images);
    ASSERT_EQ(a.size(), 1u);
    EXPECT_TRUE(a[0].times_lightmap);
    EXPECT_TRUE(scene::isPlainLightmapped(a));

    // oa_thor's bluemetalsupport2e: texture, environment, texture added, lightmap filter. The
    // filter must darken the environment stage too, so the last pair stays two passes.
    const content::ShaderDef later = parseOne(R"(textures/t/b
{
    { map textures/t/b.tga
      rgbGen identity }
    { map textures/t/chrome.tga
      tcGen environment
      rgbGen oneMinusVertex }
    { map textures/t/b.tga
      blendFunc add
      rgbGen identity }
    { map $lightmap
      blendFunc filter
      rgbGen identity }
})");
    const auto b = scene::buildRenderStages(later, images);
    ASSERT_EQ(b.size(), 4u);
    for (const scene::RenderStage& s : b)
        EXPECT_FALSE(s.times_lightmap);
    EXPECT_EQ(b[3].source, scene::StageSource::Lightmap);
}

TEST(StageCollapse, DifferentColoursStayApart) {
    std::vector<scene::StageImage> images;
    // The lightmap stage has no rgbGen (identityLighting), the filter stage identity.
    const content::ShaderDef def = parseOne(R"(textures/t/c
{
    { map $lightmap }
    { map textures/t/c.tga
      blendFunc filter }
})");
    const auto stages = scene::buildRenderStages(def, images);
    ASSERT_EQ(stages.size(), 2u);
    EXPECT_FALSE(stages[0].times_lightmap);
}

TEST(StageCollapse, DeformedShadersKeepTheirStages) {
    // A plain texture-times-lightmap shader would go to the single-texture path, which cannot
    // deform; with a deform it must keep its stages.
    const content::ShaderDef def = parseOne(R"(textures/t/d
{
    deformVertexes wave 100 sin 0 2 0 1
    { map $lightmap
      rgbGen identity }
    { map textures/t/d.tga
      blendFunc filter }
})");
    std::vector<scene::StageImage> images;
    EXPECT_TRUE(scene::isPlainLightmapped(scene::buildRenderStages(def, images)));
    EXPECT_TRUE(scene::hasDrawnDeform(def));
}

} // namespace
