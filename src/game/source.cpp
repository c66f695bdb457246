// Source (VBSP 19-21, Strata Source 25) as the Source SDK 2013's engine draws it; sources read
// for the facts (ValveSoftware/source-sdk-2013, the Valve Developer Community; no code taken).
#include "game/entity_keys.h"
#include "game/families.h"

#include <glm/trigonometric.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace game::detail {

namespace {

// A colour32 key "r g b [a]" as 0..1 per channel: each number read as an int and stored in a
// byte (its low 8 bits), a missing one 0 (game/shared/util_shared.cpp UTIL_StringToColor32).
glm::vec3 colour32Key(const bsp::Entity& e, std::string_view key) {
    const std::string_view v = e.get(key);
    glm::vec3 c{0.0f};
    size_t at = 0;
    for (int i = 0; i < 3; ++i) {
        while (at < v.size() && (v[at] == ' ' || v[at] == '\t'))
            ++at;
        int32_t n = 0;
        const auto r = std::from_chars(v.data() + at, v.data() + v.size(), n);
        if (r.ec != std::errc())
            break;
        at = size_t(r.ptr - v.data());
        c[i] = float(uint8_t(uint32_t(n) & 0xFFu)) / 255.0f;
    }
    return c;
}

// The fog keys env_fog_controller and sky_camera share (game/server/fogcontroller.cpp and
// SkyCamera.cpp, their key fields: booleans and the integer scale read as integers, colour32s
// by UTIL_StringToColor32, fogdir a vector); both constructors set fogmaxdensity 1 and radial
// off. With use_angles, Activate points the blend direction against the entity's forward.
LinearFog fogKeys(const bsp::Entity& e) {
    LinearFog fog;
    fog.enabled = intKey(e, "fogenable", 0) != 0;
    fog.blend = intKey(e, "fogblend", 0) != 0;
    fog.radial = intKey(e, "fogradial", 0) != 0;
    fog.colour = colour32Key(e, "fogcolor");
    fog.colour2 = colour32Key(e, "fogcolor2");
    fog.direction = e.vec3("fogdir").value_or(glm::vec3(0.0f));
    if (intKey(e, "use_angles", 0) != 0) {
        // mathlib AngleVectors: pitch, yaw, roll in degrees; forward from pitch and yaw.
        const glm::vec3 a = e.vec3("angles").value_or(glm::vec3(0.0f));
        const float pitch = glm::radians(a.x), yaw = glm::radians(a.y);
        fog.direction = -glm::vec3(std::cos(pitch) * std::cos(yaw), std::cos(pitch) * std::sin(yaw),
                                   -std::sin(pitch));
    }
    fog.start = floatKey(e, "fogstart", 0.0f);
    fog.end = floatKey(e, "fogend", 0.0f);
    fog.max_density = floatKey(e, "fogmaxdensity", 1.0f);
    return fog;
}

// The 3D sky box of the map's sky_camera (game/server/SkyCamera.cpp CSkyCamera's key fields and
// Spawn; game/client/viewrender.cpp CSkyboxView::DrawInternal and Enable3dSkyboxFog). Each
// sky_camera joins the head of a list whose head is the current one
// (game/server/entitylist.h CEntityClassList::Insert, SkyCamera.cpp GetCurrentSkyCamera), so
// the last one in the entity lump wins; none: no 3D sky (playerlocaldata.cpp ClientData_Update
// sets area 255, which CSkyboxView::PreRender3dSkyboxWorld reads as no sky).
std::optional<SkyRegion> skyCamera(const bsp::Map& map) {
    const bsp::Entity* camera = nullptr;
    for (const bsp::Entity& e : map.entities)
        if (e.classname() == "sky_camera")
            camera = &e;
    if (!camera)
        return std::nullopt;
    SkyRegion r;
    r.origin = camera->vec3("origin").value_or(glm::vec3(0.0f));
    // An integer key; the eye is divided by it only when it is above 0.
    const int32_t scale = intKey(*camera, "scale", 0);
    r.scale = scale > 0 ? float(scale) : 1.0f;
    r.fog = fogKeys(*camera);
    return r;
}

// The master env_fog_controller's index in the entity list (game/server/fogcontroller.cpp
// CFogSystem::LevelInitPostEntity: the first controller in entity order, replaced by each later
// one whose spawnflags hold SF_FOG_MASTER 1), whose fog a spawning player takes; -1: none.
int32_t masterFogController(const bsp::Map& map) {
    int32_t master = -1;
    for (size_t i = 0; i < map.entities.size(); ++i) {
        const bsp::Entity& e = map.entities[i];
        if (e.classname() == "env_fog_controller" &&
            (master < 0 || (intKey(e, "spawnflags", 0) & 1) != 0))
            master = int32_t(i);
    }
    return master;
}

// The world's fog: the master controller's keys, which CRendering3dView::EnableWorldFog draws
// with (viewrender.cpp). Not followed: the engine's "official map" hack that forces radial fog
// on, fog inputs fired at spawn and trigger_fog volumes.
LinearFog worldFog(const bsp::Map& map, int32_t master) {
    return master >= 0 ? fogKeys(map.entities[size_t(master)]) : LinearFog{};
}

// The main view's far plane from the master controller's farz (fogcontroller.cpp: a FIELD_FLOAT
// key, read as atof reads it; the entity starts zeroed, so an absent key is 0).
// game/client/view.cpp CViewRender::GetZFar takes it when it is above 0 (else r_mapextents
// 16384 times sqrt(3), r_farz overriding both), from the player's fog parameters, which
// C_BasePlayer::UpdateFogController copies whole from the controller: fogenable does not
// matter, and neither does fog_enable (GetZFar does not read it). 0 here: the viewer's own.
// A value that is not a plain number is read as atof reads it (its leading number, else 0), with
// a warning naming the key and the entity.
float worldFarPlane(const bsp::Map& map, int32_t master, std::vector<std::string>& warnings) {
    if (master < 0)
        return 0.0f;
    const bsp::Entity& e = map.entities[size_t(master)];
    const std::string_view text = e.get("farz");
    if (text.empty())
        return 0.0f;
    const float value = floatKey(e, "farz", 0.0f);
    // A plain number: strtof (as bsp::Entity::number reads it) takes every byte but trailing
    // blanks, and the value is finite.
    const std::string buf(text);
    char* end = nullptr;
    const float whole = std::strtof(buf.c_str(), &end);
    while (end && (*end == ' ' || *end == '\t'))
        ++end;
    if (end == buf.c_str() || end != buf.c_str() + buf.size() || !std::isfinite(whole)) {
        char shown[32];
        std::snprintf(shown, sizeof(shown), "%g", double(value));
        warnings.push_back("entity " + std::to_string(master) +
                           " (env_fog_controller): key farz \"" + std::string(text) +
                           "\" is not a number; read as " + shown);
    }
    return value > 0.0f ? value : 0.0f;
}

// --- Tone map (docs/source.md "HDR tone mapping") ----------------------------------------
//
// In the Source SDK 2013 env_tonemap_controller has no keyvalues: everything it does comes from
// inputs (game/server/env_tonemap_controller.cpp, its DEFINE_INPUTFUNC list), which maps fire
// from a logic_auto as the level starts (VDC "HDR Lighting Settings"). What a freshly loaded map
// shows is what those inputs leave: logic_auto fires OnNewGame, then OnMapSpawn, 0.2 s after
// spawn (game/server/logicauto.cpp CLogicAuto::Think; OnMultiNewMap only in multiplayer, which
// a map does not say: not followed).

char lowerAscii(char c) {
    return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c;
}

// ASCII case-insensitive equality, as Q_stricmp compares output and input names
// (baseentity.cpp ParseKeyvalue's outputs, AcceptInput).
bool sameName(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return lowerAscii(x) == lowerAscii(y);
           });
}

// baseentity.cpp NamesMatch: `name` answers the target `query` when they are equal ignoring
// ASCII case, or when the query reaches a '*' where the two still agree.
bool namesMatch(std::string_view query, std::string_view name) {
    size_t i = 0;
    while (i < query.size() && i < name.size() && lowerAscii(query[i]) == lowerAscii(name[i]))
        ++i;
    if (i == query.size() && i == name.size())
        return true;
    return i < query.size() && query[i] == '*';
}

// tier1/strtools.cpp nexttoken: the text up to `sep` (at most 255 bytes, the caller's 256-byte
// buffer), and where the next token starts: past the separator, or past the byte after a token
// cut at 255 bytes, as the engine's pointer steps over it.
std::string_view nextToken(std::string_view& rest, char sep) {
    size_t n = 0;
    while (n < rest.size() && rest[n] != sep && n < 255)
        ++n;
    const std::string_view token = rest.substr(0, n);
    rest.remove_prefix(std::min(rest.size(), n < rest.size() ? n + 1 : n));
    return token;
}

// atof: leading blanks, then the longest number there; 0 when there is none. Not finite: 0.
float atofValue(std::string_view v) {
    size_t at = 0;
    while (at < v.size() && (v[at] == ' ' || v[at] == '\t' || v[at] == '\n' || v[at] == '\r'))
        ++at;
    if (at < v.size() && v[at] == '+')
        ++at;
    float f = 0.0f;
    if (std::from_chars(v.data() + at, v.data() + v.size(), f).ec != std::errc() ||
        !std::isfinite(f))
        return 0.0f;
    return f;
}

// One action of an output (game/server/cbase.cpp CEventAction::CEventAction): target, input,
// parameter, delay and times to fire, separated by ESC (0x1b, VMF_IOPARAM_STRING_DELIMITER)
// when the value holds one, else by commas; a missing input is "Use".
struct IoAction {
    std::string_view target, input, parameter;
    float delay = 0.0f;
};
IoAction parseIoAction(std::string_view value) {
    const char sep = value.find('\x1b') != std::string_view::npos ? '\x1b' : ',';
    IoAction a;
    a.target = nextToken(value, sep);
    a.input = nextToken(value, sep);
    if (a.input.empty())
        a.input = "Use";
    a.parameter = nextToken(value, sep);
    a.delay = atofValue(nextToken(value, sep));
    return a;
}

// What one env_tonemap_controller holds for the client (the networked custom values).
struct ControllerState {
    size_t entity = 0;
    bool use_min = false, use_max = false, use_bloom = false;
    float min = 0.0f, max = 0.0f, bloom = 0.0f;
};

// The inputs of env_tonemap_controller (its DEFINE_INPUTFUNC list); at most
// kMaxToneMapActions actions naming them are followed, in the order of the entity lump (a real
// map has a handful; the cap keeps a hostile lump's work small).
constexpr std::string_view kToneMapInputs[] = {
    "SetTonemapScale",    "BlendTonemapScale",    "SetTonemapRate",
    "SetAutoExposureMin", "SetAutoExposureMax",   "UseDefaultAutoExposure",
    "SetBloomScale",      "UseDefaultBloomScale", "SetBloomScaleRange"};
constexpr size_t kMaxToneMapActions = 1024;

bool toneMapInput(std::string_view input) {
    return std::any_of(std::begin(kToneMapInputs), std::end(kToneMapInputs),
                       [input](std::string_view n) { return sameName(input, n); });
}

// The spawn-time inputs in the order the event queue delivers them: each logic_auto in entity
// order, OnNewGame's actions before OnMapSpawn's; an output's actions in the reverse of their
// order in the entity (CBaseEntityOutput::AddEventAction puts each parsed action first); then
// sorted by delay, keeping that order among equal delays (CEventQueue::AddEvent inserts after
// events of the same time).
std::vector<IoAction> spawnActions(const bsp::Map& map) {
    std::vector<IoAction> actions;
    for (const bsp::Entity& e : map.entities) {
        if (!sameName(e.classname(), "logic_auto"))
            continue;
        for (const std::string_view output : {"OnNewGame", "OnMapSpawn"}) {
            const size_t first = actions.size();
            for (const auto& [key, value] : e.pairs) {
                if (!sameName(key, output) || actions.size() >= kMaxToneMapActions)
                    continue;
                const IoAction a = parseIoAction(value);
                if (toneMapInput(a.input))
                    actions.push_back(a);
            }
            std::reverse(actions.begin() + std::ptrdiff_t(first), actions.end());
        }
    }
    std::stable_sort(actions.begin(), actions.end(),
                     [](const IoAction& a, const IoAction& b) { return a.delay < b.delay; });
    return actions;
}

std::string lowerString(std::string_view v) {
    std::string s(v);
    std::transform(s.begin(), s.end(), s.begin(), lowerAscii);
    return s;
}

// Whether any named entity answers `target` (entitylist.cpp FindEntityByName skips unnamed
// ones): `names` holds every entity's targetname in lower case, sorted; only the names that
// share the target's text before its first '*' can answer it.
bool anyNameAnswers(const std::vector<std::string>& names, std::string_view target) {
    const std::string prefix = lowerString(target.substr(0, target.find('*')));
    for (auto it = std::lower_bound(names.begin(), names.end(), prefix);
         it != names.end() && it->compare(0, prefix.size(), prefix) == 0; ++it)
        if (namesMatch(target, *it))
            return true;
    return false;
}

// The controllers an action reaches (cbase.cpp CEventQueue::ServiceEvents): the controllers
// whose targetname the target names; when no entity at all answers it, those whose classname
// it names. Targets beginning with '!' (!self, !player, ...: FindEntityProcedural) name no
// controller.
std::vector<size_t> actionTargets(const bsp::Map& map, std::string_view target,
                                  const std::vector<std::string>& names,
                                  const std::vector<ControllerState>& controllers) {
    std::vector<size_t> hit;
    if (target.empty() || target[0] == '!')
        return hit;
    const bool named = anyNameAnswers(names, target);
    for (size_t c = 0; c < controllers.size(); ++c) {
        const bsp::Entity& e = map.entities[controllers[c].entity];
        const std::string_view name = e.get("targetname");
        if (named ? !name.empty() && namesMatch(target, name) : namesMatch(target, e.classname()))
            hit.push_back(c);
    }
    return hit;
}

// The spawn-time state the inputs leave (env_tonemap_controller.cpp's Input* functions).
struct ToneMapInputs {
    std::vector<ControllerState> controllers;
    int32_t in_use = -1; // the controller whose values changed last (g_hTonemapControllerInUse)
    bool touched = false;
    float scale = 1.0f; // mat_hdr_tonemapscale
    float rate = 1.0f;  // mat_hdr_manual_tonemap_rate
};

// One input reaching controller `c`. A float input's parameter is read with atof (variant_t::
// Convert from a string); with no parameter the logic_auto's void value cannot become a float
// and the input is not called. BlendTonemapScale "target seconds" ends at its target
// (UpdateTonemapScaleBlend), and is refused without both words. SetBloomScaleRange's sscanf
// takes its arguments in the wrong order and never reads two numbers: it does nothing.
void applyInput(ToneMapInputs& s, size_t c, const IoAction& a) {
    ControllerState& st = s.controllers[c];
    const bool has_value = !a.parameter.empty();
    const float v = atofValue(a.parameter);
    bool state = false; // the controller's networked values changed
    if (sameName(a.input, "SetTonemapScale") && has_value) {
        s.scale = v;
    } else if (sameName(a.input, "BlendTonemapScale") && has_value) {
        std::string_view rest = a.parameter;
        while (!rest.empty() && rest.front() == ' ')
            rest.remove_prefix(1);
        const std::string_view to = nextToken(rest, ' ');
        while (!rest.empty() && rest.front() == ' ')
            rest.remove_prefix(1);
        if (to.empty() || nextToken(rest, ' ').empty())
            return;
        s.scale = atofValue(to);
    } else if (sameName(a.input, "SetTonemapRate") && has_value) {
        s.rate = v;
    } else if (sameName(a.input, "SetAutoExposureMin") && has_value) {
        st.min = v, st.use_min = true, state = true;
    } else if (sameName(a.input, "SetAutoExposureMax") && has_value) {
        st.max = v, st.use_max = true, state = true;
    } else if (sameName(a.input, "UseDefaultAutoExposure")) {
        st.use_min = st.use_max = false, state = true;
    } else if (sameName(a.input, "SetBloomScale") && has_value) {
        st.bloom = v, st.use_bloom = true, state = true;
    } else if (sameName(a.input, "UseDefaultBloomScale")) {
        st.use_bloom = false, state = true;
    } else {
        return;
    }
    s.touched = true;
    if (state)
        s.in_use = int32_t(c);
}

// The map's tone map settings: the engine's defaults (the client's viewpostprocess.cpp
// mat_autoexposure_min 0.5, mat_autoexposure_max 2, mat_bloomscale 1,
// mat_hdr_manual_tonemap_rate 1, mat_tonemap_percent_target 60, _percent_bright_pixels 2,
// _min_avglum 3; the scale 1 that cdll_client_int.cpp LevelInitPreEntity resets to with
// ResetToneMapping(1.0), mat_hdr_tonemapscale's default) under what the spawn inputs set.
ToneMapRule sourceToneMap(const bsp::Map& map) {
    ToneMapRule t;
    t.source = ToneMapSource::Defaults;
    t.enabled = map.lighting_variant == "HDR";
    ToneMapInputs s;
    for (size_t i = 0; i < map.entities.size(); ++i)
        if (sameName(map.entities[i].classname(), "env_tonemap_controller"))
            s.controllers.push_back({.entity = i});
    t.controllers = int32_t(s.controllers.size());
    if (!s.controllers.empty()) {
        std::vector<std::string> names;
        for (const bsp::Entity& e : map.entities)
            if (const std::string_view n = e.get("targetname"); !n.empty())
                names.push_back(lowerString(n));
        std::sort(names.begin(), names.end());
        for (const IoAction& a : spawnActions(map))
            for (const size_t c : actionTargets(map, a.target, names, s.controllers))
                applyInput(s, c, a);
    }
    if (!s.touched)
        return t;
    t.source = ToneMapSource::Controller;
    t.scale = std::max(0.0f, s.scale);
    t.rate = std::max(0.0f, s.rate);
    if (s.in_use >= 0) {
        // viewpostprocess.cpp GetExposureRange: a custom value counts when above 0; the
        // maximum is raised to the minimum where it is below. GetCurrentBloomScale likewise.
        const ControllerState& c = s.controllers[size_t(s.in_use)];
        if (c.use_min && c.min > 0.0f)
            t.auto_min = c.min;
        if (c.use_max && c.max > 0.0f)
            t.auto_max = c.max;
        t.auto_max = std::max(t.auto_max, t.auto_min);
        if (c.use_bloom)
            t.bloom_scale = c.bloom;
    }
    return t;
}

} // namespace

GameProfile sourceProfile(const bsp::Map& map) {
    GameProfile p;
    p.family = Family::Source;
    LightRule& light = p.rules.light;
    // A face without lighting is drawn full bright, as the engine does (mat_fullbright). With no
    // lighting lump at all the engine shows each texture as it is (the look of mat_fullbright
    // 1): the 2x overbright belongs to luxels, and such a map has none, so the full light of its
    // faces is 1x, not 2x (bspsrc's *_tooltextures samples).
    light.unlit_faces = UnlitFaces::Fullbright;
    light.lightmap_scale = map.has_light_data ? 2.0f : 1.0f;
    p.view.eye_height = 64.0f; // VEC_VIEW: Half-Life 2, Counter-Strike: Source and TF2 alike
    // Worldspawn "skyname" names the sky box materials/skybox/<skyname>{rt,bk,lf,ft,up,dn}.vmt
    // (VDC "Skybox (2D)"; the sides are materials, usually UnlitGeneric or Sky).
    p.skybox = skyPath(worldspawn(map), "skyname", "skybox/");
    // The pakfile lump (a zip of the map's own materials and cube maps) is searched before every
    // other source, as the engine mounts it first (filesystem: the BSP's pack file).
    p.mount.embedded_archive_first = true;
    p.materials.files = MaterialFiles::ValveMaterials;
    // Static props (sprp) and prop_dynamic / prop_physics draw their studio models
    // (scene/models/source_props.h), not a table's.
    p.entities.model_table = EntityModelTable::SourceProps;
    // public/materialsystem/materialsystem_config.h MaterialSystem_Config_t: trilinear filtering
    // forced on (MATSYS_VIDCFG_FLAGS_FORCE_TRILINEAR); the anisotropy level is the engine's
    // mat_forceaniso, whose default the SDK does not hold: 1 (off) here.
    p.rules.textures = {.mode = TextureMode::LinearMipmapLinear, .anisotropy = 1.0f};
    // Sky faces are drawn at the far plane, as the engine draws the sky box behind everything
    // instead of them (game::SkyDepth).
    p.rules.sky.at_far_plane = true;
    p.sky_region = skyCamera(map);
    const int32_t fog_controller = masterFogController(map);
    p.rules.linear_fog = worldFog(map, fog_controller);
    p.view.far_plane = worldFarPlane(map, fog_controller, p.warnings);
    p.rules.tonemap = sourceToneMap(map);
    return p;
}

} // namespace game::detail
