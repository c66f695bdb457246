// Guessing a material's game from its path (see game_hints.h). The table lists folder names
// and name prefixes seen in each game's own materials and map names (Valve's map prefixes:
// ctf_ / cp_ / pl_ / koth_ for Team Fortress 2, de_ / cs_ for Counter-Strike).
#include "content/vfs/game_hints.h"

#include <array>

namespace content {

namespace {

enum class Match { Equal, Prefix, Contains };

struct Hint {
    std::string_view text; // lower case
    Match match;
    std::string_view game;
};

constexpr std::string_view kTf2 = "Team Fortress 2";
constexpr std::string_view kCs = "Counter-Strike";
constexpr std::string_view kL4d = "Left 4 Dead";
constexpr std::string_view kHl2 = "Half-Life 2";
constexpr std::string_view kPortal = "Portal";
constexpr std::string_view kGmod = "Garry's Mod";
constexpr std::string_view kDod = "Day of Defeat: Source";
constexpr std::string_view kMomentum = "Momentum Mod";

constexpr std::array kHints = {
    Hint{"tf", Match::Equal, kTf2},
    Hint{"tf2", Match::Prefix, kTf2},
    Hint{"tf_", Match::Prefix, kTf2},
    Hint{"props_2fort", Match::Prefix, kTf2},
    Hint{"2fort", Match::Prefix, kTf2},
    Hint{"props_gameplay", Match::Prefix, kTf2},
    Hint{"props_hydro", Match::Prefix, kTf2},
    Hint{"props_granary", Match::Prefix, kTf2},
    Hint{"props_well", Match::Prefix, kTf2},
    Hint{"props_mining", Match::Prefix, kTf2},
    Hint{"props_spytech", Match::Prefix, kTf2},
    Hint{"props_trainyard", Match::Prefix, kTf2},
    Hint{"props_medieval", Match::Prefix, kTf2},
    Hint{"props_halloween", Match::Prefix, kTf2},
    Hint{"ctf_", Match::Prefix, kTf2},
    Hint{"cp_", Match::Prefix, kTf2},
    Hint{"pl_", Match::Prefix, kTf2},
    Hint{"plr_", Match::Prefix, kTf2},
    Hint{"koth_", Match::Prefix, kTf2},
    Hint{"mvm_", Match::Prefix, kTf2},
    Hint{"cstrike", Match::Equal, kCs},
    Hint{"csgo", Match::Prefix, kCs},
    Hint{"de_", Match::Prefix, kCs},
    Hint{"cs_", Match::Prefix, kCs},
    Hint{"l4d", Match::Contains, kL4d},
    Hint{"left4dead", Match::Prefix, kL4d},
    Hint{"hl2", Match::Prefix, kHl2},
    Hint{"halflife", Match::Prefix, kHl2},
    Hint{"props_c17", Match::Prefix, kHl2},
    Hint{"props_combine", Match::Prefix, kHl2},
    Hint{"props_wasteland", Match::Prefix, kHl2},
    Hint{"props_canal", Match::Prefix, kHl2},
    Hint{"portal", Match::Prefix, kPortal},
    Hint{"props_portal", Match::Prefix, kPortal},
    Hint{"gm_", Match::Prefix, kGmod},
    Hint{"garrysmod", Match::Equal, kGmod},
    Hint{"gmod", Match::Prefix, kGmod},
    Hint{"dod_", Match::Prefix, kDod},
    Hint{"momentum", Match::Prefix, kMomentum},
};

char lower(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

// `part` (any case) against a lower-case `text`.
bool matches(std::string_view part, const Hint& h) {
    const auto equalAt = [&](size_t at) {
        for (size_t i = 0; i < h.text.size(); ++i)
            if (lower(part[at + i]) != h.text[i])
                return false;
        return true;
    };
    if (part.size() < h.text.size())
        return false;
    switch (h.match) {
    case Match::Equal:
        return part.size() == h.text.size() && equalAt(0);
    case Match::Prefix:
        return equalAt(0);
    case Match::Contains:
        for (size_t at = 0; at + h.text.size() <= part.size(); ++at)
            if (equalAt(at))
                return true;
        return false;
    }
    return false;
}

} // namespace

std::string_view likelyGameOf(std::string_view material) {
    size_t start = 0;
    while (start <= material.size()) {
        size_t end = material.find_first_of("/\\", start);
        if (end == std::string_view::npos)
            end = material.size();
        const std::string_view part = material.substr(start, end - start);
        for (const Hint& h : kHints)
            if (!part.empty() && matches(part, h))
                return h.game;
        start = end + 1;
    }
    return {};
}

} // namespace content
