// The model registry (model_asset.h): one row per format, tried in order, each naming the magic
// it reads and the loader that decodes the file with its companions.
#include "content/model/model_asset.h"

#include "bsp/load.h"
#include "content/model/md2.h"
#include "content/model/md3.h"
#include "content/model/mdl.h"
#include "content/model/source_model.h"
#include "content/model/sp2.h"
#include "content/model/sprite.h"
#include "content/model/studio.h"
#include "content/vfs/vfs.h"
#include "core/byte_reader.h"

#include <array>
#include <cstring>

namespace content {

namespace {

bool hasMagic(std::span<const uint8_t> data, const char (&magic)[5]) {
    return data.size() >= 4 && std::memcmp(data.data(), magic, 4) == 0;
}

// The int32 after the magic (every id format's version); -1 when the file is shorter.
int32_t versionOf(std::span<const uint8_t> data) {
    const core::ByteReader r(data);
    return r.inRange(4, 4) ? r.i32(4) : -1;
}

// Source's studio models (studiohdr_t version 44..49: HL2 44, later branches up to 49).
bool isSourceStudio(std::span<const uint8_t> data) {
    const int32_t v = versionOf(data);
    return hasMagic(data, "IDST") && v >= kSourceMdlMinVersion && v <= kSourceMdlMaxVersion;
}

core::Result<ModelAsset> loadBrushAsset(const ModelSource& source) {
    auto map = decodeBrushModel(source.bytes, source.path);
    if (!map)
        return map.error();
    ModelAsset asset = singlePartAsset(ModelFormat::Brush, source.path);
    asset.brush = std::move(*map);
    return asset;
}

constexpr std::array<ModelDecoder, 8> kDecoders = {{
    {ModelFormat::QuakeAlias, "Quake 1 alias model (IDPO)",
     [](std::span<const uint8_t> d) { return hasMagic(d, "IDPO"); }, &loadMdlAsset},
    {ModelFormat::SourceStudio, "Source studio model (IDST 44..49)", &isSourceStudio,
     &loadSourceStudioAsset, &sourceStudioAssetKey},
    {ModelFormat::HalfLifeStudio, "Half-Life studio model (IDST 10)",
     [](std::span<const uint8_t> d) { return hasMagic(d, "IDST"); }, &loadStudioAsset,
     &studioAssetKey},
    {ModelFormat::Quake2Alias, "Quake 2 alias model (IDP2)",
     [](std::span<const uint8_t> d) { return hasMagic(d, "IDP2"); }, &loadMd2Asset},
    {ModelFormat::Quake3, "Quake 3 model (IDP3)",
     [](std::span<const uint8_t> d) { return hasMagic(d, "IDP3"); }, &loadMd3Asset, &md3AssetKey},
    {ModelFormat::Sprite, "Quake 1 / Half-Life sprite (IDSP)",
     [](std::span<const uint8_t> d) { return hasMagic(d, "IDSP"); }, &loadSpriteAsset},
    {ModelFormat::Quake2Sprite, "Quake 2 sprite (IDS2)",
     [](std::span<const uint8_t> d) { return hasMagic(d, "IDS2"); }, &loadSp2Asset},
    {ModelFormat::Brush, "brush model (a BSP file)",
     [](std::span<const uint8_t> d) { return bsp::detect(d).format.has_value(); }, &loadBrushAsset},
}};

// The magic as text for a message: printable bytes as they are, others as \xNN.
std::string printableMagic(std::span<const uint8_t> data) {
    std::string out;
    for (size_t i = 0; i < std::min<size_t>(4, data.size()); ++i) {
        if (data[i] >= 32 && data[i] < 127) {
            out += char(data[i]);
        } else {
            static constexpr char kHex[] = "0123456789abcdef";
            out += "\\x";
            out += kHex[data[i] >> 4];
            out += kHex[data[i] & 15];
        }
    }
    return out;
}

} // namespace

std::span<const ModelDecoder> modelDecoders() {
    return kDecoders;
}

const ModelDecoder* findModelDecoder(std::span<const uint8_t> data) {
    for (const ModelDecoder& d : kDecoders)
        if (d.matches(data))
            return &d;
    return nullptr;
}

ModelAsset singlePartAsset(ModelFormat format, std::string_view path) {
    ModelAsset asset;
    asset.format = format;
    asset.key = std::string(path);
    asset.parts.emplace_back().name = std::string(path);
    return asset;
}

core::Result<bsp::Map> decodeBrushModel(std::span<const uint8_t> bytes, std::string_view path) {
    auto map = bsp::loadMap(bytes, path);
    if (!map)
        return map.error();
    if (map->submodels.empty()) {
        core::Error e = core::makeError(core::ErrorCode::BadValue, "models", -1, {}, "no model 0");
        e.file = std::string(path);
        return e;
    }
    return map;
}

const core::Result<std::vector<uint8_t>>& ModelCache::read(const FileSystem& fs,
                                                           std::string_view path) {
    auto it = m_files.find(path);
    if (it == m_files.end())
        it = m_files.emplace(std::string(path), fs.readChecked(path)).first;
    return it->second;
}

core::Result<ModelAsset> loadModelAsset(const FileSystem& fs, std::string_view path,
                                        const ModelRequest& request, ModelCache* cache) {
    std::optional<core::Result<std::vector<uint8_t>>> own;
    const core::Result<std::vector<uint8_t>>& bytes =
        cache ? cache->read(fs, path) : own.emplace(fs.readChecked(path));
    if (!bytes)
        return bytes.error();
    const ModelDecoder* decoder = findModelDecoder(*bytes);
    if (!decoder)
        return core::makeError(core::ErrorCode::UnknownFormat, "model.header", -1, "magic",
                               "no model format starts with '" + printableMagic(*bytes) + "'");
    const ModelSource source{fs, path, *bytes, request, cache};
    if (!cache)
        return decoder->load(source);
    std::string key = decoder->key ? decoder->key(source) : std::string(path);
    if (cache->made(key)) {
        ModelAsset known;
        known.format = decoder->format;
        known.key = std::move(key);
        return known;
    }
    auto asset = decoder->load(source);
    if (asset)
        cache->addMade(asset->key);
    return asset;
}

} // namespace content
