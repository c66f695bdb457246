// Nexuiz 2.5 maps (Debian nexuiz-data, GPL): lit by q3map2 with -deluxe -lightmapsize 512, so
// their lightmaps are external images (maps/NAME/lm_NNNN.tga in data.pk3) and interleave light
// and direction maps. scripts/install-deps.sh --test installs the package; without it these tests
// fail, naming the package.
#include "scene/load/map_bundle.h"
#include "scene/world/lightmap_set.h"

#include "content/vfs/vfs.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace {

const std::filesystem::path kNexuizData = "/usr/share/games/nexuiz/data/data.pk3";

#define REQUIRE_NEXUIZ()                                                                           \
    ASSERT_TRUE(std::filesystem::exists(kNexuizData))                                              \
        << kNexuizData << " not found: apt-get install nexuiz-data"

} // namespace

TEST(NexuizMaps, AccidentDrawsWithItsExternalLightAndDirectionMaps) {
    REQUIRE_NEXUIZ();
    auto r = scene::loadMapBundle(kNexuizData.string() + ":maps/accident.bsp", {});
    ASSERT_TRUE(r) << r.error().message();
    const scene::MapBundle& b = **r;
    EXPECT_EQ(b.map.lightmap_storage, bsp::LightmapStorage::External);
    const scene::LightmapSet& set = b.lightmaps;
    // maps/accident/lm_0000.tga ... lm_0015.tga, 512x512: eight light / direction pairs.
    ASSERT_EQ(set.files.size(), 16u);
    EXPECT_EQ(set.files.front(), "maps/accident/lm_0000.tga");
    EXPECT_EQ(set.pages.size(), 8u);
    EXPECT_EQ(set.deluxe.size(), 8u);
    EXPECT_EQ(set.width, 512);
    EXPECT_EQ(set.height, 512);
    EXPECT_EQ(scene::facesWithoutPages(b.map, set), 0);
    // Every lit face's vertices carry a layer of the array.
    size_t lit = 0;
    for (size_t i = 0; i < b.map.faces.size(); ++i) {
        const scene::MeshFace& mf = b.mesh.faces[i];
        if (b.map.faces[i].lightmap_page < 0 || mf.num_indices == 0)
            continue;
        ++lit;
        const float layer = b.mesh.vertices[b.mesh.indices[mf.first_index]].lm_layer;
        EXPECT_EQ(layer, static_cast<float>(b.map.faces[i].lightmap_page / 2)) << i;
    }
    EXPECT_GT(lit, 1000u);
}

TEST(NexuizMaps, EveryMapWithExternalLightmapsGetsAllItsPages) {
    REQUIRE_NEXUIZ();
    content::FileSystem fs;
    ASSERT_TRUE(fs.addArchive(kNexuizData));
    int external = 0;
    for (const std::string& name : fs.list("maps/", ".bsp")) {
        auto map = scene::loadMapSpec(kNexuizData.string() + ":" + name);
        ASSERT_TRUE(map) << map.error().message();
        if (map->lightmap_storage != bsp::LightmapStorage::External)
            continue;
        ++external;
        std::vector<std::string> warnings;
        const std::string base = name.substr(0, name.size() - 4);
        const scene::LightmapSet set = scene::loadLightmapSet(*map, fs, base, &warnings);
        EXPECT_FALSE(set.pages.empty()) << name;
        EXPECT_EQ(scene::facesWithoutPages(*map, set), 0) << name;
        EXPECT_TRUE(warnings.empty()) << name << ": " << warnings.front();
    }
    // 37 of the 40 maps (the others: two test maps with internal pages and _init, unlit).
    EXPECT_EQ(external, 37);
}
