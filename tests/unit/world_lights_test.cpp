// Source world lights (bsp/world_lights.h): hand-made lumps of both record versions read to
// exact values, the engine's load-time fixups (Mod_LoadWorldlights, ComputeLightRadius) and
// errors naming the lump and the record; background_01's 17 lights as the file has them.
#include "bsp/load.h"
#include "bsp/world_lights.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <vector>

namespace {

struct Record {
    float origin[3], intensity[3], normal[3];
    float shadow_offset[3]; // version 1 only
    int32_t cluster, type, style;
    float stopdot, stopdot2, exponent, radius, c, l, q;
    int32_t flags, texinfo, owner;
};

void append(std::vector<uint8_t>& out, const Record& r, int version) {
    auto put = [&](const void* p, size_t n) {
        const auto* b = static_cast<const uint8_t*>(p);
        out.insert(out.end(), b, b + n);
    };
    put(r.origin, 12);
    put(r.intensity, 12);
    put(r.normal, 12);
    if (version == 1)
        put(r.shadow_offset, 12);
    put(&r.cluster, 12);
    put(&r.stopdot, 28);
    put(&r.flags, 12);
}

Record spot() {
    return {{1, 2, 3},  {0.5f, 0.25f, 0.125f},
            {0, 0, -1}, {7, 8, 9},
            4,          2,
            0,          0.9f,
            0.5f,       2.0f,
            300.0f,     0.0f,
            0.01f,      0.001f,
            0,          11,
            12};
}

} // namespace

TEST(WorldLights, Version0RecordsReadExactly) {
    std::vector<uint8_t> lump;
    append(lump, spot(), 0);
    Record sky{};
    sky.normal[2] = -1.0f;
    sky.intensity[0] = 0.25f;
    sky.type = 3;
    sky.cluster = -1;
    sky.radius = 5.0f;
    append(lump, sky, 0);
    ASSERT_EQ(lump.size(), 2 * bsp::kWorldLightBytesV0);
    const auto lights = bsp::parseWorldLights(lump, 0, false);
    ASSERT_TRUE(lights) << lights.error().message();
    ASSERT_EQ(lights->size(), 2u);
    const bsp::WorldLight& a = (*lights)[0];
    EXPECT_EQ(a.origin, glm::vec3(1, 2, 3));
    EXPECT_EQ(a.intensity, glm::vec3(0.5f, 0.25f, 0.125f));
    EXPECT_EQ(a.normal, glm::vec3(0, 0, -1));
    EXPECT_EQ(a.shadow_cast_offset, glm::vec3(0)); // version 0 has none
    EXPECT_EQ(a.cluster, 4);
    EXPECT_EQ(a.type, bsp::EmitType::Spotlight);
    EXPECT_EQ(a.stopdot, 0.9f);
    EXPECT_EQ(a.stopdot2, 0.5f);
    EXPECT_EQ(a.exponent, 2.0f);
    EXPECT_EQ(a.radius, 300.0f);
    EXPECT_EQ(a.linear_attn, 0.01f);
    EXPECT_EQ(a.quadratic_attn, 0.001f);
    EXPECT_EQ(a.texinfo, 11);
    EXPECT_EQ(a.owner, 12);
    EXPECT_EQ((*lights)[1].type, bsp::EmitType::Skylight);
    EXPECT_EQ((*lights)[1].radius, 5.0f);
}

TEST(WorldLights, Version1CarriesTheShadowOffset) {
    std::vector<uint8_t> lump;
    append(lump, spot(), 1);
    ASSERT_EQ(lump.size(), bsp::kWorldLightBytesV1);
    const auto lights = bsp::parseWorldLights(lump, 1, true);
    ASSERT_TRUE(lights) << lights.error().message();
    EXPECT_EQ((*lights)[0].shadow_cast_offset, glm::vec3(7, 8, 9));
    EXPECT_EQ((*lights)[0].cluster, 4);
    EXPECT_EQ((*lights)[0].owner, 12);
}

// Mod_LoadWorldlights: a point light without attenuation takes quadratic 1, and its radius 0 the
// distance where |intensity| / d^2 falls to 0.03 (HDR 0.015): |(3, 4, 0)| = 5, sqrt(5 / 0.03).
TEST(WorldLights, LoadFixupsAsTheEngine) {
    Record r{};
    r.type = 1;
    r.intensity[0] = 3.0f;
    r.intensity[1] = 4.0f;
    std::vector<uint8_t> lump;
    append(lump, r, 0);
    auto ldr = bsp::parseWorldLights(lump, 0, false);
    ASSERT_TRUE(ldr);
    EXPECT_EQ((*ldr)[0].quadratic_attn, 1.0f);
    EXPECT_NEAR((*ldr)[0].radius, std::sqrt(5.0f / 0.03f), 1e-3f);
    auto hdr = bsp::parseWorldLights(lump, 0, true);
    ASSERT_TRUE(hdr);
    EXPECT_NEAR((*hdr)[0].radius, std::sqrt(5.0f / 0.015f), 1e-3f);
    // Linear only: (5 / 0.03 - 1) / 2; a spot's exponent 0 becomes 1; nothing at all: 2000.
    bsp::WorldLight linear;
    linear.type = bsp::EmitType::Point;
    linear.intensity = {3, 4, 0};
    linear.constant_attn = 1.0f;
    linear.linear_attn = 2.0f;
    bsp::fixUpWorldLight(linear, false);
    EXPECT_NEAR(linear.radius, (5.0f / 0.03f - 1.0f) / 2.0f, 1e-3f);
    bsp::WorldLight s;
    s.type = bsp::EmitType::Spotlight;
    bsp::fixUpWorldLight(s, false);
    EXPECT_EQ(s.exponent, 1.0f);
    bsp::WorldLight sky;
    sky.type = bsp::EmitType::Skylight;
    bsp::fixUpWorldLight(sky, false);
    EXPECT_EQ(sky.radius, 2000.0f);
}

TEST(WorldLights, ErrorsNameTheLumpAndRecord) {
    std::vector<uint8_t> lump;
    append(lump, spot(), 0);
    Record bad = spot();
    bad.type = 6;
    append(lump, bad, 0);
    auto e = bsp::parseWorldLights(lump, 0, false);
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error().lump, "worldlights");
    EXPECT_EQ(e.error().index, 1);
    EXPECT_NE(e.error().detail.find("type 6"), std::string::npos);
    lump.pop_back();
    e = bsp::parseWorldLights(lump, 0, true);
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error().lump, "worldlights_hdr");
    EXPECT_EQ(e.error().code, core::ErrorCode::LumpSize);
    e = bsp::parseWorldLights(lump, 2, false);
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error().code, core::ErrorCode::UnsupportedVersion);
    Record nan = spot();
    nan.q = std::numeric_limits<float>::quiet_NaN();
    std::vector<uint8_t> one;
    append(one, nan, 0);
    e = bsp::parseWorldLights(one, 0, false);
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error().index, 0);
    EXPECT_TRUE(bsp::parseWorldLights({}, 7, false)); // an empty lump is no lights at any version
}

// background_01: 17 LDR lights (the HDR lump is empty): 15 points, the sky ambient and the sun.
TEST(WorldLights, Background01AsStored) {
    const auto map = bsp::loadMapFile(std::filesystem::path(BSPV_SHARED_MAPS_DIR) /
                                      "source/mom_background_01/maps/background_01.bsp");
    ASSERT_TRUE(map) << map.error().message();
    ASSERT_EQ(map->world_lights.size(), 17u);
    EXPECT_TRUE(map->world_lights_hdr.empty());
    const bsp::WorldLight& sky_ambient = map->world_lights[3];
    EXPECT_EQ(sky_ambient.type, bsp::EmitType::SkyAmbient);
    const bsp::WorldLight& sun = map->world_lights[4];
    EXPECT_EQ(sun.type, bsp::EmitType::Skylight);
    EXPECT_NEAR(sun.normal.x, 0.36f, 0.01f);
    EXPECT_NEAR(sun.normal.z, -0.643f, 0.01f);
    size_t points = 0;
    for (const bsp::WorldLight& l : map->world_lights)
        points += l.type == bsp::EmitType::Point;
    EXPECT_EQ(points, 15u);
    EXPECT_EQ(map->world_lights[0].quadratic_attn, 1.0f);
    EXPECT_EQ(map->world_lights[0].origin, glm::vec3(-32, -264, 168));
}
