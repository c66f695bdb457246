// Source prop and ambient lumps (bsp/source_props.h): synthetic sprp lumps of every version
// (records laid out from Source SDK 2013 public/gamebspfile.h and bsp_tool's branch tables, not
// from the reader), dprp, the leaf ambient cubes with hand-computed blends, and the shared maps.
#include "bsp/load.h"
#include "bsp/source_props.h"
#include "core/file.h"

#include "support/source_props_builder.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>

namespace {

using srcprops::Bytes;
using srcprops::put;
using srcprops::putName;
using srcprops::recordBytes;
using srcprops::sprpLump;

} // namespace

TEST(SourceProps, EveryStaticPropVersionReadsItsFields) {
    struct Case {
        uint16_t version;
        bool sdk2013;
    };
    const Case cases[] = {{4, false}, {5, false},  {6, false},  {7, false},
                          {7, true},  {8, false},  {9, false},  {10, false},
                          {10, true}, {11, false}, {12, false}, {13, false}};
    for (const Case& c : cases) {
        SCOPED_TRACE(std::to_string(c.version) + (c.sdk2013 ? " SDK 2013" : ""));
        auto p = bsp::parseStaticProps(sprpLump(c.version, 3, c.sdk2013), c.version);
        ASSERT_TRUE(p.ok()) << p.error().message();
        EXPECT_EQ(p->record_bytes, recordBytes(c.version, c.sdk2013));
        EXPECT_EQ(p->models, (std::vector<std::string>{"models/a.mdl", "models/b.mdl"}));
        EXPECT_EQ(p->leaves, (std::vector<uint32_t>{100, 101, 102}));
        ASSERT_EQ(p->props.size(), 3u);
        const bsp::StaticProp& s = p->props[2];
        EXPECT_EQ(s.origin, glm::vec3(2, 4, 6));
        EXPECT_EQ(s.angles, glm::vec3(0, 180, 0));
        EXPECT_EQ(s.model, 0u);
        EXPECT_EQ(p->props[1].model, 1u);
        EXPECT_EQ(s.first_leaf, 2u);
        EXPECT_EQ(s.leaf_count, 1u);
        EXPECT_EQ(s.solid, 6u);
        EXPECT_EQ(s.flags, bsp::kStaticPropIgnoreNormals);
        EXPECT_EQ(s.skin, 3);
        EXPECT_EQ(s.fade_min, 100.0f);
        EXPECT_EQ(s.fade_max, 200.0f);
        EXPECT_EQ(s.lighting_origin, glm::vec3(1, 2, 3));
        EXPECT_EQ(s.forced_fade_scale, c.version >= 5 ? 0.5f : 1.0f);
        const bool dx = c.sdk2013 || c.version == 6 || c.version == 7;
        EXPECT_EQ(s.dx_level, (dx ? std::array<uint16_t, 2>{80, 95} : std::array<uint16_t, 2>{}));
        const bool levels = !c.sdk2013 && c.version >= 8;
        EXPECT_EQ(s.cpu_gpu_level,
                  (levels ? std::array<uint8_t, 4>{1, 2, 3, 4} : std::array<uint8_t, 4>{}));
        const bool diffuse = !c.sdk2013 && c.version >= 7;
        EXPECT_EQ(s.diffuse_modulation, (diffuse ? std::array<uint8_t, 4>{10, 20, 30, 40}
                                                 : std::array<uint8_t, 4>{255, 255, 255, 255}));
        EXPECT_EQ(s.flags_ex, !c.sdk2013 && c.version >= 10 ? 0x77u : 0u);
        const glm::vec3 scale = c.sdk2013 || c.version <= 10 ? glm::vec3(1)
                                : c.version == 13            ? glm::vec3(2, 3, 4)
                                                             : glm::vec3(2);
        EXPECT_EQ(s.scale, scale);
        EXPECT_EQ(s.lightmap_resolution,
                  (c.sdk2013 ? std::array<uint16_t, 2>{32, 16} : std::array<uint16_t, 2>{}));
    }
}

TEST(SourceProps, UnknownVersionsAndWrongSizesNameTheLump) {
    for (uint16_t version : {0, 3, 14, 200}) {
        auto p = bsp::parseStaticProps(sprpLump(4, 2), version);
        ASSERT_FALSE(p.ok()) << version;
        EXPECT_EQ(p.error().code, core::ErrorCode::UnsupportedVersion);
        EXPECT_EQ(p.error().lump, "game_lump.sprp");
    }
    // Version 5's 60-byte records read as version 4 (56 expected).
    auto p = bsp::parseStaticProps(sprpLump(5, 2), 4);
    ASSERT_FALSE(p.ok());
    EXPECT_EQ(p.error().code, core::ErrorCode::LumpSize);
    // A version 6 lump cut one byte short.
    Bytes cut = sprpLump(6, 2);
    cut.pop_back();
    EXPECT_EQ(bsp::parseStaticProps(cut, 6).error().code, core::ErrorCode::LumpSize);
    // No props: any version in range reads, with no record size.
    Bytes none = sprpLump(9, 0);
    auto empty = bsp::parseStaticProps(none, 9);
    ASSERT_TRUE(empty.ok());
    EXPECT_EQ(empty->record_bytes, 0u);
    EXPECT_EQ(empty->models.size(), 2u);
}

TEST(SourceProps, PropIndicesMustLieInsideTheirTables) {
    Bytes b = sprpLump(4, 2);
    // Prop 1's model index (at 4 + 256 + 4 + 2 * 2 + 4 + 56 + 24) to 2: past the dictionary.
    const size_t model_at = 4 + 256 + 4 + 4 + 4 + 56 + 24;
    b[model_at] = 2;
    auto p = bsp::parseStaticProps(b, 4);
    ASSERT_FALSE(p.ok());
    EXPECT_EQ(p.error().code, core::ErrorCode::IndexOutOfRange);
    EXPECT_EQ(p.error().index, 1);
    b[model_at] = 1;
    b[model_at + 2] = 2; // first leaf 2 of 2
    EXPECT_EQ(bsp::parseStaticProps(b, 4).error().code, core::ErrorCode::IndexOutOfRange);
    // A negative dictionary count.
    Bytes neg = sprpLump(4, 1);
    neg[3] = 0x80;
    EXPECT_EQ(bsp::parseStaticProps(neg, 4).error().code, core::ErrorCode::BadValue);
}

TEST(SourceProps, DetailPropsSpritesAndModels) {
    Bytes b;
    put<int32_t>(b, 1);
    putName(b, "models/grass.mdl");
    put<int32_t>(b, 2);
    for (int s = 0; s < 2; ++s)
        for (float f :
             {-8.0f, 16.0f, 8.0f, 0.0f, 0.25f * float(s), 0.0f, 0.25f * float(s + 1), 0.5f})
            put<float>(b, f);
    put<int32_t>(b, 2);
    for (int k = 0; k < 2; ++k) {
        for (float f : {10.0f * float(k), 1.0f, 2.0f, 0.0f, 45.0f, 0.0f})
            put<float>(b, f);
        put<uint16_t>(b, uint16_t(k == 0 ? 0 : 1)); // model 0, then sprite 1
        put<uint16_t>(b, 7);                        // leaf
        for (uint8_t v : {200, 100, 50})
            put<uint8_t>(b, v);
        put<int8_t>(b, -2);
        put<uint32_t>(b, 0);
        for (uint8_t v : {0, 9, 0, 0, 1, 0, 0, 0})
            put<uint8_t>(b, v);
        put<uint8_t>(b, uint8_t(k == 0 ? 0 : 1)); // type: model, sprite
        for (int pad = 0; pad < 3; ++pad)
            put<uint8_t>(b, 0);
        put<float>(b, 1.5f);
    }
    auto d = bsp::parseDetailProps(b, 4);
    ASSERT_TRUE(d.ok()) << d.error().message();
    EXPECT_EQ(d->models, (std::vector<std::string>{"models/grass.mdl"}));
    ASSERT_EQ(d->sprites.size(), 2u);
    EXPECT_EQ(d->sprites[1].tex_lower_right[0], 0.5f);
    ASSERT_EQ(d->props.size(), 2u);
    EXPECT_EQ(d->props[1].origin, glm::vec3(10, 1, 2));
    EXPECT_EQ(d->props[1].type, bsp::DetailType::Sprite);
    EXPECT_EQ(d->props[1].model, 1u);
    EXPECT_EQ(d->props[1].leaf, 7u);
    EXPECT_EQ(d->props[1].sway, 9u);
    EXPECT_EQ(d->props[1].orientation, 1u);
    EXPECT_EQ(d->props[1].scale, 1.5f);
    // 200 * 2^-2 = 50.
    EXPECT_EQ(bsp::rgbExpToLinear(d->props[1].lighting), glm::vec3(50, 25, 12.5f));
    EXPECT_EQ(bsp::parseDetailProps(b, 5).error().code, core::ErrorCode::UnsupportedVersion);
    b[4 + 128 + 4 + 64 + 4 + 52 + 24] = 5; // object 1's sprite index past the 2 sprites
    EXPECT_EQ(bsp::parseDetailProps(b, 4).error().code, core::ErrorCode::IndexOutOfRange);
}

TEST(SourceProps, AmbientCubeBlendsTheLeafsSamples) {
    // One leaf (no nodes: every point is in leaf 0) from (0, 0, 0) to (255, 255, 255), two
    // samples: at fraction (0, 0, 0) +x = 16 * 2^0, at (255, 0, 0) +x = 4 * 2^2 (both 16), and
    // -z differing: 8 * 2^0 and 8 * 2^1.
    bsp::Map map;
    map.leaves.resize(2);
    map.leaves[0].maxs = glm::vec3(255);
    Bytes index, samples;
    put<uint16_t>(index, 2);
    put<uint16_t>(index, 0);
    put<uint16_t>(index, 0); // leaf 1: no samples, stands in leaf 0
    put<uint16_t>(index, 0);
    for (int s = 0; s < 2; ++s) {
        for (int side = 0; side < 6; ++side) {
            const uint8_t c = side == 0 ? (s == 0 ? 16 : 4) : side == 5 ? 8 : 0;
            const int8_t e = side == 0 ? (s == 0 ? 0 : 2) : side == 5 ? int8_t(s) : 0;
            for (int ch = 0; ch < 3; ++ch)
                put<uint8_t>(samples, c);
            put<int8_t>(samples, e);
        }
        put<uint8_t>(samples, s == 0 ? 0 : 255);
        put<uint8_t>(samples, 0);
        put<uint8_t>(samples, 0);
        put<uint8_t>(samples, 0);
    }
    auto set = bsp::parseLeafAmbient(index, 0, samples, 2, false);
    ASSERT_TRUE(set.ok()) << set.error().message();
    map.leaf_ambient = std::move(*set);
    // At (1, 0, 0): distances^2 1 and 254^2; weights 1/2 and 1/(64516 + 1).
    const auto cube = bsp::ambientCubeAt(map, glm::vec3(1, 0, 0), false);
    const double w0 = 1.0 / 2.0, w1 = 1.0 / 64517.0;
    EXPECT_NEAR(cube[0].x, 16.0, 1e-4);
    EXPECT_NEAR(cube[5].y, (8.0 * w0 + 16.0 * w1) / (w0 + w1), 1e-4);
    EXPECT_EQ(cube[2], glm::vec3(0));
    // The HDR request falls back to the only set.
    EXPECT_EQ(bsp::ambientCubeAt(map, glm::vec3(1, 0, 0), true)[5], cube[5]);
    // Bad ranges name the lump.
    Bytes bad = index;
    bad[0] = 3;
    auto e = bsp::parseLeafAmbient(bad, 0, samples, 2, true);
    ASSERT_FALSE(e.ok());
    EXPECT_EQ(e.error().lump, "leaf_ambient_index_hdr");
    EXPECT_EQ(e.error().code, core::ErrorCode::IndexOutOfRange);
    EXPECT_EQ(bsp::parseLeafAmbient(index, 0, samples, 3, false).error().code,
              core::ErrorCode::LumpSize);
    EXPECT_EQ(bsp::parseLeafAmbient(index, 2, samples, 2, false).error().code,
              core::ErrorCode::UnsupportedVersion);
}

namespace {

bsp::Map loadShared(const std::filesystem::path& path) {
    auto bytes = core::readFile(path);
    EXPECT_TRUE(bytes.ok()) << path;
    if (!bytes)
        return {};
    auto map = bsp::loadMap(*bytes, path.filename().string());
    EXPECT_TRUE(map.ok()) << (map ? "" : map.error().message());
    return map ? std::move(*map) : bsp::Map{};
}

const std::filesystem::path kSource = std::filesystem::path(BSPV_SHARED_MAPS_DIR) / "source";

} // namespace

// Counts, names and positions read independently with a Python reader of the game lump
// (dgamelump_t, StaticPropDictLump_t and the 72-byte SDK 2013 records).
TEST(SourcePropsMaps, MomBackgroundThreeProps) {
    const bsp::Map map = loadShared(kSource / "mom_background_01/maps/background_01.bsp");
    const bsp::StaticProps& sp = map.static_props;
    EXPECT_EQ(sp.version, 10u);
    EXPECT_EQ(sp.record_bytes, 72u);
    EXPECT_EQ(sp.models, (std::vector<std::string>{"models/props_japan/sakura_tree01b.mdl",
                                                   "models/props_foliage/cattails.mdl"}));
    EXPECT_EQ(sp.leaves.size(), 7u);
    ASSERT_EQ(sp.props.size(), 3u);
    EXPECT_EQ(sp.props[0].origin, glm::vec3(-32, -200, 97));
    EXPECT_EQ(sp.props[0].model, 0u);
    EXPECT_EQ(sp.props[0].leaf_count, 4u);
    // STATIC_PROP_NO_PER_VERTEX_LIGHTING | NO_SELF_SHADOWING | NO_PER_TEXEL_LIGHTING.
    EXPECT_EQ(sp.props[0].flags, 0x1c0u);
    EXPECT_EQ(sp.props[1].origin, glm::vec3(-80, -192, 97));
    EXPECT_EQ(sp.props[1].angles, glm::vec3(0, 285, 0));
    EXPECT_EQ(sp.props[2].model, 1u);
    EXPECT_EQ(sp.props[2].solid, 6u);
    EXPECT_EQ(map.detail_props.version, 4u);
    EXPECT_TRUE(map.detail_props.props.empty());
    // 152 leaves; 360 LDR and 152 HDR ambient samples.
    EXPECT_EQ(map.leaf_ambient.leaves.size(), map.leaves.size());
    EXPECT_EQ(map.leaf_ambient.samples.size(), 360u);
    EXPECT_EQ(map.leaf_ambient_hdr.samples.size(), 152u);
    EXPECT_TRUE(map.warnings.empty()) << map.warnings.front();
}

TEST(SourcePropsMaps, Tf2Test2SeventeenProps) {
    const bsp::Map map = loadShared(kSource / "tf2_test2.bsp");
    const bsp::StaticProps& sp = map.static_props;
    ASSERT_EQ(sp.props.size(), 17u);
    EXPECT_EQ(sp.models.size(), 10u);
    EXPECT_EQ(sp.leaves.size(), 22u);
    EXPECT_EQ(sp.models[sp.props[0].model], "models/props_2fort/oildrum.mdl");
    EXPECT_NEAR(sp.props[0].origin.x, -232.542f, 1e-3f);
    EXPECT_NEAR(sp.props[0].origin.y, 233.009f, 1e-3f);
    EXPECT_NEAR(sp.props[0].origin.z, -150.194f, 1e-3f);
    EXPECT_EQ(sp.props[0].angles, glm::vec3(0, 316, 0));
    EXPECT_EQ(sp.models[sp.props[15].model], "models/props_lights/walllight001a.mdl");
    EXPECT_EQ(sp.props[15].origin, glm::vec3(-320, -256, 0));
    EXPECT_EQ(sp.props[15].skin, 2);
    EXPECT_EQ(sp.props[14].angles.x, 11.2138f);
    EXPECT_EQ(sp.props[16].first_leaf, 19u);
    EXPECT_EQ(sp.props[16].leaf_count, 3u);
    EXPECT_EQ(sp.props[9].solid, 0u);
    // The entity list keeps showing them.
    size_t listed = 0;
    for (const bsp::Entity& e : map.entities)
        listed += e.classname() == "prop_static";
    EXPECT_EQ(listed, 17u);
    // 131 leaves, 684 LDR and 131 HDR samples; the cube at the first prop is lit.
    EXPECT_EQ(map.leaf_ambient.samples.size(), 684u);
    EXPECT_EQ(map.leaf_ambient_hdr.samples.size(), 131u);
    const auto cube = bsp::ambientCubeAt(map, sp.props[0].origin + glm::vec3(0, 0, 16), false);
    float sum = 0;
    for (const glm::vec3& side : cube)
        sum += side.x + side.y + side.z;
    EXPECT_GT(sum, 0.0f);
}

TEST(SourcePropsMaps, StrataAmbientIndexOfWideEntries) {
    // momentum_mp_lobby (VBSP 25): LEAF_AMBIENT_INDEX version 1, 8 bytes a leaf; 29 leaves and
    // 29 samples in each set.
    const bsp::Map map = loadShared(kSource / "momentum_mp_lobby.bsp");
    EXPECT_EQ(map.leaves.size(), 29u);
    EXPECT_EQ(map.leaf_ambient.leaves.size(), 29u);
    EXPECT_EQ(map.leaf_ambient.samples.size(), 29u);
    EXPECT_EQ(map.leaf_ambient_hdr.samples.size(), 29u);
    for (const std::string& w : map.warnings)
        EXPECT_EQ(w.find("ambient"), std::string::npos) << w;
}
