// Quake 3 flares (face type 4, bsp::FaceKind::Billboard) as data, and the per-flare rules the
// renderer applies, without GL.
//
// After ioquake3 code/renderergl1/tr_flares.c: a flare is a point (the face's lightmap origin)
// with a colour (lightmapVecs[0]) and a facing normal (lightmapVecs[2]) read by tr_bsp.c
// ParseFlare. Each frame the engine projects the point, drops it when off screen or when the
// normal faces away (and dims it by the cosine otherwise), tests whether the point is hidden
// and fades the flare in or out over 1 / r_flareFade seconds when that answer changes
// (RB_TestFlare). It draws a screen-space square whose half size and intensity depend on the
// distance (RB_RenderFlare: r_flareSize 40, r_flareCoeff 150), blended additively with no depth
// test. ioquake3 reads the depth buffer per flare; bspview asks an occlusion query instead and
// uses its answer when it is ready, a frame or more later, so the pipeline never waits.
#pragma once

#include "bsp/map.h"
#include "scene/world/material_table.h"

#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

namespace scene {

struct Flare {
    glm::vec3 origin{0.0f};
    glm::vec3 colour{1.0f};
    glm::vec3 normal{0.0f}; // zero: seen from every side
    int32_t material = -1;  // the face's material (its image is the flare's image)
    uint32_t face = 0;      // the face it came from
    int32_t leaf = -1;      // the leaf holding the origin, -1 when none
    int32_t cluster = -1;   // PVS cluster of that leaf, -1 when none
};

// Every flare of the world model, in face order. Skipped: flares of brush models (doors; they
// would have to move with their entity), black ones (they add nothing) and nodraw ones (by
// the flags of `materials`, parallel to map.materials: see scene/world/material_table.h).
std::vector<Flare> extractFlares(const bsp::Map& map, const MaterialTable& materials);
// The same with the materials resolved from the map alone (no shader scripts).
std::vector<Flare> extractFlares(const bsp::Map& map);

// Whether the PVS lets a flare through from the camera's cluster. Like ioquake3, which only
// meets flares on surfaces of visible leaves, but decided by the flare's own point; flares
// outside every cluster, a camera outside the map and maps without vis pass. scene::Visibility
// applies it (with the VisOptions switches) to fill DrawList::flares.
bool flareInPvs(const bsp::Vis& vis, const Flare& flare, int32_t camera_cluster);

// ioquake3 defaults.
inline constexpr float kFlareSize = 40.0f;   // r_flareSize: pixels at 640 wide
inline constexpr float kFlareCoeff = 150.0f; // r_flareCoeff
inline constexpr float kFlareFade = 10.0f;   // r_flareFade: full fade in 1/10 s

// Half size in pixels and intensity of a flare at `distance` units in front of the eye on a
// viewport `viewport_width` pixels wide (RB_RenderFlare). distance must be > 0.
struct FlareShape {
    float half_size = 0.0f;
    float intensity = 0.0f;
};
FlareShape flareShape(float distance, float viewport_width);

// Dimming by the angle between the flare's normal and the direction to the eye: the cosine,
// 0 when facing away; 1 for a flare without a normal.
float flareFacing(const Flare& flare, const glm::vec3& eye);

// Fade state of one flare across frames (RB_TestFlare).
struct FlareFade {
    bool visible = false;
    double changed_at = -1e9; // seconds when `visible` last flipped
    // Records this frame's answer; returns the draw intensity in [0, 1] at `now`.
    float update(bool visible_now, double now, float fade_rate = kFlareFade);
};

} // namespace scene
