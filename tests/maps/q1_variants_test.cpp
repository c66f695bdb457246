// Quake 1 family variants made from real maps: a 2PSB file converted from the BSP2 map, a BSPX
// RGBLIGHTING lump appended to a BSP29 map, Half-Life directory swaps, render modes, and
// random corruption (must never crash).
#include "bsp/load.h"
#include "core/byte_reader.h"
#include "core/file.h"
#include "game/profile.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <random>

namespace fs = std::filesystem;

namespace {

const fs::path kMaps = BSPV_SHARED_MAPS_DIR;

std::vector<uint8_t> readOrFail(const fs::path& p) {
    auto r = core::readFile(p);
    EXPECT_TRUE(r.ok()) << p;
    return r.ok() ? *r : std::vector<uint8_t>{};
}

uint32_t dirOffset(const std::vector<uint8_t>& f, int lump) {
    uint32_t v;
    std::memcpy(&v, f.data() + 4 + lump * 8, 4);
    return v;
}
uint32_t dirLength(const std::vector<uint8_t>& f, int lump) {
    uint32_t v;
    std::memcpy(&v, f.data() + 8 + lump * 8, 4);
    return v;
}
void setDir(std::vector<uint8_t>& f, int lump, uint32_t ofs, uint32_t len) {
    std::memcpy(f.data() + 4 + lump * 8, &ofs, 4);
    std::memcpy(f.data() + 8 + lump * 8, &len, 4);
}
template <class T> void append(std::vector<uint8_t>& f, const T& v) {
    const auto* p = reinterpret_cast<const uint8_t*>(&v);
    f.insert(f.end(), p, p + sizeof(T));
}
void align4(std::vector<uint8_t>& f) {
    while (f.size() % 4)
        f.push_back(0);
}

int16_t toShort(float v) {
    return int16_t(std::clamp(std::floor(v + 0.5f), -32768.0f, 32767.0f));
}

} // namespace

// 2PSB ("BSP2-RMQ") is BSP2 with 16-bit node and leaf bounds. No real file exists (SOURCES.md);
// rewrite the BSP2 map's nodes (44 -> 32 bytes) and leafs (44 -> 32 bytes) into 2PSB records.
TEST(Quake1Variants, Rmq2psbConvertedFromBsp2) {
    const auto bsp2 = readOrFail(kMaps / "q1bsp2/lq_lq1m1.bsp");
    ASSERT_FALSE(bsp2.empty());
    std::vector<uint8_t> f = bsp2;
    std::memcpy(f.data(), "2PSB", 4);
    const core::ByteReader r(bsp2);
    align4(f);
    {
        const uint32_t ofs = dirOffset(bsp2, 5), n = dirLength(bsp2, 5) / 44;
        const uint32_t out = uint32_t(f.size());
        for (uint32_t i = 0; i < n; ++i) {
            const uint64_t at = ofs + uint64_t(i) * 44;
            append(f, r.i32(at));     // plane
            append(f, r.i32(at + 4)); // children
            append(f, r.i32(at + 8));
            for (int k = 0; k < 6; ++k)
                append(f, toShort(r.f32(at + 12 + k * 4)));
            append(f, r.u32(at + 36));
            append(f, r.u32(at + 40));
        }
        setDir(f, 5, out, n * 32);
    }
    {
        const uint32_t ofs = dirOffset(bsp2, 10), n = dirLength(bsp2, 10) / 44;
        const uint32_t out = uint32_t(f.size());
        for (uint32_t i = 0; i < n; ++i) {
            const uint64_t at = ofs + uint64_t(i) * 44;
            append(f, r.i32(at));     // contents
            append(f, r.i32(at + 4)); // visofs
            for (int k = 0; k < 6; ++k)
                append(f, toShort(r.f32(at + 8 + k * 4)));
            append(f, r.u32(at + 32));
            append(f, r.u32(at + 36));
            append(f, r.u32(at + 40)); // ambient levels
        }
        setDir(f, 10, out, n * 32);
    }
    auto a = bsp::loadMap(bsp2, "lq_lq1m1.bsp");
    auto b = bsp::loadMap(f, "lq_lq1m1_2psb.bsp");
    ASSERT_TRUE(a.ok()) << a.error().message();
    ASSERT_TRUE(b.ok()) << b.error().message();
    EXPECT_EQ(b->format, bsp::Format::Quake1Rmq);
    ASSERT_EQ(a->leaves.size(), b->leaves.size());
    ASSERT_EQ(a->nodes.size(), b->nodes.size());
    EXPECT_EQ(a->faces.size(), b->faces.size());
    for (size_t i = 0; i < a->nodes.size(); ++i) {
        ASSERT_EQ(a->nodes[i].children, b->nodes[i].children);
        ASSERT_NEAR(a->nodes[i].mins.x, b->nodes[i].mins.x, 0.5f);
        ASSERT_NEAR(a->nodes[i].maxs.z, b->nodes[i].maxs.z, 0.5f);
    }
    for (size_t i = 0; i < a->leaves.size(); ++i) {
        ASSERT_EQ(a->leaves[i].first_leaf_face, b->leaves[i].first_leaf_face);
        ASSERT_EQ(a->leaves[i].num_leaf_faces, b->leaves[i].num_leaf_faces);
        ASSERT_NEAR(a->leaves[i].maxs.y, b->leaves[i].maxs.y, 0.5f);
    }
    EXPECT_EQ(a->vis.rows, b->vis.rows);
}

// BSPX RGBLIGHTING: a red-only copy of the grey lighting, appended after the last lump.
TEST(Quake1Variants, BspxRgbLighting) {
    std::vector<uint8_t> f = readOrFail(kMaps / "q1/lq_start.bsp");
    ASSERT_FALSE(f.empty());
    uint64_t end = 0;
    for (int i = 0; i < 15; ++i)
        end = std::max<uint64_t>(end, uint64_t(dirOffset(f, i)) + dirLength(f, i));
    f.resize(end);
    align4(f);
    const uint32_t lofs = dirOffset(f, 8), llen = dirLength(f, 8);
    ASSERT_GT(llen, 0u);
    f.insert(f.end(), {'B', 'S', 'P', 'X'});
    append(f, uint32_t(1));
    char name[24] = "RGBLIGHTING";
    f.insert(f.end(), name, name + 24);
    const uint32_t data_ofs = uint32_t(f.size()) + 8;
    append(f, data_ofs);
    append(f, llen * 3);
    for (uint32_t i = 0; i < llen; ++i) {
        f.push_back(f[lofs + i]);
        f.push_back(0);
        f.push_back(0);
    }
    auto m = bsp::loadMap(f, "start_rgb.bsp");
    ASSERT_TRUE(m.ok()) << m.error().message();
    ASSERT_EQ(m->extra_lumps.size(), 1u);
    EXPECT_EQ(m->extra_lumps[0].name, "RGBLIGHTING");
    long red = 0, green = 0;
    for (const auto& p : m->lightmap_pages)
        for (size_t i = 0; i + 2 < p.rgb.size(); i += 3) {
            red += p.rgb[i];
            green += p.rgb[i + 1];
        }
    EXPECT_GT(red, 100000);
    EXPECT_EQ(green, 0);
}

TEST(Quake1Variants, HalfLifeSwappedEntitiesAndPlanes) {
    const auto orig = readOrFail(kMaps / "hl/cs_awp_india.bsp");
    std::vector<uint8_t> f = orig;
    const uint32_t eo = dirOffset(f, 0), el = dirLength(f, 0);
    setDir(f, 0, dirOffset(f, 1), dirLength(f, 1));
    setDir(f, 1, eo, el);
    auto a = bsp::loadMap(orig, "a.bsp");
    auto b = bsp::loadMap(f, "b.bsp");
    ASSERT_TRUE(a.ok());
    ASSERT_TRUE(b.ok()) << b.error().message();
    EXPECT_EQ(a->entities.size(), b->entities.size());
    EXPECT_EQ(a->planes.size(), b->planes.size());
    EXPECT_FALSE(b->warnings.empty());
}

// The parser binds brush models to their entities; the game layer blends them by their render
// keys at spawn (game/halflife.cpp).
TEST(Quake1Variants, HalfLifeRenderModes) {
    auto m = bsp::loadMapFile(kMaps / "hl/jf_trainride2.bsp");
    ASSERT_TRUE(m.ok());
    game::spawnBrushModels(game::profileFor(*m), *m);
    int alpha = 0, alpha_test = 0;
    for (const auto& sm : m->submodels) {
        if (sm.entity < 0)
            continue;
        const auto& e = m->entities[size_t(sm.entity)];
        const std::string_view mode = e.get("rendermode");
        if (mode == "2") {
            ++alpha;
            EXPECT_EQ(sm.blend, bsp::BlendMode::Alpha);
            // renderamt is 0 when the key is absent, and such a model is not drawn.
            const float amt = e.number("renderamt").value_or(0.0f);
            EXPECT_FLOAT_EQ(sm.alpha, amt / 255.0f);
            EXPECT_FALSE(sm.lightmapped); // kRenderTransTexture: no lightmaps
            if (amt <= 0.0f) {
                EXPECT_FALSE(sm.visible);
            }
        } else if (mode == "4") {
            ++alpha_test;
            EXPECT_EQ(sm.blend, bsp::BlendMode::AlphaTest);
            EXPECT_TRUE(sm.lightmapped);
        } else if (mode.empty() || mode == "0") {
            EXPECT_EQ(sm.blend, bsp::BlendMode::Opaque);
        }
    }
    EXPECT_GT(alpha, 0);
    EXPECT_GT(alpha_test, 0);
}

TEST(Quake1Variants, LeavesSeeThemselves) {
    auto m = bsp::loadMapFile(kMaps / "q1/lq_start.bsp");
    ASSERT_TRUE(m.ok());
    int self = 0, total = 0;
    for (size_t l = 1; l < m->leaves.size(); ++l) {
        if (m->leaves[l].contents & bsp::kContentsSolid)
            continue;
        ++total;
        self += m->vis.visible(m->leaves[l].cluster, m->leaves[l].cluster);
    }
    ASSERT_GT(total, 100);
    EXPECT_GT(self, total * 9 / 10);
}

// Random byte corruption of small real maps: loads either succeed or fail with an error; the
// sanitizer build turns any bad read into a failure.
TEST(Corruption, RandomBytesNeverCrash) {
    std::mt19937 rng(1234);
    for (const char* name :
         {"q1/ew_q1_cube.bsp", "hl/freehl_test_weapons.bsp", "q2/aq_credits.bsp"}) {
        const auto orig = readOrFail(kMaps / name);
        ASSERT_FALSE(orig.empty());
        int failed = 0;
        for (int iter = 0; iter < 300; ++iter) {
            auto f = orig;
            const int hits = 1 + int(rng() % 8);
            for (int h = 0; h < hits; ++h) {
                // Half the hits land in the header/directory, where they do the most damage.
                const size_t at =
                    (h % 2) ? rng() % std::min<size_t>(f.size(), 160) : rng() % f.size();
                f[at] = uint8_t(rng());
            }
            auto r = bsp::loadMap(f, "corrupt.bsp");
            failed += !r.ok();
        }
        EXPECT_GT(failed, 0) << name; // corruption is noticed at least sometimes
    }
}
