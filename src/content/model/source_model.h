// A Source engine studio model as one thing: the .mdl (content/model/source_mdl.h), its .vvd
// vertices (vvd.h) and .vtx triangles (vtx.h) checked against each other, and its materials
// found through the $cdmaterials folders. One entry point, loadSourceModel, reads all of it
// through a content::FileSystem; buildSourceModelMesh turns a body group and LOD choice into
// the format-neutral content::ModelMesh.
//
// Companion files (as the engine's model cache names them): "<path without .mdl>.vvd" and the
// first of ".dx90.vtx", ".dx80.vtx", ".sw.vtx" that exists (bspview draws what a DirectX 9
// card would). The three checksums must be equal: the engine refuses a model whose files
// disagree (SDK 2013 utils/vrad/vradstaticprops.cpp LoadStudioModel / the vertex file checks
// make the same test), and so does loadSourceModel, naming both files.
//
// Materials (SDK 2013 utils/vrad/vradstaticprops.cpp LoadAllTexturesForModel, which follows
// the engine): for each texture, "materials/" + each $cdmaterials folder in order + the
// texture's name + ".vmt", the first that exists; lookups ignore case and take '\' as '/'. A
// texture none of them finds is listed with the paths tried (the engine draws the error
// material); the model still loads.
//
// The pose is the bind pose: the .vvd's vertices as stored, in model space (studiomdl writes
// them so). No sequence is sampled: a static prop's first frame and its bind pose coincide for
// the single-bone props compilers make from $staticprop, and multi-bone models show their
// reference pose.
#pragma once

#include "content/material/vmt.h"
#include "content/model/model_mesh.h"
#include "content/model/source_mdl.h"
#include "content/model/vtx.h"
#include "content/model/vvd.h"
#include "core/result.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace content {

class FileSystem;

struct SourceModelMaterial {
    std::string name;               // the texture name as the .mdl stores it
    std::string path;               // the .vmt found ("materials/models/x/y.vmt"); empty: none
    std::vector<std::string> tried; // every path tried, in order
    std::optional<Vmt> vmt;         // the material, patches resolved; absent when not found or bad
    std::string error;              // why `vmt` is absent
};

struct SourceModel {
    std::string path; // the .mdl as asked for
    std::string vvd_path;
    std::string vtx_path; // the .vtx used
    SourceMdl mdl;
    Vvd vvd;
    Vtx vtx;
    std::vector<SourceModelMaterial> materials; // one per mdl.textures (empty: not resolved)
};

// Joins the three parsed files: equal checksums, the .vtx's body parts and models matching the
// .mdl's, every LOD's mesh count the model's, every mesh's vertices inside the .vvd and every
// triangle corner inside its mesh. `mdl_name`, `vvd_name`, `vtx_name` are the files' names for
// the errors (Error::file is the file at fault; the detail names the other). Errors: BadValue
// (checksums differ, counts differ), IndexOutOfRange (a mesh past the vertices, a corner past
// its mesh).
core::Result<SourceModel> assembleSourceModel(SourceMdl mdl, Vvd vvd, Vtx vtx,
                                              std::string_view mdl_name, std::string_view vvd_name,
                                              std::string_view vtx_name);

// Reads `path` (a virtual path, "models/props/x.mdl"), its .vvd and .vtx through `fs`, joins
// them and resolves the materials. Errors: NotFound (the .mdl, the .vvd or every .vtx),
// parse and assembly errors with Error::file set to the file at fault.
core::Result<SourceModel> loadSourceModel(const FileSystem& fs, std::string_view path);
// The same with the .mdl's bytes already read (the model registry has them).
core::Result<SourceModel> loadSourceModel(const FileSystem& fs, std::string_view path,
                                          std::span<const uint8_t> mdl_bytes);

// The candidate material paths of texture `texture` (an index into mdl.textures), in search
// order, normalised (content::normalizeName).
std::vector<std::string> sourceMaterialCandidates(const SourceMdl& mdl, size_t texture);

// Finds and reads every texture's material (loadSourceModel does this).
void resolveSourceMaterials(const FileSystem& fs, SourceModel& model);

// The number of LODs the model draws: the .vtx's (each of its models holds that many).
uint32_t sourceLodCount(const SourceModel& model);

// Each LOD's switch point, LOD 0's first: those of the .vtx's body part 0, model 0, which the
// engine keeps for the whole model (studiorender CStudioRenderContext::LoadModel). Empty when
// the .vtx has no body part or model. A trailing negative one marks the shadow LOD
// (scene/models/studio_lod.h).
std::vector<float> sourceLodSwitchPoints(const SourceModel& model);

// STUDIOHDR_FLAGS_HASSHADOWLOD (SDK 2013 public/studio.h): the last LOD is drawn only for
// shadows.
inline constexpr uint32_t kStudioHasShadowLod = 0x40;
inline bool sourceHasShadowLod(const SourceMdl& mdl) {
    return (mdl.flags & kStudioHasShadowLod) != 0;
}

// The drawn mesh of one choice: the model `body` picks in each body part (sourceBodyModels),
// LOD `lod` (clamped to the LODs each model has), one pose (the bind pose) in one frame.
// Vertices are those the LOD's triangles use, once each, in first-use order; every mesh of the
// .mdl becomes a ModelDrawRange whose `material` is its skin slot. Skins: `materials` holds
// each texture's found .vmt path (empty when missing) and `skin_materials[family][slot]` the
// texture each family puts in a slot; `images` and `skins` stay empty.
ModelMesh buildSourceModelMesh(const SourceModel& model, int32_t body, uint32_t lod);

struct ModelAsset;
struct ModelSource;

// The registry's loader (model_asset.h, row "IDST" 44..49; source_asset.cpp): loadSourceModel
// and one part whose mesh is the request's body group choice (ModelRequest::studio.body) at
// LOD 0; a material not found or not parsed is a warning of the part. The key is the path, with
// "#body 1.0" when the choice shows other than each body part's first model.
core::Result<ModelAsset> loadSourceStudioAsset(const ModelSource& source);
std::string sourceStudioAssetKey(const ModelSource& source);

} // namespace content
