// Quake 3 shader scripts (scripts/*.shader): text -> ShaderDef, GL-free.
//
// Behaviour follows ioquake3 code/renderergl1/tr_shader.c (ParseShader, ParseStage,
// ParseDeform, ParseSkyParms, ParseSort, ParseTexMod, infoParms[], FinishShader's sort
// rules, ScanAndLoadShaderFiles, FindShaderInShaderText) and the Q3 shader manual
// (Q3Radiant "Shader Manual", keyword reference). Differences, all on the tolerant side:
//   - '{' and '}' are tokens even when glued to a word ("{map"); ioquake3's COM_ParseExt
//     splits on white space only.
//   - An unknown keyword, a bad parameter or a missing brace never aborts: it becomes a
//     ShaderWarning (with its line) and parsing goes on with the next line. Where ioquake3
//     would have thrown the definition away (unknown keyword, `map` without a name, too many
//     stages, no stage at all) ShaderDef::ioq3_rejects says so.
//   - lightingDiffuse colour becomes Vertex, alphaGen portal becomes Const 1 (a viewer has
//     no entity lights or portal views); rgbGen/alphaGen entity become Identity.
//
// Safety: the text is untrusted. The tokenizer never reads past the view, runs in linear
// time, never recurses, truncates tokens at kMaxShaderTokenChars and caps shaders per script,
// stages, tcMods, deforms, animMap frames and warnings per shader.
#pragma once

#include <glm/vec3.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace content {

inline constexpr int kMaxShaderStages = 8;           // MAX_SHADER_STAGES
inline constexpr int kMaxAnimFrames = 8;             // MAX_IMAGE_ANIMATIONS
inline constexpr int kMaxTcMods = 4;                 // TR_MAX_TEXMODS
inline constexpr int kMaxDeforms = 3;                // MAX_SHADER_DEFORMS
inline constexpr size_t kMaxShaderTokenChars = 1023; // MAX_TOKEN_CHARS - 1
inline constexpr size_t kMaxShadersPerScript = 1u << 16;
inline constexpr size_t kMaxShaderWarnings = 32; // per shader and per file; more are counted

// surfaceparm names (ioquake3 infoParms[]), one bit each.
enum SurfaceParm : uint32_t {
    kParmWater = 1u << 0,
    kParmSlime = 1u << 1,
    kParmLava = 1u << 2,
    kParmPlayerClip = 1u << 3,
    kParmMonsterClip = 1u << 4,
    kParmNoDrop = 1u << 5,
    kParmNonSolid = 1u << 6,
    kParmOrigin = 1u << 7,
    kParmTrans = 1u << 8,
    kParmDetail = 1u << 9,
    kParmStructural = 1u << 10,
    kParmAreaPortal = 1u << 11,
    kParmClusterPortal = 1u << 12,
    kParmDoNotEnter = 1u << 13,
    kParmFog = 1u << 14,
    kParmSky = 1u << 15,
    kParmLightFilter = 1u << 16,
    kParmAlphaShadow = 1u << 17,
    kParmHint = 1u << 18,
    kParmSlick = 1u << 19,
    kParmNoImpact = 1u << 20,
    kParmNoMarks = 1u << 21,
    kParmLadder = 1u << 22,
    kParmNoDamage = 1u << 23,
    kParmMetalSteps = 1u << 24,
    kParmFlesh = 1u << 25,
    kParmNoSteps = 1u << 26,
    kParmNoDraw = 1u << 27,
    kParmPointLight = 1u << 28,
    kParmNoLightmap = 1u << 29,
    kParmNoDlight = 1u << 30,
    kParmDust = 1u << 31,
};
// SurfaceParm bit for a surfaceparm name (any case); 0 when unknown.
uint32_t surfaceParmFromName(std::string_view name);

// ioquake3 shaderSort_t values; `sort` may also be any number.
inline constexpr float kSortPortal = 1.0f;
inline constexpr float kSortEnvironment = 2.0f; // "sky"
inline constexpr float kSortOpaque = 3.0f;
inline constexpr float kSortDecal = 4.0f;
inline constexpr float kSortSeeThrough = 5.0f;
inline constexpr float kSortBanner = 6.0f;
inline constexpr float kSortFog = 7.0f;
inline constexpr float kSortUnderwater = 8.0f;
inline constexpr float kSortBlend0 = 9.0f;  // default for blended shaders
inline constexpr float kSortBlend1 = 10.0f; // "additive"
inline constexpr float kSortNearest = 16.0f;

enum class CullMode { Front, Back, None }; // Front: the default (back faces culled)

enum class WaveFunc { Sin, Triangle, Square, Sawtooth, InverseSawtooth, Noise };
struct Wave {
    WaveFunc func = WaveFunc::Sin;
    float base = 0.0f;
    float amplitude = 0.0f;
    float phase = 0.0f;
    float frequency = 0.0f;
};

enum class DeformKind {
    Wave,
    Normal,
    Bulge,
    Move,
    Autosprite,
    Autosprite2,
    ProjectionShadow,
    Text
};
struct Deform {
    DeformKind kind = DeformKind::Wave;
    float spread = 0.0f;       // wave: the <div> as written (ioquake3 uses 1/div; 0 -> 100)
    Wave wave;                 // wave, move; normal: amplitude and frequency only
    float bulge_width = 0.0f;  // bulge
    float bulge_height = 0.0f; // bulge
    float bulge_speed = 0.0f;  // bulge
    glm::vec3 move{0.0f};      // move
    int text_index = 0;        // text0..text7
};

struct SkyParms {
    bool present = false;
    std::string far_box;         // "env/space1" (images far_box + "_rt.tga" ...); empty for "-"
    float cloud_height = 512.0f; // 0 or missing -> 512, as ioquake3
    std::string near_box;        // empty for "-"
};

struct FogParms {
    bool present = false;
    glm::vec3 colour{0.0f};
    float distance = 0.0f; // depthForOpaque
};

enum class MapKind {
    None,     // no map keyword (ioquake3 drops such a stage)
    Texture,  // map <image>
    Clamp,    // clampMap <image>
    Animated, // animMap <frequency> <image>...
    Lightmap, // map $lightmap
    White,    // map $whiteimage
    Video,    // videoMap <cinematic> (images[0])
};

// GL-neutral blend factors (names as GL_*).
enum class BlendFactor {
    Zero,
    One,
    SrcColor,
    OneMinusSrcColor,
    DstColor,
    OneMinusDstColor,
    SrcAlpha,
    OneMinusSrcAlpha,
    DstAlpha,
    OneMinusDstAlpha,
    SrcAlphaSaturate,
};

enum class AlphaFunc { None, Gt0, Lt128, Ge128 };
enum class DepthFunc { LessEqual, Equal };

enum class RgbGen { Identity, IdentityLighting, Vertex, ExactVertex, OneMinusVertex, Wave, Const };
enum class AlphaGen { Identity, Const, Vertex, OneMinusVertex, Wave, LightingSpecular };
enum class TcGen { Base, Lightmap, Environment, Vector };

enum class TcModKind { Scroll, Scale, Rotate, Turb, Stretch, Transform, EntityTranslate };
struct TcMod {
    TcModKind kind = TcModKind::Scroll;
    float s = 0.0f; // scroll / scale: s; rotate: degrees per second
    float t = 0.0f; // scroll / scale: t
    Wave wave;      // turb (func unused), stretch
    std::array<float, 4> matrix{1.0f, 0.0f, 0.0f, 1.0f}; // transform m00 m01 m10 m11
    std::array<float, 2> translate{0.0f, 0.0f};          // transform t0 t1
};

struct ShaderStage {
    int line = 0; // line of the stage's '{'
    MapKind map = MapKind::None;
    std::vector<std::string> images; // Texture/Clamp/Video: 1; Animated: up to kMaxAnimFrames
    float anim_frequency = 0.0f;
    // Blending. blend == false means the stage replaces the framebuffer (GL_ONE GL_ZERO is
    // treated as no blending, as ioquake3 does).
    bool blend = false;
    BlendFactor src = BlendFactor::One;
    BlendFactor dst = BlendFactor::Zero;
    AlphaFunc alpha_func = AlphaFunc::None;
    bool depth_write = true; // false for blended stages unless depthWrite is given
    bool depth_write_explicit = false;
    DepthFunc depth_func = DepthFunc::LessEqual;
    RgbGen rgb_gen = RgbGen::IdentityLighting; // ioquake3's default for the stage's blend
    bool rgb_gen_explicit = false;
    Wave rgb_wave;
    glm::vec3 rgb_const{1.0f};
    AlphaGen alpha_gen = AlphaGen::Identity;
    Wave alpha_wave;
    float alpha_const = 1.0f;
    float portal_range = 0.0f;  // alphaGen portal <range> (kept for display)
    TcGen tc_gen = TcGen::Base; // default: Lightmap for $lightmap stages, Base otherwise
    std::array<glm::vec3, 2> tc_vectors{glm::vec3(0.0f), glm::vec3(0.0f)};
    std::vector<TcMod> tc_mods; // at most kMaxTcMods
    bool detail = false;
};

struct ShaderWarning {
    int line = 0;
    std::string message;
};

struct ShaderDef {
    std::string name;           // as written ("textures/base_wall/basewall01bit")
    std::string file;           // script it came from ("scripts/base_wall.shader")
    int line = 0;               // line of the name
    uint32_t surface_parms = 0; // SurfaceParm bits
    CullMode cull = CullMode::Front;
    float sort = kSortOpaque; // explicit or derived (finishShader)
    bool sort_explicit = false;
    SkyParms sky;
    FogParms fog;
    bool polygon_offset = false;
    bool no_mipmaps = false;
    bool no_picmip = false;              // also set by nomipmaps
    bool portal = false;                 // `portal` keyword
    std::vector<Deform> deforms;         // at most kMaxDeforms
    std::vector<ShaderStage> stages;     // at most kMaxShaderStages
    std::vector<ShaderWarning> warnings; // at most kMaxShaderWarnings
    size_t dropped_warnings = 0;         // beyond kMaxShaderWarnings
    bool ioq3_rejects = false;           // ioquake3 would use its default shader instead (see top)
    bool implicit = false;               // made by implicitShader, not read from a script

    bool isSky() const { return sky.present || (surface_parms & kParmSky); }
};

struct ShaderScript {
    std::string file;                    // as given to parseShaderScript
    std::vector<ShaderDef> shaders;      // in text order, duplicates included
    std::vector<ShaderWarning> warnings; // outside any definition (junk, missing '{')
    size_t dropped_warnings = 0;
    // ioquake3's pre-check (ScanAndLoadShaderFiles): every name is followed by a lone '{' and
    // every braced section closes. When false ioquake3 ignores the whole file.
    bool ioq3_file_ok = true;
};

// Parses one script. `file` is only recorded (ShaderDef::file). Never fails; hostile input
// gives warnings.
ShaderScript parseShaderScript(std::string_view text, std::string_view file);

// What a parsed definition means (q3_shader_semantics.cpp); parseShaderScript applies both.
// finishStage is ParseStage's tail: the default rgbGen for the stage's blend (when none was
// given), GL_ONE GL_ZERO as no blend, the depth mask of blended stages, the default tcGen
// (lightmap for $lightmap stages). `blend_given` / `tc_gen_given`: whether the stage had a
// blendFunc / a valid tcGen.
void finishStage(ShaderStage& stage, bool blend_given, bool tc_gen_given);
// FinishShader's sort rules (portal, sky, polygonOffset, blended stages, fog-only) into
// ShaderDef::sort, and ioq3_rejects for a definition without stages.
void finishShader(ShaderDef& def);

// The shader ioquake3 builds for a texture name without a script (R_FindShader): the lightmap
// times the texture, or for a surface without lightmap the texture times the vertex colour
// (rgbGen exactVertex, as LIGHTMAP_BY_VERTEX).
ShaderDef implicitShader(std::string_view name, bool has_lightmap);

// The image a single-texture renderer should show for the shader: the first stage with
// map/clampMap/animMap (first frame) that is not $lightmap or $whiteimage. Empty when none
// (skies, fog, lightmap-only shaders).
std::string primaryImage(const ShaderDef& def);

// bsp::SurfaceFlags the shader implies: kSurfSky (surfaceparm sky / skyParms), kSurfNoDraw
// (nodraw), kSurfFog (fog), kSurfNoCull (cull none), kSurfFullbright (nolightmap),
// kSurfAlphaTest (the first stage, or a later one when the first is not blended, has
// alphaFunc and writes depth: a cut-out drawn with the opaque world), otherwise
// kSurfTranslucent when the first stage blends (ioquake3 sorts such shaders after opaque
// ones), plus kSurfAdditive when that blend is GL_ONE GL_ONE. Liquids and scrolling are left
// to the map's own flags (the BSP's contents already mark water, slime and lava).
uint32_t surfaceFlagsOf(const ShaderDef& def);

// Human-readable lines for the overlay: "file:line name", general keywords, then one line
// per stage ("stage 1: map textures/a/b.tga | blendFunc GL_DST_COLOR GL_ZERO | rgbGen
// identity | tcMod scroll 0.5 0"), then the warnings ("warning line 12: ...").
std::vector<std::string> describeShader(const ShaderDef& def);

// Names for display ("GL_SRC_ALPHA", "sin", "identityLighting", ...).
std::string_view blendFactorName(BlendFactor f);
std::string_view waveFuncName(WaveFunc f);
std::string_view rgbGenName(RgbGen g);
std::string_view alphaGenName(AlphaGen g);
std::string_view tcGenName(TcGen g);
std::string_view tcModName(TcModKind k);
std::string_view deformName(DeformKind k);

} // namespace content
