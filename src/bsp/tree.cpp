#include "bsp/tree.h"

#include <glm/geometric.hpp>

namespace bsp {

core::Status checkLeafFaceTotal(const Map& map, uint64_t leaf_face_entries) {
    const uint64_t limit = kLeafFaceRefFactor * leaf_face_entries + kLeafFaceRefSlack;
    uint64_t sum = 0;
    for (size_t i = 0; i < map.leaves.size(); ++i) {
        sum += map.leaves[i].num_leaf_faces;
        if (sum > limit)
            return core::makeError(
                core::ErrorCode::BadValue, "leafs", static_cast<int64_t>(i), "numleaffaces",
                "leaf face ranges overlap: they sum past " + std::to_string(limit) + " for " +
                    std::to_string(leaf_face_entries) + " entries");
    }
    return core::okStatus();
}

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
