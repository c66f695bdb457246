// Source VBSP rules the tests check directly (the parser itself is bsp::loadMap's).
#pragma once

#include <cstdint>

namespace bsp {

// A ColorRGBExp32 channel (value c, signed exponent) as the 8-bit lightmap texel the renderer
// doubles: the engine's LDR lightmap table at screen gamma 2.2 and overbright 2
// (docs/source.md): floor(127.5 * (round(1024 * c * 2^exponent / 255) / 1024) ^ (1 / 2.2)),
// the linear value clamped to 0..4 first.
uint8_t sourceLightmapByte(uint8_t c, int8_t exponent);

} // namespace bsp
