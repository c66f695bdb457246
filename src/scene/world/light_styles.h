// Animated light styles (Quake 1 / Half-Life / Quake 2): 64 slots, each a string of letters
// played at 10 letters a second, 'a' = dark, 'm' = normal (1.0), 'z' = double.
#pragma once

#include "game/profile.h"

#include <array>
#include <span>
#include <string_view>

namespace scene {

inline constexpr int kNumLightStyles = 64;

// The string of a style slot: the one the game's spawn code sets (`spawn`, from
// game::EntityRules::light_styles) where it sets one, else the standard Quake strings for 0-11
// and "m" for the others.
std::string_view lightStyleString(int style, std::span<const game::LightStyleString> spawn = {});

// Brightness of every slot at time t (seconds); `enabled[i] == false` forces slot i to 0. The
// spawn-time strings replace the standard ones.
std::array<float, kNumLightStyles>
lightStyleValues(double time_seconds, const std::array<bool, kNumLightStyles>* enabled = nullptr,
                 std::span<const game::LightStyleString> spawn = {});

// Which slots light up under per-style solo and mute switches: when any slot is soloed only
// the soloed slots do, otherwise every slot that is not muted.
std::array<bool, kNumLightStyles> lightStyleMask(const std::array<bool, kNumLightStyles>& mute,
                                                 const std::array<bool, kNumLightStyles>& solo);

} // namespace scene
