// Click to select (issue 33): the face or entity under the cursor, its box, and the cameras
// that look at it from outside: "look at selection" (C) and the Entities panel's teleport,
// which must not put the eye inside a monster. GL-free (tests/app/selection_test.cpp).
#pragma once

#include "app/settings.h"
#include "scene/debug/debug_geometry.h"
#include "scene/load/map_bundle.h"
#include "scene/view/camera.h"

#include <optional>
#include <vector>

#include <glm/vec3.hpp>

namespace app {

struct Ray {
    glm::vec3 origin{0.0f};
    glm::vec3 dir{1.0f, 0.0f, 0.0f}; // unit length
};

// The ray from the eye through window pixel (x, y) (top-left origin) of a `width` x `height`
// view drawn with `camera` (its fov and aspect).
Ray cursorRay(const scene::Camera& camera, float x, float y, float width, float height);

struct Box {
    glm::vec3 mins{0.0f}, maxs{0.0f};
    glm::vec3 centre() const { return (mins + maxs) * 0.5f; }
};

struct Selection {
    enum class Kind { None, Face, Entity };
    Kind kind = Kind::None;
    int32_t face = -1;   // Face: the world or brush-model face; Entity: the face hit, if any
    int32_t entity = -1; // Entity: index into bsp::Map::entities
    glm::vec3 point{0.0f};
    Box box; // what "look at" frames: the face's bounds or the entity's box
};

// What the ray meets first: an entity's model (its entity), a face of a brush entity (that
// entity), or a world face; Kind::None when nothing. `bounds`: scene::faceBounds of the map.
Selection selectAlong(const scene::MapBundle& bundle, const Ray& ray,
                      const std::vector<scene::FaceBounds>* bounds = nullptr);

// The entity whose brush model holds face `face` ("model" "*N" and the submodel's face
// range), -1 for the world's faces.
int32_t entityOfFace(const bsp::Map& map, uint32_t face);

// An entity's box: its drawn model's (a sphere about the origin holding every pose), its
// brush model's bounds (moved by its origin), or nullopt for an entity with neither.
std::optional<Box> entityBox(const scene::MapBundle& bundle, int32_t entity);

// A camera looking at the middle of `box` from outside it: from `from`'s side along the line
// to the box (or along `facing_yaw` when given: in front of something facing that way), far
// enough that the box fills about half of the view; angles pitched toward the centre.
scene::Camera lookAtBox(const scene::Camera& from, const Box& box,
                        std::optional<float> facing_yaw = std::nullopt);

// Where the Entities panel's teleport puts the view: in front of the entity's box looking at
// it when it has one (entityBox), else its viewpoint (entityViewpoint: the origin, facing its
// angles), else nullopt.
std::optional<scene::Camera> teleportCamera(const scene::MapBundle& bundle, int32_t entity,
                                            const scene::Camera& from);

} // namespace app
