// Entity model files behind one entry point. content::loadModelAsset reads a file through the
// file system, looks at its first bytes (never at its name's extension) and hands it to the
// decoder the registry names for that magic, which reads the companion files its format needs:
// a Half-Life model's "T" texture file and sequence group files, a Quake 2 model's PCX skins, a
// Quake 2 sprite's PCX pictures, a Quake 3 model's .skin and its shaders' images. GL-free.
//
// The registry (model_registry.cpp kDecoders) picks a decoder by the file's first four bytes, as
// q2pro (src/refresh/models.c MOD_LoadModel: its `loaders` by ident) and yquake2
// (src/client/refresh/gl3/gl3_model.c Mod_ForName: a switch on LittleLong(*(unsigned *)buf)) do:
//
//   magic, version     format                       decoder (companions)
//   "IDPO"             Quake 1 alias model          mdl.h
//   "IDST" 44..49      Source studio model          source_model.h (.vvd, .vtx, .vmt materials)
//   "IDST"             Half-Life studio model       studio.h (T file, sequence groups)
//   "IDP2"             Quake 2 alias model          md2.h (PCX skins)
//   "IDP3"             Quake 3 model                md3.h (.skin, shader images)
//   "IDSP"             Quake 1 / Half-Life sprite   sprite.h
//   "IDS2"             Quake 2 sprite               sp2.h (PCX pictures)
//   a BSP (bsp::detect) a brush model file          bsp/load.h (the scene builds its mesh)
//
// Versions other than the ones a decoder reads reach that decoder and are refused there
// (ErrorCode::UnsupportedVersion), so a message names the format the file claims to be.
#pragma once

#include "bsp/map.h"
#include "content/model/model_mesh.h"
#include "content/model/sprite.h"
#include "core/result.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace content {

class FileSystem;
class ShaderLibrary;

enum class ModelFormat : uint8_t {
    QuakeAlias,     // .mdl "IDPO"
    HalfLifeStudio, // .mdl "IDST" 10
    SourceStudio,   // .mdl "IDST" 44..49
    Quake2Alias,    // .md2 "IDP2"
    Quake3,         // .md3 "IDP3"
    Sprite,         // .spr "IDSP"
    Quake2Sprite,   // .sp2 "IDS2"
    Brush,          // .bsp
};

// The Half-Life entity keys a studio model's mesh depends on, as the entity's class leaves them
// (the scene reads them: scene/models/half_life_keys.h).
struct StudioKeys {
    int32_t body = 0;              // "body": the body group choice
    int32_t sequence = 0;          // "sequence": the one played (one the model lacks plays 0)
    bool init_controllers = false; // the class's Spawn calls InitBoneControllers
    int32_t controller = 0;        // "controller" (entvars_t controller[4] as an int)
    bool operator==(const StudioKeys&) const = default;
};

// What an entity asks of a file beyond its path; each decoder reads the fields of its format
// and ignores the others.
struct ModelRequest {
    // Quake 3: the shader scripts that give a surface its image (nullptr: a shader's name is its
    // image, as ioquake3's implicit shaders).
    const ShaderLibrary* shaders = nullptr;
    // Quake 3: a misc_model's "_skin" (else "skin") key; the decoder derives the .skin file
    // from it (q3map2SkinPath).
    std::string_view skin_key{};
    StudioKeys studio{}; // Half-Life studio models (Source ones read `body` alone)
    // The game's table for palettes of Half-Life studio skins and sprites
    // (game::MaterialSource::palette_table: texgammatable); empty: as stored. One per map, so
    // it is not part of an asset's key.
    std::optional<ByteTable> palette_table{};
};

// One drawable piece of a file: the file itself, or one surface of an .md3. A part with
// neither a mesh nor a sprite (and, for a brush model, no map in its asset) is listed with
// `error` and not drawn.
struct ModelPart {
    std::string name; // "path", "path#surface", "path#body 1.0 sequence 2", ...
    std::optional<ModelMesh> mesh;
    std::optional<Sprite> sprite;
    std::string error;
    std::vector<std::string> warnings; // what failed while the part still draws
    std::string skin;                  // the .skin file that gave the part its shader
    bool additive = false;             // its shader adds onto the frame (a health sphere)
};

struct ModelAsset {
    ModelFormat format = ModelFormat::QuakeAlias;
    // The path and the request's choices that shaped the asset ("#body ...", "#controllers
    // ...", "#skin ..."): two requests giving the same key give the same asset.
    std::string key;
    std::vector<ModelPart> parts; // at least one (none: already made, loadModelAsset)
    // Brush: the file parsed as a map (with a model 0); the scene builds what is drawn.
    std::optional<bsp::Map> brush;
    // Quake 3: the middle of frame 0's bounds (cgame cg_weapons.c CG_RegisterWeapon turns a
    // weapon about it).
    std::array<float, 3> midpoint{};
};

struct StudioFile; // a parsed Half-Life model with its textures (studio_asset.cpp)

// Kept across the loads of one set of models (a map's entities), as an engine keeps the models
// it has loaded by name (yquake2 Mod_ForName, q2pro MOD_Find): every file read once, a
// Half-Life model parsed once however many meshes its entities' keys make of it, and the keys
// of the assets already made, so a request giving one of them decodes nothing again.
class ModelCache {
public:
    // The file at `path` as the first read gave it (its bytes or its error).
    const core::Result<std::vector<uint8_t>>& read(const FileSystem& fs, std::string_view path);
    bool made(std::string_view key) const { return m_made.find(key) != m_made.end(); }
    void addMade(std::string key) { m_made.insert(std::move(key)); }
    // Parsed Half-Life models by path (studio_asset.cpp).
    std::map<std::string, std::shared_ptr<StudioFile>, std::less<>> studio_files;

private:
    std::map<std::string, core::Result<std::vector<uint8_t>>, std::less<>> m_files;
    std::set<std::string, std::less<>> m_made;
};

// What a decoder gets: the file's bytes, where it came from (for its companions), the entity's
// request and the cache its loads share (nullptr: none).
struct ModelSource {
    const FileSystem& fs;
    std::string_view path;
    std::span<const uint8_t> bytes;
    const ModelRequest& request;
    ModelCache* cache = nullptr;
};

// One row of the registry.
struct ModelDecoder {
    ModelFormat format;
    std::string_view name;                          // "Quake 2 alias model (IDP2)"
    bool (*matches)(std::span<const uint8_t> data); // the whole file; sniffs its first bytes
    core::Result<ModelAsset> (*load)(const ModelSource& source);
    // The key load() gives the source's asset, worked out without building it (nullptr: the
    // path, for formats that no request changes).
    std::string (*key)(const ModelSource& source) = nullptr;
};

// The rows, in the order they are tried.
std::span<const ModelDecoder> modelDecoders();

// The row whose magic `data` starts with, or nullptr.
const ModelDecoder* findModelDecoder(std::span<const uint8_t> data);

// Reads `path` through `fs` and decodes it with the row its magic picks. Errors: the file's
// read error (ErrorCode::NotFound with lump `path` when no search path holds it),
// UnknownFormat (no row knows the magic), or the decoder's (its code, lump and index; a
// companion that the format cannot do without, such as a Half-Life model's "T" file, is
// NotFound naming that file). Safe on hostile files: every decoder is.
//
// With a `cache`, a request whose asset key was made through the same cache before gets an
// asset of that key with no parts and nothing decoded: the caller keeps what it took the first
// time.
core::Result<ModelAsset> loadModelAsset(const FileSystem& fs, std::string_view path,
                                        const ModelRequest& request = {},
                                        ModelCache* cache = nullptr);

// A brush model file parsed as a map (bsp::loadMap: any format it knows), refused with BadValue
// ("models": no model 0) when it holds no model to draw.
core::Result<bsp::Map> decodeBrushModel(std::span<const uint8_t> bytes, std::string_view path);

// A decoded file as an asset of one part named `path` (the shape of every format but Quake 3's,
// which has a part per surface).
ModelAsset singlePartAsset(ModelFormat format, std::string_view path);

} // namespace content
