// Quake 3 shader scripts, display text: the names of enum values (from the tables in
// q3_shader_names.h, which the parser reads with) and the lines describeShader writes for the
// overlay and --info.
#include "content/material/q3_shader.h"
#include "content/material/q3_shader_names.h"

#include <charconv>

namespace content {

namespace {

std::string num(float v) {
    char buf[32];
    const auto res = std::to_chars(buf, buf + sizeof(buf), v);
    return std::string(buf, res.ptr);
}

std::string waveText(const Wave& w) {
    return std::string(waveFuncName(w.func)) + " " + num(w.base) + " " + num(w.amplitude) + " " +
           num(w.phase) + " " + num(w.frequency);
}

std::string vecText(const glm::vec3& v) {
    return "( " + num(v.x) + " " + num(v.y) + " " + num(v.z) + " )";
}

// The stage's image keyword: "map textures/a/b.tga", "map $lightmap", "animMap 2 a b".
std::string mapText(const ShaderStage& s) {
    switch (s.map) {
    case MapKind::None:
        return "(no map)";
    case MapKind::Texture:
    case MapKind::Clamp:
    case MapKind::Video:
        return std::string(shaderNameOf(kStageMapNames, s.map)) + " " + s.images[0];
    case MapKind::Lightmap:
    case MapKind::White:
        return std::string(shaderNameOf(kStageMapNames, MapKind::Texture)) + " " +
               std::string(shaderNameOf(kBuiltinImageNames, s.map));
    case MapKind::Animated: {
        std::string out =
            std::string(shaderNameOf(kStageMapNames, s.map)) + " " + num(s.anim_frequency);
        for (const std::string& i : s.images)
            out += " " + i;
        return out;
    }
    }
    return "?";
}

std::string tcModText(const TcMod& m) {
    std::string out = "tcMod " + std::string(tcModName(m.kind));
    switch (m.kind) {
    case TcModKind::Scroll:
    case TcModKind::Scale:
        out += " " + num(m.s) + " " + num(m.t);
        break;
    case TcModKind::Rotate:
        out += " " + num(m.s);
        break;
    case TcModKind::Turb:
        out += " " + num(m.wave.base) + " " + num(m.wave.amplitude) + " " + num(m.wave.phase) +
               " " + num(m.wave.frequency);
        break;
    case TcModKind::Stretch:
        out += " " + waveText(m.wave);
        break;
    case TcModKind::Transform:
        for (float v : m.matrix)
            out += " " + num(v);
        for (float v : m.translate)
            out += " " + num(v);
        break;
    case TcModKind::EntityTranslate:
        break;
    }
    return out;
}

// rgbGen, alphaGen and tcGen with their parameters.
std::string colourText(const ShaderStage& s) {
    std::string out = " | rgbGen " + std::string(rgbGenName(s.rgb_gen));
    if (s.rgb_gen == RgbGen::Wave)
        out += " " + waveText(s.rgb_wave);
    else if (s.rgb_gen == RgbGen::Const)
        out += " " + vecText(s.rgb_const);
    if (s.alpha_gen != AlphaGen::Identity) {
        out += " | alphaGen " + std::string(alphaGenName(s.alpha_gen));
        if (s.alpha_gen == AlphaGen::Wave)
            out += " " + waveText(s.alpha_wave);
        else if (s.alpha_gen == AlphaGen::Const)
            out += " " + num(s.alpha_const);
    }
    if (s.tc_gen != TcGen::Base || s.map == MapKind::Lightmap) {
        out += " | tcGen " + std::string(tcGenName(s.tc_gen));
        if (s.tc_gen == TcGen::Vector)
            out += " " + vecText(s.tc_vectors[0]) + " " + vecText(s.tc_vectors[1]);
    }
    return out;
}

std::string stageText(const ShaderStage& s) {
    std::string out = mapText(s);
    if (s.blend)
        out += " | blendFunc " + std::string(blendFactorName(s.src)) + " " +
               std::string(blendFactorName(s.dst));
    if (s.alpha_func != AlphaFunc::None)
        out += " | alphaFunc " + std::string(shaderNameOf(kAlphaFuncNames, s.alpha_func));
    if (s.depth_write_explicit)
        out += " | depthWrite";
    if (s.depth_func == DepthFunc::Equal)
        out += " | depthFunc " + std::string(shaderNameOf(kDepthFuncNames, s.depth_func));
    out += colourText(s);
    for (const TcMod& m : s.tc_mods)
        out += " | " + tcModText(m);
    if (s.detail)
        out += " | detail";
    return out;
}

// The general keywords of a definition on one line ("sort 3 | cull none | surfaceparm ...").
std::string generalText(const ShaderDef& def) {
    std::string general = "sort " + num(def.sort);
    if (def.cull != CullMode::Front)
        general += " | cull " + std::string(shaderNameOf(kCullModeNames, def.cull));
    for (const ShaderName<uint32_t>& p : kSurfaceParmNames)
        if (def.surface_parms & p.value)
            general += " | surfaceparm " + std::string(p.name);
    if (def.sky.present)
        general += " | skyParms " + (def.sky.far_box.empty() ? "-" : def.sky.far_box) + " " +
                   num(def.sky.cloud_height) + " " +
                   (def.sky.near_box.empty() ? "-" : def.sky.near_box);
    if (def.fog.present)
        general += " | fogParms " + vecText(def.fog.colour) + " " + num(def.fog.distance);
    if (def.polygon_offset)
        general += " | polygonOffset";
    if (def.no_mipmaps)
        general += " | nomipmaps";
    else if (def.no_picmip)
        general += " | nopicmip";
    for (const Deform& d : def.deforms)
        general += " | deformVertexes " + std::string(deformName(d.kind));
    return general;
}

} // namespace

std::vector<std::string> describeShader(const ShaderDef& def) {
    std::vector<std::string> out;
    out.push_back(def.implicit ? def.name + " (implicit)"
                               : def.file + ":" + std::to_string(def.line) + " " + def.name);
    out.push_back(generalText(def));
    for (size_t i = 0; i < def.stages.size(); ++i)
        out.push_back("stage " + std::to_string(i) + ": " + stageText(def.stages[i]));
    for (const ShaderWarning& w : def.warnings)
        out.push_back("warning line " + std::to_string(w.line) + ": " + w.message);
    if (def.dropped_warnings > 0)
        out.push_back(std::to_string(def.dropped_warnings) + " more warnings");
    return out;
}

// The display name of each enum value: the first name its table lists (q3_shader_names.h).
#define BSPV_Q3_DISPLAY_NAMES(X)                                                                   \
    X(blendFactorName, BlendFactor, kBlendFactorNames)                                             \
    X(waveFuncName, WaveFunc, kWaveFuncNames)                                                      \
    X(rgbGenName, RgbGen, kRgbGenNames)                                                            \
    X(alphaGenName, AlphaGen, kAlphaGenNames)                                                      \
    X(tcGenName, TcGen, kTcGenNames)                                                               \
    X(tcModName, TcModKind, kTcModNames)                                                           \
    X(deformName, DeformKind, kDeformNames)
#define BSPV_Q3_DISPLAY_NAME(function, Enum, table)                                                \
    std::string_view function(Enum value) {                                                        \
        return shaderNameOf(table, value);                                                         \
    }
BSPV_Q3_DISPLAY_NAMES(BSPV_Q3_DISPLAY_NAME)
#undef BSPV_Q3_DISPLAY_NAME
#undef BSPV_Q3_DISPLAY_NAMES

} // namespace content
