// The shared Source studio models (../shared/models/source/wire: Apache-2.0 Wiremod models;
// ../shared/models/source/momentum and the map folder mom_background_01: Momentum Mod's) load
// with exact counts. The expected numbers were derived independently of bspview's readers by
// tools/source_model_counts.py (a Python reader written from the SDK 2013 headers: per LOD, the
// distinct origMeshVertID of the triangles' corners and the triangle-list lengths / 3), and the
// .vvd LOD vertex counts and skin tables match ../shared/maps/SOURCES.md section 12.
#include "content/model/source_model.h"
#include "content/vfs/vfs.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <utility>

namespace {

const std::filesystem::path kModels =
    std::filesystem::path(BSPV_SHARED_MAPS_DIR) / ".." / "models" / "source";

content::SourceModel loadFrom(const std::filesystem::path& folder, std::string_view path) {
    content::FileSystem fs;
    EXPECT_TRUE(fs.addDirectory(folder).ok()) << folder;
    auto m = content::loadSourceModel(fs, path);
    EXPECT_TRUE(m.ok()) << path << ": " << (m ? "" : m.error().message());
    return m ? std::move(*m) : content::SourceModel{};
}

// (vertices, triangles) of each LOD of body 0.
std::vector<std::pair<uint32_t, uint32_t>> lodCounts(const content::SourceModel& m) {
    std::vector<std::pair<uint32_t, uint32_t>> out;
    for (uint32_t lod = 0; lod < content::sourceLodCount(m); ++lod) {
        const content::ModelMesh mesh = content::buildSourceModelMesh(m, 0, lod);
        out.emplace_back(mesh.vertex_count, uint32_t(mesh.indices.size() / 3));
    }
    return out;
}

using Counts = std::vector<std::pair<uint32_t, uint32_t>>;

} // namespace

TEST(SourceModels, WireHologramLods) {
    const content::SourceModel torus = loadFrom(kModels / "wire", "models/holograms/hq_torus.mdl");
    EXPECT_EQ(torus.mdl.version, 48);
    EXPECT_EQ(torus.vvd.lod_count, 5u);
    EXPECT_EQ(std::vector<uint32_t>(torus.vvd.lod_vertex_counts.begin(),
                                    torus.vvd.lod_vertex_counts.begin() + 5),
              (std::vector<uint32_t>{2154, 1634, 1107, 585, 585}));
    EXPECT_EQ(lodCounts(torus),
              (Counts{{1625, 3072}, {1105, 2048}, {845, 1536}, {585, 1024}, {585, 1024}}));
    // $cdmaterials "Holograms\" meets the lower-case folder.
    ASSERT_EQ(torus.materials.size(), 1u);
    EXPECT_EQ(torus.materials[0].path, "materials/holograms/hologram.vmt");

    const content::SourceModel sphere =
        loadFrom(kModels / "wire", "models/holograms/hq_sphere.mdl");
    EXPECT_EQ(lodCounts(sphere), (Counts{{2151, 3968}, {563, 960}, {153, 224}, {153, 224}}));
    EXPECT_EQ(sphere.vvd.lod_vertex_counts[1], 593u);
}

TEST(SourceModels, WireLogicGateFourteenSkins) {
    const content::SourceModel m = loadFrom(kModels / "wire", "models/bull/gates/logic.mdl");
    EXPECT_EQ(lodCounts(m), (Counts{{118, 92}}));
    ASSERT_EQ(m.mdl.skin_families.size(), 14u);
    EXPECT_EQ(m.mdl.skin_refs, 19u);
    EXPECT_EQ(m.mdl.texture_dirs, (std::vector<std::string>{"bull\\gates\\", "beer\\wiremod\\"}));
    ASSERT_EQ(m.materials.size(), 19u);
    // Texture 4 is named "," and has no material; texture 3 is in the second folder.
    EXPECT_EQ(m.materials[4].name, ",");
    EXPECT_TRUE(m.materials[4].path.empty());
    EXPECT_EQ(m.materials[3].path, "materials/beer/wiremod/gate_prongs.vmt");
    ASSERT_TRUE(m.materials[3].vmt.has_value());
    EXPECT_TRUE(m.materials[3].vmt->translucent);
    EXPECT_TRUE(m.materials[3].vmt->nocull);
    // Skin 1 puts texture 5 (gate_logic_or) in slot 0, which mesh 0 draws.
    const content::ModelMesh mesh = content::buildSourceModelMesh(m, 0, 0);
    EXPECT_EQ(mesh.ranges[0].material, 0u);
    EXPECT_EQ(mesh.materials[mesh.skin_materials[1][0]], "materials/bull/gates/gate_logic_or.vmt");
    size_t found = 0;
    for (const auto& mat : m.materials)
        found += !mat.path.empty();
    EXPECT_EQ(found, 18u);
}

TEST(SourceModels, WireVersion44AndMissingMaterials) {
    const content::SourceModel e2 = loadFrom(kModels / "wire", "models/beer/wiremod/gate_e2.mdl");
    EXPECT_EQ(e2.mdl.version, 44);
    EXPECT_EQ(lodCounts(e2), (Counts{{72, 44}}));
    ASSERT_EQ(e2.materials.size(), 4u);
    EXPECT_EQ(e2.materials[3].name, "blkmetal");
    EXPECT_TRUE(e2.materials[3].path.empty());
    for (size_t i = 0; i < 3; ++i)
        EXPECT_FALSE(e2.materials[i].path.empty()) << e2.materials[i].name;

    const content::SourceModel card =
        loadFrom(kModels / "wire", "models/cheeze/wires/wireless_card.mdl");
    EXPECT_EQ(card.mdl.version, 44);
    EXPECT_EQ(lodCounts(card), (Counts{{517, 415}}));
    ASSERT_EQ(card.mdl.bones.size(), 11u);
    for (const auto& b : card.mdl.bones)
        EXPECT_EQ(b.parent, -1) << b.name;
    EXPECT_EQ(card.materials[0].name, "PC66_RAM_module4");
    EXPECT_TRUE(card.materials[0].path.empty());
    EXPECT_EQ(card.vtx_path, "models/cheeze/wires/wireless_card.dx90.vtx");
}

TEST(SourceModels, WireBonesSequencesAndMaterialFlags) {
    const content::SourceModel gyro =
        loadFrom(kModels / "wire", "models/bull/various/gyroscope.mdl");
    EXPECT_EQ(lodCounts(gyro), (Counts{{1665, 1124}}));
    ASSERT_EQ(gyro.mdl.bones.size(), 5u);
    const char* names[] = {"base", "outer", "middle", "inner", "wheel"};
    for (size_t i = 0; i < 5; ++i) {
        EXPECT_EQ(gyro.mdl.bones[i].name, names[i]);
        EXPECT_EQ(gyro.mdl.bones[i].parent, int32_t(i) - 1);
    }
    EXPECT_EQ(gyro.mdl.sequences, (std::vector<std::string>{"idle", "auto_pitch", "auto_yaw",
                                                            "auto_roll", "autospin"}));

    const content::SourceModel plug = loadFrom(kModels / "wire", "models/wingf0x/ethernetplug.mdl");
    EXPECT_EQ(lodCounts(plug), (Counts{{255, 138}}));
    ASSERT_EQ(plug.materials.size(), 4u);
    EXPECT_TRUE(plug.materials[0].vmt && plug.materials[0].vmt->translucent); // seethrough
    EXPECT_TRUE(plug.materials[2].vmt && plug.materials[2].vmt->alphatest);   // copper

    const content::SourceModel socket =
        loadFrom(kModels / "wire", "models/fasteroid/plugs/sd_card_socket.mdl");
    EXPECT_EQ(lodCounts(socket), (Counts{{1221, 843}}));
    EXPECT_EQ(socket.mdl.texture_dirs.size(), 3u);
    EXPECT_EQ(socket.materials[0].tried.size(), 2u); // the repeated folder tried once

    const content::SourceModel cd = loadFrom(kModels / "wire", "models/venompapa/wirecd_small.mdl");
    EXPECT_EQ(lodCounts(cd), (Counts{{694, 944}}));
    EXPECT_EQ(cd.mdl.skin_families.size(), 9u);
}

TEST(SourceModels, MomentumFifteenWayBodyGroup) {
    const content::SourceModel m =
        loadFrom(kModels / "momentum", "models/player/player_shape_base.mdl");
    EXPECT_EQ(m.mdl.name, "player/bhop_lt_map/player_shape_base.mdl");
    EXPECT_EQ(m.mdl.bones.size(), 27u);
    EXPECT_EQ(m.mdl.sequences.size(), 3u);
    ASSERT_EQ(m.mdl.body_parts.size(), 2u);
    EXPECT_EQ(m.mdl.body_parts[1].name, "shape_bg");
    ASSERT_EQ(m.mdl.body_parts[1].models.size(), 15u);
    const Counts expected = {{20, 8},     {16, 6},     {23, 10}, {24, 12},  {24, 12},
                             {18, 8},     {21, 8},     {30, 16}, {36, 20},  {60, 36},
                             {1802, 960}, {1760, 960}, {60, 20}, {189, 65}, {291, 124}};
    for (int32_t body = 0; body < 15; ++body) {
        const content::ModelMesh mesh = content::buildSourceModelMesh(m, body, 0);
        EXPECT_EQ(mesh.vertex_count, expected[size_t(body)].first) << body;
        EXPECT_EQ(mesh.indices.size() / 3, expected[size_t(body)].second) << body;
    }
    // Skin 1 puts dev_wireframe in slot 0; both are under models\props\dev_nyro\.
    ASSERT_EQ(m.mdl.skin_families.size(), 2u);
    const content::ModelMesh mesh = content::buildSourceModelMesh(m, 3, 0);
    EXPECT_EQ(mesh.materials[mesh.skin_materials[0][0]],
              "materials/models/props/dev_nyro/dev_gray-21.vmt");
    EXPECT_EQ(mesh.materials[mesh.skin_materials[1][0]],
              "materials/models/props/dev_nyro/dev_wireframe.vmt");
    EXPECT_EQ(m.vtx_path, "models/player/player_shape_base.dx90.vtx");
}

TEST(SourceModels, MomentumHologramAdditiveUnlit) {
    const content::SourceModel m =
        loadFrom(kModels / "momentum", "models/props/gameplay/mom_capturepoint_hologram.mdl");
    EXPECT_EQ(content::buildSourceModelMesh(m, 0, 0).indices.size() / 3, 504u);
    EXPECT_EQ(content::buildSourceModelMesh(m, 0, 0).vertex_count, 679u);
    EXPECT_EQ(content::buildSourceModelMesh(m, 1, 0).indices.size() / 3, 1356u);
    EXPECT_EQ(content::buildSourceModelMesh(m, 1, 0).vertex_count, 966u);
    EXPECT_EQ(m.mdl.skin_families.size(), 4u);
    ASSERT_EQ(m.materials.size(), 5u);
    // "capturepoint" in the model, "capturePoint" on disk: found without regard to case.
    ASSERT_TRUE(m.materials[0].vmt.has_value()) << m.materials[0].error;
    const content::Vmt& vmt = *m.materials[0].vmt;
    EXPECT_EQ(vmt.shader, "unlittwotexture");
    EXPECT_TRUE(content::vmtUnlit(vmt));
    EXPECT_TRUE(vmt.additive);
    EXPECT_TRUE(vmt.nocull);
}

TEST(SourceModels, SakuraTreeOfTheMapFolder) {
    const std::filesystem::path game =
        std::filesystem::path(BSPV_SHARED_MAPS_DIR) / "source" / "mom_background_01";
    const content::SourceModel m = loadFrom(game, "models/props_japan/sakura_tree01b.mdl");
    EXPECT_EQ(m.mdl.checksum, 1076700840);
    EXPECT_EQ(lodCounts(m), (Counts{{959, 1164}}));
    EXPECT_EQ(m.vtx_path, "models/props_japan/sakura_tree01b.dx90.vtx");
    ASSERT_EQ(m.mdl.skin_families.size(), 3u);
    ASSERT_EQ(m.materials.size(), 7u);
    for (const auto& mat : m.materials) {
        ASSERT_TRUE(mat.vmt.has_value()) << mat.name << ": " << mat.error;
        EXPECT_EQ(mat.vmt->shader, "vertexlitgeneric") << mat.name;
    }
    EXPECT_TRUE(m.materials[1].vmt->alphatest);
    EXPECT_TRUE(m.materials[1].vmt->nocull);
    // Family 2 swaps the branches for the "c" variants.
    const content::ModelMesh mesh = content::buildSourceModelMesh(m, 0, 0);
    EXPECT_EQ(mesh.materials[mesh.skin_materials[2][1]],
              "materials/models/props_japan/sakura_branch01c.vmt");
}

// The LOD switch points the engine keeps (body part 0, model 0 of the .vtx; read independently
// from the files' bytes at the SDK 2013 optimize.h offsets with a few lines of Python), the last
// one the shadow LOD's -1, and the shadow LOD's flag (0x40) in the .mdl's flags.
TEST(SourceModels, WireHologramSwitchPoints) {
    const content::SourceModel torus = loadFrom(kModels / "wire", "models/holograms/hq_torus.mdl");
    EXPECT_EQ(content::sourceLodSwitchPoints(torus),
              (std::vector<float>{0.0f, 50.0f, 100.0f, 200.0f, -1.0f}));
    EXPECT_TRUE(content::sourceHasShadowLod(torus.mdl));
    const content::SourceModel sphere =
        loadFrom(kModels / "wire", "models/holograms/hq_sphere.mdl");
    EXPECT_EQ(content::sourceLodSwitchPoints(sphere),
              (std::vector<float>{0.0f, 150.0f, 300.0f, -1.0f}));
    EXPECT_TRUE(content::sourceHasShadowLod(sphere.mdl));
}

// LOD 0's mesh carries the coarser LODs (ModelMesh::lods): the torus's LODs 1..4 with the
// triangle counts of WireHologramLods, each range's span inside its LOD's indices, and every
// index naming a LOD 0 vertex or one of the LODs' own.
TEST(SourceModels, WireHologramMeshCarriesItsLods) {
    const content::SourceModel torus = loadFrom(kModels / "wire", "models/holograms/hq_torus.mdl");
    const content::ModelMesh mesh = content::buildSourceModelMesh(torus, 0, 0);
    EXPECT_EQ(mesh.vertex_count, 1625u);
    EXPECT_EQ(mesh.indices.size(), 3072u * 3);
    ASSERT_EQ(mesh.lods.size(), 4u);
    EXPECT_EQ(mesh.lod_switch_points, (std::vector<float>{0.0f, 50.0f, 100.0f, 200.0f, -1.0f}));
    EXPECT_TRUE(mesh.lod_shadow);
    const std::vector<uint32_t> triangles = {2048, 1536, 1024, 1024};
    const size_t vertices = mesh.vertex_count + mesh.lod_positions.size();
    EXPECT_EQ(mesh.lod_normals.size(), mesh.lod_positions.size());
    EXPECT_EQ(mesh.lod_uv.size(), mesh.lod_positions.size());
    for (size_t l = 0; l < mesh.lods.size(); ++l) {
        const content::ModelMesh::Lod& lod = mesh.lods[l];
        EXPECT_EQ(lod.indices.size(), size_t(triangles[l]) * 3) << "LOD " << l + 1;
        ASSERT_EQ(lod.spans.size(), mesh.ranges.size());
        uint32_t covered = 0;
        for (const auto& s : lod.spans) {
            EXPECT_EQ(s[0], covered);
            covered += s[1];
        }
        EXPECT_EQ(covered, lod.indices.size());
        for (uint32_t i : lod.indices)
            ASSERT_LT(i, vertices);
    }
    // A coarser LOD asked for directly carries none.
    EXPECT_TRUE(content::buildSourceModelMesh(torus, 0, 1).lods.empty());
}
