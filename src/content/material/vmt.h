// Valve material files (.vmt): KeyValues text and the material parameters bspview uses.
//
// KeyValues (the Valve Developer Community pages "KeyValues" and "Material"; Source SDK
// tier1/KeyValues.cpp, KeyValues::LoadFromBuffer / RecursiveLoadFromBuffer): a file is a key
// followed by a block; a block holds key/value pairs and nested key/block pairs. Tokens are
// "quoted strings" (no escape sequences in material files) or unquoted runs ending at white
// space, a brace or a quote; `//` starts a comment running to the end of the line. A
// bracketed conditional after a key or a value ("$envmap" "env_cubemap" [$X360]) keeps or
// drops that entry: the terms $WIN32, $WINDOWS and $PC are true, every other ($X360, $PS3,
// $OSX, $LINUX, $POSIX, $GAMECONSOLE, ...) false, a leading '!' negates, and `||` / `&&`
// join terms left to right. Keys are compared without ASCII case (Source's keys are
// case-insensitive symbols); they are stored lower-cased.
//
// A material is one block named by its shader ("LightmappedGeneric", "WorldVertexTransition",
// "UnlitGeneric", "Water", ...). A `patch` material names another with `include` and changes
// its parameters: `insert` adds or overwrites keys, `replace` overwrites only keys the included
// material has (VDC "Patch"; materialsystem's ApplyPatchKeyValues). resolveVmt follows the
// includes (at most kMaxVmtPatchDepth) through a caller's reader, so the parser stays free of
// the file system.
//
// Safety: linear in the text, nesting limited to kMaxKeyValuesDepth, errors name the file and
// the line.
#pragma once

#include "content/material/material_proxy.h"
#include "content/material/texture_transform.h"
#include "core/result.h"

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace content {

inline constexpr int kMaxKeyValuesDepth = 64;
inline constexpr int kMaxVmtPatchDepth = 8;

struct KeyValues {
    std::string key;   // lower-cased
    std::string value; // empty for a block
    bool block = false;
    std::vector<KeyValues> children; // a block's entries, in file order

    // The last child with `key` (case-insensitive); nullptr when none. Source keeps the last
    // of repeated keys.
    const KeyValues* find(std::string_view key) const;
    KeyValues* find(std::string_view key);
};

// The first top-level key and its block (a material's shader and parameters). Errors
// (file = `name`, lump "keyvalues", field "line N"): BadValue for an unterminated string, a
// missing value or brace, text after the root block's end is ignored as Source does;
// LimitExceeded past kMaxKeyValuesDepth.
core::Result<KeyValues> parseKeyValues(std::string_view text, std::string_view name);

struct Vmt {
    std::string shader;        // lower-cased: "lightmappedgeneric", "patch", ...
    KeyValues params;          // the shader's block (keys lower-cased, "$basetexture", ...)
    std::string base_texture;  // "$basetexture", as written ("brick/brickwall031a")
    std::string base_texture2; // "$basetexture2" (WorldVertexTransition's second layer)
    // "$bumpmap": the normal map of a LightmappedGeneric / WorldVertexTransition face, whose
    // bump-lit faces weight their three directional lightmaps by it (docs/source.md
    // "Bump-mapped light"). "$ssbump": the texture holds the three weights themselves
    // (self-shadowed bump map) instead of a normal.
    std::string bump_map;
    bool ssbump = false;
    // The LightmappedGeneric family's cube-map reflection (docs/source.md "Cube-map
    // reflections"; Source SDK 2013 stdshaders/lightmappedgeneric_dx9_helper.cpp, whose
    // InitParamsLightmappedGeneric_DX9 gives the defaults): "$envmap" as written (a texture, or
    // "env_cubemap" in a material vbsp has not patched), "$envmaptint" (default [1 1 1]; "[r g b]"
    // as written, "{R G B}" over 255, a lone number for all three), "$envmapmask" (a texture
    // whose rgb scales the reflection), the flags "$basealphaenvmapmask" (1 - the base texture's
    // alpha scales it) and "$normalmapalphaenvmapmask" (the normal map's alpha), and
    // "$envmapcontrast" (0), "$envmapsaturation" (1), "$fresnelreflection" (1).
    std::string envmap;
    std::array<float, 3> envmap_tint{1.0f, 1.0f, 1.0f};
    std::string envmap_mask;
    bool base_alpha_envmap_mask = false;
    bool normalmap_alpha_envmap_mask = false;
    float envmap_contrast = 0.0f;
    float envmap_saturation = 1.0f;
    float fresnel_reflection = 1.0f;
    // The Sky shader's HDR textures (Source SDK 2013 stdshaders/sky_hdr_dx9.cpp):
    // "$hdrbasetexture" (RGBA16161616F as a rule) and "$hdrcompressedtexture" (RGBS: colour
    // times alpha times 8 in linear light); the LDR Sky_DX9 fallback draws $basetexture.
    std::string hdr_base_texture;
    std::string hdr_compressed_texture;
    bool translucent = false;
    bool alphatest = false;
    bool additive = false;
    bool selfillum = false;
    bool nocull = false;
    // $alphatestreference: texels with alpha below it are cut out (VDC "$alphatest": 0.5 when
    // absent).
    float alphatest_reference = 0.5f;
    // Water's $fogcolor in 0..1: "{R G B}" in 0..255 or "[r g b]" in 0..1 (VDC "Material"
    // vectors and colours); has_fog_colour false when absent or unreadable.
    std::array<float, 3> fog_colour{0.0f, 0.0f, 0.0f};
    bool has_fog_colour = false;
    std::string include; // a patch material's `include` ("materials/x.vmt"); else empty

    // $basetexturetransform and $bumptransform (texture_transform.h; identity when absent or
    // unreadable, as the engine leaves a matrix var it cannot read at its default), and the
    // TextureScroll proxies of the `Proxies` block aimed at either (the last one per var wins:
    // proxies bind in file order, each overwriting the var).
    TextureMotion motion;
    // The AnimatedTexture proxies of the `Proxies` block (texture_transform.h) that play the
    // base texture's frames (animatedtexturevar $basetexture, animatedtextureframenumvar $frame)
    // and the normal map's ($bumpmap, or $normalmap for Water, with $bumpframe), the last one
    // of each kept. `frame` and `bump_frame`: $frame and $bumpframe ("0"), the frames the shaders
    // bind when no proxy sets them (lightmappedgeneric_dx9_helper.cpp BindTexture with
    // m_nBaseTextureFrame and m_nBumpFrame; water.cpp with BUMPFRAME).
    AnimatedTexture base_animation;
    AnimatedTexture bump_animation;
    int frame = 0;
    int bump_frame = 0;
    // The number proxies of the `Proxies` block (material_proxy.h: Sine, LinearRamp, the
    // arithmetic ones, TextureTransform, ...) in file order, with the vars they use; empty when
    // none. `undrawn_proxy_vars`: the vars its proxies write that nothing drawn reads
    // ("$selfillumtint", a var no later proxy reads), once each.
    MaterialProxies proxies;
    std::vector<std::string> undrawn_proxy_vars;
    // Proxies of the `Proxies` block bspview does not evaluate (their names as written, lower
    // case, once each: "animatedtexture", "texturescroll" aimed at another var, ...); what they
    // animate stays still.
    std::vector<std::string> unevaluated_proxies;
    // Values that could not be read, each naming the file, the key and the value and saying
    // what is used instead ("materials/x.vmt: $basetexturetransform 'center 1': ...").
    std::vector<std::string> warnings;

    // The Water shader's parameters (set for every material; meaningful when shader is
    // "water"). Defaults are those of Source SDK 2013 stdshaders/water.cpp: its
    // BEGIN_SHADER_PARAMS declarations and SHADER_INIT_PARAMS (which fills undefined ones).
    struct Water {
        // $fogcolor as above; water.cpp SHADER_INIT_PARAMS sets red [1 0 0] (and warns) when
        // it is absent.
        std::array<float, 3> fog_colour{1.0f, 0.0f, 0.0f};
        // $fogstart / $fogend: the depth fog's linear ramp in units (water_ps2x_helper.h
        // WaterPixelShader_Helper: saturate((projected z - start) / (end - start))). No
        // default in water.cpp: an undefined float reads 0.
        float fog_start = 0.0f;
        float fog_end = 0.0f;
        std::array<float, 3> reflect_tint{1.0f, 1.0f, 1.0f}; // $reflecttint, "[1 1 1]"
        std::array<float, 3> refract_tint{1.0f, 1.0f, 1.0f}; // $refracttint, "[1 1 1]"
        float reflect_amount = 0.8f;                         // $reflectamount, "0.8"
        float refract_amount = 0.0f;                         // $refractamount, "0"
        // $normalmap: declared default "dev/water_normal"; has_normal_map says the material
        // names one (water.cpp loads it only when defined).
        std::string normal_map = "dev/water_normal";
        bool has_normal_map = false;
        int bump_frame = 0; // $bumpframe, "0"
        // $bottommaterial: the material drawn on the water's underside (read by the engine,
        // not by water.cpp); empty when absent.
        std::string bottom_material;
        float cheap_start = 500.0f; // $cheapwaterstartdistance (SHADER_INIT_PARAMS: 500)
        float cheap_end = 1000.0f;  // $cheapwaterenddistance (SHADER_INIT_PARAMS: 1000)
        // $envmap: declared default "env_cubemap" (the map's nearest cubemap); has_envmap
        // says the material names one.
        std::string envmap = "env_cubemap";
        bool has_envmap = false;
        bool force_cheap = false; // $forcecheap
        // $forceexpensive: SHADER_INIT_PARAMS sets 1 when undefined (PC), and clears it when
        // $forcecheap is also set.
        bool force_expensive = true;
        // $reflecttexture / $refracttexture named: the expensive path's render targets
        // (declared defaults "_rt_WaterReflection" / "_rt_WaterRefraction").
        bool has_reflect_texture = false;
        bool has_refract_texture = false;
        // $nofresnel ("0"): the cheap path's FRESNEL combo off (water.cpp DrawCheapWater), its
        // reflection then weighted by $reflectblendfactor ("1.0"; SHADER_INIT_PARAMS sets 1
        // when undefined), which WaterCheap_ps2x.fxc reads as g_ReflectTint.a.
        bool no_fresnel = false;
        float reflect_blend_factor = 1.0f;
        std::array<float, 2> scale{1.0f, 1.0f}; // $scale, "[1 1]"
        // $abovewater: SHADER_INIT_PARAMS sets 1 (and warns) when undefined.
        bool above_water = true;
        bool has_above_water = false;
    } water;
};

// The shader draws its texture without light: UnlitGeneric and UnlitTwoTexture (VDC
// "UnlitGeneric", "UnlitTwoTexture") and Sky. VertexLitGeneric (models) and LightmappedGeneric
// (world) are lit.
bool vmtUnlit(const Vmt& vmt);

// Parses one file. A patch material comes back with shader "patch", `include` set and its
// insert/replace blocks in params; resolveVmt applies them.
core::Result<Vmt> parseVmt(std::string_view text, std::string_view name);

// The text of a virtual path ("materials/brick/wall.vmt"), or nullopt when absent.
using VmtReader = std::function<std::optional<std::string>(std::string_view path)>;

// Reads `path` through `read` and follows patch includes. Errors: NotFound (the file or an
// include), LimitExceeded (more than kMaxVmtPatchDepth includes, or a cycle), and parseVmt's.
core::Result<Vmt> resolveVmt(std::string_view path, const VmtReader& read);

// "brick/Wall01" -> "materials/brick/wall01.vtf" (backslashes turned, ".vtf" not doubled).
std::string vtfPathOf(std::string_view texture);
// "BRICK/Wall01" -> "materials/brick/wall01.vmt".
std::string vmtPathOf(std::string_view material);

} // namespace content
