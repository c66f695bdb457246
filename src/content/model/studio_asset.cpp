// The registry's Half-Life studio loader (studio.h loadStudioAsset): the model's companion files
// and the choices an entity's keys make.
#include "content/model/model_asset.h"
#include "content/model/studio.h"
#include "content/vfs/vfs.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>

namespace content {

namespace {

// What an entity's keys choose in a parsed model: the model `body` picks in each part
// (studioBodyModels), the sequence played (one outside the model's plays the first, as Xash3D
// gl_studio.c R_StudioComputeBBox resets it) and the bone controllers' bytes.
struct StudioChoice {
    int32_t body = 0;
    std::vector<uint32_t> parts;
    int32_t sequence = 0;
    StudioControllerSettings controllers{};
};

// The controllers as InitBoneControllers leaves them, or the "controller" key's four bytes
// (util.cpp EntvarsKeyvalue stores the integer over controller[0..3], little-endian as the
// game's targets are).
StudioChoice studioChoice(const StudioModel& model, const StudioKeys& keys) {
    StudioChoice c;
    c.body = keys.body;
    c.parts = studioBodyModels(model, keys.body);
    c.sequence =
        keys.sequence > 0 && uint32_t(keys.sequence) < model.sequences.size() ? keys.sequence : 0;
    if (keys.init_controllers) {
        c.controllers = studioInitControllers(model);
    } else {
        const uint32_t v = uint32_t(keys.controller);
        for (size_t i = 0; i < 4; ++i)
            c.controllers[i] = uint8_t(v >> (8 * i));
    }
    return c;
}

// Each choice of the parts' models, sequence and controller setting makes a mesh of its own
// (bodies choosing the same models share it).
std::string choiceKey(std::string_view path, const StudioChoice& choice) {
    std::string key(path);
    const bool parts =
        std::any_of(choice.parts.begin(), choice.parts.end(), [](uint32_t m) { return m != 0; });
    if (parts || choice.sequence != 0) {
        key += "#body";
        for (size_t p = 0; p < choice.parts.size(); ++p)
            key += (p == 0 ? " " : ".") + std::to_string(choice.parts[p]);
        key += " sequence " + std::to_string(choice.sequence);
    }
    if (choice.controllers != StudioControllerSettings{}) {
        key += "#controllers";
        for (uint8_t c : choice.controllers)
            key += " " + std::to_string(c);
    }
    return key;
}

} // namespace

// A studio model parsed with its textures, once per cache (model_asset.h ModelCache).
struct StudioFile {
    std::optional<StudioModel> model;
    core::Error error; // why `model` is absent
};

namespace {

// The textures from "<name>T.mdl" when the model keeps none.
core::Status loadTextureFile(const FileSystem& fs, std::string_view path, StudioModel& model) {
    if (!model.textures.empty())
        return core::okStatus();
    const std::string t_path = studioTextureFilePath(path);
    auto t = fs.readChecked(t_path);
    if (!t)
        return core::makeError(core::ErrorCode::NotFound, t_path, -1, {}, "the model's textures");
    return loadStudioTextures(model, *t);
}

// The chosen sequence's animation: from the model's own bytes for group 0, from the group's
// file otherwise (missing: the rest pose).
core::Status loadSequence(const ModelSource& source, StudioModel& model, uint32_t sequence) {
    if (model.sequences.empty())
        return core::okStatus();
    const uint32_t group = model.sequences[sequence].group;
    if (group == 0)
        return decodeStudioAnimation(model, sequence, source.bytes);
    if (auto g = source.fs.readChecked(studioSequenceGroupPath(source.path, group)))
        return decodeStudioAnimation(model, sequence, *g);
    return core::okStatus();
}

StudioFile parseStudioFile(const ModelSource& source) {
    StudioFile f;
    auto model = parseStudio(source.bytes);
    if (!model) {
        f.error = model.error();
        return f;
    }
    if (auto s = loadTextureFile(source.fs, source.path, *model); !s) {
        f.error = s.error();
        return f;
    }
    f.model = std::move(*model);
    return f;
}

// The source's file from its cache, parsed there the first time; without a cache, into `local`.
StudioFile& studioFile(const ModelSource& source, StudioFile& local) {
    if (!source.cache) {
        local = parseStudioFile(source);
        return local;
    }
    std::shared_ptr<StudioFile>& kept = source.cache->studio_files[std::string(source.path)];
    if (!kept)
        kept = std::make_shared<StudioFile>(parseStudioFile(source));
    return *kept;
}

} // namespace

std::string studioAssetKey(const ModelSource& source) {
    StudioFile local;
    const StudioFile& file = studioFile(source, local);
    return file.model ? choiceKey(source.path, studioChoice(*file.model, source.request.studio))
                      : std::string(source.path);
}

core::Result<ModelAsset> loadStudioAsset(const ModelSource& source) {
    StudioFile local;
    StudioFile& file = studioFile(source, local);
    if (!file.model)
        return file.error;
    StudioModel& model = *file.model;
    const StudioChoice choice = studioChoice(model, source.request.studio);
    ModelAsset asset = singlePartAsset(ModelFormat::HalfLifeStudio, choiceKey(source.path, choice));
    // The sampled sequence is the choice's: a parse kept for other requests holds another.
    model.frames.clear();
    model.frames_sequence = 0;
    if (auto s = loadSequence(source, model, uint32_t(choice.sequence)); !s)
        asset.parts[0].error = s.error().message(); // listed under its choice, not drawn
    else
        asset.parts[0].mesh = buildStudioMesh(
            model, choice.body, choice.controllers,
            source.request.palette_table ? &*source.request.palette_table : nullptr);
    return asset;
}

} // namespace content
