// Water drawn by the expensive path of Source's Water shader (content::WaterShading::planar; the
// world program's WATER_PLANAR variant, render/pass_water.cpp; water_ps2x_helper.h DrawWater):
// the world mirrored in the water's plane, read at the pixel's screen position moved by the
// normal map times $reflectamount, clipped below the plane less 2 units, and with refraction the
// frame beneath the water fogged by the depth of water the view crosses, mixed by the fresnel
// factor (Mesa llvmpipe under xvfb-run). Every expected colour is worked out below from the
// pixel's own view ray and its reflection.
#include "content/image/image.h"
#include "gl_fixture.h"
#include "render/render_target.h"
#include "render/world_renderer.h"
#include "render_world.h"
#include "scene/view/visibility.h"
#include "scene/view/water_reflection.h"
#include "scene/world/material_table.h"
#include "scene/world/world_mesh.h"
#include "support/planar_water_fixture.h"

#include <glm/geometric.hpp>
#include <glm/mat4x4.hpp>
#include <glm/matrix.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace {

using namespace testsupport::planar_water;

constexpr int kW = 320, kH = 180;
std::array<uint8_t, 3> bytes(const Rgb& c) {
    return {static_cast<uint8_t>(std::lround(c[0] * 255.0f)),
            static_cast<uint8_t>(std::lround(c[1] * 255.0f)),
            static_cast<uint8_t>(std::lround(c[2] * 255.0f))};
}

// The eye 40 units over the water at the origin, looking along +y, `pitch` degrees down.
scene::Camera camera(float pitch = 20.0f) {
    scene::Camera cam;
    cam.position = {0.0f, 0.0f, kWaterZ + 40.0f};
    cam.pitch = pitch;
    cam.yaw = 90.0f;
    cam.aspect = static_cast<float>(kW) / static_cast<float>(kH);
    cam.z_near = 1.0f;
    return cam;
}

// The view ray through screen point (x, y) in pixels from the top left (a pixel's centre is
// + 0.5): its origin and unit direction.
struct Ray {
    glm::vec3 origin, dir;
};
Ray rayAt(const scene::Camera& cam, float x, float y) {
    const glm::mat4 inverse = glm::inverse(cam.viewProjection());
    const float nx = x / static_cast<float>(kW) * 2.0f - 1.0f;
    const float ny = 1.0f - y / static_cast<float>(kH) * 2.0f;
    const glm::vec4 a = inverse * glm::vec4(nx, ny, -1.0f, 1.0f);
    const glm::vec4 b = inverse * glm::vec4(nx, ny, 1.0f, 1.0f);
    const glm::vec3 p = glm::vec3(a) / a.w, q = glm::vec3(b) / b.w;
    return {cam.position, glm::normalize(q - p)};
}

// Where a ray meets the plane y = `y`, if ahead.
std::optional<glm::vec3> atY(const Ray& r, float y) {
    if (r.dir.y <= 0.0f)
        return std::nullopt;
    return r.origin + ((y - r.origin.y) / r.dir.y) * r.dir;
}

bool inside(const std::optional<glm::vec3>& p, float z0, float z1, float margin) {
    return p && std::abs(p->x) < kWallHalf - margin && p->z > z0 + margin && p->z < z1 - margin;
}
bool outside(const std::optional<glm::vec3>& p, float z0, float z1, float margin) {
    return !p || std::abs(p->x) > kWallHalf + margin || p->z < z0 - margin || p->z > z1 + margin;
}

// What the reflection shows at screen point (x, y): the view ray met by the water and turned
// back up (z negated); the wall where it meets it, else the clear colour. `mirrored_pillar`:
// what an unclipped reflection shows, the pillar seen by the mirrored eye, where the view ray
// crosses the pillar's mirror image (z 2 kWaterZ - kPillarTop .. 2 kWaterZ) on its way down to
// the water. nullopt within `margin` units of an edge.
std::optional<Rgb> reflectionAt(const scene::Camera& cam, float x, float y, float margin,
                                bool mirrored_pillar = false) {
    const Ray view = rayAt(cam, x, y);
    if (view.dir.z >= 0.0f)
        return std::nullopt;
    const glm::vec3 p = view.origin + ((kWaterZ - view.origin.z) / view.dir.z) * view.dir;
    const Ray up{p, {view.dir.x, view.dir.y, -view.dir.z}};
    if (mirrored_pillar) {
        // The mirrored view's ray is the view ray mirrored: it meets the pillar where the view
        // ray, before the water, meets the pillar's mirror image.
        const auto q = atY(view, kPillarY);
        const float z0 = 2.0f * kWaterZ - kPillarTop, z1 = 2.0f * kWaterZ;
        if (inside(q, z0, z1, margin))
            return kPillar;
        if (!outside(q, z0, z1, margin))
            return std::nullopt;
    }
    const auto w = atY(up, kWallY);
    if (inside(w, kWaterZ, kWallTop, margin))
        return kWall;
    if (outside(w, kWaterZ, kWallTop, margin))
        return kClear;
    return std::nullopt;
}

// reflectionAt where it agrees a pixel either side along both axes: a place the linear
// filtering of the picture cannot mix across an edge.
std::optional<Rgb> steadyReflectionAt(const scene::Camera& cam, float x, float y) {
    const auto c = reflectionAt(cam, x, y, 0.5f);
    for (const auto& [dx, dy] :
         {std::array<float, 2>{-1.0f, 0.0f}, {1.0f, 0.0f}, {0.0f, -1.0f}, {0.0f, 1.0f}}) {
        const auto o = reflectionAt(cam, x + dx, y + dy, 0.5f);
        if (!c || !o || *o != *c)
            return std::nullopt;
    }
    return c;
}

std::array<int, 3> pixelAt(const std::vector<uint8_t>& px, int column, int row) {
    const size_t i = (static_cast<size_t>(row) * kW + static_cast<size_t>(column)) * 4;
    return {px[i], px[i + 1], px[i + 2]};
}

void expectNear(const std::array<int, 3>& got, const Rgb& want, float tolerance,
                const std::string& what) {
    for (size_t c = 0; c < 3; ++c)
        EXPECT_NEAR(got[c], want[c] * 255.0f, tolerance) << what << " channel " << c;
}

content::WaterShading planarWater(bool refract) {
    content::WaterShading w;
    w.enabled = true;
    w.blended = true; // no $forcecheap
    w.planar = true;  // $reflecttexture with $forceexpensive
    w.refract = refract;
    w.base_colour = {0.2f, 0.3f, 0.4f}; // $fogcolor
    w.reflect_tint = {1.0f, 0.8f, 0.6f};
    w.reflect_amount = 0.0f;
    w.fog_start = 0.0f;
    w.fog_end = 50.0f;
    return w;
}

// The pool's textures, its water shaded as `water`; its normal map one texel colour.
std::vector<content::TextureInfo> poolTextures(const content::WaterShading& water,
                                               std::optional<std::array<uint8_t, 4>> normal) {
    std::vector<content::TextureInfo> textures(4);
    for (size_t k : {0u, 2u, 3u}) {
        textures[k].image = solid(bytes(k == 0 ? kFloor : k == 2 ? kWall : kPillar));
        textures[k].fullbright_light = 1.0f;
        textures[k].missing = false;
    }
    textures[1].image = solid({1, 2, 3}, 128); // not what is shown
    textures[1].surface_flags = bsp::kSurfFullbright | bsp::kSurfTranslucent;
    textures[1].fullbright_light = 1.0f;
    textures[1].water = water;
    textures[1].missing = false;
    if (normal)
        textures[1].bump = solid({(*normal)[0], (*normal)[1], (*normal)[2]}, (*normal)[3]);
    return textures;
}

class PlanarWaterRender : public gltest::GlFixture {
protected:
    // The pool seen by `cam`, its water shaded as `water`; its normal map one texel colour. The
    // reflection view is built as the app builds it (testsupport::renderWorld).
    std::vector<uint8_t> render(const content::WaterShading& water, const scene::Camera& cam,
                                std::optional<std::array<uint8_t, 4>> normal = std::nullopt,
                                bool reflection_on = true) {
        const std::vector<content::TextureInfo> textures = poolTextures(water, normal);
        const bsp::Map map = pool();
        const scene::WorldMesh mesh =
            scene::buildWorldMesh(map, scene::resolveMaterials(map, nullptr, textures));
        render::RenderOptions options = testsupport::testRenderOptions();
        options.clear_colour = {kClear[0], kClear[1], kClear[2], 1.0f};
        options.water_reflection = reflection_on;
        return testsupport::renderWorld({map, mesh, textures}, cam, kW, kH, options);
    }
};

Rgb times(const Rgb& a, const std::array<float, 3>& b) {
    return {a[0] * b[0], a[1] * b[1], a[2] * b[2]};
}

} // namespace

TEST_F(PlanarWaterRender, TheWallAboveTheWaterAppearsMirroredWhereItsReflectionFalls) {
    // Reflection only (no $refracttexture): each water pixel is the mirrored view's colour times
    // $reflecttint, no fresnel (DrawWater's bReflect-only branch). Down the centre column the
    // reflected rays meet the wall from the horizon (7.6 degrees down) to 37.7 degrees down, the
    // clear colour below that.
    const content::WaterShading w = planarWater(false);
    const scene::Camera cam = camera();
    const std::vector<uint8_t> px = render(w, cam);
    int walls = 0, clears = 0;
    for (int column : {kW / 2, kW / 2 + 37, kW / 2 - 61})
        for (int row = 0; row < kH; ++row) {
            const float x = static_cast<float>(column) + 0.5f, y = static_cast<float>(row) + 0.5f;
            if (rayAt(cam, x, y).dir.z >= 0.0f ||
                atY(rayAt(cam, x, y), kWallY).value_or(glm::vec3(0, 0, 1e9f)).z >= kWaterZ - 2.0f)
                continue; // not the water (the wall or the sky), or near the wall's foot
            const auto want = reflectionAt(cam, x, y, 2.0f);
            if (!want)
                continue;
            (*want == kWall ? walls : clears) += 1;
            expectNear(pixelAt(px, column, row), times(*want, w.reflect_tint), 1.5f,
                       "column " + std::to_string(column) + " row " + std::to_string(row));
        }
    EXPECT_GT(walls, 60);
    EXPECT_GT(clears, 20);
    // The switch off: the cheap path's colours instead (blended reflect tint over the floor,
    // at most the tint), so the wall's green is gone from the water.
    const std::vector<uint8_t> cheap = render(w, cam, std::nullopt, false);
    EXPECT_NE(pixelAt(cheap, kW / 2, 120), pixelAt(px, kW / 2, 120));
}

TEST_F(PlanarWaterRender, TheReflectionShowsTheWallTheMainViewLeavesOut) {
    // The eye looks 60 degrees down: its view runs from 30.6 degrees down (the vertical half
    // angle at 16:9 is 29.4) and the wall, at most 7.6 degrees down from the eye, is above it, so
    // with the wall in a leaf of its own the frustum leaves it out of the main view's list. The
    // mirrored eye, 32 units under the floor looking 60 degrees up, sees its lower part: the top
    // rows of the water, whose reflected rays (30.6 to 37.7 degrees up) meet the wall, show it.
    // Drawn from the main view's list instead, they showed the clear colour.
    const content::WaterShading w = planarWater(false);
    const scene::Camera cam = camera(60.0f);
    const std::vector<content::TextureInfo> textures = poolTextures(w, std::nullopt);
    const bsp::Map map = pool(true);
    const scene::WorldMesh mesh =
        scene::buildWorldMesh(map, scene::resolveMaterials(map, nullptr, textures));
    scene::Visibility vis(map, mesh), reflection_vis(map, mesh);
    scene::DrawList list;
    vis.update(cam, {}, list);
    for (const scene::DrawBatch& b : list.batches)
        ASSERT_NE(b.material, 2) << "the wall is in the main view";
    scene::ReflectionView view;
    ASSERT_TRUE(scene::updateReflectionView(
        cam, list, scene::planarWaterHeights(map, mesh.materials), reflection_vis, {}, view));

    render::WorldRenderer r;
    std::string error;
    ASSERT_TRUE(r.init(render::GlslLibrary(), &error)) << error;
    ASSERT_TRUE(r.upload({map, mesh, textures}, &error)) << error;
    render::RenderTarget target;
    ASSERT_TRUE(target.create(kW, kH, &error)) << error;
    render::RenderOptions options = testsupport::testRenderOptions();
    options.clear_colour = {kClear[0], kClear[1], kClear[2], 1.0f};
    target.bind();
    r.draw(list, cam, options, nullptr, &view);
    const std::vector<uint8_t> px = target.readPixels();
    // The flaw this replaced: the mirrored camera drawing the main view's list.
    scene::ReflectionView main_list = view;
    main_list.list = list;
    r.draw(list, cam, options, nullptr, &main_list);
    const std::vector<uint8_t> old = target.readPixels();
    // No view given: the cheap path, as with the switch off (the first test).
    r.draw(list, cam, options);
    const std::vector<uint8_t> cheap = target.readPixels();
    EXPECT_NE(pixelAt(cheap, kW / 2, kH - 10), pixelAt(px, kW / 2, kH - 10));

    int walls = 0, clears = 0;
    for (int column = 0; column < kW; column += 3)
        for (int row = 0; row < kH; ++row) {
            const float x = static_cast<float>(column) + 0.5f, y = static_cast<float>(row) + 0.5f;
            const auto want = reflectionAt(cam, x, y, 2.0f);
            if (!want)
                continue;
            const std::string where =
                "column " + std::to_string(column) + " row " + std::to_string(row);
            expectNear(pixelAt(px, column, row), times(*want, w.reflect_tint), 1.5f, where);
            if (*want == kWall) {
                ++walls;
                // Without its own list the reflection held no wall there.
                expectNear(pixelAt(old, column, row), times(kClear, w.reflect_tint), 1.5f,
                           "main list " + where);
            } else {
                ++clears;
            }
        }
    EXPECT_GT(walls, 100);
    EXPECT_GT(clears, 1000);
}

TEST_F(PlanarWaterRender, NothingUnderTheWaterShowsInTheReflection) {
    // The pillar stands under the water (its top 2.5 units below the plane, under the clip at
    // plane - 2). The mirrored eye stands 32 units under the floor looking up through it, so
    // unclipped it sees the pillar in front of the wall: in the water, the pillar's mirror image
    // 10.5 to 16 units high at y = 100, for the rows whose view rays cross it on their way down
    // (17.7 to 20.6 degrees down); clipped, those pixels show the wall's reflection.
    const content::WaterShading w = planarWater(false);
    const scene::Camera cam = camera();
    const std::vector<uint8_t> px = render(w, cam);
    int hidden = 0;
    for (int column = kW / 2 - 40; column <= kW / 2 + 40; column += 20)
        for (int row = 0; row < kH; ++row) {
            const float x = static_cast<float>(column) + 0.5f, y = static_cast<float>(row) + 0.5f;
            const auto unclipped = reflectionAt(cam, x, y, 1.0f, true);
            const auto clipped = reflectionAt(cam, x, y, 1.0f);
            if (!unclipped || !clipped || *unclipped != kPillar)
                continue;
            ++hidden;
            expectNear(pixelAt(px, column, row), times(*clipped, w.reflect_tint), 1.5f,
                       "row " + std::to_string(row));
        }
    EXPECT_GE(hidden, 15);
}

TEST_F(PlanarWaterRender, ReflectAmountMovesTheReflectionByTheNormalMapsTilt) {
    // A normal-map texel (191, 128, 255, 255): t = 2 texel / 255 - 1 = (0.498, 0.0039, 1), alpha
    // 1. The reflection is read at the screen position plus (t.x, -t.y) $reflectamount, in
    // viewport units: with 0.1, 0.0498 of the width (15.9 pixels) to the right and 0.07 pixels
    // down. At the wall's reflected edges a pixel shows what the unmoved reflection shows 15.9
    // pixels to its right.
    content::WaterShading w = planarWater(false);
    w.reflect_amount = 0.1f;
    const std::array<uint8_t, 4> texel = {191, 128, 255, 255};
    const float tx = 2.0f * 191.0f / 255.0f - 1.0f, ty = 2.0f * 128.0f / 255.0f - 1.0f;
    const float dx = tx * w.reflect_amount * kW, dy = -ty * w.reflect_amount * kH; // dy: v up
    const scene::Camera cam = camera();
    const std::vector<uint8_t> px = render(w, cam, texel);
    int moved = 0, checked = 0;
    for (int row = 100; row < kH; row += 3)
        for (int column = 0; column < kW; ++column) {
            const float x = static_cast<float>(column) + 0.5f, y = static_cast<float>(row) + 0.5f;
            const auto want = steadyReflectionAt(cam, x + dx, y - dy);
            const auto unmoved = reflectionAt(cam, x, y, 2.0f);
            if (!want)
                continue;
            ++checked;
            if (unmoved && *unmoved != *want)
                ++moved;
            expectNear(pixelAt(px, column, row), times(*want, w.reflect_tint), 1.5f,
                       "column " + std::to_string(column) + " row " + std::to_string(row));
        }
    EXPECT_GT(checked, 2000);
    EXPECT_GT(moved, 100); // pixels the offset changed: the shift is seen, not assumed
}

TEST_F(PlanarWaterRender, ReflectAmountMovesTheReflectionDownTheScreenByGreensTilt) {
    // A texel (128, 191, 255, 255): t = (0.0039, 0.498, 1). Water_vs20.fxc maps the reflection
    // with v up the screen in Direct3D's texture space, which runs down the picture, so
    // + t.y $reflectamount moves the read down the screen: with 0.1, 0.0498 of the height (9.0
    // pixels) down, and 0.1 pixels to the right. Read the other way round, the wall's reflected
    // top edge would fall 18 pixels off.
    content::WaterShading w = planarWater(false);
    w.reflect_amount = 0.1f;
    const std::array<uint8_t, 4> texel = {128, 191, 255, 255};
    const float tx = 2.0f * 128.0f / 255.0f - 1.0f, ty = 2.0f * 191.0f / 255.0f - 1.0f;
    const float dx = tx * w.reflect_amount * kW, down = ty * w.reflect_amount * kH;
    const scene::Camera cam = camera();
    const std::vector<uint8_t> px = render(w, cam, texel);
    int moved = 0, checked = 0;
    for (int column = 100; column < 220; column += 7)
        for (int row = 100; row < kH; ++row) {
            const float x = static_cast<float>(column) + 0.5f, y = static_cast<float>(row) + 0.5f;
            const auto want = steadyReflectionAt(cam, x + dx, y + down);
            const auto unmoved = reflectionAt(cam, x, y, 2.0f);
            if (!want || y + down >= static_cast<float>(kH) - 1.0f)
                continue;
            ++checked;
            if (unmoved && *unmoved != *want)
                ++moved;
            expectNear(pixelAt(px, column, row), times(*want, w.reflect_tint), 1.5f,
                       "column " + std::to_string(column) + " row " + std::to_string(row));
        }
    EXPECT_GT(checked, 300);
    EXPECT_GT(moved, 20);
}

TEST_F(PlanarWaterRender, TheFloorSeenThroughTheRefractionIsFoggedByItsDepthUnderTheWater) {
    // With $refracttexture: below the water the frame's floor, fogged as the engine's refraction
    // view fogs it (CalcWaterFogAlpha with the fog plane at the water + 2: a = saturate(
    // saturate((10 - 0) / (48 - 0)) depth / ($fogend - $fogstart)), depth along the view axis),
    // mixed once more toward $fogcolor by saturate(a - 0.05); the fresnel factor F = (1 -
    // N.V)^5 times saturate((a - 0.05) 20) mixes in the tinted reflection.
    const content::WaterShading w = planarWater(true);
    const scene::Camera cam = camera();
    const std::vector<uint8_t> px = render(w, cam);
    int checked = 0;
    float least_fog = 1.0f, most_fog = 0.0f;
    for (int row = 120; row < kH; row += 4)
        for (int column : {kW / 2, kW / 2 + 50, kW / 2 - 90}) {
            const float x = static_cast<float>(column) + 0.5f, y = static_cast<float>(row) + 0.5f;
            const Ray view = rayAt(cam, x, y);
            // The floor, not the pillar, beneath this pixel.
            const glm::vec3 floor = view.origin + (-view.origin.z / view.dir.z) * view.dir;
            const glm::vec3 water =
                view.origin + ((kWaterZ - view.origin.z) / view.dir.z) * view.dir;
            if (floor.y > kPillarY - 2.0f && std::abs(floor.x) < kWallHalf + 2.0f)
                continue;
            const auto reflection = reflectionAt(cam, x, y, 2.0f);
            if (!reflection)
                continue;
            const float under =
                std::clamp((kWaterZ + 2.0f - floor.z) / (view.origin.z - floor.z), 0.0f, 1.0f);
            const float depth = glm::dot(floor - view.origin, cam.forward());
            const float a = std::clamp(under * depth / (w.fog_end - w.fog_start), 0.0f, 1.0f);
            least_fog = std::min(least_fog, a);
            most_fog = std::max(most_fog, a);
            const float edge = 1.0f - glm::normalize(view.origin - water).z;
            const float fresnel =
                std::pow(edge, 5.0f) * std::clamp((a - 0.05f) * 20.0f, 0.0f, 1.0f);
            Rgb want{};
            for (size_t c = 0; c < 3; ++c) {
                const float refraction = kFloor[c] + (w.base_colour[c] - kFloor[c]) * a;
                const float below = refraction + (w.base_colour[c] - refraction) *
                                                     std::clamp(a - 0.05f, 0.0f, 1.0f);
                const float reflected = (*reflection)[c] * w.reflect_tint[c];
                want[c] = below + (reflected - below) * fresnel;
            }
            ++checked;
            expectNear(pixelAt(px, column, row), want, 1.5f,
                       "column " + std::to_string(column) + " row " + std::to_string(row));
        }
    EXPECT_GT(checked, 30);
    // The fog varies over the rows checked: its depth is in the picture, not a constant.
    EXPECT_GT(most_fog - least_fog, 0.1f);
}

TEST_F(PlanarWaterRender, TheWaterPassDrawsByTheHeightsItsSourceGives) {
    // A loaded map's heights (scene::DrawableWorld::water_heights) come in through
    // WorldSource::water_heights and the renderer draws by them: the pool's own give the picture
    // the heights computed at upload give; a table without its height draws the water by the
    // cheap path, though the reflection view is drawn, as with the reflection switched off.
    const content::WaterShading w = planarWater(false);
    const scene::Camera cam = camera();
    const std::vector<content::TextureInfo> textures = poolTextures(w, std::nullopt);
    const bsp::Map map = pool();
    const scene::WorldMesh mesh =
        scene::buildWorldMesh(map, scene::resolveMaterials(map, nullptr, textures));
    render::RenderOptions options = testsupport::testRenderOptions();
    options.clear_colour = {kClear[0], kClear[1], kClear[2], 1.0f};
    const std::vector<float> heights = scene::planarWaterHeights(map, mesh.materials);
    ASSERT_EQ(heights[1], kWaterZ);
    const std::vector<float> none(heights.size(), std::nanf(""));
    const auto drawn = [&](const std::vector<float>& given) {
        return testsupport::renderWorld(
            {.map = map, .mesh = mesh, .textures = textures, .water_heights = &given}, cam, kW, kH,
            options);
    };
    const std::vector<uint8_t> reflected = drawn(heights);
    const std::vector<uint8_t> cheap = drawn(none);
    EXPECT_EQ(reflected, render(w, cam));
    EXPECT_EQ(cheap, render(w, cam, std::nullopt, false));
    EXPECT_NE(pixelAt(reflected, kW / 2, 120), pixelAt(cheap, kW / 2, 120));
}
