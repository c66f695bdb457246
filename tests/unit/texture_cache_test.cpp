// The decoded-texture cache: the file layout round-trips, damaged files are misses (never a
// crash), the key follows the sources, the folder stays under its cap, and a map loaded twice
// through loadMapBundle gets identical textures from the cache the second time.
#include "content/image/mipmap.h"
#include "content/material/texture_cache.h"
#include "content/material/vmt.h"
#include "core/file.h"
#include "scene/load/map_bundle.h"

#include <gtest/gtest.h>

#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <span>
#include <thread>

namespace {

namespace fs = std::filesystem;

content::Image solid(int w, int h, uint8_t v) {
    content::Image img;
    img.width = w;
    img.height = h;
    img.rgba.assign(static_cast<size_t>(w) * static_cast<size_t>(h) * 4, v);
    for (size_t i = 0; i < img.rgba.size(); ++i)
        img.rgba[i] = static_cast<uint8_t>(v + i * 7);
    return img;
}

std::vector<content::TextureInfo> sample() {
    std::vector<content::TextureInfo> t(3);
    t[0].image = solid(4, 2, 10);
    t[0].source = "textures/a.tga";
    t[0].origin = "pak0.pk3";
    t[0].missing = false;
    t[0].shader_file = "scripts/a.shader";
    t[0].shader_image = "textures/a_img.tga";
    t[0].layer2 = solid(2, 4, 50);
    for (size_t f = 0; f < t[0].envmap.size(); ++f)
        t[0].envmap[f] = solid(2, 2, static_cast<uint8_t>(20 + f));
    t[0].envmap_mask = solid(4, 2, 77);
    t[0].envmap_source = "materials/maps/m/c0_0_64.vtf";
    t[0].envmap_shading = {true,   {0.5f, 2.0f, 0.25f},         0.5f, 0.75f,
                           0.125f, content::EnvMapMask::Texture};
    t[0].motion.base =
        content::centredTextureTransform({0.5f, 0.5f}, {2.0f, 1.0f}, 30.0f, {0.25f, 0.0f});
    t[0].motion.bump_scroll = {true, 0.25f, 90.0f, 2.0f};
    // Three played base frames (frame 0 the image), at 2.5 frames a second without wrapping.
    t[0].base_animation = {true, 2.5f, false};
    t[0].base_frames = {t[0].image, solid(4, 2, 11), solid(4, 2, 12)};
    // Number proxies: a Sine on $color[1] with its period read from a var, and a
    // TextureTransform on the normal map's matrix.
    const auto proxies = content::parseVmt(R"(LightmappedGeneric { $basetexture a $p "[1 2]"
        Proxies { Sine { resultVar "$color[1]" sinePeriod "$p[1]" sineMin -1 }
                  TextureTransform { rotateVar $p resultVar $bumptransform } } })",
                                           "materials/a.vmt");
    EXPECT_TRUE(proxies.ok() && proxies->warnings.empty());
    if (proxies.ok())
        t[0].proxies = proxies->proxies;
    t[1].envmap_error = "b: $envmap env_cubemap in a material vbsp did not patch";
    t[1].image = solid(8, 8, 99);
    t[1].glow = solid(8, 8, 3);
    t[1].source = "textures/b.JPG";
    t[1].origin = "/games/q3/textures";
    t[1].missing = false;
    t[1].water.enabled = true;
    t[1].water.blended = false;
    t[1].water.base_colour = {0.1f, 0.2f, 0.3f};
    t[1].water.reflect_tint = {0.4f, 0.5f, 0.6f};
    t[1].water.fade_start = 70.0f;
    t[1].water.fade_end = 90.0f;
    t[1].water.reflect_weight = 0.5f;
    t[1].water.planar = true;
    t[1].water.refract = true;
    t[1].water.refract_tint = {0.7f, 0.8f, 0.9f};
    t[1].water.reflect_amount = 0.05f;
    t[1].water.refract_amount = 0.02f;
    t[1].water.fog_start = 10.0f;
    t[1].water.fog_end = 200.0f;
    // Water's normal map playing two frames at the default rate.
    t[1].bump = solid(2, 2, 40);
    t[1].bump_animation = {true, 15.0f, true};
    t[1].bump_frames = {t[1].bump, solid(2, 2, 41)};
    t[2].image = solid(1, 1, 0);
    t[2].missing = true;
    t[2].error = "not found";
    t[2].water.enabled = true; // blended, the defaults
    return t;
}

// b read back from a: equal, except that straight from the cache (from_cache) the textures
// whose pixels are not kept have none.
void expectSame(const std::vector<content::TextureInfo>& a,
                const std::vector<content::TextureInfo>& b, bool from_cache = false) {
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
        SCOPED_TRACE(i);
        EXPECT_EQ(a[i].water.enabled, b[i].water.enabled);
        EXPECT_EQ(a[i].water.blended, b[i].water.blended);
        EXPECT_EQ(a[i].water.base_colour, b[i].water.base_colour);
        EXPECT_EQ(a[i].water.reflect_tint, b[i].water.reflect_tint);
        EXPECT_EQ(a[i].water.fade_start, b[i].water.fade_start);
        EXPECT_EQ(a[i].water.fade_end, b[i].water.fade_end);
        EXPECT_EQ(a[i].water.reflect_weight, b[i].water.reflect_weight);
        EXPECT_EQ(a[i].water.planar, b[i].water.planar);
        EXPECT_EQ(a[i].water.refract, b[i].water.refract);
        EXPECT_EQ(a[i].water.refract_tint, b[i].water.refract_tint);
        EXPECT_EQ(a[i].water.reflect_amount, b[i].water.reflect_amount);
        EXPECT_EQ(a[i].water.refract_amount, b[i].water.refract_amount);
        EXPECT_EQ(a[i].water.fog_start, b[i].water.fog_start);
        EXPECT_EQ(a[i].water.fog_end, b[i].water.fog_end);
        EXPECT_EQ(a[i].envmap_error, b[i].envmap_error);
        EXPECT_TRUE(a[i].motion == b[i].motion);
        EXPECT_TRUE(a[i].proxies == b[i].proxies);
        EXPECT_EQ(a[i].envmap_source, b[i].envmap_source);
        if (from_cache && !content::texturePixelsWorthCaching(a[i])) {
            EXPECT_FALSE(b[i].image.valid());
            EXPECT_EQ(a[i].source, b[i].source);
            EXPECT_EQ(a[i].missing, b[i].missing);
            continue;
        }
        EXPECT_EQ(a[i].image.width, b[i].image.width);
        EXPECT_EQ(a[i].image.height, b[i].image.height);
        EXPECT_TRUE(a[i].image.rgba == b[i].image.rgba);
        EXPECT_EQ(a[i].glow.width, b[i].glow.width);
        EXPECT_TRUE(a[i].glow.rgba == b[i].glow.rgba);
        EXPECT_EQ(a[i].layer2.width, b[i].layer2.width);
        EXPECT_TRUE(a[i].layer2.rgba == b[i].layer2.rgba);
        const content::EnvMapShading &ea = a[i].envmap_shading, &eb = b[i].envmap_shading;
        EXPECT_EQ(ea.enabled, eb.enabled);
        EXPECT_EQ(ea.tint, eb.tint);
        EXPECT_EQ(ea.contrast, eb.contrast);
        EXPECT_EQ(ea.saturation, eb.saturation);
        EXPECT_EQ(ea.fresnel, eb.fresnel);
        EXPECT_EQ(ea.mask, eb.mask);
        for (size_t f = 0; f < a[i].envmap.size(); ++f)
            EXPECT_TRUE(a[i].envmap[f].rgba == b[i].envmap[f].rgba) << "face " << f;
        EXPECT_TRUE(a[i].envmap_mask.rgba == b[i].envmap_mask.rgba);
        EXPECT_EQ(a[i].base_animation, b[i].base_animation);
        EXPECT_EQ(a[i].bump_animation, b[i].bump_animation);
        ASSERT_EQ(a[i].base_frames.size(), b[i].base_frames.size());
        for (size_t k = 0; k < a[i].base_frames.size(); ++k)
            EXPECT_TRUE(a[i].base_frames[k].rgba == b[i].base_frames[k].rgba) << "frame " << k;
        ASSERT_EQ(a[i].bump_frames.size(), b[i].bump_frames.size());
        for (size_t k = 0; k < a[i].bump_frames.size(); ++k)
            EXPECT_TRUE(a[i].bump_frames[k].rgba == b[i].bump_frames[k].rgba) << "frame " << k;
        EXPECT_EQ(a[i].source, b[i].source);
        EXPECT_EQ(a[i].origin, b[i].origin);
        EXPECT_EQ(a[i].missing, b[i].missing);
        EXPECT_EQ(a[i].error, b[i].error);
        EXPECT_EQ(a[i].shader_file, b[i].shader_file);
        EXPECT_EQ(a[i].shader_image, b[i].shader_image);
    }
}

fs::path freshDir(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() /
                         ("bspv_texcache_" + name + "_" + std::to_string(std::random_device()()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

TEST(TextureCacheFormat, RoundTrips) {
    const auto t = sample();
    const auto bytes = content::encodeTextureCache("key", t);
    auto back = content::decodeTextureCache(bytes, "key", t.size());
    ASSERT_TRUE(back.has_value());
    expectSame(t, *back, true);
    EXPECT_TRUE((*back)[0].image.valid()); // kept: a .tga from a .pk3
    EXPECT_TRUE((*back)[1].image.valid()); // kept: a .jpg
    EXPECT_TRUE((*back)[0].envmap_shading.enabled);
    EXPECT_EQ((*back)[0].envmap[5].width, 2);
    EXPECT_EQ((*back)[0].base_frames.size(), 3u);
    EXPECT_EQ((*back)[0].base_frames[2].rgba[0], 12);
    EXPECT_FALSE((*back)[0].base_animation.wrap);
    EXPECT_EQ((*back)[1].bump_frames.size(), 2u);
}

// Played frames are kept only whole: a frame count of 1 or past kMaxVtfFrames, a wrap other than
// 0 or 1, frames of two sizes, or the animation flag with no frames is not a file this code
// wrote; a texture whose pixels are not kept stores no frames (decoded again with them).
TEST(TextureCacheFormat, FramesKeptOnlyWhole) {
    auto t = sample();
    t.resize(1);
    t[0].envmap_shading.enabled = false;
    t[0].motion = {};
    t[0].base_animation = {true, 2.0f, true};
    t[0].base_frames = {solid(1, 1, 5), solid(1, 1, 6)};
    const auto good = content::encodeTextureCache("key", t);
    ASSERT_TRUE(content::decodeTextureCache(good, "key", 1).has_value());
    // The body (after magic, version, key length and "key"; before the checksum) ends with the
    // base count 2, rate, wrap, two 1x1 frames (width, height, 4 bytes: 12 each), bump count 0.
    const std::span<const uint8_t> body_of_good =
        std::span<const uint8_t>(good).subspan(8 + 4 + 4 + 3, good.size() - 8 - 4 - 4 - 3 - 8);
    const auto rewrap = [&](std::vector<uint8_t> body) {
        return content::wrapTextureCacheBody("key", body);
    };
    std::vector<uint8_t> body(body_of_good.begin(), body_of_good.end());
    ASSERT_TRUE(content::decodeTextureCache(rewrap(body), "key", 1).has_value());
    const size_t count_at = body.size() - (4 + 4 + 4 + 2 * 12 + 4);
    ASSERT_EQ(body[count_at], 2u);
    auto one = body;
    one[count_at] = 1;
    EXPECT_FALSE(content::decodeTextureCache(rewrap(one), "key", 1).has_value());
    auto many = body;
    many[count_at] = 0x01;
    many[count_at + 1] = 0x04; // 1025
    EXPECT_FALSE(content::decodeTextureCache(rewrap(many), "key", 1).has_value());
    auto wrap = body;
    wrap[count_at + 8] = 2;
    EXPECT_FALSE(content::decodeTextureCache(rewrap(wrap), "key", 1).has_value());
    auto sizes = body;
    sizes[count_at + 12 + 12] = 2; // the second frame 2 x 1: not the first one's size
    EXPECT_FALSE(content::decodeTextureCache(rewrap(sizes), "key", 1).has_value());
    auto none = body;
    none[count_at] = 0; // the flag without frames (the frame bytes then trail)
    EXPECT_FALSE(content::decodeTextureCache(rewrap(none), "key", 1).has_value());
    // Pixels not kept (a .vtf): no frames stored.
    t[0].source = "materials/a.vtf";
    t[0].origin = "/games/hl2";
    auto back = content::decodeTextureCache(content::encodeTextureCache("key", t), "key", 1);
    ASSERT_TRUE(back.has_value());
    EXPECT_TRUE((*back)[0].base_frames.empty());
    EXPECT_FALSE((*back)[0].base_animation.enabled);
}

// An envmap whose face sizes differ, or whose mask image disagrees with its mask kind, is not a
// file this code wrote; one on a texture whose pixels are not kept is not stored at all (it is
// decoded again with them).
TEST(TextureCacheFormat, EnvMapKeptOnlyWhole) {
    auto t = sample();
    t[0].envmap[3] = solid(4, 4, 1);
    EXPECT_FALSE(content::decodeTextureCache(content::encodeTextureCache("k", t), "k", t.size()));
    t = sample();
    t[0].envmap_shading.mask = content::EnvMapMask::BaseAlpha; // but a mask image is there
    EXPECT_FALSE(content::decodeTextureCache(content::encodeTextureCache("k", t), "k", t.size()));
    t = sample();
    t[2].envmap = t[0].envmap; // t[2] is missing: its pixels are not kept
    t[2].envmap_shading = t[0].envmap_shading;
    auto back = content::decodeTextureCache(content::encodeTextureCache("k", t), "k", t.size());
    ASSERT_TRUE(back);
    EXPECT_FALSE((*back)[2].envmap_shading.enabled);
    EXPECT_FALSE((*back)[2].envmap[0].valid());
}

TEST(TextureCacheFormat, CheapFormatsKeepOnlyTheirMetadata) {
    content::TextureInfo t;
    t.image = solid(2, 2, 1);
    t.missing = false;
    const auto keeps = [&](const char* source, const char* origin) {
        t.source = source;
        t.origin = origin;
        return content::texturePixelsWorthCaching(t);
    };
    EXPECT_TRUE(keeps("textures/x.jpg", "/dir"));
    EXPECT_TRUE(keeps("textures/x.jpeg", "pak0.pk3"));
    EXPECT_TRUE(keeps("textures/x.png", "aq.pak"));
    EXPECT_TRUE(keeps("textures/x.tga", "pak0.PK3"));
    EXPECT_FALSE(keeps("textures/x.tga", "aq_textures.pak"));
    EXPECT_FALSE(keeps("textures/x.tga", "/loose/dir"));
    EXPECT_FALSE(keeps("textures/x.wal", "pak0.pak"));
    EXPECT_FALSE(keeps("<embedded>", "map.bsp"));
    t.missing = true;
    EXPECT_FALSE(keeps("textures/x.jpg", "/dir"));

    // Round trip: the omitted one comes back with its metadata and no pixels.
    std::vector<content::TextureInfo> v(2);
    v[0].image = solid(2, 2, 1);
    v[0].source = "textures/a.jpg";
    v[0].missing = false;
    v[1].image = solid(4, 4, 2);
    v[1].glow = solid(4, 4, 9);
    v[1].layer2 = solid(4, 4, 5);
    v[1].source = "textures/e1u1/floor.wal";
    v[1].origin = "pak0.pak";
    v[1].missing = false;
    const auto bytes = content::encodeTextureCache("k", v);
    auto back = content::decodeTextureCache(bytes, "k", 2);
    ASSERT_TRUE(back.has_value());
    EXPECT_TRUE((*back)[0].image.rgba == v[0].image.rgba);
    EXPECT_FALSE((*back)[1].image.valid());
    EXPECT_EQ((*back)[1].glow.width, 0);
    EXPECT_EQ((*back)[1].layer2.width, 0);
    EXPECT_EQ((*back)[1].source, v[1].source);
    EXPECT_EQ((*back)[1].origin, v[1].origin);
    EXPECT_FALSE((*back)[1].missing);
}

TEST(TextureCacheFormat, OtherKeyOrCountIsAMiss) {
    const auto t = sample();
    const auto bytes = content::encodeTextureCache("key", t);
    EXPECT_FALSE(content::decodeTextureCache(bytes, "kez", t.size()));
    EXPECT_FALSE(content::decodeTextureCache(bytes, "key2", t.size()));
    EXPECT_FALSE(content::decodeTextureCache(bytes, "key", t.size() + 1));
    EXPECT_FALSE(content::decodeTextureCache(bytes, "key", 0));
}

TEST(TextureCacheFormat, EveryTruncationIsAMiss) {
    const auto bytes = content::encodeTextureCache("key", sample());
    for (size_t n = 0; n < bytes.size(); ++n)
        EXPECT_FALSE(content::decodeTextureCache(std::span(bytes).first(n), "key", 3)) << n;
    auto longer = bytes;
    longer.push_back(0);
    EXPECT_FALSE(content::decodeTextureCache(longer, "key", 3));
}

TEST(TextureCacheFormat, EveryFlippedByteIsAMiss) {
    const auto bytes = content::encodeTextureCache("key", sample());
    for (size_t i = 0; i < bytes.size(); ++i) {
        auto damaged = bytes;
        damaged[i] ^= 0x5A;
        EXPECT_FALSE(content::decodeTextureCache(damaged, "key", 3)) << i;
    }
}

TEST(TextureCacheFormat, RandomBytesAreAMiss) {
    std::mt19937 rng(1234);
    for (int i = 0; i < 200; ++i) {
        std::vector<uint8_t> junk(static_cast<size_t>(rng() % 512));
        for (auto& b : junk)
            b = static_cast<uint8_t>(rng());
        if (junk.size() >= 8)
            std::memcpy(junk.data(), "BSPVTEX", 8); // past the magic, into the parser
        EXPECT_FALSE(content::decodeTextureCache(junk, "key", 3));
    }
}

// A body wrapped with a valid header and checksum (what the fuzzer feeds): the parser behind
// the checksum takes a well-formed one and refuses images past the decoders' size limit, which
// a file written by someone else could otherwise carry into the renderer.
TEST(TextureCacheFormat, WrappedBodiesReachTheParserAndItsLimits) {
    const auto body = [](uint32_t w, uint32_t h) {
        std::vector<uint8_t> b;
        const auto u32 = [&b](uint32_t v) {
            for (int k = 0; k < 4; ++k)
                b.push_back(static_cast<uint8_t>(v >> (8 * k)));
        };
        u32(1); // one texture
        u32(0); // flags: pixels kept, not missing
        for (int k = 0; k < 7; ++k)
            u32(0); // source, origin, error, shader file and image, envmap source and error
        u32(bsp::kSurfTranslucent);          // surface flags
        u32(std::bit_cast<uint32_t>(0.25f)); // alpha cutoff
        u32(std::bit_cast<uint32_t>(1.0f));  // full light
        u32(w);
        u32(h);
        b.resize(b.size() + static_cast<size_t>(w) * h * 4, 7);
        u32(0); // no glow
        u32(0);
        u32(0); // no second layer
        u32(0);
        u32(0); // no bump map
        u32(0);
        return b;
    };
    const auto ok =
        content::decodeTextureCache(content::wrapTextureCacheBody("k", body(3, 2)), "k", 1);
    ASSERT_TRUE(ok);
    ASSERT_EQ(ok->size(), 1u);
    EXPECT_EQ((*ok)[0].image.width, 3);
    EXPECT_EQ((*ok)[0].image.rgba.size(), 24u);
    EXPECT_EQ((*ok)[0].surface_flags, static_cast<uint32_t>(bsp::kSurfTranslucent));
    EXPECT_EQ((*ok)[0].alpha_cutoff, 0.25f);
    EXPECT_EQ((*ok)[0].fullbright_light, 1.0f);
    EXPECT_FALSE(content::decodeTextureCache(
        content::wrapTextureCacheBody("k", body(content::kMaxImageDimension + 1, 1)), "k", 1));
    EXPECT_TRUE(content::decodeTextureCache(
        content::wrapTextureCacheBody("k", body(content::kMaxImageDimension, 1)), "k", 1));
    // A count the bytes cannot hold is refused before anything is allocated for it (the fuzzer
    // found 7.7 GB asked for by a 2-billion count; fuzz/regressions/texture_cache).
    std::vector<uint8_t> huge = body(3, 2);
    const uint32_t count = 2000000000u;
    std::memcpy(huge.data(), &count, 4);
    EXPECT_FALSE(content::decodeTextureCache(content::wrapTextureCacheBody("k", huge), "k", count));
}

// A water texture's sixteen numbers follow its drawing fields only when its flag (8) says so;
// the blended (16), planar (256) or refract (512) flag without it, refract without planar, or a
// number that is not finite, is not a file this code wrote.
TEST(TextureCacheFormat, WaterFieldsFollowTheirFlag) {
    const auto body = [](uint32_t flags, float fade_end) {
        std::vector<uint8_t> b;
        const auto u32 = [&b](uint32_t v) {
            for (int k = 0; k < 4; ++k)
                b.push_back(static_cast<uint8_t>(v >> (8 * k)));
        };
        u32(1);     // one texture
        u32(flags); // 2: pixels omitted
        for (int k = 0; k < 7; ++k)
            u32(0); // strings: empty
        u32(bsp::kSurfFullbright);
        u32(std::bit_cast<uint32_t>(0.5f));
        u32(std::bit_cast<uint32_t>(1.0f));
        if (flags & 8)
            for (const float v : {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, 70.0f, fade_end, 0.25f, 0.7f,
                                  0.8f, 0.9f, 0.05f, 0.02f, 10.0f, 200.0f})
                u32(std::bit_cast<uint32_t>(v));
        for (int k = 0; k < 8; ++k)
            u32(0); // four empty images
        return b;
    };
    const auto decode = [](const std::vector<uint8_t>& b) {
        return content::decodeTextureCache(content::wrapTextureCacheBody("k", b), "k", 1);
    };
    const auto water = decode(body(2 | 8 | 16, 90.0f));
    ASSERT_TRUE(water);
    const content::WaterShading& w = (*water)[0].water;
    EXPECT_TRUE(w.enabled);
    EXPECT_TRUE(w.blended);
    EXPECT_EQ(w.base_colour, (std::array<float, 3>{0.1f, 0.2f, 0.3f}));
    EXPECT_EQ(w.reflect_tint, (std::array<float, 3>{0.4f, 0.5f, 0.6f}));
    EXPECT_EQ(w.fade_start, 70.0f);
    EXPECT_EQ(w.fade_end, 90.0f);
    EXPECT_EQ(w.reflect_weight, 0.25f);
    EXPECT_EQ(w.refract_tint, (std::array<float, 3>{0.7f, 0.8f, 0.9f}));
    EXPECT_EQ(w.reflect_amount, 0.05f);
    EXPECT_EQ(w.refract_amount, 0.02f);
    EXPECT_EQ(w.fog_start, 10.0f);
    EXPECT_EQ(w.fog_end, 200.0f);
    EXPECT_FALSE(w.planar);
    EXPECT_FALSE(w.refract);
    const auto planar = decode(body(2 | 8 | 512 | 1024, 90.0f));
    ASSERT_TRUE(planar);
    EXPECT_TRUE((*planar)[0].water.planar);
    EXPECT_TRUE((*planar)[0].water.refract);
    EXPECT_FALSE(decode(body(2 | 8 | 1024, 90.0f))); // refract without planar
    EXPECT_FALSE(decode(body(2 | 512, 90.0f)));      // planar without water
    const auto opaque = decode(body(2 | 8, 90.0f));
    ASSERT_TRUE(opaque);
    EXPECT_TRUE((*opaque)[0].water.enabled);
    EXPECT_FALSE((*opaque)[0].water.blended);
    const auto plain = decode(body(2, 90.0f));
    ASSERT_TRUE(plain);
    EXPECT_FALSE((*plain)[0].water.enabled);
    EXPECT_FALSE(decode(body(2 | 16, 90.0f)));          // blended without water
    EXPECT_FALSE(decode(body(2 | 8, std::nanf(""))));   // not a number
    EXPECT_FALSE(decode(body(2 | 8 | 16, HUGE_VALF)));  // infinite
    EXPECT_FALSE(decode(body(2 | 8 | 16 | 64, 90.0f))); // an unknown flag
    EXPECT_FALSE(decode(body(2 | 8 | 32, 90.0f)));      // an envmap without its pixels
}

TEST(TextureCacheDisk, StoreLoadAndCorruptFile) {
    const fs::path dir = freshDir("disk");
    content::TextureCache cache(dir);
    const auto t = sample();
    EXPECT_FALSE(cache.load("k", t.size()));
    ASSERT_TRUE(cache.store("k", t));
    auto back = cache.load("k", t.size());
    ASSERT_TRUE(back.has_value());
    expectSame(t, *back, true);
    // Cut the file short: a miss, and a store repairs it.
    fs::resize_file(cache.pathFor("k"), fs::file_size(cache.pathFor("k")) / 2);
    EXPECT_FALSE(cache.load("k", t.size()));
    ASSERT_TRUE(cache.store("k", t));
    EXPECT_TRUE(cache.load("k", t.size()));
    // No temporary files left behind.
    for (const auto& e : fs::directory_iterator(dir))
        EXPECT_EQ(e.path().extension(), ".tex") << e.path();
    fs::remove_all(dir);
}

TEST(TextureCacheDisk, OldestEntriesGoPastTheCap) {
    const fs::path dir = freshDir("cap");
    const auto t = sample();
    const uint64_t one = content::encodeTextureCache("a", t).size();
    content::TextureCache cache(dir, one * 2 + one / 2); // room for two entries
    ASSERT_TRUE(cache.store("a", t));
    fs::last_write_time(cache.pathFor("a"),
                        fs::file_time_type::clock::now() - std::chrono::hours(2));
    ASSERT_TRUE(cache.store("b", t));
    fs::last_write_time(cache.pathFor("b"),
                        fs::file_time_type::clock::now() - std::chrono::hours(1));
    ASSERT_TRUE(cache.store("c", t));
    EXPECT_FALSE(fs::exists(cache.pathFor("a")));
    EXPECT_TRUE(fs::exists(cache.pathFor("b")));
    EXPECT_TRUE(fs::exists(cache.pathFor("c")));
    // An entry larger than the whole cap is not written.
    content::TextureCache tiny(dir, 16);
    EXPECT_FALSE(tiny.store("d", t));
    fs::remove_all(dir);
}

TEST(TextureCacheKey, FollowsTheFilesOfALooseFolder) {
    const fs::path dir = freshDir("key");
    fs::create_directories(dir / "textures");
    const fs::path map_path = dir / "m.bsp";
    std::ofstream(map_path) << "map";
    std::ofstream(dir / "textures" / "a.tga") << "one";
    bsp::Map map;
    map.materials.resize(1);
    map.materials[0].name = "textures/a";
    content::FileSystem vfs;
    ASSERT_TRUE(vfs.addDirectory(dir).ok());
    const auto k1 = content::textureCacheKey(content::MapLocation(map_path.string()), map, vfs, {});
    ASSERT_TRUE(k1.has_value());
    EXPECT_EQ(k1, content::textureCacheKey(content::MapLocation(map_path.string()), map, vfs, {}));
    std::ofstream(dir / "textures" / "a.tga") << "three"; // other size
    const auto k2 = content::textureCacheKey(content::MapLocation(map_path.string()), map, vfs, {});
    EXPECT_NE(k1, k2);
    std::ofstream(dir / "textures" / "b.tga") << "new file";
    const auto k3 = content::textureCacheKey(content::MapLocation(map_path.string()), map, vfs, {});
    EXPECT_NE(k2, k3);
    map.materials[0].name = "textures/b";
    EXPECT_NE(k3, content::textureCacheKey(content::MapLocation(map_path.string()), map, vfs, {}));
    // A map file that is not there: no key, no caching.
    EXPECT_FALSE(
        content::textureCacheKey(content::MapLocation((dir / "none.bsp").string()), map, vfs, {}));
    fs::remove_all(dir);
}

// The same sky box (both none, or the same faces from the same files).
void expectSameSky(const std::optional<content::SkyBox>& a,
                   const std::optional<content::SkyBox>& b) {
    ASSERT_EQ(a.has_value(), b.has_value());
    if (!a)
        return;
    EXPECT_EQ(a->base, b->base);
    for (size_t i = 0; i < a->faces.size(); ++i) {
        EXPECT_EQ(a->sources[i], b->sources[i]) << i;
        EXPECT_EQ(a->faces[i].width, b->faces[i].width) << i;
        EXPECT_EQ(a->faces[i].height, b->faces[i].height) << i;
        EXPECT_TRUE(a->faces[i].rgba == b->faces[i].rgba) << i;
    }
}

size_t entriesIn(const fs::path& dir) {
    size_t n = 0;
    for (const auto& e : fs::directory_iterator(dir))
        n += e.path().extension() == ".tex" ? 1 : 0;
    return n;
}

void loadTwice(const std::string& spec) {
    SCOPED_TRACE(spec);
    const fs::path dir = freshDir("bundle");
    scene::LoadSettings plain;
    auto reference = scene::loadMapBundle(spec, plain);
    ASSERT_TRUE(reference.ok()) << reference.error().message();
    EXPECT_EQ((*reference)->texture_cache, "off");
    scene::LoadSettings cached;
    cached.texture_cache_dir = dir;
    auto first = scene::loadMapBundle(spec, cached);
    ASSERT_TRUE(first.ok());
    EXPECT_EQ((*first)->texture_cache, "miss");
    auto second = scene::loadMapBundle(spec, cached);
    ASSERT_TRUE(second.ok());
    EXPECT_EQ((*second)->texture_cache, "hit");
    expectSame((*reference)->textures, (*second)->textures);
    expectSameSky((*reference)->skybox, (*second)->skybox);
    EXPECT_EQ((*reference)->missing_textures, (*second)->missing_textures);
    // The mesh saw the same texture sizes (Quake 2 uv are divided by them).
    ASSERT_EQ((*reference)->mesh.vertices.size(), (*second)->mesh.vertices.size());
    for (size_t i = 0; i < (*reference)->mesh.vertices.size(); ++i)
        ASSERT_EQ((*reference)->mesh.vertices[i].uv, (*second)->mesh.vertices[i].uv) << i;
    // Damage every entry: the next load decodes again and is still right.
    for (const auto& e : fs::directory_iterator(dir)) {
        auto bytes = core::readFile(e.path());
        ASSERT_TRUE(bytes.ok());
        (*bytes)[bytes->size() / 2] ^= 0xFF;
        std::ofstream(e.path(), std::ios::binary | std::ios::trunc)
            .write(reinterpret_cast<const char*>(bytes->data()),
                   static_cast<std::streamsize>(bytes->size()));
    }
    auto third = scene::loadMapBundle(spec, cached);
    ASSERT_TRUE(third.ok());
    EXPECT_EQ((*third)->texture_cache, "miss");
    expectSame((*reference)->textures, (*third)->textures);
    expectSameSky((*reference)->skybox, (*third)->skybox);
    fs::remove_all(dir);
}

// A sky box of JPEG faces (oa_thor: env/nebulae/nebulae2, six 1024x1024 JPEGs, ~110 ms to
// decode) is kept in an entry of its own and comes back from it, face for face.
TEST(TextureCacheBundle, JpegSkyFacesComeBackFromTheirOwnEntry) {
    const std::string spec =
        std::string(BSPV_OPENARENA_DIR) + "/pak6-patch088.pk3:maps/oa_thor.bsp";
    const fs::path dir = freshDir("sky");
    auto reference = scene::loadMapBundle(spec, scene::LoadSettings());
    ASSERT_TRUE(reference.ok()) << reference.error().message();
    ASSERT_TRUE((*reference)->skybox.has_value());
    EXPECT_EQ((*reference)->skybox->sources[0], "env/nebulae/nebulae2_rt.jpg");
    scene::LoadSettings cached;
    cached.texture_cache_dir = dir;
    auto first = scene::loadMapBundle(spec, cached);
    ASSERT_TRUE(first.ok());
    EXPECT_EQ(entriesIn(dir), 2u); // the textures' entry and the sky faces'
    auto second = scene::loadMapBundle(spec, cached);
    ASSERT_TRUE(second.ok());
    expectSameSky((*reference)->skybox, (*second)->skybox);
    // Only the sky faces' entry gone: the faces are decoded again, and written again.
    for (const auto& e : fs::directory_iterator(dir))
        if (e.file_size() > 20u * 1024 * 1024) // six 1024x1024 RGBA faces, 24 MiB
            fs::remove(e.path());
    EXPECT_EQ(entriesIn(dir), 1u);
    auto third = scene::loadMapBundle(spec, cached);
    ASSERT_TRUE(third.ok());
    EXPECT_EQ((*third)->texture_cache, "hit");
    expectSameSky((*reference)->skybox, (*third)->skybox);
    EXPECT_EQ(entriesIn(dir), 2u);
    fs::remove_all(dir);
}

TEST(TextureCacheBundle, SecondLoadComesFromTheCache) {
    loadTwice(std::string(BSPV_SHARED_MAPS_DIR) + "/q3/bc_crypt.bsp");
    loadTwice(std::string(BSPV_SHARED_MAPS_DIR) + "/q2/aq_urbanjungle.bsp");
    loadTwice(std::string(BSPV_SHARED_MAPS_DIR) + "/q1/lq_e1m1.bsp");
    loadTwice(std::string(BSPV_OPENARENA_DIR) + "/pak1-maps.pk3:maps/oa_dm1.bsp");
}

} // namespace

namespace {

// Materials that decode alike are decoded once and copied: the result must be what decoding
// each on its own gives (Quake 2: a material per texinfo, many per .wal).
TEST(TextureDecode, DuplicateMaterialsMatchSeparateDecodes) {
    const std::string spec = std::string(BSPV_SHARED_MAPS_DIR) + "/q2/aq_urbanjungle.bsp";
    auto b = scene::loadMapBundle(spec, scene::LoadSettings()); // for its FileSystem
    ASSERT_TRUE(b.ok()) << b.error().message();
    const content::FileSystem& vfs = *(*b)->fs;
    // The map as parsed: the bundle's materials already carry the texture sizes.
    auto parsed = scene::loadMapSpec(spec);
    ASSERT_TRUE(parsed.ok());
    const bsp::Map& map = *parsed;
    const content::PalettedSources sources = content::loadPalettedSources(map, vfs);
    const std::vector<content::TextureInfo> all =
        content::loadMaterialTextures(map, vfs, sources, nullptr, 2);
    size_t duplicates = 0;
    std::set<std::string> names;
    for (const bsp::Material& m : map.materials)
        if (!names.insert(m.name).second)
            ++duplicates;
    EXPECT_GT(duplicates, 1000u); // the case this covers
    size_t found = 0;
    for (size_t i = 0; i < map.materials.size(); i += 7) {
        SCOPED_TRACE(map.materials[i].name);
        const content::TextureInfo one =
            content::loadMaterialTexture(map.materials[i], map, vfs, sources, nullptr);
        expectSame({one}, {all[i]});
        found += one.missing ? 0 : 1;
    }
    EXPECT_GT(found, 100u);
    // Only some materials, into their own slots.
    std::vector<content::TextureInfo> some;
    const std::vector<uint32_t> which = {3, 1, 3, 99999};
    content::loadMaterialTexturesAt(map, vfs, sources, nullptr, which, some, 2);
    ASSERT_EQ(some.size(), map.materials.size());
    expectSame({some[1], some[3]}, {all[1], all[3]});
    EXPECT_FALSE(some[0].image.valid());
    EXPECT_FALSE(some[2].image.valid());
}

} // namespace

namespace {

content::Image pattern(int w, int h) {
    content::Image img;
    img.width = w;
    img.height = h;
    img.rgba.resize(static_cast<size_t>(w) * static_cast<size_t>(h) * 4);
    for (size_t i = 0; i < img.rgba.size(); ++i)
        img.rgba[i] = static_cast<uint8_t>((i * 37 + i / 5) & 255);
    return img;
}

TEST(Mipmap, HalvesWithARoundedBoxFilter) {
    content::Image img;
    img.width = 2;
    img.height = 2;
    img.rgba = {0, 10, 255, 1, 1, 10, 255, 2, 2, 10, 255, 3, 4, 11, 255, 3};
    const content::Image half = content::halveImage(img);
    ASSERT_EQ(half.width, 1);
    ASSERT_EQ(half.height, 1);
    // (0+1+2+4+2)/4 = 2, (10+10+10+11+2)/4 = 10, 255, (1+2+3+3+2)/4 = 2
    EXPECT_EQ(half.rgba, (std::vector<uint8_t>{2, 10, 255, 2}));
}

// ioquake3's R_MipMap (r_simpleMipMaps 1) shifts the sum of four right by two: every mean
// rounds down, and the error grows level by level.
TEST(Mipmap, RoundsDownAsIoquake3Does) {
    content::Image img;
    img.width = 2;
    img.height = 2;
    img.rgba = {0, 10, 255, 1, 1, 10, 255, 2, 2, 10, 255, 3, 4, 11, 255, 3};
    const content::Image half = content::halveImage(img, content::MipRounding::Down);
    // 7 >> 2 = 1 (nearest: 2), 41 >> 2 = 10, 1020 >> 2 = 255, 9 >> 2 = 2
    EXPECT_EQ(half.rgba, (std::vector<uint8_t>{1, 10, 255, 2}));
    // A 4x4 image of 3s whose red is 6 at the top-left texel of each 2x2 block.
    content::Image grey;
    grey.width = 4;
    grey.height = 4;
    grey.rgba.assign(64, 3);
    for (int y = 0; y < 4; y += 2)
        for (int x = 0; x < 4; x += 2)
            grey.rgba[static_cast<size_t>((y * 4 + x) * 4)] = 6;
    // Red: 6 + 3 + 3 + 3 = 15: 15 >> 2 = 3, nearest (15 + 2) / 4 = 4.
    const auto down = content::mipChain(grey, content::MipRounding::Down);
    const auto nearest = content::mipChain(grey);
    ASSERT_EQ(down.size(), 2u);
    ASSERT_EQ(nearest.size(), 2u);
    EXPECT_EQ(down[0].rgba[0], 3);
    EXPECT_EQ(nearest[0].rgba[0], 4);
    EXPECT_EQ(down[1].rgba[0], 3);    // (3 * 4) >> 2
    EXPECT_EQ(nearest[1].rgba[0], 4); // (4 * 4 + 2) / 4
    EXPECT_EQ(down[0].rgba[1], 3);    // green stays 3 either way
}

TEST(Mipmap, ChainFollowsGlLevelSizesDownToOne) {
    for (const auto& [w, h] : {std::pair{256, 64}, {5, 3}, {1, 7}, {640, 480}, {1, 1}}) {
        SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h));
        const content::Image img = pattern(w, h);
        const auto chain = content::mipChain(img);
        int lw = w, lh = h;
        for (const content::Image& level : chain) {
            lw = std::max(1, lw / 2);
            lh = std::max(1, lh / 2);
            EXPECT_EQ(level.width, lw);
            EXPECT_EQ(level.height, lh);
            EXPECT_TRUE(level.valid());
        }
        EXPECT_EQ(lw, 1);
        EXPECT_EQ(lh, 1);
        const int levels = 1 + static_cast<int>(std::floor(std::log2(std::max(w, h))));
        EXPECT_EQ(static_cast<int>(chain.size()) + 1, levels);
    }
    EXPECT_TRUE(content::mipChain(content::Image()).empty());
    EXPECT_FALSE(content::halveImage(content::Image()).valid());
}

TEST(Mipmap, OneWideLevelsAverageTheirPair) {
    content::Image img;
    img.width = 1;
    img.height = 2;
    img.rgba = {10, 20, 30, 40, 20, 40, 60, 80};
    const content::Image half = content::halveImage(img);
    EXPECT_EQ(half.rgba, (std::vector<uint8_t>{15, 30, 45, 60}));
}

} // namespace

TEST(MipChains, MatchMipChainPerImageOnAnyThreadAndSkipNull) {
    std::vector<content::Image> images(5);
    for (size_t i = 0; i < images.size(); ++i) {
        images[i].width = static_cast<int>(8 + 4 * i);
        images[i].height = static_cast<int>(4 + 2 * i);
        images[i].rgba.resize(static_cast<size_t>(images[i].width * images[i].height) * 4);
        for (size_t k = 0; k < images[i].rgba.size(); ++k)
            images[i].rgba[k] = static_cast<uint8_t>(k * 7 + i * 13);
    }
    std::vector<const content::Image*> pointers = {&images[0], nullptr, &images[2], &images[3],
                                                   &images[4]};
    const auto chains = content::mipChains(pointers);
    ASSERT_EQ(chains.size(), pointers.size());
    EXPECT_TRUE(chains[1].empty());
    for (size_t i : {0u, 2u, 3u, 4u}) {
        const auto want = content::mipChain(images[i]);
        ASSERT_EQ(chains[i].size(), want.size()) << i;
        for (size_t l = 0; l < want.size(); ++l)
            EXPECT_EQ(chains[i][l].rgba, want[l].rgba) << i << " level " << l;
    }
}
