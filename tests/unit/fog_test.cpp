// Quake 3 fog volumes: the parser's fog box and visible plane (hand-built maps), the join with
// the shaders' fogParms and ioquake3's fog curve (scene/world/fog.h).
#include "support/q3_builder.h"

#include "bsp/load.h"
#include "content/material/q3_shader.h"
#include "content/material/shader_library.h"
#include "scene/world/fog.h"

#include <gtest/gtest.h>

#include <cmath>

#include <glm/geometric.hpp>

using core::ErrorCode;
using namespace q3test;

namespace {

core::Result<bsp::Map> load(const Q3Builder& b) {
    const std::vector<uint8_t> file = b.build();
    return bsp::loadMap(file, "fog.bsp");
}

// tiny() with a second brush, a box from (-16, -8, -32) to (80, 72, 48) whose sides are not
// in ioquake3's order and include one slanted side; the fog uses it with its top visible.
Q3Builder fogBox() {
    Q3Builder b = Q3Builder::tiny();
    const int32_t first_plane = static_cast<int32_t>(b.planes.size());
    b.planes.push_back({0, 0, 1, 48});       // +z (visible side 0)
    b.planes.push_back({-1, 0, 0, 16});      // -x
    b.planes.push_back({0.6f, 0.8f, 0, 90}); // slanted: no bound
    b.planes.push_back({1, 0, 0, 80});       // +x
    b.planes.push_back({0, -1, 0, 8});       // -y
    b.planes.push_back({0, 1, 0, 72});       // +y
    b.planes.push_back({0, 0, -1, 32});      // -z
    const int32_t first_side = static_cast<int32_t>(b.brush_sides.size());
    for (int32_t i = 0; i < 7; ++i)
        b.brush_sides.push_back({first_plane + i, 2});
    b.brushes.push_back({first_side, 7, 2});
    b.fogs[0].brush = static_cast<int32_t>(b.brushes.size()) - 1;
    b.fogs[0].visible_side = 0;
    return b;
}

content::ShaderLibrary fogShaders(const std::string& parms) {
    content::ShaderLibrary lib;
    lib.addScript(
        content::parseShaderScript(
            "textures/fog/mist\n{\n\tsurfaceparm fog\n\tsurfaceparm nonsolid\n" + parms + "}\n",
            "scripts/fog.shader"),
        false);
    return lib;
}

} // namespace

TEST(FogLoad, BoxAndVisiblePlaneComeFromTheBrush) {
    const auto r = load(fogBox());
    ASSERT_TRUE(r) << r.error().message();
    ASSERT_EQ(r->fogs.size(), 1u);
    const bsp::Fog& f = r->fogs[0];
    EXPECT_EQ(f.shader, "textures/fog/mist");
    EXPECT_EQ(f.mins, glm::vec3(-16, -8, -32));
    EXPECT_EQ(f.maxs, glm::vec3(80, 72, 48));
    // The top side turned inward: positive inside the box.
    EXPECT_EQ(f.surface.normal, glm::vec3(0, 0, -1));
    EXPECT_FLOAT_EQ(f.surface.dist, -48.0f);
    EXPECT_GT(glm::dot(f.surface.normal, glm::vec3(0, 0, 0)) - f.surface.dist, 0.0f);
    EXPECT_LT(glm::dot(f.surface.normal, glm::vec3(0, 0, 60)) - f.surface.dist, 0.0f);
    // Faces carry their fog number: only the triangle soup is in the fog.
    ASSERT_EQ(r->faces.size(), 5u);
    for (size_t i = 0; i < r->faces.size(); ++i)
        EXPECT_EQ(r->faces[i].fog, i == 1 ? 0 : -1) << "face " << i;
    EXPECT_TRUE(r->warnings.empty());
}

TEST(FogLoad, OpenSidesOfABrushStayOpen) {
    // tiny()'s fog brush has a single +x side at 0.
    const auto r = load(Q3Builder::tiny());
    ASSERT_TRUE(r) << r.error().message();
    ASSERT_EQ(r->fogs.size(), 1u);
    EXPECT_EQ(r->fogs[0].maxs.x, 0.0f);
    EXPECT_LT(r->fogs[0].mins.x, -1e8f);
    EXPECT_GT(r->fogs[0].maxs.z, 1e8f);
    // Its visible side (the +x plane) turned inward.
    EXPECT_EQ(r->fogs[0].surface.normal, glm::vec3(-1, 0, 0));
}

TEST(FogLoad, BrushMinusOneIsAGlobalFog) {
    // q3map2 writes brush -1 for q3map_globalfog (Nexuiz silvercity); DarkPlaces keeps it.
    Q3Builder b = fogBox();
    b.fogs[0].brush = -1;
    b.fogs[0].visible_side = 3; // meaningless without a brush: dropped
    const auto r = load(b);
    ASSERT_TRUE(r) << r.error().message();
    ASSERT_EQ(r->fogs.size(), 1u);
    EXPECT_EQ(r->fogs[0].brush, -1);
    EXPECT_EQ(r->fogs[0].visible_side, -1);
    EXPECT_LT(r->fogs[0].mins.x, -1e8f);
    EXPECT_GT(r->fogs[0].maxs.z, 1e8f);
}

TEST(FogLoad, BadIndicesAreCleanErrors) {
    Q3Builder brush = fogBox();
    brush.fogs[0].brush = -2;
    auto r = load(brush);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::IndexOutOfRange);
    EXPECT_EQ(r.error().lump, "effects");
    EXPECT_EQ(r.error().field, "brush");

    Q3Builder side = fogBox();
    side.fogs[0].visible_side = 7; // the box has 7 sides
    r = load(side);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().lump, "effects");
    EXPECT_EQ(r.error().field, "visibleSide");
    side.fogs[0].visible_side = -2;
    EXPECT_FALSE(load(side));
    side.fogs[0].visible_side = -1; // no visible side: seen from inside only
    r = load(side);
    ASSERT_TRUE(r) << r.error().message();
    EXPECT_EQ(r->fogs[0].visible_side, -1);

    Q3Builder face = fogBox();
    face.faces[0].effect = 1; // one fog only: drawn without fog (ioquake3 ParseFace)
    r = load(face);
    ASSERT_TRUE(r) << r.error().message();
    EXPECT_EQ(r->faces[0].fog, -1);
    ASSERT_FALSE(r->warnings.empty());
    EXPECT_NE(r->warnings.back().find("faces[0].effect: effect 1 beyond 1 effects"),
              std::string::npos);

    Q3Builder plane = fogBox();
    plane.brush_sides.back()[0] = static_cast<int32_t>(plane.planes.size());
    r = load(plane);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().lump, "brushsides");
}

TEST(FogVolumes, JoinTheShadersFogParms) {
    const auto r = load(fogBox());
    ASSERT_TRUE(r) << r.error().message();
    const auto lib = fogShaders("\tfogparms ( 0.5 0.25 0.125 ) 200\n");
    auto fogs = scene::buildFogVolumes(*r, lib);
    ASSERT_EQ(fogs.size(), 1u);
    EXPECT_TRUE(fogs[0].valid);
    EXPECT_EQ(fogs[0].colour, glm::vec3(0.5f, 0.25f, 0.125f));
    EXPECT_FLOAT_EQ(fogs[0].distance, 200.0f);
    EXPECT_TRUE(fogs[0].has_surface);
    EXPECT_EQ(fogs[0].surface, glm::vec4(0, 0, -1, -48));
    EXPECT_EQ(fogs[0].mins, glm::vec3(-16, -8, -32));

    // ioquake3 takes a distance below 1 as 1.
    fogs = scene::buildFogVolumes(*r, fogShaders("\tfogparms ( 1 1 1 ) 0\n"));
    EXPECT_TRUE(fogs[0].valid);
    EXPECT_FLOAT_EQ(fogs[0].distance, 1.0f);
    // No fogParms, or no shader at all: nothing to draw.
    EXPECT_FALSE(scene::buildFogVolumes(*r, fogShaders(""))[0].valid);
    EXPECT_FALSE(scene::buildFogVolumes(*r, content::ShaderLibrary())[0].valid);
}

TEST(FogVolumes, AmountGrowsWithDepthAsIoquake3s) {
    scene::FogVolume fog;
    fog.distance = 400.0f;
    fog.valid = true;
    // No visible side: the eye counts as inside; sqrt(depth / distance), opaque beyond.
    const glm::vec3 eye(0.0f);
    EXPECT_FLOAT_EQ(scene::fogAmount(fog, eye, {100, 0, 0}, 100.0f), 0.5f);
    EXPECT_FLOAT_EQ(scene::fogAmount(fog, eye, {400, 0, 0}, 400.0f), 1.0f);
    EXPECT_FLOAT_EQ(scene::fogAmount(fog, eye, {900, 0, 0}, 900.0f), 1.0f);
    EXPECT_FLOAT_EQ(scene::fogAmount(fog, eye, {0, 0, 0}, 0.0f), 0.0f);
    float last = 0.0f;
    for (float d = 10.0f; d <= 400.0f; d += 10.0f) {
        const float a = scene::fogAmount(fog, eye, {d, 0, 0}, d);
        EXPECT_GT(a, last) << d;
        last = a;
    }

    // A ground fog: the plane z = 0 is its top, fog below.
    fog.has_surface = true;
    fog.surface = glm::vec4(0, 0, -1, 0);
    // Eye in the fog: points in it are fogged by depth, points above the top are not.
    const glm::vec3 low(0, 0, -50);
    EXPECT_FLOAT_EQ(scene::fogAmount(fog, low, {100, 0, -50}, 100.0f), 0.5f);
    EXPECT_FLOAT_EQ(scene::fogAmount(fog, low, {100, 0, 20}, 100.0f), 0.0f);
    // Eye above: only the share of the ray under the top counts.
    const glm::vec3 high(0, 0, 100);
    EXPECT_FLOAT_EQ(scene::fogAmount(fog, high, {200, 0, -100}, 200.0f), std::sqrt(0.25f));
    EXPECT_FLOAT_EQ(scene::fogAmount(fog, high, {200, 0, 0.5f}, 200.0f), 0.0f);
    EXPECT_FLOAT_EQ(scene::fogAmount(fog, high, {200, 0, 50}, 200.0f), 0.0f);
}

TEST(FogVolumes, BlendedStagesFadeAsAdjustColorsForFog) {
    using content::BlendFactor;
    auto stage = [](bool blend, BlendFactor src, BlendFactor dst) {
        content::ShaderStage s;
        s.blend = blend;
        s.src = src;
        s.dst = dst;
        return s;
    };
    EXPECT_EQ(scene::fogFadeMask(stage(true, BlendFactor::One, BlendFactor::One)),
              glm::vec4(1, 1, 1, 0));
    EXPECT_EQ(scene::fogFadeMask(stage(true, BlendFactor::Zero, BlendFactor::OneMinusSrcColor)),
              glm::vec4(1, 1, 1, 0));
    EXPECT_EQ(scene::fogFadeMask(stage(true, BlendFactor::SrcAlpha, BlendFactor::OneMinusSrcAlpha)),
              glm::vec4(0, 0, 0, 1));
    EXPECT_EQ(scene::fogFadeMask(stage(true, BlendFactor::One, BlendFactor::OneMinusSrcAlpha)),
              glm::vec4(1, 1, 1, 1));
    // A filter cannot be faded correctly (ioquake3 leaves it), nor is an opaque stage.
    EXPECT_EQ(scene::fogFadeMask(stage(true, BlendFactor::DstColor, BlendFactor::Zero)),
              glm::vec4(0));
    EXPECT_EQ(scene::fogFadeMask(stage(false, BlendFactor::One, BlendFactor::Zero)), glm::vec4(0));
}
