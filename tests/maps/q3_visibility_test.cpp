// Real Quake 3 maps through the whole GL-free pipeline: parse, mesh, visibility from every
// spawn point.
#include "bsp/entities.h"
#include "scene/load/map_bundle.h"
#include "scene/view/visibility.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace {

struct MapCase {
    const char* spec; // relative to the shared maps folder or the OpenArena folder
    bool openarena;
    bool has_vis;
    double max_pvs_fraction; // of all faces, summed over spawns (1: open map, no claim)
};

std::string fullSpec(const MapCase& c) {
    return std::string(c.openarena ? BSPV_OPENARENA_DIR : BSPV_SHARED_MAPS_DIR) + "/" + c.spec;
}

class Q3Maps : public ::testing::TestWithParam<MapCase> {};

TEST_P(Q3Maps, EverySpawnPointGivesANonEmptyDrawListAndPvsCulls) {
    const MapCase c = GetParam();
    auto map = scene::loadMapSpec(fullSpec(c));
    ASSERT_TRUE(map.ok()) << map.error().message();
    const auto spawns = bsp::findSpawnPoints(*map);
    ASSERT_FALSE(spawns.empty());
    const scene::WorldMesh mesh = scene::buildWorldMesh(*map);
    ASSERT_GT(mesh.drawable_faces, 0u);
    EXPECT_EQ(map->vis.present(), c.has_vis);

    scene::Visibility vis(*map, mesh);
    scene::DrawList list;
    uint64_t drawn = 0, pvs_only = 0, total = 0;
    for (const bsp::SpawnPoint& s : spawns) {
        scene::Camera cam;
        cam.position = s.origin + glm::vec3(0, 0, 26);
        cam.yaw = s.yaw;
        scene::VisOptions classify;
        classify.classify = true;
        vis.update(cam, classify, list);
        EXPECT_EQ(list.stats.drawn_world + list.stats.culled_pvs + list.stats.culled_frustum,
                  list.stats.faces_considered);
        EXPECT_GT(list.stats.faces_drawn, 0u)
            << s.classname << " at " << s.origin.x << "," << s.origin.y << "," << s.origin.z;
        EXPECT_GE(list.stats.camera_cluster, c.has_vis ? 0 : -1);
        drawn += list.stats.faces_drawn;
        total += list.stats.faces_total;
        // PVS alone (no frustum) from the same spot.
        scene::VisOptions pvs_only_opts;
        pvs_only_opts.frustum = false;
        vis.update(cam, pvs_only_opts, list);
        pvs_only += list.stats.faces_drawn;
    }
    // Inside closed rooms the PVS alone must already draw well under everything.
    const double fraction = static_cast<double>(pvs_only) / static_cast<double>(total);
    std::printf("%s: %zu spawns, PVS draws %.3f of the faces, PVS+frustum %.3f\n", c.spec,
                spawns.size(), fraction, static_cast<double>(drawn) / static_cast<double>(total));
    EXPECT_LE(fraction, c.max_pvs_fraction);
    EXPECT_LE(drawn, pvs_only); // the frustum only ever removes faces
}

INSTANTIATE_TEST_SUITE_P(
    Real, Q3Maps,
    ::testing::Values(MapCase{"q3/bc_crypt.bsp", false, true, 1.0},
                      MapCase{"q3/bc_enemyTest.bsp", false, true, 1.0},
                      MapCase{"pak1-maps.pk3:maps/oa_dm5.bsp", true, true, 0.5},
                      MapCase{"pak1-maps.pk3:maps/oa_ctf2.bsp", true, false, 1.0},
                      MapCase{"pak1-maps.pk3:maps/oa_dm1.bsp", true, true, 0.5},
                      MapCase{"z_oacmp-volume1-v3.pk3:maps/oacmpdm1.bsp", true, true, 0.5},
                      MapCase{"pak6-patch088.pk3:maps/am_thornish.bsp", true, true, 1.0},
                      MapCase{"pak6-patch085.pk3:maps/ctf_compromise.bsp", true, true, 0.5}),
    [](const ::testing::TestParamInfo<MapCase>& param_info) {
        std::string name = param_info.param.spec;
        name = name.substr(name.find_last_of("/:") + 1);
        for (char& ch : name)
            if (!isalnum(static_cast<unsigned char>(ch)))
                ch = '_';
        return name;
    });

} // namespace
