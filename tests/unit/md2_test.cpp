// Quake 2 model decoders: .md2 and .sp2 on hand-made files (tests/support/md2_builder.h) and
// the .md2 files of Debian's assimp-testmodels.
#include "content/model/md2.h"
#include "content/model/sp2.h"
#include "content/vfs/vfs.h"
#include "core/file.h"

#include "support/md2_builder.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace {

using Vec3 = std::array<float, 3>;
using Vec2 = std::array<float, 2>;

void writeFile(const fs::path& path, const std::vector<uint8_t>& bytes) {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

fs::path freshDir(const char* name) {
    const fs::path dir = fs::temp_directory_path() / name;
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

} // namespace

TEST(Md2, HandMadeTwoFrameModel) {
    auto m = content::decodeMd2(md2test::buildMd2());
    ASSERT_TRUE(m.ok()) << m.error().message();
    EXPECT_EQ(m->skin_width, 4);
    EXPECT_EQ(m->skin_height, 2);
    EXPECT_EQ(m->skin_names, (std::vector<std::string>{"models/test/skin.pcx"}));
    const content::ModelMesh& mesh = m->mesh;
    // (xyz, st) pairs in first-use order: (0,0) (1,1) (2,2) | (0,3) (2,2) (3,0).
    ASSERT_EQ(mesh.vertex_count, 5u);
    EXPECT_EQ(mesh.indices, (std::vector<uint32_t>{0, 1, 2, 3, 2, 4}));
    EXPECT_EQ(mesh.uv, (std::vector<Vec2>{{0, 0}, {1, 0}, {1, 1}, {0.5f, 0.5f}, {0, 0}}));
    ASSERT_EQ(mesh.pose_count, 2u);
    ASSERT_EQ(mesh.positions.size(), 10u);
    // scale (2, 0.5, 1) * packed + (-10, 4, 8); mesh vertices 0 and 3 are both xyz 0.
    EXPECT_EQ(std::vector<Vec3>(mesh.positions.begin(), mesh.positions.begin() + 5),
              (std::vector<Vec3>{{-10, 4, 8}, {10, 4, 8}, {10, 14, 8}, {-10, 4, 8}, {-10, 14, 8}}));
    EXPECT_EQ(
        std::vector<Vec3>(mesh.positions.begin() + 5, mesh.positions.end()),
        (std::vector<Vec3>{{-10, 4, 13}, {10, 4, 13}, {10, 14, 13}, {-10, 4, 13}, {-10, 14, 263}}));
    // anorms.h entries 5 (0, 0, 1), 0 (-0.525731, 0, 0.850651) and 84 (0, 0, -1).
    EXPECT_EQ(mesh.normals[0], (Vec3{0, 0, 1}));
    EXPECT_EQ(mesh.normals[1], (Vec3{-0.525731f, 0, 0.850651f}));
    EXPECT_EQ(mesh.normals[3], (Vec3{0, 0, 1}));
    EXPECT_EQ(mesh.normals[4], (Vec3{0, 0, -1}));
    EXPECT_EQ(mesh.normals[9], (Vec3{0, 0, -1}));
    EXPECT_EQ(mesh.mins, (Vec3{-10, 4, 8}));
    EXPECT_EQ(mesh.maxs, (Vec3{10, 14, 263}));
    ASSERT_EQ(mesh.frames.size(), 2u);
    EXPECT_EQ(mesh.frames[0].name, "stand01");
    EXPECT_EQ(mesh.frames[1].name, "run01");
    EXPECT_EQ(mesh.frames[1].poses.first, 1u);
    EXPECT_EQ(mesh.frames[1].poses.count, 1u);
    EXPECT_FALSE(mesh.rotates);
    EXPECT_TRUE(mesh.images.empty());
}

TEST(Md2, NormalTableIsUnitLength) {
    const auto& n = content::md2Normals();
    for (size_t i = 0; i < n.size(); ++i)
        EXPECT_NEAR(n[i][0] * n[i][0] + n[i][1] * n[i][1] + n[i][2] * n[i][2], 1.0f, 2e-6f) << i;
    EXPECT_EQ(n[161], (Vec3{-0.688191f, -0.587785f, -0.425325f}));
}

TEST(Md2, SkinsFromPcxOrAChecker) {
    const fs::path dir = freshDir("bspv_md2_skins");
    writeFile(dir / "models/test/skin.pcx", md2test::buildPcx(2, 1, {3, 200}));
    content::FileSystem files;
    ASSERT_TRUE(files.addDirectory(dir).ok());
    auto m = content::decodeMd2(md2test::buildMd2());
    ASSERT_TRUE(m.ok());
    std::vector<std::string> problems;
    content::attachPcxSkins(*m, files, problems);
    EXPECT_TRUE(problems.empty());
    ASSERT_EQ(m->mesh.images.size(), 1u);
    ASSERT_EQ(m->mesh.skins.size(), 1u);
    EXPECT_EQ(m->mesh.images[0].width, 2);
    // Palette entry i is (i, 255 - i, 7).
    EXPECT_EQ(m->mesh.images[0].rgba, (std::vector<uint8_t>{3, 252, 7, 255, 200, 55, 7, 255}));

    m->skin_names.push_back("models/test/absent.pcx");
    m->mesh.images.clear();
    m->mesh.skins.clear();
    content::attachPcxSkins(*m, files, problems);
    ASSERT_EQ(m->mesh.images.size(), 2u);
    EXPECT_EQ(m->mesh.images[1].width, 8); // the checker
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_NE(problems[0].find("models/test/absent.pcx"), std::string::npos) << problems[0];
    fs::remove_all(dir);
}

TEST(Md2, RejectsBadFilesWithTheirPlace) {
    auto version = content::decodeMd2(md2test::buildMd2({.version = 7}));
    ASSERT_FALSE(version.ok());
    EXPECT_EQ(version.error().code, core::ErrorCode::UnsupportedVersion);
    auto index = content::decodeMd2(md2test::buildMd2({.xyz_override = 4}));
    ASSERT_FALSE(index.ok());
    EXPECT_EQ(index.error().code, core::ErrorCode::IndexOutOfRange);
    EXPECT_EQ(index.error().lump, "md2.triangles");
    EXPECT_EQ(index.error().index, 1);
    EXPECT_EQ(index.error().field, "index_xyz");
    auto frame_size = content::decodeMd2(md2test::buildMd2({.frame_size = 55}));
    ASSERT_FALSE(frame_size.ok());
    EXPECT_EQ(frame_size.error().code, core::ErrorCode::BadValue);
    EXPECT_EQ(frame_size.error().field, "framesize");
}

TEST(Md2, EveryPrefixIsRejectedAsTruncated) {
    const auto bytes = md2test::buildMd2();
    for (size_t n = 0; n < bytes.size(); ++n) {
        auto r = content::decodeMd2(std::span(bytes.data(), n));
        ASSERT_FALSE(r.ok()) << n;
        EXPECT_EQ(r.error().code, core::ErrorCode::Truncated) << n;
    }
}

TEST(Sp2, TwoFramesFromPcx) {
    auto frames = content::parseSp2(md2test::buildSp2());
    ASSERT_TRUE(frames.ok()) << frames.error().message();
    ASSERT_EQ(frames->size(), 2u);
    EXPECT_EQ((*frames)[0].name, "sprites/a.pcx");
    EXPECT_EQ((*frames)[0].origin_x, 4);
    EXPECT_EQ((*frames)[1].width, 2);

    const fs::path dir = freshDir("bspv_sp2");
    writeFile(dir / "sprites/b.pcx", md2test::buildPcx(2, 2, {255, 1, 2, 3}));
    content::FileSystem files;
    ASSERT_TRUE(files.addDirectory(dir).ok());
    std::vector<std::string> problems;
    const content::Sprite s = content::buildSp2Sprite(*frames, files, problems);
    ASSERT_EQ(problems.size(), 1u); // sprites/a.pcx is absent
    ASSERT_EQ(s.pictures.size(), 2u);
    ASSERT_EQ(s.frames.size(), 2u);
    EXPECT_EQ(s.frames[1].pictures.first, 1u);
    // Frame 0 spans -4..4 right and -2..2 up: left edge -4, top edge 4 - 2.
    EXPECT_EQ(s.pictures[0].origin_x, -4);
    EXPECT_EQ(s.pictures[0].origin_y, 2);
    EXPECT_EQ(s.pictures[0].rgba, std::vector<uint8_t>(8 * 4 * 4, 0));
    EXPECT_EQ(s.pictures[1].origin_x, 0);
    EXPECT_EQ(s.pictures[1].origin_y, 2);
    // Index 255 is transparent black (expandPaletted); the others through the PCX's palette.
    EXPECT_EQ(std::vector<uint8_t>(s.pictures[1].rgba.begin(), s.pictures[1].rgba.begin() + 8),
              (std::vector<uint8_t>{0, 0, 0, 0, 1, 254, 7, 255}));
    EXPECT_EQ(s.max_width, 8);
    EXPECT_EQ(s.orientation, content::SpriteOrientation::Parallel);
    fs::remove_all(dir);
}

TEST(Sp2, RejectsBadFiles) {
    auto version = content::parseSp2(md2test::buildSp2(1));
    ASSERT_FALSE(version.ok());
    EXPECT_EQ(version.error().code, core::ErrorCode::UnsupportedVersion);
    const auto bytes = md2test::buildSp2();
    for (size_t n = 0; n < bytes.size(); ++n) {
        auto r = content::parseSp2(std::span(bytes.data(), n));
        ASSERT_FALSE(r.ok()) << n;
        EXPECT_EQ(r.error().code, core::ErrorCode::Truncated) << n;
    }
}

// Debian's assimp-testmodels (scripts/install-deps.sh): two real models without skin names;
// counts and the first vertex read with Python's struct from the files.
TEST(Md2, AssimpTestModelsLoad) {
    const fs::path dir = "/usr/share/assimp/models/MD2";
    struct Expect {
        const char* file;
        uint32_t vertices, triangles, frames;
        const char* first_frame;
        Vec2 uv0;
    };
    const Expect expects[] = {{"faerie.md2", 503, 654, 198, "stand01", {142 / 220.f, 45 / 193.f}},
                              {"sydney.md2", 482, 679, 198, "stand1", {80 / 308.f, 140 / 193.f}}};
    for (const Expect& e : expects) {
        auto bytes = core::readFile(dir / e.file);
        ASSERT_TRUE(bytes.ok()) << e.file << " (apt-get install assimp-testmodels)";
        auto m = content::decodeMd2(*bytes);
        ASSERT_TRUE(m.ok()) << e.file << ": " << m.error().message();
        EXPECT_TRUE(m->skin_names.empty());
        EXPECT_EQ(m->mesh.vertex_count, e.vertices) << e.file;
        EXPECT_EQ(m->mesh.indices.size(), size_t(e.triangles) * 3) << e.file;
        EXPECT_EQ(m->mesh.frames.size(), e.frames) << e.file;
        EXPECT_EQ(m->mesh.frames[0].name, e.first_frame);
        EXPECT_EQ(m->mesh.uv[0], e.uv0) << e.file;
        EXPECT_EQ(m->mesh.positions.size(), size_t(e.frames) * e.vertices);
    }
    auto faerie = content::decodeMd2(*core::readFile(dir / "faerie.md2"));
    ASSERT_TRUE(faerie.ok());
    // stand01, the first triangle's first xyz: scale * packed + translate, normal 119.
    EXPECT_NEAR(faerie->mesh.positions[0][0], -9.96106593f, 1e-4f);
    EXPECT_NEAR(faerie->mesh.positions[0][1], 6.63490043f, 1e-4f);
    EXPECT_NEAR(faerie->mesh.positions[0][2], 26.62288907f, 1e-4f);
    EXPECT_EQ(faerie->mesh.normals[0], content::md2Normals()[119]);
}
