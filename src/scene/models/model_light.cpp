#include "scene/models/model_light.h"

#include "scene/models/placement.h"

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include <algorithm>
#include <array>
#include <cmath>

namespace scene {

namespace {

// tr_bsp.c R_ColorShiftLightingBytes: shifted, and scaled down by the largest channel when
// one passes 255, so a bright colour keeps its hue instead of going white.
glm::vec3 shiftColour(const std::array<uint8_t, 3>& in, int shift) {
    std::array<int, 3> c{in[0] << shift, in[1] << shift, in[2] << shift};
    const int largest = std::max({c[0], c[1], c[2]});
    if (largest > 255)
        for (int& v : c)
            v = v * 255 / largest;
    return glm::vec3(float(c[0]), float(c[1]), float(c[2]));
}

} // namespace

ModelLight sampleLightGrid(const bsp::LightGrid& grid, const glm::vec3& p, int shift) {
    ModelLight out;
    out.dir = glm::vec3(0.0f);
    const size_t expected =
        size_t(grid.counts[0]) * size_t(grid.counts[1]) * size_t(grid.counts[2]);
    if (grid.points.empty() || grid.points.size() != expected)
        return out;
    std::array<int32_t, 3> pos{};
    glm::vec3 frac(0.0f);
    for (int i = 0; i < 3; ++i) {
        const float v = (p[i] - grid.origin[i]) / grid.cell_size[i];
        const float fl = std::isfinite(v) ? std::floor(v) : 0.0f;
        frac[i] = std::isfinite(v) ? v - fl : 0.0f;
        // The engine keeps the fraction of a point outside the grid and clamps the cell.
        pos[size_t(i)] = int32_t(std::clamp(fl, 0.0f, float(grid.counts[size_t(i)] - 1)));
    }
    float total = 0.0f;
    for (int corner = 0; corner < 8; ++corner) {
        float factor = 1.0f;
        std::array<int32_t, 3> at = pos;
        bool inside = true;
        for (int j = 0; j < 3; ++j) {
            if (corner & (1 << j)) {
                if (pos[size_t(j)] + 1 > grid.counts[size_t(j)] - 1) {
                    inside = false;
                    break;
                }
                factor *= frac[j];
                ++at[size_t(j)];
            } else {
                factor *= 1.0f - frac[j];
            }
        }
        if (!inside)
            continue;
        const bsp::LightGridPoint& point =
            grid.points[size_t(at[0]) +
                        size_t(grid.counts[0]) *
                            (size_t(at[1]) + size_t(grid.counts[1]) * size_t(at[2]))];
        // The engine tests the shifted ambient bytes, zero exactly when the stored ones are.
        if (point.ambient[0] + point.ambient[1] + point.ambient[2] == 0)
            continue; // in a wall
        total += factor;
        out.ambient += factor * shiftColour(point.ambient, shift);
        out.directed += factor * shiftColour(point.directed, shift);
        out.dir += factor * point.direction;
    }
    if (total > 0.0f && total < 0.99f) {
        out.ambient /= total;
        out.directed /= total;
    }
    const float len = glm::length(out.dir);
    out.dir = len > 0.0f ? out.dir / len : glm::vec3(0.0f);
    return out;
}

ModelLight gridModelLight(const bsp::Map& map, const game::LightRule& rule, const glm::vec3& p) {
    // ioquake3 at the settings the world is drawn with (r_mapOverBrightBits 2,
    // r_overBrightBits 1): grid bytes shifted left once, identity light 1/2, and the gamma
    // ramp doubling what is drawn.
    const bool overbright = rule.overbright != 0;
    const float identity = overbright ? 0.5f : 1.0f;
    ModelLight l;
    if (map.light_grid) {
        l = sampleLightGrid(*map.light_grid, p, overbright ? 1 : 0);
        l.ambient *= 0.6f; // r_ambientScale
    } else {
        // R_SetupEntityLighting without grid data; tr_bsp.c RE_LoadWorldMap's sun direction.
        l.ambient = l.directed = glm::vec3(identity * 150.0f);
        l.dir = glm::normalize(glm::vec3(0.45f, 0.3f, 0.9f));
    }
    const float identity_byte = std::floor(255.0f * identity); // tr.identityLightByte, an int
    l.ambient = glm::min(l.ambient + identity * 32.0f, glm::vec3(identity_byte));
    if (l.dir == glm::vec3(0.0f))
        l.dir = glm::vec3(0.0f, 0.0f, 1.0f); // every point in solid: no directed light either
    const float to_texel = 1.0f / (identity * 255.0f);
    l.ambient *= to_texel;
    l.directed *= to_texel;
    l.bytes = identity * 255.0f;
    return l;
}

StudioLight studioModelLight(const glm::vec3& below, const std::array<float, 4>& gradient) {
    constexpr float kDirect = 0.9f; // v_direct's default ("direct" 0.9)
    const float g0 = gradient[0], g1 = gradient[1], g2 = gradient[2], g3 = gradient[3];
    glm::vec3 from_light(g0 - g1 - g2 + g3, g1 + g0 - g2 - g3, -1.0f);
    from_light = glm::normalize(from_light);
    const float brightest = std::max({below.r, below.g, below.b});
    const float total = brightest > 0.0f ? brightest : 1.0f;
    float shade = total * kDirect; // the length of the scaled light vector
    const float ambient = std::min(total - shade, 128.0f);
    if (ambient + shade > 255.0f)
        shade = 255.0f - ambient;
    const glm::vec3 colour = brightest > 0.0f ? below / brightest : glm::vec3(1.0f);
    constexpr float kToTexel = 4.0f / 1023.0f; // LightToTexGamma(illum * 4) / 1023
    StudioLight out;
    out.light.ambient = colour * (ambient * kToTexel);
    out.light.directed = colour * (shade * kToTexel);
    out.light.dir = -from_light;
    return out;
}

namespace {

// The style-0 luxel (0..255) of the first surface straight down from `from` within `length`;
// black when nothing lit is met.
glm::vec3 luxelDown(MapProbe& probe, const LightmapSet& set, const glm::vec3& from, float length) {
    const auto hit = probe.rayDown(from, length);
    if (!hit)
        return glm::vec3(0.0f);
    const auto luxel = luxelAt(probe.map(), set, hit->face, hit->lm_uv);
    return luxel ? glm::vec3(luxel->rgb[0], luxel->rgb[1], luxel->rgb[2]) : glm::vec3(0.0f);
}

// R_LightVec's colour (0..255) of the first lit surface straight below `p` (from 8 units above
// it, 2048 down: R_StudioDynamicLight); a map without light data is lit at 255, a miss is dark.
glm::vec3 luxelBelow(MapProbe& probe, const LightmapSet& set, const glm::vec3& p) {
    if (set.pages.empty())
        return glm::vec3(255.0f);
    return luxelDown(probe, set, p + glm::vec3(0, 0, 8), 2048.0f);
}

} // namespace

glm::vec3 lightBelow(MapProbe& probe, const LightmapSet& set, const glm::vec3& p) {
    if (set.pages.empty())
        return glm::vec3(255.0f / 200.0f); // a map without light data: everything full bright
    // From a unit above: items stand with their origin on the floor (QuakeC droptofloor), where
    // the engine's plane walk still finds the floor but a ray from the plane itself may not.
    glm::vec3 c = luxelDown(probe, set, p + glm::vec3(0, 0, 1), 8193.0f);
    const float sum = c.r + c.g + c.b;
    if (sum > 288.0f)
        c *= 288.0f / sum;
    return c / 200.0f;
}

StudioLight studioLight(MapProbe& probe, const LightmapSet& set, const glm::vec3& p) {
    constexpr std::array<glm::vec2, 4> kOffsets = {glm::vec2(-16, -16), glm::vec2(16, -16),
                                                   glm::vec2(16, 16), glm::vec2(-16, 16)};
    std::array<float, 4> gradient{};
    for (size_t k = 0; k < 4; ++k) {
        const glm::vec3 c = luxelBelow(probe, set, p + glm::vec3(kOffsets[k].x, kOffsets[k].y, 0));
        gradient[k] = (c.r + c.g + c.b) / 768.0f;
    }
    return studioModelLight(luxelBelow(probe, set, p), gradient);
}

void lightInstance(EntityModelInstance& inst, const LoadedModel& model, MapProbe& probe,
                   const LightmapSet& lightmaps, const game::GameProfile& profile) {
    if (model.brush || inst.fullbright)
        return;
    if (profile.entities.model_lighting == game::ModelLighting::LightGrid) {
        const glm::vec3 at = inst.origin + glm::vec3(0, 0, inst.bob_scale > 0.0f ? 4.0f : 0.0f);
        const ModelLight l = gridModelLight(probe.map(), profile.rules.light, at);
        inst.light = l.ambient;
        inst.directed_light = l.directed;
        inst.light_dir = l.dir;
        inst.light_bytes = l.bytes;
    } else if (model.studio) {
        const StudioLight l = studioLight(probe, lightmaps, inst.origin);
        inst.light = l.light.ambient;
        inst.directed_light = l.light.directed;
        inst.light_dir = l.light.dir;
        inst.light_wrap = l.wrap;
    } else {
        inst.light = lightBelow(probe, lightmaps, inst.origin);
    }
}

} // namespace scene
