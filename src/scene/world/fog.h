// Quake 3 fog volumes made ready to draw, without GL: each bsp::Fog joined with its shader's
// fogParms (colour, distance to opaque).
//
// What ioquake3 (code/renderergl1) does and we follow, per fragment instead of per vertex:
//   - tr_bsp.c R_LoadFogs: the box of the fog brush, the colour from fogParms, the visible
//     side's plane turned inward; a distance below 1 counts as 1.
//   - tr_shade_calc.c RB_CalcFogTexCoords + tr_image.c R_FogFactor: the fog amount of a point
//     is sqrt(min(1, depth / distance * clip)), depth being its distance along the view axis;
//     clip is 1 when the eye is in the fog (and 0 for points outside the fog plane), and the
//     share of the view ray that lies inside the fog plane when the eye is outside it.
//   - tr_shade.c RB_FogPass: the fog is a GL_SRC_ALPHA GL_ONE_MINUS_SRC_ALPHA pass over the
//     faces the map puts in the fog (their fog number), including the fog's own surfaces,
//     which seen from inside lay the fog over what is behind them.
//   - tr_shader.c adjustColorsForFog: a shader blended from its first stage gets no fog pass;
//     instead, on a fogged face, each stage's colour fades by (1 - fog amount) in the channels
//     its blend makes go to nothing (fogFadeMask).
#pragma once

#include "bsp/map.h"
#include "content/material/q3_shader.h"
#include "content/material/shader_library.h"

#include <vector>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

namespace scene {

struct FogVolume {
    glm::vec3 mins{0.0f}, maxs{0.0f};
    glm::vec3 colour{0.5f};
    float distance = 1.0f;    // depthForOpaque: the depth at which the fog is opaque, >= 1
    bool has_surface = false; // the fog has a visible side (else it is only seen from inside)
    glm::vec4 surface{0.0f};  // xyz: normal into the fog, w: dist (dot(n, p) - w > 0 inside)
    bool valid = false;       // false when the shader has no fogParms: not drawn
};

// Parallel to map.fogs. A fog whose shader is missing or has no fogParms is not valid.
std::vector<FogVolume> buildFogVolumes(const bsp::Map& map, const content::ShaderLibrary& shaders);

// The fog amount (0..1) ioquake3's fog pass gives a point seen from `eye`; `depth` is the
// point's distance along the view axis.
float fogAmount(const FogVolume& fog, const glm::vec3& eye, const glm::vec3& point, float depth);

// Which channels of a blended stage fade in fog (1) as ioquake3's adjustColorsForFog picks
// them: additive (GL_ONE GL_ONE) and GL_ZERO GL_ONE_MINUS_SRC_COLOR fade rgb, alpha blending
// fades alpha, premultiplied alpha (GL_ONE GL_ONE_MINUS_SRC_ALPHA) fades rgba; other blends
// and opaque stages none (all 0).
glm::vec4 fogFadeMask(const content::ShaderStage& stage);

} // namespace scene
