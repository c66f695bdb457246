#include "bsp/q1_spawn.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <numbers>
#include <string>
#include <string_view>
#include <vector>

namespace bsp {

namespace {

constexpr int kDoorStartOpen = 1;      // doors.qc DOOR_START_OPEN
constexpr int kLightStartOff = 1;      // misc.qc START_OFF
constexpr int kNotInNormalSkill = 512; // QuakeSpasm progs.h SPAWNFLAG_NOT_MEDIUM
constexpr int kFirstSwitchableStyle = 32;
constexpr int kTestStyle = 63; // world.qc: "63 testing", set to "a"
constexpr float kDefaultLip = 8.0f;

// QuakeC reads every number as a float and masks flags after an int conversion; values that
// do not fit an int count as 0 here instead of being undefined.
int intKey(const Entity& e, std::string_view key) {
    const float v = e.number(key).value_or(0.0f);
    return std::fabs(v) < 1e9f ? static_cast<int>(v) : 0;
}

// The brush model's size as the game sees it: Mod_LoadSubmodels spreads the bounds by a unit.
glm::vec3 engineSize(const Submodel& sm) {
    return (sm.maxs + 1.0f) - (sm.mins - 1.0f);
}

// subs.qc SetMovedir: angles '0 -1 0' is up, '0 -2 0' down, anything else the forward vector
// of makevectors (QuakeSpasm mathlib.c AngleVectors, in double as the engine computes it). The
// engine turns an "angle" key into "angles" '0 angle 0' (pr_edict.c ED_ParseEdict).
glm::vec3 moveDirection(const Entity& e) {
    glm::vec3 a(0.0f);
    if (auto v = e.vec3("angles"))
        a = *v;
    else if (auto yaw = e.number("angle"))
        a = glm::vec3(0.0f, *yaw, 0.0f);
    if (a == glm::vec3(0.0f, -1.0f, 0.0f))
        return {0.0f, 0.0f, 1.0f};
    if (a == glm::vec3(0.0f, -2.0f, 0.0f))
        return {0.0f, 0.0f, -1.0f};
    const double pitch = double(a.x) * (std::numbers::pi / 180.0);
    const double yaw = double(a.y) * (std::numbers::pi / 180.0);
    return glm::vec3(float(std::cos(pitch) * std::cos(yaw)), float(std::cos(pitch) * std::sin(yaw)),
                     float(-std::sin(pitch)));
}

// doors.qc func_door: pos2 = pos1 + movedir * (|movedir . size| - lip), lip 8 when unset or 0.
glm::vec3 doorOpenOrigin(const Entity& e, const Submodel& sm) {
    const glm::vec3 dir = moveDirection(e);
    float lip = e.number("lip").value_or(0.0f);
    if (lip == 0.0f)
        lip = kDefaultLip;
    const glm::vec3 size = engineSize(sm);
    const float d = dir.x * size.x + dir.y * size.y + dir.z * size.z;
    return sm.origin + dir * (std::fabs(d) - lip);
}

// plats.qc func_plat: the bottom is origin.z - height, or - size.z + 8 without a height.
glm::vec3 platLoweredOrigin(const Entity& e, const Submodel& sm) {
    glm::vec3 o = sm.origin;
    const float height = e.number("height").value_or(0.0f);
    o.z -= height != 0.0f ? height : engineSize(sm).z - 8.0f;
    return o;
}

// The first spawned entity with this targetname, as QuakeC find(world, targetname, name) sees
// it a tenth of a second in; -1 when there is none (find returns the world, at the origin).
int32_t findTarget(const Map& map, const std::vector<bool>& spawned, std::string_view name) {
    for (size_t i = 1; i < map.entities.size(); ++i)
        if (spawned[i] && map.entities[i].get("targetname") == name)
            return static_cast<int32_t>(i);
    return -1;
}

void placeBrushModels(Map& map, const std::vector<bool>& spawned) {
    for (size_t m = 1; m < map.submodels.size(); ++m) {
        Submodel& sm = map.submodels[m];
        if (sm.entity < 0)
            continue;
        const Entity& e = map.entities[size_t(sm.entity)];
        if (!spawned[size_t(sm.entity)]) {
            sm.visible = false;
            continue;
        }
        const std::string_view cls = e.classname();
        if (cls == "func_door" && (intKey(e, "spawnflags") & kDoorStartOpen)) {
            sm.origin = doorOpenOrigin(e, sm);
        } else if (cls == "func_plat") {
            sm.angles = glm::vec3(0.0f); // func_plat keeps them in mangle and draws unturned
            if (e.get("targetname").empty())
                sm.origin = platLoweredOrigin(e, sm);
        } else if (cls == "func_train") {
            const std::string_view target = e.get("target");
            if (target.empty()) { // objerror: QuakeSpasm PF_objerror frees the entity
                sm.visible = false;
                continue;
            }
            const int32_t t = findTarget(map, spawned, target);
            const glm::vec3 corner =
                t >= 0 ? map.entities[size_t(t)].vec3("origin").value_or(glm::vec3(0.0f))
                       : glm::vec3(0.0f);
            sm.origin = corner - (sm.mins - 1.0f); // setorigin(targ.origin - self.mins)
        }
    }
}

void setLightStyles(Map& map, const std::vector<bool>& spawned) {
    std::map<int32_t, char> styles{{kTestStyle, 'a'}};
    for (size_t i = 1; i < map.entities.size(); ++i) {
        const Entity& e = map.entities[i];
        if (!spawned[i] || !e.classname().starts_with("light") || e.get("targetname").empty())
            continue;
        const int style = intKey(e, "style");
        if (style < kFirstSwitchableStyle || style > kTestStyle)
            continue;
        styles[style] = (intKey(e, "spawnflags") & kLightStartOff) ? 'a' : 'm';
    }
    map.light_style_strings.clear();
    for (const auto& [style, letter] : styles)
        map.light_style_strings.push_back({style, std::string(1, letter)});
}

// The engine strips one leading underscore and trailing spaces from worldspawn keys.
std::string_view engineKey(std::string_view key) {
    if (!key.empty() && key.front() == '_')
        key.remove_prefix(1);
    while (!key.empty() && key.back() == ' ')
        key.remove_suffix(1);
    return key;
}

DistanceFog worldFog(const Entity& world) {
    constexpr float kDefaultSkyFog = 0.5f; // gl_sky.c r_skyfog
    float v[4] = {0.0f, 0.3f, 0.3f, 0.3f}; // gl_fog.c DEFAULT_DENSITY, DEFAULT_GRAY
    float sky = kDefaultSkyFog;
    for (const auto& [key, value] : world.pairs) {
        const std::string_view k = engineKey(key);
        if (k == "fog") { // sscanf("%f %f %f %f"): stops at the first number that fails
            const std::string text(value);
            const char* p = text.c_str();
            for (float& x : v) {
                char* end = nullptr;
                const float f = std::strtof(p, &end);
                if (end == p || !std::isfinite(f))
                    break;
                x = f;
                p = end;
            }
        } else if (k == "skyfog") {
            sky = std::strtof(std::string(value).c_str(), nullptr);
        }
    }
    DistanceFog fog;
    if (!(v[0] > 0.0f))
        return fog;
    fog.density = v[0] / 64.0f; // Fog_SetupFrame
    for (int i = 0; i < 3; ++i) // Fog_GetColor: clamped, then the nearest 8-bit value
        fog.colour[i] = std::round(std::clamp(v[i + 1], 0.0f, 1.0f) * 255.0f) / 255.0f;
    fog.sky = std::isfinite(sky) ? std::clamp(sky, 0.0f, 1.0f) : 0.0f;
    return fog;
}

} // namespace

void applyQuake1SpawnState(Map& map) {
    std::vector<bool> spawned(map.entities.size(), true);
    for (size_t i = 1; i < map.entities.size(); ++i)
        spawned[i] = !(intKey(map.entities[i], "spawnflags") & kNotInNormalSkill);
    placeBrushModels(map, spawned);
    setLightStyles(map, spawned);
    if (!map.entities.empty() && map.entities[0].classname() == "worldspawn")
        map.distance_fog = worldFog(map.entities[0]);
}

} // namespace bsp
