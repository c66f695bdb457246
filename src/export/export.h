// Writing a loaded map to glTF 2.0 (.glb, or .gltf with its .bin and images beside it),
// Wavefront OBJ (.obj + .mtl + images) and its textures to PNG files. GL-free: the geometry is
// exporter::buildExportScene's, the pixels the content layer's decoded textures and the bundle's
// lightmap pages. File layout and conventions: docs/export.md.
#pragma once

#include "core/result.h"
#include "export/export_scene.h"
#include "scene/load/map_bundle.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace exporter {

enum class ExportFormat : uint8_t { Glb, Gltf, Obj };
std::string_view exportFormatName(ExportFormat format); // "glb", "gltf", "obj"

// The format an output path's extension names (case-insensitive .glb, .gltf, .obj).
// Error BadArgument naming the path for any other.
core::Result<ExportFormat> exportFormatOf(const std::filesystem::path& out);

struct ExportResult {
    ExportFormat format = ExportFormat::Glb;
    std::vector<std::filesystem::path> files; // every file written, the main one first
    uint64_t bytes = 0;                       // their total size
    uint64_t nodes = 0, meshes = 0, primitives = 0, materials = 0, images = 0, triangles = 0;
    glm::vec3 mins{0.0f}, maxs{0.0f}; // ExportScene::mins / maxs
    // Seconds spent building the scene, encoding PNGs and writing (serialising) the files.
    double scene_s = 0, images_s = 0, write_s = 0;
};

// Builds the export scene and writes it to `out` in the format its extension names. Images
// go beside it: .gltf into OUT_images/ (and OUT.bin), .obj into OUT_textures/ (OUT.mtl);
// .glb embeds them. Folders are created as needed; existing files are replaced.
// `generator` is glTF's asset.generator ("bspview 1.2.0"). Errors: BadArgument (extension),
// FileWrite (naming the file that could not be written).
core::Result<ExportResult> exportMap(const MapBundle& bundle, const std::filesystem::path& out,
                                     const ExportOptions& options, std::string_view generator);

// The writers exportMap dispatches to, for a scene built from `bundle`.
core::Result<ExportResult> writeGltf(const MapBundle& bundle, const ExportScene& scene,
                                     const std::filesystem::path& out, bool binary,
                                     std::string_view generator);
core::Result<ExportResult> writeObj(const MapBundle& bundle, const ExportScene& scene,
                                    const std::filesystem::path& out);

struct TextureExportResult {
    uint64_t textures = 0; // PNGs of map materials written
    uint64_t lightmaps = 0;
    std::vector<std::string> missing; // material names whose textures were not found
    std::vector<std::filesystem::path> files;
    uint64_t bytes = 0;
};

// Every texture the map's materials use, one PNG per distinct material name (unnamed ones
// skipped), decoded as the viewer decodes it (embedded miptex, WAD, WAL, pk3 images), as
// DIR/<name>.png; the lightmap pages as DIR/lightmaps/page_NNN.png; and DIR/missing.txt
// listing, one per line, the material names whose textures were not found (those are not
// written). Sky and tool materials are included: this is the map's texture set, not what an
// export draws. Errors: FileWrite.
core::Result<TextureExportResult> exportTextures(const MapBundle& bundle,
                                                 const std::filesystem::path& dir);

// Files a texture may be written as, unique within one export: textureFileStem(name) with
// "~2", "~3", ... appended when two names map to the same stem. Parallel to `names`.
std::vector<std::string> uniqueTextureStems(const std::vector<std::string>& names);

// Shared by the writers: error FileWrite naming `path`; the size of a written file (0 when it
// cannot be read back).
core::Error writeError(const std::filesystem::path& path, std::string detail);
uint64_t fileSize(const std::filesystem::path& path);

} // namespace exporter
