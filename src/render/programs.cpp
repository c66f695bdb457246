#include "render/programs.h"

#include "core/log.h"

#include <algorithm>

namespace render {

namespace {

void locate(WorldProgram& w) {
    const GLuint id = w.program.id();
    locateAll(id, {{&w.model, "u_model"},
                   {&w.uv_scroll, "u_uv_scroll"},
                   {&w.uv_linear, "u_uv_linear"},
                   {&w.bump_linear, "u_bump_linear"},
                   {&w.bump_offset, "u_bump_offset"},
                   {&w.alpha, "u_alpha"},
                   {&w.alpha_cutoff, "u_alpha_cutoff"},
                   {&w.tint, "u_tint"},
                   {&w.flat_colour, "u_flat_colour"},
                   {&w.fullbright_light, "u_fullbright_light"},
                   {&w.solid_colour, "u_solid_colour"},
                   {&w.fog_distance, "u_fog_distance"},
                   {&w.fog_has_surface, "u_fog_has_surface"},
                   {&w.fog_surface, "u_fog_surface"},
                   {&w.fog_colour, "u_fog_colour"},
                   {&w.water_base, "u_water_base"},
                   {&w.water_reflect_tint, "u_water_reflect_tint"},
                   {&w.water_fade, "u_water_fade"},
                   {&w.water_weight, "u_water_weight"},
                   {&w.water_viewport, "u_water_viewport"},
                   {&w.water_amounts, "u_water_amounts"},
                   {&w.water_unproject, "u_water_unproject"},
                   {&w.water_fog, "u_water_fog"},
                   {&w.envmap_tint, "u_envmap_tint"},
                   {&w.envmap_contrast, "u_envmap_contrast"},
                   {&w.envmap_saturation, "u_envmap_saturation"},
                   {&w.envmap_fresnel, "u_envmap_fresnel"}});
    bindSampler(id, "u_texture", kUnitTexture);
    bindSampler(id, "u_lightmaps", kUnitLightmaps);
    bindSampler(id, "u_glow", kUnitGlow);
    bindSampler(id, "u_deluxemaps", kUnitDeluxemaps);
    bindSampler(id, "u_layer2", kUnitLayer2);
    bindSampler(id, "u_bumpmap", kUnitBumpmap);
    bindSampler(id, "u_envmap", kUnitEnvmap);
    bindSampler(id, "u_envmapmask", kUnitEnvmapMask);
    bindSampler(id, "u_water_reflection", kUnitWaterReflection);
    bindSampler(id, "u_water_scene", kUnitWaterScene);
    bindSampler(id, "u_water_depth", kUnitWaterDepth);
}

void locate(StageProgram& v, size_t count) {
    const GLuint id = v.program.id();
    locateAll(id, {{&v.model, "u_model"},
                   {&v.tc_gen, "u_tc_gen"},
                   {&v.tc_vector0, "u_tc_vector0"},
                   {&v.tc_vector1, "u_tc_vector1"},
                   {&v.tc_matrix, "u_tc_matrix"},
                   {&v.turb, "u_turb"},
                   {&v.colour, "u_colour"},
                   {&v.colour_gen, "u_colour_gen"},
                   {&v.vertex_scale, "u_vertex_scale"},
                   {&v.cloud_height, "u_cloud_height"},
                   {&v.flat_colour, "u_flat_colour"},
                   {&v.deform_code, "u_deform_code"},
                   {&v.deform_func, "u_deform_func"},
                   {&v.deform_wave, "u_deform_wave"},
                   {&v.deform_extra, "u_deform_extra"},
                   {&v.fog_distance, "u_fog_distance"},
                   {&v.fog_has_surface, "u_fog_has_surface"},
                   {&v.fog_surface, "u_fog_surface"},
                   {&v.fog_mask, "u_fog_mask"},
                   {&v.fog_colour, "u_fog_colour"}});
    for (size_t k = 0; k < count; ++k)
        bindSampler(id, ("u_texture" + std::to_string(k)).c_str(),
                    kUnitStage0 + static_cast<GLuint>(k));
    bindSampler(id, "u_lightmaps", kUnitLightmaps);
    bindSampler(id, "u_skybox", kUnitSkybox);
}

// Per stage 14 bits (source, times lightmap, alphaFunc, blend, src, dst): stages 0-3 in the
// low word with the program's flags, 4-5 in the high word.
std::pair<uint64_t, uint64_t> stageKey(const StageVariant& v) {
    const auto stageBits = [](const scene::RenderStage& st) {
        const content::ShaderStage& d = st.def;
        return static_cast<uint64_t>(st.source) | (st.times_lightmap ? 1u << 2 : 0u) |
               static_cast<uint64_t>(d.alpha_func) << 3 | (d.blend ? 1u << 5 : 0u) |
               static_cast<uint64_t>(d.src) << 6 | static_cast<uint64_t>(d.dst) << 10;
    };
    uint64_t lo = v.count | (v.sky ? 1u << 3 : 0u) | static_cast<uint64_t>(v.base) << 4 |
                  (v.deforms ? 1u << 6 : 0u) | (v.fog ? 1u << 7 : 0u);
    uint64_t hi = (v.additive ? uint64_t{1} << 40 : 0) | (v.fog_pass ? uint64_t{1} << 41 : 0);
    for (size_t k = 0; k < v.count; ++k) {
        if (k < 4)
            lo |= stageBits(*v.stages[k]) << (8 + 14 * k);
        else
            hi |= stageBits(*v.stages[k]) << (14 * (k - 4));
    }
    return {lo, hi};
}

std::string stageDefines(const StageVariant& v) {
    static constexpr const char* kSources[] = {"SOURCE_TEXTURE", "SOURCE_LIGHTMAP", "SOURCE_WHITE"};
    static constexpr const char* kAlpha[] = {"ALPHA_NONE", "ALPHA_GT0", "ALPHA_LT128",
                                             "ALPHA_GE128"};
    std::string defines = "NSTAGES=" + std::to_string(v.count);
    for (size_t k = 0; k < v.count; ++k) {
        const scene::RenderStage& st = *v.stages[k];
        const std::string n = "S" + std::to_string(k) + "_";
        defines += " " + n + "SOURCE=" + kSources[static_cast<size_t>(st.source)];
        defines += " " + n + "TLM=" + (st.times_lightmap ? "1" : "0");
        defines += " " + n + "ALPHA=" + kAlpha[static_cast<size_t>(st.def.alpha_func)];
        defines += " " + n + "BLEND=" + (st.def.blend ? "1" : "0");
        defines += " " + n + "SRC=" + std::to_string(static_cast<int>(st.def.src));
        defines += " " + n + "DST=" + std::to_string(static_cast<int>(st.def.dst));
    }
    if (v.sky)
        defines += " SKY_CLOUDS";
    if (v.base != SkyBase::None)
        defines += v.base == SkyBase::Box ? " SKY_BASE=SKY_BASE_BOX" : " SKY_BASE=SKY_BASE_FLAT";
    if (v.deforms)
        defines += " DEFORMS";
    if (v.fog)
        defines += " FOG";
    if (v.additive)
        defines += " ADDITIVE_RUN";
    if (v.fog_pass)
        defines += " FOG_PASS";
    return defines;
}

} // namespace

Program ProgramCache::build(std::string label, std::string_view vs, std::string_view fs,
                            const std::string& defines) {
    std::replace(label.begin(), label.end(), ' ', '|');
    std::string error;
    Program p = m_glsl.build(label, vs, fs, defines, &error);
    if (!p) {
        core::logError(error);
        m_errors += error + "\n";
    }
    return p;
}

bool ProgramCache::init(const GlslLibrary& glsl, std::string* error) {
    m_glsl = glsl;
    m_flat.program = glsl.build("world|VIEW=VIEW_FLAT", "world.vert.glsl", "world.frag.glsl",
                                "VIEW=VIEW_FLAT", error);
    if (!m_flat.program)
        return false;
    locate(m_flat);
    m_depth.program = glsl.build("depth", "depth.vert.glsl", "depth.frag.glsl", "", error);
    if (!m_depth.program)
        return false;
    locateAll(m_depth.program.id(), {{&m_depth.model, "u_model"}});
    glUseProgram(0);
    return true;
}

const WorldProgram* ProgramCache::world(const WorldVariant& v) {
    const uint32_t key =
        static_cast<uint32_t>(v.view) | (v.alpha_test ? 1u << 3 : 0u) | (v.warp ? 1u << 4 : 0u) |
        (v.glow ? 1u << 5 : 0u) | (static_cast<uint32_t>(v.styles - 1) << 6) |
        (v.fog_pass ? 1u << 9 : 0u) | (v.distance_fog ? 1u << 10 : 0u) |
        (v.layer2 ? 1u << 11 : 0u) | (v.bump ? 1u << 12 : 0u) | (v.ssbump ? 1u << 13 : 0u) |
        (v.water ? 1u << 14 : 0u) | (v.water_blended ? 1u << 15 : 0u) | (v.envmap ? 1u << 16 : 0u) |
        (v.envmap_mask ? 1u << 17 : 0u) | (v.envmap_base_alpha ? 1u << 18 : 0u) |
        (v.envmap_normal_alpha ? 1u << 19 : 0u) | (static_cast<uint32_t>(v.curves & 15u) << 20) |
        (v.fullbright_light ? 1u << 25 : 0u) | (v.solid_colour ? 1u << 26 : 0u) |
        (v.bump_motion ? 1u << 27 : 0u) | (v.water_planar ? 1u << 28 : 0u) |
        (v.water_refract ? 1u << 29 : 0u);
    auto it = m_world.find(key);
    if (it == m_world.end()) {
        const KeepCurrentProgram keep;
        std::string defines =
            std::string("VIEW=") + viewModeDefine(v.view) + " STYLES=" + std::to_string(v.styles);
        if (v.alpha_test)
            defines += " ALPHA_TEST";
        static constexpr std::pair<uint8_t, const char*> kCurves[] = {
            {kCurveTextureMax, " TEXTURE_MAX"},
            {kCurveLightMax, " LIGHT_MAX"},
            {kCurveLightNormalize, " LIGHT_NORMALIZE"},
            {kCurveOutputGamma, " OUTPUT_GAMMA"}};
        for (const auto& [bit, define] : kCurves)
            if (v.curves & bit)
                defines += define;
        if (v.fullbright_light)
            defines += " FULLBRIGHT_LIGHT";
        if (v.solid_colour)
            defines += " SOLID_COLOUR";
        if (v.fog_pass)
            defines += " FOG_PASS";
        if (v.distance_fog)
            defines += " DISTANCE_FOG";
        if (v.warp)
            defines += " WARP";
        if (v.glow)
            defines += " GLOW";
        if (v.layer2)
            defines += " LAYER2";
        if (v.bump)
            defines += v.ssbump ? " BUMP SSBUMP" : " BUMP";
        if (v.bump_motion) // only ever set with bump and without water (WorldVariant)
            defines += " BUMP_MOTION";
        if (v.water)
            defines += v.water_blended ? " WATER WATER_BLEND" : " WATER";
        if (v.water && v.water_planar)
            defines += v.water_refract ? " WATER_PLANAR WATER_REFRACT" : " WATER_PLANAR";
        if (v.envmap) {
            defines += " ENVMAP";
            if (v.envmap_mask)
                defines += " ENVMAP_MASK";
            if (v.envmap_base_alpha)
                defines += " ENVMAP_BASE_ALPHA";
            if (v.envmap_normal_alpha)
                defines += " ENVMAP_NORMAL_ALPHA";
        }
        WorldProgram w;
        w.program = build("world|" + defines, "world.vert.glsl", "world.frag.glsl", defines);
        if (w.program)
            locate(w);
        m_world_variants[key] = v;
        it = m_world.emplace(key, std::move(w)).first;
    }
    return it->second.program ? &it->second : nullptr;
}

const SkyProgram* ProgramCache::sky(SkyMode mode, bool output_gamma) {
    const size_t slot = 2 * static_cast<size_t>(mode) + (output_gamma ? 1 : 0);
    return compiledOnce(m_sky[slot], [&](SkyProgram& sp) {
        static constexpr const char* kModes[] = {"SKY_BOX", "SKY_FLAT", "SKY_TEXTURE",
                                                 "SKY_LAYERS"};
        const std::string defines = std::string("SKY_MODE=") + kModes[static_cast<int>(mode)] +
                                    (output_gamma ? " OUTPUT_GAMMA" : "");
        sp.program = build("sky|" + defines, "world.vert.glsl", "sky.frag.glsl", defines);
        if (!sp.program)
            return;
        const GLuint id = sp.program.id();
        locateAll(id, {{&sp.model, "u_model"},
                       {&sp.uv_scroll, "u_uv_scroll"},
                       {&sp.flat_colour, "u_flat_colour"}});
        bindSampler(id, "u_texture", kUnitTexture);
        bindSampler(id, "u_skybox", kUnitSkybox);
    });
}

const StageProgram* ProgramCache::stage(const StageVariant& v) {
    const auto key = stageKey(v);
    const auto it = m_stage.find(key);
    if (it != m_stage.end())
        return it->second.program ? &it->second : nullptr;
    return stageFromDefines(key, stageDefines(v), v.count);
}

const StageProgram* ProgramCache::stageFromDefines(std::pair<uint64_t, uint64_t> key,
                                                   const std::string& defines, size_t count) {
    const KeepCurrentProgram keep;
    StageProgram p;
    p.program = build("stage|" + defines, "stage.vert.glsl", "stage.frag.glsl", defines);
    if (p.program)
        locate(p, count);
    m_stage_defines[key] = {defines, count};
    const StageProgram& stored = m_stage.emplace(key, std::move(p)).first->second;
    return stored.program ? &stored : nullptr;
}

const FogProgram* ProgramCache::fog() {
    return compiledOnce(m_fog, [&](FogProgram& f) {
        f.program = build("fog", "fog.vert.glsl", "fog.frag.glsl", "");
        if (f.program)
            locateAll(f.program.id(), {{&f.model, "u_model"},
                                       {&f.colour, "u_fog_colour"},
                                       {&f.distance, "u_fog_distance"},
                                       {&f.has_surface, "u_has_surface"},
                                       {&f.surface, "u_surface"}});
    });
}

const LuxelProgram* ProgramCache::luxel() {
    return compiledOnce(m_luxel, [&](LuxelProgram& l) {
        l.program = build("world|luxel grid", "world.vert.glsl", "luxel.frag.glsl", "");
        if (!l.program)
            return;
        locateAll(l.program.id(), {{&l.model, "u_model"}, {&l.colour, "u_flat_colour"}});
        bindSampler(l.program.id(), "u_lightmaps", kUnitLightmaps);
    });
}

const DisplayRampProgram* ProgramCache::displayRamp() {
    return compiledOnce(m_display_ramp, [&](DisplayRampProgram& d) {
        d.program = build("display ramp", "display_ramp.vert.glsl", "display_ramp.frag.glsl", "");
        if (d.program)
            d.vao = makeVertexArray("display ramp/no attributes");
    });
}

const ScreenWarpProgram* ProgramCache::screenWarp() {
    return compiledOnce(m_screen_warp, [&](ScreenWarpProgram& d) {
        d.program = build("screen warp", "display_ramp.vert.glsl", "screen_warp.frag.glsl", "");
        if (!d.program)
            return;
        d.vao = makeVertexArray("screen warp/no attributes");
        locateAll(d.program.id(), {{&d.origin, "u_origin"},
                                   {&d.size, "u_size"},
                                   {&d.warp, "u_warp"}});
        bindSampler(d.program.id(), "u_frame_copy", kUnitTexture);
    });
}

const PictureProgram* ProgramCache::picture() {
    return compiledOnce(m_picture, [&](PictureProgram& d) {
        d.program = build("picture", "display_ramp.vert.glsl", "picture.frag.glsl", "");
        if (!d.program)
            return;
        d.vao = makeVertexArray("picture/no attributes");
        locateAll(d.program.id(), {{&d.origin, "u_origin"},
                                   {&d.exposure_scale, "u_exposure_scale"},
                                   {&d.inverse_gamma, "u_inverse_gamma"},
                                   {&d.brightness, "u_brightness"}});
        bindSampler(d.program.id(), "u_frame_copy", kUnitTexture);
    });
}

size_t ProgramCache::size() const {
    size_t n = 2 + m_world.size() + m_stage.size() + (m_fog ? 1 : 0) + (m_luxel ? 1 : 0) +
               (m_display_ramp ? 1 : 0) + (m_picture ? 1 : 0) + (m_screen_warp ? 1 : 0);
    for (const auto& sky : m_sky)
        n += sky ? 1 : 0;
    return n;
}

std::unique_ptr<ProgramCache> ProgramCache::rebuilt(std::string* error) const {
    auto fresh = std::make_unique<ProgramCache>();
    if (!fresh->init(m_glsl, error))
        return nullptr;
    for (const auto& [key, variant] : m_world_variants)
        fresh->world(variant);
    for (size_t slot = 0; slot < m_sky.size(); ++slot)
        if (m_sky[slot])
            fresh->sky(static_cast<SkyMode>(slot / 2), slot % 2 != 0);
    for (const auto& [key, recipe] : m_stage_defines)
        fresh->stageFromDefines(key, recipe.first, recipe.second);
    if (m_fog)
        fresh->fog();
    if (m_luxel)
        fresh->luxel();
    if (m_display_ramp)
        fresh->displayRamp();
    if (m_picture)
        fresh->picture();
    if (m_screen_warp)
        fresh->screenWarp();
    if (!fresh->m_errors.empty()) {
        if (error)
            *error = fresh->m_errors;
        return nullptr;
    }
    return fresh;
}

} // namespace render
