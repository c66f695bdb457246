// Sky boxes as data: the six face images a map's worldspawn names, decoded without GL.
//
// Base names come from bsp::Map::skybox ("env/night1", "gfx/env/desert"); each face is the
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
// "dn" has +X at its top and -Y at its right. The engines clamp texture coordinates to
// [1/512, 511/512] to hide seams between faces.
#pragma once

#include "content/image.h"
#include "content/vfs.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace content {

inline constexpr std::array<std::string_view, 6> kSkyFaceSuffixes = {"rt", "bk", "lf",
                                                                     "ft", "up", "dn"};

struct SkyBox {
    std::string base;                   // as asked for ("env/night1")
    std::array<Image, 6> faces;         // kSkyFaceSuffixes order
    std::array<std::string, 6> sources; // virtual path each face came from ("env/night1rt.tga")
};

// All six faces, or nullopt when `base` is empty or any face is missing or does not decode
// (a half sky is not drawn). Faces need not share a size.
std::optional<SkyBox> loadSkyBox(const FileSystem& fs, std::string_view base);

} // namespace content
