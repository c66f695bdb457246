// The Source studio model's loader behind the registry (model_asset.h): the .mdl with its .vvd
// and .vtx (source_model.h), one part whose mesh is the entity's body group choice at LOD 0.
#include "content/model/model_asset.h"
#include "content/model/source_model.h"

#include <string>
#include <vector>

namespace content {

namespace {

// "path" for the first model of every body part, else "path#body 1.0.2" (the model each part
// shows), so entities whose "body" picks the same models share one asset.
std::string sourceChoiceKey(std::string_view path, const std::vector<uint32_t>& models) {
    std::string key(path);
    bool all_first = true;
    for (uint32_t m : models)
        all_first = all_first && m == 0;
    if (all_first)
        return key;
    key += "#body ";
    for (size_t i = 0; i < models.size(); ++i)
        key += (i ? "." : "") + std::to_string(models[i]);
    return key;
}

} // namespace

std::string sourceStudioAssetKey(const ModelSource& source) {
    auto mdl = parseSourceMdl(source.bytes);
    return mdl ? sourceChoiceKey(source.path, sourceBodyModels(*mdl, source.request.studio.body))
               : std::string(source.path);
}

core::Result<ModelAsset> loadSourceStudioAsset(const ModelSource& source) {
    auto model = loadSourceModel(source.fs, source.path, source.bytes);
    if (!model)
        return model.error();
    const int32_t body = source.request.studio.body;
    ModelAsset asset =
        singlePartAsset(ModelFormat::SourceStudio,
                        sourceChoiceKey(source.path, sourceBodyModels(model->mdl, body)));
    ModelPart& part = asset.parts.front();
    part.mesh = buildSourceModelMesh(*model, body, 0);
    for (const SourceModelMaterial& m : model->materials)
        if (m.path.empty())
            part.warnings.push_back("material " + m.name + " not found (" +
                                    std::to_string(m.tried.size()) + " paths tried)");
        else if (!m.vmt)
            part.warnings.push_back(m.path + ": " + m.error);
    return asset;
}

} // namespace content
