// How much light a model at a point receives from the map's light grid, as ioquake3's renderer
// works it out for an entity (opengl1 tr_light.c R_SetupEntityLightingGrid and
// R_SetupEntityLighting). GL-free; docs/models.md cites the steps.
#pragma once

#include "bsp/map.h"

#include <glm/vec3.hpp>

namespace scene {

// A model's light: each vertex gets ambient + directed * max(dot(normal, dir), 0)
// (tr_shade_calc.c RB_CalcDiffuseColor), times its texel.
struct ModelLight {
    glm::vec3 ambient{0.0f};
    glm::vec3 directed{0.0f};
    glm::vec3 dir{0.0f, 0.0f, 1.0f}; // world space, unit, toward the light
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
// ambient of 32, ambient clamped at the identity light byte, all scaled by the map's overbright
// (identity light 1/2 and the output doubled when Map::overbright_lighting, as the world is
// drawn: docs/fidelity.md).
ModelLight gridModelLight(const bsp::Map& map, const glm::vec3& p);

} // namespace scene
