#include "scene/models/placement.h"

#include "bsp/tree.h"
#include "scene/load/brush_model.h"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace scene {

namespace {

// g_items.c: ITEM_RADIUS, the half size of the box FinishSpawningItem drops to the floor.
constexpr float kQuake3ItemRadius = 15.0f;

} // namespace

std::optional<RayHit> MapProbe::rayDown(const glm::vec3& from, float length) {
    if (m_bounds.empty())
        m_bounds = faceBounds(m_map);
    return rayCast(m_map, m_mesh, from, glm::vec3(0, 0, -1), length, &m_bounds);
}

const physics::CollisionWorld& MapProbe::collision() {
    if (!m_collision)
        m_collision.emplace(m_map);
    return *m_collision;
}

glm::vec3 quake3ItemDrop(MapProbe& probe, const glm::vec3& origin) {
    glm::vec3 place = origin;
    const glm::vec3 foot = place - glm::vec3(0, 0, kQuake3ItemRadius);
    if (const auto hit = probe.rayDown(foot, 4096.0f))
        place.z -= hit->distance;
    return place;
}

std::optional<glm::vec3> dropToFloor(const physics::CollisionWorld& world,
                                     const game::FloorDrop& drop, const glm::vec3& origin) {
    const glm::vec3 start = origin + glm::vec3(0, 0, drop.raise);
    const physics::TraceResult tr =
        world.trace(start, start - glm::vec3(0, 0, drop.distance), drop.mins, drop.maxs, drop.mask);
    if (tr.start_solid && drop.removes_in_solid)
        return std::nullopt;
    if (drop.needs_floor && (tr.fraction == 1.0f || tr.all_solid))
        return start;
    return tr.end_pos;
}

std::string vtos(const glm::vec3& v) {
    char text[96];
    // + 0.0: -0.5 truncates to -0, which the game's int prints as 0.
    std::snprintf(text, sizeof text, "(%.0f %.0f %.0f)", std::trunc(double(v.x)) + 0.0,
                  std::trunc(double(v.y)) + 0.0, std::trunc(double(v.z)) + 0.0);
    return text;
}

bool boxInSolid(const physics::CollisionWorld& world, const game::FloorDrop& drop,
                const glm::vec3& origin) {
    return world.trace(origin, origin, drop.mins, drop.maxs, drop.mask).start_solid;
}

glm::vec3 entityAngles(const bsp::Entity& e) {
    if (auto angles = e.vec3("angles"))
        return *angles;
    if (auto yaw = e.number("angle"))
        return glm::vec3(0.0f, *yaw, 0.0f);
    return glm::vec3(0.0f);
}

void applyScale(EntityModelInstance& inst, const game::EntityModelRule* rule, const bsp::Entity& e,
                bool own_model, const glm::vec3& midpoint) {
    if (rule && rule->weapon) {
        inst.pivot = midpoint;
        inst.origin.z += 8.0f;
        inst.scale = 1.5f;
    }
    if (own_model) {
        const auto scale = e.number("modelscale");
        if (scale && std::isfinite(*scale) && *scale > 0.0f)
            inst.scale = *scale;
    }
}

float modelRadius(const LoadedModel& m) {
    float r = 0;
    if (m.mesh)
        for (int i = 0; i < 8; ++i) {
            const glm::vec3 c((i & 1) ? m.mesh->maxs[0] : m.mesh->mins[0],
                              (i & 2) ? m.mesh->maxs[1] : m.mesh->mins[1],
                              (i & 4) ? m.mesh->maxs[2] : m.mesh->mins[2]);
            r = std::max(r, glm::length(c));
        }
    if (m.sprite)
        for (const content::SpritePicture& p : m.sprite->pictures) {
            const std::array<float, 4> q = content::spritePictureRect(p);
            const float x = std::max(std::abs(q[0]), std::abs(q[2]));
            const float y = std::max(std::abs(q[1]), std::abs(q[3]));
            r = std::max(r, std::sqrt(x * x + y * y));
        }
    if (m.brush)
        for (int i = 0; i < 8; ++i)
            r = std::max(r, glm::length(glm::vec3((i & 1) ? m.brush->maxs.x : m.brush->mins.x,
                                                  (i & 2) ? m.brush->maxs.y : m.brush->mins.y,
                                                  (i & 4) ? m.brush->maxs.z : m.brush->mins.z)));
    return std::isfinite(r) ? r : 0.0f;
}

void finishPlacement(EntityModelInstance& inst, const LoadedModel& model, const bsp::Map& map) {
    inst.radius = modelRadius(model) * inst.scale + glm::length(inst.pivot) +
                  (inst.bob_scale > 0.0f ? 8.0f : 0.0f);
    const int32_t leaf = bsp::pointLeaf(map, inst.origin);
    inst.cluster =
        leaf >= 0 && size_t(leaf) < map.leaves.size() ? map.leaves[size_t(leaf)].cluster : -1;
}

} // namespace scene
