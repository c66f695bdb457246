// Where an entity's model stands: the origin the game moves it to at spawn (Quake 2's drop to
// the floor, Quake 3's item drop), its angles and scale, and the sphere and cluster the
// visibility pass culls it by. GL-free.
#pragma once

#include "bsp/map.h"
#include "game/entity_models.h"
#include "physics/collision.h"
#include "scene/debug/debug_geometry.h"
#include "scene/models/model_set.h"
#include "scene/world/world_mesh.h"

#include <glm/vec3.hpp>

#include <optional>
#include <string>
#include <vector>

namespace scene {

// What placing and lighting instances ask of the map, each part built on first use: the faces'
// bounds (for rays down to the floor or the lightmap) and the collision world (for the boxes
// the games drop).
class MapProbe {
public:
    MapProbe(const bsp::Map& map, const WorldMesh& mesh) : m_map(map), m_mesh(mesh) {}

    const bsp::Map& map() const { return m_map; }
    // The first face straight down from `from` within `length`.
    std::optional<RayHit> rayDown(const glm::vec3& from, float length);
    const physics::CollisionWorld& collision();

private:
    const bsp::Map& m_map;
    const WorldMesh& m_mesh;
    std::vector<FaceBounds> m_bounds;
    std::optional<physics::CollisionWorld> m_collision;
};

// Quake 3's FinishSpawningItem (g_items.c): an item not suspended (spawnflags 1) falls to the
// floor below it. Its 30-unit box is traced 4096 units down; a ray from the box's foot stands
// in for the box, and a box that starts in the floor stays where it is.
glm::vec3 quake3ItemDrop(MapProbe& probe, const glm::vec3& origin);

// Where a drop to the floor (game::FloorDrop) leaves an entity: nullopt when the game frees it for
// starting in solid (g_items.c droptofloor). M_droptofloor keeps the raised origin when the
// trace meets no floor or is all in solid, and otherwise takes the trace's end even when the box
// started in solid (walkmonster_start_go then prints "in solid" and keeps the monster).
std::optional<glm::vec3> dropToFloor(const physics::CollisionWorld& world,
                                     const game::FloorDrop& drop, const glm::vec3& origin);

// The box at `origin` overlaps something in the drop's mask.
bool boxInSolid(const physics::CollisionWorld& world, const game::FloorDrop& drop,
                const glm::vec3& origin);

// g_utils.c vtos: "(x y z)", each truncated to an integer.
std::string vtos(const glm::vec3& v);

// The entity's "angles" (pitch yaw roll), else its "angle" as yaw, else none.
glm::vec3 entityAngles(const bsp::Entity& entity);

// The row's and the entity's size and pivot: Quake 3 weapons turn about their midpoint
// (`midpoint`, model units), 8 units higher, at 1.5 times their size (cgame cg_ents.c CG_Item);
// a misc_model's "modelscale" (`own_model`) scales it.
void applyScale(EntityModelInstance& instance, const game::EntityModelRule* rule,
                const bsp::Entity& entity, bool own_model, const glm::vec3& midpoint);

// A sphere about the origin that holds every pose of the model at any angle (model units).
float modelRadius(const LoadedModel& model);

// The instance's culling sphere (radius from its model, scale, pivot and bob) and the cluster of
// the leaf holding its origin (-1 outside the map).
void finishPlacement(EntityModelInstance& instance, const LoadedModel& model, const bsp::Map& map);

} // namespace scene
