// Real Quake 1 family, Half-Life and Quake 2 maps: every one loads and agrees with bspcheck.py.
#include "bsp/edge_faces.h"
#include "bsp/load.h"
#include "bsp/tree.h"
#include "core/file.h"
#include "game/profile.h"

#include <glm/geometric.hpp>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>

namespace fs = std::filesystem;

namespace {

const fs::path kMaps = BSPV_SHARED_MAPS_DIR;

std::vector<fs::path> mapsIn(const char* dir) {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(kMaps / dir))
        if (e.path().extension() == ".bsp")
            out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

// Runs bspcheck.py --json and pulls an integer from its "stats" object.
struct BspCheck {
    std::string json;
    explicit BspCheck(const fs::path& p) {
        const std::string cmd =
            "python3 '" + (kMaps / "bspcheck.py").string() + "' --json '" + p.string() + "'";
        FILE* f = popen(cmd.c_str(), "r");
        if (!f)
            return;
        char buf[4096];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, f)) > 0)
            json.append(buf, n);
        pclose(f);
    }
    long stat(const std::string& key) const {
        const size_t s = json.find("\"stats\"");
        const size_t k = json.find("\"" + key + "\": ", s);
        if (s == std::string::npos || k == std::string::npos)
            return -1;
        return std::stol(json.substr(k + key.size() + 4));
    }
};

void checkCommon(const bsp::Map& map, const fs::path& path) {
    SCOPED_TRACE(path.string());
    ASSERT_FALSE(map.submodels.empty());
    for (const bsp::Face& f : map.faces) {
        ASSERT_LE(uint64_t(f.first_vertex) + f.num_vertices, map.vertices.size());
        ASSERT_LE(uint64_t(f.first_index) + f.num_indices, map.indices.size());
        for (uint32_t i = 0; i < f.num_indices; ++i) {
            const uint32_t v = map.indices[f.first_index + i];
            ASSERT_GE(v, f.first_vertex);
            ASSERT_LT(v, f.first_vertex + f.num_vertices);
        }
        ASSERT_GE(f.material, 0);
        ASSERT_LT(size_t(f.material), map.materials.size());
        if (f.lightmap_page >= 0) {
            ASSERT_LT(size_t(f.lightmap_page), map.lightmap_pages.size());
            ASSERT_LE(f.lightmap_rect.x + f.lightmap_rect.w, map.lightmap_width);
            ASSERT_LE(f.lightmap_rect.y + f.lightmap_rect.h, map.lightmap_height);
        }
    }
    for (const bsp::LightmapPage& p : map.lightmap_pages)
        ASSERT_EQ(p.rgb.size(), size_t(map.lightmap_width) * map.lightmap_height * 3);
    for (const uint32_t lf : map.leaf_faces)
        ASSERT_LT(lf, map.faces.size());
    for (const bsp::Material& m : map.materials)
        if (m.anim_next >= 0) {
            ASSERT_LT(size_t(m.anim_next), map.materials.size());
        }
    // Camera at a spawn-like point inside the world resolves to a leaf.
    const glm::vec3 centre = (map.worldMins() + map.worldMaxs()) * 0.5f;
    const int32_t leaf = bsp::pointLeaf(map, centre);
    ASSERT_GE(leaf, 0);
    ASSERT_LT(size_t(leaf), map.leaves.size());
}

void crossCheck(const bsp::Map& map, const fs::path& path) {
    SCOPED_TRACE(path.string());
    const BspCheck check(path);
    ASSERT_FALSE(check.json.empty()) << "bspcheck.py did not run";
    EXPECT_EQ(long(map.faces.size()), check.stat("faces"));
    EXPECT_EQ(long(map.leaves.size()), check.stat("leafs"));
    EXPECT_EQ(long(map.submodels.size()), check.stat("models"));
    EXPECT_EQ(long(map.nodes.size()), check.stat("nodes"));
    EXPECT_EQ(long(map.planes.size()), check.stat("planes"));
}

int countLitFaces(const bsp::Map& map) {
    int n = 0;
    for (const bsp::Face& f : map.faces)
        n += f.lightmap_page >= 0;
    return n;
}

} // namespace

TEST(Quake1Maps, EveryMapLoadsAndMatchesBspcheck) {
    int loaded = 0;
    for (const char* dir : {"q1", "q1bsp2", "hl", "q2"})
        for (const fs::path& p : mapsIn(dir)) {
            if (p.filename() == "broken_lq_fw.bsp")
                continue;
            auto r = bsp::loadMapFile(p);
            ASSERT_TRUE(r.ok()) << r.error().message();
            checkCommon(*r, p);
            crossCheck(*r, p);
            ++loaded;
        }
    EXPECT_EQ(loaded, 5 + 1 + 4 + 3);
}

TEST(Quake1Maps, BrokenFileIsUnknownFormat) {
    auto r = bsp::loadMapFile(kMaps / "q1/broken_lq_fw.bsp");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, core::ErrorCode::UnknownFormat);
}

TEST(Quake1Maps, CubeHasBspxAndNoLighting) {
    auto r = bsp::loadMapFile(kMaps / "q1/ew_q1_cube.bsp");
    ASSERT_TRUE(r.ok()) << r.error().message();
    ASSERT_EQ(r->extra_lumps.size(), 1u);
    EXPECT_EQ(r->extra_lumps[0].name, "BRUSHLIST");
    EXPECT_EQ(countLitFaces(*r), 0);
    EXPECT_FALSE(r->vis.present());
    EXPECT_EQ(r->embedded_textures.size(), 2u);
}

TEST(Quake1Maps, SpeedmapHasNoVisAndLitColour) {
    auto r = bsp::loadMapFile(kMaps / "q1/mt_sm214_mrtaufner.bsp");
    ASSERT_TRUE(r.ok()) << r.error().message();
    EXPECT_FALSE(r->vis.present());
    EXPECT_TRUE(r->vis.visible(3, 700));
    ASSERT_GT(countLitFaces(*r), 1000);
    long coloured = 0;
    for (const auto& page : r->lightmap_pages)
        for (size_t i = 0; i + 2 < page.rgb.size(); i += 3)
            coloured += page.rgb[i] != page.rgb[i + 1] || page.rgb[i + 1] != page.rgb[i + 2];
    EXPECT_GT(coloured, 1000);

    // Without the .lit the same map is grey.
    auto bytes = core::readFile(kMaps / "q1/mt_sm214_mrtaufner.bsp");
    ASSERT_TRUE(bytes.ok());
    auto grey = bsp::loadMap(*bytes, "mt_sm214_mrtaufner.bsp");
    ASSERT_TRUE(grey.ok());
    for (const auto& page : grey->lightmap_pages)
        for (size_t i = 0; i + 2 < page.rgb.size(); i += 3)
            ASSERT_TRUE(page.rgb[i] == page.rgb[i + 1] && page.rgb[i + 1] == page.rgb[i + 2]);
}

TEST(Quake1Maps, StartMapFeatures) {
    auto r = bsp::loadMapFile(kMaps / "q1/lq_start.bsp");
    ASSERT_TRUE(r.ok()) << r.error().message();
    EXPECT_TRUE(r->vis.present());
    EXPECT_EQ(r->vis.num_clusters, int32_t(r->leaves.size()) - 1);
    EXPECT_EQ(r->leaves[0].cluster, -1);
    EXPECT_EQ(r->leaves[0].contents, bsp::kContentsSolid);
    int sky = 0, liquid = 0, fence = 0, anim = 0;
    for (const bsp::Material& m : r->materials) {
        sky += (m.flags & bsp::kSurfSky) != 0;
        liquid += (m.flags & bsp::kSurfLiquid) != 0;
        fence += (m.flags & bsp::kSurfAlphaTest) != 0;
        anim += m.anim_next >= 0;
        if (m.flags & bsp::kSurfLiquid) {
            EXPECT_TRUE(m.flags & bsp::kSurfFullbright);
        }
        if (m.embedded >= 0) {
            const auto& t = r->embedded_textures[size_t(m.embedded)];
            EXPECT_EQ(t.indices.size(), size_t(m.width) * size_t(m.height));
        }
    }
    EXPECT_GE(sky, 1);
    EXPECT_EQ(liquid, 3);
    EXPECT_EQ(fence, 18);
    EXPECT_GE(anim, 2);
    EXPECT_GT(countLitFaces(*r), 100);
    // Visibility is not all-or-nothing.
    int hidden = 0;
    for (int32_t c = 0; c < r->vis.num_clusters; c += 7)
        hidden += !r->vis.visible(0, c);
    EXPECT_GT(hidden, 0);
}

TEST(Quake1Maps, Bsp29AndBsp2OfTheSameLevelAgree) {
    auto a = bsp::loadMapFile(kMaps / "q1/lq_e1m1.bsp");
    auto b = bsp::loadMapFile(kMaps / "q1bsp2/lq_lq1m1.bsp");
    ASSERT_TRUE(a.ok()) << a.error().message();
    ASSERT_TRUE(b.ok()) << b.error().message();
    EXPECT_EQ(a->format, bsp::Format::Quake1);
    EXPECT_EQ(b->format, bsp::Format::Quake1Bsp2);
    auto near = [](double x, double y, double tol) { return std::abs(x - y) <= tol * y; };
    EXPECT_TRUE(near(double(a->faces.size()), double(b->faces.size()), 0.05));
    EXPECT_TRUE(near(double(a->vertices.size()), double(b->vertices.size()), 0.05));
    EXPECT_EQ(a->submodels.size(), b->submodels.size());
    for (int k = 0; k < 3; ++k) {
        EXPECT_NEAR(a->worldMins()[k], b->worldMins()[k], 64.0f);
        EXPECT_NEAR(a->worldMaxs()[k], b->worldMaxs()[k], 64.0f);
    }
    // 134 miptex slots, 18 unused.
    int unnamed = 0;
    for (const auto& m : a->materials)
        unnamed += m.name.empty();
    EXPECT_EQ(a->materials.size(), 134u);
    EXPECT_EQ(unnamed, 18);
    // Doors get their owning entity.
    int owned = 0;
    for (const auto& sm : a->submodels)
        owned += sm.entity >= 0;
    EXPECT_GE(owned, 53);
}

TEST(Quake1Maps, UnalignedLumps) {
    auto r = bsp::loadMapFile(kMaps / "q1/pd_lava.bsp");
    ASSERT_TRUE(r.ok()) << r.error().message();
    EXPECT_EQ(r->submodels.size(), 10u);
    EXPECT_TRUE(r->vis.present());
}

TEST(HalfLifeMaps, WadListsAreBaseNames) {
    auto r = bsp::loadMapFile(kMaps / "hl/cs_awp_india.bsp");
    ASSERT_TRUE(r.ok()) << r.error().message();
    const std::vector<std::string> wads = game::profileFor(*r).materials.wads;
    ASSERT_FALSE(wads.empty());
    for (const std::string& w : wads) {
        EXPECT_EQ(w.find('\\'), std::string::npos) << w;
        EXPECT_EQ(w.find('/'), std::string::npos) << w;
        EXPECT_EQ(core::toLower(w).substr(w.size() - 4), ".wad") << w;
    }
    int fence = 0;
    for (const auto& m : r->materials) {
        fence += (m.flags & bsp::kSurfAlphaTest) != 0;
        if (m.embedded >= 0) {
            EXPECT_EQ(r->embedded_textures[size_t(m.embedded)].palette.size(), 768u);
        }
    }
    EXPECT_GE(fence, 1);

    auto w = bsp::loadMapFile(kMaps / "hl/freehl_test_weapons.bsp");
    ASSERT_TRUE(w.ok()) << w.error().message();
    EXPECT_EQ(game::profileFor(*w).materials.wads,
              (std::vector<std::string>{"decals.wad", "halflife.wad", "liquids.wad", "xeno.wad"}));
    EXPECT_TRUE(w->embedded_textures.empty()); // all three are external
    EXPECT_GT(countLitFaces(*w), 0);

    auto pool = bsp::loadMapFile(kMaps / "hl/cs_fy_pool_day.bsp");
    ASSERT_TRUE(pool.ok());
    EXPECT_TRUE(game::profileFor(*pool).materials.wads.empty()); // empty key
    EXPECT_EQ(pool->embedded_textures.size(), 29u);
}

TEST(HalfLifeMaps, TrainrideModelsLiquidsAndTriggers) {
    auto r = bsp::loadMapFile(kMaps / "hl/jf_trainride2.bsp");
    ASSERT_TRUE(r.ok()) << r.error().message();
    EXPECT_EQ(r->submodels.size(), 165u);
    int liquid = 0, fence = 0;
    for (const auto& m : r->materials) {
        liquid += (m.flags & bsp::kSurfLiquid) != 0 && m.name[0] == '!';
        fence += (m.flags & bsp::kSurfAlphaTest) != 0;
    }
    EXPECT_EQ(liquid, 1);
    EXPECT_EQ(fence, 2);

    auto pool = bsp::loadMapFile(kMaps / "hl/cs_fy_pool_day.bsp");
    ASSERT_TRUE(pool.ok());
    bool trigger_nodraw = false;
    for (const auto& m : pool->materials)
        if (m.name == "aaatrigger")
            trigger_nodraw = (m.flags & bsp::kSurfNoDraw) != 0;
    EXPECT_TRUE(trigger_nodraw);
}

TEST(Quake1Maps, TriggerTextureIsNoDraw) {
    auto r = bsp::loadMapFile(kMaps / "q1/lq_e1m1.bsp");
    ASSERT_TRUE(r.ok());
    int found = 0;
    for (const auto& m : r->materials)
        if (m.name == "trigger") {
            ++found;
            EXPECT_TRUE(m.flags & bsp::kSurfNoDraw);
        }
    EXPECT_EQ(found, 1);
    int invisible = 0;
    for (const auto& sm : r->submodels)
        invisible += !sm.visible;
    EXPECT_GT(invisible, 0); // trigger_* models
}

TEST(Quake2Maps, CreditsHasNoLighting) {
    auto r = bsp::loadMapFile(kMaps / "q2/aq_credits.bsp");
    ASSERT_TRUE(r.ok()) << r.error().message();
    EXPECT_EQ(r->format, bsp::Format::Quake2);
    ASSERT_EQ(r->faces.size(), 340u);
    for (const bsp::Face& f : r->faces)
        ASSERT_EQ(f.lightmap_page, -1);
    EXPECT_TRUE(r->lightmap_pages.empty());
    EXPECT_TRUE(r->vis.present());
    EXPECT_FALSE(r->areas.empty());
    for (const bsp::Leaf& l : r->leaves)
        ASSERT_LT(l.cluster, r->vis.num_clusters);
}

TEST(Quake2Maps, UrbanJungleNamesFlagsAndLighting) {
    auto r = bsp::loadMapFile(kMaps / "q2/aq_urbanjungle.bsp");
    ASSERT_TRUE(r.ok()) << r.error().message();
    bool mixed_case = false;
    int sky = 0, warp = 0, trans = 0, flowing = 0;
    for (const bsp::Material& m : r->materials) {
        mixed_case |= m.name.starts_with("HcPeura/");
        sky += (m.flags & bsp::kSurfSky) != 0;
        warp += (m.flags & bsp::kSurfLiquid) != 0;
        trans += (m.flags & bsp::kSurfTranslucent) != 0;
        flowing += (m.flags & bsp::kSurfFlowing) != 0;
        EXPECT_TRUE(m.uv_in_texels);
        if (m.flags & bsp::kSurfTranslucent) {
            EXPECT_TRUE(m.alpha == 0.333f || m.alpha == 0.666f) << m.alpha;
        }
    }
    EXPECT_TRUE(mixed_case);
    EXPECT_GT(sky, 0);
    EXPECT_GT(warp, 0);
    EXPECT_GT(trans, 0);
    EXPECT_GT(flowing, 0);
    EXPECT_GT(countLitFaces(*r), 1000);
    for (const bsp::Face& f : r->faces) {
        const auto& m = r->materials[size_t(f.material)];
        if (m.flags & (bsp::kSurfSky | bsp::kSurfLiquid | bsp::kSurfTranslucent)) {
            ASSERT_EQ(f.lightmap_page, -1);
        }
    }
    EXPECT_TRUE(r->vis.present());
    int hidden = 0;
    for (int32_t c = 0; c < r->vis.num_clusters; c += 5)
        hidden += !r->vis.visible(0, c);
    EXPECT_GT(hidden, 0);
    // Texel uv are turned into repeats by the scene (tests/unit/material_table_test.cpp).
}

TEST(Quake2Maps, WizsSubmodelsAndTranslucency) {
    auto r = bsp::loadMapFile(kMaps / "q2/aq_wizs.bsp");
    ASSERT_TRUE(r.ok()) << r.error().message();
    EXPECT_EQ(r->submodels.size(), 25u);
    int t33 = 0, t66 = 0;
    for (const auto& m : r->materials) {
        t33 += m.alpha == 0.333f;
        t66 += m.alpha == 0.666f;
    }
    EXPECT_GT(t33 + t66, 0);
}

// Triangles are wound clockwise seen from the face's front (the Quake 3 convention as well).
TEST(Quake1Maps, WindingIsClockwiseFromTheFront) {
    for (const char* name : {"q1/lq_start.bsp", "hl/cs_awp_india.bsp", "q2/aq_wizs.bsp"}) {
        auto r = bsp::loadMapFile(kMaps / name);
        ASSERT_TRUE(r.ok()) << name;
        int cw = 0, ccw = 0;
        for (const bsp::Face& f : r->faces)
            for (uint32_t i = 0; i + 2 < f.num_indices; i += 3) {
                const glm::vec3& a = r->vertices[r->indices[f.first_index + i]].position;
                const glm::vec3& b = r->vertices[r->indices[f.first_index + i + 1]].position;
                const glm::vec3& c = r->vertices[r->indices[f.first_index + i + 2]].position;
                const glm::vec3 n = glm::cross(b - a, c - a);
                if (glm::length(n) < 1e-3f)
                    continue; // collinear fan triangles
                (glm::dot(n, f.normal) < 0.0f ? cw : ccw) += 1;
            }
        EXPECT_GT(cw, 1000) << name;
        EXPECT_LT(ccw, cw / 100 + 1) << name;
    }
}

// Which liquid each leaf holds (bsp::LeafContents), as counted from the files' leaf lumps
// (Quake 1 contents -3 water, -4 slime, -5 lava; Quake 2 bits 8 lava, 16 slime, 32 water).
TEST(Quake1Maps, LeavesNameTheirLiquid) {
    struct Case {
        const char* map;
        int water, slime, lava;
    };
    for (const Case& c :
         {Case{"q1/lq_e1m1.bsp", 104, 114, 0}, Case{"q1/pd_lava.bsp", 1, 0, 67},
          Case{"q1/mt_sm214_mrtaufner.bsp", 28, 0, 51}, Case{"q2/aq_urbanjungle.bsp", 234, 0, 0}}) {
        auto r = bsp::loadMapFile(kMaps / c.map);
        ASSERT_TRUE(r.ok()) << r.error().message();
        int water = 0, slime = 0, lava = 0;
        for (const bsp::Leaf& l : r->leaves) {
            const bool liquid = (l.contents & bsp::kContentsLiquid) != 0;
            // Slime and lava are only ever set with the liquid bit.
            EXPECT_TRUE(liquid || !(l.contents & (bsp::kContentsSlime | bsp::kContentsLava)));
            water += liquid && !(l.contents & (bsp::kContentsSlime | bsp::kContentsLava));
            slime += (l.contents & bsp::kContentsSlime) != 0;
            lava += (l.contents & bsp::kContentsLava) != 0;
        }
        EXPECT_EQ(water, c.water) << c.map;
        EXPECT_EQ(slime, c.slime) << c.map;
        EXPECT_EQ(lava, c.lava) << c.map;
    }
}
