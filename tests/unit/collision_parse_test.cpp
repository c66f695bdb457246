// Collision lumps read into bsp::Collision: the Quake 1 builder's room (clipnodes, hull heads,
// leaf contents), damaged clipnodes and hull heads (clean errors naming lump and record), the
// Half-Life hull table, Quake 3 brushes from the builder, and real maps' counts.
#include "bsp/load.h"
#include "support/collision_room.h"
#include "support/q3_builder.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

namespace {

void putU16(std::vector<uint8_t>& f, size_t at, uint16_t v) {
    std::memcpy(f.data() + at, &v, 2);
}
void putI32(std::vector<uint8_t>& f, size_t at, int32_t v) {
    std::memcpy(f.data() + at, &v, 4);
}
constexpr int kClipnodes = 9, kModels = 14;

} // namespace

TEST(CollisionParse, Quake1RoomHullsAndClipnodes) {
    auto b = collisiontest::roomQ1();
    const auto bytes = b.build();
    auto r = bsp::loadMap(bytes, "room.bsp");
    ASSERT_TRUE(r.ok()) << r.error().message();
    const bsp::Collision& c = r->collision;
    EXPECT_EQ(c.kind, bsp::CollisionKind::Hulls);
    ASSERT_EQ(c.clipnodes.size(), b.clipnodes.size());
    for (size_t i = 0; i < c.clipnodes.size(); ++i) {
        EXPECT_EQ(c.clipnodes[i].plane, b.clipnodes[i][0]) << i;
        EXPECT_EQ(c.clipnodes[i].children[0], b.clipnodes[i][1]) << i;
        EXPECT_EQ(c.clipnodes[i].children[1], b.clipnodes[i][2]) << i;
    }
    ASSERT_EQ(c.models.size(), 1u);
    EXPECT_EQ(c.models[0].heads[0], 0);
    EXPECT_EQ(c.models[0].heads[1], b.heads[0][1]);
    EXPECT_EQ(c.models[0].heads[2], b.heads[0][2]);
    EXPECT_EQ(c.models[0].heads[3], -1); // Quake has no hull 3
    ASSERT_EQ(c.hulls.size(), 3u);
    EXPECT_EQ(c.hulls[1].mins, glm::vec3(-16, -16, -24));
    EXPECT_EQ(c.hulls[2].maxs, glm::vec3(32, 32, 64));
    ASSERT_EQ(c.leaf_values.size(), b.leaves.size());
    EXPECT_EQ(c.leaf_values[0], -2);
    EXPECT_EQ(c.leaf_values[1], -1);
    EXPECT_EQ(c.contentsOfValue(-2), bsp::kCollideSolid);
    EXPECT_EQ(c.contentsOfValue(-3), bsp::kCollideWater);
    EXPECT_EQ(c.contentsOfValue(-1), 0u);
}

TEST(CollisionParse, HalfLifeHasFourHullsAndItsChoiceRule) {
    auto b = collisiontest::roomQ1();
    auto bytes = b.build();
    putI32(bytes, 0, 30);
    auto r = bsp::loadMap(bytes, "room_hl.bsp");
    ASSERT_TRUE(r.ok()) << r.error().message();
    const bsp::Collision& c = r->collision;
    ASSERT_EQ(c.hulls.size(), 4u);
    EXPECT_EQ(c.hulls[1].mins, glm::vec3(-16, -16, -36));
    EXPECT_EQ(c.hulls[3].maxs, glm::vec3(16, 16, 18));
    ASSERT_EQ(c.hull_choices.size(), 4u);
    EXPECT_EQ(c.hull_choices[1].hull, 3); // 32 x 36 boxes crouch in hull 3
    EXPECT_FALSE(c.hull_choices[0].offset_from_box_mins);
    EXPECT_EQ(c.contentsOfValue(-16), bsp::kCollideLadder);
}

// Collision is one feature: clipnodes that do not hold leave the map without collision (walk
// mode off), with a warning naming the record; a hull head at the clipnode count is an empty hull
// (ZHLT, Xash3D Mod_SetupHull). docs/robustness.md, "Refuse or degrade".
TEST(CollisionParse, DamagedClipnodesDropTheCollisionWithAWarning) {
    auto b = collisiontest::roomQ1();
    const auto good = b.build();
    const size_t clip = q1test::lumpOffset(good, kClipnodes);
    auto dropped = [](const std::vector<uint8_t>& bytes, const char* name) {
        auto r = bsp::loadMap(bytes, name);
        EXPECT_TRUE(r.ok()) << r.error().message();
        if (!r.ok())
            return std::string();
        EXPECT_EQ(r->collision.kind, bsp::CollisionKind::None);
        EXPECT_FALSE(r->leaves.empty());
        return r->warnings.empty() ? std::string() : r->warnings.back();
    };
    {
        auto bytes = good;
        putI32(bytes, clip, 100000); // clipnode 0's plane
        EXPECT_EQ(dropped(bytes, "bad.bsp"),
                  "bad.bsp: clipnodes[0].planenum: 100000 beyond " +
                      std::to_string(b.planes.size()) +
                      " planes; no collision: walk mode and the collision views are off");
    }
    {
        auto bytes = good;
        putU16(bytes, clip + 4, 0); // clipnode 0's front child is itself: a cycle
        EXPECT_EQ(dropped(bytes, "cycle.bsp"),
                  "cycle.bsp: clipnodes[0].children: clipnode 0 is its own descendant (a cycle); "
                  "no collision: walk mode and the collision views are off");
    }
    {
        auto bytes = good;
        const size_t models = q1test::lumpOffset(good, kModels);
        const auto count = int32_t(b.clipnodes.size());
        putI32(bytes, models + 36 + 4, count); // hull 1 head
        auto r = bsp::loadMap(bytes, "head.bsp");
        ASSERT_TRUE(r.ok()) << r.error().message();
        EXPECT_EQ(r->collision.kind, bsp::CollisionKind::Hulls);
        EXPECT_EQ(r->collision.models[0].heads[1], -1); // empty
        EXPECT_EQ(r->collision.models[0].heads[2], b.heads[0][2]);
        ASSERT_EQ(r->warnings.size(), 1u);
        EXPECT_EQ(r->warnings[0], "head.bsp: models[0].headnode: hull 1 head " +
                                      std::to_string(count) + " beyond " + std::to_string(count) +
                                      " clipnodes; empty hulls: walk mode's player passes "
                                      "through the model");
    }
}

TEST(CollisionParse, Quake3BrushesFromTheBuilder) {
    q3test::Q3Builder b = q3test::Q3Builder::tiny();
    auto r = bsp::loadMap(b.build(), "tiny.bsp");
    ASSERT_TRUE(r.ok()) << r.error().message();
    const bsp::Collision& c = r->collision;
    EXPECT_EQ(c.kind, bsp::CollisionKind::Brushes);
    ASSERT_EQ(c.brushes.size(), b.brushes.size());
    ASSERT_EQ(c.brush_sides.size(), b.brush_sides.size());
    EXPECT_EQ(c.brush_sides[0].plane, b.brush_sides[0][0]);
    EXPECT_EQ(c.brush_sides[0].material, b.brush_sides[0][1]);
    EXPECT_EQ(c.leaf_brushes, std::vector<uint32_t>(b.leaf_brushes.begin(), b.leaf_brushes.end()));
    ASSERT_EQ(c.leaf_brush_ranges.size(), r->leaves.size());
    EXPECT_EQ(c.leaf_brush_ranges[0].count, uint32_t(b.leafs[0].num_brushes));
    EXPECT_FLOAT_EQ(c.clip_epsilon, 0.125f);
    EXPECT_EQ(c.hulls[1].mins, glm::vec3(-15, -15, -24));
}

namespace {
std::filesystem::path sharedMap(const char* rel) {
    return std::filesystem::path(BSPV_SHARED_MAPS_DIR) / rel;
}
} // namespace

TEST(CollisionParse, RealMapsCarryTheirCollisionData) {
    {
        auto r = bsp::loadMapFile(sharedMap("q1/lq_e1m1.bsp"));
        ASSERT_TRUE(r.ok()) << r.error().message();
        EXPECT_EQ(r->collision.kind, bsp::CollisionKind::Hulls);
        EXPECT_GT(r->collision.clipnodes.size(), 1000u);
        EXPECT_EQ(r->collision.models.size(), r->submodels.size());
    }
    {
        auto r = bsp::loadMapFile(sharedMap("q2/aq_urbanjungle.bsp"));
        ASSERT_TRUE(r.ok()) << r.error().message();
        const bsp::Collision& c = r->collision;
        EXPECT_EQ(c.kind, bsp::CollisionKind::Brushes);
        EXPECT_GT(c.brushes.size(), 100u);
        size_t solid = 0;
        for (const bsp::Brush& b : c.brushes)
            solid += (b.contents & bsp::kCollideSolid) ? 1 : 0;
        EXPECT_GT(solid, c.brushes.size() / 2);
    }
    {
        auto r = bsp::loadMapFile(sharedMap("hl/cs_fy_pool_day.bsp"));
        ASSERT_TRUE(r.ok()) << r.error().message();
        EXPECT_EQ(r->collision.hulls.size(), 4u);
        EXPECT_GE(r->collision.models[0].heads[3], 0);
    }
}
