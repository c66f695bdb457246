// Source's world fog (env_fog_controller: game::MapRules::linear_fog, drawn through the world
// program's DISTANCE_FOG variant with the map block's linear_fog): a fragment takes
// min(max density, saturate((d - start) / (end - start))) of the fog colour, d the depth along
// the view axis, or the distance to the eye when the fog is radial (Mesa llvmpipe under
// xvfb-run). Every expected colour is worked out below from the pixel's own view ray.
#include "content/image/image.h"
#include "gl_fixture.h"
#include "render_world.h"
#include "scene/world/material_table.h"
#include "scene/world/world_mesh.h"
#include "support/map_builder.h"

#include <glm/geometric.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace {

constexpr int kW = 320, kH = 180;
constexpr float kHalf = 4096.0f;
const std::array<uint8_t, 3> kFloor = {200, 40, 40};
const glm::vec3 kFogColour = {0.0f, 1.0f, 0.5f};

// A floor at z = 0, drawn at full light in kFloor.
bsp::Map floorMap() {
    bsp::Map m;
    m.format = bsp::Format::Source;
    testsupport::addMaterial(m, "floor");
    bsp::Face face;
    face.material = 0;
    face.normal = {0, 0, 1};
    face.lightmap_page = -1;
    testsupport::addQuad(
        m, {{{-kHalf, -kHalf, 0}, {-kHalf, kHalf, 0}, {kHalf, kHalf, 0}, {kHalf, -kHalf, 0}}},
        face);
    testsupport::addWorldLeaf(m, {-kHalf, -kHalf, -8}, {kHalf, kHalf, 512});
    return m;
}

scene::Camera camera() {
    scene::Camera cam;
    cam.position = {0, 0, 100};
    cam.pitch = 30.0f; // looking down: the floor fills the lower part of the view
    cam.yaw = 90.0f;
    cam.aspect = static_cast<float>(kW) / static_cast<float>(kH);
    cam.z_near = 1.0f;
    return cam;
}

// The floor point a pixel's centre shows.
glm::vec3 floorPointAt(const scene::Camera& cam, int column, int row) {
    return testsupport::pointOnPlaneZ(cam, kW, kH, column, row, 0.0f);
}

game::LinearFog fog(bool radial) {
    game::LinearFog f;
    f.enabled = true;
    f.colour = kFogColour;
    f.start = 150.0f;
    f.end = 450.0f;
    f.max_density = 0.8f;
    f.radial = radial;
    return f;
}

// What the pixel showing floor point p holds: mix(floor, fog, min(max, saturate(ramp))).
std::array<float, 3> fogged(const game::LinearFog& f, const scene::Camera& cam, glm::vec3 p) {
    const float d = f.radial ? glm::length(p - cam.position)
                             : std::abs(glm::dot(p - cam.position, cam.forward()));
    const float amount =
        std::min(std::clamp((d - f.start) / (f.end - f.start), 0.0f, 1.0f), f.max_density);
    std::array<float, 3> c{};
    for (size_t i = 0; i < 3; ++i)
        c[i] = kFloor[i] + (255.0f * f.colour[i] - kFloor[i]) * amount;
    return c;
}

std::array<int, 3> pixelAt(const std::vector<uint8_t>& pixels, int column, int row) {
    const size_t i = (static_cast<size_t>(row) * kW + static_cast<size_t>(column)) * 4;
    return {pixels[i], pixels[i + 1], pixels[i + 2]};
}

class LinearFogRender : public gltest::GlFixture {
protected:
    std::vector<uint8_t> render(const game::LinearFog& f, bool fog_switch = true) {
        std::vector<content::TextureInfo> textures(1);
        textures[0].image.width = textures[0].image.height = 4;
        for (int i = 0; i < 16; ++i)
            textures[0].image.rgba.insert(textures[0].image.rgba.end(),
                                          {kFloor[0], kFloor[1], kFloor[2], 255});
        textures[0].fullbright_light = 1.0f;
        textures[0].missing = false;
        const bsp::Map map = floorMap();
        const scene::WorldMesh mesh =
            scene::buildWorldMesh(map, scene::resolveMaterials(map, nullptr, textures));
        render::WorldSource source{map, mesh, textures};
        source.rules.linear_fog = f;
        render::RenderOptions options = testsupport::testRenderOptions();
        options.fog = fog_switch;
        return testsupport::renderWorld(source, camera(), kW, kH, options);
    }
};

void expectRows(const std::vector<uint8_t>& px, const game::LinearFog& f, int column,
                const std::string& what) {
    const scene::Camera cam = camera();
    float least = 1.0f, most = 0.0f;
    for (int row = 10; row < kH; row += 7) {
        const glm::vec3 p = floorPointAt(cam, column, row);
        ASSERT_LT(std::max(std::abs(p.x), std::abs(p.y)), kHalf) << what << " row " << row;
        const std::array<float, 3> want = fogged(f, cam, p);
        const float amount = (want[1] - kFloor[1]) / (255.0f * f.colour[1] - kFloor[1]);
        least = std::min(least, amount);
        most = std::max(most, amount);
        const std::array<int, 3> got = pixelAt(px, column, row);
        for (size_t c = 0; c < 3; ++c)
            EXPECT_NEAR(got[c], want[c], 1.5f) << what << " row " << row << " channel " << c;
    }
    // The rows sampled run from the unfogged near floor (bottom) to the capped far floor (top).
    EXPECT_LT(least, 0.01f) << what;
    EXPECT_NEAR(most, f.max_density, 1e-4f) << what;
}

} // namespace

TEST_F(LinearFogRender, FogRisesLinearlyWithTheDepthAlongTheViewAxis) {
    // From 100 units up, 30 degrees down: the centre row meets the floor 200 units deep, a sixth
    // of the way up the ramp from 150 to 450: (166.7, 75.8, 54.6); the bottom rows come nearer
    // than 150 (no fog), the top rows lie past 390 (0.8 of the fog colour, the cap).
    const game::LinearFog f = fog(false);
    const std::vector<uint8_t> px = render(f);
    expectRows(px, f, kW / 2, "depth");
    expectRows(px, f, 10, "depth, left edge");
    // Depth, not distance: at the left edge the same row is farther from the eye but at the
    // same depth, so it takes the same fog as the centre.
    const int row = 120;
    const scene::Camera cam = camera();
    const std::array<float, 3> centre = fogged(f, cam, floorPointAt(cam, kW / 2, row));
    const std::array<float, 3> edge = fogged(f, cam, floorPointAt(cam, 10, row));
    EXPECT_NEAR(centre[1], edge[1], 0.01f);
}

TEST_F(LinearFogRender, RadialFogRisesWithTheDistanceToTheEye) {
    // The same floor with fogradial: off the centre column a row is farther from the eye than
    // its depth, so the left edge takes more fog than the centre on the same row.
    const game::LinearFog f = fog(true);
    const std::vector<uint8_t> px = render(f);
    expectRows(px, f, kW / 2, "radial");
    expectRows(px, f, 10, "radial, left edge");
    const int row = 120;
    EXPECT_GT(pixelAt(px, 10, row)[1], pixelAt(px, kW / 2, row)[1] + 3)
        << "the edge is farther from the eye, so greener";
}

TEST_F(LinearFogRender, DisabledFogOrTheFogSwitchOffDrawsTheFloorAsItIs) {
    game::LinearFog off = fog(false);
    off.enabled = false;
    for (const std::vector<uint8_t>& px : {render(off), render(fog(false), false)})
        for (int row = 95; row < kH; row += 17) {
            const std::array<int, 3> got = pixelAt(px, kW / 2, row);
            EXPECT_EQ(got, (std::array<int, 3>{kFloor[0], kFloor[1], kFloor[2]})) << row;
        }
}
