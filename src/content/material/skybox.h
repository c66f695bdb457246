// Sky boxes as data: the six face images a map's worldspawn names, decoded without GL.
//
// Base names come from game::GameProfile::skybox ("env/night1", "gfx/env/desert"); each face is the
// base plus a suffix, tried as .tga, then .pcx, then .jpg and .png (Quake 2 ships .tga and
// .pcx, Half-Life and quakespasm .tga).
//
// Face order and orientation, as yquake2 (src/client/refresh/gl3/gl3_warp.c: suf[],
// skytexorder[], st_to_vec[]) and quakespasm (gl_sky.c) draw them, in the games' axes (+Z up):
//   faces[0] "rt" looks along +X    faces[1] "bk" looks along +Y
//   faces[2] "lf" looks along -X    faces[3] "ft" looks along -Y
//   faces[4] "up" looks along +Z    faces[5] "dn" looks along -Z
// Each image is the view from the centre of the box in that direction, not mirrored: for the
// four side faces the image's top row is +Z and its right edge turns toward the next face
// clockwise seen from above (rt: right = -Y, bk: right = +X, lf: right = +Y, ft: right = -X).
// "up" has -X at its top and -Y at its right (the view when pitching up from facing +X);
// "dn" has +X at its top and -Y at its right. How far inside a face's edges each engine samples
// it, to hide the seams between faces, is the game's rule (game::SkyBoxEdge).
#pragma once

#include "bsp/map.h"
#include "content/image/image.h"
#include "content/vfs/vfs.h"
#include "game/profile.h"

#include <glm/mat3x3.hpp>
#include <glm/vec3.hpp>

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace content {

inline constexpr std::array<std::string_view, 6> kSkyFaceSuffixes = {"rt", "bk", "lf",
                                                                     "ft", "up", "dn"};

// Quake 2 sky rotation: worldspawn "skyrotate" (degrees per second) and "skyaxis" reach the
// client as configstrings and ref_gl R_SetSky / R_DrawSkyBox turns the box by
// time * skyrotate degrees about skyaxis before drawing it (yquake2 RI_SetSky does the same).
// The game leaves skyaxis (0 0 0) when the map does not set it; a zero axis is taken as +Z.
struct SkyRotation {
    float degrees_per_second = 0.0f;  // 0: a still sky
    glm::vec3 axis{0.0f, 0.0f, 1.0f}; // unit length

    bool rotating() const { return degrees_per_second != 0.0f; }
    // The box's orientation at `seconds`: box-to-world rotation by seconds * rate degrees about
    // the axis (angle reduced modulo 360 in double precision, so long sessions stay smooth).
    glm::mat3 orientation(double seconds) const;
};

// From the worldspawn key values ("skyrotate", "skyaxis"; either may be empty). Unparsable or
// non-finite values give a still sky; a zero-length axis gives +Z.
SkyRotation parseSkyRotation(std::string_view skyrotate, std::string_view skyaxis);

struct SkyBox {
    std::string base;                   // as asked for ("env/night1")
    std::array<Image, 6> faces;         // kSkyFaceSuffixes order
    std::array<std::string, 6> sources; // virtual path each face came from ("env/night1rt.tga")
    SkyRotation rotation;               // set by the map loader from worldspawn
    // The faces repeat past their edges (the half texel inside each edge blends with the
    // opposite one) rather than clamp: a game's stand-in image drawn as a wall texture
    // (game::SkyFallback).
    bool repeat = false;
};

// A box whose six faces are `size` x `size` RGBA8 `texels` (game::SkyFallback::face), named
// `base` ("fallback"), repeating; nullopt when the size and the bytes disagree.
std::optional<SkyBox> fallbackSkyBox(std::string base, int32_t size,
                                     const std::vector<uint8_t>& texels);

// All six faces, or nullopt when `base` is empty or any face is missing or does not decode
// (a half sky is not drawn; `why`, when given, says which face and why). Faces need not share
// a size.
//
// `files` says where a face's pixels are (game::MaterialSource::files):
// - Images: the image files above.
// - ValveMaterials (Source): each face is the material `base` + suffix, that is
//   materials/skybox/NAMErt.vmt ... (engine/gl_warp.cpp R_LoadNamedSkys asks the material
//   system for "skybox/<skyname><suffix>" with Quake 2's suffixes, and draws them with Quake
//   2's st_to_vec, skytexorder and flipped t in MakeSkyVec: the orientation above). Patch
//   materials are followed. The face is $basetexture's VTF (the Sky shader's LDR path,
//   Sky_DX9); a material with none falls back to $hdrbasetexture (RGBA16161616F clamped to
//   0..1 by the VTF decoder), then to $hdrcompressedtexture (RGBS: linear colour =
//   rgb * a * 8, stdshaders/sky_hdr_dx9.cpp; clamped to 1 and written with the sRGB curve,
//   as the shader's sRGB write does at tone-map scale 1).
//
// `decoded` (Images only): faces decoded before, by virtual path (the texture cache keeps a
// map's sky faces between runs, scene/load/drawable_world.cpp): a candidate file found there is
// moved out of it instead of being read and decoded. The caller vouches that the search paths
// are the ones those faces came from (the cache key names every source).
using DecodedImages = std::map<std::string, Image, std::less<>>;
std::optional<SkyBox> loadSkyBox(const FileSystem& fs, std::string_view base,
                                 game::MaterialFiles files = game::MaterialFiles::Images,
                                 std::string* why = nullptr, DecodedImages* decoded = nullptr);

// One RGBS texel of a $hdrcompressedtexture to the 8-bit colour drawn: each of r, g, b is
// (c / 255) * (a / 255) * 8 in linear light, clamped to 1 and encoded with the sRGB curve,
// rounded; alpha becomes 255.
std::array<uint8_t, 4> decodeRgbsTexel(std::array<uint8_t, 4> rgbs);

} // namespace content
