// A misc_model's .skin as q3map2 applies it (content/model/md3_asset.cpp): the file its "_skin" key
// names, the skin's shader on the surfaces it names, the others left out; what the pick panel
// shows of the instance, its light included.
#include "scene/models/model_pick.h"
#include "scene/models/model_set.h"

#include "support/skin_scene.h"

#include <gtest/gtest.h>

namespace {

scene::EntityModelSet loadSet(skintest::SkinScene& s) {
    return scene::loadEntityModels(s.map, s.fs, scene::LightmapSet{}, scene::WorldMesh{},
                                   &s.shaders);
}

bool hasText(const std::vector<std::string>& lines, const std::string& text) {
    for (const std::string& l : lines)
        if (l == text)
            return true;
    return false;
}

} // namespace

TEST(SkinModels, NamedSkinGivesItsShaderAndLeavesTheRestOut) {
    skintest::SkinScene s;
    skintest::makeSkinScene(s, "red", "models/test/thing_red.skin",
                            "tag_weapon,\nFLAG,models/test/red_skin\n");
    const scene::EntityModelSet set = loadSet(s);
    ASSERT_EQ(set.models.size(), 1u);
    const scene::LoadedModel& m = set.models[0];
    EXPECT_EQ(m.path, "models/test/thing.md3#flag");
    EXPECT_EQ(m.skin, "models/test/thing_red.skin");
    EXPECT_TRUE(m.warnings.empty()) << m.warnings[0];
    ASSERT_TRUE(m.mesh.has_value());
    ASSERT_EQ(m.mesh->images.size(), 1u);
    const content::ModelImage& img = m.mesh->images[0];
    ASSERT_EQ(img.width, 2u);
    EXPECT_EQ((std::array<uint8_t, 4>{img.rgba[0], img.rgba[1], img.rgba[2], img.rgba[3]}),
              (std::array<uint8_t, 4>{60, 90, 120, 255}));
    ASSERT_EQ(set.instances.size(), 1u);
    EXPECT_TRUE(set.missing.empty());

    // The pick panel: file and skin, frame, and the engine's fixed light without grid data
    // (R_SetupEntityLighting): ambient (75 + 16) / 127.5 = 0.713725, directed 75 / 127.5 =
    // 0.588235 from (0.45, 0.3, 0.9) / 1.05 = (0.428571, 0.285714, 0.857143).
    const std::vector<std::string> lines = scene::describeInstance(set, 0);
    ASSERT_EQ(lines.size(), 4u);
    EXPECT_EQ(lines[0], "model models/test/thing.md3#flag  skin 0  (models/test/thing_red.skin)");
    EXPECT_EQ(lines[1], "frame 0 \"idle0\"  1 poses");
    EXPECT_EQ(lines[2], "ambient 0.71 0.71 0.71");
    EXPECT_EQ(lines[3], "directed 0.59 0.59 0.59 toward 0.43 0.29 0.86");
    EXPECT_EQ(set.instances[0].light_bytes, 127.5f);
    EXPECT_TRUE(scene::describeInstance(set, 1).empty());
}

TEST(SkinModels, NumericSkinAndAMissingShader) {
    // "_skin" "2": q3map2's DarkPlaces naming, thing.md3_2.skin. The body's shader is in no
    // script and no image: the missing texture, listed in the model's warnings.
    skintest::SkinScene s;
    skintest::makeSkinScene(s, "2", "models/test/thing.md3_2.skin",
                            "body,models/test/none\nflag,models/test/red_skin\n");
    const scene::EntityModelSet set = loadSet(s);
    ASSERT_EQ(set.models.size(), 2u);
    EXPECT_EQ(set.models[0].path, "models/test/thing.md3#body");
    EXPECT_EQ(set.models[0].skin, "models/test/thing.md3_2.skin");
    ASSERT_EQ(set.models[0].warnings.size(), 1u);
    EXPECT_EQ(set.models[0].warnings[0], "shader 'models/test/none' not found (missing texture)");
    EXPECT_TRUE(set.models[1].warnings.empty());
    EXPECT_EQ(set.instances.size(), 2u);
}

TEST(SkinModels, MissingOrEmptySkinKeepsTheModelsShaders) {
    skintest::SkinScene s;
    skintest::makeSkinScene(s, "blue", "", "");
    const scene::EntityModelSet set = loadSet(s);
    ASSERT_EQ(set.models.size(), 2u);
    for (const scene::LoadedModel& m : set.models) {
        EXPECT_TRUE(m.skin.empty());
        ASSERT_FALSE(m.warnings.empty());
        EXPECT_EQ(m.warnings[0],
                  "skin models/test/thing_blue.skin not found: the model's own shaders");
    }
    // The md3's own shaders are in no script and no image either.
    EXPECT_TRUE(
        hasText(set.models[1].warnings, "shader 'models/test/flag' not found (missing texture)"));

    skintest::SkinScene tags;
    skintest::makeSkinScene(tags, "t", "models/test/thing_t.skin", "tag_weapon,\n");
    const scene::EntityModelSet tag_set = loadSet(tags);
    ASSERT_EQ(tag_set.models.size(), 2u);
    EXPECT_EQ(tag_set.models[0].warnings[0],
              "skin models/test/thing_t.skin names no surface: the model's own shaders");
}

TEST(SkinModels, SkinNamingNoSurfaceOfTheModelDrawsNothing) {
    skintest::SkinScene s;
    skintest::makeSkinScene(s, "x", "models/test/thing_x.skin", "wing,models/test/red_skin\n");
    const scene::EntityModelSet set = loadSet(s);
    EXPECT_TRUE(set.instances.empty());
    ASSERT_EQ(set.missing.size(), 1u);
    EXPECT_EQ(set.missing[0], "misc_model: models/test/thing.md3 (skin models/test/thing_x.skin "
                              "names none of its surfaces)");

    // A broken skin: its error, and the model's own shaders.
    skintest::SkinScene bad;
    skintest::makeSkinScene(bad, "b", "models/test/thing_b.skin", std::string("a,b\n\x80", 5));
    const scene::EntityModelSet bad_set = loadSet(bad);
    ASSERT_EQ(bad_set.models.size(), 2u);
    EXPECT_EQ(bad_set.models[0].warnings[0],
              "models/test/thing_b.skin: line 2: byte 0x80 at offset 4: not a text file: the "
              "model's own shaders");
}
