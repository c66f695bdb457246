// Source cube-map samples (VBSP lump 42 "cubemaps"): where the map's env_cubemap entities
// stood, each the place a cube map of the surroundings was (or will be) rendered from. Source
// SDK 2013 public/bspfile.h dcubemapsample_t: three ints (the origin, truncated to whole units
// by vbsp's Cubemap_InsertSample, utils/vbsp/cubemap.cpp) and an unsigned char `size`, 0 for
// the engine's default or a side of 1 << (size - 1) texels, padded to 16 bytes. The engine reads
// the lump in Mod_LoadCubemapSamples (engine/modelloader.cpp, which stops the map with "funny
// lump size" when it is not whole records) and names each sample's texture
// materials/maps/<map>/c<x>_<y>_<z>.vtf; vbsp's cubemap.cpp writes those (a copy of the sky box
// until the engine's buildcubemaps replaces them) into the pakfile and patches each
// `$envmap env_cubemap` material of a brush side into maps/<map>/<material>_<x>_<y>_<z> naming
// the nearest sample's texture. GL-free and Map-free.
#pragma once

#include "core/result.h"

#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

namespace bsp {

struct CubeMapSample {
    glm::ivec3 origin{0};
    // 0: the engine's default size; else the cube's side is 1 << (size - 1) texels.
    uint8_t size = 0;
};

inline constexpr uint64_t kCubeMapSampleBytes = 16;  // sizeof(dcubemapsample_t), padding included
inline constexpr uint64_t kMaxCubeMapSamples = 1024; // MAX_MAP_CUBEMAPSAMPLES (bspfile.h)
// The largest `size` read: a side of 1 << 15 texels, far beyond any cube map a game builds.
inline constexpr uint8_t kMaxCubeMapSizeField = 16;

// The samples of one cubemaps lump. Errors name the lump ("cubemaps") and, for a record, its
// index: LumpSize (not whole 16-byte records), LimitExceeded (more than kMaxCubeMapSamples),
// BadValue (a size field above kMaxCubeMapSizeField). The parser turns an error into a warning
// and keeps no samples; the map still opens.
core::Result<std::vector<CubeMapSample>> parseCubeMapSamples(std::span<const uint8_t> lump);

} // namespace bsp
