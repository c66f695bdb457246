// Queries on the BSP tree of a validated Map.
#pragma once

#include "bsp/map.h"

namespace bsp {

// Index of the leaf containing point, walking from node 0. A map without nodes gives leaf 0
// (or -1 when it has no leaves). The walk is iterative and bounded by the node count, so a
// malformed tree cannot make it loop forever.
int32_t pointLeaf(const Map& map, const glm::vec3& point);

// Which side of a plane the point is on (>= 0: front).
float planeDistance(const Plane& plane, const glm::vec3& point);

} // namespace bsp
