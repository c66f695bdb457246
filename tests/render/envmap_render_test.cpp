// Source cube-map reflections (content::TextureInfo::envmap, the world shader's ENVMAP
// variants): in a room whose walls face in, each wall adds to its lit colour the cube face along
// the view reflected about its normal, times its mask and $envmaptint, with the contrast,
// saturation and fresnel numbers, as lightmappedgeneric_ps2_3_x.h main does; materials without a
// cube, and the lightmap view, show no reflection (Mesa llvmpipe under xvfb-run). Every expected
// colour is worked out below from the inputs.
#include "content/image/image.h"
#include "gl_fixture.h"
#include "render/render_target.h"
#include "render/world_renderer.h"
#include "render_world.h"
#include "scene/view/visibility.h"
#include "scene/world/material_table.h"
#include "scene/world/world_mesh.h"
#include "support/envmap_fixture.h"

#include <glm/gtc/matrix_inverse.hpp>
#include <glm/mat4x4.hpp>
#include <glm/trigonometric.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

namespace {

constexpr int kW = 320, kH = 180;
constexpr float kLight = testsupport::kEnvMapRoomLuxel / 255.0f;
using testsupport::envMapMaterial;
using testsupport::kEnvMapFaceColours;
using testsupport::kEnvMapRoomHalf;
using testsupport::kEnvMapRoomNormals;
using Colour = std::array<float, 3>;

// A camera at `eye` looking at `target`.
scene::Camera cameraAt(const glm::vec3& eye, const glm::vec3& target) {
    const glm::vec3 d = glm::normalize(target - eye);
    scene::Camera cam;
    cam.position = eye;
    cam.yaw = glm::degrees(std::atan2(d.y, d.x));
    cam.pitch = -glm::degrees(std::asin(std::clamp(d.z, -1.0f, 1.0f)));
    cam.aspect = static_cast<float>(kW) / static_cast<float>(kH);
    cam.z_near = 1.0f;
    return cam;
}

struct Pixel {
    int column = 0, row = 0; // row 0 at the top
};

// The pixel `p` falls in.
Pixel pixelOf(const scene::Camera& cam, const glm::vec3& p) {
    const glm::vec4 clip = cam.viewProjection() * glm::vec4(p, 1.0f);
    const int column = static_cast<int>(std::floor((clip.x / clip.w * 0.5f + 0.5f) * kW));
    const int row = kH - 1 - static_cast<int>(std::floor((clip.y / clip.w * 0.5f + 0.5f) * kH));
    return {column, row};
}

// Where the ray through the centre of pixel `px` meets the plane dot(n, x) = d.
glm::vec3 pointAtPixel(const scene::Camera& cam, Pixel px, const glm::vec3& n, float d) {
    const glm::mat4 inverse = glm::inverse(cam.viewProjection());
    const float x = (static_cast<float>(px.column) + 0.5f) / kW * 2.0f - 1.0f;
    const float y = (static_cast<float>(kH - 1 - px.row) + 0.5f) / kH * 2.0f - 1.0f;
    glm::vec4 a = inverse * glm::vec4(x, y, -1.0f, 1.0f), b = inverse * glm::vec4(x, y, 1.0f, 1.0f);
    const glm::vec3 from = glm::vec3(a) / a.w, to = glm::vec3(b) / b.w;
    const float t = (d - glm::dot(n, from)) / glm::dot(n, to - from);
    return from + t * (to - from);
}

std::array<int, 3> read(const std::vector<uint8_t>& pixels, Pixel px) {
    const size_t i = (static_cast<size_t>(px.row) * kW + static_cast<size_t>(px.column)) * 4;
    return {pixels[i], pixels[i + 1], pixels[i + 2]};
}

Colour face(size_t k) {
    return {kEnvMapFaceColours[k][0] / 255.0f, kEnvMapFaceColours[k][1] / 255.0f,
            kEnvMapFaceColours[k][2] / 255.0f};
}

// The lit base colour (grey texel times the walls' light) plus `reflection`, as the target
// stores it.
Colour litPlus(uint8_t grey, const Colour& reflection) {
    Colour out{};
    for (size_t c = 0; c < 3; ++c)
        out[c] = 255.0f * std::min(1.0f, grey / 255.0f * kLight + reflection[c]);
    return out;
}

void expectNear(const std::array<int, 3>& got, const Colour& want, const std::string& what) {
    for (size_t c = 0; c < 3; ++c)
        EXPECT_NEAR(got[c], want[c], 1.0f) << what << " channel " << c;
}

class EnvMapRender : public gltest::GlFixture {
protected:
    std::vector<uint8_t> render(const std::array<int32_t, 6>& walls,
                                const std::vector<content::TextureInfo>& textures,
                                const scene::Camera& cam,
                                render::ViewMode view = render::ViewMode::Lit) {
        const bsp::Map map = testsupport::envMapRoom(walls);
        const scene::WorldMesh mesh =
            scene::buildWorldMesh(map, scene::resolveMaterials(map, nullptr, textures));
        render::WorldSource source{map, mesh, textures};
        source.rules.light.lightmap_scale = 1.0f;
        render::RenderOptions ro = testsupport::testRenderOptions();
        ro.view = view;
        return testsupport::renderWorld(source, cam, kW, kH, ro);
    }
};

} // namespace

// Seen head-on from the room's centre, wall k (inward normal along cube axis k) reflects the
// view straight back along its normal: face k of the cube, in Source's order right, left, back,
// front, up, down = +X, -X, +Y, -Y, +Z, -Z.
TEST_F(EnvMapRender, EachWallReflectsTheCubeFaceItFaces) {
    content::EnvMapShading shading;
    shading.tint = {0.5f, 1.0f, 0.25f};
    const std::vector<content::TextureInfo> textures = {envMapMaterial(60, shading)};
    for (size_t k = 0; k < 6; ++k) {
        SCOPED_TRACE(k);
        const glm::vec3 centre = -kEnvMapRoomNormals[k] * kEnvMapRoomHalf;
        const scene::Camera cam = cameraAt(glm::vec3(0.0f), centre);
        const std::vector<uint8_t> px = render({0, 0, 0, 0, 0, 0}, textures, cam);
        const Colour f = face(k);
        expectNear(read(px, pixelOf(cam, centre)),
                   litPlus(60, {f[0] * 0.5f, f[1] * 1.0f, f[2] * 0.25f}),
                   "wall " + std::to_string(k));
    }
}

// The mask scales the reflection: a black $envmapmask leaves the lit colour alone, a coloured
// one scales each channel; with $basealphaenvmapmask 1 - the base alpha does (255: none); a
// normal map's alpha does with $normalmapalphaenvmapmask; a material without a cube adds
// nothing.
TEST_F(EnvMapRender, MaskScalesTheReflection) {
    content::EnvMapShading texture_mask;
    texture_mask.mask = content::EnvMapMask::Texture;
    content::EnvMapShading base_alpha;
    base_alpha.mask = content::EnvMapMask::BaseAlpha;
    content::EnvMapShading normal_alpha;
    normal_alpha.mask = content::EnvMapMask::NormalAlpha;
    std::vector<content::TextureInfo> t = {
        envMapMaterial(60, texture_mask),    envMapMaterial(60, texture_mask),
        envMapMaterial(60, base_alpha, 255), envMapMaterial(60, base_alpha, 64),
        envMapMaterial(60, normal_alpha),    envMapMaterial(60, {})};
    t[0].envmap_mask = testsupport::solidImage(4, 0, 0, 0);
    t[1].envmap_mask = testsupport::solidImage(4, 128, 255, 64);
    t[4].bump = testsupport::solidImage(4, 128, 128, 255, 96); // a flat normal, alpha 96
    t[5].envmap_shading = {};                                  // no cube
    const std::array<Colour, 6> masks = {Colour{0, 0, 0},
                                         Colour{128 / 255.0f, 1.0f, 64 / 255.0f},
                                         Colour{0, 0, 0},
                                         Colour{1 - 64 / 255.0f, 1 - 64 / 255.0f, 1 - 64 / 255.0f},
                                         Colour{96 / 255.0f, 96 / 255.0f, 96 / 255.0f},
                                         Colour{0, 0, 0}};
    for (size_t k = 0; k < 6; ++k) {
        SCOPED_TRACE(k);
        const glm::vec3 centre = -kEnvMapRoomNormals[k] * kEnvMapRoomHalf;
        const scene::Camera cam = cameraAt(glm::vec3(0.0f), centre);
        const std::vector<uint8_t> px = render({0, 1, 2, 3, 4, 5}, t, cam);
        const Colour f = face(k);
        expectNear(read(px, pixelOf(cam, centre)),
                   litPlus(60, {f[0] * masks[k][0], f[1] * masks[k][1], f[2] * masks[k][2]}),
                   "wall " + std::to_string(k));
    }
    // The lightmap view is the light alone (the engine's mat_fullbright 2 drops the reflection).
    const scene::Camera cam = cameraAt(glm::vec3(0.0f), {0, 0, -kEnvMapRoomHalf});
    const std::vector<uint8_t> light =
        render({0, 1, 2, 3, 4, 5}, t, cam, render::ViewMode::Lightmap);
    expectNear(read(light, pixelOf(cam, {0, 0, -kEnvMapRoomHalf})),
               {255.0f * kLight, 255.0f * kLight, 255.0f * kLight}, "lightmap view");
}

// Contrast 1, saturation 0.5 and fresnel 0.25 on the floor seen at a grazing angle: the view
// reflected there leans towards +X, so the right face shows, with the fresnel factor
// (1 - N.V)^5 * 0.75 + 0.25 of the point each pixel sees.
TEST_F(EnvMapRender, ContrastSaturationAndFresnelAtAGrazingAngle) {
    content::EnvMapShading shading;
    shading.tint = {1.0f, 0.5f, 0.25f};
    shading.contrast = 1.0f;
    shading.saturation = 0.5f;
    shading.fresnel = 0.25f;
    const std::vector<content::TextureInfo> textures = {envMapMaterial(40, shading)};
    const float floor_z = -kEnvMapRoomHalf;
    const glm::vec3 eye(-16.0f, 0.0f, floor_z + 8.0f);
    const scene::Camera cam = cameraAt(eye, {32.0f, 0.0f, floor_z});
    const std::vector<uint8_t> px = render({0, 0, 0, 0, 0, 0}, textures, cam);
    for (const float x : {16.0f, 32.0f, 40.0f}) {
        const Pixel at = pixelOf(cam, {x, 0.0f, floor_z});
        const glm::vec3 p = pointAtPixel(cam, at, {0, 0, 1}, floor_z);
        const glm::vec3 to_eye = eye - p;
        const glm::vec3 dir = 2.0f * to_eye.z * glm::vec3(0, 0, 1) - to_eye;
        ASSERT_GT(std::abs(dir.x), std::max(std::abs(dir.y), std::abs(dir.z))); // the +X face
        ASSERT_GT(dir.x, 0.0f);
        Colour c = face(0);
        for (size_t i = 0; i < 3; ++i)
            c[i] *= shading.tint[i];
        for (float& v : c)
            v = v * v; // contrast 1
        const float grey = 0.299f * c[0] + 0.587f * c[1] + 0.114f * c[2];
        const float edge = 1.0f - to_eye.z / glm::length(to_eye);
        const float fresnel = std::pow(edge, 5.0f) * 0.75f + 0.25f;
        for (float& v : c)
            v = (grey + (v - grey) * 0.5f) * fresnel;
        expectNear(read(px, at), litPlus(40, c), "floor at x " + std::to_string(x));
    }
}

// With a $bumpmap the reflection is about the normal map's normal (lightmappedgeneric_ps2_3_x.h:
// worldSpaceNormal = mul(vNormal, tangentSpaceTranspose)), through the tangent frame built per
// pixel from the uv (world.frag.glsl tangentFrame). The floor's u runs along +x and v along +y
// (envMapRoom); seen straight down from the centre, a texel tilted 60 degrees towards +u,
// (238, 128, 191) = (0.867, 0.004, 0.498), reflects the view to 2 (N.V) N - (N.N) V =
// (0.86, 0, -0.50): the +X face; on green, towards +v, the +Y face; an $ssbump texel of weights
// (255, 0, 0) is the first bump basis vector (0.816, 0, 0.577): (0.94, 0, -0.33), +X. The face is
// not bump-lit, so its light stays the flat lightmap; the fresnel factor is 1 (the default
// $fresnelreflection).
TEST_F(EnvMapRender, BumpMapNormalBendsTheReflection) {
    struct Case {
        std::array<uint8_t, 3> texel;
        bool ssbump;
        size_t face;
    };
    const float floor_z = -kEnvMapRoomHalf;
    const scene::Camera cam = cameraAt(glm::vec3(0.0f), {0.0f, 0.0f, floor_z});
    for (const Case& c : {Case{{128, 128, 255}, false, 4}, Case{{238, 128, 191}, false, 0},
                          Case{{128, 238, 191}, false, 2}, Case{{255, 0, 0}, true, 0}}) {
        SCOPED_TRACE(c.face);
        content::EnvMapShading shading;
        shading.tint = {0.5f, 1.0f, 0.75f};
        std::vector<content::TextureInfo> textures = {envMapMaterial(60, shading)};
        textures[0].bump = testsupport::solidImage(4, c.texel[0], c.texel[1], c.texel[2]);
        textures[0].bump_ssbump = c.ssbump;
        const std::vector<uint8_t> px = render({0, 0, 0, 0, 0, 0}, textures, cam);
        // A few pixels around the floor's centre: the view tilts by under 6 degrees there.
        for (const glm::vec3 at :
             {glm::vec3(0, 0, floor_z), glm::vec3(4, -3, floor_z), glm::vec3(-3, 5, floor_z)}) {
            const Pixel pixel = pixelOf(cam, at);
            const glm::vec3 p = pointAtPixel(cam, pixel, {0, 0, 1}, floor_z);
            const glm::vec3 v = glm::normalize(glm::vec3(0.0f) - p);
            glm::vec3 n;
            if (c.ssbump) {
                const glm::vec3 w = glm::vec3(c.texel[0], c.texel[1], c.texel[2]) / 255.0f;
                n = glm::normalize(w.x * glm::vec3(0.81649658f, 0.0f, 0.57735027f) +
                                   w.y * glm::vec3(-0.40824829f, 0.70710678f, 0.57735027f) +
                                   w.z * glm::vec3(-0.40824829f, -0.70710678f, 0.57735027f));
            } else {
                n = glm::vec3(c.texel[0], c.texel[1], c.texel[2]) * (2.0f / 255.0f) - 1.0f;
            }
            const glm::vec3 r = 2.0f * glm::dot(n, v) * n - glm::dot(n, n) * v;
            const glm::vec3 a = glm::abs(r);
            const size_t axis = a.x >= a.y && a.x >= a.z ? 0 : a.y >= a.z ? 1 : 2;
            ASSERT_EQ(axis * 2 + (r[static_cast<glm::length_t>(axis)] < 0.0f ? 1 : 0), c.face);
            const Colour f = face(c.face);
            expectNear(read(px, pixel), litPlus(60, {f[0] * 0.5f, f[1], f[2] * 0.75f}),
                       "at " + std::to_string(at.x) + "," + std::to_string(at.y));
        }
    }
}
