// The parsers' untrusted-input entry points in one shape, shared by the libFuzzer targets
// (fuzz/fuzz_*.cpp), the regression replay test and the mutation tests (tests/robust/).
//
// Each entry feeds bytes to one parser and, when the parser accepts them, runs what a viewer
// would run next on the result (mesh building and visibility for maps, member reads for
// archives, spawn lookup for entities), because code after a parser trusts what the parser
// accepted: that is where hostile-but-accepted data crashes. The entry then checks the
// contract: a rejection is a core::Error with a code other than Ok and a non-empty message;
// an accepted result satisfies the invariants the downstream code relies on.
#pragma once

#include "bsp/map.h"
#include "core/error.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace fuzz {

struct Outcome {
    bool accepted = false;
    core::Error error;     // when !accepted
    std::string violation; // non-empty: the contract was broken (a bug), says how
};

// Any supported BSP (detected from its header). `lit` is an optional Quake 1 .lit companion.
Outcome runLoadMap(std::span<const uint8_t> data);
Outcome runLoadMapWithLit(std::span<const uint8_t> data, std::span<const uint8_t> lit);
// A Quake .pak or a .pk3 (zip), written to a temporary file and opened with
// content::FileSystem::addArchive; every member up to a small size is read back.
Outcome runArchive(std::span<const uint8_t> data);
// content::decodeImage (stb_image: TGA, JPEG, PNG, ...).
Outcome runImage(std::span<const uint8_t> data);
// q3map2 external lightmaps: the bytes as maps/fuzz/lm_0001.tga between a valid 4x4 lm_0000
// and lm_0002, read by scene::loadLightmapSet for a map whose faces name pages 0, 1 and 2
// (a temporary folder). Never rejected: a bad image is a warning and vertex colours.
Outcome runExternalLightmap(std::span<const uint8_t> data);
// core::TextScanner over the bytes with every combination of the options the text formats use
// (comments, quotes ending at the text or the line, brackets, blanks and punctuation), through
// peek/next and through the other calls mixed in. Never rejected; each token must lie in the
// text after the one before it, hold what its kind allows (no closing byte inside, a word not
// empty, punctuation the syntax lists), be flagged unterminated only when its quote or bracket
// runs to the end (or the line), and name the line it starts on; the End comes once.
Outcome runTextScanner(std::span<const uint8_t> data);
// bsp::parseEntities on the bytes as text, then bsp::findSpawnPoints.
Outcome runEntities(std::span<const uint8_t> data);
// content::decodeTextureCache on the bytes as an entry's body (content::wrapTextureCacheBody):
// what bspview reads back from its texture cache folder, which anything can write to.
Outcome runTextureCache(std::span<const uint8_t> data);

// content::parseLeakFile on the bytes as text (.pts / .lin), then the leak overlay's geometry
// and the camera at every stop (scene/debug/compile_overlays.h).
Outcome runLeakFile(std::span<const uint8_t> data);
// content::parsePortalFile on the bytes as text (.prt, every form), then the portal overlay's
// geometry.
Outcome runPortalFile(std::span<const uint8_t> data);
// scene::parseCameraText on the bytes as text (what a user pastes into the go-to field), then
// applyCameraText and every formatCameraText; an accepted string gives a finite camera whose
// pitch is within -89..89, and bspview's own format of it reads back to the same position.
Outcome runCameraText(std::span<const uint8_t> data);
// content::parseSteamLibraryFolders on the bytes as a libraryfolders.vdf; an accepted file lists
// at most kMaxSteamLibraries distinct, non-empty folders.
Outcome runSteamLibrary(std::span<const uint8_t> data);
// physics::parseWalkScript on the bytes as text (--walk-script); an accepted script has
// non-negative tick counts, finite turns and at most kMaxWalkTicks in all.
Outcome runWalkScript(std::span<const uint8_t> data);

// content::decodeMdl (Quake 1 .mdl) with the Quake palette; an accepted mesh has every index
// inside its vertices, a position and normal per pose and vertex, finite texture coordinates,
// frames and skins whose runs lie inside the poses and images, and images of their size.
Outcome runMdl(std::span<const uint8_t> data);
// content::decodeSprite (Quake 1 / Half-Life .spr); an accepted sprite has frames whose runs lie
// inside its pictures and pictures of their size.
Outcome runSprite(std::span<const uint8_t> data);
// content::decodeMd2 (Quake 2 .md2), then attachPcxSkins from an empty file system (every skin
// a checker); an accepted mesh meets runMdl's checks.
Outcome runMd2(std::span<const uint8_t> data);
// content::parseSp2 (Quake 2 .sp2), then buildSp2Sprite from an empty file system (every
// picture transparent); an accepted sprite meets runSprite's checks.
Outcome runSp2(std::span<const uint8_t> data);

// content::decodeMd3 (Quake 3 .md3); an accepted model has every surface's index inside its
// vertices, a position and normal per frame and vertex, finite texture coordinates, one pose
// per frame in each surface and numFrames * numTags tags.
Outcome runMd3(std::span<const uint8_t> data);
// content::parseSkin (Quake 3 .skin), then findSkinSurface for the first surface; an accepted
// skin has at most content::kMaxSkinSurfaces surfaces, each with a lower-case name of 1 to
// kMaxSkinName bytes and a shader of at most kMaxSkinName bytes on a line within the text.
Outcome runSkin(std::span<const uint8_t> data);
// content::parseStudio (Half-Life .mdl), then the same bytes as its "T" texture file when it has
// no textures and as the animation of its first sequence, then content::buildStudioMesh for
// body 0 and for a body value from the bytes' length; an accepted mesh keeps runMdl's contract,
// has at most content::kMaxStudioPoses poses and its draw ranges lie within its indices.
Outcome runStudio(std::span<const uint8_t> data);

// scene::loadBrushModel (a Quake 1 item box, maps/b_*.bsp, scene/load/brush_model.h) with an empty
// file system, drawn in a lit map: the map parser, then textures, lightmap set, mesh and the draw
// list of model 0. An accepted model's draw list names faces of its mesh and index ranges inside
// its indices.
Outcome runBrushModel(std::span<const uint8_t> data);

// content::loadModelAsset (the model registry) on the bytes as models/fuzz.mdl in a temporary
// folder, where its companions (the "T" file models/fuzzT.mdl, the sequence group
// models/fuzz01.mdl, the .skin models/fuzz.mdl_1.skin) are the same bytes, with a skin key and
// Half-Life studio keys taken from the bytes' length: whichever decoder the magic picks, with the
// files it reads beside the model. An accepted asset has parts, each a mesh meeting runMdl's
// contract, a sprite meeting runSprite's or an error; a brush asset has a map with a model 0
// meeting checkMapInvariants.
Outcome runModelAsset(std::span<const uint8_t> data);

// content::decodeVtf (Source .vtf); an accepted image is valid (rgba of width * height texels)
// and no side exceeds content::kMaxImageDimension. The same bytes through
// content::decodeVtfCubeFaces: an accepted cube's six faces are valid and as large as the image,
// which is square.
Outcome runVtf(std::span<const uint8_t> data);
// content::parseVmt on the bytes as text, then content::resolveVmt with every path reading the
// same text (a patch includes itself until the depth limit); an accepted material has a block
// of parameters nested no deeper than content::kMaxKeyValuesDepth.
Outcome runVmt(std::span<const uint8_t> data);
// content::parseVpkDirectory on the bytes as a NAME_dir.vpk; an accepted directory keeps every
// preload range inside its tree and every directory-file entry inside its data section. Then
// the bytes are mounted through content::FileSystem beside a 64-byte NAME_000.vpk (temporary
// files) and every member up to 64 is read back.
Outcome runVpk(std::span<const uint8_t> data);

// Source studio models (content/model/): content::parseSourceMdl, then companions made to fit
// (a .vvd holding every mesh's vertices, a .vtx of one LOD of triangle fans) joined by
// content::assembleSourceModel, which must accept them; content::parseVvd with a one-mesh .mdl
// and .vtx over its vertices; content::parseVtx with an .mdl and .vvd of its shape (refused
// only when its LODs' mesh counts differ). Every built mesh (body 0 and one from the bytes'
// length, each LOD and one past the last) has one pose, per-vertex arrays of vertex_count,
// indices inside them, draw ranges covering the indices in order with slots inside the skin
// table, one material per texture and skins naming materials. Companions of more than 65536
// vertices are not built.
Outcome runSourceMdl(std::span<const uint8_t> data);
Outcome runVvd(std::span<const uint8_t> data);
Outcome runVtx(std::span<const uint8_t> data);
// content::parseVhv (static prop vertex lighting); an accepted file's meshes hold the header's
// vertex count.
Outcome runVhv(std::span<const uint8_t> data);
// The Source prop lumps (bsp/source_props.h): byte 0 modulo 3 picks sprp, dprp or the leaf
// ambient lumps, bytes 1-2 are the version (for the ambient lumps: the low byte times 4 is the
// index lump's length, bit 8 the HDR set, the rest a coordinate for bsp::ambientCubeAt), the
// rest the lump. Accepted props name models, sprites and leaves inside their tables.
Outcome runPropLumps(std::span<const uint8_t> data);
// bsp::parseWorldLights (the worldlights lumps): byte 0's bit 0 is the lump version, bit 1 the
// HDR lump, the rest the lump. Accepted lights are whole records of valid emit types with
// finite numbers and, for point and spot lights, some attenuation.
Outcome runWorldLights(std::span<const uint8_t> data);
// bsp::parseCubeMapSamples (the cubemaps lump, all of the input). Accepted samples are the
// lump's whole 16-byte records, at most MAX_MAP_CUBEMAPSAMPLES, each size field in range.
Outcome runCubeMaps(std::span<const uint8_t> data);
// bsp::parseOverlays (the overlays lump; byte 0 is the lump version, byte 1 a count K, then K
// 8-byte records of the overlay fades lump, the rest the overlays lump), bsp::readOverlayFades,
// then bsp::buildOverlayFaces on a 128-unit floor of two faces in two leaves. Accepted overlays
// make fragments with finite vertices within a unit of the floor (lifted by overlayLift),
// indices inside the map's vertices, leaf lists that name only faces the map has, and
// accepted fades carried to their fragments.
Outcome runOverlays(std::span<const uint8_t> data);
// Source's tone map settings (game/source.cpp: env_tonemap_controller inputs fired by a
// logic_auto's outputs at spawn): the bytes as an entity lump (bsp::parseEntities) of a Source
// map drawing HDR lighting, through game::profileFor. Never rejected; the settings are finite,
// the scale and rate at least 0, 0 < auto_min <= auto_max, their source the defaults or a
// controller (only when the map has one), and the controller count that of the map's.
Outcome runToneMap(std::span<const uint8_t> data);
// Source's fog rules (game/source.cpp: the master env_fog_controller's fog and farz): the bytes
// as the entity lump of a Source map, through game::profileFor. Never rejected; the far plane
// is finite and at least 0, above 0 only when the map has a fog controller, the fog's numbers
// finite and its colours within 0..1, and every warning names the farz key of an
// env_fog_controller by its entity index.
Outcome runFogController(std::span<const uint8_t> data);
// The Source prop invariants of a map (static and detail props inside their tables, ambient
// index entries inside the samples and leaves); empty when they hold. checkMapInvariants
// calls it.
std::string checkSourcePropInvariants(const bsp::Map& map);

// Invariants of an accepted map that scene/ and render/ rely on (every range and index inside
// its array). Empty when they hold, else the first broken one.
std::string checkMapInvariants(const bsp::Map& map);

// What the mutation test expects of a target's mutants (fuzz/targets.def).
enum class Expect : uint8_t {
    Rejects, // at least one is rejected
    Accepts, // every one is accepted (the parser never rejects)
    Any,     // nothing beyond the contract
};

// One row of fuzz/targets.def.
struct Target {
    const char* name; // folder name under fuzz/regressions/ and the fuzzer's suffix
    Outcome (*run)(std::span<const uint8_t>);
    int header_bytes; // the mutation test's header flips stay within these
    int flips;        // mutants with random flips
    Expect expect;
    const char* inputs; // seed and mutation sources, '|' between them (see targets.def)
};
// Every target, in fuzz/targets.def's order: the replay test, the mutation test. A new
// decoder adds its entry point above and a row to targets.def.
std::span<const Target> targets();

} // namespace fuzz
