// Source cube-map samples (bsp/cube_maps.h, VBSP lump 42): hand-made lumps read to exact values,
// errors naming the lump and the record, and a real map (tf2_test2) given a cubemaps lump, which
// opens with its samples or, when the lump is bad, with a warning and none.
#include "bsp/cube_maps.h"
#include "bsp/load.h"
#include "core/file.h"

#include "support/vbsp_patch.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace {

// One dcubemapsample_t: three ints, the size byte and three bytes of padding (here 0xcd, which
// the reader must ignore).
void putSample(std::vector<uint8_t>& b, int32_t x, int32_t y, int32_t z, uint8_t size) {
    for (const int32_t v : {x, y, z}) {
        uint8_t raw[4];
        std::memcpy(raw, &v, 4);
        b.insert(b.end(), raw, raw + 4);
    }
    b.insert(b.end(), {size, 0xcd, 0xcd, 0xcd});
}

std::vector<uint8_t> threeSamples() {
    std::vector<uint8_t> b;
    putSample(b, -512, 64, 128, 0);
    putSample(b, 1000, -2000, 3, 6);
    putSample(b, 0, 0, -16384, 16);
    return b;
}

} // namespace

TEST(CubeMaps, RecordsReadExactly) {
    auto samples = bsp::parseCubeMapSamples(threeSamples());
    ASSERT_TRUE(samples.ok()) << samples.error().message();
    ASSERT_EQ(samples->size(), 3u);
    EXPECT_EQ((*samples)[0].origin, glm::ivec3(-512, 64, 128));
    EXPECT_EQ((*samples)[0].size, 0);
    EXPECT_EQ((*samples)[1].origin, glm::ivec3(1000, -2000, 3));
    EXPECT_EQ((*samples)[1].size, 6); // a side of 1 << 5 = 32 texels
    EXPECT_EQ((*samples)[2].origin, glm::ivec3(0, 0, -16384));
    EXPECT_EQ((*samples)[2].size, 16);
    auto none = bsp::parseCubeMapSamples({});
    ASSERT_TRUE(none.ok());
    EXPECT_TRUE(none->empty());
}

TEST(CubeMaps, ErrorsNameTheLumpAndRecord) {
    std::vector<uint8_t> b = threeSamples();
    b.pop_back(); // 47 bytes
    auto ragged = bsp::parseCubeMapSamples(b);
    ASSERT_FALSE(ragged.ok());
    EXPECT_EQ(ragged.error().code, core::ErrorCode::LumpSize);
    EXPECT_EQ(ragged.error().lump, "cubemaps");
    EXPECT_NE(ragged.error().message().find("47 bytes is not a multiple of 16"), std::string::npos)
        << ragged.error().message();

    b = threeSamples();
    b[16 + 12] = 17; // record 1's size
    auto big = bsp::parseCubeMapSamples(b);
    ASSERT_FALSE(big.ok());
    EXPECT_EQ(big.error().code, core::ErrorCode::BadValue);
    EXPECT_EQ(big.error().index, 1);
    EXPECT_EQ(big.error().field, "size");
    EXPECT_EQ(big.error().message().rfind("cubemaps[1].size: 17", 0), 0u) << big.error().message();

    std::vector<uint8_t> many;
    for (uint64_t i = 0; i <= bsp::kMaxCubeMapSamples; ++i)
        putSample(many, int32_t(i), 0, 0, 0);
    auto too_many = bsp::parseCubeMapSamples(many);
    ASSERT_FALSE(too_many.ok());
    EXPECT_EQ(too_many.error().code, core::ErrorCode::LimitExceeded);
    EXPECT_NE(too_many.error().message().find("1025 samples, at most 1024"), std::string::npos);
    many.resize(many.size() - bsp::kCubeMapSampleBytes);
    auto most = bsp::parseCubeMapSamples(many);
    ASSERT_TRUE(most.ok()) << most.error().message();
    EXPECT_EQ(most->size(), 1024u);
    EXPECT_EQ(most->back().origin.x, 1023);
}

TEST(CubeMaps, RealMapKeepsItsSamplesOrWarns) {
    const auto path = std::filesystem::path(BSPV_SHARED_MAPS_DIR) / "source" / "tf2_test2.bsp";
    auto bytes = core::readFile(path);
    ASSERT_TRUE(bytes.ok()) << bytes.error().message();
    auto plain = bsp::loadMap(*bytes, "tf2_test2.bsp");
    ASSERT_TRUE(plain.ok()) << plain.error().message();
    EXPECT_TRUE(plain->cube_maps.empty()); // lump 42 is empty in every shared map

    const std::vector<uint8_t> with = testsupport::vbspWithLump(*bytes, 42, threeSamples());
    ASSERT_FALSE(with.empty());
    auto map = bsp::loadMap(with, "tf2_test2.bsp");
    ASSERT_TRUE(map.ok()) << map.error().message();
    ASSERT_EQ(map->cube_maps.size(), 3u);
    EXPECT_EQ(map->cube_maps[1].origin, glm::ivec3(1000, -2000, 3));
    EXPECT_EQ(map->cube_maps[1].size, 6);
    EXPECT_EQ(map->faces.size(), plain->faces.size());

    // A ragged lump: the map opens without samples, and one warning says why.
    std::vector<uint8_t> ragged = threeSamples();
    ragged.resize(40);
    auto bad = bsp::loadMap(testsupport::vbspWithLump(*bytes, 42, ragged), "tf2_test2.bsp");
    ASSERT_TRUE(bad.ok()) << bad.error().message();
    EXPECT_TRUE(bad->cube_maps.empty());
    EXPECT_EQ(bad->faces.size(), plain->faces.size());
    const auto warned = std::count_if(bad->warnings.begin(), bad->warnings.end(), [](auto& w) {
        return w.find("cubemaps: 40 bytes is not a multiple of 16; cube maps dropped") !=
               std::string::npos;
    });
    EXPECT_EQ(warned, 1) << "warnings: " << bad->warnings.size();
}
