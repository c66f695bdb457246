// Entity model decoders: Quake 1 .mdl and Quake 1 / Half-Life .spr on hand-made files
// (tests/support/model_builder.h) and on every LibreQuake model in the shared test data.
#include "content/model/mdl.h"
#include "content/model/sprite.h"
#include "core/file.h"
#include "game/profile.h"

#include "support/model_builder.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace fs = std::filesystem;

namespace {

const fs::path kProgs = fs::path(BSPV_SHARED_MAPS_DIR) / "q1/progs";
using Vec3 = std::array<float, 3>;
using Vec2 = std::array<float, 2>;

std::array<uint8_t, 4> quakeColour(uint8_t i, uint8_t alpha = 255) {
    const auto& p = content::defaultQuakePalette().rgb;
    return {p[size_t(i) * 3], p[size_t(i) * 3 + 1], p[size_t(i) * 3 + 2], alpha};
}

std::array<uint8_t, 4> pixel(const std::vector<uint8_t>& rgba, size_t i) {
    return {rgba[i * 4], rgba[i * 4 + 1], rgba[i * 4 + 2], rgba[i * 4 + 3]};
}

} // namespace

TEST(Mdl, HandMadeTwoFrameModel) {
    const auto bytes = modeltest::buildMdl();
    auto parsed = content::parseMdl(bytes);
    ASSERT_TRUE(parsed.ok()) << parsed.error().message();
    EXPECT_EQ(parsed->flags, content::kMdlFlagRotate);
    EXPECT_EQ(parsed->poses.size(), 3u);
    EXPECT_EQ(parsed->poses[2].name, "run2");

    const content::ModelMesh m = content::buildMdlMesh(*parsed, content::defaultQuakePalette());
    // v0 is split: triangle 1 faces back and v0 lies on the seam.
    ASSERT_EQ(m.vertex_count, 5u);
    EXPECT_EQ(m.indices, (std::vector<uint32_t>{0, 1, 2, 3, 2, 4}));
    EXPECT_EQ(
        m.uv,
        (std::vector<Vec2>{
            {0.125f, 0.25f}, {0.875f, 0.25f}, {0.875f, 0.75f}, {0.625f, 0.25f}, {0.125f, 0.75f}}));
    ASSERT_EQ(m.pose_count, 3u);
    ASSERT_EQ(m.positions.size(), 15u);
    // scale (2, 0.5, 1) * packed + (-10, 4, 8)
    const std::vector<Vec3> pose0 = {
        {-10, 4, 8}, {10, 4, 8}, {10, 14, 8}, {-10, 4, 8}, {-10, 14, 8}};
    EXPECT_EQ(std::vector<Vec3>(m.positions.begin(), m.positions.begin() + 5), pose0);
    EXPECT_EQ(m.positions[5 + 1], (Vec3{10, 4, 13}));
    EXPECT_EQ(m.positions[10 + 4], (Vec3{-10, 14, 263}));
    // Both triangles wind counter-clockwise seen from +z, so outside (Quake's clockwise) is -z.
    for (const Vec3& n : m.normals)
        EXPECT_EQ(n, (Vec3{0, 0, -1}));
    EXPECT_TRUE(m.rotates);
    EXPECT_EQ(m.mins, (Vec3{-10, 4, 8}));
    EXPECT_EQ(m.maxs, (Vec3{10, 14, 263}));

    ASSERT_EQ(m.frames.size(), 2u);
    EXPECT_EQ(m.frames[0].name, "stand1");
    EXPECT_EQ(m.frames[0].poses.first, 0u);
    EXPECT_EQ(m.frames[0].poses.count, 1u);
    EXPECT_EQ(m.frames[1].name, "run1");
    EXPECT_EQ(m.frames[1].poses.first, 1u);
    EXPECT_EQ(m.frames[1].poses.count, 2u);
    EXPECT_EQ(m.frames[1].poses.end_times, (std::vector<float>{0.2f, 0.5f}));
    // The group loops every 0.5 s: run1 before 0.2 s, run2 until 0.5 s.
    EXPECT_EQ(content::entryAt(m.frames[1].poses, 0.1), 0u);
    EXPECT_EQ(content::entryAt(m.frames[1].poses, 0.3), 1u);
    EXPECT_EQ(content::entryAt(m.frames[1].poses, 0.6), 0u);
    EXPECT_EQ(content::entryAt(m.frames[1].poses, 0.95), 1u);
    EXPECT_EQ(content::entryAt(m.frames[1].poses, -0.1), 1u); // -0.1 is 0.4 in the loop
    EXPECT_EQ(content::entryAt(m.frames[0].poses, 123.0), 0u);

    ASSERT_EQ(m.images.size(), 3u);
    ASSERT_EQ(m.skins.size(), 2u);
    EXPECT_EQ(m.skins[1].images.first, 1u);
    EXPECT_EQ(m.skins[1].images.count, 2u);
    EXPECT_EQ(content::entryAt(m.skins[1].images, 0.2), 1u);
    EXPECT_EQ(m.images[0].width, 4);
    EXPECT_EQ(m.images[0].height, 2);
    EXPECT_EQ(pixel(m.images[0].rgba, 3), quakeColour(3));
    EXPECT_EQ(pixel(m.images[0].rgba, 7), quakeColour(230));
    EXPECT_EQ(m.images[0].fullbright, (std::vector<uint8_t>{0, 0, 0, 0, 0, 0, 0, 255}));
    EXPECT_TRUE(m.images[1].fullbright.empty());
    EXPECT_EQ(pixel(m.images[2].rgba, 5), quakeColour(2));
}

TEST(Mdl, RejectsBadFilesWithTheirPlace) {
    auto version = content::parseMdl(modeltest::buildMdl({.version = 7}));
    ASSERT_FALSE(version.ok());
    EXPECT_EQ(version.error().code, core::ErrorCode::UnsupportedVersion);

    auto index = content::parseMdl(modeltest::buildMdl({.vertex_index_override = 4}));
    ASSERT_FALSE(index.ok());
    EXPECT_EQ(index.error().code, core::ErrorCode::IndexOutOfRange);
    EXPECT_EQ(index.error().lump, "mdl.triangles");
    EXPECT_EQ(index.error().index, 1);

    auto none = content::parseMdl(modeltest::buildMdl({.num_verts = 0}));
    ASSERT_FALSE(none.ok());
    EXPECT_EQ(none.error().code, core::ErrorCode::BadValue);
    EXPECT_EQ(none.error().field, "numverts");

    auto many = content::parseMdl(modeltest::buildMdl({.num_verts = 16385}));
    ASSERT_FALSE(many.ok());
    EXPECT_EQ(many.error().code, core::ErrorCode::LimitExceeded);
}

TEST(Mdl, EveryPrefixIsRejectedAsTruncated) {
    const auto bytes = modeltest::buildMdl();
    for (size_t n = 0; n < bytes.size(); ++n) {
        auto r = content::parseMdl(std::span(bytes.data(), n));
        ASSERT_FALSE(r.ok()) << n;
        EXPECT_EQ(r.error().code, core::ErrorCode::Truncated) << n;
    }
}

TEST(Sprite, QuakeTwoFrameSprite) {
    auto s = content::decodeSprite(modeltest::buildSprite(1), content::defaultQuakePalette());
    ASSERT_TRUE(s.ok()) << s.error().message();
    EXPECT_EQ(s->version, 1);
    EXPECT_EQ(s->orientation, content::SpriteOrientation::Parallel);
    EXPECT_EQ(s->render_mode, content::SpriteRenderMode::AlphaTest);
    EXPECT_FLOAT_EQ(s->radius, 2.5f);
    ASSERT_EQ(s->pictures.size(), 3u);
    const auto& p = s->pictures[0];
    EXPECT_EQ(p.origin_x, -2);
    EXPECT_EQ(p.origin_y, 3);
    EXPECT_EQ(p.width, 2);
    EXPECT_EQ(p.height, 2);
    EXPECT_EQ(pixel(p.rgba, 0), quakeColour(0));
    EXPECT_EQ(pixel(p.rgba, 1), (std::array<uint8_t, 4>{0, 0, 0, 0}));
    EXPECT_EQ(pixel(p.rgba, 2), quakeColour(16));
    EXPECT_EQ(pixel(p.rgba, 3), quakeColour(254));
    ASSERT_EQ(s->frames.size(), 2u);
    EXPECT_EQ(s->frames[0].pictures.count, 1u);
    EXPECT_EQ(s->frames[1].pictures.first, 1u);
    EXPECT_EQ(s->frames[1].pictures.count, 2u);
    EXPECT_EQ(content::entryAt(s->frames[1].pictures, 0.5), 1u);
    EXPECT_EQ(content::entryAt(s->frames[1].pictures, 0.8), 0u);
    EXPECT_EQ(pixel(s->pictures[2].rgba, 0), quakeColour(10));
}

TEST(Sprite, HalfLifePaletteAndRenderModes) {
    const auto& q = content::defaultQuakePalette();
    auto test = content::decodeSprite(modeltest::buildSprite(2, 3), q);
    ASSERT_TRUE(test.ok()) << test.error().message();
    EXPECT_EQ(test->render_mode, content::SpriteRenderMode::AlphaTest);
    using C = std::array<uint8_t, 4>;
    EXPECT_EQ(pixel(test->pictures[0].rgba, 0), (C{0, 255, 7, 255}));
    EXPECT_EQ(pixel(test->pictures[0].rgba, 1), (C{0, 0, 0, 0}));
    EXPECT_EQ(pixel(test->pictures[0].rgba, 2), (C{16, 239, 7, 255}));

    auto alpha = content::decodeSprite(modeltest::buildSprite(2, 2), q);
    ASSERT_TRUE(alpha.ok());
    EXPECT_EQ(pixel(alpha->pictures[0].rgba, 0), (C{255, 0, 7, 0}));
    EXPECT_EQ(pixel(alpha->pictures[0].rgba, 1), (C{255, 0, 7, 255}));
    EXPECT_EQ(pixel(alpha->pictures[0].rgba, 2), (C{255, 0, 7, 16}));

    auto additive = content::decodeSprite(modeltest::buildSprite(2, 1), q);
    ASSERT_TRUE(additive.ok());
    EXPECT_EQ(additive->render_mode, content::SpriteRenderMode::Additive);
    EXPECT_EQ(pixel(additive->pictures[0].rgba, 1), (C{255, 0, 7, 255}));

    auto bad_mode = content::decodeSprite(modeltest::buildSprite(2, 4), q);
    ASSERT_FALSE(bad_mode.ok());
    EXPECT_EQ(bad_mode.error().code, core::ErrorCode::BadValue);
    EXPECT_EQ(bad_mode.error().field, "texFormat");
}

// Half-Life's texgammatable maps the palettes of sprites drawn normal (0) or additive (1), not
// of index-alpha (2) or alpha-test (3) ones (Xash3D cl_sprite.c Mod_SpriteLoadTextures:
// "#texgamma.pal" against "#gradient.pal" and "#masked.pal"). The builder's palette: index i is
// (i, 255 - i, 7); by hand 255 (i / 255)^0.8 truncated: 7 -> 14.37 -> 14, 16 -> 27.84 -> 27,
// 239 -> 242.12 -> 242.
TEST(Sprite, HalfLifePaletteThroughTheGameTable) {
    const auto& q = content::defaultQuakePalette();
    const content::ByteTable table = game::texGammaTable(2.5f, 2.0f);
    using C = std::array<uint8_t, 4>;
    for (int mode : {0, 1}) {
        auto s = content::decodeSprite(modeltest::buildSprite(2, mode), q, &table);
        ASSERT_TRUE(s.ok()) << s.error().message();
        EXPECT_EQ(pixel(s->pictures[0].rgba, 0), (C{0, 255, 14, 255})) << mode;
        EXPECT_EQ(pixel(s->pictures[0].rgba, 1), (C{255, 0, 14, 255})) << mode;
        EXPECT_EQ(pixel(s->pictures[0].rgba, 2), (C{27, 242, 14, 255})) << mode;
    }
    auto test = content::decodeSprite(modeltest::buildSprite(2, 3), q, &table);
    ASSERT_TRUE(test.ok());
    EXPECT_EQ(pixel(test->pictures[0].rgba, 2), (C{16, 239, 7, 255}));
    auto alpha = content::decodeSprite(modeltest::buildSprite(2, 2), q, &table);
    ASSERT_TRUE(alpha.ok());
    EXPECT_EQ(pixel(alpha->pictures[0].rgba, 2), (C{255, 0, 7, 16}));
    // Version 1 (Quake) sprites use the Quake palette as it is.
    auto quake = content::decodeSprite(modeltest::buildSprite(1), q, &table);
    auto plain = content::decodeSprite(modeltest::buildSprite(1), q);
    ASSERT_TRUE(quake.ok() && plain.ok());
    EXPECT_EQ(quake->pictures[0].rgba, plain->pictures[0].rgba);
}

TEST(Sprite, EveryPrefixIsRejectedAsTruncated) {
    for (int version : {1, 2}) {
        const auto bytes = modeltest::buildSprite(version);
        for (size_t n = 0; n < bytes.size(); ++n) {
            auto r =
                content::decodeSprite(std::span(bytes.data(), n), content::defaultQuakePalette());
            ASSERT_FALSE(r.ok()) << version << " " << n;
            EXPECT_EQ(r.error().code, core::ErrorCode::Truncated) << version << " " << n;
        }
    }
}

// Every model and sprite LibreQuake ships decodes; a few are checked against their headers
// (counts read with Python's struct from the files).
TEST(ModelMaps, EveryLibreQuakeModelLoads) {
    int mdl = 0, spr = 0;
    for (const auto& e : fs::directory_iterator(kProgs)) {
        auto bytes = core::readFile(e.path());
        ASSERT_TRUE(bytes.ok()) << e.path();
        if (e.path().extension() == ".mdl") {
            auto m = content::decodeMdl(*bytes, content::defaultQuakePalette());
            ASSERT_TRUE(m.ok()) << e.path() << ": " << m.error().message();
            EXPECT_GT(m->vertex_count, 0u) << e.path();
            EXPECT_EQ(m->positions.size(), size_t(m->pose_count) * m->vertex_count);
            // Normals point outwards: away from the bounds' centre on most vertices.
            int outward = 0;
            for (uint32_t v = 0; v < m->vertex_count; ++v) {
                float d = 0;
                for (size_t k = 0; k < 3; ++k)
                    d += m->normals[v][k] * (m->positions[v][k] - 0.5f * (m->mins[k] + m->maxs[k]));
                outward += d > 0 ? 1 : 0;
            }
            EXPECT_GT(outward * 2, int(m->vertex_count)) << e.path();
            ++mdl;
        } else if (e.path().extension() == ".spr") {
            auto s = content::decodeSprite(*bytes, content::defaultQuakePalette());
            ASSERT_TRUE(s.ok()) << e.path() << ": " << s.error().message();
            ++spr;
        }
    }
    EXPECT_EQ(mdl, 82);
    EXPECT_EQ(spr, 4);

    auto soldier = content::parseMdl(*core::readFile(kProgs / "soldier.mdl"));
    ASSERT_TRUE(soldier.ok());
    EXPECT_EQ(soldier->skin_width, 296);
    EXPECT_EQ(soldier->skin_height, 194);
    EXPECT_EQ(soldier->vertex_count, 613u);
    EXPECT_EQ(soldier->triangles.size(), 886u);
    EXPECT_EQ(soldier->frames.size(), 114u);
    auto armor = content::parseMdl(*core::readFile(kProgs / "armor.mdl"));
    ASSERT_TRUE(armor.ok());
    EXPECT_EQ(armor->skins.size(), 3u);
    EXPECT_EQ(armor->flags, content::kMdlFlagRotate);

    auto explod = content::decodeSprite(*core::readFile(kProgs / "s_explod.spr"),
                                        content::defaultQuakePalette());
    ASSERT_TRUE(explod.ok());
    EXPECT_EQ(explod->frames.size(), 6u);
    EXPECT_EQ(explod->max_width, 64);
}
