// VTF decoding and VMT / KeyValues parsing on hand-made files with hand-computed pixels.
#include "bsp/load.h"
#include "content/image/vtf.h"
#include "content/material/skybox.h"
#include "content/material/textures.h"
#include "content/material/vmt.h"
#include "content/vfs/vfs.h"
#include "core/file.h"
#include "support/vtf_builder.h"
#include "unit/content_test_util.h"

#include <gtest/gtest.h>

#include <array>
#include <map>
#include <string>
#include <vector>

using content::VtfFormat;

namespace {

using testsupport::makeVtf;
using testsupport::VtfSpec;

std::array<uint8_t, 4> pixel(const content::Image& im, int x, int y) {
    const uint8_t* p = im.rgba.data() + (size_t(y) * size_t(im.width) + size_t(x)) * 4;
    return {p[0], p[1], p[2], p[3]};
}

using Px = std::array<uint8_t, 4>;

} // namespace

TEST(Vtf, ImageBytesAndMipChainArithmetic) {
    EXPECT_EQ(content::vtfImageBytes(VtfFormat::DXT1, 1, 1), 8u);
    EXPECT_EQ(content::vtfImageBytes(VtfFormat::DXT1, 5, 4), 16u);
    EXPECT_EQ(content::vtfImageBytes(VtfFormat::DXT5, 8, 4), 32u);
    EXPECT_EQ(content::vtfImageBytes(VtfFormat::BGRA8888, 3, 5), 60u);
    EXPECT_EQ(content::vtfImageBytes(VtfFormat::BGR888, 2, 2), 12u);
    EXPECT_EQ(content::vtfImageBytes(VtfFormat::RGBA16161616F, 2, 2), 32u);
    EXPECT_EQ(content::vtfImageBytes(VtfFormat::None, 2, 2), 0u);

    // 8x8 DXT1 with 4 mips: 1x1 (8 bytes), 2x2 (8), 4x4 (8) come first, then 8x8 (32).
    VtfSpec s;
    s.width = s.height = 8;
    s.format = VtfFormat::DXT1;
    s.mips = 4;
    const auto file = makeVtf(s, std::vector<uint8_t>(56, 0));
    auto h = content::parseVtfHeader(file, "chain.vtf");
    ASSERT_TRUE(h) << h.error().message();
    EXPECT_EQ(h->high_res_offset, 80u);
    EXPECT_EQ(h->largest_mip_offset, 104u);
    // One byte short of the chain.
    const std::vector<uint8_t> short_file(file.begin(), file.end() - 1);
    auto bad = content::parseVtfHeader(short_file, "chain.vtf");
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().code, core::ErrorCode::Truncated);
    EXPECT_EQ(bad.error().field, "high_res_data");
    EXPECT_EQ(bad.error().file, "chain.vtf");
}

TEST(Vtf, EnvironmentMapFacesAndFrames) {
    VtfSpec s;
    s.width = s.height = 2;
    s.format = VtfFormat::I8;
    s.mips = 2;
    s.frames = 2;
    s.flags = content::kVtfFlagEnvMap;
    s.first_frame = 0; // before 7.5: a seventh face, the sphere map
    // 1x1 mip: 2 frames * 7 faces * 1 byte; 2x2: 2 * 7 * 4.
    auto file = makeVtf(s, std::vector<uint8_t>(14 + 56, 0));
    auto h = content::parseVtfHeader(file, "sky.vtf");
    ASSERT_TRUE(h) << h.error().message();
    EXPECT_EQ(h->faces, 7u);
    EXPECT_EQ(h->largest_mip_offset, 80u + 14u);

    s.first_frame = 0xffff; // ... unless first_frame is 0xffff
    file = makeVtf(s, std::vector<uint8_t>(12 + 48, 0));
    h = content::parseVtfHeader(file, "cube.vtf");
    ASSERT_TRUE(h) << h.error().message();
    EXPECT_EQ(h->faces, 6u);
    EXPECT_EQ(h->largest_mip_offset, 80u + 12u);

    s.minor = 5; // 7.5 has six faces whatever first_frame says; data after one resource entry
    s.first_frame = 0;
    s.resources = {{0x30, 0, 0, 0, 88, 0, 0, 0}};
    file = makeVtf(s, std::vector<uint8_t>(12 + 48, 0));
    h = content::parseVtfHeader(file, "cube75.vtf");
    ASSERT_TRUE(h) << h.error().message();
    EXPECT_EQ(h->faces, 6u);
    EXPECT_EQ(h->largest_mip_offset, 88u + 12u);
}

TEST(Vtf, Bgra8888TwoMipsTakesTheLargest) {
    VtfSpec s;
    s.width = s.height = 2;
    s.format = VtfFormat::BGRA8888;
    s.mips = 2;
    const std::vector<uint8_t> payload = {
        9,  9,  9,  9,                   // mip 1 (1x1), first in the file
        10, 20, 30, 40, 11, 21, 31, 41,  // mip 0 row 0 (B, G, R, A)
        12, 22, 32, 42, 13, 23, 33, 43}; // mip 0 row 1
    auto im = content::decodeVtf(makeVtf(s, payload), "two_mips.vtf");
    ASSERT_TRUE(im) << im.error().message();
    ASSERT_EQ(im->width, 2);
    ASSERT_EQ(im->height, 2);
    EXPECT_EQ(pixel(*im, 0, 0), (Px{30, 20, 10, 40}));
    EXPECT_EQ(pixel(*im, 1, 0), (Px{31, 21, 11, 41}));
    EXPECT_EQ(pixel(*im, 0, 1), (Px{32, 22, 12, 42}));
    EXPECT_EQ(pixel(*im, 1, 1), (Px{33, 23, 13, 43}));
}

TEST(Vtf, Dxt1FourColourBlock) {
    VtfSpec s;
    s.width = s.height = 4;
    s.format = VtfFormat::DXT1;
    // c0 = pure red (0xf800), c1 = pure blue (0x001f); rows use indices 0, 1, 2, 3.
    const std::vector<uint8_t> block = {0x00, 0xf8, 0x1f, 0x00, 0x00, 0x55, 0xaa, 0xff};
    auto im = content::decodeVtf(makeVtf(s, block), "dxt1.vtf");
    ASSERT_TRUE(im) << im.error().message();
    for (int x = 0; x < 4; ++x) {
        EXPECT_EQ(pixel(*im, x, 0), (Px{255, 0, 0, 255}));
        EXPECT_EQ(pixel(*im, x, 1), (Px{0, 0, 255, 255}));
        EXPECT_EQ(pixel(*im, x, 2), (Px{170, 0, 85, 255})); // (2 * c0 + c1) / 3
        EXPECT_EQ(pixel(*im, x, 3), (Px{85, 0, 170, 255})); // (c0 + 2 * c1) / 3
    }
}

TEST(Vtf, Dxt1ThreeColourModeAndOneBitAlpha) {
    // c0 = blue (0x001f) <= c1 = red (0xf800): index 2 is the mean, index 3 black.
    const std::vector<uint8_t> block = {0x1f, 0x00, 0x00, 0xf8, 0xe4, 0xe4, 0xe4, 0xe4};
    // Row indices 0, 1, 2, 3 (0xe4 = 3 2 1 0 from the high bits down).
    VtfSpec s;
    s.width = s.height = 4;
    s.format = VtfFormat::DXT1;
    auto opaque = content::decodeVtf(makeVtf(s, block), "dxt1.vtf");
    ASSERT_TRUE(opaque);
    EXPECT_EQ(pixel(*opaque, 0, 0), (Px{0, 0, 255, 255}));
    EXPECT_EQ(pixel(*opaque, 1, 0), (Px{255, 0, 0, 255}));
    EXPECT_EQ(pixel(*opaque, 2, 0), (Px{127, 0, 127, 255}));
    EXPECT_EQ(pixel(*opaque, 3, 0), (Px{0, 0, 0, 255}));

    s.format = VtfFormat::DXT1_OneBitAlpha;
    auto onebit = content::decodeVtf(makeVtf(s, block), "dxt1a.vtf");
    ASSERT_TRUE(onebit);
    EXPECT_EQ(pixel(*onebit, 3, 0), (Px{0, 0, 0, 0}));
    EXPECT_EQ(pixel(*onebit, 2, 3), (Px{127, 0, 127, 255}));

    s.format = VtfFormat::DXT1;
    s.flags = content::kVtfFlagOneBitAlpha;
    auto flagged = content::decodeVtf(makeVtf(s, block), "dxt1f.vtf");
    ASSERT_TRUE(flagged);
    EXPECT_EQ(pixel(*flagged, 3, 1), (Px{0, 0, 0, 0}));
}

TEST(Vtf, Dxt1BelowFourTexelsKeepsTheBlockCorner) {
    VtfSpec s;
    s.width = 2;
    s.height = 1;
    s.format = VtfFormat::DXT1;
    const std::vector<uint8_t> block = {0x00, 0xf8, 0x1f, 0x00, 0x04, 0x00, 0x00, 0x00};
    auto im = content::decodeVtf(makeVtf(s, block), "small.vtf");
    ASSERT_TRUE(im);
    ASSERT_EQ(im->rgba.size(), 8u);
    EXPECT_EQ(pixel(*im, 0, 0), (Px{255, 0, 0, 255}));
    EXPECT_EQ(pixel(*im, 1, 0), (Px{0, 0, 255, 255}));
}

TEST(Vtf, Dxt5AlphaRamps) {
    VtfSpec s;
    s.width = s.height = 4;
    s.format = VtfFormat::DXT5;
    const auto block = [](uint8_t a0, uint8_t a1) {
        std::vector<uint8_t> b = {a0, a1, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0};
        uint64_t bits = 0;
        for (uint64_t i = 0; i < 16; ++i)
            bits |= (i & 7) << (3 * i); // texel i uses alpha index i % 8
        for (int i = 0; i < 6; ++i)
            b[size_t(2 + i)] = uint8_t(bits >> (8 * i));
        return b;
    };
    auto eight = content::decodeVtf(makeVtf(s, block(255, 0)), "dxt5.vtf");
    ASSERT_TRUE(eight) << eight.error().message();
    const std::array<uint8_t, 8> want8 = {255, 0, 218, 182, 145, 109, 72, 36};
    for (int i = 0; i < 16; ++i) {
        EXPECT_EQ(pixel(*eight, i % 4, i / 4)[3], want8[size_t(i % 8)]) << i;
        EXPECT_EQ(pixel(*eight, i % 4, i / 4)[0], 255);
    }
    auto six = content::decodeVtf(makeVtf(s, block(0, 100)), "dxt5.vtf");
    ASSERT_TRUE(six);
    const std::array<uint8_t, 8> want6 = {0, 100, 20, 40, 60, 80, 0, 255};
    for (int i = 0; i < 8; ++i)
        EXPECT_EQ(pixel(*six, i % 4, i / 4)[3], want6[size_t(i)]) << i;
}

TEST(Vtf, Dxt3ExplicitAlpha) {
    VtfSpec s;
    s.width = s.height = 4;
    s.format = VtfFormat::DXT3;
    std::vector<uint8_t> b(16, 0);
    b[0] = 0x4f; // texel 0: 15, texel 1: 4
    b[7] = 0x10; // texel 15: 1, texel 14: 0
    b[8] = 0x00; // c0 = c1 = 0xf800 (red), index 0 everywhere
    b[9] = 0xf8;
    b[10] = 0x00;
    b[11] = 0xf8;
    auto im = content::decodeVtf(makeVtf(s, b), "dxt3.vtf");
    ASSERT_TRUE(im);
    EXPECT_EQ(pixel(*im, 0, 0), (Px{255, 0, 0, 255}));
    EXPECT_EQ(pixel(*im, 1, 0), (Px{255, 0, 0, 68}));
    EXPECT_EQ(pixel(*im, 2, 3), (Px{255, 0, 0, 0}));
    EXPECT_EQ(pixel(*im, 3, 3), (Px{255, 0, 0, 17}));
}

TEST(Vtf, EveryUncompressedFormatOneTexel) {
    struct Case {
        VtfFormat format;
        std::vector<uint8_t> bytes;
        Px want;
    };
    const std::vector<Case> cases = {
        {VtfFormat::RGBA8888, {1, 2, 3, 4}, {1, 2, 3, 4}},
        {VtfFormat::ABGR8888, {1, 2, 3, 4}, {4, 3, 2, 1}},
        {VtfFormat::ARGB8888, {1, 2, 3, 4}, {2, 3, 4, 1}},
        {VtfFormat::BGRA8888, {1, 2, 3, 4}, {3, 2, 1, 4}},
        {VtfFormat::BGRX8888, {1, 2, 3, 4}, {3, 2, 1, 255}},
        {VtfFormat::RGB888, {1, 2, 3}, {1, 2, 3, 255}},
        {VtfFormat::BGR888, {1, 2, 3}, {3, 2, 1, 255}},
        {VtfFormat::I8, {7}, {7, 7, 7, 255}},
        {VtfFormat::IA88, {7, 8}, {7, 7, 7, 8}},
        {VtfFormat::A8, {7}, {255, 255, 255, 7}},
        {VtfFormat::UV88, {7, 8}, {7, 8, 0, 255}},
        // 0xf810: bits 11-15 = 31, bits 5-10 = 0, bits 0-4 = 16 (16 -> 132 by replication).
        {VtfFormat::BGR565, {0x10, 0xf8}, {255, 0, 132, 255}},
        {VtfFormat::RGB565, {0x10, 0xf8}, {132, 0, 255, 255}},
        // 0x8421: A 8, R 4, G 2, B 1 (times 17).
        {VtfFormat::BGRA4444, {0x21, 0x84}, {68, 34, 17, 136}},
        // 0xfc10: top bit 1, R 31, G 0, B 16; 0x7c10 the same with the top bit clear.
        {VtfFormat::BGRX5551, {0x10, 0xfc}, {255, 0, 132, 255}},
        {VtfFormat::BGRX5551, {0x10, 0x7c}, {255, 0, 132, 255}},
        {VtfFormat::BGRA5551, {0x10, 0xfc}, {255, 0, 132, 255}},
        {VtfFormat::BGRA5551, {0x10, 0x7c}, {255, 0, 132, 0}},
        // Halves 1.0 (0x3c00), 0.5 (0x3800), 2.0 (0x4000), -1.0 (0xbc00).
        {VtfFormat::RGBA16161616F,
         {0x00, 0x3c, 0x00, 0x38, 0x00, 0x40, 0x00, 0xbc},
         {255, 128, 255, 0}},
    };
    for (const Case& c : cases) {
        VtfSpec s;
        s.format = c.format;
        auto im = content::decodeVtf(makeVtf(s, c.bytes), "texel.vtf");
        ASSERT_TRUE(im) << content::vtfFormatName(c.format) << ": " << im.error().message();
        EXPECT_EQ(pixel(*im, 0, 0), c.want) << content::vtfFormatName(c.format);
    }
}

TEST(Vtf, ThumbnailSkippedBefore73) {
    VtfSpec s;
    s.minor = 0;
    s.low_format = int32_t(VtfFormat::DXT1);
    s.low_w = 8; // 2x1 blocks: 16 bytes
    s.low_h = 4;
    std::vector<uint8_t> payload(16, 0xee);
    payload.insert(payload.end(), {5, 6, 7, 8});
    auto im = content::decodeVtf(makeVtf(s, payload), "v70.vtf");
    ASSERT_TRUE(im) << im.error().message();
    EXPECT_EQ(pixel(*im, 0, 0), (Px{5, 6, 7, 8}));
}

TEST(Vtf, ResourceEntriesFrom73) {
    VtfSpec s;
    s.minor = 4;
    s.low_format = int32_t(VtfFormat::DXT1);
    s.low_w = s.low_h = 4;
    // Header 80 + 3 entries = 104; thumbnail at 104 (8 bytes), CRC inline, image at 112.
    s.resources = {{0x01, 0, 0, 0, 104, 0, 0, 0},
                   {'C', 'R', 'C', 0x02, 0x12, 0x34, 0x56, 0x78},
                   {0x30, 0, 0, 0, 112, 0, 0, 0}};
    std::vector<uint8_t> payload(8, 0xee);
    payload.insert(payload.end(), {1, 2, 3, 4});
    auto im = content::decodeVtf(makeVtf(s, payload), "v74.vtf");
    ASSERT_TRUE(im) << im.error().message();
    EXPECT_EQ(pixel(*im, 0, 0), (Px{1, 2, 3, 4}));

    s.resources.pop_back();
    auto none = content::decodeVtf(makeVtf(s, payload), "v74.vtf");
    ASSERT_FALSE(none);
    EXPECT_EQ(none.error().code, core::ErrorCode::BadImage);
    EXPECT_EQ(none.error().field, "resources");
}

TEST(Vtf, HeaderErrorsNameFieldAndValue) {
    VtfSpec s;
    auto file = makeVtf(s, {1, 2, 3, 4});

    auto sig = file;
    sig[0] = 'X';
    auto e = content::decodeVtf(sig, "x.vtf");
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error().code, core::ErrorCode::UnknownFormat);

    auto ver = file;
    testsupport::putLe<uint32_t>(ver, 8, 7);
    e = content::decodeVtf(ver, "x.vtf");
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error().code, core::ErrorCode::UnsupportedVersion);
    EXPECT_EQ(e.error().field, "version");
    EXPECT_EQ(e.error().file, "x.vtf");
    EXPECT_NE(e.error().detail.find("7.7"), std::string::npos);

    auto fmt = file;
    testsupport::putLe<int32_t>(fmt, 52, 99);
    e = content::decodeVtf(fmt, "x.vtf");
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error().field, "high_res_format");
    EXPECT_NE(e.error().detail.find("99"), std::string::npos);

    auto p8 = file;
    testsupport::putLe<int32_t>(p8, 52, int32_t(VtfFormat::P8));
    e = content::decodeVtf(p8, "x.vtf");
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error().code, core::ErrorCode::BadImage);
    EXPECT_NE(e.error().detail.find("P8"), std::string::npos);

    auto mips = file;
    mips[56] = 0;
    e = content::decodeVtf(mips, "x.vtf");
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error().field, "mip_count");

    auto big = file;
    testsupport::putLe<uint16_t>(big, 16, 9000);
    e = content::decodeVtf(big, "x.vtf");
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error().code, core::ErrorCode::LimitExceeded);

    for (size_t n = 0; n < file.size(); ++n) {
        const std::vector<uint8_t> prefix(file.begin(), file.begin() + long(n));
        EXPECT_FALSE(content::decodeVtf(prefix, "x.vtf")) << n;
    }
}

TEST(KeyValues, TokensCommentsConditionsAndBlocks) {
    const std::string text = R"(// a material
"LightmappedGeneric"
{
	"$basetexture" "Brick/BrickWall031a"   // trailing comment
	$SurfaceProp brick
	"$translucent" 1
	"$alphatest" "0"
	"$envmap" "env_cubemap" [$X360]
	"$selfillum" "1" [!$X360]
	"$nocull" "1" [$X360 || $WIN32]
	"$additive" "1" [$WIN32 && $OSX]
	"Proxies"
	{
		"AnimatedTexture" { "animatedtexturevar" "$basetexture" }
	}
}
trailing text is ignored
)";
    auto vmt = content::parseVmt(text, "brick.vmt");
    ASSERT_TRUE(vmt) << vmt.error().message();
    EXPECT_EQ(vmt->shader, "lightmappedgeneric");
    EXPECT_EQ(vmt->base_texture, "Brick/BrickWall031a");
    EXPECT_TRUE(vmt->translucent);
    EXPECT_FALSE(vmt->alphatest);
    EXPECT_TRUE(vmt->selfillum);
    EXPECT_TRUE(vmt->nocull);
    EXPECT_FALSE(vmt->additive);
    EXPECT_EQ(vmt->params.find("$envmap"), nullptr);
    ASSERT_NE(vmt->params.find("$surfaceprop"), nullptr);
    EXPECT_EQ(vmt->params.find("$SURFACEPROP")->value, "brick");
    const content::KeyValues* proxies = vmt->params.find("proxies");
    ASSERT_NE(proxies, nullptr);
    ASSERT_TRUE(proxies->block);
    ASSERT_EQ(proxies->children.size(), 1u);
    EXPECT_EQ(proxies->children[0].key, "animatedtexture");
    EXPECT_EQ(proxies->children[0].children[0].value, "$basetexture");
    EXPECT_EQ(vmt->params.children.size(), 7u); // nine entries; $envmap and $additive dropped
}

TEST(KeyValues, ErrorsNameTheLine) {
    auto e = content::parseKeyValues("\"Shader\"\n{\n\t\"$basetexture\" \"open\n}\n", "a.vmt");
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error().code, core::ErrorCode::BadValue);
    EXPECT_EQ(e.error().field, "line 3");
    EXPECT_EQ(e.error().file, "a.vmt");

    e = content::parseKeyValues("Shader\n{\n$a 1\n", "b.vmt");
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error().field, "line 4");

    e = content::parseKeyValues("Shader\n{\n$a }\n", "c.vmt");
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error().field, "line 3");

    e = content::parseKeyValues("", "d.vmt");
    ASSERT_FALSE(e);

    std::string deep = "s {";
    for (int i = 0; i < 100; ++i)
        deep += " k {";
    e = content::parseKeyValues(deep, "deep.vmt");
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error().code, core::ErrorCode::LimitExceeded);
}

TEST(Vmt, PatchIncludeInsertReplace) {
    const std::map<std::string, std::string> files = {
        {"materials/base/a.vmt", R"("WorldVertexTransition" {
            "$basetexture" "base/A" "$basetexture2" "base/B" "$nocull" "0" })"},
        {"materials/patched.vmt", R"(patch {
            include "materials/Base/A.vmt"
            insert { "$additive" 1 "$nocull" 1 }
            replace { "$basetexture" "base/C" "$selfillum" 1 } })"},
        {"materials/twice.vmt", R"(patch { include "materials/patched.vmt"
            replace { "$basetexture2" "base/D" } })"},
        {"materials/loop.vmt", R"(patch { include "materials/loop.vmt" })"},
        {"materials/lost.vmt", R"(patch { include "materials/nowhere.vmt" })"},
    };
    const content::VmtReader read = [&](std::string_view path) -> std::optional<std::string> {
        auto it = files.find(std::string(path));
        return it == files.end() ? std::nullopt : std::optional<std::string>(it->second);
    };
    auto v = content::resolveVmt("materials/patched.vmt", read);
    ASSERT_TRUE(v) << v.error().message();
    EXPECT_EQ(v->shader, "worldvertextransition");
    EXPECT_EQ(v->base_texture, "base/C");
    EXPECT_EQ(v->base_texture2, "base/B");
    EXPECT_TRUE(v->additive);
    EXPECT_TRUE(v->nocull);
    EXPECT_FALSE(v->selfillum); // replace never adds a key

    v = content::resolveVmt("materials/twice.vmt", read);
    ASSERT_TRUE(v) << v.error().message();
    EXPECT_EQ(v->base_texture, "base/C");
    EXPECT_EQ(v->base_texture2, "base/D");

    v = content::resolveVmt("materials/loop.vmt", read);
    ASSERT_FALSE(v);
    EXPECT_EQ(v.error().code, core::ErrorCode::LimitExceeded);

    v = content::resolveVmt("materials/lost.vmt", read);
    ASSERT_FALSE(v);
    EXPECT_EQ(v.error().code, core::ErrorCode::NotFound);
    EXPECT_EQ(v.error().detail, "materials/nowhere.vmt");
}

TEST(Vmt, PathsAreLowerCaseUnderMaterials) {
    EXPECT_EQ(content::vtfPathOf("Brick\\Wall01"), "materials/brick/wall01.vtf");
    EXPECT_EQ(content::vtfPathOf("materials/x.VTF"), "materials/x.vtf");
    EXPECT_EQ(content::vmtPathOf("TOOLS/ToolsNodraw"), "materials/tools/toolsnodraw.vmt");
}

// As the engine's file system reads them (tier1 strtools.cpp V_FixSlashes, V_FixDoubleSlashes,
// V_RemoveDotSlashes): Momentum's background_01 names "momentum/World 1//White1".
TEST(Vmt, PathsAreNormalisedAsTheEngineDoes) {
    EXPECT_EQ(content::vtfPathOf("momentum/World 1//White1"),
              "materials/momentum/world 1/white1.vtf");
    EXPECT_EQ(content::vtfPathOf("a\\\\b///c"), "materials/a/b/c.vtf");
    EXPECT_EQ(content::vtfPathOf("/Materials//brick/./wall.VTF"), "materials/brick/wall.vtf");
    EXPECT_EQ(content::vtfPathOf("./brick/wall"), "materials/brick/wall.vtf");
    EXPECT_EQ(content::vtfPathOf("brick/../wall"), "materials/brick/../wall.vtf"); // ".." stays
    EXPECT_EQ(content::vtfPathOf("brick/wall..x"), "materials/brick/wall..x.vtf");
    EXPECT_EQ(content::vmtPathOf("MATERIALS\\Tools//ToolsNodraw.vmt"),
              "materials/tools/toolsnodraw.vmt");
}

namespace {

std::string textOf(const std::vector<uint8_t>& b) {
    return std::string(b.begin(), b.end());
}

} // namespace

TEST(ValveMaterials, VmtToVtfThroughAnEmbeddedArchive) {
    VtfSpec s;
    const std::string tex = textOf(makeVtf(s, {9, 8, 7, 6}));
    const std::string direct = textOf(makeVtf(s, {1, 1, 1, 1}));
    const content::FileSystem fs = content_test::pakfileOf({
        {"materials/brick/wall.vmt",
         "patch { include materials/base/wall.vmt replace { $basetexture Brick\\WallTex } }"},
        {"materials/base/wall.vmt", "LightmappedGeneric { $basetexture base/other }"},
        {"materials/brick/walltex.vtf", tex},
        {"materials/brick/Direct.vtf", direct},
        {"materials/brick/blank.vmt", "UnlitGeneric { $color \"[1 0 0]\" }"},
    });
    bsp::Map map;
    map.format = bsp::Format::Source; // its game reads .vmt files (game/source.cpp)
    map.materials.resize(4);
    map.materials[0].name = "BRICK/WALL";
    map.materials[1].name = "brick/direct";
    map.materials[2].name = "brick/blank";
    map.materials[3].name = "nothing/here";
    const auto textures = content::loadMaterialTextures(map, fs, 1);
    ASSERT_EQ(textures.size(), 4u);

    EXPECT_FALSE(textures[0].missing) << textures[0].error;
    EXPECT_EQ(pixel(textures[0].image, 0, 0), (Px{9, 8, 7, 6}));
    EXPECT_EQ(textures[0].source, "materials/brick/walltex.vtf");
    EXPECT_EQ(textures[0].origin, "pakfile (t.bsp)");
    EXPECT_EQ(textures[0].shader_file, "materials/brick/wall.vmt");
    EXPECT_EQ(textures[0].shader_image, "Brick\\WallTex");

    EXPECT_FALSE(textures[1].missing) << textures[1].error;
    EXPECT_EQ(pixel(textures[1].image, 0, 0), (Px{1, 1, 1, 1}));

    EXPECT_TRUE(textures[2].missing);
    EXPECT_EQ(textures[2].error,
              "materials/brick/blank.vmt: no $basetexture (shader unlitgeneric)");
    EXPECT_TRUE(textures[3].missing);
    EXPECT_EQ(textures[3].error, "materials/nothing/here.vtf: not found");
    EXPECT_EQ(textures[3].image.width, content::makeMissingTexture().width);
}

// A $basetexture with a double slash finds its texture (it was "missing" before).
TEST(ValveMaterials, DoubleSlashInABaseTextureFindsTheTexture) {
    VtfSpec s;
    const content::FileSystem fs = content_test::pakfileOf({
        {"materials/momentum/World 1/White1.vmt",
         "LightmappedGeneric { \"$basetexture\" \"momentum/World 1//White1\" }"},
        {"materials/momentum/World 1/White1.vtf", textOf(makeVtf(s, {5, 6, 7, 8}))},
    });
    bsp::Map map;
    map.format = bsp::Format::Source; // its game reads .vmt files (game/source.cpp)
    map.materials.resize(2);
    map.materials[0].name = "MOMENTUM/WORLD 1/WHITE1";
    map.materials[1].name = "momentum//world 1\\white1";
    const auto textures = content::loadMaterialTextures(map, fs, 1);
    ASSERT_EQ(textures.size(), 2u);
    for (const content::TextureInfo& t : textures) {
        EXPECT_FALSE(t.missing) << t.error;
        EXPECT_EQ(pixel(t.image, 0, 0), (Px{5, 6, 7, 8}));
        EXPECT_EQ(t.source, "materials/momentum/world 1/white1.vtf");
    }
}

TEST(ValveMaterials, EmbeddedArchiveThatIsNoZip) {
    content::FileSystem fs;
    auto st = fs.addEmbeddedArchive({'P', 'K', 3, 4, 0, 0}, "bad.bsp", "pakfile (bad.bsp)");
    ASSERT_FALSE(st);
    EXPECT_EQ(st.error().code, core::ErrorCode::BadArchive);
    EXPECT_EQ(st.error().file, "bad.bsp");
    EXPECT_EQ(st.error().lump, "pakfile (bad.bsp)");
    EXPECT_FALSE(fs.addEmbeddedArchive({}, "empty.bsp", "pakfile (empty.bsp)"));
}

// The shared Source maps' pakfiles hold their default cube maps: 32x32, 6 mips, DXT5 and
// RGBA16161616F (HDR). Left 4 Dead 2 writes VTF 7.4 with the seventh (sphere map) face, CS:GO
// 7.5 and Momentum (Strata) 7.6 six faces; parseVtfHeader checks the chain fills the file.
TEST(ValveMaterials, SharedMapPakfileCubeMaps) {
    struct Case {
        const char* map;
        const char* folder;
        uint32_t minor, faces;
    };
    const Case cases[] = {{"l4d2_tooltextures", "l4d2_tooltextures", 4, 7},
                          {"csgo_tooltextures", "csgo_tooltextures", 5, 6},
                          {"momentum_mp_lobby", "mp_lobby", 6, 6}};
    for (const Case& c : cases) {
        SCOPED_TRACE(c.map);
        auto map =
            bsp::loadMapFile(std::string(BSPV_SHARED_MAPS_DIR) + "/source/" + c.map + ".bsp");
        ASSERT_TRUE(map) << map.error().message();
        EXPECT_EQ(game::profileFor(*map).materials.files, game::MaterialFiles::ValveMaterials);
        content::FileSystem fs;
        ASSERT_TRUE(fs.addEmbeddedArchive(map->embedded_archive, "m.bsp", "pakfile"));
        const std::string base = std::string("materials/maps/") + c.folder + "/cubemapdefault";
        for (const auto& [suffix, format] : {std::pair{".vtf", VtfFormat::DXT5},
                                             std::pair{".hdr.vtf", VtfFormat::RGBA16161616F}}) {
            auto bytes = fs.readChecked(base + suffix);
            ASSERT_TRUE(bytes) << bytes.error().message();
            auto h = content::parseVtfHeader(*bytes, base + suffix);
            ASSERT_TRUE(h) << h.error().message();
            EXPECT_EQ(h->version_minor, c.minor);
            EXPECT_EQ(h->format, format);
            EXPECT_EQ(h->faces, c.faces);
            EXPECT_EQ(h->mip_count, 6u);
            EXPECT_EQ(h->high_res_offset, 88u);
            const uint64_t face_bytes = format == VtfFormat::DXT5
                                            ? (64 + 16 + 4 + 1 + 1 + 1) * 16
                                            : (1024 + 256 + 64 + 16 + 4 + 1) * 8;
            EXPECT_EQ(bytes->size(), 88u + face_bytes * c.faces);
            auto im = content::decodeVtf(*bytes, base + suffix);
            ASSERT_TRUE(im) << im.error().message();
            EXPECT_EQ(im->width, 32);
            EXPECT_EQ(im->height, 32);
        }
    }
}

TEST(Vtf, DxtImagesCarryTheirFileBlocksForEveryMip) {
    // 8x4 DXT1 with the whole chain: 1x1, 2x1, 4x2 (one block each), then 8x4 (two blocks).
    // Every block is filled with its own byte so each level can be told apart.
    VtfSpec s;
    s.width = 8;
    s.height = 4;
    s.format = VtfFormat::DXT1;
    s.mips = 4;
    std::vector<uint8_t> payload;
    for (const uint8_t fill : {0x11, 0x22, 0x33})
        payload.insert(payload.end(), 8, fill); // mips 3, 2, 1
    payload.insert(payload.end(), 16, 0x44);    // mip 0
    auto im = content::decodeVtf(makeVtf(s, payload), "chain.vtf");
    ASSERT_TRUE(im) << im.error().message();
    ASSERT_NE(im->compressed, nullptr);
    const content::CompressedMips& c = *im->compressed;
    EXPECT_EQ(c.format, content::CompressedMips::Format::Dxt1);
    ASSERT_EQ(c.levels.size(), 4u);
    EXPECT_EQ(c.levels[0], std::vector<uint8_t>(16, 0x44));
    EXPECT_EQ(c.levels[1], std::vector<uint8_t>(8, 0x33));
    EXPECT_EQ(c.levels[2], std::vector<uint8_t>(8, 0x22));
    EXPECT_EQ(c.levels[3], std::vector<uint8_t>(8, 0x11));
    EXPECT_EQ(content::compressedLevelBytes(c.format, 8, 4), 16u);
    EXPECT_EQ(content::compressedLevelBytes(content::CompressedMips::Format::Dxt5, 5, 1), 32u);

    // The header's one-bit-alpha flag keeps the transparent fourth entry.
    s.flags = content::kVtfFlagOneBitAlpha;
    auto flagged = content::decodeVtf(makeVtf(s, payload), "chain.vtf");
    ASSERT_TRUE(flagged && flagged->compressed);
    EXPECT_EQ(flagged->compressed->format, content::CompressedMips::Format::Dxt1Alpha);

    // Without the whole chain the renderer builds mips from the RGBA: no blocks kept.
    s.flags = 0;
    s.mips = 1;
    auto single = content::decodeVtf(makeVtf(s, std::vector<uint8_t>(16, 0x44)), "one.vtf");
    ASSERT_TRUE(single);
    EXPECT_EQ(single->compressed, nullptr);

    // Uncompressed formats carry none.
    VtfSpec rgba;
    rgba.width = rgba.height = 1;
    rgba.format = VtfFormat::BGRA8888;
    auto plain = content::decodeVtf(makeVtf(rgba, {1, 2, 3, 4}), "plain.vtf");
    ASSERT_TRUE(plain);
    EXPECT_EQ(plain->compressed, nullptr);
}

TEST(Vmt, AlphaTestReferenceAndFogColour) {
    auto a = content::parseVmt(R"(LightmappedGeneric { $alphatest 1 $alphatestreference 0.25 })",
                               "a.vmt");
    ASSERT_TRUE(a.ok()) << a.error().message();
    EXPECT_TRUE(a->alphatest);
    EXPECT_EQ(a->alphatest_reference, 0.25f);
    EXPECT_FALSE(a->has_fog_colour);
    auto d = content::parseVmt("LightmappedGeneric { $alphatest 1 }", "d.vmt");
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(d->alphatest_reference, 0.5f); // VDC "$alphatest": the default
    // Braces: 0..255; brackets: 0..1; a colour that does not read is absent.
    auto w = content::parseVmt(R"(Water { $fogcolor "{51 102 255}" })", "w.vmt");
    ASSERT_TRUE(w.ok());
    EXPECT_TRUE(w->has_fog_colour);
    EXPECT_EQ(w->fog_colour, (std::array<float, 3>{51.0f / 255.0f, 102.0f / 255.0f, 1.0f}));
    auto v = content::parseVmt(R"(Water { $fogcolor "[0.5 0.25 2]" })", "v.vmt");
    ASSERT_TRUE(v.ok());
    EXPECT_EQ(v->fog_colour, (std::array<float, 3>{0.5f, 0.25f, 1.0f}));
    auto x = content::parseVmt(R"(Water { $fogcolor "{1 2}" })", "x.vmt");
    ASSERT_TRUE(x.ok());
    EXPECT_FALSE(x->has_fog_colour);
}

TEST(Vmt, WaterKeys) {
    auto w = content::parseVmt(R"(Water
{
    $fogcolor "{25 51 102}"
    $fogstart 16
    $fogend "400.5"
    $reflecttint "[0.5 0.75 1]"
    $refracttint "{255 128 0}"
    $reflectamount 0.3
    $refractamount .125
    $normalmap "nature/WaterFlow_Normal"
    $bumpframe 3
    $bottommaterial "nature/water_bottom"
    $cheapwaterstartdistance 700
    $cheapwaterenddistance 1200
    $envmap "maps/x/c0_0_0"
    $forcecheap 1
    $forceexpensive 1
    $reflecttexture _rt_WaterReflection
    $refracttexture _rt_WaterRefraction
    $scale "[2 0.5]"
    $abovewater 0
    $nofresnel 1
    $reflectblendfactor ".4"
})",
                               "w.vmt");
    ASSERT_TRUE(w.ok()) << w.error().message();
    const content::Vmt::Water& v = w->water;
    EXPECT_EQ(v.fog_colour,
              (std::array<float, 3>{25.0f / 255.0f, 51.0f / 255.0f, 102.0f / 255.0f}));
    EXPECT_EQ(v.fog_start, 16.0f);
    EXPECT_EQ(v.fog_end, 400.5f);
    EXPECT_EQ(v.reflect_tint, (std::array<float, 3>{0.5f, 0.75f, 1.0f}));
    EXPECT_EQ(v.refract_tint, (std::array<float, 3>{1.0f, 128.0f / 255.0f, 0.0f}));
    EXPECT_EQ(v.reflect_amount, 0.3f);
    EXPECT_EQ(v.refract_amount, 0.125f);
    EXPECT_EQ(v.normal_map, "nature/WaterFlow_Normal");
    EXPECT_TRUE(v.has_normal_map);
    EXPECT_EQ(v.bump_frame, 3);
    EXPECT_EQ(v.bottom_material, "nature/water_bottom");
    EXPECT_EQ(v.cheap_start, 700.0f);
    EXPECT_EQ(v.cheap_end, 1200.0f);
    EXPECT_EQ(v.envmap, "maps/x/c0_0_0");
    EXPECT_TRUE(v.has_envmap);
    EXPECT_TRUE(v.force_cheap);
    // water.cpp SHADER_INIT_PARAMS: both set -> $forceexpensive is cleared.
    EXPECT_FALSE(v.force_expensive);
    EXPECT_TRUE(v.no_fresnel);
    EXPECT_EQ(v.reflect_blend_factor, 0.4f);
    EXPECT_TRUE(v.has_reflect_texture);
    EXPECT_TRUE(v.has_refract_texture);
    EXPECT_EQ(v.scale, (std::array<float, 2>{2.0f, 0.5f}));
    EXPECT_FALSE(v.above_water);
    EXPECT_TRUE(v.has_above_water);

    // $forceexpensive 0 written is kept; a bare "$scale" pair reads; an unreadable number or a
    // short vector leaves the default.
    auto e = content::parseVmt(
        R"(Water { $forceexpensive 0 $scale "3 4" $fogstart "x" $reflecttint "[1 1]" })", "e.vmt");
    ASSERT_TRUE(e.ok()) << e.error().message();
    EXPECT_FALSE(e->water.force_expensive);
    EXPECT_FALSE(e->water.force_cheap);
    EXPECT_EQ(e->water.scale, (std::array<float, 2>{3.0f, 4.0f}));
    EXPECT_EQ(e->water.fog_start, 0.0f); // atof("x") is 0, as the engine's float read
    EXPECT_EQ(e->water.reflect_tint, (std::array<float, 3>{1.0f, 1.0f, 1.0f}));
    auto h = content::parseVmt(R"(Water { $fogend 1e39 $cheapwaterstartdistance nan })", "h.vmt");
    ASSERT_TRUE(h.ok());
    EXPECT_EQ(h->water.fog_end, 0.0f);       // out of range: the default
    EXPECT_EQ(h->water.cheap_start, 500.0f); // not finite: the default
}

TEST(Vmt, WaterKeysDefaultsAsWaterCpp) {
    // Source SDK 2013 stdshaders/water.cpp: BEGIN_SHADER_PARAMS defaults and the values
    // SHADER_INIT_PARAMS gives undefined parameters.
    auto w = content::parseVmt("Water { }", "w.vmt");
    ASSERT_TRUE(w.ok()) << w.error().message();
    const content::Vmt::Water& v = w->water;
    EXPECT_FALSE(w->has_fog_colour);
    EXPECT_EQ(v.fog_colour, (std::array<float, 3>{1.0f, 0.0f, 0.0f}));   // SetVecValue(1, 0, 0)
    EXPECT_EQ(v.fog_start, 0.0f);                                        // no default
    EXPECT_EQ(v.fog_end, 0.0f);                                          // no default
    EXPECT_EQ(v.reflect_tint, (std::array<float, 3>{1.0f, 1.0f, 1.0f})); // "[1 1 1]"
    EXPECT_EQ(v.refract_tint, (std::array<float, 3>{1.0f, 1.0f, 1.0f})); // "[1 1 1]"
    EXPECT_EQ(v.reflect_amount, 0.8f);                                   // "0.8"
    EXPECT_EQ(v.refract_amount, 0.0f);                                   // "0"
    EXPECT_EQ(v.normal_map, "dev/water_normal");                         // declared default
    EXPECT_FALSE(v.has_normal_map);
    EXPECT_EQ(v.bump_frame, 0);         // "0"
    EXPECT_EQ(v.bottom_material, "");   // not a water.cpp parameter
    EXPECT_EQ(v.cheap_start, 500.0f);   // SetFloatValue(500)
    EXPECT_EQ(v.cheap_end, 1000.0f);    // SetFloatValue(1000)
    EXPECT_EQ(v.envmap, "env_cubemap"); // declared default
    EXPECT_FALSE(v.has_envmap);
    EXPECT_FALSE(v.force_cheap);    // undefined bool: 0
    EXPECT_TRUE(v.force_expensive); // SetIntValue(1) on the PC
    EXPECT_FALSE(v.has_reflect_texture);
    EXPECT_FALSE(v.has_refract_texture);
    EXPECT_FALSE(v.no_fresnel);                             // "0"
    EXPECT_EQ(v.reflect_blend_factor, 1.0f);                // SetFloatValue(1.0)
    EXPECT_EQ(v.scale, (std::array<float, 2>{1.0f, 1.0f})); // SetVecValue(1, 1)
    EXPECT_TRUE(v.above_water);                             // SetIntValue(1) with a warning
    EXPECT_FALSE(v.has_above_water);
    // $forcecheap alone also clears the default $forceexpensive.
    auto c = content::parseVmt("Water { $forcecheap 1 }", "c.vmt");
    ASSERT_TRUE(c.ok());
    EXPECT_TRUE(c->water.force_cheap);
    EXPECT_FALSE(c->water.force_expensive);
}

TEST(ValveMaterials, VmtParametersSetHowTheSurfaceIsDrawn) {
    VtfSpec s; // one RGBA8888 texel
    const std::string tex = textOf(makeVtf(s, {10, 20, 30, 64}));
    const content::FileSystem fs = content_test::pakfileOf({
        {"materials/t/tex.vtf", tex},
        {"materials/t/glass.vmt", "LightmappedGeneric { $basetexture t/tex $translucent 1 }"},
        {"materials/t/fence.vmt",
         "LightmappedGeneric { $basetexture t/tex $alphatest 1 $alphatestreference .75 "
         "$nocull 1 }"},
        {"materials/t/beam.vmt", "UnlitGeneric { $basetexture t/tex $additive 1 }"},
        {"materials/t/sign.vmt", "LightmappedGeneric { $basetexture t/tex $selfillum 1 }"},
        {"materials/t/water.vmt", R"(Water { $fogcolor "{40 80 120}" $normalmap t/none
            $reflecttint "[.5 .25 1]" $cheapwaterstartdistance 100 $cheapwaterenddistance 300 })"},
        {"materials/t/plain.vmt", "LightmappedGeneric { $basetexture t/tex }"},
        {"materials/t/cheap.vmt",
         R"(Water { $fogcolor "[.5 .5 .5]" $forcecheap 1 $nofresnel 1 $reflectblendfactor .25 })"},
        {"materials/t/mirror.vmt",
         R"(Water { $fogcolor "[.5 .5 .5]" $reflecttexture _rt_WaterReflection
            $refracttexture _rt_WaterRefraction $reflectamount .05 $refractamount .02
            $refracttint "[.25 .5 .75]" $fogstart 10 $fogend 200 })"},
        {"materials/t/refractonly.vmt",
         R"(Water { $fogcolor "[.5 .5 .5]" $refracttexture _rt_WaterRefraction })"},
        {"materials/t/cheapmirror.vmt",
         R"(Water { $fogcolor "[.5 .5 .5]" $reflecttexture _rt_WaterReflection $forcecheap 1 })"},
    });
    bsp::Map map;
    map.format = bsp::Format::Source; // its game reads .vmt files (game/source.cpp)
    for (const char* n : {"t/glass", "t/fence", "t/beam", "t/sign", "t/water", "t/plain", "t/cheap",
                          "t/mirror", "t/refractonly", "t/cheapmirror"})
        map.materials.emplace_back().name = n;
    const auto t = content::loadMaterialTextures(map, fs, 1);
    ASSERT_EQ(t.size(), 10u);
    for (const content::TextureInfo& info : t)
        ASSERT_FALSE(info.missing) << info.error;

    EXPECT_EQ(t[0].surface_flags, uint32_t(bsp::kSurfTranslucent));
    EXPECT_EQ(pixel(t[0].image, 0, 0), (Px{10, 20, 30, 64})); // alpha kept for blending
    EXPECT_EQ(t[1].surface_flags, uint32_t(bsp::kSurfAlphaTest | bsp::kSurfNoCull));
    EXPECT_EQ(t[1].alpha_cutoff, 0.75f);
    EXPECT_EQ(t[2].surface_flags, uint32_t(bsp::kSurfAdditive | bsp::kSurfFullbright));
    EXPECT_EQ(t[2].fullbright_light, 1.0f);
    // $selfillum: opaque, the texel as glow with the base alpha as its weight.
    EXPECT_EQ(t[3].surface_flags, 0u);
    EXPECT_EQ(pixel(t[3].image, 0, 0), (Px{10, 20, 30, 255}));
    ASSERT_TRUE(t[3].glow.valid());
    EXPECT_EQ(pixel(t[3].glow, 0, 0), (Px{10, 20, 30, 64}));
    // Water: shaded as the cheap water (water.cpp DrawCheapWater), blended without $forcecheap;
    // unlit; the image a half-opaque tile of its fog colour for the views that do not shade it.
    EXPECT_EQ(t[4].surface_flags, uint32_t(bsp::kSurfTranslucent | bsp::kSurfFullbright));
    EXPECT_EQ(t[4].fullbright_light, 1.0f);
    EXPECT_EQ(t[4].image.width, 4);
    EXPECT_EQ(pixel(t[4].image, 3, 3), (Px{40, 80, 120, 128}));
    EXPECT_EQ(t[4].source, "materials/t/water.vmt $fogcolor");
    const content::WaterShading& w = t[4].water;
    EXPECT_TRUE(w.enabled);
    EXPECT_TRUE(w.blended);
    for (size_t c = 0; c < 3; ++c)
        EXPECT_FLOAT_EQ(w.base_colour[c], 40.0f * float(c + 1) / 255.0f); // {40 80 120}
    EXPECT_EQ(w.reflect_tint, (std::array<float, 3>{0.5f, 0.25f, 1.0f}));
    EXPECT_EQ(w.fade_start, 100.0f);
    EXPECT_EQ(w.fade_end, 300.0f);
    EXPECT_EQ(w.reflect_weight, -1.0f); // the fresnel factor
    EXPECT_EQ(t[5].surface_flags, 0u);
    EXPECT_EQ(t[5].alpha_cutoff, 0.5f);
    EXPECT_EQ(t[5].fullbright_light, 0.0f);
    EXPECT_FALSE(t[5].glow.valid());
    EXPECT_FALSE(t[5].water.enabled);
    // $forcecheap: opaque over its fog colour (bBlend false), so not translucent; the water.cpp
    // defaults fill the rest ($reflecttint [1 1 1], distances 500 and 1000); $nofresnel weights
    // the reflection by $reflectblendfactor.
    EXPECT_EQ(t[6].surface_flags, uint32_t(bsp::kSurfFullbright));
    EXPECT_EQ(pixel(t[6].image, 0, 0), (Px{128, 128, 128, 255}));
    EXPECT_TRUE(t[6].water.enabled);
    EXPECT_FALSE(t[6].water.blended);
    EXPECT_EQ(t[6].water.base_colour, (std::array<float, 3>{0.5f, 0.5f, 0.5f}));
    EXPECT_EQ(t[6].water.reflect_tint, (std::array<float, 3>{1.0f, 1.0f, 1.0f}));
    EXPECT_EQ(t[6].water.fade_start, 500.0f);
    EXPECT_EQ(t[6].water.fade_end, 1000.0f);
    EXPECT_EQ(t[6].water.reflect_weight, 0.25f); // $nofresnel: $reflectblendfactor
    EXPECT_FALSE(t[4].water.planar);             // no $reflecttexture
    EXPECT_FALSE(t[6].water.planar);
    // The expensive path: $reflecttexture with $forceexpensive (1 when undefined), not
    // $forcecheap (water.cpp SHADER_DRAW bReflection); the refraction with $refracttexture.
    const content::WaterShading& m = t[7].water;
    EXPECT_TRUE(m.planar);
    EXPECT_TRUE(m.refract);
    EXPECT_EQ(m.reflect_amount, 0.05f);
    EXPECT_EQ(m.refract_amount, 0.02f);
    EXPECT_EQ(m.refract_tint, (std::array<float, 3>{0.25f, 0.5f, 0.75f}));
    EXPECT_EQ(m.fog_start, 10.0f);
    EXPECT_EQ(m.fog_end, 200.0f);
    // Refraction alone waits on the water LOD distance: cheap here.
    EXPECT_FALSE(t[8].water.planar);
    EXPECT_FALSE(t[8].water.refract);
    EXPECT_FALSE(t[9].water.planar); // $forcecheap
}

// Source sky boxes: materials/skybox/NAME{rt,bk,lf,ft,up,dn}.vmt, each face the texture the
// Sky shader draws without HDR ($basetexture), else $hdrbasetexture, else the RGBS
// $hdrcompressedtexture.
TEST(SourceSkyBox, SixVmtFacesThroughTheirVtfs) {
    VtfSpec rgba;
    VtfSpec half;
    half.format = VtfFormat::RGBA16161616F;
    content_test::Files files;
    const std::array<std::string, 6> suffix = {"rt", "bk", "lf", "ft", "up", "dn"};
    // rt, bk, lf, ft: $basetexture, each one texel (10 i + 1, 20 i + 2, 30 i + 3, 255); rt names
    // an HDR texture that does not exist (the LDR path never reads it), lf is a patch.
    for (size_t i = 0; i < 4; ++i) {
        const auto c = uint8_t(i);
        const std::string face = "skybox/test" + suffix[i];
        files.emplace_back("materials/" + face + ".vtf",
                           textOf(makeVtf(rgba, {uint8_t(10 * c + 1), uint8_t(20 * c + 2),
                                                 uint8_t(30 * c + 3), 255})));
    }
    files.emplace_back("materials/skybox/testrt.vmt",
                       "\"Sky\" { \"$basetexture\" \"skybox/testrt\" "
                       "\"$hdrcompressedtexture\" \"skybox/test_hdr_rt\" \"$nofog\" 1 }");
    files.emplace_back("materials/skybox/testbk.vmt", "Sky { $basetexture skybox\\TestBK }");
    files.emplace_back("materials/skybox/testlf.vmt", "patch { include materials/skybox/testrt.vmt "
                                                      "replace { $basetexture skybox/testlf } }");
    files.emplace_back("materials/skybox/testft.vmt", "Sky { $basetexture skybox/testft }");
    // up: RGBS only. (255, 128, 64, 32): linear r = 32/255 * 8 = 1.0039 (clamped to 1),
    // g = 128/255 * 32/255 * 8 = 0.50393 -> sRGB 1.055 * 0.50393^(1/2.4) - 0.055 = 0.73794 -> 188,
    // b = 0.25196 -> 0.53903 -> 137.
    files.emplace_back("materials/skybox/testup.vmt",
                       "Sky { $hdrcompressedtexture skybox/test_hdr_up }");
    files.emplace_back("materials/skybox/test_hdr_up.vtf",
                       textOf(makeVtf(rgba, {255, 128, 64, 32})));
    // dn: $hdrbasetexture only, halves 1.0, 0.5, 0.0, 1.0.
    files.emplace_back("materials/skybox/testdn.vmt", "Sky { $hdrbasetexture skybox/test_hdr_dn }");
    files.emplace_back("materials/skybox/test_hdr_dn.vtf",
                       textOf(makeVtf(half, {0x00, 0x3c, 0x00, 0x38, 0x00, 0x00, 0x00, 0x3c})));
    const content::FileSystem fs = content_test::pakfileOf(files);

    std::string why;
    const auto sky =
        content::loadSkyBox(fs, "skybox/test", game::MaterialFiles::ValveMaterials, &why);
    ASSERT_TRUE(sky) << why;
    EXPECT_EQ(sky->base, "skybox/test");
    for (size_t i = 0; i < 4; ++i) {
        const auto c = uint8_t(i);
        EXPECT_EQ(pixel(sky->faces[i], 0, 0),
                  (Px{uint8_t(10 * c + 1), uint8_t(20 * c + 2), uint8_t(30 * c + 3), 255}))
            << suffix[i];
        EXPECT_EQ(sky->sources[i], "materials/skybox/test" + suffix[i] + ".vtf");
    }
    EXPECT_EQ(pixel(sky->faces[4], 0, 0), (Px{255, 188, 137, 255}));
    EXPECT_EQ(sky->sources[4], "materials/skybox/test_hdr_up.vtf");
    EXPECT_EQ(pixel(sky->faces[5], 0, 0), (Px{255, 128, 0, 255}));
    EXPECT_EQ(sky->sources[5], "materials/skybox/test_hdr_dn.vtf");

    // The Quake family's image files are not Source's: no sky, and why.
    EXPECT_FALSE(content::loadSkyBox(fs, "skybox/test", game::MaterialFiles::Images, &why));
    EXPECT_EQ(why, "skybox/testrt: no .tga, .pcx, .jpg or .png decodes");
}

TEST(SourceSkyBox, AMissingFaceMeansNoSkyAndSaysWhich) {
    VtfSpec s;
    content_test::Files files;
    for (std::string_view suffix : {"rt", "bk", "lf", "ft", "up"}) {
        const std::string face = "skybox/half" + std::string(suffix);
        files.emplace_back("materials/" + face + ".vmt", "Sky { $basetexture " + face + " }");
        files.emplace_back("materials/" + face + ".vtf", textOf(makeVtf(s, {1, 2, 3, 4})));
    }
    const content::FileSystem fs = content_test::pakfileOf(files);

    std::string why;
    EXPECT_FALSE(content::loadSkyBox(fs, "skybox/half", game::MaterialFiles::ValveMaterials, &why));
    EXPECT_EQ(why, "materials/skybox/halfdn.vmt: not found");
    EXPECT_FALSE(content::loadSkyBox(fs, "skybox/half", game::MaterialFiles::ValveMaterials));

    // Faces whose material names no texture, or a texture that is not there.
    content_test::Files broken = files;
    for (std::string_view suffix : {"rt", "bk", "lf", "ft", "up"})
        broken.emplace_back("materials/skybox/b" + std::string(suffix) + ".vmt",
                            "Sky { $basetexture skybox/half" + std::string(suffix) + " }");
    broken.emplace_back("materials/skybox/bdn.vmt", "Sky { $basetexture skybox/gone }");
    broken.emplace_back("materials/skybox/crt.vmt", "Sky { $nofog 1 }");
    const content::FileSystem fs2 = content_test::pakfileOf(broken);
    EXPECT_FALSE(content::loadSkyBox(fs2, "skybox/b", game::MaterialFiles::ValveMaterials, &why));
    EXPECT_EQ(why, "materials/skybox/gone.vtf: not found (materials/skybox/bdn.vmt)");
    EXPECT_FALSE(content::loadSkyBox(fs2, "skybox/c", game::MaterialFiles::ValveMaterials, &why));
    EXPECT_EQ(
        why, "materials/skybox/crt.vmt: no $basetexture, $hdrbasetexture or $hdrcompressedtexture");
}

TEST(SourceSkyBox, RgbsTexelsHandComputed) {
    EXPECT_EQ(content::decodeRgbsTexel({0, 0, 0, 0}), (std::array<uint8_t, 4>{0, 0, 0, 255}));
    // 255 * 255/255 * 8: far above 1, clamped to white.
    EXPECT_EQ(content::decodeRgbsTexel({255, 255, 255, 255}),
              (std::array<uint8_t, 4>{255, 255, 255, 255}));
    // (20/255)(1/255) 8 = 0.0024606: below 0.0031308, the linear segment 12.92 x = 0.031791 -> 8.
    EXPECT_EQ(content::decodeRgbsTexel({20, 20, 20, 1}), (std::array<uint8_t, 4>{8, 8, 8, 255}));
    // (1/255)(32/255) 8 = 0.0039370 -> 1.055 x^(1/2.4) - 0.055 = 0.05001 -> 13;
    // (64/255)(32/255) 8 = 0.25196 -> 0.53903 -> 137 (as in the test above).
    EXPECT_EQ(content::decodeRgbsTexel({1, 64, 0, 32}), (std::array<uint8_t, 4>{13, 137, 0, 255}));
}

TEST(ValveMaterials, BaseTexture2IsTheSecondLayer) {
    VtfSpec s; // one RGBA8888 texel each
    const content::FileSystem fs = content_test::pakfileOf({
        {"materials/t/grass.vtf", textOf(makeVtf(s, {10, 200, 30, 255}))},
        {"materials/t/rock.vtf", textOf(makeVtf(s, {120, 110, 100, 40}))},
        {"materials/t/blend.vmt",
         "WorldVertexTransition { $basetexture t/grass $basetexture2 t/rock }"},
        {"materials/t/lost.vmt",
         "WorldVertexTransition { $basetexture t/grass $basetexture2 t/gone }"},
        {"materials/t/plain.vmt", "LightmappedGeneric { $basetexture t/grass }"},
    });
    bsp::Map map;
    map.format = bsp::Format::Source; // its game reads .vmt files (game/source.cpp)
    for (const char* n : {"t/blend", "t/lost", "t/plain"})
        map.materials.emplace_back().name = n;
    const auto t = content::loadMaterialTextures(map, fs, 1);
    ASSERT_EQ(t.size(), 3u);
    for (const content::TextureInfo& info : t)
        ASSERT_FALSE(info.missing) << info.error;
    EXPECT_EQ(pixel(t[0].image, 0, 0), (Px{10, 200, 30, 255}));
    ASSERT_TRUE(t[0].layer2.valid());
    EXPECT_EQ(pixel(t[0].layer2, 0, 0), (Px{120, 110, 100, 40}));
    // A second layer that is not found is the missing-texture tile, as a missing first one is,
    // and the error says which file.
    ASSERT_TRUE(t[1].layer2.valid());
    EXPECT_EQ(pixel(t[1].layer2, 1, 1),
              (Px{content::kMissingFill, content::kMissingFill, content::kMissingFill, 255}));
    EXPECT_EQ(t[1].error, "materials/t/gone.vtf: not found ($basetexture2)");
    EXPECT_FALSE(t[2].layer2.valid());
}

TEST(Vtf, FileMipsDecodedFromTheirOwnBlocks) {
    // 8x4 DXT1 with 4 mips: 1x1, 2x1, 4x2 (a block each), then 8x4 (two blocks). Each level's
    // block has its own colour: the decoded mips must be the file's, not averages of level 0.
    VtfSpec s;
    s.width = 8;
    s.height = 4;
    s.format = VtfFormat::DXT1;
    s.mips = 4;
    auto block = [](uint16_t c0) {
        // c0 > c1 = 0: four-colour mode; every index 0, so every texel is c0.
        return std::vector<uint8_t>{uint8_t(c0 & 0xff), uint8_t(c0 >> 8), 0, 0, 0, 0, 0, 0};
    };
    std::vector<uint8_t> payload;
    for (uint16_t c : {uint16_t(0x001f), uint16_t(0x07e0), uint16_t(0xf800), uint16_t(0xffff),
                       uint16_t(0xffff)}) // 1x1 blue, 2x1 green, 4x2 red, 8x4 white x2
        for (uint8_t b : block(c))
            payload.push_back(b);
    auto im = content::decodeVtf(makeVtf(s, payload), "mips.vtf");
    ASSERT_TRUE(im && im->compressed) << (im ? "" : im.error().message());
    const std::vector<content::Image> mips =
        content::decodeCompressedMips(*im->compressed, im->width, im->height);
    ASSERT_EQ(mips.size(), 3u);
    EXPECT_EQ(mips[0].width, 4);
    EXPECT_EQ(mips[0].height, 2);
    EXPECT_EQ(pixel(mips[0], 3, 1), (Px{255, 0, 0, 255}));
    EXPECT_EQ(mips[1].width, 2);
    EXPECT_EQ(mips[1].height, 1);
    EXPECT_EQ(pixel(mips[1], 1, 0), (Px{0, 255, 0, 255}));
    EXPECT_EQ(mips[2].width, 1);
    EXPECT_EQ(pixel(mips[2], 0, 0), (Px{0, 0, 255, 255}));
    EXPECT_EQ(pixel(*im, 7, 3), (Px{255, 255, 255, 255}));
    // A level whose blocks are short gives no mips at all (the renderer then makes its own).
    content::CompressedMips cut = *im->compressed;
    cut.levels[2].pop_back();
    EXPECT_TRUE(content::decodeCompressedMips(cut, 8, 4).empty());
}

TEST(Vmt, BumpMapAndSelfShadowedBumpMap) {
    auto b = content::parseVmt(R"(LightmappedGeneric { $basetexture t/a $bumpmap "t/a_normal" })",
                               "b.vmt");
    ASSERT_TRUE(b.ok()) << b.error().message();
    EXPECT_EQ(b->bump_map, "t/a_normal");
    EXPECT_FALSE(b->ssbump);
    auto s = content::parseVmt(
        R"(WorldVertexTransition { $bumpmap t/rock_ssbump $ssbump 1 $basetexture2 t/b })", "s.vmt");
    ASSERT_TRUE(s.ok());
    EXPECT_EQ(s->bump_map, "t/rock_ssbump");
    EXPECT_TRUE(s->ssbump);
    auto n = content::parseVmt("LightmappedGeneric { $basetexture t/a $ssbump 0 }", "n.vmt");
    ASSERT_TRUE(n.ok());
    EXPECT_TRUE(n->bump_map.empty());
    EXPECT_FALSE(n->ssbump);
}

TEST(Vtf, EveryFrameOfAnAnimatedTexture) {
    // 2 x 2 RGBA8888, two mips, three frames: the file holds the 1 x 1 mip's three frames first
    // (4 bytes each), then the largest mip's three frames (16 bytes each), frame k every texel
    // (10 k + 1, 10 k + 2, 10 k + 3, 255).
    VtfSpec s;
    s.width = s.height = 2;
    s.frames = 3;
    s.mips = 2;
    std::vector<uint8_t> payload;
    for (int k = 0; k < 3; ++k)
        payload.insert(payload.end(), {200, 200, 200, 255}); // the small mip: never read
    for (int k = 0; k < 3; ++k)
        for (int t = 0; t < 4; ++t)
            payload.insert(payload.end(),
                           {uint8_t(10 * k + 1), uint8_t(10 * k + 2), uint8_t(10 * k + 3), 255});
    const std::vector<uint8_t> file = makeVtf(s, payload);
    auto frames = content::decodeVtfFrames(file, "anim.vtf");
    ASSERT_TRUE(frames.ok()) << frames.error().message();
    ASSERT_EQ(frames->size(), 3u);
    for (uint8_t k = 0; k < 3; ++k) {
        ASSERT_EQ((*frames)[k].width, 2);
        EXPECT_EQ(pixel((*frames)[k], 1, 1),
                  (Px{uint8_t(10 * k + 1), uint8_t(10 * k + 2), uint8_t(10 * k + 3), 255}))
            << "frame " << int(k);
    }
    // Frame 0 is what decodeVtf gives.
    auto image = content::decodeVtf(file, "anim.vtf");
    ASSERT_TRUE(image.ok());
    EXPECT_TRUE(image->rgba == (*frames)[0].rgba);
    // Bounded by a frame count and by bytes: 2 x 2 RGBA is 16 bytes a frame.
    EXPECT_EQ(content::decodeVtfFrames(file, "anim.vtf", 1)->size(), 1u);
    EXPECT_EQ(content::decodeVtfFrames(file, "anim.vtf", 1024, 32)->size(), 2u);
    EXPECT_EQ(content::decodeVtfFrames(file, "anim.vtf", 1024, 31)->size(), 1u);
    // A file one byte short of its last frame is refused by the header check.
    const std::vector<uint8_t> cut(file.begin(), file.end() - 1);
    auto short_file = content::decodeVtfFrames(cut, "anim.vtf");
    ASSERT_FALSE(short_file.ok());
    EXPECT_EQ(short_file.error().code, core::ErrorCode::Truncated);
}
