// Traces and point contents against a map's collision data, one interface for every game.
//
// GL-free. The map's bsp::Collision says how it collides, as data: clip hulls (Quake 1,
// BSP2, Half-Life: a box is traced as a point through the hull built for its size, as
// QuakeSpasm world.c SV_RecursiveHullCheck does) or brushes (Quake 2, Quake 3: the box is
// clipped against every brush it meets, as ioquake3 cm_trace.c CM_TraceThroughBrush does).
// docs/collision.md cites the engine function behind every rule.
//
// Brush models (doors, platforms, ...) are traced at their entity's origin, closed; their
// angles are not applied (Quake 1 never rotates brush-model collision either). Models whose
// entity the games make non-solid (triggers, func_illusionary, ...) are skipped. Quake 3
// patches collide through the facets cm_patch.c builds from them (physics/patch_collide.h), from
// their front side, in traces; pointContents reads brushes only (CM_PointContents). Source
// displacements collide through their triangles (physics/disp_collide.h), also in traces only.
//
// Thread safety: trace() marks brushes as tested in a per-object array (the engines'
// checkcount), so one CollisionWorld serves one thread at a time. The Map must outlive it.
#pragma once

#include "bsp/map.h"
#include "physics/disp_collide.h"
#include "physics/patch_collide.h"

#include <cstdint>
#include <optional>
#include <vector>

#include <glm/vec3.hpp>

namespace physics {

struct TraceResult {
    float fraction = 1.0f;      // of the move completed, 0..1
    glm::vec3 end_pos{0.0f};    // box origin where the move stopped
    bsp::Plane plane;           // the surface hit (normal against the move), when fraction < 1
    bool start_solid = false;   // the box started inside something blocking
    bool all_solid = false;     // the whole move is inside something blocking (fraction 0)
    uint32_t contents = 0;      // bsp::CollisionContents of what stopped the box
    uint32_t game_contents = 0; // the game's value for it (hull value as int32 bits)
    int32_t submodel = -1;      // model hit or started in (0 the world), -1 none
    // Brush maps: the material of the side hit (Map::materials; its game_flags are the game's
    // surface flags: slick, ladder, no footsteps...), -1 for clip hulls or a side without one.
    int32_t material = -1;

    bool hit() const { return fraction < 1.0f || start_solid; }
};

class CollisionWorld {
public:
    explicit CollisionWorld(const bsp::Map& map);

    bsp::CollisionKind kind() const { return m_map->collision.kind; }
    // Hull numbers accepted by pointContents (1 + the clip hulls or player boxes of the map).
    int32_t hullCount() const;
    // The box size hull `hull` stands for (hull 0: the point).
    bsp::HullSize hullSize(int32_t hull) const;
    // Clip-hull maps: the hull the engine picks for a box of these bounds, and in `offset`
    // what it adds to the box origin to get the point traced in that hull. Brush maps: 0.
    int32_t hullForBox(const glm::vec3& mins, const glm::vec3& maxs, glm::vec3* offset) const;

    // CollisionContents at p in the world model and the volumes of non-solid brush models
    // (Half-Life func_water, func_ladder: bsp::ModelCollision::volume): hull 0 is the point;
    // hull k > 0 is the box hullSize(k) around p (clip-hull maps read hull k's clipnodes, brush
    // maps test the box against the brushes). Unknown hulls give 0.
    uint32_t pointContents(const glm::vec3& p, int32_t hull = 0) const;

    // Moves the box (mins, maxs around the origin) from start to end against the world, the
    // solid brush models and the volume models whose contents are in `mask`; stops at
    // whatever has contents in `mask`. Non-finite input gives all_solid at start.
    TraceResult trace(const glm::vec3& start, const glm::vec3& end, const glm::vec3& mins,
                      const glm::vec3& maxs, uint32_t mask = bsp::kMaskPlayerSolid) const;

    // The same against one model only (0 the world), at its entity origin.
    TraceResult traceModel(int32_t model, const glm::vec3& start, const glm::vec3& end,
                           const glm::vec3& mins, const glm::vec3& maxs,
                           uint32_t mask = bsp::kMaskPlayerSolid) const;

private:
    uint32_t volumesAt(const glm::vec3& p, int32_t hull) const;
    void buildDisplacements();

    // A Quake 3 patch that collides (bsp::Collision::material_contents).
    struct Patch {
        PatchCollide collide;
        uint32_t contents = 0; // bsp::CollisionContents of its material
        int32_t material = -1;
    };

    // A Source displacement (bsp::Collision::displacements) and the triangles it collides with.
    struct Disp {
        DispCollide collide;
        uint32_t contents = 0; // bsp::CollisionContents
        uint32_t game_contents = 0;
        uint32_t flags = 0; // bsp::DisplacementFlags
        int32_t material = -1;
    };

    const bsp::Map* m_map;
    std::vector<bsp::ClipNode> m_hull0; // Map::nodes with leaves replaced by contents values
    std::vector<Patch> m_patches;
    std::vector<int32_t> m_face_patch; // per Map::faces: index into m_patches, -1 none
    mutable std::vector<uint32_t> m_brush_mark;
    mutable std::vector<uint32_t> m_patch_mark;
    std::vector<Disp> m_disps;
    std::vector<bsp::Range> m_leaf_disp_ranges; // per Map::leaves, into m_leaf_disps
    std::vector<uint32_t> m_leaf_disps;         // indices into m_disps
    mutable std::vector<uint32_t> m_disp_mark;
    mutable uint32_t m_mark = 0;

    friend struct BrushTracer;
};

// The first collision solid along a ray, for picking while a collision view is on. Clip-hull
// maps: the point traced through hull `hull` (1..3: the solids the hull views draw, where that
// box's origin cannot go); a start inside that solid finds nothing, so the camera is never
// stopped where it stands. Brush maps: a point against the brushes with contents in `mask`
// (the brush view's filter). nullopt: nothing within max_distance.
struct CollisionPick {
    float distance = 0.0f;
    glm::vec3 point{0.0f};
    uint32_t contents = 0; // bsp::CollisionContents of what the ray met
    int32_t submodel = -1; // 0 the world
};
std::optional<CollisionPick> pickCollision(const CollisionWorld& world, const glm::vec3& origin,
                                           const glm::vec3& dir, float max_distance, int32_t hull,
                                           uint32_t mask);

} // namespace physics
