// Half-Life studio models: a hand-made two-bone model (tests/support/studio_builder.h) with
// exact positions, and every Half-Life model of Debian's assimp-testmodels.
#include "content/model/studio.h"
#include "core/file.h"
#include "game/profile.h"

#include "support/studio_builder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <numbers>

namespace fs = std::filesystem;

namespace {

using Vec3 = std::array<float, 3>;

void expectNear(const Vec3& a, const Vec3& b, const char* what) {
    for (size_t k = 0; k < 3; ++k)
        EXPECT_NEAR(a[k], b[k], 1e-5f) << what << " [" << k << "]";
}

content::StudioModel parseWithAnimation(const std::vector<uint8_t>& bytes) {
    auto m = content::parseStudio(bytes);
    EXPECT_TRUE(m.ok()) << m.error().message();
    if (!m)
        return {};
    auto s = content::decodeStudioAnimation(*m, 0, bytes);
    EXPECT_TRUE(s.ok()) << s.error().message();
    return std::move(*m);
}

} // namespace

TEST(Studio, HandMadeTwoBoneModelRecords) {
    const content::StudioModel m = parseWithAnimation(studiotest::buildStudio());
    ASSERT_EQ(m.bones.size(), 2u);
    EXPECT_EQ(m.bones[1].name, "arm");
    EXPECT_EQ(m.bones[1].parent, 0);
    ASSERT_EQ(m.sequences.size(), 1u);
    EXPECT_EQ(m.sequences[0].label, "idle");
    EXPECT_EQ(m.sequences[0].frame_count, 2u);
    ASSERT_EQ(m.textures.size(), 2u);
    EXPECT_EQ(m.textures[1].flags, content::kStudioFullbright);
    ASSERT_EQ(m.body_parts.size(), 1u);
    ASSERT_EQ(m.body_parts[0].models.size(), 1u);
    const content::StudioSubModel& sub = m.body_parts[0].models[0];
    ASSERT_EQ(sub.meshes.size(), 1u);
    // A strip of 4 gives 2 triangles, the second with its first two corners swapped; the fan
    // of 3 gives one.
    ASSERT_EQ(sub.meshes[0].corners.size(), 9u);
    const uint16_t strip_fan[9] = {0, 1, 2, 2, 1, 0, 2, 0, 1};
    for (size_t i = 0; i < 9; ++i)
        EXPECT_EQ(sub.meshes[0].corners[i].vertex, strip_fan[i]) << i;
    // Frames: bone 0's x is 10 + 0, then 10 + 4; its z rotation 0, then 1 * pi/2.
    ASSERT_EQ(m.frames.size(), 2u);
    EXPECT_FLOAT_EQ(m.frames[0][0][0], 10.0f);
    EXPECT_FLOAT_EQ(m.frames[1][0][0], 14.0f);
    EXPECT_FLOAT_EQ(m.frames[1][0][5], std::numbers::pi_v<float> / 2);
    EXPECT_FLOAT_EQ(m.frames[1][1][5], std::numbers::pi_v<float> / 2); // bone 1 at rest
    EXPECT_FLOAT_EQ(m.frame_time, 0.1f);
}

TEST(Studio, HandMadeTwoBoneModelPoses) {
    const content::ModelMesh mesh =
        content::buildStudioMesh(parseWithAnimation(studiotest::buildStudio()));
    // Drawn vertices: the strip's four corners (the fourth is v0 with other s, t); the fan
    // reuses three of them.
    ASSERT_EQ(mesh.vertex_count, 4u);
    const std::vector<uint32_t> indices = {0, 1, 2, 2, 1, 3, 2, 0, 1};
    EXPECT_EQ(mesh.indices, indices);
    ASSERT_EQ(mesh.pose_count, 2u);
    // Frame 0: bone 0 at (10, 0, 0) unrotated; bone 1 turned 90 degrees about z at
    // (10, 8, 0), so its (1, 0, 0) lands on (10, 9, 0) and its normal (1, 0, 0) on (0, 1, 0).
    expectNear(mesh.positions[0], {11, 0, 0}, "f0 v0");
    expectNear(mesh.positions[1], {10, 0, 2}, "f0 v1");
    expectNear(mesh.positions[2], {10, 9, 0}, "f0 v2");
    expectNear(mesh.positions[3], {11, 0, 0}, "f0 v3");
    expectNear(mesh.normals[0], {0, 0, 1}, "f0 n0");
    expectNear(mesh.normals[2], {0, 1, 0}, "f0 n2");
    // Frame 1: bone 0 at (14, 0, 0) turned 90 degrees: v0 (1, 0, 0) -> (14, 1, 0). Bone 1 turns
    // 180 degrees in all, at Rz90 (0, 8, 0) + (14, 0, 0) = (6, 0, 0): v2 -> (5, 0, 0).
    expectNear(mesh.positions[4], {14, 1, 0}, "f1 v0");
    expectNear(mesh.positions[5], {14, 0, 2}, "f1 v1");
    expectNear(mesh.positions[6], {5, 0, 0}, "f1 v2");
    expectNear(mesh.normals[6], {-1, 0, 0}, "f1 n2");
    expectNear(mesh.mins, {5, 0, 0}, "mins");
    expectNear(mesh.maxs, {14, 9, 2}, "maxs");
    // One frame playing both poses at 10 fps.
    ASSERT_EQ(mesh.frames.size(), 1u);
    EXPECT_EQ(mesh.frames[0].name, "idle");
    EXPECT_EQ(mesh.frames[0].poses.count, 2u);
    EXPECT_EQ(mesh.frames[0].poses.end_times, (std::vector<float>{0.1f, 0.2f}));
    // Texture coordinates: s / 4, t / 2 in the one 4x2 slot.
    EXPECT_EQ(mesh.uv[1], (std::array<float, 2>{1.0f, 0.0f}));
    EXPECT_EQ(mesh.uv[2], (std::array<float, 2>{1.0f, 1.0f}));
    EXPECT_EQ(mesh.uv[3], (std::array<float, 2>{0.0f, 1.0f}));
}

TEST(Studio, SkinFamiliesBecomeImages) {
    const content::ModelMesh mesh =
        content::buildStudioMesh(parseWithAnimation(studiotest::buildStudio()));
    ASSERT_EQ(mesh.images.size(), 2u);
    ASSERT_EQ(mesh.skins.size(), 2u);
    EXPECT_EQ(mesh.skins[1].images.first, 1u);
    const content::ModelImage& body = mesh.images[0];
    ASSERT_EQ(body.width, 4);
    ASSERT_EQ(body.height, 2);
    // Texel 5 is index 5: palette (5, 10, 15).
    EXPECT_EQ(body.rgba[5 * 4 + 0], 5);
    EXPECT_EQ(body.rgba[5 * 4 + 1], 10);
    EXPECT_EQ(body.rgba[5 * 4 + 2], 15);
    EXPECT_TRUE(body.fullbright.empty());
    // Family 1's 2x1 texture stretched over the 4x2 slot: columns 0, 1 index 9, columns 2, 3
    // index 10; red is 100 + index; all fullbright.
    const content::ModelImage& glow = mesh.images[1];
    for (size_t x = 0; x < 4; ++x)
        for (size_t y = 0; y < 2; ++y)
            EXPECT_EQ(glow.rgba[(y * 4 + x) * 4], x < 2 ? 109 : 110) << x << "," << y;
    ASSERT_EQ(glow.fullbright.size(), 8u);
    EXPECT_EQ(glow.fullbright[3], 255);
}

// Half-Life's texgammatable maps the palette of every skin but masked ones (Xash3D img_wad.c
// Image_LoadMDL: LUMP_TEXGAMMA, kStudioMasked LUMP_MASKED). By hand, 255 (i / 255)^0.8
// truncated: 5 -> 10.98 -> 10, 10 -> 19.11 -> 19, 15 -> 26.44 -> 26, 109 -> 129.20 -> 129,
// 110 -> 130.14 -> 130.
TEST(Studio, SkinPalettesThroughTheGameTable) {
    const content::ByteTable table = game::texGammaTable(2.5f, 2.0f);
    const content::ModelMesh mesh =
        content::buildStudioMesh(parseWithAnimation(studiotest::buildStudio()), 0, {}, &table);
    ASSERT_EQ(mesh.images.size(), 2u);
    const content::ModelImage& body = mesh.images[0];
    EXPECT_EQ(body.rgba[5 * 4 + 0], 10);
    EXPECT_EQ(body.rgba[5 * 4 + 1], 19);
    EXPECT_EQ(body.rgba[5 * 4 + 2], 26);
    EXPECT_EQ(mesh.images[1].rgba[0], 129);
    EXPECT_EQ(mesh.images[1].rgba[2 * 4], 130);
    // A masked skin keeps its palette: texel 5 stays (5, 10, 15).
    const content::ModelMesh masked = content::buildStudioMesh(
        parseWithAnimation(studiotest::buildStudio({.body_flags = content::kStudioMasked})), 0, {},
        &table);
    EXPECT_EQ(masked.images[0].rgba[5 * 4 + 0], 5);
    EXPECT_EQ(masked.images[0].rgba[5 * 4 + 1], 10);
    EXPECT_EQ(masked.images[0].rgba[5 * 4 + 2], 15);
}

// Texture flags become draw ranges (one per mesh: the hand-made model's 9 indices) and, for a
// masked texture, a mask marking index 255 (texel 7 here), not fullbright texels.
TEST(Studio, TextureFlagsBecomeDrawRanges) {
    auto build = [](int32_t flags, uint8_t texel7 = 7) {
        return content::buildStudioMesh(parseWithAnimation(
            studiotest::buildStudio({.body_flags = flags, .body_texel7 = texel7})));
    };
    const content::ModelMesh plain = build(0);
    ASSERT_EQ(plain.ranges.size(), 1u);
    EXPECT_EQ(plain.ranges[0].first_index, 0u);
    EXPECT_EQ(plain.ranges[0].index_count, 9u);
    EXPECT_FALSE(plain.ranges[0].additive || plain.ranges[0].masked || plain.ranges[0].chrome);

    const content::ModelMesh additive = build(content::kStudioAdditive);
    ASSERT_EQ(additive.ranges.size(), 1u);
    EXPECT_TRUE(additive.ranges[0].additive);
    EXPECT_FALSE(additive.ranges[0].masked);

    // Masked and additive: masked wins, as R_StudioDrawPoints tests it first. Texel 7 is index
    // 255: cut; the others are kept and not fullbright.
    const content::ModelMesh masked =
        build(content::kStudioMasked | content::kStudioAdditive | content::kStudioFullbright, 255);
    ASSERT_EQ(masked.ranges.size(), 1u);
    EXPECT_TRUE(masked.ranges[0].masked);
    EXPECT_FALSE(masked.ranges[0].additive);
    ASSERT_EQ(masked.images[0].fullbright.size(), 8u);
    EXPECT_EQ(masked.images[0].fullbright, (std::vector<uint8_t>{0, 0, 0, 0, 0, 0, 0, 255}));
    EXPECT_EQ(masked.images[0].rgba[7 * 4], 255); // palette 255: (255, 254, 253)

    // Flat shade: a flag of the range, the mesh otherwise as the plain one.
    const content::ModelMesh flat = build(content::kStudioFlatShade);
    ASSERT_EQ(flat.ranges.size(), 1u);
    EXPECT_TRUE(flat.ranges[0].flat);
    EXPECT_FALSE(plain.ranges[0].flat);

    // Chrome on the 4x2 texture alone in a 4x2 atlas: the whole image, 32 / 4 and 32 / 2.
    const content::ModelMesh chrome = build(content::kStudioChrome);
    ASSERT_EQ(chrome.ranges.size(), 1u);
    EXPECT_TRUE(chrome.ranges[0].chrome);
    EXPECT_EQ(chrome.ranges[0].chrome_rect, (std::array<float, 4>{0, 0, 1, 1}));
    EXPECT_EQ(chrome.ranges[0].chrome_scale, (std::array<float, 2>{8, 16}));
}

// The flags come from the texture the chosen skin family uses (R_StudioDrawPoints reads
// ptexture[pskinref[skinref]]): family 1's 2x1 "glow" texture decides skin 1's ranges.
TEST(Studio, SkinFamilyTexturesGiveTheirOwnFlags) {
    auto build = [](int32_t body, int32_t glow) {
        return content::buildStudioMesh(
            parseWithAnimation(studiotest::buildStudio({.body_flags = body, .glow_flags = glow})));
    };
    // Both plain: skin 1 shares the mesh's ranges.
    const content::ModelMesh same = build(0, content::kStudioFullbright);
    ASSERT_EQ(same.skins.size(), 2u);
    EXPECT_TRUE(same.skin_ranges.size() < 2 || same.skin_ranges[1].empty());
    EXPECT_EQ(&content::skinRanges(same, 1), &same.ranges);

    // Family 1 chrome: skin 0 plain, skin 1 one chrome range over the whole 4x2 slot, its
    // scale from the 2x1 texture's own size (32 / 2, 32 / 1), not the slot's.
    const content::ModelMesh chrome = build(0, content::kStudioChrome);
    ASSERT_EQ(chrome.ranges.size(), 1u);
    EXPECT_FALSE(chrome.ranges[0].chrome);
    const auto& r1 = content::skinRanges(chrome, 1);
    ASSERT_EQ(r1.size(), 1u);
    EXPECT_TRUE(r1[0].chrome);
    EXPECT_EQ(r1[0].first_index, 0u);
    EXPECT_EQ(r1[0].index_count, 9u);
    EXPECT_EQ(r1[0].chrome_rect, (std::array<float, 4>{0, 0, 1, 1}));
    EXPECT_EQ(r1[0].chrome_scale, (std::array<float, 2>{16, 32}));
    EXPECT_FALSE(content::skinRanges(chrome, 0)[0].chrome);
    // A skin past the families clamps to the last.
    EXPECT_EQ(&content::skinRanges(chrome, 7), &r1);

    // Family 0 additive, family 1 masked: each skin its own.
    const content::ModelMesh mixed = build(content::kStudioAdditive, content::kStudioMasked);
    ASSERT_EQ(mixed.ranges.size(), 1u);
    EXPECT_TRUE(mixed.ranges[0].additive);
    EXPECT_FALSE(mixed.ranges[0].masked);
    const auto& m1 = content::skinRanges(mixed, 1);
    ASSERT_EQ(m1.size(), 1u);
    EXPECT_TRUE(m1[0].masked);
    EXPECT_FALSE(m1[0].additive);
}

// Bone controllers as the engine sets and applies them. InitBoneControllers (SetController
// with 0): controller 0 (ZR -90..90): 255 * 90 / 180 = 127.5, truncated 127; 1 (X 0..10): 0;
// 2 (YR 0..360, a full turn): 0; 3 (ZR 200..300): 0 lies over 180 below the middle 250, so it
// becomes 360, 255 * 160 / 100 = 408, clamped 255.
TEST(Studio, BoneControllersAtTheirInitialSettings) {
    const auto bytes = studiotest::buildStudio({.controllers = true});
    auto parsed = content::parseStudio(bytes);
    ASSERT_TRUE(parsed.ok()) << parsed.error().message();
    const content::StudioModel& m = *parsed;
    ASSERT_EQ(m.controllers.size(), 5u);
    EXPECT_EQ(m.controllers[3].start, 200.0f);
    EXPECT_EQ(m.controllers[2].type, content::kStudioYR | content::kStudioRLoop);
    EXPECT_EQ(m.bones[1].controllers[5], 0);
    EXPECT_EQ(m.bones[0].controllers[0], 1);
    EXPECT_EQ(content::studioInitControllers(m),
              (content::StudioControllerSettings{127, 0, 0, 255}));

    // R_StudioCalcBoneAdj for settings 64, 51, 128, 0: -90 + 180 * 64 / 255 degrees;
    // 10 * 51 / 255 = 2 units; 128 * 360 / 256 = 180 degrees (looping); 200 degrees; the
    // mouth (closed) at its start, -4 units.
    const std::vector<float> adj = content::studioControllerAdjustments(m, {64, 51, 128, 0});
    ASSERT_EQ(adj.size(), 5u);
    const float deg = std::numbers::pi_v<float> / 180.0f;
    EXPECT_FLOAT_EQ(adj[0], (-90.0f + 180.0f * 64.0f / 255.0f) * deg);
    EXPECT_FLOAT_EQ(adj[1], 2.0f);
    EXPECT_FLOAT_EQ(adj[2], std::numbers::pi_v<float>);
    EXPECT_FLOAT_EQ(adj[3], 200.0f * deg);
    EXPECT_FLOAT_EQ(adj[4], -4.0f);
}

// The rest pose moved by controllers 0 (255: +90 degrees on the arm's z, so pi in all) and 1
// (102: 10 * 102 / 255 = 4 units on the root's x). Root at (14, 0, 0): vertex 0 (1, 0, 0) at
// (15, 0, 0), vertex 1 (0, 0, 2) at (14, 0, 2). The arm at (14, 8, 0) turned pi: vertex 2
// (1, 0, 0) at (13, 8, 0), its normal (1, 0, 0) to (-1, 0, 0). Settings 0 turn the arm by
// -90 degrees (to 0): vertex 2 at (11, 8, 0), the root at 10.
TEST(Studio, BoneControllersMoveTheirBones) {
    const auto bytes = studiotest::buildStudio({.controllers = true});
    auto parsed = content::parseStudio(bytes);
    ASSERT_TRUE(parsed.ok()) << parsed.error().message();
    const content::StudioModel& m = *parsed;
    const content::ModelMesh moved = content::buildStudioMesh(m, 0, {255, 102, 0, 0});
    ASSERT_EQ(moved.pose_count, 1u);
    auto near = [](std::array<float, 3> a, std::array<float, 3> b) {
        for (size_t k = 0; k < 3; ++k)
            EXPECT_NEAR(a[k], b[k], 1e-5f) << k;
    };
    near(moved.positions[0], {15, 0, 0});
    near(moved.positions[1], {14, 0, 2});
    near(moved.positions[2], {13, 8, 0});
    near(moved.normals[2], {-1, 0, 0});
    const content::ModelMesh zero = content::buildStudioMesh(m, 0, {0, 0, 0, 0});
    near(zero.positions[0], {11, 0, 0});
    near(zero.positions[2], {11, 8, 0});
    near(zero.normals[2], {1, 0, 0});
}

// Body groups: each part shows model (body / base) % nummodels (SetBodygroup). The builder's
// parts draw the model 1, 0, 2, 1 times for body 0..3; body 4 chooses as body 0 in part 0 and
// the empty model in part 1 (4 / 2 % 2 = 0).
TEST(Studio, BodyValueChoosesAModelPerPart) {
    const content::StudioModel m =
        parseWithAnimation(studiotest::buildStudio({.body_groups = true}));
    ASSERT_EQ(m.body_parts.size(), 2u);
    EXPECT_EQ(m.body_parts[0].base, 1);
    EXPECT_EQ(m.body_parts[1].base, 2);
    ASSERT_EQ(m.body_parts[1].models.size(), 2u);
    EXPECT_EQ(m.body_parts[1].models[0].name, "empty");
    EXPECT_EQ(content::studioBodyModels(m, 1), (std::vector<uint32_t>{1, 0}));
    EXPECT_EQ(content::studioBodyModels(m, 2), (std::vector<uint32_t>{0, 1}));
    EXPECT_EQ(content::studioBodyModels(m, -5), (std::vector<uint32_t>{0, 0}));
    const size_t triangles[5] = {3, 0, 6, 3, 3};
    for (int32_t body = 0; body < 5; ++body)
        EXPECT_EQ(content::buildStudioMesh(m, body).indices.size(), 3 * triangles[body]) << body;
    // Both copies' meshes are plain: one range of 18 indices.
    const content::ModelMesh two = content::buildStudioMesh(m, 2);
    ASSERT_EQ(two.ranges.size(), 1u);
    EXPECT_EQ(two.ranges[0].index_count, 18u);
}

// Sequence 1 "walk" (5 fps, one frame at the bones' rest values) instead of the first.
TEST(Studio, AnySequenceIsSampled) {
    const auto bytes = studiotest::buildStudio({.walk_sequence = true});
    auto m = content::parseStudio(bytes);
    ASSERT_TRUE(m.ok()) << m.error().message();
    ASSERT_EQ(m->sequences.size(), 2u);
    ASSERT_TRUE(content::decodeStudioAnimation(*m, 1, bytes).ok());
    EXPECT_EQ(m->frames_sequence, 1u);
    ASSERT_EQ(m->frames.size(), 1u);
    EXPECT_FLOAT_EQ(m->frames[0][0][0], 10.0f);
    EXPECT_FLOAT_EQ(m->frame_time, 0.2f);
    const content::ModelMesh mesh = content::buildStudioMesh(*m);
    ASSERT_EQ(mesh.frames.size(), 1u);
    EXPECT_EQ(mesh.frames[0].name, "walk");
    EXPECT_EQ(mesh.pose_count, 1u);
    EXPECT_FALSE(content::decodeStudioAnimation(*m, 2, bytes).ok());
}

TEST(Studio, BoneAnglesTurnRollThenPitchThenYaw) {
    // AngleQuaternion: (x, y, z) = (pi/2, 0, pi/2) is Rz(90) * Rx(90): (0, 1, 0) -> (0, 0, 1)
    // and (0, 0, 1) -> (0, -1, 0) -> (1, 0, 0).
    const float h = std::numbers::pi_v<float> / 2;
    const content::StudioBone bone{"b", -1, {}, {}};
    const content::StudioBoneFrame frame{1, 2, 3, h, 0, h};
    const auto m = content::studioBoneTransforms(std::span(&bone, 1), std::span(&frame, 1));
    ASSERT_EQ(m.size(), 1u);
    // Columns are the images of the axes: column 1 = R (0, 1, 0), column 2 = R (0, 0, 1).
    EXPECT_NEAR(m[0][1], 0, 1e-6f);
    EXPECT_NEAR(m[0][5], 0, 1e-6f);
    EXPECT_NEAR(m[0][9], 1, 1e-6f);
    EXPECT_NEAR(m[0][2], 1, 1e-6f);
    EXPECT_NEAR(m[0][6], 0, 1e-6f);
    EXPECT_NEAR(m[0][10], 0, 1e-6f);
    EXPECT_EQ(m[0][3], 1);
    EXPECT_EQ(m[0][7], 2);
    EXPECT_EQ(m[0][11], 3);
}

TEST(Studio, RejectsBadFilesWithTheirPlace) {
    auto version = content::parseStudio(studiotest::buildStudio({.version = 11}));
    ASSERT_FALSE(version.ok());
    EXPECT_EQ(version.error().code, core::ErrorCode::UnsupportedVersion);

    auto parent = content::parseStudio(studiotest::buildStudio({.bone1_parent = 1}));
    ASSERT_FALSE(parent.ok());
    EXPECT_EQ(parent.error().code, core::ErrorCode::BadValue);
    EXPECT_EQ(parent.error().lump, "studio.bones");
    EXPECT_EQ(parent.error().index, 1);

    auto vertex = content::parseStudio(studiotest::buildStudio({.last_vertex = 3}));
    ASSERT_FALSE(vertex.ok());
    EXPECT_EQ(vertex.error().code, core::ErrorCode::IndexOutOfRange);
    EXPECT_EQ(vertex.error().message(), "studio.meshes[0].corner: vertex 3 of 3, normal 0 of 2");

    auto controller = content::parseStudio(studiotest::buildStudio({.bone0_x_controller = 0}));
    ASSERT_FALSE(controller.ok());
    EXPECT_EQ(controller.error().code, core::ErrorCode::IndexOutOfRange);
    EXPECT_EQ(controller.error().message(), "studio.bones[0].bonecontroller 0: 0 of 0");
}

TEST(Studio, EveryPrefixIsRejected) {
    const auto bytes = studiotest::buildStudio();
    for (size_t n = 0; n < bytes.size(); ++n) {
        const std::span<const uint8_t> prefix(bytes.data(), n);
        auto m = content::parseStudio(prefix);
        if (m.ok()) { // the records end before the file does; the animation runs do not
            auto s = content::decodeStudioAnimation(*m, 0, prefix);
            EXPECT_FALSE(s.ok()) << n;
        } else {
            EXPECT_EQ(m.error().code, core::ErrorCode::Truncated) << n;
        }
    }
}

TEST(Studio, CompanionFilePaths) {
    EXPECT_EQ(content::studioTextureFilePath("models/scientist.mdl"), "models/scientistT.mdl");
    EXPECT_EQ(content::studioSequenceGroupPath("models/scientist.mdl", 1),
              "models/scientist01.mdl");
    EXPECT_EQ(content::studioSequenceGroupPath("models/x.mdl", 12), "models/x12.mdl");
}

// Debian's assimp-testmodels (scripts/install-deps.sh --test): the Half-Life models assimp's
// own tests use, with textures inside or in "manT.mdl", sequence group files, chrome, additive
// and alpha-tested textures, and edge cases (duplicate and unnamed parts). Every model loads
// with its companions; the companions alone are rejected by name; every triangle winds
// clockwise seen from where its vertex normals point (the world's front-face rule), which a
// strip expanded with the wrong parity would break.
TEST(StudioModels, AssimpHalfLifeModels) {
    const fs::path dir = "/usr/share/assimp/models/MDL/MDL (HL1)";
    ASSERT_TRUE(fs::is_directory(dir)) << dir << ": install assimp-testmodels";
    std::vector<fs::path> files;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        if (e.path().extension() == ".mdl")
            files.push_back(e.path());
    ASSERT_EQ(files.size(), 33u);
    size_t models = 0, companions = 0, from_groups = 0, with_t = 0;
    for (const fs::path& f : files) {
        SCOPED_TRACE(f.string());
        auto bytes = core::readFile(f);
        ASSERT_TRUE(bytes.ok());
        auto m = content::parseStudio(*bytes);
        const std::string stem = f.stem().string();
        const bool companion =
            stem.ends_with("T") || (stem.size() > 2 && std::isdigit(uint8_t(stem.back())) &&
                                    std::isdigit(uint8_t(stem[stem.size() - 2])));
        if (companion) {
            ++companions;
            if (stem.ends_with("T")) { // a texture file: a header with textures only
                ASSERT_TRUE(m.ok()) << m.error().message();
                EXPECT_TRUE(m->body_parts.empty());
                EXPECT_FALSE(m->textures.empty());
            } else {
                ASSERT_FALSE(m.ok());
                EXPECT_EQ(m.error().message(), "studio.header.ident: not IDST");
            }
            continue;
        }
        ++models;
        ASSERT_TRUE(m.ok()) << m.error().message();
        if (m->textures.empty()) {
            ++with_t;
            auto t = core::readFile(content::studioTextureFilePath(f.string()));
            ASSERT_TRUE(t.ok());
            auto s = content::loadStudioTextures(*m, *t);
            ASSERT_TRUE(s.ok()) << s.error().message();
        }
        ASSERT_FALSE(m->sequences.empty());
        const uint32_t group = m->sequences[0].group;
        std::vector<uint8_t> anim = *bytes;
        if (group > 0) {
            ++from_groups;
            auto g = core::readFile(content::studioSequenceGroupPath(f.string(), group));
            ASSERT_TRUE(g.ok());
            anim = std::move(*g);
        }
        auto s = content::decodeStudioAnimation(*m, 0, anim);
        ASSERT_TRUE(s.ok()) << s.error().message();
        const content::ModelMesh mesh = content::buildStudioMesh(*m);
        ASSERT_GT(mesh.indices.size(), 0u);
        ASSERT_EQ(mesh.images.size(), m->skin_families.size());
        for (uint32_t i : mesh.indices)
            ASSERT_LT(i, mesh.vertex_count);
        for (uint32_t p = 0; p < mesh.pose_count; ++p)
            for (size_t i = 0; i < mesh.indices.size(); i += 3) {
                const size_t base = size_t(p) * mesh.vertex_count;
                const auto& a = mesh.positions[base + mesh.indices[i]];
                const auto& b = mesh.positions[base + mesh.indices[i + 1]];
                const auto& c = mesh.positions[base + mesh.indices[i + 2]];
                const Vec3 e1{b[0] - a[0], b[1] - a[1], b[2] - a[2]};
                const Vec3 e2{c[0] - a[0], c[1] - a[1], c[2] - a[2]};
                const Vec3 out{e2[1] * e1[2] - e2[2] * e1[1], e2[2] * e1[0] - e2[0] * e1[2],
                               e2[0] * e1[1] - e2[1] * e1[0]};
                float d = 0;
                for (size_t j = 0; j < 3; ++j)
                    for (size_t k = 0; k < 3; ++k)
                        d += out[k] * mesh.normals[base + mesh.indices[i + j]][k];
                EXPECT_GT(d, 0.0f) << "pose " << p << " triangle " << i / 3;
            }
    }
    EXPECT_EQ(models, 13u);
    EXPECT_EQ(companions, 20u); // manT, man01 and nine group files in each of two folders
    EXPECT_EQ(with_t, 1u);      // man.mdl
    EXPECT_EQ(from_groups, 2u); // the two sequence group folders
}
