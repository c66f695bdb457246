// Mipmap chains built on the CPU. On Mesa llvmpipe glGenerateMipmap is about 95% of a map's
// texture upload (oa_dm1: ~200 ms of glGenerateMipmap against ~12 ms of glTexImage2D), while a
// 2x2 box filter in plain C++ runs at memory speed and on worker threads. ioquake3 builds its
// mipmaps on the CPU as well (renderergl1 tr_image.c R_MipMap, a 2x2 average).
#pragma once

#include "content/image/image.h"

#include <span>
#include <vector>

namespace content {

// How a level's mean of four texels becomes a byte: to the nearest, or down as ioquake3 does
// (renderergl1 tr_image.c R_MipMap with r_simpleMipMaps 1: (a + b + c + d) >> 2), which darkens
// each level by 3/8 of a step on average (bsp::Map::mips_round_down).
enum class MipRounding { Nearest, Down };

// The image one level down: max(1, w / 2) x max(1, h / 2), each texel the mean of the 2x2
// block above it, rounded by `rounding` (a 1-wide or 1-high level averages the pair it has; an
// odd size drops the last row or column, as GL's level sizes do). An invalid image gives an
// empty one.
Image halveImage(const Image& image, MipRounding rounding = MipRounding::Nearest);

// Levels 1.. down to 1x1 (level 0 is the image itself); empty for an invalid or 1x1 image.
std::vector<Image> mipChain(const Image& image, MipRounding rounding = MipRounding::Nearest);

// mipChain of each image, built on worker threads (one image at a time from a shared counter);
// null entries get an empty chain. The result does not depend on the thread count.
std::vector<std::vector<Image>> mipChains(std::span<const Image* const> images,
                                          MipRounding rounding = MipRounding::Nearest);

} // namespace content
