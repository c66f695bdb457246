// Water shaded by the cheap path of Source's Water shader (content::WaterShading, the world
// program's WATER variant; WaterCheap_ps2x.fxc): per pixel the fresnel factor
// F = (1 - max(0, N.V))^5 from the face normal and the direction to the eye; opaque water is
// mix($fogcolor, $reflecttint, F), blended water is $reflecttint at alpha
// saturate(F + saturate((d - start) / (end - start))) over what lies beneath; $nofresnel puts a
// fixed weight in F's place; a $normalmap texel, through the per-pixel tangent frame, tilts N,
// and an $envmap cube's colour along the view reflected about N stands for the white
// environment (Mesa llvmpipe under xvfb-run). Every expected colour is worked out below from
// the pixel's own view ray.
#include "content/image/image.h"
#include "gl_fixture.h"
#include "render/render_target.h"
#include "render/world_renderer.h"
#include "render_world.h"
#include "scene/view/visibility.h"
#include "scene/world/light_styles.h"
#include "scene/world/material_table.h"
#include "scene/world/world_mesh.h"
#include "support/envmap_fixture.h"
#include "support/map_builder.h"

#include <glm/geometric.hpp>
#include <glm/mat4x4.hpp>
#include <glm/matrix.hpp>
#include <glm/trigonometric.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace {

constexpr int kW = 320, kH = 180;
constexpr float kWaterZ = 8.0f; // the water plane; the floor lies at z = 0
constexpr float kHalf = 4096.0f;

const std::array<uint8_t, 3> kFloor = {200, 40, 40};

// A floor at z = 0 (material 0, an opaque texel of kFloor drawn at full light) and over it a
// water surface at kWaterZ (material 1, SURF_WARP as vbsp marks %compilewater materials), both
// 2 * kHalf units square, facing up. The texture's u runs along +x, its v along v_sign * y, one
// repeat per 64 units: Source's s axis +x and t axis v_sign y (v_sign -1: a mirrored mapping,
// (s x t) . N < 0).
bsp::Map pool(float v_sign = 1.0f) {
    bsp::Map m;
    testsupport::addMaterial(m, "floor");
    testsupport::addMaterial(m, "water", bsp::kSurfLiquid);
    for (int32_t material = 0; material < 2; ++material) {
        bsp::Face face;
        face.material = material;
        face.normal = {0, 0, 1};
        face.lightmap_page = -1;
        const float z = material == 0 ? 0.0f : kWaterZ;
        const std::array<glm::vec3, 4> corners = {
            {{-kHalf, -kHalf, z}, {-kHalf, kHalf, z}, {kHalf, kHalf, z}, {kHalf, -kHalf, z}}};
        std::array<bsp::Vertex, 4> v{};
        for (size_t k = 0; k < 4; ++k) {
            v[k].position = corners[k];
            v[k].normal = face.normal;
            v[k].uv = glm::vec2(corners[k].x, v_sign * corners[k].y) / 64.0f;
        }
        testsupport::addQuadVertices(m, v, face);
    }
    testsupport::addWorldLeaf(m, {-kHalf, -kHalf, -8}, {kHalf, kHalf, 512});
    return m;
}

content::Image solid(std::array<uint8_t, 3> c, uint8_t a) {
    content::Image img;
    img.width = img.height = 4;
    for (int i = 0; i < 16; ++i)
        img.rgba.insert(img.rgba.end(), {c[0], c[1], c[2], a});
    return img;
}

scene::Camera camera(glm::vec3 position, float pitch, float yaw = 90.0f) {
    scene::Camera cam;
    cam.position = position;
    cam.pitch = pitch;
    cam.yaw = yaw;
    cam.aspect = static_cast<float>(kW) / static_cast<float>(kH);
    cam.z_near = 1.0f;
    return cam;
}

// The water point a pixel's centre shows.
glm::vec3 waterPointAt(const scene::Camera& cam, int column, int row) {
    return testsupport::pointOnPlaneZ(cam, kW, kH, column, row, kWaterZ);
}

// WaterCheap_ps2x.fxc's fresnel factor at water point p: (1 - max(0, N.V))^5, N = +z.
float fresnelAt(const scene::Camera& cam, glm::vec3 p) {
    const glm::vec3 v = glm::normalize(cam.position - p);
    return std::pow(1.0f - std::max(0.0f, v.z), 5.0f);
}

std::array<int, 3> pixelAt(const std::vector<uint8_t>& pixels, int column, int row) {
    const size_t i = (static_cast<size_t>(row) * kW + static_cast<size_t>(column)) * 4;
    return {pixels[i], pixels[i + 1], pixels[i + 2]};
}

void expectNear(const std::array<int, 3>& got, const std::array<float, 3>& want,
                const std::string& what) {
    for (size_t c = 0; c < 3; ++c)
        EXPECT_NEAR(got[c], want[c], 1.0f) << what << " channel " << c;
}

// What the water's material holds besides its shading: a normal map ($normalmap, one texel
// colour over a 4x4 image) and the cube map of testsupport::kEnvMapFaceColours ($envmap).
struct WaterMaps {
    std::optional<std::array<uint8_t, 3>> normal;
    bool cube = false;
    float v_sign = 1.0f; // pool()'s mapping
};

// The normal map's frames played by an AnimatedTexture proxy ($bumpframe; WaterMaps::normal is
// frame 0), drawn at `time` seconds.
struct NormalFrames {
    std::vector<std::array<uint8_t, 3>> texels;
    content::AnimatedTexture animation;
    double time = 0.0;
};

class WaterRender : public gltest::GlFixture {
protected:
    // The pool seen by `cam`, its water shaded as `water` (the table resolved from the textures,
    // as scene::buildWorld does).
    std::vector<uint8_t> render(const content::WaterShading& water, const scene::Camera& cam,
                                const WaterMaps& maps = {}, const NormalFrames& frames = {}) {
        std::vector<content::TextureInfo> textures(2);
        textures[0].image = solid(kFloor, 255);
        textures[0].fullbright_light = 1.0f;
        textures[0].missing = false;
        // What content::applyVmtDrawing makes of a Water material.
        textures[1].image = solid({1, 2, 3}, water.blended ? 128 : 255); // not what is shown
        textures[1].surface_flags =
            bsp::kSurfFullbright | (water.blended ? bsp::kSurfTranslucent : 0u);
        textures[1].fullbright_light = 1.0f;
        textures[1].water = water;
        textures[1].missing = false;
        if (maps.normal)
            textures[1].bump = solid(*maps.normal, 255);
        for (const std::array<uint8_t, 3>& texel : frames.texels)
            textures[1].bump_frames.push_back(solid(texel, 255));
        textures[1].bump_animation = frames.animation;
        if (maps.cube) {
            for (size_t k = 0; k < 6; ++k) {
                const auto& c = testsupport::kEnvMapFaceColours[k];
                textures[1].envmap[k] = testsupport::solidImage(8, c[0], c[1], c[2]);
            }
            textures[1].envmap_source = "materials/maps/pool/c0_0_0.vtf";
            textures[1].envmap_shading.enabled = true;
        }
        const bsp::Map map = pool(maps.v_sign);
        const scene::WorldMesh mesh =
            scene::buildWorldMesh(map, scene::resolveMaterials(map, nullptr, textures));
        render::RenderOptions options = testsupport::testRenderOptions();
        options.time = frames.time;
        return testsupport::renderWorld({map, mesh, textures}, cam, kW, kH, options);
    }
};

content::WaterShading opaqueWater() {
    content::WaterShading w;
    w.enabled = true;
    w.blended = false; // $forcecheap 1
    w.base_colour = {0.2f, 0.4f, 0.6f};
    w.reflect_tint = {1.0f, 0.8f, 0.1f};
    return w;
}

// mix(base, tint, F) in 0..255.
std::array<float, 3> opaqueColour(const content::WaterShading& w, float fresnel) {
    std::array<float, 3> c{};
    for (size_t i = 0; i < 3; ++i)
        c[i] = 255.0f * (w.base_colour[i] + (w.reflect_tint[i] - w.base_colour[i]) * fresnel);
    return c;
}

// The world normal a normal-map texel gives on the pool's water: DecompressNormal's 2 t - 1 per
// channel (t the byte over 255), red along the tangent frame's X = +x (the s axis), green along
// Y = +t = v_sign * y (GetBumpNormals' basis: N x s = +y, turned to t's side), blue along +z.
// Not renormalised, as the engine's shader uses it.
glm::vec3 normalOf(std::array<uint8_t, 3> texel, float v_sign) {
    const auto d = [](uint8_t t) { return 2.0f * static_cast<float>(t) / 255.0f - 1.0f; };
    return {d(texel[0]), v_sign * d(texel[1]), d(texel[2])};
}

// WaterCheap_ps2x.fxc's fresnel factor at water point p about normal n: (1 - max(0, V.N))^5.
float fresnelAt(const scene::Camera& cam, glm::vec3 p, glm::vec3 n) {
    const glm::vec3 v = glm::normalize(cam.position - p);
    return std::pow(1.0f - std::max(0.0f, glm::dot(v, n)), 5.0f);
}

// The cube face the view at p reflected about n hits (common_fxc.h
// CalcReflectionVectorUnnormalized: 2 (N.V) N - (N.N) V), by its major axis: 0..5 = +X, -X,
// +Y, -Y, +Z, -Z. `margin`: the second largest axis over the largest (near 1: near an edge).
size_t reflectedFace(const scene::Camera& cam, glm::vec3 p, glm::vec3 n, float* margin) {
    const glm::vec3 v = glm::normalize(cam.position - p);
    const glm::vec3 r = 2.0f * glm::dot(n, v) * n - glm::dot(n, n) * v;
    const glm::vec3 a = glm::abs(r);
    const size_t axis = a.x >= a.y && a.x >= a.z ? 0 : a.y >= a.z ? 1 : 2;
    std::array<float, 3> sorted = {a.x, a.y, a.z};
    std::sort(sorted.begin(), sorted.end());
    if (margin)
        *margin = sorted[1] / sorted[2];
    return axis * 2 + (r[static_cast<glm::length_t>(axis)] < 0.0f ? 1 : 0);
}

std::array<float, 3> faceColour(size_t k) {
    const auto& c = testsupport::kEnvMapFaceColours[k];
    return {c[0] / 255.0f, c[1] / 255.0f, c[2] / 255.0f};
}

// Opaque water: mix(base, environment * tint, F), in 0..255.
std::array<float, 3> opaqueColour(const content::WaterShading& w, float fresnel,
                                  const std::array<float, 3>& environment) {
    std::array<float, 3> c{};
    for (size_t i = 0; i < 3; ++i)
        c[i] = 255.0f * (w.base_colour[i] +
                         (environment[i] * w.reflect_tint[i] - w.base_colour[i]) * fresnel);
    return c;
}

} // namespace

TEST_F(WaterRender, OpaqueWaterSeenStraightDownIsItsFogColour) {
    // Straight down N.V = 1, so F = 0: the base colour (51, 102, 153) and nothing of the tint;
    // a few pixels off the centre V tilts by under a degree, F stays below 1e-9.
    const content::WaterShading w = opaqueWater();
    const scene::Camera cam = camera({0, 0, kWaterZ + 100.0f}, 90.0f);
    const std::vector<uint8_t> px = render(w, cam);
    for (const auto& [column, row] :
         {std::array<int, 2>{kW / 2, kH / 2}, {kW / 2 - 3, kH / 2 + 2}}) {
        const float f = fresnelAt(cam, waterPointAt(cam, column, row));
        ASSERT_LT(f, 1e-9f);
        expectNear(pixelAt(px, column, row), {51.0f, 102.0f, 153.0f}, "straight down");
    }
    // The corner of the view: 49 degrees off the vertical, F = (1 - cos 49)^5 = 0.0047, still
    // within one step of the base colour; the grazing test below sees the tint rise.
    const float corner = fresnelAt(cam, waterPointAt(cam, 0, 0));
    expectNear(pixelAt(px, 0, 0), opaqueColour(w, corner), "corner");
}

TEST_F(WaterRender, OpaqueWaterAtAGrazingAngleTakesTheReflectionTint) {
    // The eye 12 units above the water, looking 15 degrees down (half the view is 29.4 degrees
    // high): rows 55 to 179 see the water from 2.8 to 44.2 degrees above its plane, N.V = sin
    // of that, so F runs from (1 - sin 2.8)^5 = 0.78 (243 units away) down to 0.0025.
    const content::WaterShading w = opaqueWater();
    const scene::Camera cam = camera({0, 0, kWaterZ + 12.0f}, 15.0f);
    const std::vector<uint8_t> px = render(w, cam);
    float most = 0.0f;
    for (int row = 55; row < kH; row += 8) {
        const glm::vec3 p = waterPointAt(cam, kW / 2, row);
        ASSERT_LT(std::max(std::abs(p.x), std::abs(p.y)), kHalf) << "row " << row;
        const float f = fresnelAt(cam, p);
        most = std::max(most, f);
        expectNear(pixelAt(px, kW / 2, row), opaqueColour(w, f), "row " + std::to_string(row));
    }
    ASSERT_GT(most, 0.3f); // the samples reach well into the tint
    // A hand-worked row: at 10 degrees above the plane N.V = sin 10 = 0.17365, F = 0.82635^5 =
    // 0.38527, so red = 255 * (0.2 + 0.8 * 0.38527) = 129.6.
    EXPECT_NEAR(opaqueColour(w, std::pow(1.0f - std::sin(glm::radians(10.0f)), 5.0f))[0], 129.6f,
                0.1f);
}

TEST_F(WaterRender, WithoutFresnelAFixedWeightMixesTheTint) {
    // $nofresnel with $reflectblendfactor 0.25 (reflect_weight): straight down, where F would
    // be 0, the colour is still a quarter of the way to the tint: 255 * (0.2 + 0.8 * 0.25) = 102,
    // 255 * (0.4 + 0.4 * 0.25) = 127.5, 255 * (0.6 - 0.5 * 0.25) = 121.1; the same at grazing
    // angles.
    content::WaterShading w = opaqueWater();
    w.reflect_weight = 0.25f;
    const scene::Camera down = camera({0, 0, kWaterZ + 100.0f}, 90.0f);
    expectNear(pixelAt(render(w, down), kW / 2, kH / 2), {102.0f, 127.5f, 121.125f}, "down");
    const scene::Camera low = camera({0, 0, kWaterZ + 12.0f}, 15.0f);
    expectNear(pixelAt(render(w, low), kW / 2, 55), {102.0f, 127.5f, 121.125f}, "grazing");
}

TEST_F(WaterRender, BlendedWaterFadesInWithTheEyeDistanceOverTheFloor) {
    // Blended (no $forcecheap): the tint alone, alpha = saturate(F + saturate((d - 50) / 200)),
    // over the floor's (200, 40, 40). Straight down from 100 units: d = 100, F = 0, alpha 0.25:
    // red 255 * 0.2 * 0.25 + 200 * 0.75 = 162.75, green 153 * 0.25 + 30 = 68.25, blue 255 * 0.25
    // + 30 = 93.75. The water's own fog colour is not drawn.
    content::WaterShading w;
    w.enabled = true;
    w.blended = true;
    w.base_colour = {0.0f, 1.0f, 0.0f};
    w.reflect_tint = {0.2f, 0.6f, 1.0f};
    w.fade_start = 50.0f;
    w.fade_end = 250.0f;
    const scene::Camera cam = camera({0, 0, kWaterZ + 100.0f}, 90.0f);
    const std::vector<uint8_t> px = render(w, cam);
    expectNear(pixelAt(px, kW / 2, kH / 2), {162.75f, 68.25f, 93.75f}, "centre");
    // Elsewhere the distance grows towards the view's corners (to 100 / cos 49 = 152 units).
    for (const auto& [column, row] :
         {std::array<int, 2>{0, 0}, {kW / 4, kH / 4}, {kW - 1, kH / 2}, {kW / 2, kH - 1}}) {
        const glm::vec3 p = waterPointAt(cam, column, row);
        const float d = glm::length(cam.position - p);
        const float alpha = std::clamp(
            fresnelAt(cam, p) + std::clamp((d - 50.0f) / 200.0f, 0.0f, 1.0f), 0.0f, 1.0f);
        std::array<float, 3> want{};
        for (size_t c = 0; c < 3; ++c)
            want[c] = 255.0f * w.reflect_tint[c] * alpha + kFloor[c] * (1.0f - alpha);
        expectNear(pixelAt(px, column, row), want,
                   "pixel " + std::to_string(column) + "," + std::to_string(row));
    }
    // Nearer than the start distance, looking straight down: alpha F = 0, the floor as it is.
    const scene::Camera low = camera({0, 0, kWaterZ + 40.0f}, 90.0f);
    expectNear(pixelAt(render(w, low), kW / 2, kH / 2), {200.0f, 40.0f, 40.0f}, "near");
}

// $normalmap (WaterCheap_ps2x.fxc): the texel, through the tangent frame built per pixel from
// the uv's screen-space derivatives (world.frag.glsl tangentFrame), is the normal of the fresnel
// factor. A flat texel (128, 128, 255) decodes to (1/255, 1/255, 1): seen from above the same
// picture as the face normal; at grazing angles F as computed with that normal.
TEST_F(WaterRender, FlatNormalMapKeepsTheFaceNormalsPicture) {
    const content::WaterShading w = opaqueWater();
    const std::array<uint8_t, 3> flat = {128, 128, 255};
    const scene::Camera down = camera({0, 0, kWaterZ + 100.0f}, 90.0f);
    const std::vector<uint8_t> plain = render(w, down);
    const std::vector<uint8_t> mapped = render(w, down, {flat});
    ASSERT_EQ(plain.size(), mapped.size());
    int worst = 0;
    for (size_t i = 0; i < plain.size(); ++i)
        worst = std::max(worst, std::abs(int(plain[i]) - int(mapped[i])));
    EXPECT_LE(worst, 1);
    const scene::Camera low = camera({0, 0, kWaterZ + 12.0f}, 15.0f);
    const std::vector<uint8_t> px = render(w, low, {flat});
    const glm::vec3 n = normalOf(flat, 1.0f);
    for (int row = 55; row < kH; row += 8) {
        const glm::vec3 p = waterPointAt(low, kW / 2, row);
        expectNear(pixelAt(px, kW / 2, row), opaqueColour(w, fresnelAt(low, p, n)),
                   "row " + std::to_string(row));
    }
}

// A texel tilted 34.7 degrees towards +t, (128, 200, 232) = (0.0039, 0.5686, 0.8196), seen
// along +y from 12 units up: with t along +y the normal leans away from the eye, so N.V falls
// and F rises (a green read the other way round would give the other colour, checked to differ);
// on the mirrored mapping (t along -y) it leans towards the eye. Then the same tilt on red (the
// s axis, +x) seen along +x. Every pixel's F is computed from its own view ray and that normal.
TEST_F(WaterRender, TiltedNormalMapChangesTheFresnelFactorOnTheTextureAxes) {
    const content::WaterShading w = opaqueWater();
    struct Case {
        std::array<uint8_t, 3> texel;
        float v_sign, yaw;
    };
    for (const Case& c : {Case{{128, 200, 232}, 1.0f, 90.0f}, Case{{128, 200, 232}, -1.0f, 90.0f},
                          Case{{200, 128, 232}, 1.0f, 0.0f}}) {
        const std::string what = "texel " + std::to_string(c.texel[0]) + "," +
                                 std::to_string(c.texel[1]) + " v_sign " +
                                 std::to_string(c.v_sign) + " yaw " + std::to_string(c.yaw);
        const scene::Camera cam = camera({0, 0, kWaterZ + 12.0f}, 15.0f, c.yaw);
        const std::vector<uint8_t> px = render(w, cam, {c.texel, false, c.v_sign});
        const glm::vec3 n = normalOf(c.texel, c.v_sign);
        // The tilt read the wrong way round on its axis.
        const glm::vec3 wrong =
            c.texel[0] == 128 ? glm::vec3(n.x, -n.y, n.z) : glm::vec3(-n.x, n.y, n.z);
        float most_apart = 0.0f;
        for (int row = 55; row < kH; row += 8) {
            const glm::vec3 p = waterPointAt(cam, kW / 2, row);
            const auto want = opaqueColour(w, fresnelAt(cam, p, n));
            most_apart = std::max(most_apart,
                                  std::abs(want[0] - opaqueColour(w, fresnelAt(cam, p, wrong))[0]));
            expectNear(pixelAt(px, kW / 2, row), want, what + " row " + std::to_string(row));
        }
        EXPECT_GT(most_apart, 20.0f) << what;
    }
}

// $envmap: the reflection is the cube's colour along the view reflected about the (normal-map)
// normal. $nofresnel with weight 1 shows it alone (times the tint): straight down, the face
// normal reflects the view up (+Z, face 4: (0, 160, 160)); a texel tilted 60 degrees towards +s,
// (238, 128, 191) = (0.867, 0.004, 0.498), reflects it to R = 2 (N.V) N - (N.N) V = (0.86, 0,
// -0.50): the +X face (200, 0, 0); the tilt on green to +Y (0, 0, 200) where t runs along +y,
// to -Y (160, 160, 0) where it runs along -y.
TEST_F(WaterRender, CubeMapFaceAlongTheReflectedNormalMapView) {
    content::WaterShading w = opaqueWater();
    w.reflect_weight = 1.0f;
    w.reflect_tint = {1.0f, 0.5f, 0.25f};
    const scene::Camera down = camera({0, 0, kWaterZ + 100.0f}, 90.0f);
    struct Case {
        std::optional<std::array<uint8_t, 3>> texel;
        float v_sign;
        size_t face;
    };
    for (const Case& c : {Case{std::nullopt, 1.0f, 4}, Case{{{238, 128, 191}}, 1.0f, 0},
                          Case{{{128, 238, 191}}, 1.0f, 2}, Case{{{128, 238, 191}}, -1.0f, 3}}) {
        const std::string what = "face " + std::to_string(c.face);
        const std::vector<uint8_t> px = render(w, down, {c.texel, true, c.v_sign});
        const glm::vec3 n = c.texel ? normalOf(*c.texel, c.v_sign) : glm::vec3(0, 0, 1);
        for (const auto& [column, row] : {std::array<int, 2>{kW / 2, kH / 2},
                                          {kW / 2 - 12, kH / 2 + 8},
                                          {kW / 2 + 12, kH / 2 - 8}}) {
            float margin = 1.0f;
            const glm::vec3 p = waterPointAt(down, column, row);
            ASSERT_EQ(reflectedFace(down, p, n, &margin), c.face) << what;
            ASSERT_LT(margin, 0.8f) << what; // well inside the face
            expectNear(pixelAt(px, column, row), opaqueColour(w, 1.0f, faceColour(c.face)),
                       what + " pixel " + std::to_string(column) + "," + std::to_string(row));
        }
    }
}

// With the fresnel factor: from 12 units up looking 30 degrees down along +y (rows 10 to 179 see
// the water from 2.5 to 59.4 degrees above its plane), the view reflected about the face normal
// climbs from the +Y face (rays under 45 degrees) to the +Z face (steeper); each pixel is
// mix($fogcolor, face colour * tint, F), the face and F from its own ray.
TEST_F(WaterRender, CubeMapReflectionWeightedByTheFresnelFactor) {
    const content::WaterShading w = opaqueWater();
    const scene::Camera cam = camera({0, 0, kWaterZ + 12.0f}, 30.0f);
    const std::vector<uint8_t> px = render(w, cam, {std::nullopt, true});
    std::array<int, 6> seen{};
    for (int row = 10; row < kH; row += 4) {
        const glm::vec3 p = waterPointAt(cam, kW / 2, row);
        float margin = 1.0f;
        const size_t face = reflectedFace(cam, p, glm::vec3(0, 0, 1), &margin);
        if (margin > 0.8f)
            continue; // near the edge between two faces
        ++seen[face];
        expectNear(pixelAt(px, kW / 2, row),
                   opaqueColour(w, fresnelAt(cam, p, glm::vec3(0, 0, 1)), faceColour(face)),
                   "row " + std::to_string(row));
    }
    EXPECT_GT(seen[2], 3); // both faces are checked
    EXPECT_GT(seen[4], 3);
}

// $bumpframe played by an AnimatedTexture proxy (water.cpp binds NORMALMAP with BUMPFRAME): three
// frames at 2 a second, flat, tilted on green and tilted on red, seen along +y from 12 units up.
// At t the normal is frame floor(2 t) mod 3's: t = 0 and 1.6 s (3.2: frame 0) flat, .6 s (1.2)
// the green tilt, 1.2 s (2.4) the red one; every pixel's F worked out from that frame's normal.
TEST_F(WaterRender, AnimatedNormalMapPlaysItsFramesWithTheClock) {
    const content::WaterShading w = opaqueWater();
    const std::vector<std::array<uint8_t, 3>> frames = {
        {128, 128, 255}, {128, 200, 232}, {200, 128, 232}};
    const scene::Camera cam = camera({0, 0, kWaterZ + 12.0f}, 15.0f, 90.0f);
    struct Case {
        double time;
        size_t frame;
    };
    for (const Case& c : {Case{0.0, 0}, Case{0.6, 1}, Case{1.2, 2}, Case{1.6, 0}}) {
        WaterMaps maps;
        maps.normal = frames[0];
        const std::vector<uint8_t> px =
            render(w, cam, maps, NormalFrames{frames, {true, 2.0f, true}, c.time});
        const glm::vec3 n = normalOf(frames[c.frame], 1.0f);
        float most_apart = 0.0f; // from the frames not shown
        for (int row = 55; row < kH; row += 8) {
            const glm::vec3 p = waterPointAt(cam, kW / 2, row);
            const auto want = opaqueColour(w, fresnelAt(cam, p, n));
            float nearest_other = 1e9f;
            for (size_t k = 0; k < frames.size(); ++k)
                if (k != c.frame)
                    nearest_other = std::min(
                        nearest_other,
                        std::abs(want[0] -
                                 opaqueColour(w, fresnelAt(cam, p, normalOf(frames[k], 1.0f)))[0]));
            most_apart = std::max(most_apart, nearest_other);
            expectNear(pixelAt(px, kW / 2, row), want,
                       "t " + std::to_string(c.time) + " row " + std::to_string(row));
        }
        EXPECT_GT(most_apart, 10.0f) << "t " << c.time;
    }
}
