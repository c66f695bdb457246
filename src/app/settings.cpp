#include "app/settings.h"

#include "game/profile.h"

#include "app/cli.h"
#include "app/file_browser.h"
#include "content/vfs/vfs.h"
#include "core/file.h"
#include "game/profile.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <system_error>

#include <unistd.h>

namespace app {

namespace {

// First line of every config; a file without it is not ours and is not interpreted.
constexpr std::string_view kHeader = "# bspview config 1";
constexpr size_t kMaxLineLength = 8192;

core::Error fileError(const std::filesystem::path& file, const std::string& detail) {
    return core::makeError(core::ErrorCode::FileOpen, {}, -1, {}, file.string() + ": " + detail);
}

bool parseFloatField(std::string_view s, float lo, float hi, float* out) {
    const std::string buf(s);
    char* end = nullptr;
    const float v = std::strtof(buf.c_str(), &end);
    if (buf.empty() || end != buf.c_str() + buf.size() || !std::isfinite(v) || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

bool parseBool(std::string_view s, bool* out) {
    if (s == "1" || s == "true" || s == "yes") {
        *out = true;
        return true;
    }
    if (s == "0" || s == "false" || s == "no") {
        *out = false;
        return true;
    }
    return false;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

// Values written on one line must not contain line breaks (a path could, in theory).
bool oneLine(std::string_view s) {
    return s.find_first_of("\r\n") == std::string_view::npos;
}

std::string fmtFloat(float v) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v));
    return buf;
}

} // namespace

std::filesystem::path resolveConfigDir(std::string_view flag,
                                       const std::function<const char*(const char*)>& get_env) {
    if (!flag.empty())
        return std::filesystem::path(flag);
    auto env = [&](const char* name) -> std::string {
        const char* v = get_env ? get_env(name) : nullptr;
        return v ? std::string(v) : std::string();
    };
    if (std::string v = env("BSPVIEW_CONFIG_DIR"); !v.empty())
        return std::filesystem::path(v);
    // XDG Base Directory: a relative $XDG_CONFIG_HOME is invalid and must be ignored.
    if (std::string v = env("XDG_CONFIG_HOME"); !v.empty() && v.front() == '/')
        return std::filesystem::path(v) / "bspview";
    if (std::string v = env("HOME"); !v.empty())
        return std::filesystem::path(v) / ".config" / "bspview";
    return {};
}

namespace {
std::filesystem::path userFolder(const std::function<const char*(const char*)>& get_env,
                                 const char* xdg, const char* home_sub) {
    const char* v = get_env ? get_env(xdg) : nullptr;
    if (v && v[0] == '/')
        return std::filesystem::path(v) / "bspview";
    const char* home = get_env ? get_env("HOME") : nullptr;
    if (home && home[0])
        return std::filesystem::path(home) / home_sub / "bspview";
    return {};
}
} // namespace

std::filesystem::path
defaultScreenshotFolder(const std::function<const char*(const char*)>& get_env) {
    return userFolder(get_env, "XDG_PICTURES_DIR", "Pictures");
}

std::filesystem::path defaultExportFolder(const std::function<const char*(const char*)>& get_env) {
    return userFolder(get_env, "XDG_DOCUMENTS_DIR", "Documents");
}

std::string formatCamera(const Bookmark& b) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "%.1f,%.1f,%.1f,%.2f,%.2f", static_cast<double>(b.x),
                  static_cast<double>(b.y), static_cast<double>(b.z), static_cast<double>(b.pitch),
                  static_cast<double>(b.yaw));
    return buf;
}

std::optional<Bookmark> parseBookmark(std::string_view text) {
    auto c = parseCamera(trim(text));
    if (!c || c->from_spawn || c->from_leak)
        return std::nullopt;
    // Positions far outside any map are a corrupt file, not a place to fly to.
    constexpr float kFar = 1.0e6f;
    if (std::fabs(c->x) > kFar || std::fabs(c->y) > kFar || std::fabs(c->z) > kFar ||
        std::fabs(c->pitch) > 360.0f || std::fabs(c->yaw) > 36000.0f)
        return std::nullopt;
    return Bookmark{c->x, c->y, c->z, c->pitch, c->yaw};
}

// A bookmark's name on one config line: bytes up to a space, '%' and control bytes as %XX.
std::string encodeName(std::string_view name) {
    std::string out;
    for (char c : name.substr(0, kMaxBookmarkName)) {
        const auto u = static_cast<unsigned char>(c);
        if (u <= 0x20 || u == 0x7f || c == '%') {
            char buf[4];
            std::snprintf(buf, sizeof buf, "%%%02X", u);
            out += buf;
        } else {
            out += c;
        }
    }
    return out;
}

std::optional<std::string> decodeName(std::string_view text) {
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '%') {
            out += text[i];
            continue;
        }
        unsigned v = 0;
        for (size_t k = i + 1; k <= i + 2; ++k) {
            if (k >= text.size() || !std::isxdigit(static_cast<unsigned char>(text[k])))
                return std::nullopt;
            v = v * 16 + static_cast<unsigned>(
                             std::isdigit(static_cast<unsigned char>(text[k]))
                                 ? text[k] - '0'
                                 : std::tolower(static_cast<unsigned char>(text[k])) - 'a' + 10);
        }
        out += static_cast<char>(v);
        i += 2;
    }
    if (out.size() > kMaxBookmarkName)
        return std::nullopt;
    return out;
}

std::string formatSettings(const Settings& s) {
    std::ostringstream o;
    o << kHeader << "\n";
    o << "speed " << fmtFloat(s.speed) << "\n";
    o << "fov " << fmtFloat(s.fov) << "\n";
    if (oneLine(s.view))
        o << "view " << s.view << "\n";
    o << "wireframe " << (s.wireframe ? 1 : 0) << "\n";
    o << "pvs " << (s.pvs ? 1 : 0) << "\n";
    o << "frustum " << (s.frustum ? 1 : 0) << "\n";
    o << "neutral_lighting " << (s.neutral_lighting ? 1 : 0) << "\n";
    o << "liquid_alpha " << fmtFloat(s.liquid_alpha) << "\n";
    o << "vsync " << (s.vsync ? 1 : 0) << "\n";
    o << "ui_scale " << fmtFloat(s.ui_scale) << "\n";
    o << "exposure " << fmtFloat(s.exposure) << "\n";
    o << "gamma " << fmtFloat(s.gamma) << "\n";
    o << "brightness " << fmtFloat(s.brightness) << "\n";
    o << "auto_exposure " << (s.auto_exposure ? 1 : 0) << "\n";
    if (!s.texture_mode.empty() && oneLine(s.texture_mode))
        o << "texture_mode " << s.texture_mode << "\n";
    o << "anisotropy " << fmtFloat(s.anisotropy) << "\n";
    o << "detected_game_folders " << (s.use_detected_games ? 1 : 0) << "\n";
    o << "quake2_look " << s.quake2_look << "\n";
    if (!s.screenshot_folder.empty() && oneLine(s.screenshot_folder))
        o << "screenshot_folder " << s.screenshot_folder << "\n";
    if (!s.export_folder.empty() && oneLine(s.export_folder))
        o << "export_folder " << s.export_folder << "\n";
    for (const auto& [name, open] : s.windows)
        if (!name.empty() && name.find_first_of(" \t\r\n") == std::string::npos)
            o << "window " << name << " " << (open ? 1 : 0) << "\n";
    // Oldest first, so that reading them back with addRecent restores the order.
    for (auto it = s.recent.rbegin(); it != s.recent.rend(); ++it)
        if (oneLine(*it) && !it->empty())
            o << "recent " << *it << "\n";
    for (auto it = s.recent_folders.rbegin(); it != s.recent_folders.rend(); ++it)
        if (oneLine(*it) && !it->empty())
            o << "recent_folder " << *it << "\n";
    for (const std::string& folder : s.game_folders)
        if (oneLine(folder) && !folder.empty())
            o << "game_folder " << folder << "\n";
    for (const auto& [key, slots] : s.bookmarks) {
        if (!oneLine(key) || key.empty())
            continue;
        for (int i = 0; i < kNumBookmarks; ++i) {
            const auto& b = slots[static_cast<size_t>(i)];
            if (!b)
                continue;
            o << "bookmark " << (i + 1) << " " << fmtFloat(b->x) << "," << fmtFloat(b->y) << ","
              << fmtFloat(b->z) << "," << fmtFloat(b->pitch) << "," << fmtFloat(b->yaw) << " "
              << key << "\n";
            if (!b->name.empty())
                o << "bookmark_name " << (i + 1) << " " << encodeName(b->name) << " " << key
                  << "\n";
        }
    }
    return o.str();
}

namespace {

// One "key value" line of the scalar settings; false when the key is not one of them.
bool parseScalar(Settings& s, std::string_view key, std::string_view value, bool* ok) {
    struct FloatKey {
        const char* key;
        float lo, hi;
        float Settings::*field;
    };
    static const FloatKey kFloats[] = {
        {"speed", 1.0f, 100000.0f, &Settings::speed},
        {"fov", 1.0f, 170.0f, &Settings::fov},
        {"liquid_alpha", 0.0f, 1.0f, &Settings::liquid_alpha},
        {"ui_scale", kMinUiScale, kMaxUiScale, &Settings::ui_scale},
        {"exposure", -4.0f, 4.0f, &Settings::exposure},
        {"gamma", 0.4f, 3.0f, &Settings::gamma},
        {"brightness", -0.5f, 0.5f, &Settings::brightness},
        {"anisotropy", 0.0f, 16.0f, &Settings::anisotropy},
    };
    struct BoolKey {
        const char* key;
        bool Settings::*field;
    };
    static const BoolKey kBools[] = {
        {"wireframe", &Settings::wireframe},
        {"pvs", &Settings::pvs},
        {"frustum", &Settings::frustum},
        {"neutral_lighting", &Settings::neutral_lighting},
        {"auto_exposure", &Settings::auto_exposure},
        {"vsync", &Settings::vsync},
        {"detected_game_folders", &Settings::use_detected_games},
    };
    for (const FloatKey& f : kFloats)
        if (key == f.key) {
            *ok = parseFloatField(value, f.lo, f.hi, &(s.*f.field));
            return true;
        }
    for (const BoolKey& b : kBools)
        if (key == b.key) {
            *ok = parseBool(value, &(s.*b.field));
            return true;
        }
    if (key == "quake2_look") {
        *ok = game::parseQuake2Look(value).has_value();
        if (*ok)
            s.quake2_look = std::string(value);
        return true;
    }
    if (key == "overlay") { // a hidden overlay is no longer carried over (issue 33)
        bool ignored = false;
        *ok = parseBool(value, &ignored);
        return true;
    }
    std::string Settings::*text = key == "view"                ? &Settings::view
                                  : key == "screenshot_folder" ? &Settings::screenshot_folder
                                  : key == "export_folder"     ? &Settings::export_folder
                                  : key == "texture_mode"      ? &Settings::texture_mode
                                                               : nullptr;
    if (!text)
        return false;
    *ok = !value.empty() && (key != "view" || value.size() < 32) &&
          (key != "texture_mode" || game::textureModeFromName(value));
    if (*ok)
        s.*text = std::string(value);
    return true;
}

// "SLOT REST MAPKEY" as bookmark lines hold it: the slot, the middle field, the map key.
bool splitSlotLine(std::string_view value, int* slot, std::string_view* middle,
                   std::string_view* map_key) {
    const size_t a = value.find(' ');
    const size_t b = a == std::string_view::npos ? a : value.find(' ', a + 1);
    if (b == std::string_view::npos)
        return false;
    const std::string_view slot_text = value.substr(0, a);
    if (slot_text.size() != 1 || slot_text[0] < '1' || slot_text[0] > '9')
        return false;
    *slot = slot_text[0] - '0';
    *middle = value.substr(a + 1, b - a - 1);
    *map_key = legacyMapKey(trim(value.substr(b + 1)));
    return !map_key->empty();
}

bool parseListLine(Settings& s, std::string_view key, std::string_view value,
                   std::string* problem) {
    const auto bad = [&] { *problem = "bad value for '" + std::string(key) + "', skipped"; };
    bool ok = true;
    if (parseScalar(s, key, value, &ok)) {
        if (!ok)
            bad();
        return true;
    }
    if (key == "recent" || key == "recent_folder") {
        if (value.empty())
            bad();
        else if (key == "recent")
            addRecent(s.recent, std::string(value));
        else
            addRecentFolder(s.recent_folders, std::string(value), kMaxRecentFolders);
        return true;
    }
    if (key == "game_folder") {
        if (value.empty())
            bad();
        else if (s.game_folders.size() >= kMaxGameFolders)
            *problem = "more than " + std::to_string(kMaxGameFolders) + " game folders, skipped";
        else if (std::find(s.game_folders.begin(), s.game_folders.end(), value) ==
                 s.game_folders.end())
            s.game_folders.emplace_back(value);
        return true;
    }
    if (key == "window") {
        const size_t sp = value.find(' ');
        bool open = false;
        if (sp == std::string_view::npos || sp == 0 || s.windows.size() >= kMaxWindows ||
            !parseBool(trim(value.substr(sp)), &open))
            bad();
        else
            s.windows[std::string(value.substr(0, sp))] = open;
        return true;
    }
    if (key != "bookmark" && key != "bookmark_name")
        return false;
    // bookmark SLOT X,Y,Z,PITCH,YAW MAPKEY / bookmark_name SLOT NAME MAPKEY
    int slot = 0;
    std::string_view middle, map_key;
    if (!splitSlotLine(value, &slot, &middle, &map_key)) {
        bad();
        return true;
    }
    const std::string k(map_key);
    if (key == "bookmark_name") {
        const auto name = decodeName(middle);
        auto it = s.bookmarks.find(k);
        if (!name || it == s.bookmarks.end() || !it->second[static_cast<size_t>(slot - 1)])
            bad(); // a name follows its bookmark
        else
            it->second[static_cast<size_t>(slot - 1)]->name = *name;
        return true;
    }
    const auto bm = parseBookmark(middle);
    if (!bm)
        bad();
    else if (s.bookmarks.size() >= kMaxBookmarkMaps && !s.bookmarks.count(k))
        *problem =
            "more than " + std::to_string(kMaxBookmarkMaps) + " maps with bookmarks, skipped";
    else
        setBookmark(s, k, slot, *bm);
    return true;
}

} // namespace

Settings parseSettings(std::string_view text, std::vector<std::string>* warnings) {
    Settings s;
    auto warn = [&](size_t line, const std::string& what) {
        if (warnings)
            warnings->push_back("config line " + std::to_string(line) + ": " + what);
    };
    if (text.size() > kMaxConfigBytes) {
        warn(0, "file larger than " + std::to_string(kMaxConfigBytes) + " bytes, using defaults");
        return s;
    }
    size_t pos = 0, line_no = 0;
    bool header_seen = false;
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        if (end == std::string_view::npos)
            end = text.size();
        const std::string_view raw = text.substr(pos, end - pos);
        pos = end + 1;
        ++line_no;
        if (!header_seen) {
            if (trim(raw) != kHeader) {
                warn(line_no, "not a bspview config (no '" + std::string(kHeader) +
                                  "' header), using defaults");
                return Settings();
            }
            header_seen = true;
            continue;
        }
        if (raw.size() > kMaxLineLength) {
            warn(line_no, "line too long, skipped");
            continue;
        }
        const std::string_view line = trim(raw);
        if (line.empty() || line.front() == '#')
            continue;
        const size_t sp = line.find(' ');
        const std::string_view key = line.substr(0, sp);
        const std::string_view value = sp == std::string_view::npos ? "" : trim(line.substr(sp));
        std::string problem;
        const bool known = parseListLine(s, key, value, &problem);
        if (!known)
            warn(line_no, "unknown key '" + std::string(key.substr(0, 64)) + "', skipped");
        else if (!problem.empty())
            warn(line_no, problem);
    }
    if (!header_seen)
        warn(0, "empty, using defaults");
    return s;
}

core::Status writeFileAtomic(const std::filesystem::path& file, std::string_view text) {
    // Same folder as the target, so the rename stays on one file system and is atomic.
    std::filesystem::path tmp = file;
    tmp += ".tmp." + std::to_string(static_cast<long>(::getpid()));
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out)
            return fileError(tmp, "cannot create");
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
        out.flush();
        if (!out) {
            std::error_code ec;
            std::filesystem::remove(tmp, ec);
            return fileError(tmp, "write failed");
        }
    }
    std::error_code ec;
    std::filesystem::rename(tmp, file, ec);
    if (ec) {
        std::error_code ignored;
        std::filesystem::remove(tmp, ignored);
        return fileError(file, "rename failed: " + ec.message());
    }
    return core::okStatus();
}

Settings loadSettings(const std::filesystem::path& file, std::vector<std::string>* warnings) {
    std::error_code ec;
    if (!std::filesystem::exists(file, ec))
        return Settings();
    auto warn = [&](const std::string& w) {
        if (warnings)
            warnings->push_back(file.string() + ": " + w);
    };
    if (!std::filesystem::is_regular_file(file, ec)) {
        warn("not a regular file, using defaults");
        return Settings();
    }
    const uintmax_t size = std::filesystem::file_size(file, ec);
    if (ec || size > kMaxConfigBytes) {
        warn(ec ? "cannot read its size, using defaults" : "file too large, using defaults");
        return Settings();
    }
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        warn("cannot open, using defaults");
        return Settings();
    }
    std::string text(static_cast<size_t>(size), '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<size_t>(in.gcount()));
    std::vector<std::string> inner;
    Settings s = parseSettings(text, &inner);
    for (const std::string& w : inner)
        warn(w);
    return s;
}

core::Status saveSettings(const std::filesystem::path& file, const Settings& settings) {
    std::error_code ec;
    if (file.has_parent_path())
        std::filesystem::create_directories(file.parent_path(), ec);
    if (ec)
        return fileError(file.parent_path(), "cannot create folder: " + ec.message());
    return writeFileAtomic(file, formatSettings(settings));
}

void addRecent(std::vector<std::string>& recent, const std::string& spec) {
    if (spec.empty())
        return;
    recent.erase(std::remove(recent.begin(), recent.end(), spec), recent.end());
    recent.insert(recent.begin(), spec);
    if (recent.size() > kMaxRecentFiles)
        recent.resize(kMaxRecentFiles);
}

bool recentExists(const std::string& spec) {
    std::error_code ec;
    if (auto ms = content::parseMapSpec(spec))
        return std::filesystem::is_regular_file(ms->archive, ec);
    return std::filesystem::is_regular_file(spec, ec);
}

std::string mapKey(const std::string& spec) {
    std::error_code ec;
    if (auto ms = content::parseMapSpec(spec)) {
        const std::filesystem::path archive = std::filesystem::weakly_canonical(ms->archive, ec);
        return (ec ? ms->archive : archive).string() + ":" + core::toLower(ms->member);
    }
    const std::filesystem::path canonical = std::filesystem::weakly_canonical(spec, ec);
    return (ec ? std::filesystem::path(spec) : canonical).string();
}

std::string_view legacyMapKey(std::string_view key) {
    const size_t hash = key.rfind('#');
    if (hash == std::string_view::npos || hash + 1 == key.size())
        return key;
    for (char c : key.substr(hash + 1))
        if (c < '0' || c > '9')
            return key;
    return key.substr(0, hash);
}

void setBookmark(Settings& settings, const std::string& map_key, int slot, const Bookmark& b) {
    if (slot < 1 || slot > kNumBookmarks || map_key.empty())
        return;
    settings.bookmarks[map_key][static_cast<size_t>(slot - 1)] = b;
}

std::optional<Bookmark> bookmark(const Settings& settings, const std::string& map_key, int slot) {
    if (slot < 1 || slot > kNumBookmarks)
        return std::nullopt;
    auto it = settings.bookmarks.find(map_key);
    if (it == settings.bookmarks.end())
        return std::nullopt;
    return it->second[static_cast<size_t>(slot - 1)];
}

void clearBookmark(Settings& settings, const std::string& map_key, int slot) {
    if (slot < 1 || slot > kNumBookmarks)
        return;
    auto it = settings.bookmarks.find(map_key);
    if (it == settings.bookmarks.end())
        return;
    it->second[static_cast<size_t>(slot - 1)].reset();
    if (std::all_of(it->second.begin(), it->second.end(), [](const auto& b) { return !b; }))
        settings.bookmarks.erase(it);
}

} // namespace app
