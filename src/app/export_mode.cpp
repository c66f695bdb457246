#include "app/export_mode.h"

#include "app/headless.h"
#include "core/json.h"
#include "export/export.h"

#include <chrono>
#include <cstdio>

#ifndef BSPV_VERSION
#define BSPV_VERSION "0.0.0"
#endif

namespace app {

extern const char kGitRevision[];

namespace {

void writeExport(core::JsonWriter& j, const exporter::ExportResult& r,
                 const exporter::ExportOptions& o) {
    j.key("export").beginObject();
    j.field("path", r.files.front().string()).field("format", exporter::exportFormatName(r.format));
    j.field("lighting", exporter::exportLightingName(o.lighting)).field("scale", o.scale);
    j.field("all", o.include_hidden);
    j.field("files", static_cast<uint64_t>(r.files.size())).field("bytes", r.bytes);
    j.field("nodes", r.nodes).field("meshes", r.meshes).field("primitives", r.primitives);
    j.field("materials", r.materials).field("images", r.images).field("triangles", r.triangles);
    j.key("bounds").beginObject();
    writeVec3(j, "mins", r.mins);
    writeVec3(j, "maxs", r.maxs);
    j.endObject();
    j.key("seconds").beginObject().field("scene", r.scene_s).field("images", r.images_s);
    j.field("write", r.write_s).endObject();
    j.endObject();
}

void writeTextures(core::JsonWriter& j, const exporter::TextureExportResult& r,
                   const std::string& dir) {
    j.key("textures").beginObject().field("dir", dir).field("textures", r.textures);
    j.field("lightmaps", r.lightmaps).field("bytes", r.bytes);
    j.key("missing").beginArray();
    for (const std::string& name : r.missing)
        j.value(name);
    j.endArray().endObject();
}

double secondsSince(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

} // namespace

std::string exportGenerator() {
    return std::string("bspview ") + BSPV_VERSION + " (" + kGitRevision + ")";
}

int runExport(const Options& options) {
    const auto start = std::chrono::steady_clock::now();
    auto loaded = scene::loadMapBundle(mapSpecOf(options), loadSettingsOf(options));
    if (!loaded)
        return reportError(loaded.error());
    const scene::MapBundle& bundle = **loaded;
    const double load_s = secondsSince(start);

    core::JsonWriter j;
    j.beginObject().field("file", bundle.map.name).field("load_seconds", load_s);
    const auto exported = std::chrono::steady_clock::now();
    if (!options.export_path.empty()) {
        auto r = exporter::exportMap(bundle, options.export_path, options.export_options,
                                     exportGenerator());
        if (!r)
            return reportError(r.error());
        writeExport(j, *r, options.export_options);
    }
    if (!options.export_textures.empty()) {
        auto r = exporter::exportTextures(bundle, options.export_textures);
        if (!r)
            return reportError(r.error());
        writeTextures(j, *r, options.export_textures);
    }
    j.field("export_seconds", secondsSince(exported));
    j.endObject();
    std::fputs(j.str().c_str(), stdout);
    std::fputc('\n', stdout);
    return 0;
}

} // namespace app
