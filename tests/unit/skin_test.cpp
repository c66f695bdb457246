// Quake 3 .skin files written here, read as ioquake3's RE_RegisterSkin reads them, and the file
// q3map2 picks for a misc_model's skin key.
#include "content/model/skin.h"
#include "content/vfs/vfs.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace {

struct Pair {
    std::string surface;
    std::string shader;
    int line;
};

std::vector<Pair> pairsOf(const content::Skin& skin) {
    std::vector<Pair> out;
    for (const content::SkinSurface& s : skin.surfaces)
        out.push_back({s.surface, s.shader, s.line});
    return out;
}

void expectPairs(const content::Skin& skin, const std::vector<Pair>& want) {
    const std::vector<Pair> got = pairsOf(skin);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(got[i].surface, want[i].surface) << i;
        EXPECT_EQ(got[i].shader, want[i].shader) << i;
        EXPECT_EQ(got[i].line, want[i].line) << i;
    }
}

} // namespace

TEST(Skin, PlayerHeadSkinWithTagAndWindowsLineEnds) {
    // As OpenArena's models/players/*/head_default.skin: a tag line, then surface,shader lines.
    const char* text = "tag_head,\r\n"
                       "h_Head,models/players/sarge/head.tga\r\n"
                       "H_EYES,models/players/sarge/eyes.tga\r\n";
    auto r = content::parseSkin(text, "head_default.skin");
    ASSERT_TRUE(r.ok()) << r.error().message();
    EXPECT_EQ(r->file, "head_default.skin");
    expectPairs(*r, {{"h_head", "models/players/sarge/head.tga", 2},
                     {"h_eyes", "models/players/sarge/eyes.tga", 3}});
    EXPECT_TRUE(r->warnings.empty());
}

TEST(Skin, CommentsAndQuotedNames) {
    // CommaParse skips // and /* */ comments (commas inside them included) and reads a quoted
    // token whole, spaces and commas included.
    const char* text = "// a comment, with a comma\n"
                       "/* two\n lines, */ \"Flag Pole\",\"models/flags/pole, one.tga\"\n"
                       "b_flag,models/flags/b_flag.tga // trailing\n";
    auto r = content::parseSkin(text, "flag.skin");
    ASSERT_TRUE(r.ok()) << r.error().message();
    expectPairs(*r, {{"flag pole", "models/flags/pole, one.tga", 3},
                     {"b_flag", "models/flags/b_flag.tga", 4}});
}

TEST(Skin, EmptyShaderTakesTheNextToken) {
    // "u_arm," ends its line, so the engine's shader token is the next line's surface name up to
    // its comma ("u_leg"); the rest of that line (",models/leg.tga": a word may begin with a
    // comma) is then a surface name with no shader after it.
    auto r = content::parseSkin("u_arm,\nu_leg,models/leg.tga\n", "x.skin");
    ASSERT_TRUE(r.ok()) << r.error().message();
    expectPairs(*r, {{"u_arm", "u_leg", 1}, {",models/leg.tga", "", 2}});
}

TEST(Skin, TagAnywhereInTheNameIsSkippedCaseAsWritten) {
    // strstr(token, "tag_") on the name as written: "my_tag_x" is skipped, "TAG_Y" is not.
    auto r = content::parseSkin("my_tag_x,\nTAG_Y,shader/y\n", "x.skin");
    ASSERT_TRUE(r.ok()) << r.error().message();
    expectPairs(*r, {{"tag_y", "shader/y", 2}});
}

TEST(Skin, EmptyAndTagOnlyFilesHaveNoSurfaces) {
    for (const char* text : {"", "  \n\t\n", "tag_weapon,\ntag_torso,\n", "// nothing\n"}) {
        auto r = content::parseSkin(text, "x.skin");
        ASSERT_TRUE(r.ok()) << r.error().message();
        EXPECT_TRUE(r->surfaces.empty()) << text;
    }
}

TEST(Skin, SurfacesPastTheLimitAreIgnoredWithAWarning) {
    std::string text;
    for (int i = 0; i < 258; ++i)
        text += "s" + std::to_string(i) + ",shader" + std::to_string(i) + "\n";
    auto r = content::parseSkin(text, "many.skin");
    ASSERT_TRUE(r.ok()) << r.error().message();
    ASSERT_EQ(r->surfaces.size(), 256u);
    EXPECT_EQ(r->surfaces[255].surface, "s255");
    EXPECT_EQ(r->surfaces[255].line, 256);
    ASSERT_EQ(r->warnings.size(), 1u);
    EXPECT_EQ(r->warnings[0], "line 257: surfaces past 256 ignored");
}

TEST(Skin, BinaryBytesAndLongNamesAreErrorsWithFileAndLine) {
    auto nul = content::parseSkin(std::string_view("a,b\nc\0,d\n", 9), "bad.skin");
    ASSERT_FALSE(nul.ok());
    EXPECT_EQ(nul.error().code, core::ErrorCode::BadValue);
    EXPECT_EQ(nul.error().file, "bad.skin");
    EXPECT_EQ(nul.error().lump, "line 2");
    EXPECT_EQ(nul.error().detail, "byte 0x00 at offset 5: not a text file");

    auto high = content::parseSkin("a,b\n\n\xe9,d\n", "bad.skin");
    ASSERT_FALSE(high.ok());
    EXPECT_EQ(high.error().lump, "line 3");

    const std::string n64(64, 'n');
    auto name = content::parseSkin("ok,fine\n" + n64 + ",x\n", "long.skin");
    ASSERT_FALSE(name.ok());
    EXPECT_EQ(name.error().code, core::ErrorCode::LimitExceeded);
    EXPECT_EQ(name.error().lump, "line 2");
    auto shader = content::parseSkin("a,\n\n" + n64 + "\n", "long.skin");
    ASSERT_FALSE(shader.ok());
    EXPECT_EQ(shader.error().lump, "line 3");
    // 63 bytes fit (MAX_QPATH with its NUL).
    EXPECT_TRUE(content::parseSkin(std::string(63, 'n') + "," + std::string(63, 's'), "x").ok());
    EXPECT_NE(name.error().message().find("long.skin"), std::string::npos);
}

TEST(Skin, FindIgnoresCaseAndTheFirstNameWins) {
    auto r = content::parseSkin("b_flag,first\nB_FLAG,second\npole,p\n", "flag.skin");
    ASSERT_TRUE(r.ok());
    const content::SkinSurface* s = content::findSkinSurface(*r, "B_Flag");
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->shader, "first");
    EXPECT_EQ(content::findSkinSurface(*r, "flag"), nullptr);
}

TEST(Skin, Q3map2SkinFileNames) {
    EXPECT_EQ(content::q3map2SkinPath("models/mapobjects/lamp.md3", "2"),
              "models/mapobjects/lamp.md3_2.skin");
    EXPECT_EQ(content::q3map2SkinPath("models/players/sarge/head.md3", "roderic"),
              "models/players/sarge/head_roderic.skin");
    EXPECT_EQ(content::q3map2SkinPath("models/v1.0/lamp", "red"), "models/v1.0/lamp_red.skin");
    EXPECT_EQ(content::q3map2SkinPath("models/lamp.md3", ""), "");
}

TEST(Skin, OpenArenaPak0SkinsParse) {
    // Every .skin in OpenArena's pak0.pk3 (28: player skins and the CTF flag's) reads cleanly.
    content::FileSystem vfs;
    const core::Status st = vfs.addArchive(std::filesystem::path(BSPV_OPENARENA_DIR) / "pak0.pk3");
    ASSERT_TRUE(st.ok()) << st.error().message();
    const std::vector<std::string> names = vfs.list("models/", ".skin");
    EXPECT_EQ(names.size(), 28u);
    size_t surfaces = 0;
    for (const std::string& name : names) {
        auto bytes = vfs.readChecked(name);
        ASSERT_TRUE(bytes.ok()) << name;
        const std::string text(bytes->begin(), bytes->end());
        auto r = content::parseSkin(text, name);
        ASSERT_TRUE(r.ok()) << r.error().message();
        EXPECT_FALSE(r->surfaces.empty()) << name;
        surfaces += r->surfaces.size();
    }
    EXPECT_GT(surfaces, names.size());
    // Sarge's torso: one surface, then tag lines without commas.
    auto upper = vfs.readChecked("models/players/sarge/upper_default.skin");
    ASSERT_TRUE(upper.ok());
    auto r = content::parseSkin(std::string(upper->begin(), upper->end()), "upper_default.skin");
    ASSERT_TRUE(r.ok());
    expectPairs(*r, {{"u_torso", "models/players/grism/enkiskin.tga", 1}});
    // The flag: each flag's surface named twice, the first pair wins.
    auto flag = vfs.readChecked("models/flags/flag.skin");
    ASSERT_TRUE(flag.ok());
    auto f = content::parseSkin(std::string(flag->begin(), flag->end()), "flag.skin");
    ASSERT_TRUE(f.ok());
    ASSERT_EQ(f->surfaces.size(), 4u);
    EXPECT_EQ(content::findSkinSurface(*f, "r_flag")->shader, "models/flags/r_flag.tga");
}
