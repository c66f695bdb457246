// Source studio models (.mdl v44-49 + .vvd + .vtx, content/model/): hand-made files
// (tests/support/source_model_builder.h, written from the SDK headers) with exact vertex,
// triangle and material expectations, every kind of bad file, and the decoders' contract.
#include "content/model/source_model.h"
#include "content/model/vhv.h"
#include "content/vfs/vfs.h"

#include "support/source_model_builder.h"
#include "support/source_props_builder.h"
#include "unit/content_test_util.h"

#include <gtest/gtest.h>

namespace {

using content_test::TempDir;
using content_test::writeBytes;
using content_test::writeText;

// The three files of `spec` as models/test/x.* in a temporary folder, read back through a
// FileSystem over it.
struct OnDisk {
    TempDir dir;
    content::FileSystem fs;
    explicit OnDisk(const srcmdltest::Spec& spec, bool dx90 = true) {
        const srcmdltest::Files f = srcmdltest::build(spec);
        writeBytes(dir / "models/test/x.mdl", f.mdl);
        writeBytes(dir / "models/test/x.vvd", f.vvd);
        writeBytes(dir / (dx90 ? "models/test/x.dx90.vtx" : "models/test/x.sw.vtx"), f.vtx);
    }
    core::Result<content::SourceModel> load() {
        EXPECT_TRUE(fs.addDirectory(dir.path()).ok());
        return content::loadSourceModel(fs, "models/test/x.mdl");
    }
};

content::SourceModel assembled(const srcmdltest::Spec& spec) {
    const srcmdltest::Files f = srcmdltest::build(spec);
    auto mdl = content::parseSourceMdl(f.mdl);
    auto vvd = content::parseVvd(f.vvd);
    auto vtx = content::parseVtx(f.vtx);
    EXPECT_TRUE(mdl.ok()) << (mdl ? "" : mdl.error().message());
    EXPECT_TRUE(vvd.ok()) << (vvd ? "" : vvd.error().message());
    EXPECT_TRUE(vtx.ok()) << (vtx ? "" : vtx.error().message());
    if (!mdl || !vvd || !vtx)
        return {};
    auto m = content::assembleSourceModel(std::move(*mdl), std::move(*vvd), std::move(*vtx),
                                          "x.mdl", "x.vvd", "x.dx90.vtx");
    EXPECT_TRUE(m.ok()) << (m ? "" : m.error().message());
    return m ? std::move(*m) : content::SourceModel{};
}

// Two meshes in one model, two LODs: mesh 0 has 4 vertices, a quad (0 1 2, 0 2 3) at LOD 0 and
// one triangle (2 1 0) at LOD 1; mesh 1 has 3 vertices and the triangle (0 1 2) at both.
srcmdltest::Spec twoMeshSpec() {
    srcmdltest::Spec s;
    s.textures = {"a", "b"};
    s.skins = {{0, 1}, {1, 0}};
    s.lods = 2;
    srcmdltest::MeshSpec quad;
    quad.material = 0;
    quad.vertex_count = 4;
    quad.lods = {{0, 1, 2, 0, 2, 3}, {2, 1, 0}};
    srcmdltest::MeshSpec tri;
    tri.material = 1;
    tri.vertex_count = 3;
    tri.lods = {{0, 1, 2}};
    s.parts[0].models[0].meshes = {quad, tri};
    return s;
}

void expectVertex(const content::ModelMesh& mesh, uint32_t v, std::array<float, 3> pos,
                  std::array<float, 2> uv) {
    ASSERT_LT(v, mesh.vertex_count);
    for (size_t k = 0; k < 3; ++k)
        EXPECT_FLOAT_EQ(mesh.positions[v][k], pos[k]) << "vertex " << v << " axis " << k;
    EXPECT_FLOAT_EQ(mesh.uv[v][0], uv[0]) << "vertex " << v;
    EXPECT_FLOAT_EQ(mesh.uv[v][1], uv[1]) << "vertex " << v;
    EXPECT_FLOAT_EQ(mesh.normals[v][2], 1.0f);
}

} // namespace

TEST(SourceModel, HandMadeLodsGiveExactVerticesAndTriangles) {
    const content::SourceModel m = assembled(twoMeshSpec());
    ASSERT_EQ(content::sourceLodCount(m), 2u);
    EXPECT_EQ(m.mdl.version, 48);
    EXPECT_EQ(m.vvd.vertices.size(), 7u);
    ASSERT_EQ(m.vvd.tangents.size(), 7u);
    EXPECT_FLOAT_EQ(m.vvd.tangents[3][3], -1.0f);

    const content::ModelMesh lod0 = content::buildSourceModelMesh(m, 0, 0);
    ASSERT_EQ(lod0.vertex_count, 7u);
    ASSERT_EQ(lod0.indices.size(), 9u);
    EXPECT_EQ(lod0.indices, (std::vector<uint32_t>{0, 1, 2, 0, 2, 3, 4, 5, 6}));
    // Global vertex g of mesh k, index i: (g, k, i), uv (i / 8, g / 16).
    expectVertex(lod0, 3, {3, 0, 3}, {3.0f / 8, 3.0f / 16});
    expectVertex(lod0, 4, {4, 1, 0}, {0, 4.0f / 16});
    ASSERT_EQ(lod0.ranges.size(), 2u);
    EXPECT_EQ(lod0.ranges[0].first_index, 0u);
    EXPECT_EQ(lod0.ranges[0].index_count, 6u);
    EXPECT_EQ(lod0.ranges[0].material, 0u);
    EXPECT_EQ(lod0.ranges[1].first_index, 6u);
    EXPECT_EQ(lod0.ranges[1].index_count, 3u);
    EXPECT_EQ(lod0.ranges[1].material, 1u);
    EXPECT_FLOAT_EQ(lod0.mins[0], 0.0f);
    EXPECT_FLOAT_EQ(lod0.maxs[0], 6.0f);
    EXPECT_EQ(lod0.pose_count, 1u);
    ASSERT_EQ(lod0.frames.size(), 1u);

    // LOD 1: mesh 0's one triangle uses 3 of its 4 vertices (first use: 2, 1, 0), mesh 1 all 3.
    const content::ModelMesh lod1 = content::buildSourceModelMesh(m, 0, 1);
    ASSERT_EQ(lod1.vertex_count, 6u);
    EXPECT_EQ(lod1.indices, (std::vector<uint32_t>{0, 1, 2, 3, 4, 5}));
    expectVertex(lod1, 0, {2, 0, 2}, {2.0f / 8, 2.0f / 16});
    // A LOD past the last draws the last.
    EXPECT_EQ(content::buildSourceModelMesh(m, 0, 7).indices, lod1.indices);
}

TEST(SourceModel, SkinFamiliesNameEachSlotsMaterial) {
    OnDisk disk(twoMeshSpec());
    writeText(disk.dir / "materials/models/test/a.vmt", "VertexLitGeneric { $basetexture x }");
    writeText(disk.dir / "materials/models/test/b.vmt", "UnlitGeneric { $basetexture y }");
    auto m = disk.load();
    ASSERT_TRUE(m.ok()) << m.error().message();
    const content::ModelMesh mesh = content::buildSourceModelMesh(*m, 0, 0);
    EXPECT_EQ(mesh.materials, (std::vector<std::string>{"materials/models/test/a.vmt",
                                                        "materials/models/test/b.vmt"}));
    ASSERT_EQ(mesh.skin_materials.size(), 2u);
    // Skin 1 swaps the slots: mesh 0 (slot 0) draws b, mesh 1 (slot 1) draws a.
    EXPECT_EQ(mesh.skin_materials[1], (std::vector<uint32_t>{1, 0}));
    EXPECT_EQ(mesh.materials[mesh.skin_materials[1][mesh.ranges[0].material]],
              "materials/models/test/b.vmt");
    ASSERT_TRUE(m->materials[1].vmt.has_value());
    EXPECT_TRUE(content::vmtUnlit(*m->materials[1].vmt));
    EXPECT_FALSE(content::vmtUnlit(*m->materials[0].vmt));
}

TEST(SourceModel, VvdFixupsRestoreMeshOrder) {
    srcmdltest::Spec plain = twoMeshSpec();
    srcmdltest::Spec fixed = plain;
    fixed.fixups = true;
    const content::SourceModel a = assembled(plain);
    const content::SourceModel b = assembled(fixed);
    EXPECT_EQ(b.vvd.fixup_count, 2u);
    ASSERT_EQ(a.vvd.vertices.size(), b.vvd.vertices.size());
    for (size_t i = 0; i < a.vvd.vertices.size(); ++i) {
        EXPECT_EQ(a.vvd.vertices[i].position, b.vvd.vertices[i].position) << i;
        EXPECT_FLOAT_EQ(b.vvd.vertices[i].position[0], float(i));
    }
    EXPECT_EQ(content::buildSourceModelMesh(a, 0, 0).positions,
              content::buildSourceModelMesh(b, 0, 0).positions);
}

TEST(SourceModel, FixupRunsMustAddUp) {
    srcmdltest::Spec s = twoMeshSpec();
    s.fixups = true;
    srcmdltest::Files f = srcmdltest::build(s);
    // The second run one vertex short: 6 of numLODVertexes[0] 7.
    const int32_t fix = *reinterpret_cast<const int32_t*>(f.vvd.data() + 52);
    int32_t count = 0;
    std::memcpy(&count, f.vvd.data() + fix + 20, 4);
    --count;
    std::memcpy(f.vvd.data() + fix + 20, &count, 4);
    auto vvd = content::parseVvd(f.vvd);
    ASSERT_FALSE(vvd.ok());
    EXPECT_EQ(vvd.error().code, core::ErrorCode::BadValue);
    EXPECT_EQ(vvd.error().lump, "vvd.fixups");
}

TEST(SourceModel, LaterVtxLayoutWithTopologyFields) {
    srcmdltest::Spec s = twoMeshSpec();
    s.parts[0].models[0].meshes[0].two_groups = true;
    const content::SourceModel plain = assembled(s);
    EXPECT_FALSE(plain.vtx.topology_fields);
    s.version = 49;
    s.topology = true;
    const content::SourceModel later = assembled(s);
    EXPECT_TRUE(later.vtx.topology_fields);
    EXPECT_EQ(later.vtx.body_parts[0].models[0].lods[0].meshes[0].strip_groups, 2u);
    EXPECT_EQ(content::buildSourceModelMesh(later, 0, 0).indices,
              content::buildSourceModelMesh(plain, 0, 0).indices);
    EXPECT_EQ(content::buildSourceModelMesh(later, 0, 0).indices.size(), 9u);
}

TEST(SourceModel, TriangleStripsAlternateWinding) {
    srcmdltest::Spec s;
    s.parts[0].models[0].meshes[0].vertex_count = 5;
    // 0 1 2 3 4, with a repeated 2 making one degenerate triangle (1 2 2) that is dropped.
    s.parts[0].models[0].meshes[0].lods = {{0, 1, 2, 2, 3, 4}};
    s.parts[0].models[0].meshes[0].tristrip = true;
    const content::SourceModel m = assembled(s);
    const auto& tris = m.vtx.body_parts[0].models[0].lods[0].meshes[0].triangles;
    // Triangles 0..3: (0 1 2), (1 2 2) flipped, degenerate, (2 2 3) degenerate, (2 3 4) flipped
    // to (2 4 3).
    EXPECT_EQ(tris, (std::vector<uint16_t>{0, 1, 2, 2, 4, 3}));
}

TEST(SourceModel, BodyGroupsChooseOneModelPerPart) {
    srcmdltest::Spec s;
    s.parts.resize(2);
    s.parts[0].name = "base";
    s.parts[1].name = "choice";
    s.parts[1].base = 1;
    s.parts[1].models.resize(3);
    // Choice k: k + 1 separate triangles over 3 (k + 1) vertices.
    for (size_t k = 0; k < 3; ++k) {
        srcmdltest::MeshSpec& mesh = s.parts[1].models[k].meshes[0];
        mesh.vertex_count = uint32_t(3 * (k + 1));
        mesh.lods = {{}};
        for (uint16_t v = 0; v < mesh.vertex_count; ++v)
            mesh.lods[0].push_back(v);
    }
    const content::SourceModel m = assembled(s);
    for (int32_t body = 0; body < 4; ++body) {
        const content::ModelMesh mesh = content::buildSourceModelMesh(m, body, 0);
        const uint32_t k = uint32_t(body % 3);
        EXPECT_EQ(mesh.vertex_count, 3 + 3 * (k + 1)) << body;
        EXPECT_EQ(mesh.indices.size(), 3 + 3 * (k + 1)) << body;
        // The choice's vertices carry its model number in y (part 1: 100 + model * 10).
        EXPECT_FLOAT_EQ(mesh.positions.back()[1], 100.0f + 10.0f * float(k)) << body;
    }
    EXPECT_EQ(content::sourceBodyModels(m.mdl, 5), (std::vector<uint32_t>{0, 2}));
    EXPECT_EQ(content::sourceBodyModels(m.mdl, -3), (std::vector<uint32_t>{0, 0}));
}

TEST(SourceModel, ChecksumMismatchNamesBothFiles) {
    srcmdltest::Spec s;
    s.vvd_checksum = 99;
    auto m = OnDisk(s).load();
    ASSERT_FALSE(m.ok());
    EXPECT_EQ(m.error().code, core::ErrorCode::BadValue);
    EXPECT_EQ(m.error().file, "models/test/x.vvd");
    EXPECT_NE(m.error().message().find("x.mdl"), std::string::npos) << m.error().message();
    EXPECT_NE(m.error().message().find("99"), std::string::npos);

    srcmdltest::Spec t;
    t.vtx_checksum = 7;
    auto n = OnDisk(t).load();
    ASSERT_FALSE(n.ok());
    EXPECT_EQ(n.error().file, "models/test/x.dx90.vtx");
    EXPECT_NE(n.error().message().find("x.mdl"), std::string::npos) << n.error().message();
}

TEST(SourceModel, VtxFallsBackFromDx90) {
    OnDisk sw(srcmdltest::Spec{}, false);
    auto m = sw.load();
    ASSERT_TRUE(m.ok()) << m.error().message();
    EXPECT_EQ(m->vtx_path, "models/test/x.sw.vtx");

    OnDisk none(srcmdltest::Spec{});
    std::filesystem::remove(none.dir / "models/test/x.dx90.vtx");
    auto n = none.load();
    ASSERT_FALSE(n.ok());
    EXPECT_EQ(n.error().code, core::ErrorCode::NotFound);

    OnDisk no_vvd(srcmdltest::Spec{});
    std::filesystem::remove(no_vvd.dir / "models/test/x.vvd");
    auto v = no_vvd.load();
    ASSERT_FALSE(v.ok());
    EXPECT_EQ(v.error().code, core::ErrorCode::NotFound);
}

TEST(SourceModel, CdMaterialsAreSearchedInOrder) {
    srcmdltest::Spec s;
    s.textures = {"Tex", "gone"};
    s.skins = {{0, 1}};
    s.cd_dirs = {"first\\", "Second\\", "first\\"};
    s.parts[0].models[0].meshes[0].material = 1;
    OnDisk disk(s);
    writeText(disk.dir / "materials/second/tex.vmt",
              "UnlitGeneric { $basetexture \"a\\b\" $translucent 1 $nocull 1 $additive 1 "
              "$alphatest 1 $alphatestreference .25 }");
    auto m = disk.load();
    ASSERT_TRUE(m.ok()) << m.error().message();
    ASSERT_EQ(m->materials.size(), 2u);
    // Duplicated folders are tried once.
    EXPECT_EQ(m->materials[0].tried,
              (std::vector<std::string>{"materials/first/tex.vmt", "materials/second/tex.vmt"}));
    EXPECT_EQ(m->materials[0].path, "materials/second/tex.vmt");
    ASSERT_TRUE(m->materials[0].vmt.has_value());
    const content::Vmt& vmt = *m->materials[0].vmt;
    EXPECT_EQ(vmt.shader, "unlitgeneric");
    EXPECT_EQ(vmt.base_texture, "a\\b");
    EXPECT_TRUE(vmt.translucent && vmt.nocull && vmt.additive && vmt.alphatest);
    EXPECT_FLOAT_EQ(vmt.alphatest_reference, 0.25f);
    EXPECT_TRUE(m->materials[1].path.empty());
    EXPECT_EQ(m->materials[1].error, "not found");
    EXPECT_EQ(content::buildSourceModelMesh(*m, 0, 0).materials[1], "");
}

TEST(SourceModel, VersionsOutsideTheirRangeAreRefused) {
    for (int32_t version : {44, 45, 46, 47, 48, 49}) {
        srcmdltest::Spec s;
        s.version = version;
        EXPECT_TRUE(content::parseSourceMdl(srcmdltest::buildMdl(s)).ok()) << version;
    }
    for (int32_t version : {10, 43, 50, 53}) {
        srcmdltest::Spec s;
        s.version = version;
        auto m = content::parseSourceMdl(srcmdltest::buildMdl(s));
        ASSERT_FALSE(m.ok()) << version;
        EXPECT_EQ(m.error().code, core::ErrorCode::UnsupportedVersion) << version;
    }
    srcmdltest::Files f = srcmdltest::build(srcmdltest::Spec{});
    f.vvd[4] = 3;
    EXPECT_EQ(content::parseVvd(f.vvd).error().code, core::ErrorCode::UnsupportedVersion);
    f.vtx[0] = 6;
    EXPECT_EQ(content::parseVtx(f.vtx).error().code, core::ErrorCode::UnsupportedVersion);
    f.mdl[0] = 'X';
    EXPECT_EQ(content::parseSourceMdl(f.mdl).error().code, core::ErrorCode::UnknownFormat);
}

TEST(SourceModel, TruncatedFilesAreErrorsNamingTheStructure) {
    const srcmdltest::Files f = srcmdltest::build(twoMeshSpec());
    auto check = [](const std::vector<uint8_t>& whole, auto parse, const char* what) {
        EXPECT_TRUE(parse(whole).ok()) << what;
        // Every shorter prefix that loses a byte something points at is an error with a code
        // and a structure; none crashes.
        size_t errors = 0;
        for (size_t n = 0; n < whole.size(); ++n) {
            auto r = parse(std::span<const uint8_t>(whole.data(), n));
            if (!r.ok()) {
                ++errors;
                EXPECT_NE(r.error().code, core::ErrorCode::Ok);
                EXPECT_FALSE(r.error().lump.empty()) << what << " at " << n;
            }
        }
        EXPECT_GT(errors, whole.size() / 2) << what;
    };
    check(
        f.mdl, [](std::span<const uint8_t> b) { return content::parseSourceMdl(b); }, "mdl");
    check(
        f.vvd, [](std::span<const uint8_t> b) { return content::parseVvd(b); }, "vvd");
    check(
        f.vtx, [](std::span<const uint8_t> b) { return content::parseVtx(b); }, "vtx");
    auto mdl = content::parseSourceMdl(std::span<const uint8_t>(f.mdl.data(), 300));
    ASSERT_FALSE(mdl.ok());
    EXPECT_EQ(mdl.error().code, core::ErrorCode::Truncated);
}

TEST(SourceModel, CornerPastItsMeshIsAnError) {
    srcmdltest::Spec s;
    s.parts[0].models[0].meshes[0].lods = {{0, 1, 5}}; // the mesh has 3 vertices
    auto m = OnDisk(s).load();
    ASSERT_FALSE(m.ok());
    EXPECT_EQ(m.error().code, core::ErrorCode::IndexOutOfRange);
    EXPECT_EQ(m.error().file, "models/test/x.dx90.vtx");
    EXPECT_EQ(m.error().lump, "vtx.meshes");

    srcmdltest::Spec t;
    t.parts[0].models[0].meshes[0].material = 3; // one skin slot
    auto n = content::parseSourceMdl(srcmdltest::buildMdl(t));
    ASSERT_FALSE(n.ok());
    EXPECT_EQ(n.error().code, core::ErrorCode::IndexOutOfRange);
    EXPECT_EQ(n.error().lump, "mdl.meshes");
}

TEST(SourceModel, BonesAndSequences) {
    srcmdltest::Spec s;
    s.bones = {"base", "outer", "inner"};
    auto m = content::parseSourceMdl(srcmdltest::buildMdl(s));
    ASSERT_TRUE(m.ok()) << m.error().message();
    ASSERT_EQ(m->bones.size(), 3u);
    EXPECT_EQ(m->bones[2].name, "inner");
    EXPECT_EQ(m->bones[2].parent, 1);
    EXPECT_FLOAT_EQ(m->bones[2].position[0], 2.0f);
    EXPECT_FLOAT_EQ(m->bones[2].quaternion[3], 1.0f);
    EXPECT_EQ(m->sequences, (std::vector<std::string>{"idle"}));
    EXPECT_EQ(m->texture_dirs, (std::vector<std::string>{"models\\test\\"}));
}

TEST(SourceModel, StaticPropVertexLighting) {
    auto v = content::parseVhv(srcprops::vhvFile(77));
    ASSERT_TRUE(v.ok()) << v.error().message();
    EXPECT_EQ(v->checksum, 77u);
    EXPECT_EQ(v->vertex_size, 4u);
    EXPECT_EQ(v->vertex_count, 5u);
    ASSERT_EQ(v->meshes.size(), 2u);
    EXPECT_EQ(v->meshes[1].lod, 1u);
    ASSERT_EQ(v->meshes[0].colours.size(), 3u);
    ASSERT_EQ(v->meshes[1].colours.size(), 2u);
    // File vertex 4 (mesh 1's second) holds bytes 16..19 in b, g, r, a order.
    EXPECT_EQ(v->meshes[1].colours[1], (std::array<uint8_t, 4>{18, 17, 16, 19}));
    EXPECT_EQ(v->meshes[0].colours[0], (std::array<uint8_t, 4>{2, 1, 0, 3}));
    EXPECT_EQ(content::staticPropLightingPath(3, false), "sp_3.vhv");
    EXPECT_EQ(content::staticPropLightingPath(12, true), "sp_hdr_12.vhv");

    srcprops::Bytes bad = srcprops::vhvFile();
    bad.resize(530); // mesh 1's second vertex cut
    EXPECT_EQ(content::parseVhv(bad).error().code, core::ErrorCode::Truncated);
    bad = srcprops::vhvFile();
    bad[16] = 6; // the header's total no longer what the meshes hold
    EXPECT_EQ(content::parseVhv(bad).error().code, core::ErrorCode::BadValue);
    bad = srcprops::vhvFile();
    bad[0] = 3;
    EXPECT_EQ(content::parseVhv(bad).error().code, core::ErrorCode::UnsupportedVersion);
}
