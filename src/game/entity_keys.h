// Entity keys read as numbers the way the games' spawn code reads them (atof, then an int cast
// where the field is an int). GL-free.
#pragma once

#include "bsp/map.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string_view>

namespace game {

// The key as an integer (a number written "1.5" counts as 1), or `fallback` when it is absent,
// not a number, not finite or beyond +-1e9.
inline int32_t intKey(const bsp::Entity& e, std::string_view key, int32_t fallback) {
    const std::string_view v = e.get(key);
    float f = 0;
    if (v.empty() || std::from_chars(v.data(), v.data() + v.size(), f).ec != std::errc() ||
        !std::isfinite(f) || std::fabs(f) > 1e9f)
        return fallback;
    return int32_t(f);
}

// The key as a finite number, or `fallback`.
inline float floatKey(const bsp::Entity& e, std::string_view key, float fallback) {
    const auto v = e.number(key);
    return v && std::isfinite(*v) ? *v : fallback;
}

} // namespace game
