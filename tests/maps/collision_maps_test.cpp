// Random traces on real maps of each family (fixed seed): starts drawn in the map's bounds until
// `count` of them lie outside solid; every trace returns, and every one ends outside solid (point
// test in the hull, or the box test against the brushes), for the point and for the game's player
// box.
#include "physics/collision.h"
#include "scene/load/map_bundle.h"

#include "bsp/entities.h"

#include <glm/geometric.hpp>
#include <glm/gtx/component_wise.hpp>
#include <gtest/gtest.h>

#include <random>
#include <string>

namespace {

struct Tally {
    int traced = 0, hits = 0, skipped = 0, hits_with_material = 0;
};

Tally traceAtRandom(const bsp::Map& map, int count, uint32_t seed) {
    const physics::CollisionWorld world(map);
    std::mt19937 rng(seed);
    const glm::vec3 lo = map.worldMins(), hi = map.worldMaxs();
    std::uniform_real_distribution<float> ux(lo.x, hi.x), uy(lo.y, hi.y), uz(lo.z, hi.z);
    std::uniform_real_distribution<float> dir(-1.0f, 1.0f), len(0.0f, 1024.0f);
    Tally t;
    for (int i = 0; t.traced < count && i < 100 * count; ++i) {
        // Alternate the point (hull 0) and the player box (hull 1).
        const int32_t hull = i % 2;
        const bsp::HullSize box = world.hullSize(hull);
        const glm::vec3 start(ux(rng), uy(rng), uz(rng));
        glm::vec3 d(dir(rng), dir(rng), dir(rng));
        if (glm::length(d) < 1e-3f)
            d = glm::vec3(0, 0, -1);
        const glm::vec3 end = start + glm::normalize(d) * len(rng);
        if (world.pointContents(start, hull) & bsp::kMaskPlayerSolid) {
            ++t.skipped;
            continue;
        }
        const physics::TraceResult r = world.traceModel(0, start, end, box.mins, box.maxs);
        ++t.traced;
        if (r.fraction < 1.0f) {
            ++t.hits;
            EXPECT_LT(r.material, int32_t(map.materials.size()));
            t.hits_with_material += r.material >= 0;
        }
        EXPECT_FALSE(r.start_solid) << "trace " << i;
        EXPECT_GE(r.fraction, 0.0f);
        EXPECT_LE(r.fraction, 1.0f);
        // Clip hulls: the hull's contents at the end. Brushes: no brush holds the end, tested
        // as a trace that does not move (point contents read the leaf in Quake 2 and Source,
        // and qbsp3 brushbsp.c LeafNode gives a leaf the contents of every brush fragment in it,
        // so a leaf beside a clip brush reads as clip where no brush is).
        const uint32_t at_end =
            map.collision.kind == bsp::CollisionKind::Hulls
                ? world.pointContents(r.end_pos, hull)
                : (world.traceModel(0, r.end_pos, r.end_pos, box.mins, box.maxs).start_solid
                       ? bsp::kCollideSolid
                       : 0u);
        EXPECT_EQ(at_end & bsp::kMaskPlayerSolid, 0u)
            << map.name << " trace " << i << " hull " << hull << " from (" << start.x << ' '
            << start.y << ' ' << start.z << ") ends in solid at (" << r.end_pos.x << ' '
            << r.end_pos.y << ' ' << r.end_pos.z << ")";
        if (::testing::Test::HasFailure())
            break;
    }
    // The world (with brush models) as well: returns, never ends inside the world's solid.
    for (int i = 0; i < count / 4; ++i) {
        const glm::vec3 start(ux(rng), uy(rng), uz(rng)), end(ux(rng), uy(rng), uz(rng));
        const physics::TraceResult r = world.trace(start, end, glm::vec3(-8), glm::vec3(8));
        EXPECT_LE(r.fraction, 1.0f);
    }
    return t;
}

void checkMap(const std::string& spec, int count) {
    auto map = scene::loadMapSpec(spec);
    ASSERT_TRUE(map.ok()) << map.error().message();
    ASSERT_NE(map->collision.kind, bsp::CollisionKind::None);
    const Tally t = traceAtRandom(*map, count, 20);
    // Starts in the open were found for every trace, and enough of them met something.
    EXPECT_EQ(t.traced, count) << spec;
    EXPECT_GT(t.hits, t.traced / 10) << spec;
    // Brush maps name the surface hit (Quake 2 texinfo, Quake 3 shader); clip hulls cannot.
    if (map->collision.kind == bsp::CollisionKind::Brushes)
        EXPECT_GT(t.hits_with_material, t.hits / 2) << spec;
    else
        EXPECT_EQ(t.hits_with_material, 0) << spec;
}

std::string shared(const char* rel) {
    return std::string(BSPV_SHARED_MAPS_DIR) + "/" + rel;
}

} // namespace

TEST(CollisionMaps, Quake1RandomTracesEndOutsideSolid) {
    checkMap(shared("q1/lq_e1m1.bsp"), 4000);
}

TEST(CollisionMaps, HalfLifeRandomTracesEndOutsideSolid) {
    checkMap(shared("hl/cs_fy_pool_day.bsp"), 4000);
}

TEST(CollisionMaps, Quake2RandomTracesEndOutsideSolid) {
    checkMap(shared("q2/aq_urbanjungle.bsp"), 4000);
}

TEST(CollisionMaps, Quake3RandomTracesEndOutsideSolid) {
    checkMap(std::string(BSPV_OPENARENA_DIR) + "/pak1-maps.pk3:maps/oa_dm1.bsp", 4000);
}

TEST(CollisionMaps, SourceRandomTracesEndOutsideSolid) {
    checkMap(shared("source/tf2_mp_lobby.bsp"), 4000);
    checkMap(shared("source/momentum_mp_lobby.bsp"), 4000);
}

// tf2_mp_lobby: a room (-192..192 on every axis) sealed by six wall brushes 64 thick that do
// not overlap at the edges, so the columns at the room's edges outside it (x and y both
// 192..256) hold no brush. They are the void outside the map: leaves whose stored contents are
// CONTENTS_SOLID, which Source's point contents read (CM_PointContents). From the spawn point
// (in the room, not solid), traces in every direction, of the point and of the player box, end
// in the room, outside solid.
TEST(CollisionMaps, SourcePointContentsReadTheLeafAndTracesFromTheSpawnStayInTheRoom) {
    auto map = scene::loadMapSpec(shared("source/tf2_mp_lobby.bsp"));
    ASSERT_TRUE(map.ok()) << map.error().message();
    const physics::CollisionWorld world(*map);
    EXPECT_EQ(world.pointContents(glm::vec3(224, 224, 0)), bsp::kCollideSolid);
    EXPECT_EQ(world.pointContents(glm::vec3(-224, 224, 100)), bsp::kCollideSolid);
    EXPECT_EQ(world.pointContents(glm::vec3(0, 0, 0)), 0u);
    EXPECT_EQ(world.pointContents(glm::vec3(0, 0, 0), 1), 0u);
    EXPECT_EQ(world.pointContents(glm::vec3(0, 0, 200)), bsp::kCollideSolid); // the ceiling
    const std::vector<bsp::SpawnPoint> spawns = bsp::findSpawnPoints(*map);
    ASSERT_EQ(spawns.size(), 1u);
    const glm::vec3 spawn = spawns[0].origin;
    EXPECT_EQ(world.pointContents(spawn) & bsp::kMaskPlayerSolid, 0u);
    EXPECT_EQ(world.pointContents(spawn, 1) & bsp::kMaskPlayerSolid, 0u);
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> dir(-1.0f, 1.0f);
    int hits = 0;
    for (int i = 0; i < 2000; ++i) {
        glm::vec3 d(dir(rng), dir(rng), dir(rng));
        if (glm::length(d) < 1e-3f)
            continue;
        const int32_t hull = i % 2;
        const bsp::HullSize box = world.hullSize(hull);
        const physics::TraceResult t =
            world.trace(spawn, spawn + glm::normalize(d) * 1024.0f, box.mins, box.maxs);
        ASSERT_FALSE(t.start_solid);
        ASSERT_LT(t.fraction, 1.0f); // 1024 units always reach a wall
        hits += 1;
        ASSERT_EQ(world.pointContents(t.end_pos, hull) & bsp::kMaskPlayerSolid, 0u)
            << "trace " << i << " ends at " << t.end_pos.x << " " << t.end_pos.y << " "
            << t.end_pos.z;
        const glm::vec3 centre = t.end_pos + (box.mins + box.maxs) * 0.5f;
        ASSERT_LE(glm::compMax(glm::abs(centre)), 192.0f);
    }
    EXPECT_GT(hits, 1900);
}

// q2_mp_lobby, the same room compiled by Quake 2's qbsp: Quake 2's point contents are the
// leaf's too (cmodel.c CM_PointContents returns map_leafs[l].contents), so the void outside
// the walls, leaves stored CONTENTS_SOLID with no brush in them, is solid to a point.
TEST(CollisionMaps, Quake2PointContentsReadTheLeaf) {
    auto map = scene::loadMapSpec(shared("lobby/q2_mp_lobby.bsp"));
    ASSERT_TRUE(map.ok()) << map.error().message();
    const physics::CollisionWorld world(*map);
    ASSERT_EQ(map->collision.leaf_contents.size(), map->leaves.size());
    // Outside the walls (the world's bounds are +-200): no brush holds these points, so a trace
    // that does not move starts in the open, but their leaves are solid.
    for (const glm::vec3 p : {glm::vec3(224, 224, 0), glm::vec3(-224, 224, 100)}) {
        EXPECT_FALSE(world.traceModel(0, p, p, glm::vec3(0), glm::vec3(0)).start_solid);
        EXPECT_EQ(world.pointContents(p), bsp::kCollideSolid);
    }
    EXPECT_EQ(world.pointContents(glm::vec3(0, 0, 0)), 0u);
    EXPECT_EQ(world.pointContents(glm::vec3(0, 0, 0), 1), 0u);
    EXPECT_EQ(world.pointContents(glm::vec3(0, 0, 200)), bsp::kCollideSolid); // the ceiling
    const std::vector<bsp::SpawnPoint> spawns = bsp::findSpawnPoints(*map);
    ASSERT_FALSE(spawns.empty());
    EXPECT_EQ(world.pointContents(spawns[0].origin) & bsp::kMaskPlayerSolid, 0u);
}
