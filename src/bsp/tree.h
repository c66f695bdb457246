// Queries on the BSP tree of a validated Map.
#pragma once

#include "bsp/dropped.h"
#include "bsp/map.h"
#include "core/byte_reader.h"
#include "core/result.h"

#include <array>
#include <string_view>

namespace bsp {

// Index of the leaf containing point, walking from node 0. A map without nodes gives leaf 0
// (or -1 when it has no leaves). The walk is iterative and bounded by the node count, so a
// malformed tree cannot make it loop forever.
int32_t pointLeaf(const Map& map, const glm::vec3& point);

// Leaves may name overlapping ranges of Map::leaf_faces, and scene::Visibility walks the range of
// every visible leaf each frame, so 2,000 leaves each naming the same 60,000 entries would cost
// 120 M steps a frame from a 150 KB file. Compilers write disjoint ranges (in every test map the
// ranges sum to exactly the entry count), so the sum is capped at kLeafFaceRefFactor times the
// entry count plus kLeafFaceRefSlack (about a millisecond of walking, which leaves harmless
// overlaps such as 20,000 leaves sharing 4 entries alone). BadValue naming the first leaf past
// the cap.
inline constexpr uint64_t kLeafFaceRefFactor = 4;
inline constexpr uint64_t kLeafFaceRefSlack = 1u << 20;
core::Status checkLeafFaceTotal(const Map& map, uint64_t leaf_face_entries);

// Checks and stores node `index`'s plane and children (map.nodes already sized to
// `node_count`): the plane within map.planes, each child a node below `node_count` or, when
// negative, leaf -1 - child within map.leaves. IndexOutOfRange naming nodes[index] and the
// field otherwise (edge-based formats: Quake 1, Half-Life, Quake 2, Source). With `solid_leaf`,
// a leaf past the leaves is noted there and taken as leaf 0, the shared solid leaf, as
// QuakeSpasm gl_model.c Mod_LoadNodes does ("invalid leaf index"; Quake 1 family).
core::Status setNodeLinks(Map& map, uint64_t index, int64_t plane,
                          const std::array<int64_t, 2>& children,
                          DroppedReferences* solid_leaf = nullptr);

// A leaf's cluster below -1 (compilers write -1 for "none"; yquake2 collision.c CM_ClusterPVS
// would index before its array with it) is noted in `dropped` and taken as -1 (Quake 2, Source).
void checkLeafCluster(Leaf& leaf, uint64_t index, DroppedReferences& dropped);

// Areas and area portals serve the area views and the sky region's area restriction
// (scene::VisOptions::own_area_only): when `dropped` holds a reference with the consequence
// kAreasDropped, map.areas and map.area_portals are emptied (every leaf's area is then a plain
// number, restricting nothing). Adds `dropped`'s warnings to the map either way.
inline constexpr std::string_view kAreasDropped =
    "no areas: the area views and area restrictions are off";
void dropAreasIfBroken(Map& map, DroppedReferences& dropped);
// The areas lump's records (Quake 2 and Source alike: dareas_t / darea_t, numareaportals then
// firstareaportal, 4 bytes each) into map.areas, sized from `records`' bytes; each area's portal
// range must lie within map.area_portals (read first), else a reference is noted with the
// consequence kAreasDropped.
void readAreaRecords(const core::ByteReader& records, Map& map, DroppedReferences& dropped);

// Which side of a plane the point is on (>= 0: front).
float planeDistance(const Plane& plane, const glm::vec3& point);

} // namespace bsp
