// The real portal files of ../shared/maps (lobby/, source/; see SOURCES.md section 9): each
// parses in its form with the counts the file states, and every cluster a portal joins is a
// cluster of the matching map. A missing file fails.
#include "bsp/load.h"
#include "content/compile/portal_file.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace fs = std::filesystem;
using content::PortalFormat;

namespace {

const fs::path kMaps = BSPV_SHARED_MAPS_DIR;

struct Expected {
    const char* prt;
    const char* bsp; // nullptr: no parser for the map's format (Source)
    PortalFormat format;
    uint32_t clusters, portals, faces;
};

// Counts read off the files' headers by hand (`head -4`), the formats from their first lines.
const Expected kFiles[] = {
    {"lobby/q1_mp_lobby.prt", "lobby/q1_mp_lobby.bsp", PortalFormat::Prt1, 1, 0, 0},
    {"lobby/bsp2_mp_lobby.prt", "lobby/bsp2_mp_lobby.bsp", PortalFormat::Prt1, 1, 0, 0},
    {"lobby/q2_mp_lobby.prt", "lobby/q2_mp_lobby.bsp", PortalFormat::Prt1, 4, 4, 0},
    {"lobby/q3_mp_lobby.prt", "lobby/q3_mp_lobby.bsp", PortalFormat::Prt1Q3, 8, 12, 24},
    {"source/momentum_mp_lobby.prt", nullptr, PortalFormat::Prt1, 4, 4, 0},
    {"source/tf2_test_physcollide.prt", nullptr, PortalFormat::Prt1, 16, 32, 0},
};

} // namespace

TEST(PortalFileMaps, RealFilesParseWithTheirCounts) {
    for (const Expected& e : kFiles) {
        SCOPED_TRACE(e.prt);
        auto prt = content::loadPortalFile(kMaps / e.prt);
        ASSERT_TRUE(prt.ok()) << prt.error().message();
        EXPECT_EQ(prt->format, e.format);
        EXPECT_EQ(prt->num_clusters, e.clusters);
        EXPECT_EQ(prt->portals.size(), e.portals);
        EXPECT_EQ(prt->faces.size(), e.faces);
        EXPECT_EQ(prt->hintPortals(), 0u);
        EXPECT_EQ(prt->file, fs::path(e.prt).filename().string());
        // Every winding of these hand-made levels is an axis-aligned quad.
        for (const content::Portal& p : prt->portals) {
            EXPECT_EQ(p.num_points, 4u);
            EXPECT_NE(p.a, p.b);
        }
    }
}

TEST(PortalFileMaps, ClustersFitTheMatchingMap) {
    for (const Expected& e : kFiles) {
        if (!e.bsp)
            continue;
        SCOPED_TRACE(e.prt);
        auto prt = content::loadPortalFile(kMaps / e.prt);
        ASSERT_TRUE(prt.ok()) << prt.error().message();
        auto map = bsp::loadMapFile(kMaps / e.bsp);
        ASSERT_TRUE(map.ok()) << map.error().message();
        ASSERT_TRUE(map->vis.present());
        // The header's count is at most the map's clusters (Quake 1's are all leaves but the
        // shared solid one, of which PRT1 counts the visleafs)...
        EXPECT_LE(prt->num_clusters, static_cast<uint32_t>(map->vis.num_clusters));
        // ...and every portal joins two of them.
        for (const content::Portal& p : prt->portals) {
            EXPECT_LT(p.a, static_cast<uint32_t>(map->vis.num_clusters));
            EXPECT_LT(p.b, static_cast<uint32_t>(map->vis.num_clusters));
        }
        for (const content::PortalFace& f : prt->faces)
            EXPECT_LT(f.cluster, static_cast<uint32_t>(map->vis.num_clusters));
    }
}

TEST(PortalFileMaps, Q3LobbyPortalsJoinTheEightOctants) {
    // mp_lobby's q3map2 file: 8 clusters (the octants of a 384-unit cube around the origin),
    // each touching 3 others: 8 * 3 / 2 = 12 portals, and 3 solid faces per cluster.
    auto prt = content::loadPortalFile(kMaps / "lobby/q3_mp_lobby.prt");
    ASSERT_TRUE(prt.ok()) << prt.error().message();
    std::vector<int> degree(8, 0), faces(8, 0);
    for (const content::Portal& p : prt->portals) {
        ++degree[p.a];
        ++degree[p.b];
    }
    for (const content::PortalFace& f : prt->faces)
        ++faces[f.cluster];
    EXPECT_EQ(degree, std::vector<int>(8, 3));
    EXPECT_EQ(faces, std::vector<int>(8, 3));
    // The first portal as written: "4 0 4 0 (0 0 0 ) (0 0 192 ) (0 192 192 ) (0 192 0 )".
    const content::Portal& p0 = prt->portals[0];
    EXPECT_EQ(p0.a, 0u);
    EXPECT_EQ(p0.b, 4u);
    EXPECT_EQ(prt->points[p0.first_point + 2], glm::vec3(0, 192, 192));
}
