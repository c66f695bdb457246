#include "content/skybox.h"

#include "content/pcx.h"

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
            return Image{rgba->width, rgba->height, std::move(rgba->rgba)};
        }
        auto image = decodeImage(*bytes, name);
        if (!image)
            continue;
        source = name;
        return std::move(*image);
    }
    return std::nullopt;
}

} // namespace

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
