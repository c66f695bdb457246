#include "content/material/texture_transform.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace content {

TextureTransform centredTextureTransform(std::array<float, 2> center, std::array<float, 2> scale,
                                         float degrees, std::array<float, 2> translate) {
    // The rotation times the scale (MatrixBuildRotateZ: [cos -sin; sin cos]); the offset moves
    // the centre back, then by the translation: c + t - L c.
    const double radians = static_cast<double>(degrees) * (3.14159265358979323846 / 180.0);
    const double c = std::cos(radians), s = std::sin(radians);
    const double l00 = c * scale[0], l01 = -s * scale[1], l10 = s * scale[0], l11 = c * scale[1];
    const double cx = center[0], cy = center[1];
    TextureTransform t;
    t.m = {static_cast<float>(l00),
           static_cast<float>(l01),
           static_cast<float>(cx + translate[0] - (l00 * cx + l01 * cy)),
           static_cast<float>(l10),
           static_cast<float>(l11),
           static_cast<float>(cy + translate[1] - (l10 * cx + l11 * cy))};
    return t;
}

namespace {

// Reads `count` finite numbers from `p` into `out`, advancing `p`; false when one is missing.
bool readNumbers(const char*& p, float* out, int count) {
    for (int i = 0; i < count; ++i) {
        char* end = nullptr;
        const double v = std::strtod(p, &end);
        if (end == p || !std::isfinite(v) || std::abs(v) > 1.0e30)
            return false;
        out[i] = static_cast<float>(v);
        p = end;
    }
    return true;
}

// Skips white space, then `word` (ASCII case ignored); false when it is not next.
bool readWord(const char*& p, std::string_view word) {
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
        ++p;
    for (const char w : word) {
        const char c = *p >= 'A' && *p <= 'Z' ? static_cast<char>(*p - 'A' + 'a') : *p;
        if (c != w)
            return false;
        ++p;
    }
    return true;
}

bool onlySpaceLeft(const char* p) {
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
        ++p;
    return *p == '\0';
}

} // namespace

std::optional<TextureTransform> parseTextureTransform(std::string_view text) {
    const std::string s(text); // NUL-terminated for strtod
    const char* p = s.c_str();
    if (readWord(p, "[")) {
        float v[16];
        if (!readNumbers(p, v, 16) || !readWord(p, "]") || !onlySpaceLeft(p))
            return std::nullopt;
        TextureTransform t;
        t.m = {v[0], v[1], v[3], v[4], v[5], v[7]};
        return t;
    }
    p = s.c_str();
    std::array<float, 2> center{}, scale{}, translate{};
    float degrees = 0.0f;
    if (!readWord(p, "center") || !readNumbers(p, center.data(), 2) || !readWord(p, "scale") ||
        !readNumbers(p, scale.data(), 2) || !readWord(p, "rotate") ||
        !readNumbers(p, &degrees, 1) || !readWord(p, "translate") ||
        !readNumbers(p, translate.data(), 2) || !onlySpaceLeft(p))
        return std::nullopt;
    const TextureTransform t = centredTextureTransform(center, scale, degrees, translate);
    for (const float v : t.m)
        if (!std::isfinite(v))
            return std::nullopt; // huge centres times huge scales
    return t;
}

namespace {

// texturescrollmaterialproxy.cpp OnBind: a negative offset is raised by 1 plus its whole part,
// then the whole part is dropped, leaving [0, 1).
double wrapOffset(double x) {
    if (x < 0.0)
        x += 1.0 + std::trunc(-x);
    return x - std::trunc(x);
}

} // namespace

TextureTransform textureScrollAt(const TextureScroll& scroll, double time) {
    const double radians = static_cast<double>(scroll.angle) * (3.14159265358979323846 / 180.0);
    const double s = wrapOffset(time * std::cos(radians) * scroll.rate);
    const double t = wrapOffset(time * std::sin(radians) * scroll.rate);
    TextureTransform out;
    out.m = {scroll.scale, 0.0f, static_cast<float>(s), 0.0f, scroll.scale, static_cast<float>(t)};
    return out;
}

namespace {

// (int)(rate * t) % frames as OnBind computes it, the product bounded so the conversion to an
// integer stays defined.
int64_t frameCount(float rate, double time) {
    const double frame =
        std::clamp(static_cast<double>(rate) * std::max(time, 0.0), -1.0e15, 1.0e15);
    return static_cast<int64_t>(frame); // truncation, as the engine's (int) cast
}

} // namespace

int animatedTextureFrame(const AnimatedTexture& animation, int frames, double time,
                         double frame_time) {
    if (frames < 1 || !std::isfinite(time) || !std::isfinite(frame_time))
        return 0;
    const int64_t frame = frameCount(animation.rate, time) % frames;
    const int64_t previous = frameCount(animation.rate, time - frame_time) % frames;
    int64_t shown = frame;
    if (!animation.wrap && previous > frame)
        shown = frames - 1;
    return shown >= 0 && shown < frames ? static_cast<int>(shown) : 0;
}

} // namespace content
