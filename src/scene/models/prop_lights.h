// The direct light of Source props: the map's world lights (bsp/world_lights.h) chosen and
// weighted as the engine's light cache does for a static prop, and the vertex light the model
// shader computes from them. GL-free; docs/source.md "Prop lighting" cites the steps.
//
// Source SDK 2013 engine (the 2018 engine tree, engine/lightcache.cpp, l_studio.cpp,
// materialsystem/shaderapidx9/shaderapidx8.cpp, materialsystem/stdshaders/common_vs_fxc.h):
//  - AddStaticLighting: each world light of style 0 in lump order (styled, switchable lights are
//    left out), those vrad already folded into the leaf ambient cube (DWL_FLAGS_INAMBIENTCUBE)
//    skipped, goes through AddWorldLightToLightingState at the prop's lighting origin;
//  - there: a light whose cluster the origin's cluster cannot see (the PVS) is rejected, except
//    the sky light; LightIntensityAndDirectionInBox rejects a point or spot light farther than
//    its radius from the light cache cell (32 x 32 x 128 units) holding the origin, a spot or
//    surface light whose cone misses the cell's bounding sphere; then
//    LightIntensityAndDirectionAtPoint: the sky light counts (ratio 1, along -normal) when a ray
//    from the origin against its normal meets a sky face, the sky ambient never; others take
//    Engine_WorldLightDistanceFalloff (1 / (c + l d + q d^2), surface 1 / d^2, quake linear - d),
//    are dropped below 0.0002 * their brightest channel, and are shadowed when a ray from the
//    origin to the light stops more than 8 units short;
//  - illum = ratio * the intensity's grey (0.299, 0.587, 0.114); a light of at least 0.0002 (any
//    surface light) takes one of r_worldlights = 4 slots, or replaces the dimmest one there; the
//    light that stays out is added to the ambient cube (AddWorldLightToLightCube: each side
//    facing its direction by the cosine, times ratio * Engine_WorldLightAngle).
// The ambient cube the lights start from is the leaf's (the engine's rule for models at
// r_radiosity 4 other than static props; for static props it samples the world in 162
// directions, ComputeAmbientFromSphericalSamples, not done here).
#pragma once

#include "bsp/map.h"

#include <array>
#include <cstdint>
#include <span>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

namespace physics {
class CollisionWorld;
}

namespace scene {

// r_worldlights' default: the local lights a model's vertex shader takes.
inline constexpr uint32_t kMaxSourceLocalLights = 4;

// A local light as the vertex shader gets it: a world light through WorldLightToMaterialLight
// and the DX9 shader API's constants (CommitVertexShaderLighting).
struct SourceLocalLight {
    glm::vec3 colour{0.0f}; // linear; the world light's intensity
    glm::vec3 position{0.0f};
    glm::vec3 direction{0.0f, 0.0f, -1.0f};  // where a spot points; a directional light's travel
    glm::vec3 attenuation{1.0f, 0.0f, 0.0f}; // constant, linear, quadratic (all 0: constant 1)
    // Spot lights: exponent, stopdot, stopdot2, 1 / (stopdot - stopdot2) (0 when not above);
    // others (0, 1, 1, 1), unused.
    glm::vec4 spot{0.0f, 1.0f, 1.0f, 1.0f};
    bool directional = false; // the sky light: no falloff, from -direction
    bool cone = false;        // spot and surface lights
};

struct SourcePropLight {
    std::array<glm::vec3, 6> cube{}; // +x, -x, +y, -y, +z, -z; linear
    std::array<SourceLocalLight, kMaxSourceLocalLights> lights{};
    uint32_t light_count = 0;
    std::array<int32_t, kMaxSourceLocalLights> world_light{}; // index into the lights list
};

// WorldLightToMaterialLight: point and spot lights keep their attenuation, a surface light is a
// 180-degree spot with quadratic 1, the sky light is directional; the spot's cone angles as the
// shader API rebuilds them (an inner angle within 0.001 rad of the outer one is moved there).
SourceLocalLight materialLight(const bsp::WorldLight& light);

// The light-cache choice above for a prop lit at `origin`, starting from `cube`. `world` traces
// the sky and shadow rays; nullptr: none (every light counts as unshadowed, the sky light as
// unseen).
SourcePropLight lightSourceProp(const bsp::Map& map, std::span<const bsp::WorldLight> lights,
                                const physics::CollisionWorld* world, const glm::vec3& origin,
                                const std::array<glm::vec3, 6>& cube);

// The vertex light (linear) the model shader gives a vertex at world `position` with unit world
// `normal` (common_vs_fxc.h AmbientLight plus DoLighting without half-Lambert: per light
// max(dot(n, l), 0) * colour * attenuation, GetVertexAttenForLight's 1 / dot(atten, (1, d, d^2))
// times, for a spot, saturate(max((cos - stopdot2) * oodot, 0.0001)^exponent); directional 1).
glm::vec3 sourceVertexLight(const SourcePropLight& light, const glm::vec3& position,
                            const glm::vec3& normal);

} // namespace scene
