// Source world lights (VBSP lump 15 "worldlights", lump 54 "worldlights_hdr"): the direct lights
// vrad compiled the map with, kept in the map for the engine's model lighting (Source SDK 2013
// public/bspfile.h dworldlight_t, emittype_t; engine/modelloader.cpp Mod_LoadWorldlights, which
// also fixes up old lights at load: see fixUpWorldLight). GL-free and Map-free.
#pragma once

#include "core/result.h"

#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

namespace bsp {

// emittype_t
enum class EmitType : int32_t {
    Surface = 0,    // a light-emitting face (90-degree cone, 1/d^2)
    Point = 1,      // light
    Spotlight = 2,  // light_spot
    Skylight = 3,   // light_environment's sun: a direction, lights what sees the sky
    QuakeLight = 4, // linear falloff (linear_attn - d)
    SkyAmbient = 5, // light_environment's ambient: only hit sky in ambient sampling
};
inline constexpr int32_t kEmitTypeCount = 6;

// DWL_FLAGS_INAMBIENTCUBE: vrad folded this light into the leaf ambient cubes.
inline constexpr int32_t kWorldLightInAmbientCube = 1;

struct WorldLight {
    glm::vec3 origin{0.0f};
    glm::vec3 intensity{0.0f}; // linear light, vrad's 0..255 scale / 255
    glm::vec3 normal{0.0f};    // spot and surface lights: where they point; sky: light's travel
    glm::vec3 shadow_cast_offset{0.0f}; // lump version 1 only
    int32_t cluster = -1;
    EmitType type = EmitType::Point;
    int32_t style = 0;
    float stopdot = 0.0f;  // spot: cos of the inner cone's half angle
    float stopdot2 = 0.0f; // spot: cos of the outer cone's half angle
    float exponent = 0.0f;
    float radius = 0.0f; // 0: none stored (fixUpWorldLight computes one)
    float constant_attn = 0.0f;
    float linear_attn = 0.0f;
    float quadratic_attn = 0.0f;
    int32_t flags = 0;
    int32_t texinfo = 0;
    int32_t owner = 0;
};

// Record sizes: version 0 (dworldlight_version0_t, SDK 2013's maps) 88 bytes; version 1 (with
// shadow_cast_offset after normal, later branches) 100 bytes.
inline constexpr uint64_t kWorldLightBytesV0 = 88;
inline constexpr uint64_t kWorldLightBytesV1 = 100;

// Reads the lights of one worldlights lump (`hdr` names lump 54 in errors) with the engine's
// load-time fixups applied. Errors name the lump and the record index: an unknown lump version,
// a size that is not whole records, an unknown emit type, a non-finite number.
core::Result<std::vector<WorldLight>> parseWorldLights(std::span<const uint8_t> lump,
                                                       int32_t version, bool hdr);

// Mod_LoadWorldlights' fixups: a point or spot light without attenuation takes quadratic 1 (a
// spot's exponent 0 becomes 1), and a radius below 1 is replaced by the distance at which the
// light falls to 0.03 (0.015 in HDR) of its intensity's length (gl_drawlights.cpp
// ComputeLightRadius; 2000 when it never does).
void fixUpWorldLight(WorldLight& light, bool hdr);

} // namespace bsp
