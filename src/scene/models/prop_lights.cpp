#include "scene/models/prop_lights.h"

#include "bsp/tree.h"
#include "physics/collision.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <glm/geometric.hpp>

namespace scene {

namespace {

constexpr float kWorldLightMin = 0.0002f;       // r_worldlightmin
constexpr float kCoordExtent = 2.0f * 16384.0f; // COORD_EXTENT
constexpr float kShadowSlack = 8.0f;            // LightIntensityAndDirectionAtPoint's "hack"
const glm::vec3 kGrey(0.299f, 0.587f, 0.114f);  // s_Grayscale
const glm::vec3 kCubeDirs[6] = {{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},
                                {0, -1, 0}, {0, 0, 1},  {0, 0, -1}};

// ComputeLightcacheBounds: the 32 x 32 x 128 cell holding `p` (x, y >> 5, z >> 7 of the
// truncated absolute value, floored below zero).
void cacheCell(const glm::vec3& p, glm::vec3& mins, glm::vec3& maxs) {
    const int shifts[3] = {5, 5, 7};
    for (int i = 0; i < 3; ++i) {
        const int cell = int(std::fabs(p[i])) >> shifts[i];
        const int lo = p[i] >= 0.0f ? cell : -(cell + 1);
        mins[i] = float(lo * (1 << shifts[i]));
        maxs[i] = mins[i] + float(1 << shifts[i]);
    }
}

// collisionutils.cpp IsSphereIntersectingCone (half angle's sine and cosine).
bool sphereMeetsCone(const glm::vec3& centre, float radius, const glm::vec3& apex,
                     const glm::vec3& axis, float sine, float cosine) {
    if (sine <= 0.0f)
        return false;
    glm::vec3 delta = centre - (apex - (radius / sine) * axis);
    if (glm::dot(axis, delta) < glm::length(delta) * cosine)
        return false;
    delta = centre - apex;
    const float len = glm::length(delta);
    if (-glm::dot(axis, delta) >= len * sine)
        return len <= radius;
    return true;
}

// LightIntensityAndDirectionInBox's early rejections (the new light selection).
bool outsideCell(const bsp::WorldLight& l, const glm::vec3& mid) {
    glm::vec3 mins, maxs;
    cacheCell(mid, mins, maxs);
    const float sphere = glm::length(maxs - mid);
    const float dist = glm::length(l.origin - mid);
    switch (l.type) {
    case bsp::EmitType::Spotlight: {
        if (dist > sphere + l.radius)
            return true;
        const float angle = std::acos(std::clamp(l.stopdot2, -1.0f, 1.0f));
        if (!sphereMeetsCone(mid, sphere, l.origin, l.normal, std::sin(angle), l.stopdot2))
            return true;
        [[fallthrough]];
    }
    case bsp::EmitType::Point: {
        const glm::vec3 nearest = glm::clamp(l.origin, mins, maxs);
        const glm::vec3 d = nearest - l.origin;
        return glm::dot(d, d) > l.radius * l.radius;
    }
    case bsp::EmitType::Surface:
        return dist > sphere + l.radius ||
               !sphereMeetsCone(mid, sphere, l.origin, l.normal, 1.0f, 0.0f);
    default:
        return false;
    }
}

// Engine_WorldLightDistanceFalloff without the radius check (the box did it).
float distanceFalloff(const bsp::WorldLight& l, const glm::vec3& delta) {
    const float d2 = glm::dot(delta, delta);
    switch (l.type) {
    case bsp::EmitType::Surface:
        return d2 > 0.0f ? 1.0f / d2 : 1.0f; // InvRSquared (at least 1 unit)
    case bsp::EmitType::QuakeLight:
        return std::max(0.0f, l.linear_attn - std::sqrt(d2));
    case bsp::EmitType::Point:
    case bsp::EmitType::Spotlight: {
        const float denominator =
            l.constant_attn + l.linear_attn * std::sqrt(d2) + l.quadratic_attn * d2;
        return denominator > 0.0f ? 1.0f / denominator : 0.0f;
    }
    default:
        return 1.0f;
    }
}

// Engine_WorldLightAngle(wl, wl->normal, dir, dir): the cone and facing terms alone.
float angleRatio(const bsp::WorldLight& l, const glm::vec3& dir) {
    switch (l.type) {
    case bsp::EmitType::Surface: {
        const float dot2 = -glm::dot(dir, l.normal);
        return dot2 <= 0.01f / 10.0f ? 0.0f : glm::dot(dir, dir) * dot2; // ON_EPSILON / 10
    }
    case bsp::EmitType::Spotlight: {
        const float dot2 = -glm::dot(dir, l.normal);
        if (dot2 <= l.stopdot2)
            return 0.0f;
        const float ratio = glm::dot(dir, dir);
        if (dot2 >= l.stopdot)
            return ratio;
        const float t = (dot2 - l.stopdot2) / (l.stopdot - l.stopdot2);
        return l.exponent == 0.0f || l.exponent == 1.0f ? ratio * t
                                                        : ratio * std::pow(t, l.exponent);
    }
    case bsp::EmitType::Skylight:
        return std::max(0.0f, -glm::dot(dir, l.normal));
    case bsp::EmitType::SkyAmbient:
        return 0.0f;
    default:
        return glm::dot(dir, dir);
    }
}

bool hitsSky(const bsp::Map& map, const physics::TraceResult& t) {
    if (t.contents & bsp::kCollideSky)
        return true;
    return t.material >= 0 && size_t(t.material) < map.materials.size() &&
           (map.materials[size_t(t.material)].flags & bsp::kSurfSky) != 0;
}

// LightIntensityAndDirectionAtPoint (no shadow z-buffer: r_lightcache_zbuffercache 0), with
// LIGHT_NO_RADIUS_CHECK; `dir` the unit direction toward the light.
float ratioAt(const bsp::Map& map, const bsp::WorldLight& l, const physics::CollisionWorld* world,
              const glm::vec3& mid, glm::vec3& dir) {
    dir = glm::vec3(0.0f);
    if (l.type == bsp::EmitType::SkyAmbient)
        return 0.0f;
    if (l.type == bsp::EmitType::Skylight) {
        if (!world)
            return 0.0f;
        const glm::vec3 end = mid - kCoordExtent * 1.74f * l.normal;
        const physics::TraceResult t = world->trace(mid, end, glm::vec3(0.0f), glm::vec3(0.0f),
                                                    bsp::kCollideSolid | bsp::kCollideSky);
        if (!t.hit() || !hitsSky(map, t))
            return 0.0f;
        dir = -l.normal;
        return 1.0f;
    }
    const glm::vec3 delta = l.origin - mid;
    const float ratio = distanceFalloff(l, delta); // style 0: LightStyleValue 1
    const float brightest = std::max({l.intensity.x, l.intensity.y, l.intensity.z});
    if (l.type != bsp::EmitType::Surface && brightest * ratio < kWorldLightMin)
        return 0.0f;
    const float dist = glm::length(delta);
    if (dist <= 0.0f)
        return ratio;
    dir = delta / dist;
    if (!world)
        return ratio;
    const physics::TraceResult t =
        world->trace(mid, l.origin, glm::vec3(0.0f), glm::vec3(0.0f), bsp::kCollideSolid);
    return (1.0f - t.fraction) * dist > kShadowSlack ? 0.0f : ratio;
}

// AddWorldLightToLightCube.
void addToCube(std::array<glm::vec3, 6>& cube, const bsp::WorldLight& l, const glm::vec3& dir,
               float ratio) {
    if (ratio == 0.0f)
        return;
    for (size_t j = 0; j < 6; ++j)
        if (const float t = glm::dot(kCubeDirs[j], dir); t > 0.0f)
            cube[j] += ratio * t * l.intensity;
}

struct Chosen {
    const bsp::WorldLight* light = nullptr;
    int32_t index = -1;
    float illum = 0.0f;
};

} // namespace

SourceLocalLight materialLight(const bsp::WorldLight& l) {
    SourceLocalLight m;
    m.colour = l.intensity;
    m.position = l.origin;
    m.direction = l.normal;
    m.attenuation = glm::vec3(0.0f);
    float theta = 0.0f, phi = 0.0f, falloff = 1.0f;
    switch (l.type) {
    case bsp::EmitType::Spotlight:
        m.cone = true;
        m.attenuation = {l.constant_attn, l.linear_attn, l.quadratic_attn};
        theta = 2.0f * std::acos(std::clamp(l.stopdot, -1.0f, 1.0f));
        phi = 2.0f * std::acos(std::clamp(l.stopdot2, -1.0f, 1.0f));
        falloff = l.exponent != 0.0f ? l.exponent : 1.0f;
        break;
    case bsp::EmitType::Surface:
        m.cone = true;
        m.attenuation = {0.0f, 0.0f, 1.0f};
        theta = phi = std::numbers::pi_v<float>;
        break;
    case bsp::EmitType::Point:
        m.attenuation = {l.constant_attn, l.linear_attn, l.quadratic_attn};
        break;
    case bsp::EmitType::Skylight:
        m.directional = true;
        break;
    default: // quake and sky ambient lights: no hardware light, nothing drawn
        m.colour = glm::vec3(0.0f);
        break;
    }
    if (m.attenuation == glm::vec3(0.0f))
        m.attenuation.x = 1.0f;
    if (m.cone) {
        phi = std::min(phi, std::numbers::pi_v<float>);
        if (theta - phi > -1e-3f)
            theta = phi - 1e-3f;
        const float stopdot = std::cos(theta * 0.5f), stopdot2 = std::cos(phi * 0.5f);
        m.spot = {falloff, stopdot, stopdot2,
                  stopdot > stopdot2 ? 1.0f / (stopdot - stopdot2) : 0.0f};
    }
    return m;
}

SourcePropLight lightSourceProp(const bsp::Map& map, std::span<const bsp::WorldLight> lights,
                                const physics::CollisionWorld* world, const glm::vec3& origin,
                                const std::array<glm::vec3, 6>& cube) {
    SourcePropLight out;
    out.cube = cube;
    const int32_t leaf = bsp::pointLeaf(map, origin);
    const int32_t cluster =
        leaf >= 0 && size_t(leaf) < map.leaves.size() ? map.leaves[size_t(leaf)].cluster : -1;
    std::array<Chosen, kMaxSourceLocalLights> chosen{};
    uint32_t count = 0;
    bool has_sky = false;
    for (size_t i = 0; i < lights.size(); ++i) {
        const bsp::WorldLight* l = &lights[i];
        if ((l->flags & bsp::kWorldLightInAmbientCube) || l->style != 0)
            continue;
        if (l->type == bsp::EmitType::Skylight && has_sky)
            continue;
        if (l->type != bsp::EmitType::Skylight &&
            (l->cluster < 0 || !map.vis.visible(cluster, l->cluster)))
            continue;
        if (outsideCell(*l, origin))
            continue;
        glm::vec3 dir;
        float ratio = ratioAt(map, *l, world, origin, dir);
        if (ratio <= 0.0f)
            continue;
        has_sky = has_sky || l->type == bsp::EmitType::Skylight;
        float angular = angleRatio(*l, dir);
        float illum = ratio * glm::dot(l->intensity, kGrey);
        int32_t index = int32_t(i);
        if (l->type == bsp::EmitType::Surface || illum >= kWorldLightMin) {
            if (count < kMaxSourceLocalLights) {
                chosen[count++] = {l, index, illum};
                continue;
            }
            // FindDarkestWorldLight: the dimmest slot below this light's illum gives way.
            int32_t darkest = -1;
            float least = illum;
            for (uint32_t j = 0; j < count; ++j)
                if (chosen[j].illum < least) {
                    least = chosen[j].illum;
                    darkest = int32_t(j);
                }
            if (darkest >= 0) {
                std::swap(l, chosen[size_t(darkest)].light);
                std::swap(index, chosen[size_t(darkest)].index);
                std::swap(illum, chosen[size_t(darkest)].illum);
                ratio = illum / glm::dot(l->intensity, kGrey);
                if (l->type == bsp::EmitType::Skylight) {
                    dir = glm::vec3(0.0f);
                    angular = 1.0f;
                } else {
                    dir = glm::normalize(l->origin - origin);
                    angular = angleRatio(*l, dir);
                }
            }
        }
        addToCube(out.cube, *l, dir, ratio * angular);
    }
    out.light_count = count;
    for (uint32_t j = 0; j < count; ++j) {
        out.lights[j] = materialLight(*chosen[j].light);
        out.world_light[j] = chosen[j].index;
    }
    return out;
}

glm::vec3 sourceVertexLight(const SourcePropLight& light, const glm::vec3& position,
                            const glm::vec3& n) {
    const glm::vec3 sq = n * n;
    glm::vec3 sum = sq.x * light.cube[n.x < 0.0f ? 1 : 0] + sq.y * light.cube[n.y < 0.0f ? 3 : 2] +
                    sq.z * light.cube[n.z < 0.0f ? 5 : 4];
    for (uint32_t i = 0; i < light.light_count && i < kMaxSourceLocalLights; ++i) {
        const SourceLocalLight& l = light.lights[i];
        glm::vec3 to = l.position - position;
        const float d2 = glm::dot(to, to);
        const float inv = d2 > 0.0f ? 1.0f / std::sqrt(d2) : 0.0f;
        to *= inv;
        float atten = 1.0f / glm::dot(l.attenuation, glm::vec3(1.0f, d2 * inv, d2));
        if (l.cone) {
            const float cosine = glm::dot(l.direction, -to);
            const float s = std::pow(std::max(0.0001f, (cosine - l.spot.z) * l.spot.w), l.spot.x);
            atten *= std::clamp(s, 0.0f, 1.0f);
        }
        if (l.directional) {
            atten = 1.0f;
            to = -l.direction;
        }
        sum += l.colour * std::max(0.0f, glm::dot(n, to)) * atten;
    }
    return sum;
}

} // namespace scene
