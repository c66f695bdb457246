#include "scene/world/lightmap_set.h"

#include "content/image/image.h"
#include "content/material/textures.h"
#include "content/vfs/vfs.h"
#include "core/parallel.h"

#include <algorithm>
#include <cstdio>
#include <optional>

namespace scene {

namespace {

// DarkPlaces model_brush.c Mod_Q3BSP_LoadLightmaps: the worldspawn key, else an even number of
// pages with every lit face on an even page whose partner exists, unless only page 0 is used
// and page 1 is all black.
bool isDeluxe(const bsp::Map& map, const std::vector<bsp::LightmapPage>& numbered) {
    switch (map.deluxe_maps) {
    case bsp::DeluxeMaps::None:
        return false;
    case bsp::DeluxeMaps::ModelSpace:
    case bsp::DeluxeMaps::TangentSpace:
        return true;
    case bsp::DeluxeMaps::Auto:
        break;
    }
    const size_t count = numbered.size();
    if (count == 0 || count % 2 != 0)
        return false;
    int64_t end = 0;
    for (const bsp::Face& f : map.faces) {
        const int32_t n = f.lightmap_page;
        if (n < 0)
            continue;
        end = std::max<int64_t>(end, int64_t{n} + 1);
        if ((n & 1) != 0 || static_cast<size_t>(n) + 1 >= count)
            return false;
    }
    if (end == 1) {
        const std::vector<uint8_t>& second = numbered[1].rgb;
        return std::any_of(second.begin(), second.end(), [](uint8_t v) { return v != 0; });
    }
    return true;
}

// Numbered pages (as faces name them) into light pages and direction pages.
LightmapSet split(const bsp::Map& map, std::vector<bsp::LightmapPage> numbered, int32_t width,
                  int32_t height) {
    LightmapSet set;
    set.width = width;
    set.height = height;
    set.page_of.assign(numbered.size(), -1);
    if (!isDeluxe(map, numbered)) {
        for (size_t n = 0; n < numbered.size(); ++n)
            set.page_of[n] = static_cast<int32_t>(n);
        set.pages = std::move(numbered);
        return set;
    }
    set.deluxe_tangent_space = map.deluxe_maps == bsp::DeluxeMaps::TangentSpace;
    const size_t pairs = numbered.size() / 2; // an unpaired last page is left out
    for (size_t k = 0; k < pairs; ++k) {
        set.pages.push_back(std::move(numbered[2 * k]));
        set.deluxe.push_back(std::move(numbered[2 * k + 1]));
        set.page_of[2 * k] = set.page_of[2 * k + 1] = static_cast<int32_t>(k);
    }
    return set;
}

std::string lightmapName(std::string_view base, int32_t number) {
    char digits[16];
    std::snprintf(digits, sizeof digits, "/lm_%04d", static_cast<int>(number));
    return std::string(base) + digits;
}

// The first of the image file names tried for `name` that the file system has.
std::optional<std::string> findImage(const content::FileSystem& fs, std::string_view name) {
    for (const std::string& candidate : content::imageCandidates(name))
        if (fs.exists(candidate))
            return candidate;
    return std::nullopt;
}

std::vector<uint8_t> rgbOf(const content::Image& image) {
    std::vector<uint8_t> rgb(image.rgba.size() / 4 * 3);
    for (size_t i = 0, o = 0; i + 3 < image.rgba.size(); i += 4, o += 3) {
        rgb[o] = image.rgba[i];
        rgb[o + 1] = image.rgba[i + 1];
        rgb[o + 2] = image.rgba[i + 2];
    }
    return rgb;
}

} // namespace

int64_t facesWithoutPages(const bsp::Map& map, const LightmapSet& set) {
    int64_t n = 0;
    for (const bsp::Face& f : map.faces)
        if (f.lightmap_page >= 0 && set.pageOf(f.lightmap_page) < 0)
            ++n;
    return n;
}

std::string describeLightmaps(const LightmapSet& set) {
    if (set.pages.empty())
        return "none";
    std::string text = std::to_string(set.pages.size()) + " pages of " + std::to_string(set.width) +
                       "x" + std::to_string(set.height);
    if (set.storage == bsp::LightmapStorage::External && !set.files.empty()) {
        const std::string& first = set.files.front();
        const size_t slash = first.rfind('/');
        text += " from external images (" +
                (slash == std::string::npos ? std::string() : first.substr(0, slash + 1)) +
                "lm_NNNN)";
    }
    if (!set.deluxe.empty())
        text += set.deluxe_tangent_space ? ", deluxe maps (tangent space)"
                                         : ", deluxe maps (model space)";
    return text;
}

LightmapSet lightmapsInMap(const bsp::Map& map) {
    if (!map.deluxe_pages.empty() && map.deluxe_pages.size() == map.lightmap_pages.size()) {
        // Directions page for page beside the light (Quake 1 BSPX LIGHTINGDIR or .lux).
        LightmapSet set;
        set.width = map.lightmap_width;
        set.height = map.lightmap_height;
        set.pages = map.lightmap_pages;
        set.deluxe = map.deluxe_pages;
        set.deluxe_tangent_space = true;
        for (size_t n = 0; n < set.pages.size(); ++n)
            set.page_of.push_back(static_cast<int32_t>(n));
        return set;
    }
    std::vector<bsp::LightmapPage> numbered;
    if (map.lightmap_width > 0 && map.lightmap_height > 0)
        numbered = map.lightmap_pages;
    return split(map, std::move(numbered), map.lightmap_width, map.lightmap_height);
}

LightmapSet loadLightmapSet(const bsp::Map& map, const content::FileSystem& fs,
                            std::string_view base, std::vector<std::string>* warnings) {
    if (map.lightmap_storage != bsp::LightmapStorage::External)
        return lightmapsInMap(map);

    // The files there are, in number order up to the first gap (DarkPlaces reads until a
    // load fails), decoded on worker threads.
    std::vector<std::string> files;
    std::string first_missing;
    for (int32_t n = 0; n < kMaxExternalLightmaps; ++n) {
        const std::string name = lightmapName(base, n);
        std::optional<std::string> file = findImage(fs, name);
        if (!file) {
            first_missing = name;
            break;
        }
        files.push_back(std::move(*file));
    }
    std::vector<core::Result<content::Image>> images(files.size(), content::Image{});
    core::parallelFor(files.size(), [&](size_t i) {
        auto bytes = fs.readChecked(files[i]);
        images[i] = bytes ? content::decodeImage(*bytes, files[i])
                          : core::Result<content::Image>(bytes.error());
    });

    // Pages until the first image that does not decode or differs in size from lm_0000.
    std::string stop; // why the list ended before the files did
    std::vector<bsp::LightmapPage> numbered;
    int32_t width = 0, height = 0;
    for (size_t i = 0; i < files.size() && stop.empty(); ++i) {
        if (!images[i]) {
            stop = images[i].error().message();
            break;
        }
        const content::Image& image = *images[i];
        if (i == 0) {
            width = image.width;
            height = image.height;
        } else if (image.width != width || image.height != height) {
            stop = files[i] + ": " + std::to_string(image.width) + "x" +
                   std::to_string(image.height) + ", but " + files[0] + " is " +
                   std::to_string(width) + "x" + std::to_string(height);
            break;
        }
        numbered.push_back({rgbOf(image)});
    }
    files.resize(numbered.size());

    LightmapSet set = split(map, std::move(numbered), width, height);
    set.storage = bsp::LightmapStorage::External;
    set.files = std::move(files);
    const int64_t unlit = facesWithoutPages(map, set);
    if (warnings && (!stop.empty() || unlit > 0)) {
        const std::string why = !stop.empty() ? stop + " (it and later lightmaps are not used)"
                                              : first_missing + ": not found";
        warnings->push_back("external lightmaps: " + why + "; " + std::to_string(unlit) +
                            " face(s) fall back to vertex colours");
    }
    return set;
}

} // namespace scene
