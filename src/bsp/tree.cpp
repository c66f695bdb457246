#include "bsp/tree.h"

#include "bsp/lump_table.h"

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

core::Status setNodeLinks(Map& map, uint64_t index, int64_t plane,
                          const std::array<int64_t, 2>& children, DroppedReferences* solid_leaf) {
    const auto i = static_cast<int64_t>(index);
    const uint64_t nodes = map.nodes.size(), leaves = map.leaves.size();
    if (plane < 0 || static_cast<uint64_t>(plane) >= map.planes.size())
        return indexError("nodes", i, "planenum", plane, map.planes.size(), "planes");
    Node& node = map.nodes[index];
    node.plane = static_cast<int32_t>(plane);
    for (size_t c = 0; c < 2; ++c) {
        const int64_t child = children[c];
        const char* field = c ? "children[1]" : "children[0]";
        if (child < 0 && static_cast<uint64_t>(-1 - child) >= leaves && solid_leaf && leaves > 0) {
            solid_leaf->add(indexError("nodes", i, field, -1 - child, leaves, "leaves"),
                            "taken as the solid leaf 0");
            node.children[c] = -1;
            continue;
        }
        if (child >= 0 ? static_cast<uint64_t>(child) >= nodes
                       : static_cast<uint64_t>(-1 - child) >= leaves)
            return indexError("nodes", i, field, child, child >= 0 ? nodes : leaves,
                              child >= 0 ? "nodes" : "leaves");
        node.children[c] = static_cast<int32_t>(child);
    }
    return core::okStatus();
}

void checkLeafCluster(Leaf& leaf, uint64_t index, DroppedReferences& dropped) {
    if (leaf.cluster >= -1)
        return;
    dropped.add(indexError("leafs", int64_t(index), "cluster", leaf.cluster, 0, "clusters"),
                "taken as -1 (no cluster)");
    leaf.cluster = -1;
}

void readAreaRecords(const core::ByteReader& records, Map& map, DroppedReferences& dropped) {
    map.areas.resize(records.size() / 8);
    for (size_t i = 0; i < map.areas.size(); ++i) {
        Area& a = map.areas[i];
        a.num_portals = records.i32(i * 8);
        a.first_portal = records.i32(i * 8 + 4);
        if (a.num_portals < 0 || a.first_portal < 0 ||
            int64_t(a.first_portal) + a.num_portals > int64_t(map.area_portals.size()))
            dropped.add(indexError("areas", int64_t(i), "firstareaportal",
                                   int64_t(a.first_portal) + a.num_portals, map.area_portals.size(),
                                   "areaportals"),
                        kAreasDropped);
    }
}

void dropAreasIfBroken(Map& map, DroppedReferences& dropped) {
    if (dropped.count(kAreasDropped) > 0) {
        map.areas.clear();
        map.area_portals.clear();
    }
    dropped.flush(map);
}

} // namespace bsp
