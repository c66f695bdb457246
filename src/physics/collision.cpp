// Traces against clip hulls and brushes. The algorithms are the engines' (docs/collision.md):
// HullTracer follows QuakeSpasm world.c SV_RecursiveHullCheck / SV_HullPointContents,
// BrushTracer follows Quake 2 cmodel.c CM_RecursiveHullCheck and ioquake3 cm_trace.c
// CM_TraceThroughTree / CM_TraceThroughBrush.
#include "physics/collision.h"

#include <algorithm>
#include <cmath>
#include <glm/common.hpp>
#include <glm/geometric.hpp>

namespace physics {

namespace {

// QuakeSpasm world.c DIST_EPSILON: the impact point is kept this far on the open side.
constexpr float kHullEpsilon = 0.03125f;
// Recursion stops here (clip trees are refused deeper than 2048 by the parser; node trees of
// real maps stay below 100 levels), so a hostile chain of nodes cannot exhaust the stack.
constexpr int kMaxDepth = 4096;
constexpr int32_t kSolidValue = -2; // what an unreadable region counts as
// Patch facets kept for one map (each up to 4 + 6 + 24 + 1 planes), so a hostile map's patches
// cannot take gigabytes; real maps stay far below (oa_ctf2: 42 patches, 552 facets).
constexpr size_t kMaxMapPatchFacets = size_t(1) << 18;

bool finite(const glm::vec3& v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

// Into [0, 1], NaN to 0: a hostile map's non-finite planes give NaN crossing fractions
// (fuzz_load_map found it), which would otherwise reach the result.
float clampFraction(float f) {
    return f >= 0.0f ? std::min(f, 1.0f) : 0.0f;
}

float planeDist(const bsp::Plane& p, const glm::vec3& v) {
    return glm::dot(p.normal, v) - p.dist;
}

} // namespace

// One hull trace (clip-hull maps), in the hull's space: the box is the point.
struct HullTracer {
    const bsp::Map& map;
    const std::vector<bsp::ClipNode>& nodes;
    int32_t head;
    uint32_t mask;
    TraceResult tr;
    int32_t hit_value = 0;
    uint32_t solid_as = 0; // a volume model's contents: what its solid stands for (0: solid)

    uint32_t contentsOf(int32_t value) const {
        const uint32_t c = map.collision.contentsOfValue(value);
        return solid_as && (c & bsp::kCollideSolid) ? solid_as : c;
    }
    bool blocks(int32_t value) const { return (contentsOf(value) & mask) != 0; }

    // SV_HullPointContents: walks down to a contents value. Trees were checked by the parser;
    // the step bound only guards against what it did not see.
    int32_t pointValue(int32_t num, const glm::vec3& p) const {
        for (size_t steps = 0; num >= 0; ++steps) {
            if (size_t(num) >= nodes.size() || steps > nodes.size())
                return kSolidValue;
            const bsp::ClipNode& n = nodes[size_t(num)];
            num = n.children[planeDist(map.planes[size_t(n.plane)], p) < 0.0f ? 1 : 0];
        }
        return num;
    }

    // SV_RecursiveHullCheck: false once the impact is found.
    bool check(int32_t num, float p1f, float p2f, const glm::vec3& p1, const glm::vec3& p2,
               int depth) {
        if (num < 0) {
            if (!blocks(num))
                tr.all_solid = false;
            else
                tr.start_solid = true;
            return true;
        }
        if (size_t(num) >= nodes.size() || depth > kMaxDepth)
            return true;
        const bsp::ClipNode& node = nodes[size_t(num)];
        const bsp::Plane& plane = map.planes[size_t(node.plane)];
        const float t1 = planeDist(plane, p1), t2 = planeDist(plane, p2);
        if (t1 >= 0.0f && t2 >= 0.0f)
            return check(node.children[0], p1f, p2f, p1, p2, depth + 1);
        if (t1 < 0.0f && t2 < 0.0f)
            return check(node.children[1], p1f, p2f, p1, p2, depth + 1);
        // The crossing point, kHullEpsilon on the near side.
        float frac = t1 < 0.0f ? (t1 + kHullEpsilon) / (t1 - t2) : (t1 - kHullEpsilon) / (t1 - t2);
        frac = clampFraction(frac);
        float midf = p1f + (p2f - p1f) * frac;
        glm::vec3 mid = p1 + frac * (p2 - p1);
        const int side = t1 < 0.0f ? 1 : 0;
        if (!check(node.children[side], p1f, midf, p1, mid, depth + 1))
            return false;
        const int32_t far_value = pointValue(node.children[side ^ 1], mid);
        if (!blocks(far_value))
            return check(node.children[side ^ 1], midf, p2f, mid, p2, depth + 1);
        if (tr.all_solid)
            return false; // never left the solid
        // The far side blocks: this is the impact.
        tr.plane = side ? bsp::Plane{-plane.normal, -plane.dist} : plane;
        hit_value = far_value;
        // Float error can leave mid inside: back off in tenths (the engine does the same).
        for (int tries = 0; blocks(pointValue(head, mid)); ++tries) {
            frac -= 0.1f;
            if (frac < 0.0f || tries >= 10) {
                tr.fraction = midf;
                tr.end_pos = mid;
                return false;
            }
            midf = p1f + (p2f - p1f) * frac;
            mid = p1 + frac * (p2 - p1);
        }
        tr.fraction = midf;
        tr.end_pos = mid;
        return false;
    }
};

// One brush trace (brush maps) of a box made symmetric around the origin.
struct BrushTracer {
    const CollisionWorld& world;
    const bsp::Map& map;
    const bsp::Collision& c;
    glm::vec3 start, end, ext; // ext: half size
    uint32_t mask;
    float eps;
    TraceResult tr;

    // CM_TraceThroughBrush (with Quake 2's CM_ClipBoxToBrush as the same shape).
    void clipBrush(const bsp::Brush& b) {
        if (!b.num_sides || !(b.contents & mask))
            return;
        float enter = -1.0f, leave = 1.0f;
        const bsp::BrushSide* clip_side = nullptr;
        const bsp::Plane* clip_plane = nullptr;
        bool start_out = false, get_out = false;
        for (uint32_t s = 0; s < b.num_sides; ++s) {
            const bsp::BrushSide& side = c.brush_sides[b.first_side + s];
            const bsp::Plane& p = map.planes[size_t(side.plane)];
            // Push the plane out by the box's extent along its normal.
            const float dist = p.dist + glm::dot(glm::abs(p.normal), ext);
            const float d1 = glm::dot(start, p.normal) - dist;
            const float d2 = glm::dot(end, p.normal) - dist;
            if (d2 > 0.0f)
                get_out = true;
            if (d1 > 0.0f)
                start_out = true;
            if (d1 > 0.0f && (d2 >= eps || d2 >= d1))
                return; // in front of this side the whole way
            if (d1 <= 0.0f && d2 <= 0.0f)
                continue;
            if (d1 > d2) { // entering
                const float f = std::max((d1 - eps) / (d1 - d2), 0.0f);
                if (f > enter) {
                    enter = f;
                    clip_side = &side;
                    clip_plane = &p;
                }
            } else { // leaving
                leave = std::min(leave, std::min((d1 + eps) / (d1 - d2), 1.0f));
            }
        }
        if (!start_out) {
            tr.start_solid = true;
            tr.contents = b.contents;
            tr.game_contents = b.game_contents;
            if (!get_out) {
                tr.all_solid = true;
                tr.fraction = 0.0f;
            }
            return;
        }
        if (enter < leave && enter > -1.0f && enter < tr.fraction && clip_plane) {
            tr.fraction = std::max(enter, 0.0f);
            tr.plane = *clip_plane;
            tr.contents = b.contents | clip_side->contents;
            tr.game_contents = b.game_contents;
            tr.material = clip_side->material;
        }
    }

    void brush(uint32_t index) {
        if (index >= c.brushes.size() || world.m_brush_mark[index] == world.m_mark)
            return;
        world.m_brush_mark[index] = world.m_mark;
        clipBrush(c.brushes[index]);
    }

    // CM_TraceThroughPatch: a patch whose contents are in the mask, once per trace.
    void patchOfFace(uint32_t face) {
        if (face >= world.m_face_patch.size() || world.m_face_patch[face] < 0)
            return;
        const size_t index = size_t(world.m_face_patch[face]);
        if (world.m_patch_mark[index] == world.m_mark)
            return;
        world.m_patch_mark[index] = world.m_mark;
        const CollisionWorld::Patch& p = world.m_patches[index];
        if (!(p.contents & mask))
            return;
        if (tracePatch(p.collide, start, end, ext, eps, tr.fraction, tr.plane)) {
            tr.contents = p.contents;
            tr.game_contents = size_t(p.material) < map.materials.size()
                                   ? map.materials[size_t(p.material)].game_contents
                                   : 0u;
            tr.material = p.material;
        }
    }

    // Source engine cmodel_disp.cpp: a displacement whose contents are in the mask, once per
    // trace, unless its flags let this kind of trace through (CDispCollTree::AABBTree_Ray for
    // rays, AABBTree_SweepAABB for boxes).
    void disp(uint32_t index) {
        if (index >= world.m_disps.size() || world.m_disp_mark[index] == world.m_mark)
            return;
        world.m_disp_mark[index] = world.m_mark;
        const CollisionWorld::Disp& d = world.m_disps[index];
        const bool ray = ext == glm::vec3(0.0f);
        if (!(d.contents & mask) || (d.flags & (ray ? bsp::kDispNoRayColl : bsp::kDispNoHullColl)))
            return;
        if (traceDisp(d.collide, start, end, ext, eps, tr.fraction, tr.plane)) {
            tr.contents = d.contents;
            tr.game_contents = d.game_contents;
            tr.material = d.material;
        }
    }

    // CM_TraceThroughLeaf: the leaf's brushes, then its patches (Quake 3) or displacements
    // (Source: CM_TraceToLeaf).
    void leaf(int32_t index) {
        if (index < 0 || size_t(index) >= c.leaf_brush_ranges.size())
            return;
        const bsp::Range& r = c.leaf_brush_ranges[size_t(index)];
        for (uint32_t k = 0; k < r.count && !tr.all_solid; ++k)
            brush(c.leaf_brushes[r.first + k]);
        if (size_t(index) < world.m_leaf_disp_ranges.size() && !tr.all_solid) {
            const bsp::Range& d = world.m_leaf_disp_ranges[size_t(index)];
            for (uint32_t k = 0; k < d.count; ++k)
                disp(world.m_leaf_disps[d.first + k]);
        }
        if (world.m_patches.empty() || tr.all_solid || size_t(index) >= map.leaves.size())
            return;
        const bsp::Leaf& l = map.leaves[size_t(index)];
        for (uint64_t k = l.first_leaf_face;
             k < uint64_t(l.first_leaf_face) + l.num_leaf_faces && k < map.leaf_faces.size(); ++k)
            patchOfFace(map.leaf_faces[size_t(k)]);
    }

    // CM_RecursiveHullCheck (Quake 2 cmodel.c): both children whose half-space the swept box
    // reaches, split where the box's extent along the plane allows.
    void node(int32_t num, float p1f, float p2f, const glm::vec3& p1, const glm::vec3& p2,
              int depth) {
        if (tr.fraction <= p1f || tr.all_solid)
            return;
        if (num < 0) {
            leaf(-1 - num);
            return;
        }
        if (size_t(num) >= map.nodes.size() || depth > kMaxDepth)
            return;
        const bsp::Node& n = map.nodes[size_t(num)];
        const bsp::Plane& plane = map.planes[size_t(n.plane)];
        const float t1 = planeDist(plane, p1), t2 = planeDist(plane, p2);
        const float offset = glm::dot(glm::abs(plane.normal), ext);
        if (t1 >= offset + 1.0f && t2 >= offset + 1.0f) {
            node(n.children[0], p1f, p2f, p1, p2, depth + 1);
            return;
        }
        if (t1 < -offset - 1.0f && t2 < -offset - 1.0f) {
            node(n.children[1], p1f, p2f, p1, p2, depth + 1);
            return;
        }
        int side = 0;
        float frac = 1.0f, frac2 = 0.0f;
        if (t1 < t2) {
            const float idist = 1.0f / (t1 - t2);
            side = 1;
            frac2 = (t1 + offset + eps) * idist;
            frac = (t1 - offset + eps) * idist;
        } else if (t1 > t2) {
            const float idist = 1.0f / (t1 - t2);
            frac2 = (t1 - offset - eps) * idist;
            frac = (t1 + offset + eps) * idist;
        }
        frac = clampFraction(frac);
        frac2 = clampFraction(frac2);
        float midf = p1f + (p2f - p1f) * frac;
        node(n.children[side], p1f, midf, p1, p1 + frac * (p2 - p1), depth + 1);
        midf = p1f + (p2f - p1f) * frac2;
        node(n.children[side ^ 1], midf, p2f, p1 + frac2 * (p2 - p1), p2, depth + 1);
    }

    // Union of the contents of every brush containing the box at `p` (CM_PointContents for
    // the point, CM_TestInLeaf for a box).
    uint32_t contentsAt(int32_t num, const glm::vec3& p, int depth) {
        uint32_t out = 0;
        while (num >= 0) {
            if (size_t(num) >= map.nodes.size() || depth > kMaxDepth)
                return out;
            const bsp::Node& n = map.nodes[size_t(num)];
            const bsp::Plane& plane = map.planes[size_t(n.plane)];
            const float d = planeDist(plane, p), offset = glm::dot(glm::abs(plane.normal), ext);
            if (d > offset)
                num = n.children[0];
            else if (d < -offset)
                num = n.children[1];
            else {
                out |= contentsAt(n.children[0], p, depth + 1);
                num = n.children[1];
            }
            ++depth;
        }
        const int32_t li = -1 - num;
        // A point takes its leaf's contents where the map stores them (Quake 2 and Source
        // CM_PointContents), so the void outside the map is solid.
        if (ext == glm::vec3(0.0f) && size_t(li) < c.leaf_contents.size())
            out |= c.leaf_contents[size_t(li)];
        if (size_t(li) >= c.leaf_brush_ranges.size())
            return out;
        const bsp::Range& r = c.leaf_brush_ranges[size_t(li)];
        for (uint32_t k = 0; k < r.count; ++k) {
            const uint32_t bi = c.leaf_brushes[r.first + k];
            if (bi < c.brushes.size() && inside(c.brushes[bi], p))
                out |= c.brushes[bi].contents;
        }
        return out;
    }

    bool inside(const bsp::Brush& b, const glm::vec3& p) const {
        if (!b.num_sides)
            return false;
        for (uint32_t s = 0; s < b.num_sides; ++s) {
            const bsp::Plane& pl = map.planes[size_t(c.brush_sides[b.first_side + s].plane)];
            if (glm::dot(p, pl.normal) - (pl.dist + glm::dot(glm::abs(pl.normal), ext)) > 0.0f)
                return false;
        }
        return true;
    }
};

CollisionWorld::CollisionWorld(const bsp::Map& map) : m_map(&map) {
    const bsp::Collision& c = map.collision;
    if (c.kind == bsp::CollisionKind::Hulls) {
        // QuakeSpasm gl_model.c Mod_MakeHull0: the node tree as a clip tree whose leaves are
        // their contents values.
        auto leafValue = [&](int32_t child) {
            const size_t leaf = size_t(-1 - int64_t(child));
            const int32_t v = leaf < c.leaf_values.size() ? c.leaf_values[leaf] : kSolidValue;
            return v < 0 ? v : -1; // a non-negative "contents" would read as a node index
        };
        m_hull0.resize(map.nodes.size());
        for (size_t i = 0; i < map.nodes.size(); ++i) {
            m_hull0[i].plane = map.nodes[i].plane;
            for (size_t k = 0; k < 2; ++k) {
                const int32_t child = map.nodes[i].children[k];
                m_hull0[i].children[k] = child >= 0 ? child : leafValue(child);
            }
        }
    }
    m_brush_mark.assign(c.brushes.size(), 0);
    if (c.kind == bsp::CollisionKind::Brushes && !c.material_contents.empty()) {
        m_face_patch.assign(map.faces.size(), -1);
        std::vector<glm::vec3> controls;
        size_t facets = 0;
        for (size_t f = 0; f < map.faces.size() && facets < kMaxMapPatchFacets; ++f) {
            const bsp::Face& face = map.faces[f];
            if (face.kind != bsp::FaceKind::Patch || face.material < 0 ||
                size_t(face.material) >= c.material_contents.size() ||
                !c.material_contents[size_t(face.material)] ||
                uint64_t(face.first_vertex) + face.num_vertices > map.vertices.size())
                continue;
            controls.clear();
            for (uint32_t v = 0; v < face.num_vertices; ++v)
                controls.push_back(map.vertices[face.first_vertex + v].position);
            PatchCollide pc = buildPatchCollide(controls, face.patch_width, face.patch_height);
            if (pc.facets.empty())
                continue;
            facets += pc.facets.size();
            m_face_patch[f] = int32_t(m_patches.size());
            m_patches.push_back(
                {std::move(pc), c.material_contents[size_t(face.material)], face.material});
        }
        m_patch_mark.assign(m_patches.size(), 0);
    }
    if (c.kind == bsp::CollisionKind::Brushes && !c.displacements.empty())
        buildDisplacements();
}

void CollisionWorld::buildDisplacements() {
    const bsp::Map& map = *m_map;
    std::vector<int32_t> face_disp(map.faces.size(), -1);
    std::vector<glm::vec3> positions;
    std::vector<uint32_t> indices;
    for (const bsp::DisplacementCollision& d : map.collision.displacements) {
        if (d.face >= map.faces.size() || face_disp[d.face] >= 0)
            continue;
        const bsp::Face& face = map.faces[d.face];
        if (uint64_t(face.first_vertex) + face.num_vertices > map.vertices.size() ||
            uint64_t(face.first_index) + face.num_indices > map.indices.size())
            continue;
        positions.clear();
        for (uint32_t v = 0; v < face.num_vertices; ++v)
            positions.push_back(map.vertices[face.first_vertex + v].position);
        // Face indices are into Map::vertices; the grid's are its own.
        indices.clear();
        for (uint32_t i = 0; i < face.num_indices; ++i)
            indices.push_back(map.indices[face.first_index + i] - face.first_vertex);
        DispCollide dc = buildDispCollide(positions, indices, face.normal);
        if (dc.triangles.empty())
            continue;
        face_disp[d.face] = int32_t(m_disps.size());
        m_disps.push_back({std::move(dc), d.contents, d.game_contents, d.flags, face.material});
    }
    m_disp_mark.assign(m_disps.size(), 0);
    // Per leaf, the displacements among its faces (the parser linked them to the leaves their
    // bounds touch).
    m_leaf_disp_ranges.assign(map.leaves.size(), {});
    for (size_t l = 0; l < map.leaves.size(); ++l) {
        const bsp::Leaf& leaf = map.leaves[l];
        m_leaf_disp_ranges[l].first = uint32_t(m_leaf_disps.size());
        for (uint64_t k = leaf.first_leaf_face;
             k < uint64_t(leaf.first_leaf_face) + leaf.num_leaf_faces && k < map.leaf_faces.size();
             ++k) {
            const uint32_t f = map.leaf_faces[size_t(k)];
            if (f < face_disp.size() && face_disp[f] >= 0)
                m_leaf_disps.push_back(uint32_t(face_disp[f]));
        }
        m_leaf_disp_ranges[l].count = uint32_t(m_leaf_disps.size()) - m_leaf_disp_ranges[l].first;
    }
}

int32_t CollisionWorld::hullCount() const {
    return std::max<int32_t>(1, int32_t(m_map->collision.hulls.size()));
}

bsp::HullSize CollisionWorld::hullSize(int32_t hull) const {
    const auto& hulls = m_map->collision.hulls;
    return hull >= 0 && size_t(hull) < hulls.size() ? hulls[size_t(hull)] : bsp::HullSize{};
}

int32_t CollisionWorld::hullForBox(const glm::vec3& mins, const glm::vec3& maxs,
                                   glm::vec3* offset) const {
    const bsp::Collision& c = m_map->collision;
    const glm::vec3 size = maxs - mins;
    if (offset)
        *offset = glm::vec3(0.0f);
    if (c.kind != bsp::CollisionKind::Hulls)
        return 0;
    for (const bsp::HullChoice& choice : c.hull_choices) {
        if (size.x > choice.max_width || size.z > choice.max_height || choice.hull < 0 ||
            size_t(choice.hull) >= c.hulls.size())
            continue;
        if (offset)
            *offset = c.hulls[size_t(choice.hull)].mins -
                      (choice.offset_from_box_mins ? mins : glm::vec3(0.0f));
        return choice.hull;
    }
    return 0;
}

uint32_t CollisionWorld::pointContents(const glm::vec3& p, int32_t hull) const {
    const bsp::Collision& c = m_map->collision;
    if (c.models.empty() || hull < 0 || hull >= hullCount() || !finite(p))
        return 0;
    const bsp::ModelCollision& world = c.models[0];
    if (c.kind == bsp::CollisionKind::Hulls) {
        if (hull >= 4)
            return 0;
        HullTracer h{*m_map,
                     hull == 0 ? m_hull0 : c.clipnodes,
                     world.heads[size_t(hull)],
                     bsp::kMaskPlayerSolid,
                     {}};
        return c.contentsOfValue(h.pointValue(h.head, p)) | volumesAt(p, hull);
    }
    if (c.kind == bsp::CollisionKind::Brushes) {
        const bsp::HullSize size = hullSize(hull);
        BrushTracer b{*this, *m_map,         c, p, p, (size.maxs - size.mins) * 0.5f,
                      0,     c.clip_epsilon, {}};
        return b.contentsAt(world.heads[0], p + (size.mins + size.maxs) * 0.5f, 0);
    }
    return 0;
}

uint32_t CollisionWorld::volumesAt(const glm::vec3& p, int32_t hull) const {
    // pm_shared.c PM_PointContents: a SOLID_NOT entity's contents where its hull is not empty.
    const bsp::Collision& c = m_map->collision;
    uint32_t out = 0;
    for (size_t m = 1; m < c.models.size() && m < m_map->submodels.size(); ++m) {
        const bsp::ModelCollision& mc = c.models[m];
        if (mc.solid || !mc.volume)
            continue;
        const bsp::Submodel& sm = m_map->submodels[m];
        const glm::vec3 local = p - sm.origin;
        const bsp::HullSize size = hullSize(hull);
        if (glm::any(glm::lessThan(local + size.maxs, sm.mins)) ||
            glm::any(glm::greaterThan(local + size.mins, sm.maxs)))
            continue;
        HullTracer h{*m_map, hull == 0 ? m_hull0 : c.clipnodes, mc.heads[size_t(hull)], 0, {}};
        if (c.contentsOfValue(h.pointValue(h.head, local)) != 0)
            out |= mc.volume;
    }
    return out;
}

TraceResult CollisionWorld::traceModel(int32_t model, const glm::vec3& start, const glm::vec3& end,
                                       const glm::vec3& mins, const glm::vec3& maxs,
                                       uint32_t mask) const {
    const bsp::Collision& c = m_map->collision;
    TraceResult tr;
    tr.end_pos = end;
    if (model < 0 || size_t(model) >= c.models.size() || size_t(model) >= m_map->submodels.size() ||
        c.kind == bsp::CollisionKind::None)
        return tr;
    if (!finite(start) || !finite(end) || !finite(mins) || !finite(maxs)) {
        tr.fraction = 0.0f;
        tr.end_pos = start;
        tr.start_solid = tr.all_solid = true;
        return tr;
    }
    const bsp::ModelCollision& mc = c.models[size_t(model)];
    const glm::vec3 origin = model > 0 ? m_map->submodels[size_t(model)].origin : glm::vec3(0.0f);

    if (c.kind == bsp::CollisionKind::Hulls) {
        glm::vec3 offset;
        const int32_t hull = hullForBox(mins, maxs, &offset);
        const glm::vec3 shift = offset + origin;
        HullTracer h{*m_map, hull == 0 ? m_hull0 : c.clipnodes, mc.heads[size_t(hull)], mask, {}};
        h.solid_as = mc.solid ? 0u : mc.volume;
        h.tr.all_solid = true;
        h.tr.end_pos = end - shift;
        h.check(h.head, 0.0f, 1.0f, start - shift, end - shift, 0);
        tr = h.tr;
        if (tr.all_solid) {
            tr.start_solid = true;
            tr.fraction = 0.0f;
            tr.end_pos = start - shift;
            h.hit_value = h.pointValue(h.head, start - shift);
        }
        tr.end_pos += shift;
        if (tr.hit()) {
            tr.contents = h.contentsOf(h.hit_value);
            tr.game_contents = uint32_t(h.hit_value);
            tr.submodel = model;
        }
        return tr;
    }

    // Brushes: a symmetric box around the centre (CM_Trace does the same).
    const glm::vec3 centre = (mins + maxs) * 0.5f;
    const glm::vec3 shift = centre - origin;
    BrushTracer b{*this, *m_map,         c, start + shift, end + shift, (maxs - mins) * 0.5f,
                  mask,  c.clip_epsilon, {}};
    if (++m_mark == 0) {
        std::fill(m_brush_mark.begin(), m_brush_mark.end(), 0u);
        std::fill(m_patch_mark.begin(), m_patch_mark.end(), 0u);
        std::fill(m_disp_mark.begin(), m_disp_mark.end(), 0u);
        m_mark = 1;
    }
    if (mc.brushes.count > 0 || (model > 0 && !m_patches.empty())) {
        // Quake 3 models: their brush list and their own faces' patches (CMod_LoadSubmodels).
        for (uint32_t k = 0; k < mc.brushes.count && !b.tr.all_solid; ++k)
            b.brush(mc.brushes.first + k);
        const bsp::Submodel& sm = m_map->submodels[size_t(model)];
        for (uint64_t f = sm.first_face;
             model > 0 && f < uint64_t(sm.first_face) + sm.num_faces && !b.tr.all_solid; ++f)
            b.patchOfFace(uint32_t(f));
    } else {
        b.node(mc.heads[0], 0.0f, 1.0f, b.start, b.end, 0);
    }
    tr = b.tr;
    tr.end_pos = start + tr.fraction * (end - start);
    if (tr.hit())
        tr.submodel = model;
    if (tr.fraction < 1.0f && model > 0)
        tr.plane.dist += glm::dot(tr.plane.normal, origin);
    return tr;
}

std::optional<CollisionPick> pickCollision(const CollisionWorld& world, const glm::vec3& origin,
                                           const glm::vec3& dir, float max_distance, int32_t hull,
                                           uint32_t mask) {
    if (!(max_distance > 0.0f) || world.kind() == bsp::CollisionKind::None)
        return std::nullopt;
    const glm::vec3 end = origin + glm::normalize(dir) * max_distance;
    TraceResult t;
    if (world.kind() == bsp::CollisionKind::Hulls) {
        // A box of the hull's size is traced as a point in that hull (hullForBox; offset 0).
        const bsp::HullSize box = world.hullSize(hull);
        t = world.trace(origin, end, box.mins, box.maxs,
                        bsp::kCollideSolid | bsp::kCollidePlayerClip | bsp::kCollideMonsterClip);
        if (t.start_solid)
            return std::nullopt;
    } else {
        // Brushes the start is inside are passed (CM_TraceThroughBrush leaves the fraction).
        t = world.trace(origin, end, glm::vec3(0.0f), glm::vec3(0.0f), mask);
        if (t.all_solid)
            return std::nullopt;
    }
    if (t.fraction >= 1.0f)
        return std::nullopt;
    return CollisionPick{t.fraction * max_distance, t.end_pos, t.contents, t.submodel};
}

TraceResult CollisionWorld::trace(const glm::vec3& start, const glm::vec3& end,
                                  const glm::vec3& mins, const glm::vec3& maxs,
                                  uint32_t mask) const {
    TraceResult best = traceModel(0, start, end, mins, maxs, mask);
    if (best.all_solid)
        return best;
    // Brush models whose bounds the swept box meets (SV_ClipToLinks keeps the nearest hit).
    const glm::vec3 lo = glm::min(start, end) + mins - 1.0f;
    const glm::vec3 hi = glm::max(start, end) + maxs + 1.0f;
    const auto& models = m_map->collision.models;
    for (size_t m = 1; m < models.size() && m < m_map->submodels.size(); ++m) {
        if (!models[m].solid && !(models[m].volume & mask))
            continue;
        const bsp::Submodel& sm = m_map->submodels[m];
        const glm::vec3 bmin = sm.mins + sm.origin, bmax = sm.maxs + sm.origin;
        if (glm::any(glm::greaterThan(lo, bmax)) || glm::any(glm::lessThan(hi, bmin)))
            continue;
        const TraceResult t = traceModel(int32_t(m), start, end, mins, maxs, mask);
        if (t.all_solid || t.fraction < best.fraction) {
            const bool started = best.start_solid || t.start_solid;
            best = t;
            best.start_solid = started;
        } else if (t.start_solid) {
            best.start_solid = true;
        }
        if (best.all_solid)
            break;
    }
    return best;
}

} // namespace physics
