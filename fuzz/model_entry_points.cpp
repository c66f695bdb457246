// The model decoders' entry points (entry_points.h): each decoder alone, and the registry that
// picks one by the file's magic with the companions it reads.
#include "entry_points.h"
#include "entry_support.h"

#include "content/model/md2.h"
#include "content/model/md3.h"
#include "content/model/mdl.h"
#include "content/model/model_asset.h"
#include "content/model/skin.h"
#include "content/model/sp2.h"
#include "content/model/sprite.h"
#include "content/model/studio.h"
#include "content/vfs/vfs.h"
#include "game/profile.h"
#include "scene/load/brush_model.h"
#include "scene/view/visibility.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string_view>

namespace fuzz {

namespace {

// A run of `count` entries from `first` lies inside `size` entries, with its times when grouped.
bool runInside(const content::TimedRun& run, size_t size) {
    return run.count >= 1 && uint64_t(run.first) + run.count <= size &&
           (run.count == 1 || run.end_times.size() == run.count);
}

// What is wrong with an accepted mesh's geometry, or empty: array sizes, indices inside the
// vertices, finite texture coordinates, frame runs inside the poses.
std::string meshGeometryViolation(const content::ModelMesh& m) {
    std::string v;
    const size_t pose_vertices = size_t(m.pose_count) * m.vertex_count;
    if (m.uv.size() != m.vertex_count || m.positions.size() != pose_vertices ||
        m.normals.size() != pose_vertices || m.indices.size() % 3 != 0)
        v = "accepted mesh has arrays of the wrong size";
    for (size_t i = 0; i < m.indices.size() && v.empty(); ++i)
        if (m.indices[i] >= m.vertex_count)
            v = "index " + std::to_string(i) + " outside the vertices";
    for (size_t i = 0; i < m.uv.size() && v.empty(); ++i)
        if (!std::isfinite(m.uv[i][0]) || !std::isfinite(m.uv[i][1]))
            v = "texture coordinate " + std::to_string(i) + " is not finite";
    for (size_t i = 0; i < m.frames.size() && v.empty(); ++i)
        if (!runInside(m.frames[i].poses, m.pose_count))
            v = "frame " + std::to_string(i) + " outside the poses";
    return v;
}

// What is wrong with an accepted mesh (runMdl's contract), or empty: its geometry, then skin
// runs inside the images and images of their size.
std::string meshViolation(const content::ModelMesh& m) {
    std::string v = meshGeometryViolation(m);
    for (size_t i = 0; i < m.skins.size() && v.empty(); ++i)
        if (!runInside(m.skins[i].images, m.images.size()))
            v = "skin " + std::to_string(i) + " outside the images";
    for (size_t i = 0; i < m.images.size() && v.empty(); ++i) {
        const content::ModelImage& img = m.images[i];
        const size_t texels = size_t(img.width) * size_t(img.height);
        if (img.rgba.size() != texels * 4 ||
            (!img.fullbright.empty() && img.fullbright.size() != texels))
            v = "image " + std::to_string(i) + " has the wrong size";
    }
    if (v.empty() && (m.frames.empty() || m.skins.empty()))
        v = "accepted mesh without frames or skins";
    return v;
}

// What is wrong with an accepted sprite (runSprite's contract), or empty.
std::string spriteViolation(const content::Sprite& s) {
    std::string v;
    if (s.frames.empty())
        v = "accepted sprite without frames";
    for (size_t i = 0; i < s.frames.size() && v.empty(); ++i)
        if (!runInside(s.frames[i].pictures, s.pictures.size()))
            v = "frame " + std::to_string(i) + " outside the pictures";
    for (size_t i = 0; i < s.pictures.size() && v.empty(); ++i) {
        const content::SpritePicture& p = s.pictures[i];
        if (p.width < 1 || p.height < 1 || p.rgba.size() != size_t(p.width) * size_t(p.height) * 4)
            v = "picture " + std::to_string(i) + " has the wrong size";
    }
    return v;
}

} // namespace

Outcome runMdl(std::span<const uint8_t> data) {
    auto mesh = content::decodeMdl(data, content::defaultQuakePalette());
    if (!mesh)
        return rejected(std::move(mesh.error()));
    Outcome o;
    o.accepted = true;
    o.violation = meshViolation(*mesh);
    return o;
}

Outcome runBrushModel(std::span<const uint8_t> data) {
    const content::FileSystem fs;
    auto model = scene::loadBrushModel(data, "maps/b_fuzz.bsp", fs, game::UnlitFaces::Black);
    if (!model)
        return rejected(std::move(model.error()));
    Outcome o;
    o.accepted = true;
    const scene::DrawList& list = model->faces;
    for (size_t i = 0; i < list.faces.size() && o.violation.empty(); ++i)
        if (list.faces[i] >= model->mesh.faces.size())
            o.violation = "drawn face " + std::to_string(list.faces[i]) + " outside the mesh";
    for (size_t i = 0; i < list.ranges.size() && o.violation.empty(); ++i)
        o.violation = rangeProblem("draw range", i, list.ranges[i].first_index,
                                   list.ranges[i].count, model->mesh.indices.size());
    for (size_t i = 0; i < list.batches.size() && o.violation.empty(); ++i)
        o.violation = rangeProblem("batch", i, list.batches[i].first_range,
                                   list.batches[i].num_ranges, list.ranges.size());
    if (o.violation.empty() && model->textures.size() != model->map.materials.size())
        o.violation = "textures not parallel to the materials";
    return o;
}

Outcome runMd3(std::span<const uint8_t> data) {
    auto model = content::decodeMd3(data);
    if (!model)
        return rejected(std::move(model.error()));
    Outcome o;
    o.accepted = true;
    const content::Md3Model& m = *model;
    const size_t frames = m.frames.size();
    if (frames == 0 || m.tags.size() != frames * m.tag_count)
        o.violation = "accepted model without frames or with the wrong tag count";
    // Surfaces carry no skins until the loader gives them their shader's image.
    for (size_t s = 0; s < m.surfaces.size() && o.violation.empty(); ++s) {
        const content::ModelMesh& mesh = m.surfaces[s].mesh;
        std::string v = mesh.pose_count != frames || mesh.frames.size() != frames
                            ? "one pose and frame per model frame expected"
                            : meshGeometryViolation(mesh);
        if (!v.empty())
            o.violation = "surface " + std::to_string(s) + ": " + v;
    }
    return o;
}

Outcome runSkin(std::span<const uint8_t> data) {
    const std::string_view text(reinterpret_cast<const char*>(data.data()), data.size());
    auto skin = content::parseSkin(text, "fuzz.skin");
    if (!skin)
        return rejected(std::move(skin.error()));
    Outcome o;
    o.accepted = true;
    const int64_t lines = std::count(text.begin(), text.end(), '\n') + 1;
    if (skin->surfaces.size() > content::kMaxSkinSurfaces)
        o.violation = std::to_string(skin->surfaces.size()) + " surfaces kept";
    for (size_t i = 0; i < skin->surfaces.size() && o.violation.empty(); ++i) {
        const content::SkinSurface& s = skin->surfaces[i];
        const bool lower = std::none_of(s.surface.begin(), s.surface.end(),
                                        [](char c) { return c >= 'A' && c <= 'Z'; });
        if (s.surface.empty() || s.surface.size() > content::kMaxSkinName || !lower ||
            s.shader.size() > content::kMaxSkinName || s.line < 1 || s.line > lines)
            o.violation = "surface " + std::to_string(i) + " breaks the contract";
    }
    if (o.violation.empty() && !skin->surfaces.empty() &&
        content::findSkinSurface(*skin, skin->surfaces[0].surface) != &skin->surfaces[0])
        o.violation = "the first surface is not found by its own name";
    return o;
}

Outcome runStudio(std::span<const uint8_t> data) {
    auto model = content::parseStudio(data);
    if (!model)
        return rejected(std::move(model.error()));
    // The companions a loader would read (the "T" file, a sequence group) are the same bytes.
    if (model->textures.empty())
        if (auto s = content::loadStudioTextures(*model, data); !s)
            return rejected(std::move(s.error()));
    if (!model->sequences.empty())
        if (auto s = content::decodeStudioAnimation(*model, 0, data); !s)
            return rejected(std::move(s.error()));
    Outcome o;
    o.accepted = true;
    const content::ModelMesh mesh = content::buildStudioMesh(*model);
    o.violation = meshViolation(mesh);
    if (o.violation.empty() && mesh.pose_count > content::kMaxStudioPoses)
        o.violation = "more poses than kMaxStudioPoses";
    // Another body group choice (a value from the bytes' length) with the bone controllers as
    // InitBoneControllers sets them, and the draw ranges of both.
    const content::ModelMesh other = content::buildStudioMesh(
        *model, int32_t(data.size() % 4096) - 8, content::studioInitControllers(*model));
    if (o.violation.empty())
        o.violation = meshViolation(other);
    for (const content::ModelMesh* m : {&mesh, &other})
        for (int32_t skin = 0; skin <= int32_t(m->skins.size()); ++skin)
            for (const content::ModelDrawRange& r : content::skinRanges(*m, skin))
                if (o.violation.empty() &&
                    uint64_t(r.first_index) + r.index_count > m->indices.size())
                    o.violation = "a draw range past the indices";
    return o;
}

Outcome runSprite(std::span<const uint8_t> data) {
    auto spr = content::decodeSprite(data, content::defaultQuakePalette());
    if (!spr)
        return rejected(std::move(spr.error()));
    Outcome o;
    o.accepted = true;
    o.violation = spriteViolation(*spr);
    return o;
}

Outcome runMd2(std::span<const uint8_t> data) {
    auto md2 = content::decodeMd2(data);
    if (!md2)
        return rejected(std::move(md2.error()));
    const content::FileSystem none;
    std::vector<std::string> problems;
    content::attachPcxSkins(*md2, none, problems);
    Outcome o;
    o.accepted = true;
    o.violation = meshViolation(md2->mesh);
    if (o.violation.empty() && problems.size() != md2->skin_names.size())
        o.violation = "a skin from an empty file system was not reported";
    return o;
}

Outcome runSp2(std::span<const uint8_t> data) {
    auto frames = content::parseSp2(data);
    if (!frames)
        return rejected(std::move(frames.error()));
    const content::FileSystem none;
    std::vector<std::string> problems;
    const content::Sprite sprite = content::buildSp2Sprite(*frames, none, problems);
    Outcome o;
    o.accepted = true;
    o.violation = spriteViolation(sprite);
    return o;
}

namespace {

// The companions the registry's decoders look for beside models/fuzz.mdl, each the same bytes:
// a Half-Life model's "T" file and sequence group 1, a Quake 3 .skin (the misc_model skin key
// "1": models/fuzz.mdl_1.skin), a Source model's .vvd and .vtx.
constexpr const char* kAssetFiles[] = {"models/fuzz.mdl",   "models/fuzzT.mdl",
                                       "models/fuzz01.mdl", "models/fuzz.mdl_1.skin",
                                       "models/fuzz.vvd",   "models/fuzz.dx90.vtx"};

std::string assetViolation(const content::ModelAsset& asset) {
    if (asset.parts.empty())
        return "accepted asset without parts";
    if (asset.format == content::ModelFormat::Brush && !asset.brush)
        return "a brush asset without its map";
    if (asset.brush) {
        if (asset.brush->submodels.empty())
            return "a brush asset without a model 0";
        return checkMapInvariants(*asset.brush);
    }
    for (size_t i = 0; i < asset.parts.size(); ++i) {
        const content::ModelPart& p = asset.parts[i];
        if (p.error.empty() == !(p.mesh || p.sprite))
            return "part " + std::to_string(i) + ": a mesh or sprite, or an error, expected";
        std::string v = p.mesh     ? meshViolation(*p.mesh)
                        : p.sprite ? spriteViolation(*p.sprite)
                                   : "";
        if (!v.empty())
            return "part " + std::to_string(i) + ": " + v;
    }
    return {};
}

} // namespace

Outcome runModelAsset(std::span<const uint8_t> data) {
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("bspv_fuzz_asset_" + std::to_string(::getpid()));
    std::error_code ec;
    std::filesystem::create_directories(dir / "models", ec);
    for (const char* name : kAssetFiles)
        if (!writeFile(dir / name, data))
            return rejected(core::makeError(core::ErrorCode::FileOpen, dir.string(), -1, {},
                                            "cannot write the model files"));
    content::FileSystem fs;
    if (auto st = fs.addDirectory(dir); !st)
        return rejected(std::move(st.error()));
    // Studio keys from the bytes' length: another body, sequence and controller setting.
    content::ModelRequest request;
    request.skin_key = "1";
    request.studio = {.body = int32_t(data.size() % 7),
                      .sequence = int32_t(data.size() % 3),
                      .init_controllers = data.size() % 2 == 0,
                      .controller = int32_t(data.size() * 2654435761u)};
    auto asset = content::loadModelAsset(fs, "models/fuzz.mdl", request);
    std::filesystem::remove_all(dir, ec);
    if (!asset)
        return rejected(std::move(asset.error()));
    Outcome o;
    o.accepted = true;
    o.violation = assetViolation(*asset);
    return o;
}

} // namespace fuzz
