// The Open panel's file browser model and the folders the config keeps for it.
#include "app/file_browser.h"
#include "app/settings.h"
#include "unit/content_test_util.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using content_test::TempDir;

namespace {

std::vector<std::string> labels(const app::FileBrowser& b) {
    std::vector<std::string> out;
    for (const app::BrowserEntry& e : b.entries())
        out.push_back(e.label);
    return out;
}

void touch(const fs::path& p, const std::string& text = "x") {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
}

} // namespace

TEST(FileBrowser, ListsFoldersMapsAndTheMapsInsideArchives) {
    TempDir tmp;
    touch(tmp / "game/maps/b.bsp");
    touch(tmp / "game/maps/A.BSP");
    touch(tmp / "game/maps/readme.txt");
    touch(tmp / "game/maps/.hidden.bsp");
    fs::create_directories(tmp / "game/maps/sub");
    content_test::writeZip(tmp / "game/maps/pak1.pk3",
                           {{"maps/dm1.bsp", "IBSP"}, {"textures/x.tga", "t"}});
    const auto pak = content_test::makePak({{"maps/e1m1.bsp", "29"}});
    touch(tmp / "game/maps/pak0.pak", std::string(pak.begin(), pak.end()));
    touch(tmp / "game/maps/broken.pk3", "not an archive at all");

    app::FileBrowser b;
    ASSERT_TRUE(b.open(tmp / "game/maps"));
    const auto shown = labels(b);
    ASSERT_EQ(shown.size(), 7u) << ::testing::PrintToString(shown);
    EXPECT_EQ(shown[0], "..");
    // The broken archive is an error line naming it, listed before the entries.
    EXPECT_EQ(b.entries()[1].kind, app::BrowserEntry::Kind::Error);
    EXPECT_NE(shown[1].find("broken.pk3"), std::string::npos);
    EXPECT_EQ(shown[2], "sub/");
    EXPECT_EQ(shown[3], "A.BSP");
    EXPECT_EQ(shown[4], "b.bsp");
    EXPECT_EQ(shown[5], "pak0.pak: maps/e1m1.bsp");
    EXPECT_EQ(shown[6], "pak1.pk3: maps/dm1.bsp");
    EXPECT_EQ(b.entries()[6].spec, (tmp / "game/maps/pak1.pk3").string() + ":maps/dm1.bsp");
}

TEST(FileBrowser, TypeToFilterThenEnterOpensTheFirstMatch) {
    TempDir tmp;
    touch(tmp / "m/alpha.bsp");
    touch(tmp / "m/beta.bsp");
    touch(tmp / "m/gamma/x.bsp");
    app::FileBrowser b;
    ASSERT_TRUE(b.open(tmp / "m"));
    b.setFilter("BET");
    ASSERT_EQ(labels(b), (std::vector<std::string>{"..", "beta.bsp"}));
    EXPECT_EQ(b.selected(), 1);
    EXPECT_EQ(b.activate(), (tmp / "m/beta.bsp").string());
    // Enter on a folder enters it (and clears the filter); on ".." goes up.
    b.setFilter("gam");
    EXPECT_EQ(b.activate(), "");
    EXPECT_EQ(b.folder(), tmp / "m/gamma");
    EXPECT_EQ(labels(b), (std::vector<std::string>{"..", "x.bsp"}));
    b.select(0);
    EXPECT_EQ(b.activate(), "");
    EXPECT_EQ(b.folder(), tmp / "m");
    b.up();
    EXPECT_EQ(b.folder(), tmp.path());
    // Selection stays in range.
    b.moveSelection(-5);
    EXPECT_EQ(b.selected(), 0);
    b.moveSelection(100);
    EXPECT_EQ(b.selected(), static_cast<int>(b.entries().size()) - 1);
}

TEST(FileBrowser, SortsByDateNewestFirst) {
    TempDir tmp;
    touch(tmp / "m/old.bsp");
    touch(tmp / "m/new.bsp");
    const auto now = fs::file_time_type::clock::now();
    fs::last_write_time(tmp / "m/old.bsp", now - std::chrono::hours(48));
    fs::last_write_time(tmp / "m/new.bsp", now);
    app::FileBrowser b;
    ASSERT_TRUE(b.open(tmp / "m"));
    EXPECT_EQ(labels(b), (std::vector<std::string>{"..", "new.bsp", "old.bsp"}));
    b.setSort(app::BrowserSort::Date);
    EXPECT_EQ(labels(b), (std::vector<std::string>{"..", "new.bsp", "old.bsp"}));
    fs::last_write_time(tmp / "m/old.bsp", now + std::chrono::hours(1));
    b.refresh();
    EXPECT_EQ(labels(b), (std::vector<std::string>{"..", "old.bsp", "new.bsp"}));
    b.setSort(app::BrowserSort::Name);
    EXPECT_EQ(labels(b), (std::vector<std::string>{"..", "new.bsp", "old.bsp"}));
}

TEST(FileBrowser, AFolderThatCannotBeReadIsAnErrorLineNotACrash) {
    TempDir tmp;
    touch(tmp / "file.bsp");
    app::FileBrowser b;
    EXPECT_FALSE(b.open(tmp / "no/such/folder"));
    ASSERT_EQ(b.entries().size(), 2u);
    EXPECT_EQ(b.entries()[1].kind, app::BrowserEntry::Kind::Error);
    EXPECT_NE(b.entries()[1].label.find("cannot read"), std::string::npos);
    EXPECT_FALSE(b.open(tmp / "file.bsp")) << "a file is not a folder";
    EXPECT_EQ(b.activate(), "") << "'..' is selected: goes up";
    EXPECT_EQ(b.folder(), tmp.path());
}

TEST(FileBrowser, GameAndRecentFoldersRoundTripThroughTheConfig) {
    app::Settings s;
    s.game_folders = {"/games/quake/id1", "/games/with space/baseq3"};
    app::addRecentFolder(s.recent_folders, "/a");
    app::addRecentFolder(s.recent_folders, "/b");
    app::addRecentFolder(s.recent_folders, "/a");
    EXPECT_EQ(s.recent_folders, (std::vector<std::string>{"/a", "/b"}));
    std::vector<std::string> warnings;
    const app::Settings back = app::parseSettings(app::formatSettings(s), &warnings);
    EXPECT_TRUE(warnings.empty()) << ::testing::PrintToString(warnings);
    EXPECT_EQ(back.game_folders, s.game_folders);
    EXPECT_EQ(back.recent_folders, s.recent_folders);
    EXPECT_EQ(back, s);
    // Duplicates read once, past the cap a warning.
    std::string text = "# bspview config 1\ngame_folder /x\ngame_folder /x\n";
    for (size_t i = 0; i < app::kMaxGameFolders + 1; ++i)
        text += "game_folder /g" + std::to_string(i) + "\n";
    const app::Settings capped = app::parseSettings(text, &warnings);
    EXPECT_EQ(capped.game_folders.size(), app::kMaxGameFolders);
    EXPECT_EQ(capped.game_folders[0], "/x");
    EXPECT_FALSE(warnings.empty());
}
