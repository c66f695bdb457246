#include "demo_textures.h"

#include <algorithm>
#include <array>

// Static linkage keeps this copy of stb_image_write from clashing with another library that
// also compiles the implementation (the content layer may).
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wshadow"
#endif
#include <stb_image_write.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace mapgen {

namespace {

constexpr int kSize = 64;

using Rgb = std::array<int, 3>;

// Integer hash (a variant of the lowbias32 mixer) for repeatable per-pixel noise.
uint32_t hash(uint32_t x, uint32_t y, uint32_t seed) {
    uint32_t h = x * 0x9e3779b1u ^ (y + 0x7f4a7c15u) * 0x85ebca6bu ^ seed * 0xc2b2ae35u;
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    h *= 0x846ca68bu;
    h ^= h >> 16;
    return h;
}

// Noise in [-amp, amp].
int noise(int x, int y, uint32_t seed, int amp) {
    const uint32_t h = hash(static_cast<uint32_t>(x), static_cast<uint32_t>(y), seed);
    return static_cast<int>(h % static_cast<uint32_t>(2 * amp + 1)) - amp;
}

Rgb shade(const Rgb& c, int delta) {
    return {c[0] + delta, c[1] + delta, c[2] + delta};
}

Rgb mix(const Rgb& a, const Rgb& b, int t256) {
    Rgb r;
    for (int i = 0; i < 3; ++i)
        r[i] = (a[i] * (256 - t256) + b[i] * t256) / 256;
    return r;
}

template <class F> DemoTexture draw(std::string name, F&& pixel) {
    DemoTexture t;
    t.name = std::move(name);
    t.width = kSize;
    t.height = kSize;
    t.rgb.resize(size_t{kSize} * kSize * 3);
    for (int y = 0; y < kSize; ++y) {
        for (int x = 0; x < kSize; ++x) {
            const Rgb c = pixel(x, y);
            for (int i = 0; i < 3; ++i)
                t.rgb[(static_cast<size_t>(y) * kSize + static_cast<size_t>(x)) * 3 +
                      static_cast<size_t>(i)] = static_cast<uint8_t>(std::clamp(c[i], 0, 255));
        }
    }
    return t;
}

// Running bond: rows of 32x16 bricks, every other row shifted by half a brick.
Rgb brick(int x, int y) {
    const int row = y / 16;
    const int bx = (x + (row % 2) * 16) % kSize;
    const int col = bx / 32;
    const bool mortar = y % 16 == 15 || bx % 32 == 31;
    if (mortar)
        return shade({150, 142, 128}, noise(x, y, 1, 10));
    const Rgb base = shade({148, 66, 48}, noise(col, row, 2, 14));
    int d = noise(x, y, 3, 9);
    if (y % 16 == 0 || bx % 32 == 0)
        d += 18; // lit top/left edge
    return shade(base, d);
}

// Metal panels: 32x32 plates with bevelled edges and a rivet in each corner.
Rgb panel(int x, int y) {
    const int px = x % 32, py = y % 32;
    const Rgb base = shade({92, 102, 116}, noise(x / 32, y / 32, 4, 6));
    int d = noise(x, y, 5, 4);
    if (px == 0 || py == 0)
        d += 34;
    else if (px == 31 || py == 31)
        d -= 38;
    const bool rivet = (px == 4 || px == 27) && (py == 4 || py == 27);
    if (rivet)
        d += 50;
    return shade(base, d);
}

// Floor tiles: a 2x2 checker of 32x32 tiles with dark grout.
Rgb floorTile(int x, int y) {
    if (x % 32 == 0 || y % 32 == 0)
        return shade({58, 54, 50}, noise(x, y, 6, 5));
    const bool dark = ((x / 32) + (y / 32)) % 2 == 1;
    const Rgb base = dark ? Rgb{112, 100, 84} : Rgb{176, 166, 146};
    return shade(base, noise(x, y, 7, 8));
}

// Ceiling: pale plaster with faint seams on a 64 grid.
Rgb ceiling(int x, int y) {
    int d = noise(x, y, 8, 7) + noise(x / 4, y / 4, 9, 5);
    if (x == 0 || y == 0)
        d -= 26;
    return shade({196, 192, 182}, d);
}

// Stone: blocks of 16 rows with per-row joint offsets and mottled grey faces.
Rgb stone(int x, int y) {
    static constexpr std::array<int, 4> kOffset = {0, 5, 16, 27};
    static constexpr std::array<int, 4> kWidth = {32, 16, 32, 16}; // divide 64: tileable
    const int row = y / 16;
    const int bx = (x + kOffset[static_cast<size_t>(row)]) % kSize;
    const int w = kWidth[static_cast<size_t>(row)];
    const int col = bx / w;
    if (y % 16 == 15 || bx % w == w - 1)
        return shade({60, 60, 58}, noise(x, y, 10, 6));
    const Rgb base =
        mix({118, 116, 110}, {96, 102, 98}, static_cast<int>(hash(col, row, 11) % 256));
    return shade(base, noise(x, y, 12, 12) + noise(x / 3, y / 3, 13, 6));
}

// Trim: bronze bands running along the texture's s axis.
Rgb trim(int x, int y) {
    const int band = y % 16;
    int d = noise(x, y, 14, 6);
    if (band < 2)
        d += 40;
    else if (band > 13)
        d -= 45;
    else if (band == 7 || band == 8)
        d -= 20;
    return shade({164, 120, 56}, d);
}

} // namespace

std::vector<DemoTexture> buildDemoTextures() {
    std::vector<DemoTexture> out;
    out.push_back(draw("brick", brick));
    out.push_back(draw("panel", panel));
    out.push_back(draw("floor", floorTile));
    out.push_back(draw("ceiling", ceiling));
    out.push_back(draw("stone", stone));
    out.push_back(draw("trim", trim));
    return out;
}

std::string demoMaterialName(std::string_view short_name) {
    std::string s(kDemoMaterialPrefix);
    s += short_name;
    return s;
}

std::vector<uint8_t> encodeTga(const DemoTexture& texture) {
    std::vector<uint8_t> out;
    auto append = [](void* context, void* data, int size) {
        auto* v = static_cast<std::vector<uint8_t>*>(context);
        const auto* b = static_cast<const uint8_t*>(data);
        v->insert(v->end(), b, b + size);
    };
    stbi_write_tga_to_func(append, &out, texture.width, texture.height, 3, texture.rgb.data());
    return out;
}

} // namespace mapgen
