#include "content/textures.h"

#include "core/file.h"

#include <algorithm>
#include <array>
#include <future>
#include <system_error>
#include <thread>

namespace content {

namespace {

// ioquake3 imageLoaders[] order. PCX sits between png and bmp there; it joins this table when
// content/pcx exists (stb_image cannot read PCX).
constexpr std::array<std::string_view, 5> kImageExtensions = {"tga", "jpg", "jpeg", "png", "bmp"};

constexpr int kMaxThreads = 8;

// Extension of the last path component without the dot, lower case; empty when none.
std::string extensionOf(std::string_view name) {
    const size_t slash = name.find_last_of("/\\");
    const size_t dot = name.find_last_of('.');
    if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash))
        return {};
    return core::toLower(name.substr(dot + 1));
}

} // namespace

std::vector<std::string> imageCandidates(std::string_view material_name) {
    std::string name(material_name);
    std::replace(name.begin(), name.end(), '\\', '/');
    std::vector<std::string> out;
    if (name.empty())
        return out;
    const std::string ext = extensionOf(name);
    std::string base = name;
    std::string_view skip;
    for (std::string_view known : kImageExtensions)
        if (ext == known) {
            out.push_back(name);
            base = name.substr(0, name.size() - ext.size() - 1);
            skip = known;
            break;
        }
    for (std::string_view known : kImageExtensions)
        if (known != skip)
            out.push_back(base + "." + std::string(known));
    return out;
}

std::optional<TextureInfo> loadPalettedTexture(const bsp::Material& material, const bsp::Map& map,
                                               const FileSystem& fs) {
    // Plug-in point (see textures.h): miptex when material.embedded >= 0, WAD3 lookups by
    // map.wad_files for Half-Life, textures/<name>.wal for Quake 2.
    (void)material;
    (void)map;
    (void)fs;
    return std::nullopt;
}

namespace {

// The first of imageCandidates(name) that exists and decodes, into `info`.
bool loadFirstCandidate(std::string_view name, const FileSystem& fs, TextureInfo& info) {
    for (const std::string& candidate : imageCandidates(name)) {
        if (!fs.exists(candidate))
            continue;
        auto bytes = fs.readChecked(candidate);
        if (!bytes) {
            info.error = bytes.error().message();
            continue;
        }
        auto image = decodeImage(*bytes, candidate);
        if (!image) {
            info.error = image.error().message();
            continue;
        }
        info.image = std::move(*image);
        info.source = candidate;
        info.origin = fs.sourceOf(candidate);
        info.missing = false;
        return true;
    }
    return false;
}

} // namespace

TextureInfo loadMaterialTexture(const bsp::Material& material, const bsp::Map& map,
                                const FileSystem& fs) {
    return loadMaterialTexture(material, map, fs, nullptr);
}

TextureInfo loadMaterialTexture(const bsp::Material& material, const bsp::Map& map,
                                const FileSystem& fs, const ShaderLibrary* shaders) {
    if (auto paletted = loadPalettedTexture(material, map, fs))
        return std::move(*paletted);
    TextureInfo info;
    if (const ShaderDef* def = shaders ? shaders->find(material.name) : nullptr) {
        info.shader_file = def->file;
        info.shader_image = primaryImage(*def);
        if (!info.shader_image.empty() && loadFirstCandidate(info.shader_image, fs, info))
            return info;
    }
    if (loadFirstCandidate(material.name, fs, info))
        return info;
    info.image = makeChecker();
    info.missing = true;
    return info;
}

namespace {

std::vector<TextureInfo> loadAll(const bsp::Map& map, const FileSystem& fs,
                                 const ShaderLibrary* shaders, int threads) {
    const size_t count = map.materials.size();
    std::vector<TextureInfo> out(count);
    if (threads <= 0)
        threads = static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u,
                                              static_cast<unsigned>(kMaxThreads)));
    const size_t workers = std::min<size_t>(static_cast<size_t>(threads), count);
    if (workers <= 1) {
        for (size_t i = 0; i < count; ++i)
            out[i] = loadMaterialTexture(map.materials[i], map, fs, shaders);
        return out;
    }
    // Contiguous chunks, each written to its own slots: the result is independent of timing.
    const size_t chunk = (count + workers - 1) / workers;
    std::vector<std::future<void>> jobs;
    for (size_t begin = 0; begin < count; begin += chunk) {
        const size_t end = std::min(count, begin + chunk);
        auto work = [&out, &map, &fs, shaders, begin, end] {
            for (size_t i = begin; i < end; ++i)
                out[i] = loadMaterialTexture(map.materials[i], map, fs, shaders);
        };
        try {
            jobs.push_back(std::async(std::launch::async, work));
        } catch (const std::system_error&) {
            work(); // no thread available: do this chunk here
        }
    }
    for (auto& job : jobs)
        job.get();
    return out;
}

} // namespace

std::vector<TextureInfo> loadMaterialTextures(const bsp::Map& map, const FileSystem& fs,
                                              int threads) {
    return loadAll(map, fs, nullptr, threads);
}

std::vector<TextureInfo> loadMaterialTextures(const bsp::Map& map, const FileSystem& fs,
                                              const ShaderLibrary& shaders, int threads) {
    return loadAll(map, fs, &shaders, threads);
}

} // namespace content
