#include "content/vfs/game_install.h"

#include "core/file.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace content {

namespace fs = std::filesystem;

namespace {

constexpr size_t kMaxVdfNodes = 100000;

struct VdfNode {
    std::string key, value;
    bool block = false;
    std::vector<VdfNode> children;
};

core::Error fileError(core::ErrorCode code, std::string_view file, std::string detail) {
    core::Error e = core::makeError(code, {}, -1, {}, std::move(detail));
    e.file = std::string(file);
    return e;
}

bool equalsNoCase(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

// KeyValues text as tokens: strings (quoted or bare) and braces.
class VdfReader {
public:
    VdfReader(std::string_view text, std::string_view file) : m_text(text), m_file(file) {}

    core::Status parseBlock(std::vector<VdfNode>& out, int depth, bool top) {
        if (depth > kMaxVdfDepth)
            return fail("nested deeper than " + std::to_string(kMaxVdfDepth) + " blocks");
        while (true) {
            Token key;
            if (auto st = next(key); !st)
                return st;
            if (key.kind == Kind::End)
                return top ? core::okStatus() : fail("block not closed before the end");
            if (key.kind == Kind::Close)
                return top ? fail("'}' without a block") : core::okStatus();
            if (key.kind == Kind::Open)
                return fail("'{' where a key was expected");
            if (++m_nodes > kMaxVdfNodes)
                return fail("more than " + std::to_string(kMaxVdfNodes) + " keys");
            VdfNode node;
            node.key = std::move(key.text);
            Token value;
            if (auto st = next(value); !st)
                return st;
            if (value.kind == Kind::Open) {
                node.block = true;
                if (auto st = parseBlock(node.children, depth + 1, false); !st)
                    return st;
            } else if (value.kind == Kind::String) {
                node.value = std::move(value.text);
                skipConditional();
            } else {
                return fail("key '" + node.key.substr(0, 40) + "' has no value");
            }
            out.push_back(std::move(node));
        }
    }

private:
    enum class Kind { String, Open, Close, End };
    struct Token {
        Kind kind = Kind::End;
        std::string text;
    };

    core::Error fail(const std::string& what) const {
        return fileError(core::ErrorCode::BadValue, m_file,
                         "line " + std::to_string(m_line) + ": " + what);
    }

    void skipSpaceAndComments() {
        while (m_pos < m_text.size()) {
            const char c = m_text[m_pos];
            if (c == '\n') {
                ++m_line;
                ++m_pos;
            } else if (std::isspace(static_cast<unsigned char>(c))) {
                ++m_pos;
            } else if (c == '/' && m_pos + 1 < m_text.size() && m_text[m_pos + 1] == '/') {
                while (m_pos < m_text.size() && m_text[m_pos] != '\n')
                    ++m_pos;
            } else {
                return;
            }
        }
    }

    // A "[$WIN32]" condition after a value (KeyValues' platform switches) is not a key.
    void skipConditional() {
        skipSpaceAndComments();
        if (m_pos < m_text.size() && m_text[m_pos] == '[') {
            const size_t close = m_text.find(']', m_pos);
            const size_t eol = m_text.find('\n', m_pos);
            if (close != std::string_view::npos && close < eol)
                m_pos = close + 1;
        }
    }

    core::Status quoted(Token& t) {
        ++m_pos; // the opening quote
        while (m_pos < m_text.size()) {
            char c = m_text[m_pos++];
            if (c == '"') {
                t.kind = Kind::String;
                return core::okStatus();
            }
            if (c == '\n')
                ++m_line;
            if (c == '\\' && m_pos < m_text.size()) {
                const char e = m_text[m_pos++];
                c = e == 'n' ? '\n' : e == 't' ? '\t' : e;
            }
            t.text += c;
        }
        return fail("string not closed before the end");
    }

    core::Status next(Token& t) {
        t = Token();
        skipSpaceAndComments();
        if (m_pos >= m_text.size())
            return core::okStatus();
        const char c = m_text[m_pos];
        if (c == '{' || c == '}') {
            ++m_pos;
            t.kind = c == '{' ? Kind::Open : Kind::Close;
            return core::okStatus();
        }
        if (c == '"')
            return quoted(t);
        while (m_pos < m_text.size()) { // a bare token
            const char b = m_text[m_pos];
            if (std::isspace(static_cast<unsigned char>(b)) || b == '{' || b == '}' || b == '"')
                break;
            t.text += b;
            ++m_pos;
        }
        t.kind = Kind::String;
        return core::okStatus();
    }

    std::string_view m_text;
    std::string_view m_file;
    size_t m_pos = 0;
    int m_line = 1;
    size_t m_nodes = 0;
};

bool allDigits(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c));
    });
}

void addUnique(std::vector<std::string>& out, const std::string& path) {
    if (!path.empty() && out.size() < kMaxSteamLibraries &&
        std::find(out.begin(), out.end(), path) == out.end())
        out.push_back(path);
}

} // namespace

core::Result<std::vector<std::string>> parseSteamLibraryFolders(std::string_view text,
                                                                std::string_view file) {
    if (text.size() > kMaxVdfBytes)
        return fileError(core::ErrorCode::LimitExceeded, file,
                         "larger than " + std::to_string(kMaxVdfBytes) + " bytes");
    std::vector<VdfNode> top;
    VdfReader reader(text, file);
    if (auto st = reader.parseBlock(top, 0, true); !st)
        return st.error();
    const auto root = std::find_if(top.begin(), top.end(), [](const VdfNode& n) {
        return n.block && equalsNoCase(n.key, "libraryfolders");
    });
    if (root == top.end())
        return fileError(core::ErrorCode::BadValue, file, "no \"libraryfolders\" block");
    std::vector<std::string> out;
    for (const VdfNode& n : root->children) {
        if (!n.block) {
            if (allDigits(n.key)) // the older layout: "1" "D:\\SteamLibrary"
                addUnique(out, n.value);
            continue;
        }
        for (const VdfNode& c : n.children)
            if (!c.block && equalsNoCase(c.key, "path"))
                addUnique(out, c.value);
    }
    return out;
}

GameFamily gameFamilyOf(bsp::Format format) {
    switch (format) {
    case bsp::Format::Quake1:
    case bsp::Format::Quake1Bsp2:
    case bsp::Format::Quake1Rmq:
        return GameFamily::Quake1;
    case bsp::Format::HalfLife:
        return GameFamily::HalfLife;
    case bsp::Format::Quake2:
    case bsp::Format::Quake2Qbsp:
        return GameFamily::Quake2;
    case bsp::Format::Quake3:
    case bsp::Format::Quake3Rtcw:
    case bsp::Format::Qfusion:
        return GameFamily::Quake3;
    case bsp::Format::Source:
        return GameFamily::Source;
    }
    return GameFamily::Quake1;
}

const char* gameFamilyName(GameFamily family) {
    switch (family) {
    case GameFamily::Quake1:
        return "Quake";
    case GameFamily::HalfLife:
        return "Half-Life";
    case GameFamily::Quake2:
        return "Quake II";
    case GameFamily::Quake3:
        return "Quake III";
    case GameFamily::Source:
        return "Source";
    }
    return "?";
}

namespace {

// A game's folder below an install root (a Steam library's steamapps/common, or a plain
// folder such as /usr/share/games).
struct KnownFolder {
    const char* game;
    GameFamily family;
    const char* path; // relative to the root
};

// Steam: steamapps/common/<install dir>/<game folder>, as the games' depots lay them out.
constexpr std::array<KnownFolder, 26> kSteamFolders = {{
    {"Quake", GameFamily::Quake1, "Quake/id1"},
    {"Quake (2021 re-release)", GameFamily::Quake1, "Quake/rerelease/id1"},
    {"Quake: Scourge of Armagon", GameFamily::Quake1, "Quake/hipnotic"},
    {"Quake: Dissolution of Eternity", GameFamily::Quake1, "Quake/rogue"},
    {"Half-Life", GameFamily::HalfLife, "Half-Life/valve"},
    {"Half-Life: Counter-Strike", GameFamily::HalfLife, "Half-Life/cstrike"},
    {"Half-Life: Opposing Force", GameFamily::HalfLife, "Half-Life/gearbox"},
    {"Half-Life: Blue Shift", GameFamily::HalfLife, "Half-Life/bshift"},
    {"Half-Life: Day of Defeat", GameFamily::HalfLife, "Half-Life/dod"},
    {"Half-Life: Team Fortress Classic", GameFamily::HalfLife, "Half-Life/tfc"},
    {"Quake II", GameFamily::Quake2, "Quake 2/baseq2"},
    {"Quake II (2023 re-release)", GameFamily::Quake2, "Quake 2/rerelease/baseq2"},
    {"Quake III Arena", GameFamily::Quake3, "Quake 3 Arena/baseq3"},
    {"Quake III: Team Arena", GameFamily::Quake3, "Quake 3 Arena/missionpack"},
    {"Half-Life 2", GameFamily::Source, "Half-Life 2/hl2"},
    {"Half-Life 2: Episode One", GameFamily::Source, "Half-Life 2/episodic"},
    {"Half-Life 2: Episode Two", GameFamily::Source, "Half-Life 2/ep2"},
    {"Half-Life 2: Deathmatch", GameFamily::Source, "Half-Life 2 Deathmatch/hl2mp"},
    {"Team Fortress 2", GameFamily::Source, "Team Fortress 2/tf"},
    {"Counter-Strike: Source", GameFamily::Source, "Counter-Strike Source/cstrike"},
    {"Counter-Strike: Global Offensive", GameFamily::Source,
     "Counter-Strike Global Offensive/csgo"},
    {"Left 4 Dead 2", GameFamily::Source, "Left 4 Dead 2/left4dead2"},
    {"Garry's Mod", GameFamily::Source, "GarrysMod/garrysmod"},
    {"Portal", GameFamily::Source, "Portal/portal"},
    {"Portal 2", GameFamily::Source, "Portal 2/portal2"},
    {"Day of Defeat: Source", GameFamily::Source, "Day of Defeat Source/dod"},
}};

// Outside Steam: distribution packages, the engines' own folders, hand installs.
constexpr std::array<KnownFolder, 14> kInstallFolders = {{
    {"Quake", GameFamily::Quake1, "quake/id1"},
    {"Quake", GameFamily::Quake1, "Quake/id1"},
    {"Quake (QuakeSpasm user folder)", GameFamily::Quake1, ".quakespasm/id1"},
    {"Quake (LibreQuake)", GameFamily::Quake1, "librequake/lq1"},
    {"Half-Life", GameFamily::HalfLife, "Half-Life/valve"},
    {"Half-Life (Xash3D)", GameFamily::HalfLife, "xash3d/valve"},
    {"Quake II", GameFamily::Quake2, "quake2/baseq2"},
    {"Quake II (Yamagi user folder)", GameFamily::Quake2, ".yq2/baseq2"},
    {"Quake III Arena", GameFamily::Quake3, "quake3/baseq3"},
    {"Quake III Arena (user folder)", GameFamily::Quake3, ".q3a/baseq3"},
    {"OpenArena", GameFamily::Quake3, "openarena/baseoa"},
    {"OpenArena (user folder)", GameFamily::Quake3, ".openarena/baseoa"},
    {"Quake III Arena", GameFamily::Quake3, "Quake III Arena/baseq3"},
    {"Quake II", GameFamily::Quake2, "Quake2/baseq2"},
}};

void addFound(std::vector<DetectedGame>& out, const KnownFolder& k, const fs::path& root,
              const std::string& found_by) {
    std::error_code ec;
    const fs::path folder = (root / k.path).lexically_normal();
    if (!fs::is_directory(folder, ec))
        return;
    const fs::path canonical = fs::weakly_canonical(folder, ec);
    const fs::path key = ec ? folder : canonical;
    for (const DetectedGame& g : out)
        if (g.folder == key)
            return;
    out.push_back({k.game, k.family, key, found_by});
}

} // namespace

GameSearchRoots defaultGameSearchRoots(const std::function<const char*(const char*)>& get_env) {
    GameSearchRoots r;
    const char* home_env = get_env("HOME");
    const fs::path home = home_env && *home_env ? fs::path(home_env) : fs::path();
    if (!home.empty()) {
        for (const char* steam :
             {".steam/steam", ".local/share/Steam",
              ".var/app/com.valvesoftware.Steam/.local/share/Steam",
              "snap/steam/common/.local/share/Steam", "Library/Application Support/Steam"})
            r.steam_roots.push_back(home / steam);
        r.install_roots.push_back(home);
        r.install_roots.push_back(home / ".local/share");
        r.install_roots.push_back(home / "games");
        r.install_roots.push_back(home / "Games");
    }
#ifdef _WIN32
    r.steam_roots.emplace_back("C:/Program Files (x86)/Steam");
    for (const char* dir : {"C:/Games", "C:/Program Files (x86)", "C:/"})
        r.install_roots.emplace_back(dir);
#else
    for (const char* dir : {"/usr/share/games", "/usr/local/games", "/usr/share", "/opt"})
        r.install_roots.emplace_back(dir);
#endif
    return r;
}

std::vector<DetectedGame> detectGameFolders(const GameSearchRoots& roots,
                                            std::vector<std::string>* warnings) {
    std::vector<std::string> libraries;
    std::error_code ec;
    for (const fs::path& root : roots.steam_roots) {
        if (!fs::is_directory(root / "steamapps", ec))
            continue;
        addUnique(libraries, root.string()); // the Steam folder is a library itself
        for (const char* at : {"steamapps/libraryfolders.vdf", "config/libraryfolders.vdf"}) {
            const fs::path vdf = root / at;
            if (!fs::is_regular_file(vdf, ec))
                continue;
            auto bytes = core::readFile(vdf);
            auto listed = bytes ? parseSteamLibraryFolders(
                                      std::string_view(reinterpret_cast<const char*>(bytes->data()),
                                                       bytes->size()),
                                      vdf.string())
                                : core::Result<std::vector<std::string>>(bytes.error());
            if (!listed) {
                if (warnings)
                    warnings->push_back(listed.error().message());
                continue;
            }
            for (const std::string& lib : *listed)
                addUnique(libraries, lib);
        }
    }
    std::vector<DetectedGame> out;
    for (const std::string& lib : libraries)
        for (const KnownFolder& k : kSteamFolders)
            addFound(out, k, fs::path(lib) / "steamapps/common", "Steam library " + lib);
    for (const fs::path& root : roots.install_roots)
        for (const KnownFolder& k : kInstallFolders)
            addFound(out, k, root, "common folder " + root.string());
    return out;
}

} // namespace content
