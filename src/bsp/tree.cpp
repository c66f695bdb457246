#include "bsp/tree.h"

#include <glm/geometric.hpp>

namespace bsp {

float planeDistance(const Plane& plane, const glm::vec3& point) {
    return glm::dot(plane.normal, point) - plane.dist;
}

int32_t pointLeaf(const Map& map, const glm::vec3& point) {
    if (map.nodes.empty())
        return map.leaves.empty() ? -1 : 0;
    int32_t node = 0;
    for (size_t steps = 0; steps <= map.nodes.size(); ++steps) {
        if (node < 0) {
            const int32_t leaf = -1 - node;
            return leaf < static_cast<int32_t>(map.leaves.size()) ? leaf : -1;
        }
        if (node >= static_cast<int32_t>(map.nodes.size()))
            return -1;
        const Node& n = map.nodes[static_cast<size_t>(node)];
        if (n.plane < 0 || n.plane >= static_cast<int32_t>(map.planes.size()))
            return -1;
        const float d = planeDistance(map.planes[static_cast<size_t>(n.plane)], point);
        node = n.children[d >= 0.0f ? 0 : 1];
    }
    return -1; // a cycle: validation should have rejected the map
}

} // namespace bsp
