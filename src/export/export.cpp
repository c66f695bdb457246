// exportMap's dispatch and the texture export (--export-textures).
#include "export/export.h"

#include "content/image/image.h"
#include "core/parallel.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <system_error>

namespace exporter {

namespace {

content::Image pageImage(const LightmapSet& set, size_t page) {
    content::Image img;
    img.width = set.width;
    img.height = set.height;
    const std::vector<uint8_t>& rgb = set.pages[page].rgb;
    img.rgba.resize(rgb.size() / 3 * 4);
    for (size_t t = 0; t < rgb.size() / 3; ++t) {
        std::memcpy(&img.rgba[t * 4], &rgb[t * 3], 3);
        img.rgba[t * 4 + 3] = 255;
    }
    return img;
}

} // namespace

core::Error writeError(const std::filesystem::path& path, std::string detail) {
    core::Error e = core::makeError(core::ErrorCode::FileWrite, {}, -1, {}, std::move(detail));
    e.file = path.string();
    return e;
}

uint64_t fileSize(const std::filesystem::path& path) {
    std::error_code ec;
    const auto n = std::filesystem::file_size(path, ec);
    return ec ? 0 : static_cast<uint64_t>(n);
}

std::string_view exportFormatName(ExportFormat format) {
    switch (format) {
    case ExportFormat::Glb:
        return "glb";
    case ExportFormat::Gltf:
        return "gltf";
    case ExportFormat::Obj:
        return "obj";
    }
    return "?";
}

core::Result<ExportFormat> exportFormatOf(const std::filesystem::path& out) {
    std::string ext = out.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (ext == ".glb")
        return ExportFormat::Glb;
    if (ext == ".gltf")
        return ExportFormat::Gltf;
    if (ext == ".obj")
        return ExportFormat::Obj;
    return core::makeError(core::ErrorCode::BadArgument, {}, -1, {},
                           "--export: '" + out.string() + "' does not end in .glb, .gltf or .obj");
}

std::vector<std::string> uniqueTextureStems(const std::vector<std::string>& names) {
    std::vector<std::string> stems;
    std::set<std::string> used;
    for (const std::string& name : names) {
        const std::string stem = textureFileStem(name);
        std::string s = stem;
        for (int n = 2; !used.insert(s).second; ++n)
            s = stem + "~" + std::to_string(n);
        stems.push_back(std::move(s));
    }
    return stems;
}

core::Result<ExportResult> exportMap(const MapBundle& bundle, const std::filesystem::path& out,
                                     const ExportOptions& options, std::string_view generator) {
    auto format = exportFormatOf(out);
    if (!format)
        return format.error();
    ExportOptions opts = options;
    // OBJ has one uv set: lighting can only travel as vertex colours.
    if (*format == ExportFormat::Obj && opts.lighting == ExportLighting::Lightmap)
        opts.lighting = ExportLighting::Baked;
    const auto start = std::chrono::steady_clock::now();
    const ExportScene scene = buildExportScene(bundle, opts);
    const double scene_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    auto r = *format == ExportFormat::Obj
                 ? writeObj(bundle, scene, out)
                 : writeGltf(bundle, scene, out, *format == ExportFormat::Glb, generator);
    if (r)
        r->scene_s = scene_s;
    return r;
}

core::Result<TextureExportResult> exportTextures(const MapBundle& bundle,
                                                 const std::filesystem::path& dir) {
    TextureExportResult r;
    const bsp::Map& map = bundle.map;
    // One file per distinct material name (Quake 2 repeats a texture over many texinfos).
    std::vector<std::string> names;
    std::vector<size_t> first_of;
    std::set<std::string> seen;
    std::set<std::string> missing;
    for (size_t i = 0; i < map.materials.size() && i < bundle.textures.size(); ++i) {
        const std::string& name = map.materials[i].name;
        // Unnamed materials (unused Quake 1 miptex slots) have no texture to look for.
        if (name.empty() || !seen.insert(name).second)
            continue;
        if (bundle.textures[i].missing || !bundle.textures[i].image.valid()) {
            missing.insert(name);
            continue;
        }
        names.push_back(name);
        first_of.push_back(i);
    }
    const std::vector<std::string> stems = uniqueTextureStems(names);

    struct Job {
        std::filesystem::path path;
        const content::Image* image = nullptr;
        content::Image owned;
        int channels = 4;
        std::vector<uint8_t> png;
    };
    std::vector<Job> jobs(names.size() + bundle.lightmaps.pages.size());
    for (size_t k = 0; k < names.size(); ++k) {
        jobs[k].path = dir / (stems[k] + ".png");
        jobs[k].image = &bundle.textures[first_of[k]].image;
    }
    for (size_t p = 0; p < bundle.lightmaps.pages.size(); ++p) {
        char name[32];
        std::snprintf(name, sizeof(name), "page_%03zu.png", p);
        Job& j = jobs[names.size() + p];
        j.path = dir / "lightmaps" / name;
        j.owned = pageImage(bundle.lightmaps, p);
        j.channels = 3;
    }
    core::parallelFor(jobs.size(), [&](size_t i) {
        jobs[i].png =
            content::encodePng(jobs[i].image ? *jobs[i].image : jobs[i].owned, jobs[i].channels);
    });
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec)
        return writeError(dir, "cannot create the folder: " + ec.message());
    for (const Job& j : jobs) {
        if (j.png.empty())
            return writeError(j.path, "cannot encode the image as PNG");
        std::filesystem::create_directories(j.path.parent_path(), ec);
        std::ofstream f(j.path, std::ios::binary | std::ios::trunc);
        if (!f || !f.write(reinterpret_cast<const char*>(j.png.data()),
                           static_cast<std::streamsize>(j.png.size())))
            return writeError(j.path, "cannot write " + std::to_string(j.png.size()) + " bytes");
        r.files.push_back(j.path);
        r.bytes += j.png.size();
    }
    r.textures = names.size();
    r.lightmaps = bundle.lightmaps.pages.size();
    r.missing.assign(missing.begin(), missing.end());
    const std::filesystem::path list = dir / "missing.txt";
    {
        std::ofstream f(list, std::ios::trunc);
        for (const std::string& name : r.missing)
            f << name << '\n';
        if (!f)
            return writeError(list, "cannot write the list of missing textures");
    }
    r.files.push_back(list);
    r.bytes += fileSize(list);
    return r;
}

} // namespace exporter
