// The texture cache's fuzz seeds (scripts/fuzz_corpus.py seed_cache_bodies, the bodies of
// fuzz/targets.def's texture_cache row) are entries the current format reads: the script is
// run into a folder of its own and every body there, wrapped as runTextureCache wraps it,
// decodes to what the script wrote. A format change the script was not taught fails here
// instead of leaving the fuzzer to mutate seeds the parser refuses at once.
#include "content/material/texture_cache.h"
#include "core/file.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;

namespace {

// The script's corpus for every fuzz target, written under a fresh temporary folder.
class FuzzSeeds : public ::testing::Test {
protected:
    void SetUp() override {
        m_out = fs::temp_directory_path() / ("bspv_fuzz_seeds_" + std::to_string(getpid()));
        fs::remove_all(m_out);
        const std::string cmd =
            std::string(BSPV_PYTHON3) + " \"" BSPV_SOURCE_DIR "/scripts/fuzz_corpus.py\" \"" +
            m_out.string() + "\" --maps \"" BSPV_SHARED_MAPS_DIR "\" > /dev/null";
        ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    }
    void TearDown() override { fs::remove_all(m_out); }

    // Each body of `target`'s seed folder by file name.
    std::map<std::string, std::vector<uint8_t>> seeds(const std::string& target) const {
        std::map<std::string, std::vector<uint8_t>> out;
        for (const auto& e : fs::directory_iterator(m_out / target)) {
            auto bytes = core::readFile(e.path());
            EXPECT_TRUE(bytes.ok()) << e.path();
            if (bytes.ok())
                out[e.path().filename().string()] = std::move(*bytes);
        }
        return out;
    }

    fs::path m_out;
};

// A body decoded as the fuzz entry point decodes it: wrapped with a header and checksum for
// `key`, the texture count asked for the one its first word gives.
std::optional<std::vector<content::TextureInfo>> decodeBody(const std::vector<uint8_t>& body) {
    constexpr std::string_view kKey = "seed";
    uint32_t count = 0;
    if (body.size() >= 4)
        std::memcpy(&count, body.data(), 4);
    return content::decodeTextureCache(content::wrapTextureCacheBody(kKey, body), kKey, count);
}

} // namespace

TEST_F(FuzzSeeds, EveryTextureCacheSeedDecodesToWhatTheScriptWrote) {
    const auto bodies = seeds("texture_cache");
    std::map<std::string, std::vector<content::TextureInfo>> decoded;
    for (const auto& [name, body] : bodies) {
        auto textures = decodeBody(body);
        ASSERT_TRUE(textures.has_value()) << name << " is not an entry the cache reads";
        decoded[name] = std::move(*textures);
    }
    // The ten bodies seed_cache_bodies makes, with their texture counts.
    const std::map<std::string, size_t> counts = {
        {"ssbump.body", 1}, {"water.body", 1},  {"planar_water.body", 1},
        {"envmap.body", 1}, {"motion.body", 1}, {"frames.body", 1},
        {"kept.body", 1},   {"glow.body", 1},   {"omitted_missing.body", 2},
        {"mixed.body", 3}};
    ASSERT_EQ(decoded.size(), counts.size());
    for (const auto& [name, count] : counts) {
        ASSERT_TRUE(decoded.count(name)) << name;
        ASSERT_EQ(decoded[name].size(), count) << name;
    }
    // Every texture carries the script's strings and drawing fields.
    for (const auto& [name, textures] : decoded)
        for (const content::TextureInfo& t : textures) {
            EXPECT_EQ(t.source, "materials/a.vtf") << name;
            EXPECT_EQ(t.origin, "pak0.pk3") << name;
            EXPECT_EQ(t.shader_file, "scripts/a.shader") << name;
            EXPECT_EQ(t.shader_image, "textures/a") << name;
            EXPECT_EQ(t.alpha_cutoff, 0.5f) << name;
            EXPECT_EQ(t.fullbright_light, 0.0f) << name;
        }

    const content::TextureInfo& ssbump = decoded["ssbump.body"][0];
    EXPECT_TRUE(ssbump.bump_ssbump);
    EXPECT_EQ(ssbump.bump.width, 2);
    EXPECT_EQ(ssbump.bump.rgba.front(), 0x7f);

    const content::WaterShading& water = decoded["water.body"][0].water;
    EXPECT_TRUE(water.enabled && water.blended && !water.planar && !water.refract);
    EXPECT_EQ(water.base_colour, (std::array<float, 3>{0.1f, 0.2f, 0.3f}));
    EXPECT_EQ(water.fade_start, 100.0f);
    EXPECT_EQ(water.fade_end, 400.0f);
    EXPECT_EQ(water.refract_amount, 0.1f);
    EXPECT_EQ(water.fog_end, 64.0f);
    const content::WaterShading& planar = decoded["planar_water.body"][0].water;
    EXPECT_TRUE(planar.enabled && !planar.blended && planar.planar && planar.refract);

    const content::TextureInfo& envmap = decoded["envmap.body"][0];
    EXPECT_TRUE(envmap.envmap_shading.enabled);
    EXPECT_EQ(envmap.envmap_shading.mask, content::EnvMapMask::Texture);
    EXPECT_EQ(envmap.envmap_source, "materials/c.vtf");
    for (size_t k = 0; k < envmap.envmap.size(); ++k) {
        ASSERT_EQ(envmap.envmap[k].width, 1) << k;
        EXPECT_EQ(envmap.envmap[k].rgba.front(), 0x20 * (k + 1)) << k;
    }
    EXPECT_EQ(envmap.envmap_mask.width, 2);

    const content::TextureMotion& motion = decoded["motion.body"][0].motion;
    EXPECT_EQ(motion.base.m[0], 2.0f);
    EXPECT_EQ(motion.base.m[2], -0.5f);
    EXPECT_EQ(motion.bump.m[5], 0.25f);
    EXPECT_TRUE(motion.base_scroll.enabled);
    EXPECT_EQ(motion.base_scroll.rate, 0.25f);
    EXPECT_EQ(motion.base_scroll.angle, 90.0f);
    EXPECT_FALSE(motion.bump_scroll.enabled);

    const content::TextureInfo& frames = decoded["frames.body"][0];
    ASSERT_EQ(frames.base_frames.size(), 3u);
    EXPECT_EQ(frames.base_frames[2].rgba.front(), 0x20);
    EXPECT_EQ(frames.base_animation.rate, 4.0f);
    EXPECT_TRUE(frames.base_animation.wrap);
    ASSERT_EQ(frames.bump_frames.size(), 2u);
    EXPECT_EQ(frames.bump_animation.rate, 15.0f);
    EXPECT_FALSE(frames.bump_animation.wrap);

    EXPECT_EQ(decoded["kept.body"][0].image.width, 4);
    EXPECT_EQ(decoded["kept.body"][0].image.height, 2);
    EXPECT_EQ(decoded["glow.body"][0].glow.width, 2);
    EXPECT_EQ(decoded["glow.body"][0].glow.rgba.front(), 0x80);

    const auto& omitted = decoded["omitted_missing.body"];
    EXPECT_FALSE(omitted[0].missing);
    EXPECT_TRUE(omitted[1].missing);
    EXPECT_EQ(omitted[0].image.width + omitted[1].image.width, 0);

    const auto& mixed = decoded["mixed.body"];
    EXPECT_EQ(mixed[0].image.width, 8);
    EXPECT_EQ(mixed[1].image.width, 0);
    EXPECT_EQ(mixed[2].glow.width, 1);
}
