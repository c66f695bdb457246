#include "scene/models/model_files.h"

#include "scene/load/brush_model.h"

#include "core/parallel.h"

#include <cassert>
#include <memory>
#include <optional>
#include <set>

namespace scene {

namespace {

// Everything in a request that can change what a file gives.
std::string requestKey(std::string_view path, const content::ModelRequest& r) {
    const content::StudioKeys& k = r.studio;
    return std::string(path) + "\n" + std::string(r.skin_key) + "\n" + std::to_string(k.body) +
           " " + std::to_string(k.sequence) + " " + std::to_string(int(k.init_controllers)) + " " +
           std::to_string(k.controller);
}

// Why a file gives nothing to draw: "not found" when no search path holds it (the listing's
// short form), else the message naming the file or record at fault.
std::string whyNot(const core::Error& e, std::string_view path) {
    return e.code == core::ErrorCode::NotFound && e.lump == path ? "not found" : e.message();
}

LoadedModel loadedPart(content::ModelPart& part, content::ModelFormat format) {
    LoadedModel m;
    m.path = std::move(part.name);
    m.mesh = std::move(part.mesh);
    m.sprite = std::move(part.sprite);
    m.error = std::move(part.error);
    m.warnings = std::move(part.warnings);
    m.skin = std::move(part.skin);
    m.studio = format == content::ModelFormat::HalfLifeStudio;
    return m;
}

} // namespace

ModelFiles::ModelFiles(const content::FileSystem& fs, const content::ShaderLibrary* shaders,
                       game::UnlitFaces unlit, std::vector<LoadedModel>& models)
    : m_fs(fs), m_shaders(shaders), m_unlit(unlit), m_models(models) {}

const PathModels& ModelFiles::get(std::string_view path, content::ModelRequest request) {
    const std::string rkey = requestKey(path, request);
    if (auto it = m_by_request.find(rkey); it != m_by_request.end())
        return it->second;
    request.shaders = m_shaders;
    auto asset = [&] {
        if (auto pre = m_prefetched.find(rkey); pre != m_prefetched.end()) {
            auto taken = std::move(pre->second);
            m_prefetched.erase(pre);
            if (taken)
                m_cache.addMade(taken->key); // later requests of that asset decode nothing
            return taken;
        }
        return content::loadModelAsset(m_fs, path, request, &m_cache);
    }();
    const std::string key = asset ? asset->key : std::string(path);
    auto known = m_by_key.find(key);
    if (known == m_by_key.end()) {
        // The cache answers a key it made with no parts: those went to m_by_key then.
        assert(!asset || !asset->parts.empty());
        known = m_by_key.emplace(key, add(path, std::move(asset))).first;
    }
    return m_by_request.emplace(rkey, known->second).first->second;
}

void ModelFiles::prefetch(
    std::span<const std::pair<std::string_view, content::ModelRequest>> requests) {
    std::vector<std::pair<std::string, content::ModelRequest>> jobs; // request key, request
    std::vector<std::string_view> paths;
    std::set<std::string_view> seen;
    for (const auto& [path, request] : requests) {
        if (path.empty() || !seen.insert(path).second)
            continue;
        std::string rkey = requestKey(path, request);
        if (m_by_request.count(rkey) || m_prefetched.count(rkey))
            continue;
        content::ModelRequest r = request;
        r.shaders = m_shaders;
        jobs.emplace_back(std::move(rkey), r);
        paths.push_back(path);
    }
    std::vector<std::optional<core::Result<content::ModelAsset>>> assets(jobs.size());
    // No cache: each job is a different file, and the cache is not for sharing across threads.
    core::parallelFor(jobs.size(), [&](size_t i) {
        assets[i].emplace(content::loadModelAsset(m_fs, paths[i], jobs[i].second));
    });
    for (size_t i = 0; i < jobs.size(); ++i)
        m_prefetched.emplace(std::move(jobs[i].first), std::move(*assets[i]));
}

PathModels ModelFiles::add(std::string_view path, core::Result<content::ModelAsset> asset) {
    PathModels pm;
    pm.first = uint32_t(m_models.size());
    if (!asset) {
        LoadedModel& m = m_models.emplace_back();
        m.path = std::string(path);
        m.error = whyNot(asset.error(), path);
        pm.count = 1;
        pm.additive.push_back(false);
        return pm;
    }
    pm.midpoint = glm::vec3(asset->midpoint[0], asset->midpoint[1], asset->midpoint[2]);
    for (content::ModelPart& part : asset->parts) {
        pm.additive.push_back(part.additive);
        m_models.push_back(loadedPart(part, asset->format));
    }
    if (asset->brush) {
        LoadedModel& m = m_models[pm.first];
        auto brush = buildBrushModel(std::move(*asset->brush), path, m_fs, m_unlit);
        if (brush)
            m.brush = std::make_shared<const BrushModel>(std::move(*brush));
        else
            m.error = brush.error().message();
    }
    pm.count = uint32_t(m_models.size()) - pm.first;
    return pm;
}

} // namespace scene
