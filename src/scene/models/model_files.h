// The model files a map's entities show, each loaded once per choice through the content
// registry (content::loadModelAsset) into the set's LoadedModels: one per part of the file (an
// .md3's surfaces), a brush model file built into a drawable world of its own
// (scene/load/brush_model.h). GL-free.
#pragma once

#include "bsp/map.h"
#include "content/model/model_asset.h"
#include "content/vfs/vfs.h"
#include "game/profile.h"
#include "scene/models/model_set.h"

#include <glm/vec3.hpp>

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace scene {

// The LoadedModels a request stands for: one, or one per surface of an .md3.
struct PathModels {
    uint32_t first = 0; // into the set's models
    uint32_t count = 0;
    glm::vec3 midpoint{0.0f};   // content::ModelAsset::midpoint
    std::vector<bool> additive; // per model
};

class ModelFiles {
public:
    // Loaded models are appended to `models`. `shaders` give Quake 3 surfaces their images;
    // `unlit` is the map's rule for faces without light data, which its brush models follow.
    ModelFiles(const content::FileSystem& fs, const content::ShaderLibrary* shaders,
               game::UnlitFaces unlit, std::vector<LoadedModel>& models);

    // The models of `path` as `request` asks for them (its shaders are this set's), loaded the
    // first time: a request giving an asset already loaded (the same key: a studio model whose
    // entities' keys choose the same body, sequence and controllers) shares its models, and
    // every file is read and parsed once (content::ModelCache). A file that cannot be read or
    // decoded is one model with the reason ("not found" when no search path holds it).
    const PathModels& get(std::string_view path, content::ModelRequest request = {});

    // Decodes the files of `requests` on the worker threads (core::parallelFor) ahead of get(),
    // which then takes each request's asset from here rather than decoding it: the models, their
    // order and their warnings are what get() alone gives. Only the first request of each path
    // is decoded ahead (the others share its file through the cache in get(), as before); a
    // request get() never asks for is dropped with the set.
    void prefetch(std::span<const std::pair<std::string_view, content::ModelRequest>> requests);

private:
    PathModels add(std::string_view path, core::Result<content::ModelAsset> asset);

    const content::FileSystem& m_fs;
    const content::ShaderLibrary* m_shaders;
    game::UnlitFaces m_unlit;
    std::vector<LoadedModel>& m_models;
    content::ModelCache m_cache; // files read and parsed once, keys already made
    std::map<std::string, PathModels, std::less<>> m_by_request;
    std::map<std::string, PathModels, std::less<>> m_by_key;
    std::map<std::string, core::Result<content::ModelAsset>, std::less<>>
        m_prefetched; // by request
};

} // namespace scene
