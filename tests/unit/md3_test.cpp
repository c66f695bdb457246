// The Quake 3 .md3 decoder on a hand-made file (tests/support/md3_builder.h) and on
// OpenArena's models.
#include "content/model/md3.h"
#include "content/vfs/vfs.h"

#include "support/md3_builder.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace {

using Vec3 = std::array<float, 3>;
using Vec2 = std::array<float, 2>;

void expectNear(const Vec3& a, const Vec3& b, float eps = 1e-6f) {
    for (size_t k = 0; k < 3; ++k)
        EXPECT_NEAR(a[k], b[k], eps) << k;
}

} // namespace

TEST(Md3, HandMadeTwoSurfacesAndATag) {
    auto r = content::decodeMd3(md3test::buildMd3());
    ASSERT_TRUE(r.ok()) << r.error().message();
    const content::Md3Model& m = *r;
    EXPECT_EQ(m.name, "models/test/thing.md3");
    ASSERT_EQ(m.frames.size(), 2u);
    EXPECT_EQ(m.frames[1].name, "idle1");
    EXPECT_EQ(m.frames[1].mins, (Vec3{-1, -1, 0}));
    EXPECT_EQ(m.frames[1].maxs, (Vec3{1, 2, 2.5f}));
    EXPECT_EQ(m.frames[1].origin, (Vec3{0, 0, 1}));
    EXPECT_EQ(m.frames[1].radius, 2.5f);

    ASSERT_EQ(m.tag_count, 1u);
    ASSERT_EQ(m.tags.size(), 2u);
    EXPECT_EQ(m.tags[0].name, "tag_weapon");
    EXPECT_EQ(m.tags[0].origin, (Vec3{1, 2, 3}));
    EXPECT_EQ(m.tags[0].axis[0], (Vec3{1, 0, 0}));
    EXPECT_EQ(m.tags[0].axis[2], (Vec3{0, 0, 1}));
    EXPECT_EQ(m.tags[1].origin, (Vec3{4, 5, 6}));
    EXPECT_EQ(m.tags[1].axis[0], (Vec3{0, 1, 0}));
    EXPECT_EQ(m.tags[1].axis[1], (Vec3{-1, 0, 0}));

    ASSERT_EQ(m.surfaces.size(), 2u);
    const content::Md3Surface& body = m.surfaces[0];
    EXPECT_EQ(body.name, "body");
    EXPECT_EQ(body.shaders, std::vector<std::string>{"models/test/body"});
    const content::ModelMesh& b = body.mesh;
    EXPECT_EQ(b.vertex_count, 3u);
    EXPECT_EQ(b.pose_count, 2u);
    EXPECT_EQ(b.indices, (std::vector<uint32_t>{0, 1, 2}));
    EXPECT_EQ(b.uv, (std::vector<Vec2>{{0, 0}, {1, 0}, {0.5f, 1}}));
    // Positions are exact: the file's shorts / 64.
    EXPECT_EQ(
        b.positions,
        (std::vector<Vec3>{
            {1, 0, 0}, {0, 2, -1}, {0.5f, 0.5f, 0.5f}, {1, 0, 1}, {0, 2, 0}, {0.5f, 0.5f, 1.5f}}));
    expectNear(b.normals[0], {1, 0, 0});
    expectNear(b.normals[1], {0, 1, 0});
    expectNear(b.normals[2], {0, 0, 1});
    expectNear(b.normals[4], {0, 1, 0});
    ASSERT_EQ(b.frames.size(), 2u);
    EXPECT_EQ(b.frames[1].name, "idle1");
    EXPECT_EQ(b.frames[1].poses.first, 1u);
    EXPECT_EQ(b.frames[1].poses.count, 1u);
    EXPECT_TRUE(b.skins.empty());
    EXPECT_EQ(b.mins, (Vec3{0, 0, -1}));
    EXPECT_EQ(b.maxs, (Vec3{1, 2, 1.5f}));

    const content::Md3Surface& flag = m.surfaces[1];
    EXPECT_EQ(flag.name, "flag");
    EXPECT_EQ(flag.shaders, (std::vector<std::string>{"models/test/flag", "models/test/flag2"}));
    EXPECT_EQ(flag.mesh.indices, (std::vector<uint32_t>{0, 1, 2, 0, 2, 3}));
    EXPECT_EQ(flag.mesh.uv[2], (Vec2{2, 2}));
    EXPECT_EQ(flag.mesh.positions[6], (Vec3{1, 1, 0}));
    EXPECT_EQ(m.mins, (Vec3{-1, -1, -1}));
    EXPECT_EQ(m.maxs, (Vec3{1, 2, 1.5f}));
}

TEST(Md3, PackedNormals) {
    // Latitude 32 (45 degrees), longitude 32: (cos 45 sin 45, sin 45 sin 45, cos 45).
    expectNear(content::md3Normal((32 << 8) | 32), {0.5f, 0.5f, 0.70710678f});
    // Longitude 128: straight down whatever the latitude.
    expectNear(content::md3Normal((200 << 8) | 128), {0, 0, -1});
}

TEST(Md3, RejectsBadFilesWithTheirPlace) {
    auto version = content::decodeMd3(md3test::buildMd3({.version = 16}));
    ASSERT_FALSE(version.ok());
    EXPECT_EQ(version.error().code, core::ErrorCode::UnsupportedVersion);

    auto index = content::decodeMd3(md3test::buildMd3({.triangle_index = 4}));
    ASSERT_FALSE(index.ok());
    EXPECT_EQ(index.error().code, core::ErrorCode::IndexOutOfRange);
    EXPECT_EQ(index.error().lump, "md3.surface");
    EXPECT_EQ(index.error().index, 1);
    EXPECT_EQ(index.error().field, "triangles");

    auto frames = content::decodeMd3(md3test::buildMd3({.surface_frames = 1}));
    ASSERT_FALSE(frames.ok());
    EXPECT_EQ(frames.error().code, core::ErrorCode::BadValue);
    EXPECT_EQ(frames.error().index, 1);
    EXPECT_EQ(frames.error().field, "numFrames");

    auto many = content::decodeMd3(md3test::buildMd3({.num_surfaces = 33}));
    ASSERT_FALSE(many.ok());
    EXPECT_EQ(many.error().code, core::ErrorCode::LimitExceeded);

    // A surface whose end does not move past its header would loop on the same bytes.
    auto loop = content::decodeMd3(md3test::buildMd3({.surface_end_override = 0}));
    ASSERT_FALSE(loop.ok());
    EXPECT_EQ(loop.error().code, core::ErrorCode::BadValue);
    EXPECT_EQ(loop.error().field, "ofsEnd");
    EXPECT_EQ(loop.error().index, 0);
}

TEST(Md3, EveryPrefixIsRejectedAsTruncated) {
    const auto bytes = md3test::buildMd3();
    for (size_t n = 0; n < bytes.size(); ++n) {
        auto r = content::decodeMd3(std::span(bytes.data(), n));
        ASSERT_FALSE(r.ok()) << n;
        EXPECT_EQ(r.error().code, core::ErrorCode::Truncated) << n;
    }
}

TEST(Md3, EveryOpenArenaModelLoads) {
    // OpenArena's pak0.pk3 (Debian openarena-data): every .md3 decodes, each surface with the
    // model's frames and at least one surface per model.
    content::FileSystem fs;
    ASSERT_TRUE(fs.addArchive(std::filesystem::path(BSPV_OPENARENA_DIR) / "pak0.pk3").ok());
    const auto names = fs.list("models/", ".md3");
    ASSERT_GE(names.size(), 100u);
    size_t surfaces = 0;
    for (const std::string& name : names) {
        auto bytes = fs.readChecked(name);
        ASSERT_TRUE(bytes.ok()) << name;
        auto m = content::decodeMd3(*bytes);
        ASSERT_TRUE(m.ok()) << name << ": " << m.error().message();
        for (const content::Md3Surface& s : m->surfaces) {
            ++surfaces;
            EXPECT_EQ(s.mesh.frames.size(), m->frames.size()) << name;
            EXPECT_FALSE(s.shaders.empty() && s.name.empty()) << name;
        }
    }
    EXPECT_GE(surfaces, names.size());
}
