// Walking on real maps of each family: from every spawn point, 3 s of game time forward along
// the spawn's yaw. The player never ends a tick inside solid (the box test of the map's own
// collision, and the point test at the origin) and never drops below the map's bounds.
#include "physics/player_move.h"

#include "bsp/entities.h"
#include "bsp/patch.h"
#include "bsp/tree.h"
#include "scene/load/map_bundle.h"

#include <gtest/gtest.h>

#include <string>

namespace {

void walkFromEverySpawn(const std::string& spec) {
    auto map = scene::loadMapSpec(spec);
    ASSERT_TRUE(map.ok()) << map.error().message();
    const physics::CollisionWorld world(*map);
    const physics::PlayerMove move(world, physics::moveRulesFor(map->collision));
    const std::vector<bsp::SpawnPoint> spawns = bsp::findSpawnPoints(*map);
    ASSERT_FALSE(spawns.empty()) << spec;
    const float floor = map->worldMins().z;
    int walked = 0, moved = 0;
    for (const bsp::SpawnPoint& sp : spawns) {
        // Intermission cameras are views, not player starts: lq_e1m1's sit in walls.
        if (sp.classname.find("intermission") != std::string::npos)
            continue;
        physics::PlayerState s;
        s.origin = sp.origin;
        ASSERT_TRUE(move.settle(s)) << spec << " " << sp.classname << " starts in solid";
        ++walked;
        const physics::MoveInput in{1.0f, 0.0f, sp.yaw, false, false};
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

// oa_shouse's curved floors (Quake 3 patches, collided as cm_patch.c does; oa_dm1 has none): on
// every patch in the playable map whose middle faces up enough to stand on (normal z >= 0.7071,
// where a player from 40 units above the middle is not stuck), the player dropped lands on
// the patch: its feet within SUBDIVIDE_DISTANCE (16) below the curve, or above it by at most
// 16 plus the box's reach on the slope (15 x tan 45 degrees). Without patch collision most of
// them fall through. Walking 1 s from there, the player never sinks below the patch's lowest
// control point (the facets lie inside the control points' hull) while over the patch.
TEST(PlayerMoveMaps, Quake3WalksOnCurvedFloors) {
    auto map =
        scene::loadMapSpec(std::string(BSPV_OPENARENA_DIR) + "/pak1-maps.pk3:maps/oa_shouse.bsp");
    ASSERT_TRUE(map.ok()) << map.error().message();
    const physics::CollisionWorld world(*map);
    bsp::Map without = *map;
    without.collision.material_contents.clear();
    const physics::CollisionWorld no_patches(without);
    const physics::PlayerMove move(world, physics::moveRulesFor(map->collision));
    const glm::vec3 mins(-15, -15, -24), maxs(15, 15, 32);
    int floors = 0, fell_through = 0, walked = 0;
    for (const bsp::Face& f : map->faces) {
        if (f.kind != bsp::FaceKind::Patch ||
            !(map->collision.material_contents[size_t(f.material)] & bsp::kCollideSolid))
            continue;
        const std::span<const bsp::Vertex> controls(map->vertices.data() + f.first_vertex,
                                                    f.num_vertices);
        // Level 2 puts a vertex on the curve at the patch's middle (row h / 2, column w / 2).
        const bsp::PatchMesh mesh =
            bsp::tessellatePatch(controls, f.patch_width, f.patch_height, 2);
        ASSERT_EQ(mesh.vertices.size(), size_t(f.patch_width) * f.patch_height);
        const bsp::Vertex& mid =
            mesh.vertices[size_t(f.patch_height / 2) * f.patch_width + f.patch_width / 2];
        if (mid.normal.z < 0.7071f)
            continue;
        const glm::vec3 start = mid.position + glm::vec3(0, 0, 40);
        const int32_t leaf = bsp::pointLeaf(*map, start);
        if (leaf < 0 || map->leaves[size_t(leaf)].cluster < 0 || // outside the playable map
            world.pointContents(start, 1) & bsp::kMaskPlayerSolid ||
            world.trace(start, start, mins, maxs).start_solid)
            continue;
        ++floors;
        const glm::vec3 down = mid.position - glm::vec3(0, 0, 256);
        const physics::TraceResult t = world.trace(start, down, mins, maxs);
        const float feet = t.end_pos.z - 24.0f;
        EXPECT_GE(feet, mid.position.z - 16.0f)
            << "patch at " << mid.position.x << " " << mid.position.y;
        EXPECT_LE(feet, mid.position.z + 16.0f + 15.0f)
            << "patch at " << mid.position.x << " " << mid.position.y;
        fell_through +=
            no_patches.trace(start, down, mins, maxs).end_pos.z - 24.0f < mid.position.z - 16.0f;

        float lowest = controls[0].position.z;
        glm::vec2 lo(controls[0].position), hi(controls[0].position);
        for (const bsp::Vertex& v : controls) {
            lowest = std::min(lowest, v.position.z);
            lo = glm::min(lo, glm::vec2(v.position));
            hi = glm::max(hi, glm::vec2(v.position));
        }
        physics::PlayerState s;
        s.origin = t.end_pos;
        ASSERT_TRUE(move.settle(s));
        const physics::MoveInput in{1.0f, 0.0f, 0.0f, false, false};
        for (int tick = 0; tick < 60; ++tick) {
            move.tick(s, in);
            const glm::vec2 xy(s.origin);
            if (glm::any(glm::lessThan(xy, lo)) || glm::any(glm::greaterThan(xy, hi)))
                break;
            ASSERT_GE(s.origin.z - 24.0f, lowest - 1.0f)
                << "patch at " << mid.position.x << " " << mid.position.y << " tick " << tick;
        }
        ++walked;
    }
    EXPECT_GE(floors, 10);
    EXPECT_EQ(walked, floors);
    EXPECT_GE(fell_through, floors / 2);
    std::printf("oa_shouse: %d patch floors, %d fall through without patch collision\n", floors,
                fell_through);
}

// How far the collision facets lie from the drawn curve on oa_ctf2: from every vertex of every
// patch tessellated at level 8 (points on the curve), a point is traced along the vertex normal,
// from 20 in front to 20 behind, against that patch's facets alone. Every trace meets them
// (their front is the drawn front) but a few, and no vertex is 16 or more from them.
TEST(PlayerMoveMaps, Quake3PatchFacetsStayWithinTheFlatnessOfTheCurve) {
    auto map =
        scene::loadMapSpec(std::string(BSPV_OPENARENA_DIR) + "/pak1-maps.pk3:maps/oa_ctf2.bsp");
    ASSERT_TRUE(map.ok()) << map.error().message();
    float worst = 0.0f, sum = 0.0f;
    size_t samples = 0, missed = 0, patches = 0, facets = 0;
    std::vector<glm::vec3> points;
    for (const bsp::Face& f : map->faces) {
        if (f.kind != bsp::FaceKind::Patch)
            continue;
        const std::span<const bsp::Vertex> controls(map->vertices.data() + f.first_vertex,
                                                    f.num_vertices);
        points.clear();
        for (const bsp::Vertex& v : controls)
            points.push_back(v.position);
        const physics::PatchCollide pc =
            physics::buildPatchCollide(points, f.patch_width, f.patch_height);
        ++patches;
        facets += pc.facets.size();
        const bsp::PatchMesh mesh =
            bsp::tessellatePatch(controls, f.patch_width, f.patch_height, 8);
        for (const bsp::Vertex& v : mesh.vertices) {
            const glm::vec3 n = glm::normalize(v.normal);
            float fraction = 1.0f;
            bsp::Plane plane;
            ++samples;
            if (!physics::tracePatch(pc, v.position + 20.0f * n, v.position - 20.0f * n,
                                     glm::vec3(0.0f), 0.0f, fraction, plane)) {
                ++missed;
                continue;
            }
            const float off = std::fabs(20.0f - 40.0f * fraction);
            worst = std::max(worst, off);
            sum += off;
        }
    }
    std::printf("oa_ctf2: %zu patches, %zu facets, %zu samples, %zu missed, distance to the "
                "facets mean %.2f max %.2f\n",
                patches, facets, samples, missed, double(sum / float(samples - missed)),
                double(worst));
    EXPECT_GT(patches, 0u);
    // Misses: thin pipe trims (a few units across), whose facets lie farther than 20 units from
    // their curve along some normals or face away from them.
    EXPECT_LE(missed * 50, samples);
    EXPECT_LT(worst, 16.0f);
}

// momentum_mp_lobby's info_player_start is at (0 0 0); the floor under it is brush 0, a solid
// (CONTENTS_SOLID) box whose top plane is z = -192 (read off the map's planes 18/19 lumps by
// hand). Source's box starts at the feet, so the player lands with the origin on that plane,
// kept DIST_EPSILON (1/32) above it at most.
TEST(PlayerMoveMaps, SourceDropsToTheFloorBelowTheSpawn) {
    auto map = scene::loadMapSpec(shared("source/momentum_mp_lobby.bsp"));
    ASSERT_TRUE(map.ok()) << map.error().message();
    ASSERT_EQ(map->collision.kind, bsp::CollisionKind::Brushes);
    const physics::CollisionWorld world(*map);
    const physics::PlayerMove move(world, physics::moveRulesFor(map->collision));
    EXPECT_STREQ(move.rules().game, "source");
    physics::PlayerState s;
    s.origin = glm::vec3(0.0f);
    ASSERT_TRUE(move.dropToFloor(s, 256.0f));
    EXPECT_GE(s.origin.z, -192.0f);
    EXPECT_LE(s.origin.z, -192.0f + 0.03125f + 1e-3f);
    EXPECT_FLOAT_EQ(s.origin.x, 0.0f);
    EXPECT_FLOAT_EQ(s.origin.y, 0.0f);
}

// Source displacements collide as their drawn triangles (physics/disp_collide.h). On the shared
// maps with displacements, a player dropped from 40 units above each grid point whose normal
// faces up (z >= 0.7) lands with its feet (the box's bottom) on the terrain: no lower than the
// grid point under its centre and no higher than the highest triangle corner under its 32 x 32
// footprint; without displacement collision it falls through to the brushes below. From there
// it walks 1 s and never ends a tick inside solid or below the displacement's lowest point while
// over it.
TEST(PlayerMoveMaps, SourceStandsAndWalksOnDisplacements) {
    for (const char* name : {"source/tf2_test_displacement.bsp", "source/tf2_test2.bsp"}) {
        auto map = scene::loadMapSpec(shared(name));
        ASSERT_TRUE(map.ok()) << map.error().message();
        ASSERT_FALSE(map->collision.displacements.empty()) << name;
        const physics::CollisionWorld world(*map);
        bsp::Map without = *map;
        without.collision.displacements.clear();
        const physics::CollisionWorld no_disps(without);
        const physics::PlayerMove move(world, physics::moveRulesFor(map->collision));
        const glm::vec3 mins = map->collision.hulls[1].mins, maxs = map->collision.hulls[1].maxs;
        ASSERT_EQ(mins, glm::vec3(-16, -16, 0));
        int landed = 0;
        for (const bsp::DisplacementCollision& d : map->collision.displacements) {
            const bsp::Face& f = map->faces[d.face];
            float lowest = INFINITY;
            glm::vec2 lo(INFINITY), hi(-INFINITY);
            for (uint32_t v = 0; v < f.num_vertices; ++v) {
                const glm::vec3& p = map->vertices[f.first_vertex + v].position;
                lowest = std::min(lowest, p.z);
                lo = glm::min(lo, glm::vec2(p));
                hi = glm::max(hi, glm::vec2(p));
            }
            for (uint32_t v = 0; v < f.num_vertices; ++v) {
                const bsp::Vertex& g = map->vertices[f.first_vertex + v];
                if (g.normal.z < 0.7f)
                    continue;
                const glm::vec3 start = g.position + glm::vec3(0, 0, 40);
                if (world.trace(start, start, mins, maxs).start_solid)
                    continue;
                const glm::vec3 down = g.position - glm::vec3(0, 0, 256);
                // Something other than the displacement above the point: not this test's case.
                if (no_disps.trace(start, down, mins, maxs).end_pos.z > g.position.z - 1.0f)
                    continue;
                // The highest corner of the triangles under the footprint.
                float top = -INFINITY;
                for (uint32_t i = 0; i < f.num_indices; i += 3) {
                    glm::vec3 tlo(INFINITY), thi(-INFINITY);
                    for (uint32_t k = 0; k < 3; ++k) {
                        const glm::vec3& p =
                            map->vertices[map->indices[f.first_index + i + k]].position;
                        tlo = glm::min(tlo, p);
                        thi = glm::max(thi, p);
                    }
                    if (tlo.x <= g.position.x + 16 && thi.x >= g.position.x - 16 &&
                        tlo.y <= g.position.y + 16 && thi.y >= g.position.y - 16)
                        top = std::max(top, thi.z);
                }
                const physics::TraceResult t = world.trace(start, down, mins, maxs);
                EXPECT_GE(t.end_pos.z, g.position.z)
                    << name << " at " << g.position.x << " " << g.position.y << " " << g.position.z;
                EXPECT_LE(t.end_pos.z, top + 0.05f)
                    << name << " at " << g.position.x << " " << g.position.y << " " << g.position.z;
                EXPECT_GE(t.plane.normal.z, 0.7f);
                ++landed;
                physics::PlayerState s;
                s.origin = t.end_pos;
                ASSERT_TRUE(move.settle(s));
                const physics::MoveInput in{1.0f, 0.0f, 45.0f, false, false};
                for (int tick = 0; tick < 60; ++tick) {
                    move.tick(s, in);
                    ASSERT_TRUE(move.fits(s)) << name << " tick " << tick;
                    const glm::vec2 xy(s.origin);
                    if (glm::any(glm::lessThan(xy, lo)) || glm::any(glm::greaterThan(xy, hi)))
                        continue;
                    ASSERT_GE(s.origin.z, lowest - 1.0f) << name << " tick " << tick;
                }
            }
        }
        EXPECT_GE(landed, 20) << name;
        std::printf("%s: %d grid points landed on\n", name, landed);
    }
}

TEST(PlayerMoveMaps, SourceWalksFromEverySpawn) {
    walkFromEverySpawn(shared("source/momentum_mp_lobby.bsp"));
    walkFromEverySpawn(shared("source/tf2_mp_lobby.bsp"));
}
