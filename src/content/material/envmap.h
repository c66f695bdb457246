// Source's cube-map reflections on world surfaces ($envmap, docs/source.md "Cube-map
// reflections"): which cube a LightmappedGeneric material reflects, what masks it and the
// numbers its pixel shader runs with, into content::TextureInfo (envmap, envmap_mask,
// envmap_shading; textures.h says what they mean to a renderer).
//
// Rules, from the Source SDK 2013 (stdshaders/lightmappedgeneric_dx9_helper.cpp,
// lightmappedgeneric_ps2_3_x.h; utils/vbsp/cubemap.cpp):
// - The LightmappedGeneric family (LightmappedGeneric, WorldVertexTransition, which share that
//   helper) and Water are read here; $envmap on another shader is named in envmap_error. For
//   Water the cube is the environment of the cheap water's reflection (water.cpp DrawCheapWater
//   binds $envmap to WaterCheap_ps2x.fxc's EnvmapSampler): no mask, and EnvMapShading's numbers
//   are the defaults, unused (content::WaterShading says how water mixes it).
// - "$envmap env_cubemap" in game: InitParamsLightmappedGeneric_DX9 warns "env_cubemap used on
//   world geometry without rebuilding map" and drops the parameter, so such a face reflects
//   nothing. vbsp resolves env_cubemap at compile time instead: Cubemap_FindClosestCubemap picks
//   for each brush side the nearest sample in front of its plane (else the nearest) to the
//   centre of its winding, and PatchEnvmapForMaterialAndDependents writes a patch material
//   maps/<map>/<material>_<x>_<y>_<z> whose $envmap is maps/<map>/c<x>_<y>_<z>, packed into
//   the pakfile with that cube's .vtf. A compiled map's faces name those patch materials, which
//   resolveVmt follows, so the cube is the material's own texture here.
// - The cube is materials/<$envmap>.vtf, else its .hdr.vtf (vbsp writes both names; a map
//   compiled for HDR only may hold only the second), decoded by decodeVtfCubeFaces.
// - Mask: with a $bumpmap, $envmapmask is dropped (InitParams) and $normalmapalphaenvmapmask
//   takes the normal map's alpha; else $envmapmask's rgb; else $basealphaenvmapmask takes
//   1 - the base alpha, when the base .vtf has alpha (its ONEBITALPHA or EIGHTBITALPHA flag:
//   InitLightmappedGeneric_DX9 clears the flag for an opaque texture) and the material is not
//   $selfillum (the combos exclude both); that material is then not alpha-tested (its alpha is
//   the mask).
#pragma once

#include "content/material/textures.h"
#include "content/material/vmt.h"
#include "content/vfs/vfs.h"

#include <span>
#include <string>
#include <string_view>

namespace content {

// The numbers LightmappedGeneric's pixel shader runs a material's reflection with
// (DrawLightmappedGeneric_DX9_Internal): the slow path when $envmapcontrast is neither 0 nor 1
// while $envmapsaturation is not 1, or when $fresnelreflection is not 1, with the numbers as
// written; else the fast path (FASTPATH): contrast 1 when $envmapcontrast is exactly 1, else 0
// (FASTPATHENVMAPCONTRAST), saturation and fresnel 1. The tint as written, `mask` as given;
// enabled false (loadEnvMap sets it with the cube).
EnvMapShading envMapShading(const Vmt& vmt, EnvMapMask mask);

// Fills info's envmap fields from `vmt` (the resolved material `material`, whose $basetexture is
// `base_vtf`; info.bump already loaded). On any failure the fields stay empty and
// info.envmap_error names the material and says why.
void loadEnvMap(const FileSystem& fs, std::string_view material, const Vmt& vmt,
                std::string_view base_vtf, TextureInfo& info);

// One warning for a map's materials whose $envmap is not drawn (TextureInfo::envmap_error): how
// many, and the first three reasons; empty when none.
std::string envMapWarning(std::span<const TextureInfo> textures);

} // namespace content
