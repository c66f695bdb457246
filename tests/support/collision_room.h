// The room the collision tests trace in, as solid axis-aligned boxes: interior 512 x 256 x 256
// (x 0..512, y 0..256, z 0..256) inside 16-unit walls, split at x 256..272 by a wall with a
// 64-unit door (y 32..96) and a 16-unit gap (y 160..176), both 128 high. q1_builder.h turns it
// into a BSP29 file, brushRoomMap() into a brush map (Quake 2 / 3 collision data, no tree:
// every brush in the one leaf, which exercises the brush clipping on its own).
#pragma once

#include "bsp/collision_read.h"
#include "bsp/map.h"
#include "support/q1_builder.h"

#include <vector>

namespace collisiontest {

inline std::vector<q1test::Box> roomBoxes() {
    return {
        {{-16, -16, -16}, {528, 272, 0}},   // floor
        {{-16, -16, 256}, {528, 272, 272}}, // ceiling
        {{-16, -16, 0}, {0, 272, 256}},     // x- wall
        {{512, -16, 0}, {528, 272, 256}},   // x+ wall
        {{0, -16, 0}, {512, 0, 256}},       // y- wall
        {{0, 256, 0}, {512, 272, 256}},     // y+ wall
        {{256, 0, 0}, {272, 32, 256}},      // middle wall, y 0..32
        {{256, 32, 128}, {272, 96, 256}},   // above the door
        {{256, 96, 0}, {272, 160, 256}},    // between door and gap
        {{256, 160, 128}, {272, 176, 256}}, // above the gap
        {{256, 176, 0}, {272, 256, 256}},   // gap to y+ wall
    };
}
// The box that closes the door, as a brush entity (model 1).
inline const q1test::Box kDoor{{256, 32, 0}, {272, 96, 128}};

inline q1test::Q1Builder roomQ1(bool door = false, const char* door_class = "func_door") {
    q1test::Q1Builder b;
    b.models.push_back({roomBoxes(), "", {}});
    if (door)
        b.models.push_back({{kDoor}, door_class, {}});
    return b;
}

// Appends one axis-aligned box brush (six axial sides) with the given contents.
inline void addBoxBrush(bsp::Map& m, const q1test::Box& box, uint32_t contents) {
    bsp::Collision& c = m.collision;
    bsp::Brush b;
    b.first_side = uint32_t(c.brush_sides.size());
    b.num_sides = 6;
    b.contents = contents;
    b.game_contents = contents;
    for (int axis = 0; axis < 3; ++axis)
        for (int sign : {-1, 1}) {
            bsp::Plane p;
            p.normal = glm::vec3(0.0f);
            p.normal[axis] = float(sign);
            p.dist = sign > 0 ? box.maxs[axis] : -box.mins[axis];
            m.planes.push_back(p);
            c.brush_sides.push_back({int32_t(m.planes.size() - 1), 0, -1});
        }
    c.leaf_brushes.push_back(uint32_t(c.brushes.size()));
    c.brushes.push_back(b);
}

// The room as a Quake 3-style brush map: one leaf (the world model's head is leaf 0) holding
// every brush, Quake 3's player box and SURFACE_CLIP_EPSILON.
inline bsp::Map brushRoomMap(bool door = false) {
    bsp::Map m;
    bsp::setQ3CollisionRules(m.collision);
    for (const q1test::Box& b : roomBoxes())
        addBoxBrush(m, b, bsp::kCollideSolid);
    bsp::Submodel world;
    world.mins = {-16, -16, -16};
    world.maxs = {528, 272, 272};
    m.submodels.push_back(world);
    m.leaves.push_back(bsp::Leaf{});
    bsp::ModelCollision wc;
    wc.heads = {-1, -1, -1, -1};
    m.collision.models.push_back(wc);
    if (door) {
        const uint32_t first = uint32_t(m.collision.brushes.size());
        addBoxBrush(m, kDoor, bsp::kCollideSolid);
        m.collision.leaf_brushes.pop_back(); // the door is model 1's, not the world leaf's
        bsp::Submodel sm;
        sm.mins = kDoor.mins;
        sm.maxs = kDoor.maxs;
        m.submodels.push_back(sm);
        bsp::ModelCollision dc;
        dc.heads = {-1, -1, -1, -1};
        dc.brushes = {first, 1};
        m.collision.models.push_back(dc);
    }
    m.collision.leaf_brush_ranges = {{0, uint32_t(m.collision.leaf_brushes.size())}};
    return m;
}

} // namespace collisiontest
