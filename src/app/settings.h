// Viewer settings that persist between runs: overlay toggles, camera speed and field of view,
// recent files and numbered camera bookmarks per map. GL-free and SDL-free so tests cover it.
//
// The config file is plain text, one "key value" per line (the value runs to the end of the
// line, so paths may hold spaces). It is treated as untrusted: it is size-capped, every line
// is checked, bad lines are skipped with a warning, and a file that is not a bspview config
// at all yields the defaults. Saves go to a temporary file renamed over the old one, so a
// crash mid-save never leaves half a file.
#pragma once

#include "core/result.h"

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace app {

inline constexpr size_t kMaxRecentFiles = 10;
inline constexpr size_t kMaxRecentFolders = 10;
inline constexpr size_t kMaxGameFolders = 32;
inline constexpr int kNumBookmarks = 9;         // slots 1..9 (keys 1-9 go, Ctrl+1-9 save)
inline constexpr size_t kMaxBookmarkMaps = 256; // maps remembered (oldest dropped first)
inline constexpr uint64_t kMaxConfigBytes = 1024 * 1024;
inline constexpr const char* kConfigFileName = "bspview.cfg";
inline constexpr const char* kImGuiIniName = "imgui.ini";
inline constexpr size_t kMaxBookmarkName = 63;
inline constexpr size_t kMaxWindows = 64; // "window NAME 0|1" lines kept
inline constexpr float kMinUiScale = 0.75f, kMaxUiScale = 3.0f;

// Eye position and angles, the same five numbers as --camera X,Y,Z,PITCH,YAW, and the name
// the user gave it (empty: none).
struct Bookmark {
    float x = 0, y = 0, z = 0, pitch = 0, yaw = 0;
    std::string name;
    Bookmark() = default;
    Bookmark(float at_x, float at_y, float at_z, float at_pitch, float at_yaw,
             std::string called = {})
        : x(at_x), y(at_y), z(at_z), pitch(at_pitch), yaw(at_yaw), name(std::move(called)) {}
    bool operator==(const Bookmark&) const = default;
};
using BookmarkSlots = std::array<std::optional<Bookmark>, kNumBookmarks>;

struct Settings {
    // Overlay and camera
    float speed = 320.0f;
    float fov = 90.0f;
    std::string view = "lit";
    bool wireframe = false;
    bool pvs = true;
    bool frustum = true;
    bool neutral_lighting = false;
    float liquid_alpha = 1.0f;
    bool vsync = true;
    // A hidden UI is not carried over: every start shows the menus (an old config's "overlay"
    // line is read and ignored).
    float ui_scale = 1.0f; // View > UI scale
    // View > Picture, applied after the engine's look (render::PictureAdjust); a start with
    // other values than these says so in a notice.
    float exposure = 0.0f, gamma = 1.0f, brightness = 0.0f;
    bool auto_exposure = false; // View > Picture: a tone-mapped map's auto exposure
    // View > Texture filter over the game's own (render::TextureFilterChoice): a gl_texturemode
    // name and an anisotropy 1..16; empty / 0: the game's.
    std::string texture_mode;
    float anisotropy = 0.0f;
    std::string screenshot_folder;  // F12 writes here; empty: the default (screenshotFolder)
    std::string export_folder;      // the last folder exported to; empty: the default
    bool use_detected_games = true; // mount detected game folders of the map's game
    // View > Quake 2 look: "yamagi" (yquake2's default renderer) or "classic" (its GL1
    // renderer, vid_gamma 1); game::parseQuake2Look reads it.
    std::string quake2_look = "yamagi";
    std::map<std::string, bool> windows; // panel name -> open, as the user left them

    std::vector<std::string> recent; // most recent first, no duplicates, <= kMaxRecentFiles
    // The Open panel's folders, most recent first, <= kMaxRecentFolders.
    std::vector<std::string> recent_folders;
    // Game folders searched for textures and models by every open (after the map's own, like
    // --base), in order, no duplicates, <= kMaxGameFolders.
    std::vector<std::string> game_folders;
    // Map key (see mapKey) -> slots. Insertion order is not kept; kMaxBookmarkMaps caps it.
    std::map<std::string, BookmarkSlots> bookmarks;

    bool operator==(const Settings&) const = default;
};

// Where the config lives: `flag` (--config-dir) when not empty, else $BSPVIEW_CONFIG_DIR,
// else $XDG_CONFIG_HOME/bspview, else $HOME/.config/bspview; empty when none is known.
// `get_env` is std::getenv in the program and a fake in tests.
std::filesystem::path resolveConfigDir(std::string_view flag,
                                       const std::function<const char*(const char*)>& get_env);

// Where F12 screenshots and exports go unless the user picked a folder: $XDG_PICTURES_DIR or
// $XDG_DOCUMENTS_DIR when set to an absolute path, else $HOME/Pictures or $HOME/Documents, with
// "bspview" below; never the working folder or a game's folder. Empty without $HOME.
std::filesystem::path
defaultScreenshotFolder(const std::function<const char*(const char*)>& get_env);
std::filesystem::path defaultExportFolder(const std::function<const char*(const char*)>& get_env);

// Text <-> settings. parseSettings never fails: problems go to `warnings` and the affected
// lines keep their defaults.
std::string formatSettings(const Settings& settings);
Settings parseSettings(std::string_view text, std::vector<std::string>* warnings);

// File round trip. A missing file gives the defaults without a warning; an unreadable, too
// large or foreign file gives the defaults with one. saveSettings creates the folder.
Settings loadSettings(const std::filesystem::path& file, std::vector<std::string>* warnings);
core::Status saveSettings(const std::filesystem::path& file, const Settings& settings);

// Writes `text` to `file` through a temporary file in the same folder and a rename.
core::Status writeFileAtomic(const std::filesystem::path& file, std::string_view text);

// Recent files: moves or inserts `spec` at the front, drops duplicates and the oldest.
void addRecent(std::vector<std::string>& recent, const std::string& spec);
// Whether a recent entry can still be opened (the file, or the archive of ARCHIVE.pk3:member).
bool recentExists(const std::string& spec);

// A key that names one map across runs and recompiles: for a loose file its canonical path
// ("/maps/x.bsp"), for an archive member the canonical archive path and the member name
// ("/baseoa/pak6.pk3:maps/oa_dm1.bsp"). Bookmarks are kept under it, so they survive a
// recompile that changes the file.
std::string mapKey(const std::string& spec);
// A key as configs before version 0.x wrote it for loose files ("/maps/x.bsp#12345", the size
// appended) without the size; other keys unchanged. The config reader applies it.
std::string_view legacyMapKey(std::string_view key);

// Bookmark slot access; `slot` is 1..kNumBookmarks, anything else is ignored / nullopt.
void setBookmark(Settings& settings, const std::string& map_key, int slot, const Bookmark& b);
std::optional<Bookmark> bookmark(const Settings& settings, const std::string& map_key, int slot);
void clearBookmark(Settings& settings, const std::string& map_key, int slot);

// "X,Y,Z,PITCH,YAW" (what --camera takes and "copy camera" writes) and back.
std::string formatCamera(const Bookmark& b);
std::optional<Bookmark> parseBookmark(std::string_view text);

} // namespace app
