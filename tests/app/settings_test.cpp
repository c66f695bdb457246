// Settings, bookmarks and recent files: text and file round trips, untrusted-file cases,
// config folder resolution, map keys.
#include "app/settings.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <random>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

// A fresh folder per test under the build's temp area; never the user's home.
fs::path scratch(const std::string& name) {
    const fs::path dir =
        fs::temp_directory_path() / ("bspv_settings_" + std::to_string(::getpid()) + "_" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

void writeText(const fs::path& p, const std::string& text) {
    std::ofstream(p, std::ios::binary) << text;
}

app::Settings sample() {
    app::Settings s;
    s.speed = 812.5f;
    s.fov = 105.0f;
    s.view = "lightmap";
    s.wireframe = true;
    s.pvs = false;
    s.frustum = false;
    s.neutral_lighting = true;
    s.liquid_alpha = 0.4f;
    s.vsync = false;
    s.ui_scale = 1.25f;
    s.exposure = 0.5f;
    s.gamma = 1.2f;
    s.brightness = 0.05f;
    s.auto_exposure = true;
    s.texture_mode = "GL_NEAREST_MIPMAP_LINEAR";
    s.anisotropy = 4.0f;
    s.screenshot_folder = "/home/u/Pictures/bsp shots";
    s.export_folder = "/home/u/exports";
    s.use_detected_games = false;
    s.quake2_look = "classic";
    s.windows = {{"debug", true}, {"textures", false}};
    app::addRecent(s.recent, "/maps/a.bsp");
    app::addRecent(s.recent, "/maps/with space/b.bsp");
    app::addRecent(s.recent, "/baseoa/pak6.pk3:maps/oa_dm1.bsp");
    app::setBookmark(s, "/maps/a.bsp", 1, {1.5f, -2.25f, 3.0f, 10.0f, 270.0f});
    app::setBookmark(s, "/maps/a.bsp", 9, {100.125f, 200.0f, -300.0f, -45.5f, 0.1f});
    app::setBookmark(s, "/baseoa/pak6.pk3:maps/oa_dm1.bsp", 4, {0.1f, 0.2f, 0.3f, 0.4f, 0.5f});
    // A named bookmark: spaces, '%' and UTF-8 in the name.
    app::setBookmark(s, "/maps/a.bsp", 2, {1, 2, 3, 4, 5, "red armour 100% - \xc3\xa9tage"});
    return s;
}

size_t countPrefix(const std::vector<std::string>& v, const std::string& needle) {
    size_t n = 0;
    for (const std::string& s : v)
        n += s.find(needle) != std::string::npos;
    return n;
}

} // namespace

TEST(Settings, DefaultsAreDefaults) {
    const app::Settings s;
    EXPECT_EQ(s.speed, 320.0f);
    EXPECT_EQ(s.view, "lit");
    EXPECT_EQ(s.quake2_look, "yamagi");
    EXPECT_FALSE(s.auto_exposure); // the fixed tone map scale
    EXPECT_TRUE(s.recent.empty());
    EXPECT_TRUE(s.bookmarks.empty());
}

TEST(Settings, TextRoundTripKeepsEveryField) {
    const app::Settings s = sample();
    std::vector<std::string> warnings;
    const app::Settings back = app::parseSettings(app::formatSettings(s), &warnings);
    EXPECT_TRUE(warnings.empty()) << warnings.front();
    EXPECT_EQ(back, s);
    EXPECT_NE(back, app::Settings());
    ASSERT_EQ(back.recent.size(), 3u);
    EXPECT_EQ(back.recent[0], "/baseoa/pak6.pk3:maps/oa_dm1.bsp");
    EXPECT_EQ(back.recent[1], "/maps/with space/b.bsp");
    EXPECT_EQ(back.recent[2], "/maps/a.bsp");
    auto b = app::bookmark(back, "/maps/a.bsp", 9);
    ASSERT_TRUE(b);
    EXPECT_EQ(b->x, 100.125f);
    EXPECT_EQ(b->pitch, -45.5f);
}

TEST(Settings, FileRoundTripIsAtomicAndLeavesNoTemporaries) {
    const fs::path dir = scratch("file");
    const fs::path file = dir / "sub" / app::kConfigFileName; // folder created on save
    const app::Settings s = sample();
    ASSERT_TRUE(app::saveSettings(file, s).ok());
    std::vector<std::string> warnings;
    EXPECT_EQ(app::loadSettings(file, &warnings), s);
    EXPECT_TRUE(warnings.empty());
    // Saving again replaces the file whole.
    app::Settings t = s;
    t.speed = 99.0f;
    t.bookmarks.clear();
    ASSERT_TRUE(app::saveSettings(file, t).ok());
    EXPECT_EQ(app::loadSettings(file, &warnings), t);
    size_t entries = 0;
    for (const auto& e : fs::directory_iterator(dir / "sub")) {
        ++entries;
        EXPECT_EQ(e.path().filename(), app::kConfigFileName);
    }
    EXPECT_EQ(entries, 1u);
    fs::remove_all(dir);
}

TEST(Settings, MissingFileGivesDefaultsQuietly) {
    const fs::path dir = scratch("missing");
    std::vector<std::string> warnings;
    EXPECT_EQ(app::loadSettings(dir / "nope.cfg", &warnings), app::Settings());
    EXPECT_TRUE(warnings.empty());
    fs::remove_all(dir);
}

TEST(Settings, ForeignOrHugeOrOddFilesGiveDefaultsWithAWarning) {
    const fs::path dir = scratch("corrupt");
    struct Case {
        std::string name, text;
    };
    std::string huge = "# bspview config 1\n";
    while (huge.size() <= app::kMaxConfigBytes)
        huge += "speed 500\n";
    const std::vector<Case> cases = {
        {"empty", ""},
        {"no_header", "speed 500\nfov 100\n"},
        {"json", "{\"speed\": 500}"},
        {"binary", std::string("\x00\xff\x13\x37 speed 500\n", 16)},
        {"huge", huge},
    };
    for (const Case& c : cases) {
        const fs::path p = dir / (c.name + ".cfg");
        writeText(p, c.text);
        std::vector<std::string> warnings;
        EXPECT_EQ(app::loadSettings(p, &warnings), app::Settings()) << c.name;
        EXPECT_FALSE(warnings.empty()) << c.name;
    }
    // A folder where the file should be.
    fs::create_directories(dir / "folder.cfg");
    std::vector<std::string> warnings;
    EXPECT_EQ(app::loadSettings(dir / "folder.cfg", &warnings), app::Settings());
    EXPECT_EQ(warnings.size(), 1u);
    fs::remove_all(dir);
}

TEST(Settings, BadLinesAreSkippedAndGoodOnesKept) {
    const std::string text = "# bspview config 1\n"
                             "speed abc\n"
                             "fov 999\n"
                             "liquid_alpha nan\n"
                             "wireframe maybe\n"
                             "view\n"
                             "quake2_look gl1\n"
                             "bogus_key 1\n"
                             "bookmark 0 1,2,3,4,5 /m.bsp\n"
                             "bookmark 10 1,2,3,4,5 /m.bsp\n"
                             "bookmark 3 1,2,3 /m.bsp\n"
                             "bookmark 3 inf,2,3,4,5 /m.bsp\n"
                             "bookmark 3 1,2,3,4,5\n"
                             "bookmark 3 1e30,2,3,4,5 /m.bsp\n"
                             "bookmark 3 spawn:1 /m.bsp\n"
                             "recent\n" +
                             std::string(10000, 'x') +
                             "\n"
                             "fov 110\n"
                             "pvs 0\n"
                             "bookmark 2 5,6,7,8,9 /m.bsp\n"
                             "recent /ok.bsp\r\n";
    std::vector<std::string> warnings;
    const app::Settings s = app::parseSettings(text, &warnings);
    EXPECT_EQ(s.speed, 320.0f);
    EXPECT_EQ(s.fov, 110.0f);
    EXPECT_EQ(s.liquid_alpha, 1.0f);
    EXPECT_FALSE(s.wireframe);
    EXPECT_FALSE(s.pvs);
    EXPECT_EQ(s.view, "lit");
    EXPECT_EQ(s.quake2_look, "yamagi");
    ASSERT_EQ(s.bookmarks.size(), 1u);
    EXPECT_FALSE(app::bookmark(s, "/m.bsp", 3));
    auto b = app::bookmark(s, "/m.bsp", 2);
    ASSERT_TRUE(b);
    EXPECT_EQ(*b, (app::Bookmark{5, 6, 7, 8, 9}));
    ASSERT_EQ(s.recent.size(), 1u);
    EXPECT_EQ(s.recent[0], "/ok.bsp");
    // One warning per bad line (16), each naming its line.
    EXPECT_EQ(warnings.size(), 16u);
    EXPECT_EQ(countPrefix(warnings, "config line 2:"), 1u);
    EXPECT_EQ(countPrefix(warnings, "line too long"), 1u);
    EXPECT_EQ(countPrefix(warnings, "unknown key 'bogus_key'"), 1u);
}

TEST(Settings, EveryTruncationAndByteFlipParsesWithinRanges) {
    const std::string good = app::formatSettings(sample());
    std::mt19937 rng(1234);
    for (size_t cut = 0; cut <= good.size(); ++cut) {
        std::string text = good.substr(0, cut);
        if (cut > 0 && cut % 3 == 0)
            text[rng() % text.size()] = static_cast<char>(rng() & 0xff);
        std::vector<std::string> warnings;
        const app::Settings s = app::parseSettings(text, &warnings);
        EXPECT_TRUE(std::isfinite(s.speed) && s.speed >= 1.0f);
        EXPECT_TRUE(s.fov >= 1.0f && s.fov <= 170.0f);
        EXPECT_TRUE(s.liquid_alpha >= 0.0f && s.liquid_alpha <= 1.0f);
        EXPECT_LE(s.recent.size(), app::kMaxRecentFiles);
        for (const auto& [key, slots] : s.bookmarks) {
            EXPECT_FALSE(key.empty());
            for (const auto& bm : slots) {
                if (bm) {
                    EXPECT_TRUE(std::isfinite(bm->x) && std::isfinite(bm->yaw));
                }
            }
        }
    }
}

// Issue 33: bookmarks can be named; a name line needs its bookmark; an old config's hidden
// overlay ("overlay 0") is read without a warning and not carried over (no field holds it).
TEST(Settings, NamedBookmarksAndAnOldOverlayLine) {
    const std::string text = "# bspview config 1\n"
                             "overlay 0\n"
                             "bookmark_name 4 early /m.bsp\n"
                             "bookmark 4 1,2,3,4,5 /m.bsp\n"
                             "bookmark_name 4 lift%20top%25 /m.bsp\n"
                             "bookmark_name 5 nothing%20here /m.bsp\n"
                             "bookmark_name 4 bad%2 /m.bsp\n"
                             "window debug 1\n"
                             "window broken\n";
    std::vector<std::string> warnings;
    const app::Settings s = app::parseSettings(text, &warnings);
    const auto b = app::bookmark(s, "/m.bsp", 4);
    ASSERT_TRUE(b);
    EXPECT_EQ(b->name, "lift top%");
    EXPECT_EQ(s.windows.at("debug"), true);
    ASSERT_EQ(warnings.size(), 4u); // early name, slot 5 name, bad escape, broken window
    EXPECT_EQ(countPrefix(warnings, "config line 2:"), 0u);
    EXPECT_EQ(app::formatSettings(s).find("overlay"), std::string::npos);
}

TEST(Settings, BookmarkMapsAreCapped) {
    std::string text = "# bspview config 1\n";
    for (size_t i = 0; i < app::kMaxBookmarkMaps + 20; ++i)
        text += "bookmark 1 1,2,3,4,5 /map" + std::to_string(i) + ".bsp\n";
    std::vector<std::string> warnings;
    const app::Settings s = app::parseSettings(text, &warnings);
    EXPECT_EQ(s.bookmarks.size(), app::kMaxBookmarkMaps);
    EXPECT_EQ(warnings.size(), 20u);
}

TEST(Settings, BookmarkSlots) {
    app::Settings s;
    app::setBookmark(s, "k", 0, {1, 1, 1, 0, 0});  // out of range: ignored
    app::setBookmark(s, "k", 10, {1, 1, 1, 0, 0}); // likewise
    EXPECT_TRUE(s.bookmarks.empty());
    app::setBookmark(s, "k", 5, {1, 2, 3, 4, 5});
    app::setBookmark(s, "other", 5, {9, 9, 9, 9, 9});
    EXPECT_EQ(*app::bookmark(s, "k", 5), (app::Bookmark{1, 2, 3, 4, 5}));
    EXPECT_FALSE(app::bookmark(s, "k", 4));
    EXPECT_FALSE(app::bookmark(s, "k", 0));
    EXPECT_FALSE(app::bookmark(s, "nope", 5));
    app::setBookmark(s, "k", 5, {7, 7, 7, 7, 7}); // overwrite
    EXPECT_EQ(app::bookmark(s, "k", 5)->x, 7.0f);
    app::clearBookmark(s, "k", 5);
    EXPECT_FALSE(app::bookmark(s, "k", 5));
    EXPECT_EQ(s.bookmarks.count("k"), 0u); // no empty entries left behind
    EXPECT_TRUE(app::bookmark(s, "other", 5));
}

TEST(Settings, BookmarkTextIsTheCameraFlagText) {
    auto b = app::parseBookmark("1.5,-2,3,10,270");
    ASSERT_TRUE(b);
    EXPECT_EQ(*b, (app::Bookmark{1.5f, -2.0f, 3.0f, 10.0f, 270.0f}));
    EXPECT_EQ(app::formatCamera(*b), "1.5,-2.0,3.0,10.00,270.00");
    EXPECT_TRUE(app::parseBookmark(app::formatCamera(*b)));
    EXPECT_FALSE(app::parseBookmark("spawn:1"));
    EXPECT_FALSE(app::parseBookmark("1,2,3"));
    EXPECT_FALSE(app::parseBookmark("1,2,3,4,5,6"));
    EXPECT_FALSE(app::parseBookmark("nan,2,3,4,5"));
    EXPECT_FALSE(app::parseBookmark(""));
}

TEST(RecentFiles, MostRecentFirstDeduplicatedCapped) {
    std::vector<std::string> r;
    app::addRecent(r, "a");
    app::addRecent(r, "b");
    app::addRecent(r, "c");
    app::addRecent(r, "a");
    EXPECT_EQ(r, (std::vector<std::string>{"a", "c", "b"}));
    app::addRecent(r, "");
    EXPECT_EQ(r.size(), 3u);
    for (int i = 0; i < 20; ++i)
        app::addRecent(r, "m" + std::to_string(i));
    ASSERT_EQ(r.size(), app::kMaxRecentFiles);
    EXPECT_EQ(r.front(), "m19");
    EXPECT_EQ(r.back(), "m10");
    // The order survives the file.
    app::Settings s;
    s.recent = r;
    EXPECT_EQ(app::parseSettings(app::formatSettings(s), nullptr).recent, r);
}

TEST(RecentFiles, ExistenceOfFilesAndArchives) {
    const fs::path dir = scratch("recent");
    writeText(dir / "x.bsp", "x");
    writeText(dir / "p.pk3", "x");
    EXPECT_TRUE(app::recentExists((dir / "x.bsp").string()));
    EXPECT_FALSE(app::recentExists((dir / "gone.bsp").string()));
    EXPECT_TRUE(app::recentExists((dir / "p.pk3").string() + ":maps/a.bsp"));
    EXPECT_FALSE(app::recentExists((dir / "q.pk3").string() + ":maps/a.bsp"));
    EXPECT_FALSE(app::recentExists(dir.string())); // a folder is not a map
    fs::remove_all(dir);
}

TEST(ConfigDir, FlagThenOverrideThenXdgThenHome) {
    std::map<std::string, std::string> env;
    auto get = [&](const char* n) -> const char* {
        auto it = env.find(n);
        return it == env.end() ? nullptr : it->second.c_str();
    };
    EXPECT_EQ(app::resolveConfigDir("", get), fs::path());
    env["HOME"] = "/home/u";
    EXPECT_EQ(app::resolveConfigDir("", get), fs::path("/home/u/.config/bspview"));
    env["XDG_CONFIG_HOME"] = "relative/ignored";
    EXPECT_EQ(app::resolveConfigDir("", get), fs::path("/home/u/.config/bspview"));
    env["XDG_CONFIG_HOME"] = "/xdg";
    EXPECT_EQ(app::resolveConfigDir("", get), fs::path("/xdg/bspview"));
    env["BSPVIEW_CONFIG_DIR"] = "/override";
    EXPECT_EQ(app::resolveConfigDir("", get), fs::path("/override"));
    EXPECT_EQ(app::resolveConfigDir("/flag", get), fs::path("/flag"));
}

TEST(MapKey, SameFileSameKeyAcrossARecompile) {
    const fs::path dir = scratch("mapkey");
    writeText(dir / "m.bsp", "12345");
    const std::string direct = app::mapKey((dir / "m.bsp").string());
    const std::string roundabout =
        app::mapKey((dir / "." / ".." / dir.filename() / "m.bsp").string());
    EXPECT_EQ(direct, roundabout);
    EXPECT_EQ(direct, fs::weakly_canonical(dir / "m.bsp").string());
    // A recompile that changes the size keeps the key (and the bookmarks under it).
    writeText(dir / "m.bsp", "123456");
    EXPECT_EQ(app::mapKey((dir / "m.bsp").string()), direct);
    writeText(dir / "p.pk3", "x");
    const std::string member = app::mapKey((dir / "p.pk3").string() + ":maps/DM1.bsp");
    EXPECT_EQ(member, fs::weakly_canonical(dir / "p.pk3").string() + ":maps/dm1.bsp");
    fs::remove_all(dir);
}

TEST(MapKey, LegacySizedKeysLoadUnderThePath) {
    EXPECT_EQ(app::legacyMapKey("/maps/a.bsp#1234"), "/maps/a.bsp");
    EXPECT_EQ(app::legacyMapKey("/maps/a#b.bsp"), "/maps/a#b.bsp");
    EXPECT_EQ(app::legacyMapKey("/maps/a.bsp#"), "/maps/a.bsp#");
    EXPECT_EQ(app::legacyMapKey("/p.pk3:maps/x.bsp"), "/p.pk3:maps/x.bsp");
    std::vector<std::string> warnings;
    const app::Settings s = app::parseSettings("# bspview config 1\n"
                                               "bookmark 2 1,2,3,4,5 /maps/a.bsp#1234\n",
                                               &warnings);
    EXPECT_TRUE(warnings.empty());
    const auto b = app::bookmark(s, "/maps/a.bsp", 2);
    ASSERT_TRUE(b);
    EXPECT_EQ(b->x, 1.0f);
}

TEST(WriteFileAtomic, ReplacesAndFailsCleanly) {
    const fs::path dir = scratch("atomic");
    ASSERT_TRUE(app::writeFileAtomic(dir / "f.txt", "one").ok());
    ASSERT_TRUE(app::writeFileAtomic(dir / "f.txt", "two").ok());
    std::ifstream in(dir / "f.txt");
    std::string text;
    std::getline(in, text);
    EXPECT_EQ(text, "two");
    EXPECT_FALSE(app::writeFileAtomic(dir / "no" / "such" / "f.txt", "x").ok());
    EXPECT_FALSE(app::saveSettings(dir / "f.txt" / "below_a_file.cfg", app::Settings()).ok());
    fs::remove_all(dir);
}
