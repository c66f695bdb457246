#include "content/image/mipmap.h"

#include "core/parallel.h"

#include <algorithm>

namespace content {

Image halveImage(const Image& image, MipRounding rounding) {
    Image out;
    if (!image.valid())
        return out;
    const int w = image.width, h = image.height;
    out.width = std::max(1, w / 2);
    out.height = std::max(1, h / 2);
    out.rgba.resize(static_cast<size_t>(out.width) * static_cast<size_t>(out.height) * 4);
    const uint8_t* src = image.rgba.data();
    uint8_t* dst = out.rgba.data();
    const size_t row = static_cast<size_t>(w) * 4;
    const unsigned bias = rounding == MipRounding::Nearest ? 2u : 0u;
    for (int y = 0; y < out.height; ++y) {
        const int y0 = std::min(2 * y, h - 1), y1 = std::min(2 * y + 1, h - 1);
        const uint8_t* r0 = src + static_cast<size_t>(y0) * row;
        const uint8_t* r1 = src + static_cast<size_t>(y1) * row;
        for (int x = 0; x < out.width; ++x) {
            const size_t x0 = static_cast<size_t>(std::min(2 * x, w - 1)) * 4;
            const size_t x1 = static_cast<size_t>(std::min(2 * x + 1, w - 1)) * 4;
            for (size_t c = 0; c < 4; ++c)
                *dst++ = static_cast<uint8_t>((static_cast<unsigned>(r0[x0 + c]) + r0[x1 + c] +
                                               r1[x0 + c] + r1[x1 + c] + bias) /
                                              4);
        }
    }
    return out;
}

std::vector<Image> mipChain(const Image& image, MipRounding rounding) {
    std::vector<Image> levels;
    const Image* prev = &image;
    while (prev->valid() && (prev->width > 1 || prev->height > 1)) {
        levels.push_back(halveImage(*prev, rounding));
        prev = &levels.back();
    }
    return levels;
}

std::vector<std::vector<Image>> mipChains(std::span<const Image* const> images,
                                          MipRounding rounding) {
    std::vector<std::vector<Image>> chains(images.size());
    core::parallelFor(images.size(), [&](size_t i) {
        if (images[i])
            chains[i] = mipChain(*images[i], rounding);
    });
    return chains;
}

} // namespace content
