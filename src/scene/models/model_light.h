// How much light a model at a point receives, by its map's rule: from the lightmap below it
// (Quake 1, Quake 2: QuakeSpasm gl_rlight.c R_LightPoint), from the light grid (Quake 3:
// ioquake3's opengl1 tr_light.c R_SetupEntityLightingGrid and R_SetupEntityLighting), or as
// GoldSrc lights a studio model (Xash3D FWGS gl_studio.c R_StudioDynamicLight). GL-free;
// docs/models.md cites the steps.
#pragma once

#include "bsp/map.h"
#include "game/profile.h"
#include "scene/models/model_set.h"
#include "scene/world/lightmap_set.h"

#include <glm/vec3.hpp>

#include <array>

namespace scene {

// A model's light: each vertex gets ambient + directed * max(dot(normal, dir), 0)
// (tr_shade_calc.c RB_CalcDiffuseColor), times its texel.
struct ModelLight {
    glm::vec3 ambient{0.0f};
    glm::vec3 directed{0.0f};
    glm::vec3 dir{0.0f, 0.0f, 1.0f}; // world space, unit, toward the light
    // > 0: the engine keeps a vertex's light as a byte per channel, ambient + directed * d
    // truncated and clamped at 255 (tr_shade_calc.c RB_CalcDiffuseColor); this many bytes make
    // 1 (identityLight * 255). 0: not quantized.
    float bytes = 0.0f;
};

// R_SetupEntityLightingGrid before its cvar scales: the eight grid points about `p` blended
// trilinearly, in the grid's byte units after each point's colours are shifted left by `shift`
// bits with the hue kept (tr_bsp.c R_ColorShiftLightingBytes, as R_LoadLightGrid does at load).
// Corners beyond the grid's last point and points in solid (the engine's test: ambient all zero)
// are left out, and the rest rescaled to a total weight of one when theirs is below 0.99. `p`
// outside the grid takes the nearest cell. `dir` is the weighted sum of the points' directions,
// normalised (zero when every point was left out).
ModelLight sampleLightGrid(const bsp::LightGrid& grid, const glm::vec3& p, int shift);

// The light of a model at `p` on a map whose models are lit from the grid, in the renderer's
// units (1: the texel as it is): the grid sample with r_ambientScale 0.6 and r_directedScale 1,
// or without a grid the engine's fixed 150 from its default sun direction; plus the minimum
// ambient of 32, ambient clamped at the identity light byte, all scaled by the lighting rule's
// overbright (game::LightRule::overbright: grid bytes shifted left once with the hue kept,
// identity light 1/2 and the output doubled, as the world is drawn: docs/fidelity.md).
ModelLight gridModelLight(const bsp::Map& map, const game::LightRule& rule, const glm::vec3& p);

// GoldSrc's light for a studio model, from the light under it (Xash3D FWGS ref/gl/gl_studio.c
// R_StudioDynamicLight, no dynamic lights, v_direct at its default 0.9):
// - `below`: R_LightVec's colour (0..255) of the surface under the origin;
// - `gradient`: the brightness ((r + g + b) / 768) under the four points 16 units off along
//   (-x, -y), (+x, -y), (+x, +y), (-x, +y), which give the light's sideways lean when the map
//   has no light vectors (GoldSrc maps have none): x = g0 - g1 - g2 + g3, y = g1 + g0 - g2 - g3,
//   z = -1 (from above), normalised.
// The brightest channel is the total; 0.9 of it is the shade light along that direction and the
// rest the ambient, clamped at 128, ambient plus shade at 255; the colour is the light over its
// brightest channel. R_StudioLighting then gives each vertex ambient + shade * min(max((1 + d)
// / 1.495, 0), 1) with d = dot(normal, toward the light) (SHADE_LAMBERT 1.495), through
// LightToTexGamma (the identity at the default gamma 2.5 = lightgamma 2.5) over 255.75
// (illum * 4 / 1023). Returned in the renderer's units, with `wrap` for
// EntityModelInstance::light_wrap.
struct StudioLight {
    ModelLight light;
    glm::vec3 wrap{1.0f, 1.495f, 1.0f};
};
StudioLight studioModelLight(const glm::vec3& below, const std::array<float, 4>& gradient);

class MapProbe; // scene/models/placement.h

// R_LightPoint: the style-0 luxel of the first lit surface straight below `p`, / 200 as
// R_SetupAliasLighting scales it (its sum capped at 288 first, as with overbright models); a map
// without light data is full bright (255 / 200).
glm::vec3 lightBelow(MapProbe& probe, const LightmapSet& lightmaps, const glm::vec3& p);

// R_StudioDynamicLight's samples for a studio model at `p` (the light below and the brightness
// below four points 16 units off), through studioModelLight.
StudioLight studioLight(MapProbe& probe, const LightmapSet& lightmaps, const glm::vec3& p);

// Lights a placed instance of `model` by the map's rule: nothing for a full bright instance or a
// brush model (its own lightmaps light it, as R_DrawBrushModel does); the light grid sampled at
// the middle of the item bob where the map's models take it (game::ModelLighting::LightGrid;
// cg_ents.c CG_Item lights an item at its bobbing origin, 0 to 8 units up, and grid cells are 64
// or more); the studio rule for a Half-Life studio model; else the lightmap below its origin.
void lightInstance(EntityModelInstance& instance, const LoadedModel& model, MapProbe& probe,
                   const LightmapSet& lightmaps, const game::GameProfile& profile);

} // namespace scene
