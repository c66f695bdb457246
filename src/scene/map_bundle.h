// Everything the viewer needs from one map file, built without GL: the parsed map, its
// texture search paths, decoded textures and the GPU-ready mesh. Built on a worker thread
// and handed to the render thread whole.
#pragma once

#include "bsp/map.h"
#include "content/shader_library.h"
#include "content/textures.h"
#include "content/vfs.h"
#include "core/result.h"
#include "scene/world_mesh.h"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace scene {

struct LoadSettings {
    std::vector<std::filesystem::path> base_dirs; // --base folders, searched after the map's own
    int patch_level = 4;
};

struct LoadTimings {
    double read_s = 0, parse_s = 0, textures_s = 0, mesh_s = 0;
};

struct MapBundle {
    std::string spec; // what was asked for: a path or ARCHIVE.pk3:member
    bsp::Map map;
    std::vector<bsp::SpawnPoint> spawns;
    std::unique_ptr<content::FileSystem> fs;
    content::ShaderLibrary shaders;             // Quake 3 shader scripts found in the search paths
    std::vector<content::TextureInfo> textures; // parallel to map.materials
    WorldMesh mesh;
    LoadTimings timings;
    std::vector<std::string> missing_textures;
};

// Reads, parses and validates the map, sets up its search paths (the map's game folder found
// by walking up from the file, then --base folders), decodes textures (missing ones become
// checkers) and builds the mesh. Errors name the file, lump and record.
core::Result<std::unique_ptr<MapBundle>> loadMapBundle(const std::string& spec,
                                                       const LoadSettings& settings);

// Only the parse step (used by --info, which needs no textures).
core::Result<bsp::Map> loadMapSpec(const std::string& spec);

} // namespace scene
