#include "app/selection.h"

#include "app/panels.h"
#include "scene/models/model_pick.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

namespace app {

namespace {

constexpr float kPointBox = 16.0f; // half size of the box of a picked point

Box faceBox(const bsp::Map& map, uint32_t face) {
    Box b{glm::vec3(1e30f), glm::vec3(-1e30f)};
    if (face >= map.faces.size())
        return b;
    const bsp::Face& f = map.faces[face];
    for (uint64_t i = f.first_index; i < uint64_t(f.first_index) + f.num_indices; ++i) {
        if (i >= map.indices.size() || map.indices[i] >= map.vertices.size())
            continue;
        const glm::vec3 p = map.vertices[map.indices[i]].position;
        b.mins = glm::min(b.mins, p);
        b.maxs = glm::max(b.maxs, p);
    }
    return b;
}

bool validBox(const Box& b) {
    return b.mins.x <= b.maxs.x && b.mins.y <= b.maxs.y && b.mins.z <= b.maxs.z &&
           std::isfinite(b.mins.x) && std::isfinite(b.maxs.x);
}

} // namespace

Ray cursorRay(const scene::Camera& camera, float x, float y, float width, float height) {
    Ray r;
    r.origin = camera.position;
    if (!(width > 0.0f) || !(height > 0.0f)) {
        r.dir = camera.forward();
        return r;
    }
    const float nx = 2.0f * (x + 0.5f) / width - 1.0f;
    const float ny = 1.0f - 2.0f * (y + 0.5f) / height;
    const float tx = std::tan(glm::radians(camera.fov_x) * 0.5f);
    const float ty = std::tan(glm::radians(camera.fovY()) * 0.5f);
    r.dir = glm::normalize(camera.forward() + camera.right() * (nx * tx) + camera.up() * (ny * ty));
    return r;
}

int32_t entityOfFace(const bsp::Map& map, uint32_t face) {
    // A Source overlay fragment lies outside every model's range but keeps its face's submodel.
    if (face < map.faces.size() && map.faces[face].submodel > 0 &&
        size_t(map.faces[face].submodel) < map.submodels.size())
        return map.submodels[size_t(map.faces[face].submodel)].entity;
    for (size_t i = 1; i < map.submodels.size(); ++i) {
        const bsp::Submodel& s = map.submodels[i];
        if (face >= s.first_face && uint64_t(face) < uint64_t(s.first_face) + s.num_faces)
            return s.entity;
    }
    return -1;
}

Selection selectAlong(const scene::MapBundle& bundle, const Ray& ray,
                      const std::vector<scene::FaceBounds>* bounds) {
    Selection sel;
    const bsp::Map& map = bundle.map;
    const auto hit = scene::rayCast(map, bundle.mesh, ray.origin, ray.dir, 1e9f, bounds);
    const float reach = hit ? hit->distance : 1e9f;
    const auto model = scene::pickEntityModel(bundle.models, ray.origin, ray.dir, reach);
    if (model && model->instance < bundle.models.instances.size()) {
        const auto entity = static_cast<int32_t>(bundle.models.instances[model->instance].entity);
        if (auto box = entityBox(bundle, entity)) {
            sel.kind = Selection::Kind::Entity;
            sel.entity = entity;
            sel.point = ray.origin + ray.dir * model->distance;
            sel.box = *box;
            return sel;
        }
    }
    if (!hit)
        return sel;
    sel.face = static_cast<int32_t>(hit->face);
    sel.point = hit->point;
    const int32_t owner = entityOfFace(map, hit->face);
    std::optional<Box> owner_box = owner >= 0 ? entityBox(bundle, owner) : std::nullopt;
    if (owner_box) {
        sel.kind = Selection::Kind::Entity;
        sel.entity = owner;
        sel.box = *owner_box;
        return sel;
    }
    sel.kind = Selection::Kind::Face;
    sel.box = faceBox(map, hit->face);
    if (!validBox(sel.box))
        sel.box = {hit->point - glm::vec3(kPointBox), hit->point + glm::vec3(kPointBox)};
    return sel;
}

std::optional<Box> entityBox(const scene::MapBundle& bundle, int32_t entity) {
    const bsp::Map& map = bundle.map;
    if (entity < 0 || static_cast<size_t>(entity) >= map.entities.size())
        return std::nullopt;
    for (const scene::EntityModelInstance& inst : bundle.models.instances)
        if (inst.entity == static_cast<uint32_t>(entity) && inst.radius > 0.0f &&
            std::isfinite(inst.radius))
            return Box{inst.origin - glm::vec3(inst.radius), inst.origin + glm::vec3(inst.radius)};
    for (size_t i = 1; i < map.submodels.size(); ++i) {
        const bsp::Submodel& s = map.submodels[i];
        if (s.entity == entity) {
            Box b{s.mins + s.origin, s.maxs + s.origin};
            if (validBox(b))
                return b;
        }
    }
    return std::nullopt;
}

scene::Camera lookAtBox(const scene::Camera& from, const Box& box,
                        std::optional<float> facing_yaw) {
    scene::Camera c = from;
    const glm::vec3 centre = box.centre();
    const float radius = std::max(8.0f, 0.5f * glm::length(box.maxs - box.mins));
    // Far enough that the box's sphere spans about half of the narrower field of view.
    const float half_fov = glm::radians(std::min(from.fov_x, from.fovY()) * 0.5f);
    const float distance = std::max(radius * 2.0f / std::max(std::tan(half_fov), 0.1f), 48.0f);
    glm::vec3 dir; // from the eye toward the centre
    if (facing_yaw) {
        // In front of it, looking back at it, a little above its middle.
        const float yaw = glm::radians(*facing_yaw);
        dir = -glm::normalize(glm::vec3(std::cos(yaw), std::sin(yaw), -0.35f));
    } else {
        dir = centre - from.position;
        if (glm::length(dir) < 1e-3f)
            dir = from.forward();
        dir = glm::normalize(dir);
    }
    c.position = centre - dir * distance;
    c.yaw = glm::degrees(std::atan2(dir.y, dir.x));
    c.pitch = std::clamp(-glm::degrees(std::asin(std::clamp(dir.z, -1.0f, 1.0f))), -89.0f, 89.0f);
    return c;
}

std::optional<scene::Camera> teleportCamera(const scene::MapBundle& bundle, int32_t entity,
                                            const scene::Camera& from) {
    const bsp::Map& map = bundle.map;
    if (entity < 0 || static_cast<size_t>(entity) >= map.entities.size())
        return std::nullopt;
    const auto vp = entityViewpoint(map.entities[static_cast<size_t>(entity)], map);
    if (const auto box = entityBox(bundle, entity))
        return lookAtBox(from, *box, vp ? std::optional<float>(vp->yaw) : std::nullopt);
    if (!vp)
        return std::nullopt;
    scene::Camera c = from;
    applyBookmark(c, *vp);
    return c;
}

} // namespace app
