// Real Quake 3 family maps: the shared samples and OpenArena maps read from their pk3s.
// Counts were cross-checked with /work/shared/maps/bspcheck.py (see SOURCES.md).
#include "bsp/load.h"
#include "bsp/patch.h"
#include "game/profile.h"

#include <gtest/gtest.h>
#include <zip.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace {

const std::filesystem::path kQ3Dir = std::filesystem::path(BSPV_SHARED_MAPS_DIR) / "q3";
const std::filesystem::path kOaDir = BSPV_OPENARENA_DIR;

// One member of a zip archive, read whole; empty when missing. The content layer will own
// pk3 reading; this is only what the tests need.
std::vector<uint8_t> readZipMember(const std::filesystem::path& archive, const char* member) {
    std::vector<uint8_t> out;
    int err = 0;
    zip_t* z = zip_open(archive.c_str(), ZIP_RDONLY, &err);
    if (!z)
        return out;
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat(z, member, 0, &st) == 0 && (st.valid & ZIP_STAT_SIZE)) {
        if (zip_file_t* f = zip_fopen(z, member, 0)) {
            out.resize(static_cast<size_t>(st.size));
            const zip_int64_t n = zip_fread(f, out.data(), st.size);
            if (n < 0 || static_cast<zip_uint64_t>(n) != st.size)
                out.clear();
            zip_fclose(f);
        }
    }
    zip_close(z);
    return out;
}

core::Result<bsp::Map> loadFromPk3(const char* pk3, const char* member) {
    const std::vector<uint8_t> bytes = readZipMember(kOaDir / pk3, member);
    if (bytes.empty())
        return core::makeError(core::ErrorCode::NotFound, pk3, -1, member, "member missing");
    return bsp::loadMap(bytes, member);
}

int countKind(const bsp::Map& m, bsp::FaceKind kind) {
    return static_cast<int>(std::count_if(m.faces.begin(), m.faces.end(),
                                          [&](const bsp::Face& f) { return f.kind == kind; }));
}

bool hasWarning(const bsp::Map& map, std::string_view part) {
    return std::any_of(map.warnings.begin(), map.warnings.end(),
                       [&](const std::string& w) { return w.find(part) != std::string::npos; });
}

// Invariants every loaded map must satisfy, whatever its source.
void checkConsistent(const bsp::Map& m) {
    SCOPED_TRACE(m.name);
    ASSERT_FALSE(m.faces.empty());
    ASSERT_FALSE(m.submodels.empty());
    for (const bsp::Face& f : m.faces) {
        ASSERT_LE(uint64_t{f.first_vertex} + f.num_vertices, m.vertices.size());
        ASSERT_LE(uint64_t{f.first_index} + f.num_indices, m.indices.size());
        ASSERT_EQ(f.num_indices % 3, 0u);
        for (uint32_t k = 0; k < f.num_indices; ++k) {
            const uint32_t v = m.indices[f.first_index + k];
            ASSERT_GE(v, f.first_vertex);
            ASSERT_LT(v, f.first_vertex + f.num_vertices);
        }
        ASSERT_GE(f.material, 0);
        ASSERT_LT(size_t(f.material), m.materials.size());
        ASSERT_LT(f.lightmap_page, int32_t(m.lightmap_pages.size()));
        ASSERT_LT(f.fog, int32_t(m.fogs.size()));
        ASSERT_LT(size_t(f.submodel), m.submodels.size());
        if (f.kind == bsp::FaceKind::Patch) {
            ASSERT_TRUE(bsp::validPatchSize(f.patch_width, f.patch_height));
            ASSERT_EQ(f.num_vertices, uint32_t(f.patch_width) * f.patch_height);
        }
    }
    for (uint32_t f : m.leaf_faces)
        ASSERT_LT(f, m.faces.size());
    for (const bsp::Leaf& l : m.leaves)
        ASSERT_LE(uint64_t{l.first_leaf_face} + l.num_leaf_faces, m.leaf_faces.size());
    for (const bsp::Submodel& s : m.submodels)
        ASSERT_LE(uint64_t{s.first_face} + s.num_faces, m.faces.size());
    for (const bsp::LightmapPage& p : m.lightmap_pages)
        ASSERT_EQ(p.rgb.size(), size_t(m.lightmap_width) * m.lightmap_height * 3);
    if (m.vis.present()) {
        ASSERT_EQ(m.vis.rows.size(), size_t(m.vis.num_clusters) * m.vis.row_size);
        for (const bsp::Leaf& l : m.leaves)
            ASSERT_LT(l.cluster, m.vis.num_clusters);
    }
    EXPECT_EQ(game::profileFor(m).rules.light.overbright, 1);
    EXPECT_FALSE(m.entities.empty());
    EXPECT_EQ(m.lumps.size(), 17u);
}

// Tessellates every patch and checks the counts against patchTriangleCount.
size_t tessellateAll(const bsp::Map& m, int level) {
    size_t triangles = 0;
    for (const bsp::Face& f : m.faces) {
        if (f.kind != bsp::FaceKind::Patch)
            continue;
        const std::span<const bsp::Vertex> ctrl(m.vertices.data() + f.first_vertex, f.num_vertices);
        const bsp::PatchMesh mesh =
            bsp::tessellatePatch(ctrl, f.patch_width, f.patch_height, level);
        EXPECT_EQ(mesh.indices.size(),
                  3 * bsp::patchTriangleCount(f.patch_width, f.patch_height, level));
        triangles += mesh.indices.size() / 3;
    }
    return triangles;
}

} // namespace

TEST(Q3Maps, EverySharedSampleLoads) {
    ASSERT_TRUE(std::filesystem::is_directory(kQ3Dir)) << kQ3Dir;
    int loaded = 0;
    for (const auto& entry : std::filesystem::directory_iterator(kQ3Dir)) {
        if (entry.path().extension() != ".bsp")
            continue;
        const auto r = bsp::loadMapFile(entry.path());
        ASSERT_TRUE(r) << r.error().message();
        checkConsistent(*r);
        ++loaded;
    }
    EXPECT_EQ(loaded, 4); // bc_crypt, bc_enemyTest, two FBSP samples
}

TEST(Q3Maps, CryptHas22Patches) {
    const auto r = bsp::loadMapFile(kQ3Dir / "bc_crypt.bsp");
    ASSERT_TRUE(r) << r.error().message();
    const bsp::Map& m = *r;
    EXPECT_EQ(m.format, bsp::Format::Quake3);
    EXPECT_EQ(m.faces.size(), 384u);
    EXPECT_EQ(countKind(m, bsp::FaceKind::Patch), 22);
    EXPECT_EQ(countKind(m, bsp::FaceKind::Polygon), 362);
    EXPECT_EQ(m.submodels.size(), 41u);
    EXPECT_EQ(m.materials.size(), 9u);
    EXPECT_EQ(m.lightmap_pages.size(), 6u);
    EXPECT_EQ(m.lightmap_width, 128);
    EXPECT_TRUE(m.vis.present());
    EXPECT_EQ(m.entities.size(), 117u);
    EXPECT_TRUE(m.warnings.empty());
    EXPECT_GT(tessellateAll(m, 4), 0u);
}

TEST(Q3Maps, EnemyTest) {
    const auto r = bsp::loadMapFile(kQ3Dir / "bc_enemyTest.bsp");
    ASSERT_TRUE(r) << r.error().message();
    EXPECT_EQ(r->faces.size(), 30u);
    EXPECT_EQ(r->lightmap_pages.size(), 2u);
    EXPECT_EQ(r->submodels.size(), 5u);
}

TEST(Q3Maps, FbspSkyCameraSkipsType256) {
    const auto r = bsp::loadMapFile(kQ3Dir / "fbsp_nuclide_sky_camera.bsp");
    ASSERT_TRUE(r) << r.error().message();
    const bsp::Map& m = *r;
    EXPECT_EQ(m.format, bsp::Format::Qfusion);
    EXPECT_EQ(m.lumps[10].record_size, 80u);  // vertexes
    EXPECT_EQ(m.lumps[13].record_size, 148u); // faces
    EXPECT_EQ(m.faces.size(), 25u);           // 26 stored, one of type 256
    EXPECT_TRUE(hasWarning(m, "unknown type 256"));
    EXPECT_EQ(countKind(m, bsp::FaceKind::Patch), 3);
    EXPECT_EQ(m.lightmap_width, 512);
    EXPECT_EQ(m.lightmap_height, 512);
    EXPECT_EQ(m.lightmap_pages.size(), 2u);
    EXPECT_TRUE(m.vis.present());
    // The compiler found no shader scripts, so the sky carries no SURF_SKY flag: only its name
    // (the content layer's shader parser supplies the flag).
    ASSERT_EQ(m.materials.size(), 6u);
    EXPECT_EQ(m.materials[1].name, "textures/skies/yukongold");
    EXPECT_EQ(m.materials[1].game_contents, 1u);
    EXPECT_GT(tessellateAll(m, 8), 0u);
}

TEST(Q3Maps, FbspFuncChargersHasNoLightmapsOrVis) {
    const auto r = bsp::loadMapFile(kQ3Dir / "fbsp_nuclide_func_chargers.bsp");
    ASSERT_TRUE(r) << r.error().message();
    EXPECT_EQ(r->format, bsp::Format::Qfusion);
    EXPECT_EQ(r->faces.size(), 22u);
    EXPECT_TRUE(r->lightmap_pages.empty());
    EXPECT_FALSE(r->vis.present());
    for (const bsp::Face& f : r->faces)
        EXPECT_EQ(f.lightmap_page, -1);
}

TEST(Q3Maps, OaCtf2IsVertexLitWithoutVis) {
    const auto r = loadFromPk3("pak1-maps.pk3", "maps/oa_ctf2.bsp");
    ASSERT_TRUE(r) << r.error().message();
    const bsp::Map& m = *r;
    checkConsistent(m);
    EXPECT_EQ(m.faces.size(), 1366u);
    for (const bsp::Face& f : m.faces)
        ASSERT_EQ(f.lightmap_page, -1);
    EXPECT_TRUE(m.lightmap_pages.empty());
    EXPECT_FALSE(m.vis.present());
    EXPECT_EQ(countKind(m, bsp::FaceKind::Patch), 42);
    EXPECT_EQ(countKind(m, bsp::FaceKind::Billboard), 34);
}

TEST(Q3Maps, OaDm5MixedSurfaces) {
    const auto r = loadFromPk3("pak1-maps.pk3", "maps/oa_dm5.bsp");
    ASSERT_TRUE(r) << r.error().message();
    const bsp::Map& m = *r;
    checkConsistent(m);
    EXPECT_EQ(countKind(m, bsp::FaceKind::Patch), 124);
    EXPECT_EQ(countKind(m, bsp::FaceKind::Mesh), 53);
    EXPECT_EQ(countKind(m, bsp::FaceKind::Billboard), 32);
    EXPECT_EQ(m.lightmap_pages.size(), 6u);
    EXPECT_EQ(m.vis.num_clusters, 584);
    EXPECT_EQ(m.vis.row_size, 80);
    EXPECT_EQ(std::count_if(m.materials.begin(), m.materials.end(),
                            [](const bsp::Material& mat) { return mat.flags & bsp::kSurfSky; }),
              1);
    EXPECT_GT(tessellateAll(m, 4), 0u);
}

TEST(Q3Maps, OacmpDm1Has732Patches) {
    const auto r = loadFromPk3("z_oacmp-volume1-v3.pk3", "maps/oacmpdm1.bsp");
    ASSERT_TRUE(r) << r.error().message();
    const bsp::Map& m = *r;
    checkConsistent(m);
    EXPECT_EQ(countKind(m, bsp::FaceKind::Patch), 732);
    EXPECT_EQ(m.fogs.size(), 1u);
    EXPECT_EQ(m.lightmap_pages.size(), 12u);
    EXPECT_GT(tessellateAll(m, 4), 732u * 32);
}

TEST(Q3Maps, CtfCompromiseHas102LightmapPages) {
    const auto r = loadFromPk3("pak6-patch085.pk3", "maps/ctf_compromise.bsp");
    ASSERT_TRUE(r) << r.error().message();
    const bsp::Map& m = *r;
    checkConsistent(m);
    EXPECT_EQ(m.lightmap_pages.size(), 102u);
    EXPECT_EQ(m.faces.size(), 4628u);
    EXPECT_TRUE(m.vis.present());
    EXPECT_EQ(m.vis.rows.size() + 8, 1426344u); // the whole lump after its header
}

TEST(Q3Maps, AmThornishSoupsAndFlares) {
    const auto r = loadFromPk3("pak6-patch088.pk3", "maps/am_thornish.bsp");
    ASSERT_TRUE(r) << r.error().message();
    const bsp::Map& m = *r;
    checkConsistent(m);
    EXPECT_EQ(countKind(m, bsp::FaceKind::Patch), 520);
    EXPECT_EQ(countKind(m, bsp::FaceKind::Mesh), 226);
    EXPECT_EQ(countKind(m, bsp::FaceKind::Billboard), 135);
    // Flares keep their position in one vertex of their own.
    for (const bsp::Face& f : m.faces) {
        if (f.kind == bsp::FaceKind::Billboard) {
            ASSERT_EQ(f.num_vertices, 1u);
        }
    }
}
