// The registry's Quake 3 loader (md3.h loadMd3Asset): a part per surface, its image from the
// shader scripts, its shader from a misc_model's .skin.
#include "content/material/shader_library.h"
#include "content/material/textures.h"
#include "content/model/md3.h"
#include "content/model/model_asset.h"
#include "content/model/skin.h"
#include "content/vfs/vfs.h"

#include <optional>
#include <string>

namespace content {

namespace {

// A surface's look: the first stage of its shader that names an image (its other stages,
// tcGen environment and tcMods are not drawn), additive when that stage blends GL_ONE onto the
// framebuffer; without a script the name itself is the image.
ModelImage surfaceImage(const FileSystem& fs, const ShaderLibrary* shaders, std::string_view shader,
                        bool* additive, std::vector<std::string>& warnings) {
    std::string image_name(shader);
    *additive = false;
    if (const ShaderDef* def = shaders ? shaders->find(shader) : nullptr) {
        for (const ShaderStage& st : def->stages) {
            const bool has_image = st.map == MapKind::Texture || st.map == MapKind::Clamp ||
                                   st.map == MapKind::Animated;
            if (!has_image || st.images.empty())
                continue;
            image_name = st.images[0];
            *additive = st.blend && st.dst == BlendFactor::One;
            break;
        }
    }
    TextureInfo info = loadImageTexture(fs, image_name);
    if (info.missing)
        warnings.push_back("shader '" + std::string(shader) + "' not found (missing texture)");
    ModelImage img;
    img.width = info.image.width;
    img.height = info.image.height;
    img.rgba = std::move(info.image.rgba);
    // model.frag.glsl reads alpha 0 as fullbright: Quake 3 skins carry no such mask.
    for (size_t i = 3; i < img.rgba.size(); i += 4)
        img.rgba[i] = 255;
    return img;
}

// The .skin a misc_model names, or nullopt (the model's own shaders) when there is none, it is
// missing or broken (q3map2 InsertModel keeps the model's shaders when the file does not load;
// a broken one is bspview's error, warned), or it names no surface (the engine's default skin).
std::optional<Skin> loadSkin(const FileSystem& fs, std::string_view path,
                             std::vector<std::string>& warnings) {
    if (path.empty())
        return std::nullopt;
    auto bytes = fs.readChecked(path);
    if (!bytes) {
        warnings.push_back("skin " + std::string(path) + " not found: the model's own shaders");
        return std::nullopt;
    }
    const std::string_view text(reinterpret_cast<const char*>(bytes->data()), bytes->size());
    auto skin = parseSkin(text, path);
    if (!skin) {
        warnings.push_back(skin.error().message() + ": the model's own shaders");
        return std::nullopt;
    }
    for (const std::string& w : skin->warnings)
        warnings.push_back(std::string(path) + ": " + w);
    if (skin->surfaces.empty()) {
        warnings.push_back("skin " + std::string(path) + " names no surface: the model's own " +
                           "shaders");
        return std::nullopt;
    }
    return std::move(*skin);
}

// One part per surface the skin (if any) names.
void addSurfaces(const ModelSource& source, Md3Model& md3, const Skin* skin, ModelAsset& asset) {
    for (Md3Surface& s : md3.surfaces) {
        ModelPart part;
        part.name = std::string(source.path) + "#" + s.name;
        std::string_view shader = s.shaders.empty() ? std::string_view(s.name) : s.shaders[0];
        if (skin) {
            const SkinSurface* named = findSkinSurface(*skin, s.name);
            if (!named)
                continue;
            shader = named->shader;
            part.skin = skin->file;
        }
        s.mesh.images.push_back(
            surfaceImage(source.fs, source.request.shaders, shader, &part.additive, part.warnings));
        s.mesh.skins.push_back({});
        part.mesh = std::move(s.mesh);
        asset.parts.push_back(std::move(part));
    }
}

} // namespace

std::string md3AssetKey(const ModelSource& source) {
    const std::string skin_path = q3map2SkinPath(source.path, source.request.skin_key);
    return std::string(source.path) + (skin_path.empty() ? "" : "#skin " + skin_path);
}

core::Result<ModelAsset> loadMd3Asset(const ModelSource& source) {
    const std::string skin_path = q3map2SkinPath(source.path, source.request.skin_key);
    std::vector<std::string> skin_warnings;
    const std::optional<Skin> skin = loadSkin(source.fs, skin_path, skin_warnings);
    ModelAsset asset;
    asset.format = ModelFormat::Quake3;
    asset.key = md3AssetKey(source);
    auto md3 = decodeMd3(source.bytes);
    if (!md3 || md3->surfaces.empty()) {
        ModelPart& part = asset.parts.emplace_back();
        part.name = std::string(source.path);
        part.error = md3 ? "no surfaces" : md3.error().message();
    } else {
        const Md3Frame& f0 = md3->frames[0];
        for (size_t k = 0; k < 3; ++k)
            asset.midpoint[k] = f0.mins[k] + 0.5f * (f0.maxs[k] - f0.mins[k]);
        addSurfaces(source, *md3, skin ? &*skin : nullptr, asset);
        if (asset.parts.empty()) {
            ModelPart& part = asset.parts.emplace_back();
            part.name = std::string(source.path);
            part.skin = skin ? skin->file : std::string();
            part.error = "skin " + part.skin + " names none of its surfaces";
        }
    }
    for (ModelPart& part : asset.parts)
        part.warnings.insert(part.warnings.begin(), skin_warnings.begin(), skin_warnings.end());
    return asset;
}

} // namespace content
