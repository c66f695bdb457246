// Image decoding through stb_image (nothings/stb, stb_image.h v2.27 as packaged by Debian's
// libstb-dev). libstb.so already holds the implementations of stb_image and stb_image_write,
// so the headers are included for declarations only (no STB_IMAGE_IMPLEMENTATION here).
#include "content/image.h"

#include <stb_image.h>
#include <stb_image_write.h>

#include <algorithm>
#include <climits>
#include <memory>
#include <string>

namespace content {

namespace {

core::Error imageError(core::ErrorCode code, std::string_view name, std::string detail) {
    core::Error e = core::makeError(code, {}, -1, {}, std::move(detail));
    e.file = std::string(name);
    return e;
}

std::string stbReason() {
    const char* why = stbi_failure_reason();
    return why ? why : "unknown reason";
}

} // namespace

core::Result<Image> decodeImage(std::span<const uint8_t> data, std::string_view name) {
    if (data.empty())
        return imageError(core::ErrorCode::BadImage, name, "empty file");
    if (data.size() > static_cast<size_t>(INT_MAX))
        return imageError(core::ErrorCode::LimitExceeded, name,
                          "file of " + std::to_string(data.size()) + " bytes is too large");
    const int len = static_cast<int>(data.size());
    int w = 0, h = 0, comp = 0;
    if (!stbi_info_from_memory(data.data(), len, &w, &h, &comp))
        return imageError(core::ErrorCode::BadImage, name,
                          "unrecognised or corrupt image header (" + stbReason() + ")");
    if (w <= 0 || h <= 0 || w > kMaxImageDimension || h > kMaxImageDimension)
        return imageError(core::ErrorCode::LimitExceeded, name,
                          "dimensions " + std::to_string(w) + "x" + std::to_string(h) +
                              " outside 1.." + std::to_string(kMaxImageDimension));
    int dw = 0, dh = 0, dcomp = 0;
    std::unique_ptr<stbi_uc, void (*)(void*)> pixels(
        stbi_load_from_memory(data.data(), len, &dw, &dh, &dcomp, 4), stbi_image_free);
    if (!pixels)
        return imageError(core::ErrorCode::BadImage, name, "cannot decode: " + stbReason());
    // The decoder re-reads the header; trust only what agrees with the checked one.
    if (dw != w || dh != h)
        return imageError(core::ErrorCode::BadImage, name,
                          "header says " + std::to_string(w) + "x" + std::to_string(h) +
                              ", decoder produced " + std::to_string(dw) + "x" +
                              std::to_string(dh));
    Image img;
    img.width = w;
    img.height = h;
    const size_t bytes = static_cast<size_t>(w) * static_cast<size_t>(h) * 4;
    img.rgba.assign(pixels.get(), pixels.get() + bytes);
    return img;
}

Image makeChecker(int size) {
    size = std::clamp(size, 8, kMaxCheckerSize);
    const int cell = size / 8;
    Image img;
    img.width = size;
    img.height = size;
    img.rgba.resize(static_cast<size_t>(size) * static_cast<size_t>(size) * 4);
    for (int y = 0; y < size; ++y)
        for (int x = 0; x < size; ++x) {
            const bool magenta = ((x / cell) + (y / cell)) % 2 == 0;
            uint8_t* p = &img.rgba[(static_cast<size_t>(y) * static_cast<size_t>(size) +
                                    static_cast<size_t>(x)) *
                                   4];
            p[0] = magenta ? 255 : 0;
            p[1] = 0;
            p[2] = magenta ? 255 : 0;
            p[3] = 255;
        }
    return img;
}

bool writePng(const std::filesystem::path& path, const Image& image) {
    if (!image.valid())
        return false;
    return stbi_write_png(path.string().c_str(), image.width, image.height, 4, image.rgba.data(),
                          image.width * 4) != 0;
}

} // namespace content
