#include "content/skybox.h"

#include "content/pcx.h"

#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include <charconv>
#include <cmath>

namespace content {

namespace {

// One face: .tga, .pcx, .jpg, .png, the first that exists and decodes.
std::optional<Image> loadFace(const FileSystem& fs, const std::string& stem, std::string& source) {
    for (std::string_view ext : {".tga", ".pcx", ".jpg", ".png"}) {
        const std::string name = stem + std::string(ext);
        if (!fs.exists(name))
            continue;
        auto bytes = fs.read(name);
        if (!bytes)
            continue;
        if (ext == ".pcx") {
            auto pcx = decodePcx(*bytes);
            if (!pcx)
                continue;
            auto rgba = pcxToRgba(*pcx);
            if (!rgba)
                continue;
            source = name;
            return Image{rgba->width, rgba->height, std::move(rgba->rgba), {}};
        }
        auto image = decodeImage(*bytes, name);
        if (!image)
            continue;
        source = name;
        return std::move(*image);
    }
    return std::nullopt;
}

// Leading float of `s` after spaces; nullopt when there is none or it is not finite.
std::optional<float> takeFloat(std::string_view& s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    float v = 0.0f;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || !std::isfinite(v))
        return std::nullopt;
    s.remove_prefix(static_cast<size_t>(end - s.data()));
    return v;
}

} // namespace

glm::mat3 SkyRotation::orientation(double seconds) const {
    if (!rotating())
        return glm::mat3(1.0f);
    const double degrees = std::fmod(seconds * double(degrees_per_second), 360.0);
    return glm::mat3(glm::rotate(glm::mat4(1.0f), glm::radians(float(degrees)), axis));
}

SkyRotation parseSkyRotation(std::string_view skyrotate, std::string_view skyaxis) {
    SkyRotation r;
    if (auto rate = takeFloat(skyrotate))
        r.degrees_per_second = *rate;
    glm::vec3 axis(0.0f);
    bool have_axis = true;
    for (int i = 0; i < 3 && have_axis; ++i) {
        auto c = takeFloat(skyaxis);
        have_axis = c.has_value();
        if (c)
            axis[i] = *c;
    }
    const float len = glm::length(axis);
    if (have_axis && len > 1e-6f && std::isfinite(len))
        r.axis = axis / len;
    return r;
}

std::optional<SkyBox> loadSkyBox(const FileSystem& fs, std::string_view base) {
    if (base.empty())
        return std::nullopt;
    SkyBox sky;
    sky.base = std::string(base);
    for (size_t i = 0; i < kSkyFaceSuffixes.size(); ++i) {
        auto face = loadFace(fs, sky.base + std::string(kSkyFaceSuffixes[i]), sky.sources[i]);
        if (!face)
            return std::nullopt;
        sky.faces[i] = std::move(*face);
    }
    return sky;
}

} // namespace content
