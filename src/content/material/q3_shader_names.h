// The words of the Quake 3 shader language, one table per enum of q3_shader.h. The parser
// reads names through these tables (q3_shader_parse.cpp) and the display text writes them
// back from the same tables (q3_shader_text.cpp), so a name is spelled once.
//
// A value may have several names (aliases ioquake3 accepts: "cull twosided", "tcGen
// texture"); the first entry of a value is the one written back. Lookups ignore ASCII case,
// as ioquake3's Q_stricmp. Names are ioquake3's (code/renderergl1/tr_shader.c) and the
// Q3 shader manual's spelling.
#pragma once

#include "content/material/q3_shader.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace content {

constexpr char lowerAscii(char c) {
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

constexpr bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size())
        return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (lowerAscii(a[i]) != lowerAscii(b[i]))
            return false;
    return true;
}

template <typename E> struct ShaderName {
    std::string_view name;
    E value;
};

// surfaceparm <name> (ioquake3 infoParms[]).
inline constexpr ShaderName<uint32_t> kSurfaceParmNames[] = {
    {"water", kParmWater},
    {"slime", kParmSlime},
    {"lava", kParmLava},
    {"playerclip", kParmPlayerClip},
    {"monsterclip", kParmMonsterClip},
    {"nodrop", kParmNoDrop},
    {"nonsolid", kParmNonSolid},
    {"origin", kParmOrigin},
    {"trans", kParmTrans},
    {"detail", kParmDetail},
    {"structural", kParmStructural},
    {"areaportal", kParmAreaPortal},
    {"clusterportal", kParmClusterPortal},
    {"donotenter", kParmDoNotEnter},
    {"fog", kParmFog},
    {"sky", kParmSky},
    {"lightfilter", kParmLightFilter},
    {"alphashadow", kParmAlphaShadow},
    {"hint", kParmHint},
    {"slick", kParmSlick},
    {"noimpact", kParmNoImpact},
    {"nomarks", kParmNoMarks},
    {"ladder", kParmLadder},
    {"nodamage", kParmNoDamage},
    {"metalsteps", kParmMetalSteps},
    {"flesh", kParmFlesh},
    {"nosteps", kParmNoSteps},
    {"nodraw", kParmNoDraw},
    {"pointlight", kParmPointLight},
    {"nolightmap", kParmNoLightmap},
    {"nodlight", kParmNoDlight},
    {"dust", kParmDust},
};

// cull <mode>.
inline constexpr ShaderName<CullMode> kCullModeNames[] = {
    {"front", CullMode::Front},     {"back", CullMode::Back},        {"none", CullMode::None},
    {"frontside", CullMode::Front}, {"frontsided", CullMode::Front}, {"backside", CullMode::Back},
    {"backsided", CullMode::Back},  {"twosided", CullMode::None},    {"disable", CullMode::None},
};

// The stage keywords that name the stage's image (map, clampMap, videoMap, animMap), and the
// built-in images `map` also takes. MapKind::None has no name (no such keyword).
inline constexpr ShaderName<MapKind> kStageMapNames[] = {
    {"map", MapKind::Texture},
    {"clampMap", MapKind::Clamp},
    {"videoMap", MapKind::Video},
    {"animMap", MapKind::Animated},
};
inline constexpr ShaderName<MapKind> kBuiltinImageNames[] = {
    {"$lightmap", MapKind::Lightmap},
    {"$whiteimage", MapKind::White},
};

// blendFunc <src> <dst>, with the side each factor is accepted on (NameToSrcBlendMode,
// NameToDstBlendMode).
struct BlendFactorName {
    std::string_view name;
    BlendFactor value;
    bool src_ok;
    bool dst_ok;
};
inline constexpr BlendFactorName kBlendFactorNames[] = {
    {"GL_ONE", BlendFactor::One, true, true},
    {"GL_ZERO", BlendFactor::Zero, true, true},
    {"GL_DST_COLOR", BlendFactor::DstColor, true, false},
    {"GL_ONE_MINUS_DST_COLOR", BlendFactor::OneMinusDstColor, true, false},
    {"GL_SRC_ALPHA", BlendFactor::SrcAlpha, true, true},
    {"GL_ONE_MINUS_SRC_ALPHA", BlendFactor::OneMinusSrcAlpha, true, true},
    {"GL_DST_ALPHA", BlendFactor::DstAlpha, true, true},
    {"GL_ONE_MINUS_DST_ALPHA", BlendFactor::OneMinusDstAlpha, true, true},
    {"GL_SRC_ALPHA_SATURATE", BlendFactor::SrcAlphaSaturate, true, false},
    {"GL_SRC_COLOR", BlendFactor::SrcColor, false, true},
    {"GL_ONE_MINUS_SRC_COLOR", BlendFactor::OneMinusSrcColor, false, true},
};

// The <func> of a wave form (ParseWaveForm / NameToGenFunc).
inline constexpr ShaderName<WaveFunc> kWaveFuncNames[] = {
    {"sin", WaveFunc::Sin},
    {"triangle", WaveFunc::Triangle},
    {"square", WaveFunc::Square},
    {"sawtooth", WaveFunc::Sawtooth},
    {"inversesawtooth", WaveFunc::InverseSawtooth},
    {"noise", WaveFunc::Noise},
};

// alphaFunc <func>; AlphaFunc::None has no name (it is the absence of the keyword).
inline constexpr ShaderName<AlphaFunc> kAlphaFuncNames[] = {
    {"GT0", AlphaFunc::Gt0},
    {"LT128", AlphaFunc::Lt128},
    {"GE128", AlphaFunc::Ge128},
};

// depthFunc <func>.
inline constexpr ShaderName<DepthFunc> kDepthFuncNames[] = {
    {"lequal", DepthFunc::LessEqual},
    {"equal", DepthFunc::Equal},
};

// rgbGen <gen>. Entity colours and lightingDiffuse map to what a world viewer has (see
// q3_shader.h).
inline constexpr ShaderName<RgbGen> kRgbGenNames[] = {
    {"identity", RgbGen::Identity},
    {"identityLighting", RgbGen::IdentityLighting},
    {"vertex", RgbGen::Vertex},
    {"exactVertex", RgbGen::ExactVertex},
    {"oneMinusVertex", RgbGen::OneMinusVertex},
    {"wave", RgbGen::Wave},
    {"const", RgbGen::Const},
    {"entity", RgbGen::Identity},
    {"oneMinusEntity", RgbGen::Identity},
    {"lightingDiffuse", RgbGen::Vertex},
};

// alphaGen <gen>. "portal" is not here: it becomes Const 1 with a range (the parser's case).
inline constexpr ShaderName<AlphaGen> kAlphaGenNames[] = {
    {"identity", AlphaGen::Identity}, {"const", AlphaGen::Const},
    {"vertex", AlphaGen::Vertex},     {"oneMinusVertex", AlphaGen::OneMinusVertex},
    {"wave", AlphaGen::Wave},         {"lightingSpecular", AlphaGen::LightingSpecular},
    {"entity", AlphaGen::Identity},   {"oneMinusEntity", AlphaGen::Identity},
};

// tcGen <gen> (also spelled texGen).
inline constexpr ShaderName<TcGen> kTcGenNames[] = {
    {"base", TcGen::Base},     {"lightmap", TcGen::Lightmap}, {"environment", TcGen::Environment},
    {"vector", TcGen::Vector}, {"texture", TcGen::Base},
};

// tcMod <kind>.
inline constexpr ShaderName<TcModKind> kTcModNames[] = {
    {"scroll", TcModKind::Scroll},
    {"scale", TcModKind::Scale},
    {"rotate", TcModKind::Rotate},
    {"turb", TcModKind::Turb},
    {"stretch", TcModKind::Stretch},
    {"transform", TcModKind::Transform},
    {"entityTranslate", TcModKind::EntityTranslate},
};

// deformVertexes <kind>. Text is written "text0".."text7"; the parser takes any word starting
// with this name.
inline constexpr ShaderName<DeformKind> kDeformNames[] = {
    {"wave", DeformKind::Wave},
    {"normal", DeformKind::Normal},
    {"bulge", DeformKind::Bulge},
    {"move", DeformKind::Move},
    {"autosprite", DeformKind::Autosprite},
    {"autosprite2", DeformKind::Autosprite2},
    {"projectionShadow", DeformKind::ProjectionShadow},
    {"text", DeformKind::Text},
};

// The entry whose name equals `name` (any case), nullptr when none.
template <typename Entry, size_t N>
constexpr const Entry* findShaderName(const Entry (&table)[N], std::string_view name) {
    for (const Entry& e : table)
        if (iequals(e.name, name))
            return &e;
    return nullptr;
}

// The name written for `value`: its first entry's, "?" when the table has none.
template <typename Entry, size_t N, typename E>
constexpr std::string_view shaderNameOf(const Entry (&table)[N], E value) {
    for (const Entry& e : table)
        if (e.value == value)
            return e.name;
    return "?";
}

} // namespace content
