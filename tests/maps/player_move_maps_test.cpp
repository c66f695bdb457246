// Walking on real maps of each family: from every spawn point, 3 s of game time forward along
// the spawn's yaw. The player never ends a tick inside solid (the box test of the map's own
// collision, and the point test at the origin) and never drops below the map's bounds.
#include "scene/player_move.h"

#include "bsp/entities.h"
#include "scene/map_bundle.h"

#include <gtest/gtest.h>

#include <string>

namespace {

void walkFromEverySpawn(const std::string& spec) {
    auto map = scene::loadMapSpec(spec);
    ASSERT_TRUE(map.ok()) << map.error().message();
    const scene::CollisionWorld world(*map);
    const scene::PlayerMove move(world, scene::moveRulesFor(map->collision));
    const std::vector<bsp::SpawnPoint> spawns = bsp::findSpawnPoints(*map);
    ASSERT_FALSE(spawns.empty()) << spec;
    const float floor = map->worldMins().z;
    int walked = 0, moved = 0;
    for (const bsp::SpawnPoint& sp : spawns) {
        // Intermission cameras are views, not player starts: lq_e1m1's sit in walls.
        if (sp.classname.find("intermission") != std::string::npos)
            continue;
        scene::PlayerState s;
        s.origin = sp.origin;
        ASSERT_TRUE(move.settle(s)) << spec << " " << sp.classname << " starts in solid";
        ++walked;
        const scene::MoveInput in{1.0f, 0.0f, sp.yaw, false, false};
        for (int tick = 0; tick < 180; ++tick) {
            move.tick(s, in);
            ASSERT_TRUE(move.fits(s)) << spec << " " << sp.classname << " tick " << tick;
            ASSERT_EQ(world.pointContents(s.origin) & bsp::kMaskPlayerSolid, 0u)
                << spec << " " << sp.classname << " tick " << tick;
            ASSERT_GE(s.origin.z, floor) << spec << " tick " << tick;
        }
        moved += glm::length(s.origin - sp.origin) > 32.0f;
    }
    // Most spawns lead somewhere more than a box width away.
    EXPECT_GT(walked, 0) << spec;
    EXPECT_GE(moved, walked * 3 / 4) << spec;
}

std::string shared(const char* rel) {
    return std::string(BSPV_SHARED_MAPS_DIR) + "/" + rel;
}

} // namespace

TEST(PlayerMoveMaps, Quake1WalksFromEverySpawn) {
    walkFromEverySpawn(shared("q1/lq_e1m1.bsp"));
}

TEST(PlayerMoveMaps, HalfLifeWalksFromEverySpawn) {
    walkFromEverySpawn(shared("hl/cs_fy_pool_day.bsp"));
}

TEST(PlayerMoveMaps, Quake2WalksFromEverySpawn) {
    walkFromEverySpawn(shared("q2/aq_urbanjungle.bsp"));
}

TEST(PlayerMoveMaps, Quake3WalksFromEverySpawn) {
    walkFromEverySpawn(std::string(BSPV_OPENARENA_DIR) + "/pak1-maps.pk3:maps/oa_dm1.bsp");
}
