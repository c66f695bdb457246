// Animated light styles (Quake 1 / Half-Life / Quake 2): 64 slots, each a string of letters
// played at 10 letters a second, 'a' = dark, 'm' = normal (1.0), 'z' = double.
#pragma once

#include "bsp/map.h"

#include <array>
#include <string_view>

namespace scene {

inline constexpr int kNumLightStyles = 64;

// The string of a style slot: the map's own where its game sets one at spawn
// (bsp::Map::light_style_strings), else the standard Quake strings for 0-11 and "m" for the
// others.
std::string_view lightStyleString(int style, const bsp::Map* map = nullptr);

// Brightness of every slot at time t (seconds); `enabled[i] == false` forces slot i to 0.
// With a map, its spawn-time strings replace the standard ones.
std::array<float, kNumLightStyles>
lightStyleValues(double time_seconds, const std::array<bool, kNumLightStyles>* enabled = nullptr,
                 const bsp::Map* map = nullptr);

// Which slots light up under per-style solo and mute switches: when any slot is soloed only
// the soloed slots do, otherwise every slot that is not muted.
std::array<bool, kNumLightStyles> lightStyleMask(const std::array<bool, kNumLightStyles>& mute,
                                                 const std::array<bool, kNumLightStyles>& solo);

} // namespace scene
