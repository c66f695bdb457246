// Game data found without typing paths (issue 33): the Steam libraries listed in Steam's
// libraryfolders.vdf and the common install folders, searched for the game folders bspview
// reads (id1, valve, baseq2, baseq3, baseoa, hl2, tf, ...). GL-free; the viewer offers what this
// finds as game folders and mounts the ones of the map's game family.
//
// libraryfolders.vdf is Valve KeyValues text (tier1/KeyValues.cpp: quoted or bare tokens,
// braces, // comments, \" and \\ escapes in quoted strings). Two layouts are read:
//   "libraryfolders" { "0" { "path" "/home/u/.local/share/Steam" ... } "1" { ... } }  (2021+)
//   "LibraryFolders" { "TimeNextStatsReport" "..." "1" "D:\\SteamLibrary" }          (older)
// The file is untrusted (fuzz/fuzz_steam_library.cpp): size, depth and token counts are capped.
#pragma once

#include "bsp/map.h"
#include "core/result.h"

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace content {

inline constexpr size_t kMaxVdfBytes = 1 << 20;
inline constexpr int kMaxVdfDepth = 16;
inline constexpr size_t kMaxSteamLibraries = 64;

// The library folders a libraryfolders.vdf lists, in file order, without duplicates, at most
// kMaxSteamLibraries. Errors (BadValue with the file and line) for text that is not KeyValues:
// an unterminated string or block, a stray '}', nesting deeper than kMaxVdfDepth, no
// libraryfolders block; an empty list is not an error.
core::Result<std::vector<std::string>> parseSteamLibraryFolders(std::string_view text,
                                                                std::string_view file);

// Engine families, as the map's format names them (bsp::Format -> family).
enum class GameFamily { Quake1, HalfLife, Quake2, Quake3, Source };
GameFamily gameFamilyOf(bsp::Format format);
const char* gameFamilyName(GameFamily family); // "Quake", "Half-Life", ...

struct DetectedGame {
    std::string game; // "Quake", "Half-Life: Counter-Strike", "OpenArena", ...
    GameFamily family = GameFamily::Quake1;
    std::filesystem::path folder; // the game folder (.../Quake/id1)
    std::string found_by;         // "Steam library /x" or "common folder"
};

// Where to look. Tests pass a made-up tree; the viewer passes defaultGameSearchRoots().
struct GameSearchRoots {
    std::vector<std::filesystem::path> steam_roots;   // folders holding steamapps/
    std::vector<std::filesystem::path> install_roots; // folders holding games' own folders
};
// $HOME's Steam folders (native, Flatpak, Snap, macOS) and the usual install places
// (/usr/share/games, /usr/local/games, ~/.local/share, the dot folders engines use, C:/Games).
// `get_env` is std::getenv in the program.
GameSearchRoots defaultGameSearchRoots(const std::function<const char*(const char*)>& get_env);

// Every known game folder that exists under the roots, Steam libraries first, each folder once.
// A library's libraryfolders.vdf that cannot be read or parsed is skipped with a line in
// *warnings (when given).
std::vector<DetectedGame> detectGameFolders(const GameSearchRoots& roots,
                                            std::vector<std::string>* warnings = nullptr);

} // namespace content
