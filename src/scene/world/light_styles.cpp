#include "scene/world/light_styles.h"

#include <cmath>

namespace scene {

namespace {
// The classic light style table that Quake's progs set with lightstyle() in worldspawn.
constexpr std::string_view kStyles[] = {
    "m",                                                   // 0 normal
    "mmnmmommommnonmmonqnmmo",                             // 1 flicker
    "abcdefghijklmnopqrstuvwxyzyxwvutsrqponmlkjihgfedcba", // 2 slow strong pulse
    "mmmmmaaaaammmmmaaaaaabcdefgabcdefg",                  // 3 candle
    "mamamamamama",                                        // 4 fast strobe
    "jklmnopqrstuvwxyzyxwvutsrqponmlkj",                   // 5 gentle pulse
    "nmonqnmomnmomomno",                                   // 6 flicker 2
    "mmmaaaabcdefgmmmmaaaammmaamm",                        // 7 candle 2
    "mmmaaammmaaammmabcdefaaaammmmabcdefmmmaaaa",          // 8 candle 3
    "aaaaaaaazzzzzzzz",                                    // 9 slow strobe
    "mmamammmmammamamaaamammma",                           // 10 fluorescent flicker
    "abcdefghijklmnopqrrqponmlkjihgfedcba",                // 11 slow pulse, no black
};
} // namespace

std::string_view lightStyleString(int style, const bsp::Map* map) {
    if (map)
        for (const bsp::LightStyleString& s : map->light_style_strings)
            if (s.style == style && !s.letters.empty())
                return s.letters;
    if (style >= 0 && style < static_cast<int>(std::size(kStyles)))
        return kStyles[style];
    return "m";
}

std::array<float, kNumLightStyles>
lightStyleValues(double t, const std::array<bool, kNumLightStyles>* enabled, const bsp::Map* map) {
    std::array<float, kNumLightStyles> out{};
    const long long frame = static_cast<long long>(std::floor(t * 10.0));
    for (int i = 0; i < kNumLightStyles; ++i) {
        if (enabled && !(*enabled)[static_cast<size_t>(i)]) {
            out[static_cast<size_t>(i)] = 0.0f;
            continue;
        }
        const std::string_view s = lightStyleString(i, map);
        const long long n = static_cast<long long>(s.size());
        const long long k = ((frame % n) + n) % n;
        out[static_cast<size_t>(i)] = static_cast<float>(s[static_cast<size_t>(k)] - 'a') / 12.0f;
    }
    return out;
}

std::array<bool, kNumLightStyles> lightStyleMask(const std::array<bool, kNumLightStyles>& mute,
                                                 const std::array<bool, kNumLightStyles>& solo) {
    std::array<bool, kNumLightStyles> out{};
    bool any_solo = false;
    for (bool s : solo)
        any_solo = any_solo || s;
    for (size_t i = 0; i < out.size(); ++i)
        out[i] = any_solo ? solo[i] : !mute[i];
    return out;
}

} // namespace scene
