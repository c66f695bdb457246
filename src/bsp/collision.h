// Collision data of the common map model: what the games' own movement code collides with.
//
// Two families, both expressed as data so that physics::CollisionWorld never asks which game a
// map came from (docs/collision.md cites the engine source for every rule):
// - Hulls (Quake 1, BSP2, 2PSB, Half-Life): hull 0 is the node tree with its leaves' contents,
//   hulls 1..3 are clipnode trees built by the compiler for fixed box sizes. A box is traced as
//   a point through the hull chosen for its size (QuakeSpasm world.c SV_HullForEntity, Xash3D
//   sv_world.c SV_HullForBsp), so the hull sizes and the choice rule are data here.
// - Brushes (Quake 2, Quake 3): convex brushes (planes with contents) listed per leaf of the
//   node tree; a box is clipped against them (ioquake3 cm_trace.c CM_TraceThroughBrush,
//   Quake 2 cmodel.c CM_ClipBoxToBrush). Quake 3 patches add facets built from their control
//   grids (cm_patch.c CM_GeneratePatchCollide), with their material's contents. Source
//   displacements add their triangles (public/dispcoll_common.cpp CDispCollTree), the same
//   grid the faces draw.
//
// Contents are game-neutral CollisionContents bits; the game's own value is kept for display.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

namespace bsp {

enum CollisionContents : uint32_t {
    kCollideSolid = 1u << 0,       // blocks everything (walls, windows, Quake 1 hull solid)
    kCollidePlayerClip = 1u << 1,  // blocks players only
    kCollideMonsterClip = 1u << 2, // blocks monsters only
    kCollideWater = 1u << 3,       // includes Half-Life currents
    kCollideSlime = 1u << 4,
    kCollideLava = 1u << 5,
    kCollideTrigger = 1u << 6, // triggers and other non-solid volumes (origin, fog, mist, ...)
    kCollideLadder = 1u << 7,
    kCollideSky = 1u << 8, // Quake 1 hull-0 sky leaves (not solid to traces)
};
// Names of the CollisionContents bits, for --info and the UI.
struct CollisionContentsName {
    uint32_t bit;
    const char* name;
};
inline constexpr CollisionContentsName kCollisionContentsNames[] = {
    {kCollideSolid, "solid"},
    {kCollidePlayerClip, "player_clip"},
    {kCollideMonsterClip, "monster_clip"},
    {kCollideWater, "water"},
    {kCollideSlime, "slime"},
    {kCollideLava, "lava"},
    {kCollideTrigger, "trigger"},
    {kCollideLadder, "ladder"},
    {kCollideSky, "sky"},
};

// What a walking player collides with.
inline constexpr uint32_t kMaskPlayerSolid = kCollideSolid | kCollidePlayerClip;
inline constexpr uint32_t kMaskLiquid = kCollideWater | kCollideSlime | kCollideLava;

enum class CollisionKind : uint8_t { None, Hulls, Brushes };

// A box size a hull was built for (hull 0: the point, both zero).
struct HullSize {
    glm::vec3 mins{0.0f};
    glm::vec3 maxs{0.0f};
};

// One line of the engine's hull choice: the first entry whose limits hold for the box size
// (maxs - mins) picks `hull`. The offset added to the box origin to get the traced point is
// hull.mins - box.mins, or hull.mins alone when offset_from_box_mins is false (Xash3D's hull 0).
struct HullChoice {
    int32_t hull = 0;
    float max_width = 0.0f;  // size.x <= max_width
    float max_height = 0.0f; // size.z <= max_height
    bool offset_from_box_mins = true;
};

// children: >= 0 a clipnode, < 0 the game's contents value of an empty or solid region.
struct ClipNode {
    int32_t plane = 0;
    std::array<int32_t, 2> children{};
};

struct Brush {
    uint32_t first_side = 0; // range into Collision::brush_sides
    uint32_t num_sides = 0;
    uint32_t contents = 0;      // CollisionContents
    uint32_t game_contents = 0; // as stored (Quake 2 brush, Quake 3 shader content flags)
};

struct BrushSide {
    int32_t plane = 0;     // into Map::planes, facing out of the brush
    uint32_t contents = 0; // CollisionContents of the side's shader (Quake 3; ladder), else 0
    int32_t material = -1; // into Map::materials (Quake 2 texinfo, Quake 3 shader), -1: none
};

// DISPINFO flags (Source SDK public/builddisp.h CCoreDispInfo SURF_NO*_COLL, stored in
// ddispinfo_t::minTess when its top bit, DISP_INFO_FLAG_MAGIC, is set).
enum DisplacementFlags : uint32_t {
    kDispNoPhysicsColl = 1u << 1, // physics objects pass; players still collide
    kDispNoHullColl = 1u << 2,    // boxes (players, NPCs) pass
    kDispNoRayColl = 1u << 3,     // rays (zero-size traces) pass
};

// A Source displacement: its triangles are the drawn grid of Map::faces[face] (FaceKind::Mesh:
// its vertices and indices), so collision and drawing share the positions.
struct DisplacementCollision {
    uint32_t face = 0;
    uint32_t contents = 0;      // CollisionContents of ddispinfo_t::contents
    uint32_t game_contents = 0; // as stored (bspflags.h CONTENTS_*)
    uint32_t flags = 0;         // DisplacementFlags
};

struct Range {
    uint32_t first = 0;
    uint32_t count = 0;
};

// Per submodel (parallel to Map::submodels).
struct ModelCollision {
    // Hull head per hull: hull 0 into Map::nodes (< 0: leaf -1 - head), others into clipnodes
    // (< 0: the whole hull is that contents value). Brush games use heads[0] only.
    std::array<int32_t, 4> heads{};
    Range brushes;     // Quake 3: the model's own brushes (its collision is a brush list)
    bool solid = true; // false for triggers and other entities the games do not collide with
    // CollisionContents of a non-solid model's volume (Half-Life func_ladder: ladder,
    // func_water: its liquid), 0 none: a trace whose mask has them meets the model's solid as
    // this, and the point contents include it.
    uint32_t volume = 0;
};

struct Collision {
    CollisionKind kind = CollisionKind::None;
    std::vector<ModelCollision> models;

    // Hulls
    std::vector<HullSize> hulls; // hull number -> size it was built for
    std::vector<HullChoice> hull_choices;
    std::vector<ClipNode> clipnodes;
    std::vector<int32_t> leaf_values;     // hull 0: game contents value of each Map leaf
    std::vector<uint32_t> value_contents; // CollisionContents of game value v at index -1 - v
    uint32_t contentsOfValue(int32_t value) const {
        const int64_t i = -1 - int64_t(value);
        return i >= 0 && uint64_t(i) < value_contents.size() ? value_contents[size_t(i)] : 0u;
    }

    // Brushes
    std::vector<Brush> brushes;
    std::vector<BrushSide> brush_sides;
    std::vector<uint32_t> leaf_brushes;   // brush indices
    std::vector<Range> leaf_brush_ranges; // parallel to Map::leaves, into leaf_brushes
    // Quake 2 and Source: CollisionContents of each Map leaf as stored (dleaf_t::contents),
    // parallel to Map::leaves. Their engines' point contents are the leaf's (Quake 2 cmodel.c,
    // Source cmodel.cpp CM_PointContents), so the void outside a sealed map, solid leaves with
    // no brush in them, is solid to a point.
    // Empty: point contents come from the brushes alone (ioquake3 CM_PointContents).
    std::vector<uint32_t> leaf_contents;
    // Distance kept from brush surfaces (Quake 2 DIST_EPSILON, Quake 3 SURFACE_CLIP_EPSILON).
    float clip_epsilon = 0.03125f;

    // Quake 3: patches (FaceKind::Patch, found through the leaves' faces and the models' face
    // ranges) collide through facets built from their control grids (ioquake3 cm_patch.c), with
    // the CollisionContents of their material: parallel to Map::materials. Empty where patches
    // do not collide.
    std::vector<uint32_t> material_contents;

    // Source: displacements, found through the leaves' faces (the parser links them to the
    // leaves their bounds touch, as the engine's CM_DispTreeLeafnum does).
    std::vector<DisplacementCollision> displacements;
};

} // namespace bsp
