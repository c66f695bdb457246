#include "bsp/lightmap_atlas.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

namespace {

struct Placed {
    bsp::AtlasPlacement at;
    int32_t w, h;
};

bool overlaps(const Placed& a, const Placed& b) {
    if (a.at.page != b.at.page)
        return false;
    return a.at.x < b.at.x + b.w && b.at.x < a.at.x + a.w && a.at.y < b.at.y + b.h &&
           b.at.y < a.at.y + a.h;
}

std::vector<Placed> packRandom(bsp::LightmapAtlas& atlas, int count, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int32_t> size(1, 72);
    std::vector<Placed> out;
    for (int i = 0; i < count; ++i) {
        const int32_t w = size(rng), h = size(rng) / 4 + 1;
        auto r = atlas.insert(w, h);
        EXPECT_TRUE(r.ok());
        if (!r.ok())
            break;
        out.push_back({*r, w, h});
    }
    return out;
}

} // namespace

TEST(LightmapAtlas, BlocksStayInsideAndNeverOverlap) {
    bsp::LightmapAtlas atlas(256, 256);
    const auto placed = packRandom(atlas, 3000, 7);
    ASSERT_EQ(placed.size(), 3000u);
    int64_t area = 0;
    for (const Placed& p : placed) {
        ASSERT_GE(p.at.page, 0);
        ASSERT_LT(p.at.page, atlas.pageCount());
        ASSERT_LE(p.at.x + p.w, 256);
        ASSERT_LE(p.at.y + p.h, 256);
        area += int64_t(p.w) * p.h;
    }
    // Pairwise check per page (small enough here).
    for (size_t i = 0; i < placed.size(); ++i)
        for (size_t j = i + 1; j < placed.size(); ++j)
            ASSERT_FALSE(overlaps(placed[i], placed[j])) << i << " vs " << j;
    // Page count sane: at least the area bound, and not wildly more (shelves waste < half).
    const int64_t page_area = 256 * 256;
    EXPECT_GE(atlas.pageCount(), (area + page_area - 1) / page_area);
    EXPECT_LE(atlas.pageCount(), 2 * ((area + page_area - 1) / page_area) + 1);
}

TEST(LightmapAtlas, Deterministic) {
    bsp::LightmapAtlas a(128, 128), b(128, 128);
    const auto pa = packRandom(a, 500, 3);
    const auto pb = packRandom(b, 500, 3);
    ASSERT_EQ(pa.size(), pb.size());
    for (size_t i = 0; i < pa.size(); ++i) {
        EXPECT_EQ(pa[i].at.page, pb[i].at.page);
        EXPECT_EQ(pa[i].at.x, pb[i].at.x);
        EXPECT_EQ(pa[i].at.y, pb[i].at.y);
    }
    EXPECT_EQ(a.pageCount(), b.pageCount());
}

TEST(LightmapAtlas, FullPageBlocksMakeOnePageEach) {
    bsp::LightmapAtlas atlas(64, 32);
    for (int i = 0; i < 3; ++i) {
        auto r = atlas.insert(64, 32);
        ASSERT_TRUE(r.ok());
        EXPECT_EQ(r->page, i);
        EXPECT_EQ(r->x, 0);
        EXPECT_EQ(r->y, 0);
    }
    EXPECT_EQ(atlas.pageCount(), 3);
}

TEST(LightmapAtlas, RejectsBlocksLargerThanAPageAndEmptyBlocks) {
    bsp::LightmapAtlas atlas(64, 64);
    auto wide = atlas.insert(65, 1);
    ASSERT_FALSE(wide.ok());
    EXPECT_EQ(wide.error().code, core::ErrorCode::BadArgument);
    EXPECT_FALSE(atlas.insert(1, 65).ok());
    EXPECT_FALSE(atlas.insert(0, 4).ok());
    EXPECT_EQ(atlas.pageCount(), 0);
}

TEST(LightmapAtlas, PageLimit) {
    bsp::LightmapAtlas atlas(8, 8);
    atlas.max_pages = 2;
    ASSERT_TRUE(atlas.insert(8, 8).ok());
    ASSERT_TRUE(atlas.insert(8, 8).ok());
    auto r = atlas.insert(8, 8);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, core::ErrorCode::LimitExceeded);
}
