// Half-Life studio models (.mdl, "IDST" version 10), as the Half-Life SDK's engine/studio.h
// lays them out and the engines read them (Xash3D FWGS engine/common/mod_studio.c
// Mod_LoadStudioModel, ref/gl/gl_studio.c R_StudioCalcBoneQuaternion /
// R_StudioCalcBonePosition / R_StudioSetupBones / R_StudioDrawPoints; HLSDK
// cl_dll/StudioModelRenderer.cpp StudioCalcRotations, utils/mdlviewer/studio_render.cpp).
//
// Layout: a 244-byte header (name, length, eye position, bounds, flags, then a count and an
// offset for bones, bone controllers, hit boxes, sequences, sequence groups, textures (plus the
// texel data offset), skins (numskinref, numskinfamilies, offset), body parts, attachments,
// sounds and transitions). Records, all little-endian:
//   bone (112 bytes): name[32], parent (-1 for a root), flags, bonecontroller[6] (the
//     controller moving each axis, -1 none), value[6] (position x y z, rotation x y z in
//     radians), scale[6] (the animation's unit per axis).
//   bone controller (24 bytes): bone, type (STUDIO_X .. STUDIO_ZR, | STUDIO_RLOOP), start, end
//     (units or degrees), rest, index (0..3 the entity's controller bytes, 4 the mouth).
//   sequence (176 bytes): label[32], fps at 32, numframes at 56, numblends at 120, animindex at
//     124, seqgroup at 156. Sequence group (104 bytes): label[32], name[64], two unused ints.
//   body part (76 bytes): name[64], nummodels, base, modelindex. Model (112 bytes): name[64],
//     type, radius, nummesh, meshindex, numverts, vertinfoindex (one bone byte per vertex),
//     vertindex (vec3), numnorms, norminfoindex, normindex, numgroups, groupindex.
//   mesh (20 bytes): numtris, triindex, skinref, numnorms, normindex. Its triangle commands
//     are int16 runs: a count (positive: a strip, negative: a fan, 0: the end), then per
//     corner vertex index, normal index, s, t (texels).
//   texture (80 bytes): name[64], flags, width, height, index (width * height palette indices
//     followed by the texture's own 768-byte palette).
//   skins: numskinfamilies rows of numskinref int16 texture indices.
//   animation: per sequence, per blend, per bone six uint16 offsets (from that bone's record;
//     0: the axis keeps the bone's value). At an offset, runs of int16 values: a head with
//     `valid` and `total` bytes, then `valid` values; frames past `valid` within `total` repeat
//     the last. A value v gives bone.value[axis] + v * bone.scale[axis].
// A model without textures (numtextures 0) keeps them in "<name>T.mdl", a studio header of its
// own; a sequence in group g > 0 keeps its animation in "<name>0g.mdl" ("IDSQ" header), with
// animindex counted from that file's start.
//
// Safe on untrusted input: every count is checked against the bytes present (and a limit)
// before anything is allocated, every index against its array, every animation run against
// the file's end.
#pragma once

#include "content/image/palette.h"
#include "content/model/model_mesh.h"
#include "core/result.h"

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace content {

// Texture flags (studio.h STUDIO_NF_*).
inline constexpr uint32_t kStudioFlatShade = 0x0001;
inline constexpr uint32_t kStudioChrome = 0x0002;
inline constexpr uint32_t kStudioFullbright = 0x0004;
inline constexpr uint32_t kStudioAdditive = 0x0020;
inline constexpr uint32_t kStudioMasked = 0x0040; // palette index 255 is transparent

// Bone controller types (studio.h STUDIO_X .. STUDIO_ZR, STUDIO_TYPES, STUDIO_RLOOP).
inline constexpr uint32_t kStudioX = 0x0001;
inline constexpr uint32_t kStudioY = 0x0002;
inline constexpr uint32_t kStudioZ = 0x0004;
inline constexpr uint32_t kStudioXR = 0x0008;
inline constexpr uint32_t kStudioYR = 0x0010;
inline constexpr uint32_t kStudioZR = 0x0020;
inline constexpr uint32_t kStudioTypes = 0x7FFF;
inline constexpr uint32_t kStudioRLoop = 0x8000; // wraps: the setting spans 360 degrees
inline constexpr int32_t kStudioMouth = 4;       // the controller index the mouth drives

// Limits: MAXSTUDIOBONES 128 as in the engines; the others bound the work on hostile files
// whose counts the bytes could hold (Xash3D's MAXSTUDIOVERTS is 16,384 per model).
inline constexpr uint32_t kMaxStudioBones = 128;
inline constexpr uint32_t kMaxStudioVertices = 65536;   // drawn vertices over all meshes
inline constexpr uint32_t kMaxStudioTriangles = 131072; // over all meshes
inline constexpr uint32_t kMaxStudioRecords = 65536;    // sequences, textures, meshes, ...
inline constexpr uint32_t kMaxStudioPoses = 64;         // sampled frames of the idle sequence
inline constexpr uint64_t kMaxStudioSkinTexels = uint64_t(1) << 26; // skin images, all families

struct StudioBone {
    std::string name;
    int32_t parent = -1; // an earlier bone, or -1
    std::array<float, 6> value{};
    std::array<float, 6> scale{};
    std::array<int32_t, 6> controllers{-1, -1, -1, -1, -1, -1}; // per axis: a controller, or -1
};

struct StudioController {
    int32_t bone = -1;
    uint32_t type = 0; // kStudioX .. kStudioZR, maybe | kStudioRLoop
    float start = 0;
    float end = 0;
    int32_t rest = 0;
    int32_t index = 0; // 0..3: the entity's controller byte; kStudioMouth: the mouth
};

// An entity's four controller bytes (entvars_t controller[4]).
using StudioControllerSettings = std::array<uint8_t, 4>;

struct StudioTexture {
    std::string name;
    uint32_t flags = 0; // kStudio*
    int width = 0;
    int height = 0;
    std::vector<uint8_t> indices;       // width * height palette indices, rows top to bottom
    std::array<uint8_t, 768> palette{}; // the texture's own RGB palette
};

struct StudioSequence {
    std::string label;
    float fps = 0;
    uint32_t frame_count = 0;
    uint32_t blend_count = 0;
    uint32_t anim_offset = 0; // animindex: in this file (group 0) or the group's file
    uint32_t group = 0;
};

// One triangle corner as the commands give it.
struct StudioCorner {
    uint16_t vertex = 0;
    uint16_t normal = 0;
    int16_t s = 0;
    int16_t t = 0;
};

struct StudioMesh {
    uint32_t skinref = 0;
    std::vector<StudioCorner> corners; // 3 per triangle, strips and fans expanded
};

struct StudioSubModel {
    std::string name;
    std::vector<std::array<float, 3>> vertices; // in the space of their bone
    std::vector<uint8_t> vertex_bones;
    std::vector<std::array<float, 3>> normals;
    std::vector<uint8_t> normal_bones;
    std::vector<StudioMesh> meshes;
};

struct StudioBodyPart {
    std::string name;
    int32_t base = 1;                   // the part's unit in an entity's "body" value
    std::vector<StudioSubModel> models; // the part's choices
};

// Per bone position and rotation (radians) of one frame: value + anim * scale.
using StudioBoneFrame = std::array<float, 6>;

struct StudioModel {
    std::string name;
    std::array<float, 3> bbmin{};
    std::array<float, 3> bbmax{};
    std::vector<StudioBone> bones;
    std::vector<StudioController> controllers;
    std::vector<StudioSequence> sequences;
    std::vector<std::string> sequence_group_names; // group g's file as the model names it
    std::vector<StudioBodyPart> body_parts;
    std::vector<StudioTexture> textures; // empty: they are in the "T" file
    uint32_t skin_refs = 0;
    std::vector<std::vector<uint16_t>> skin_families; // each skin_refs texture indices
    // The idle (first) sequence sampled: frames[f][bone], frame_time seconds each (filled by
    // decodeStudioAnimation; empty: the bones' rest values).
    std::vector<std::vector<StudioBoneFrame>> frames;
    float frame_time = 0.1f;
    uint32_t frames_sequence = 0; // the sequence `frames` samples
};

// Parses a studio model. Errors (lump "studio.<part>", index the record): UnknownFormat (not
// "IDST"), UnsupportedVersion (not 10), Truncated (a record or run past the end), BadValue (a
// negative count, a bone whose parent is not an earlier bone, a texture side outside
// 1..kMaxPalettedDimension), LimitExceeded (past kMaxStudio*), IndexOutOfRange (a corner's
// vertex or normal, a skin's texture, a mesh's skinref, a bone's controller).
core::Result<StudioModel> parseStudio(std::span<const uint8_t> data);

// Takes the textures and skins of `texture_file` (the "T" model, itself a studio header) into
// `model`. Errors as parseStudio's.
core::Status loadStudioTextures(StudioModel& model, std::span<const uint8_t> texture_file);

// Decodes the animation of sequence `sequence` from `data` (the model file for group 0, the
// group's "IDSQ" file otherwise) into model.frames: up to kMaxStudioPoses frames, evenly
// spaced when the sequence has more, shown 1 / fps seconds each (stretched likewise).
// Errors (lump "studio.anim", index the bone): Truncated, IndexOutOfRange (no such sequence).
core::Status decodeStudioAnimation(StudioModel& model, uint32_t sequence,
                                   std::span<const uint8_t> data);

// Files a studio model may need beside itself: "<path without .mdl>T.mdl" and
// "<path without .mdl>0<g>.mdl" (group g, two digits as studiomdl writes them).
std::string studioTextureFilePath(std::string_view path);
std::string studioSequenceGroupPath(std::string_view path, uint32_t group);

// The bone matrices (3x4, row-major: rotation | translation) of one frame, each concatenated
// with its parent's (R_StudioSetupBones: the angles become a quaternion, AngleQuaternion, then
// a matrix, QuaternionMatrix).
std::vector<std::array<float, 12>> studioBoneTransforms(std::span<const StudioBone> bones,
                                                        std::span<const StudioBoneFrame> frame);

// Which model of each body part an entity's "body" value shows: (body / base) % nummodels
// (HLSDK utils/mdlviewer/studio_render.cpp SetBodygroup decomposes the value so; Xash3D
// gl_studio.c R_StudioSetupModel reads it back). A negative body counts as 0, a base below 1 as
// 1. Parts without models give 0.
std::vector<uint32_t> studioBodyModels(const StudioModel& model, int32_t body);

// The controller bytes CBaseAnimating::InitBoneControllers leaves (HLSDK dlls/animating.cpp:
// SetController, dlls/animation.cpp, with the value 0 for controllers 0..3): per controller the
// model has, 255 * (0 - start) / (end - start) clamped to 0..255, a rotation's 0 first brought
// within 180 degrees of the range's middle (or into 0..360 when the range spans a full turn)
// and negated when end < start. Bytes no controller of the model uses stay 0.
StudioControllerSettings studioInitControllers(const StudioModel& model);

// Each controller's adjustment for the settings (Xash3D FWGS ref/gl/gl_studio.c
// R_StudioCalcBoneAdj with no blend from the previous settings and the mouth closed): a
// looping (kStudioRLoop) controller gives setting * 360 / 256 + start, another
// start + (end - start) * setting / 255, the mouth start; rotations (kStudioXR..ZR) in radians,
// translations in units, other types 0. R_StudioCalcBoneQuaternion / R_StudioCalcBonePosition
// add it to every bone axis the controller moves, after the animation.
std::vector<float> studioControllerAdjustments(const StudioModel& model,
                                               const StudioControllerSettings& settings);

// The drawn mesh: the model `body` chooses in every body part (studioBodyModels), each frame of
// model.frames one pose (the rest pose when there are none), vertices moved by their bone, normals
// turned by it. The textures of a skin family are stacked into one image (each slot as large as
// family 0's texture; texture coordinates s / width, t / height as the engines use them, which wrap
// within the slot only when they lie in 0..1); kStudioFullbright textures are marked fullbright.
// Every mesh becomes a draw range (ModelMesh::ranges; ModelMesh::skin_ranges for a skin family
// whose textures' flags differ from family 0's) with its texture's flags: additive, masked
// (index 255 marked in the image's mask instead of fullbright texels), chrome or flat.
// The bones' controllers move their axes by studioControllerAdjustments(settings).
// `palette_table` (the game's, ModelRequest::palette_table), when given, maps each palette byte
// of the textures that are not masked: Xash3D FWGS engine/common/imagelib/img_wad.c
// Image_LoadMDL loads a skin with LUMP_TEXGAMMA, a kStudioMasked one with LUMP_MASKED (as
// stored).
ModelMesh buildStudioMesh(const StudioModel& model, int32_t body = 0,
                          const StudioControllerSettings& controllers = {},
                          const ByteTable* palette_table = nullptr);

struct ModelAsset;
struct ModelSource;

// The registry's loader for a Half-Life "IDST" (content/model/model_asset.h,
// studio_asset.cpp): parseStudio, the textures from the "T" file when the model keeps none (an
// error naming that file when it is missing, as the engine refuses such a model in
// Mod_LoadStudioModel), the sequence the request's keys choose, decoded from its group's file
// (a missing group file leaves the rest pose, as the engine shows a model it cannot animate),
// and buildStudioMesh for the keys' body and controllers. The asset's key (and its one part's
// name) adds "#body P0.P1.. sequence S" when a part's model or the sequence is not 0 and
// "#controllers C0 C1 C2 C3" when a controller byte is not 0.
// With the source's cache the file is parsed (with its "T" file) once for every request.
core::Result<ModelAsset> loadStudioAsset(const ModelSource& source);
// The key loadStudioAsset gives the source: the path and the choices its keys make in the
// model (the path alone when the model does not parse).
std::string studioAssetKey(const ModelSource& source);

} // namespace content
