// Reading the collision lumps into Map::collision (collision.h). Internal to the bsp library:
// the parsers hand over their lump readers and record layouts; everything read is checked
// (indices, ranges, tree shape) and errors name the lump, record and field.
#pragma once

#include "bsp/map.h"
#include "core/byte_reader.h"
#include "core/result.h"

namespace bsp {

// Quake 1 family: clipnodes (BSP29/HL 8-byte records with unsigned 16-bit children, BSP2/2PSB
// 12-byte records with 32-bit children), the leaves' contents values (first int32 of each
// leaf record) and the models' four hull heads (int32 at 36 of each 64-byte record). Call after
// the nodes, leaves and models are read.
struct HullLumps {
    core::ByteReader clipnodes;
    bool wide_clipnodes = false;
    core::ByteReader leafs;
    uint32_t leaf_size = 0;
    core::ByteReader models;
    bool half_life = false;
};
core::Status readHullCollision(Map& map, const HullLumps& lumps);

// Quake 2 IBSP/QBSP: brushes (firstside, numsides, contents), brush sides (plane, texinfo of
// width w), leaf brushes (width w), the leaves' leaf-brush ranges (at 4 + 10w in a leaf record)
// and the models' head nodes (int32 at 36 of each 48-byte record).
struct Q2BrushLumps {
    core::ByteReader brushes;
    core::ByteReader brush_sides;
    core::ByteReader leaf_brushes;
    core::ByteReader leafs;
    core::ByteReader models;
    uint32_t w = 2;
};
core::Status readQ2Collision(Map& map, const Q2BrushLumps& lumps);

// Source VBSP (public/bspfile.h): brushes (dbrush_t, 12 bytes as Quake 2, with Source's
// CONTENTS_* of public/bspflags.h), brush sides (dbrushside_t: u16 planenum, i16 texinfo,
// i16 dispinfo, u8 bevel, u8 thin = 8 bytes; Strata Source's lump version 1: u32 planenum,
// i32 texinfo, i32 dispinfo, u8 bevel, u8 thin, 2 pad = 16 bytes), leaf brushes (u16; Strata
// version 1: u32), the leaves' leaf-brush ranges (u16 at 24 and 26 of leaf versions 0 and 1,
// u32 at 44 and 48 of Strata's version 2) and the models' head nodes (int32 at 36 of 48).
struct SourceBrushLumps {
    core::ByteReader brushes;
    core::ByteReader brush_sides;
    bool wide_sides = false;
    core::ByteReader leaf_brushes;
    bool wide_leaf_brushes = false;
    core::ByteReader leafs;
    int32_t leaf_version = 1;
    core::ByteReader models;
};
core::Status readSourceCollision(Map& map, const SourceBrushLumps& lumps);
// CollisionContents of Source bspflags.h CONTENTS_* bits (brushes and displacements).
uint32_t sourceContents(uint32_t game_contents);

// Quake 3 brush contents from shader content flags and surface flags (ioquake3
// code/game/surfaceflags.h), for q3.cpp, which decodes its records itself.
uint32_t q3CollisionContents(uint32_t content_flags, uint32_t surface_flags);
// The Quake 3 player box and SURFACE_CLIP_EPSILON.
void setQ3CollisionRules(Collision& c);

// Checks what a parser decoded into map.collision (brush kind): side ranges and planes, leaf
// brush indices and ranges, and caps on the work a trace may meet (overlapping ranges).
core::Status checkBrushCollision(const Map& map);

// Collision is one feature (walk mode, the collision views): when `read` (what a read*Collision
// returned) failed, the map loads without it, Map::collision emptied (kind None) and the
// error kept as a warning (bsp/dropped.h). Always returns ok.
core::Status collisionOrNone(Map& map, core::Status read);

// After the entities are bound to submodels: a submodel collides when its entity is one the
// games make solid (not trigger_*, func_illusionary, ...). The world always collides.
void setModelSolidity(Map& map);

} // namespace bsp
