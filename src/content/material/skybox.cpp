#include "content/material/skybox.h"

#include "content/image/pcx.h"
#include "content/image/vtf.h"
#include "content/material/textures.h"
#include "content/material/vmt.h"
#include "core/parallel.h"

#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

namespace content {

namespace {

// One face: .tga, .pcx, .jpg, .png, the first that exists and decodes.
constexpr std::string_view kFaceExtensions[] = {".tga", ".pcx", ".jpg", ".png"};

std::optional<Image> loadFace(const FileSystem& fs, const std::string& stem, std::string& source) {
    for (std::string_view ext : kFaceExtensions) {
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

// The face `stem` as `decoded` holds it (any of loadFace's extensions), moved out of it.
std::optional<Image> takeDecodedFace(DecodedImages& decoded, const std::string& stem,
                                     std::string& source) {
    for (std::string_view ext : kFaceExtensions) {
        const std::string name = stem + std::string(ext);
        if (auto it = decoded.find(name); it != decoded.end() && it->second.valid()) {
            source = name;
            return std::move(decoded.extract(it).mapped());
        }
    }
    return std::nullopt;
}

// $hdrcompressedtexture texels to what the LDR screen shows (decodeRgbsTexel); a fresh image,
// so no compressed blocks describe other texels.
Image decodeRgbsImage(const Image& rgbs) {
    Image out;
    out.width = rgbs.width;
    out.height = rgbs.height;
    out.rgba.resize(rgbs.rgba.size());
    for (size_t i = 0; i + 3 < rgbs.rgba.size(); i += 4) {
        const auto c =
            decodeRgbsTexel({rgbs.rgba[i], rgbs.rgba[i + 1], rgbs.rgba[i + 2], rgbs.rgba[i + 3]});
        std::copy(c.begin(), c.end(), out.rgba.begin() + static_cast<std::ptrdiff_t>(i));
    }
    return out;
}

// One Source face: materials/<stem>.vmt -> the texture the Sky shader draws without HDR.
std::optional<Image> loadValveFace(const FileSystem& fs, const std::string& stem,
                                   std::string& source, std::string& why) {
    const std::string vmt_path = vmtPathOf(stem);
    if (!fs.exists(vmt_path)) {
        why = vmt_path + ": not found";
        return std::nullopt;
    }
    auto vmt = readVmt(fs, vmt_path);
    if (!vmt) {
        why = vmt.error().message();
        return std::nullopt;
    }
    const bool rgbs = vmt->base_texture.empty() && vmt->hdr_base_texture.empty();
    const std::string& texture = !vmt->base_texture.empty()       ? vmt->base_texture
                                 : !vmt->hdr_base_texture.empty() ? vmt->hdr_base_texture
                                                                  : vmt->hdr_compressed_texture;
    if (texture.empty()) {
        why = vmt_path + ": no $basetexture, $hdrbasetexture or $hdrcompressedtexture";
        return std::nullopt;
    }
    const std::string vtf_path = vtfPathOf(texture);
    auto image = readVtf(fs, vtf_path);
    if (!image) {
        why = image.error().code == core::ErrorCode::NotFound
                  ? vtf_path + ": not found (" + vmt_path + ")"
                  : image.error().message();
        return std::nullopt;
    }
    source = vtf_path;
    if (rgbs)
        return decodeRgbsImage(*image);
    return std::move(*image);
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

std::array<uint8_t, 4> decodeRgbsTexel(std::array<uint8_t, 4> rgbs) {
    std::array<uint8_t, 4> out{0, 0, 0, 255};
    const double scale = 8.0 * rgbs[3] / 255.0;
    for (size_t c = 0; c < 3; ++c) {
        const double linear = std::min(1.0, rgbs[c] / 255.0 * scale);
        const double encoded =
            linear <= 0.0031308 ? 12.92 * linear : 1.055 * std::pow(linear, 1.0 / 2.4) - 0.055;
        out[c] = static_cast<uint8_t>(std::lround(std::clamp(encoded, 0.0, 1.0) * 255.0));
    }
    return out;
}

std::optional<SkyBox> fallbackSkyBox(std::string base, int32_t size,
                                     const std::vector<uint8_t>& texels) {
    if (size <= 0 || size > 4096 ||
        texels.size() != static_cast<size_t>(size) * static_cast<size_t>(size) * 4)
        return std::nullopt;
    SkyBox box;
    box.base = std::move(base);
    for (size_t i = 0; i < box.faces.size(); ++i) {
        box.faces[i] = Image{size, size, texels, {}};
        box.sources[i] = box.base;
    }
    box.repeat = true;
    return box;
}

std::optional<SkyBox> loadSkyBox(const FileSystem& fs, std::string_view base,
                                 game::MaterialFiles files, std::string* why,
                                 DecodedImages* decoded) {
    if (base.empty())
        return std::nullopt;
    SkyBox sky;
    sky.base = std::string(base);
    // Faces `decoded` holds are moved out of it first (one thread: it is a map); the others
    // decode on the worker threads, each into its own slot. The first face in order that fails
    // gives the reason, as a serial walk would.
    std::array<std::optional<Image>, kSkyFaceSuffixes.size()> faces;
    std::array<std::string, kSkyFaceSuffixes.size()> reasons;
    const bool images = files != game::MaterialFiles::ValveMaterials;
    if (images && decoded)
        for (size_t i = 0; i < faces.size(); ++i)
            faces[i] = takeDecodedFace(*decoded, sky.base + std::string(kSkyFaceSuffixes[i]),
                                       sky.sources[i]);
    core::parallelFor(faces.size(), [&](size_t i) {
        if (faces[i])
            return;
        const std::string stem = sky.base + std::string(kSkyFaceSuffixes[i]);
        faces[i] = images ? loadFace(fs, stem, sky.sources[i])
                          : loadValveFace(fs, stem, sky.sources[i], reasons[i]);
        if (!faces[i] && reasons[i].empty())
            reasons[i] = stem + ": no .tga, .pcx, .jpg or .png decodes";
    });
    for (size_t i = 0; i < faces.size(); ++i) {
        if (!faces[i]) {
            if (why)
                *why = reasons[i];
            return std::nullopt;
        }
        sky.faces[i] = std::move(*faces[i]);
    }
    return sky;
}

} // namespace content
