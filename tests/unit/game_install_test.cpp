// Game data found without configuration (content/game_install.h): Steam's libraryfolders.vdf
// in both layouts, and the game folders found in a made-up tree of Steam libraries and common
// install folders.
#include "content/vfs/game_install.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace fs = std::filesystem;

TEST(SteamLibrary, ReadsBothLayouts) {
    // Steam since 2021 (one block per library, "path" inside).
    const std::string current = R"("libraryfolders"
{
	"0"
	{
		"path"		"/home/u/.local/share/Steam"
		"label"		""
		"apps"
		{
			"2310"		"1234"
		}
	}
	"1"
	{
		"path"		"D:\\SteamLibrary"   // escaped backslash
	}
}
)";
    auto a = content::parseSteamLibraryFolders(current, "libraryfolders.vdf");
    ASSERT_TRUE(a.ok()) << a.error().message();
    EXPECT_EQ(*a, (std::vector<std::string>{"/home/u/.local/share/Steam", "D:\\SteamLibrary"}));
    // The older one: numbered keys with the path as the value; other keys ignored.
    const std::string old = "\"LibraryFolders\" {\n \"TimeNextStatsReport\" \"1600000000\"\n"
                            " \"ContentStatsID\" \"-123\"\n \"1\" \"E:\\\\Games\\\\Steam\"\n"
                            " \"2\" \"/mnt/games\" [$LINUX]\n \"3\" \"/mnt/games\"\n}\n";
    auto b = content::parseSteamLibraryFolders(old, "libraryfolders.vdf");
    ASSERT_TRUE(b.ok()) << b.error().message();
    EXPECT_EQ(*b, (std::vector<std::string>{"E:\\Games\\Steam", "/mnt/games"}));
}

TEST(SteamLibrary, BadTextIsAnErrorWithTheLine) {
    for (const char* bad : {"\"libraryfolders\" {\n \"0\" { \"path\" \"/x\"\n", // not closed
                            "}", "\"libraryfolders\" { \"path\" \"/x }", "\"a\" \"b\"",
                            "\"libraryfolders\" { \"0\" }", "{ }"}) {
        auto r = content::parseSteamLibraryFolders(bad, "lf.vdf");
        ASSERT_FALSE(r.ok()) << bad;
        EXPECT_EQ(r.error().code, core::ErrorCode::BadValue) << bad;
        EXPECT_EQ(r.error().file, "lf.vdf");
        EXPECT_NE(r.error().message().find("lf.vdf"), std::string::npos);
    }
    std::string deep = "\"libraryfolders\" ";
    for (int i = 0; i < 40; ++i)
        deep += "{ \"k\" ";
    auto r = content::parseSteamLibraryFolders(deep, "deep.vdf");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message().find("nested deeper"), std::string::npos);
}

TEST(GameFolders, FoundInSteamLibrariesAndCommonFolders) {
    const fs::path root = fs::temp_directory_path() / ("bspv_games_" + std::to_string(::getpid()));
    fs::remove_all(root);
    const fs::path steam = root / "home/.steam/steam";
    const fs::path library = root / "mnt/games";
    fs::create_directories(steam / "steamapps/common/Half-Life/valve");
    fs::create_directories(steam / "steamapps/common/Half-Life/cstrike");
    fs::create_directories(library / "steamapps/common/Quake/id1");
    fs::create_directories(library / "steamapps/common/Team Fortress 2/tf");
    fs::create_directories(root / "usr/share/games/openarena/baseoa");
    fs::create_directories(root / "usr/share/games/quake3"); // no baseq3 inside: not a game
    {
        std::ofstream vdf(steam / "steamapps/libraryfolders.vdf");
        vdf << "\"libraryfolders\"\n{\n\t\"0\"\n\t{\n\t\t\"path\"\t\t\"" << steam.string()
            << "\"\n\t}\n\t\"1\"\n\t{\n\t\t\"path\"\t\t\"" << library.string() << "\"\n\t}\n}\n";
    }
    content::GameSearchRoots roots;
    roots.steam_roots = {steam, root / "home/.local/share/Steam"}; // the second is absent
    roots.install_roots = {root / "usr/share/games"};
    std::vector<std::string> warnings;
    const auto found = content::detectGameFolders(roots, &warnings);
    EXPECT_TRUE(warnings.empty());
    std::vector<std::pair<std::string, fs::path>> got;
    for (const content::DetectedGame& g : found)
        got.emplace_back(g.game, g.folder);
    const auto canon = [](const fs::path& p) { return fs::weakly_canonical(p); };
    EXPECT_EQ(
        got, (std::vector<std::pair<std::string, fs::path>>{
                 {"Half-Life", canon(steam / "steamapps/common/Half-Life/valve")},
                 {"Half-Life: Counter-Strike", canon(steam / "steamapps/common/Half-Life/cstrike")},
                 {"Quake", canon(library / "steamapps/common/Quake/id1")},
                 {"Team Fortress 2", canon(library / "steamapps/common/Team Fortress 2/tf")},
                 {"OpenArena", canon(root / "usr/share/games/openarena/baseoa")}}));
    ASSERT_EQ(found.size(), 5u);
    EXPECT_EQ(found[0].family, content::GameFamily::HalfLife);
    EXPECT_EQ(found[2].family, content::GameFamily::Quake1);
    EXPECT_EQ(found[3].family, content::GameFamily::Source);
    EXPECT_EQ(found[4].family, content::GameFamily::Quake3);
    EXPECT_NE(found[2].found_by.find(library.string()), std::string::npos);

    // A broken libraryfolders.vdf: the Steam folder itself is still searched, with a warning.
    {
        std::ofstream vdf(steam / "steamapps/libraryfolders.vdf");
        vdf << "\"libraryfolders\" {";
    }
    warnings.clear();
    const auto partial = content::detectGameFolders(roots, &warnings);
    EXPECT_EQ(partial.size(), 3u); // two Half-Life folders and OpenArena
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("libraryfolders.vdf"), std::string::npos);
    fs::remove_all(root);
}

TEST(GameFolders, DefaultRootsComeFromHome) {
    const auto roots = content::defaultGameSearchRoots([](const char* name) -> const char* {
        return std::string(name) == "HOME" ? "/home/someone" : nullptr;
    });
    ASSERT_FALSE(roots.steam_roots.empty());
    EXPECT_EQ(roots.steam_roots[0], fs::path("/home/someone/.steam/steam"));
    EXPECT_NE(std::find(roots.install_roots.begin(), roots.install_roots.end(),
                        fs::path("/home/someone")),
              roots.install_roots.end());
    EXPECT_EQ(content::gameFamilyOf(bsp::Format::Quake2Qbsp), content::GameFamily::Quake2);
    EXPECT_EQ(content::gameFamilyOf(bsp::Format::Qfusion), content::GameFamily::Quake3);
}
