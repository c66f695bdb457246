#include "scene/view/visibility.h"

#include "bsp/tree.h"

#include <algorithm>
#include <bit>
#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>

namespace scene {

int32_t leafArea(const bsp::Map& map, int32_t leaf) {
    if (leaf < 0 || static_cast<size_t>(leaf) >= map.leaves.size())
        return -1;
    const int32_t area = map.leaves[static_cast<size_t>(leaf)].area;
    return area >= 0 && static_cast<size_t>(area) < map.areas.size() ? area : -1;
}

namespace {

// Keeps the leaves of `area` alone (all of them when `area` is -1).
void keepArea(const bsp::Map& map, int32_t area, std::vector<uint32_t>& leaves) {
    if (area < 0)
        return;
    std::erase_if(leaves, [&](uint32_t i) { return map.leaves[i].area != area; });
}

// Visits the leaves reached from the root, descending from each node into the children that
// `sides(plane)` names (bit 1 the front, bit 2 the back), and calls `leaf(index)` for each. A
// tree visits every node and leaf at most once, so the walk stops after that many steps: a
// malformed graph that shares children cannot make it run on.
template <typename Sides, typename LeafFn>
void walkTree(const bsp::Map& map, std::vector<int32_t>& stack, Sides sides, LeafFn leaf) {
    stack.assign(1, map.nodes.empty() ? -1 : 0);
    size_t budget = map.nodes.size() + map.leaves.size() + 1;
    while (!stack.empty() && budget-- > 0) {
        const int32_t child = stack.back();
        stack.pop_back();
        if (child < 0) {
            const auto index = static_cast<size_t>(-1 - static_cast<int64_t>(child));
            if (index < map.leaves.size())
                leaf(index);
            continue;
        }
        const bsp::Node& n = map.nodes[static_cast<size_t>(child)];
        if (n.plane < 0 || static_cast<size_t>(n.plane) >= map.planes.size())
            continue;
        const int s = sides(map.planes[static_cast<size_t>(n.plane)]);
        for (int k = 0; k < 2; ++k) {
            const int32_t c = n.children[static_cast<size_t>(k)];
            if ((s & (1 << k)) && c < static_cast<int32_t>(map.nodes.size()))
                stack.push_back(c);
        }
    }
}

} // namespace

bool DrawList::containsFace(uint32_t face) const {
    return std::find(faces.begin(), faces.end(), face) != faces.end();
}

void DrawList::clear() {
    faces.clear();
    ranges.clear();
    batches.clear();
    flares.clear();
    models.clear();
    culled_pvs.clear();
    culled_frustum.clear();
    stats = DrawStats();
}

Visibility::Visibility(const bsp::Map& map, const WorldMesh& mesh,
                       const std::vector<EntityModelInstance>* models,
                       std::optional<game::BrushModelVis> brush_model_vis)
    : m_map(map), m_mesh(mesh), m_models(models),
      m_brush_vis(brush_model_vis ? *brush_model_vis
                                  : game::profileFor(map).entities.brush_model_vis),
      m_flares(extractFlares(map, mesh.materials)) {
    m_leaf_mins.reserve(map.leaves.size());
    m_leaf_maxs.reserve(map.leaves.size());
    for (const bsp::Leaf& l : map.leaves) {
        m_leaf_mins.push_back(l.mins);
        m_leaf_maxs.push_back(l.maxs);
    }
    m_leaf_sky.assign(map.leaves.size(), 0);
    for (size_t i = 0; i < map.leaves.size(); ++i) {
        const bsp::Leaf& l = map.leaves[i];
        for (uint32_t k = 0; k < l.num_leaf_faces && !m_leaf_sky[i]; ++k) {
            const size_t lf = size_t(l.first_leaf_face) + k;
            const uint32_t face = lf < map.leaf_faces.size() ? map.leaf_faces[lf] : UINT32_MAX;
            m_leaf_sky[i] = face < mesh.faces.size() && mesh.faces[face].submodel == 0 &&
                            mesh.faces[face].pass == Pass::Sky;
        }
    }
    m_face_bits.assign((mesh.faces.size() + 63) / 64, 0);
    m_material_group.assign(map.materials.size(), -1);
    m_pvs_leaves.reserve(map.leaves.size());
    if (map.vis.present()) {
        const auto clusters = static_cast<size_t>(map.vis.num_clusters);
        m_cluster_first.assign(clusters + 1, 0);
        for (const bsp::Leaf& l : map.leaves)
            if (l.num_leaf_faces > 0 && l.cluster >= 0 && static_cast<size_t>(l.cluster) < clusters)
                ++m_cluster_first[static_cast<size_t>(l.cluster) + 1];
        for (size_t c = 0; c < clusters; ++c)
            m_cluster_first[c + 1] += m_cluster_first[c];
        m_cluster_leaves.resize(m_cluster_first[clusters]);
        std::vector<uint32_t> fill(m_cluster_first.begin(), m_cluster_first.end() - 1);
        for (uint32_t i = 0; i < map.leaves.size(); ++i) {
            const bsp::Leaf& l = map.leaves[i];
            if (l.num_leaf_faces > 0 && l.cluster >= 0 && static_cast<size_t>(l.cluster) < clusters)
                m_cluster_leaves[fill[static_cast<size_t>(l.cluster)]++] = i;
        }
    }
    // Each model's area, for VisOptions::own_area_only (only maps with areas have any).
    if (m_models && !map.areas.empty()) {
        m_model_areas.reserve(m_models->size());
        for (const EntityModelInstance& m : *m_models)
            m_model_areas.push_back(leafArea(map, bsp::pointLeaf(map, m.origin)));
    }
    if (!map.areas.empty())
        linkBrushModelAreas();
    if (m_brush_vis.by_pvs)
        linkBrushModels();
}

// Calls leaf(i) for every non-solid leaf the box `centre` +- `half` touches, as QuakeSpasm's
// SV_FindTouchedLeafs links an entity: both sides of a plane the box reaches (its nearest corner
// in front counts as the front, BOX_ON_PLANE_SIDE), solid leaves left out.
template <class Leaf>
void Visibility::walkBoxLeaves(const glm::vec3& centre, const glm::vec3& half, Leaf&& leaf) {
    walkTree(
        m_map, m_walk,
        [&](const bsp::Plane& p) {
            const float d = bsp::planeDistance(p, centre);
            const float r = glm::dot(glm::abs(p.normal), half);
            return (d + r >= 0.0f ? 1 : 0) | (d - r < 0.0f ? 2 : 0);
        },
        [&](size_t i) {
            if ((m_map.leaves[i].contents & bsp::kContentsSolid) == 0)
                leaf(i);
        });
}

// The clusters of the leaves each brush model's placed box touches (walkBoxLeaves). Turned
// models keep the frustum test only.
void Visibility::linkBrushModels() {
    const game::BrushModelVis& rule = m_brush_vis;
    m_model_first.assign(1, 0);
    m_model_always.assign(m_map.submodels.size(), 1);
    for (size_t s = 0; s < m_map.submodels.size(); ++s) {
        const bsp::Submodel& sm = m_map.submodels[s];
        if (s > 0 && sm.angles == glm::vec3(0.0f)) {
            uint32_t touched = 0;
            walkBoxLeaves(sm.origin + (sm.mins + sm.maxs) * 0.5f,
                          (sm.maxs - sm.mins) * 0.5f + rule.box_margin, [&](size_t leaf) {
                              ++touched;
                              if (m_map.leaves[leaf].cluster >= 0)
                                  m_model_clusters.push_back(m_map.leaves[leaf].cluster);
                          });
            m_model_always[s] = rule.leaf_limit > 0 && touched >= rule.leaf_limit;
        }
        m_model_first.push_back(static_cast<uint32_t>(m_model_clusters.size()));
    }
}

// The areas of the leaves each brush model's placed box touches (walkBoxLeaves), the box of a
// turned model grown to the sphere that holds it at any angle. For VisOptions::own_area_only.
void Visibility::linkBrushModelAreas() {
    m_model_area_first.assign(1, 0);
    m_model_area_list.clear();
    for (size_t s = 0; s < m_map.submodels.size(); ++s) {
        const bsp::Submodel& sm = m_map.submodels[s];
        glm::vec3 half = (sm.maxs - sm.mins) * 0.5f;
        glm::vec3 centre = sm.origin + (sm.mins + sm.maxs) * 0.5f;
        if (sm.angles != glm::vec3(0.0f)) {
            half = glm::vec3(glm::length(glm::max(glm::abs(sm.mins), glm::abs(sm.maxs))));
            centre = sm.origin;
        }
        const size_t first = m_model_area_list.size();
        if (s > 0)
            walkBoxLeaves(centre, half, [&](size_t leaf) {
                const int32_t area = leafArea(m_map, int32_t(leaf));
                if (area >= 0 &&
                    std::find(m_model_area_list.begin() + std::ptrdiff_t(first),
                              m_model_area_list.end(), area) == m_model_area_list.end())
                    m_model_area_list.push_back(area);
            });
        m_model_area_first.push_back(static_cast<uint32_t>(m_model_area_list.size()));
    }
}

bool Visibility::brushModelInArea(size_t submodel, int32_t area) const {
    if (submodel + 1 >= m_model_area_first.size())
        return true;
    const auto begin = m_model_area_list.begin() + std::ptrdiff_t(m_model_area_first[submodel]);
    const auto end = m_model_area_list.begin() + std::ptrdiff_t(m_model_area_first[submodel + 1]);
    return std::find(begin, end, area) != end;
}

// The PVS rows of every non-solid leaf within eye_radius of the eye, joined (SV_FatPVS). An eye
// deep in solid or in the void reaches no leaf and sees no brush model; without vis data every
// leaf it reaches sees everything (QuakeSpasm's Mod_LeafPVS gives the no-vis row then).
void Visibility::collectFatPvs(const glm::vec3& eye) {
    const float radius = m_brush_vis.eye_radius;
    m_fat_pvs.assign(static_cast<size_t>(m_map.vis.row_size), 0);
    m_fat_reaches_leaf = false;
    walkTree(
        m_map, m_walk,
        [&](const bsp::Plane& p) {
            const float d = bsp::planeDistance(p, eye);
            return d > radius ? 1 : d < -radius ? 2 : 3;
        },
        [&](size_t leaf) {
            const bsp::Leaf& l = m_map.leaves[leaf];
            if (l.contents & bsp::kContentsSolid)
                return;
            m_fat_reaches_leaf = true;
            const uint8_t* row = m_map.vis.row(l.cluster);
            for (size_t b = 0; row && b < m_fat_pvs.size(); ++b)
                m_fat_pvs[b] |= row[b];
        });
}

bool Visibility::brushModelSent(size_t submodel) const {
    if (submodel >= m_model_always.size() || m_model_always[submodel])
        return true;
    if (!m_map.vis.present())
        return m_fat_reaches_leaf;
    for (uint32_t k = m_model_first[submodel]; k < m_model_first[submodel + 1]; ++k) {
        const auto c = static_cast<uint32_t>(m_model_clusters[k]);
        if ((c >> 3) < m_fat_pvs.size() && ((m_fat_pvs[c >> 3] >> (c & 7)) & 1))
            return true;
    }
    return false;
}

void Visibility::collectPvsLeaves(int32_t cluster, bool use_pvs, int32_t area) {
    m_pvs_leaves.clear();
    const bool all = !use_pvs || cluster < 0 || !m_map.vis.present();
    if (!all) {
        // Walk the set bits of the row; leaves come out grouped by cluster.
        const uint8_t* row = m_map.vis.row(cluster);
        const auto clusters = static_cast<uint32_t>(m_map.vis.num_clusters);
        for (uint32_t byte = 0; row && byte < static_cast<uint32_t>(m_map.vis.row_size); ++byte) {
            for (uint32_t bits = row[byte]; bits; bits &= bits - 1) {
                const uint32_t c = byte * 8 + static_cast<uint32_t>(std::countr_zero(bits));
                if (c >= clusters)
                    break;
                m_pvs_leaves.insert(m_pvs_leaves.end(),
                                    m_cluster_leaves.begin() + m_cluster_first[c],
                                    m_cluster_leaves.begin() + m_cluster_first[c + 1]);
            }
        }
        keepArea(m_map, area, m_pvs_leaves);
        m_cached_cluster = cluster;
        m_cached_use_pvs = use_pvs;
        m_cached_area = area;
        return;
    }
    for (uint32_t i = 0; i < m_map.leaves.size(); ++i) {
        const bsp::Leaf& l = m_map.leaves[i];
        if (l.num_leaf_faces == 0)
            continue;
        if (use_pvs && m_map.vis.present() && l.cluster < 0) {
            // Outside the map with vis present: leaves without a cluster are solid.
            continue;
        }
        m_pvs_leaves.push_back(i);
    }
    keepArea(m_map, area, m_pvs_leaves);
    m_cached_cluster = cluster;
    m_cached_use_pvs = use_pvs;
    m_cached_area = area;
}

void Visibility::update(const Camera& camera, const VisOptions& options, DrawList& out) {
    const int32_t leaf = bsp::pointLeaf(m_map, options.pvs_point.value_or(camera.position));
    const int32_t cluster = leaf >= 0 ? m_map.leaves[static_cast<size_t>(leaf)].cluster : -1;
    if (options.lock && m_has_list) {
        out.stats.camera_leaf = leaf;
        out.stats.camera_cluster = cluster;
        return;
    }
    const int32_t area = options.own_area_only ? leafArea(m_map, leaf) : -1;
    if (cluster != m_cached_cluster || options.pvs != m_cached_use_pvs || area != m_cached_area)
        collectPvsLeaves(cluster, options.pvs, area);

    out.clear();
    out.stats.camera_leaf = leaf;
    out.stats.camera_cluster = cluster;
    out.stats.area = area;
    out.stats.pvs_leaves = static_cast<uint32_t>(m_pvs_leaves.size());
    out.stats.faces_total = m_mesh.drawable_faces;

    std::fill(m_face_bits.begin(), m_face_bits.end(), 0);
    const Frustum frustum = Frustum::fromMatrix(camera.viewProjection());
    out.stats.visible_leaves = markLeafFaces(frustum, options.frustum, camera.position, out.stats);
    collectFlares(frustum, options, cluster, out);
    collectModels(camera, frustum, options, cluster, out);
    markBrushModels(camera, frustum, options, out);
    emit(camera, options.commute_blends, out);
    if (options.classify)
        classify(out);
    m_has_list = true;
}

namespace {

// Point `p` of brush model `sm` where the model is drawn: rotated by its angles (roll about x,
// then pitch about y, then yaw about z, as render/world_gpu.cpp WorldGpu::modelMatrix turns it)
// and moved to its origin.
glm::vec3 placeOnModel(const bsp::Submodel& sm, glm::vec3 p) {
    glm::mat4 m = glm::translate(glm::mat4(1.0f), sm.origin);
    m = glm::rotate(m, glm::radians(sm.angles.y), glm::vec3(0, 0, 1));
    m = glm::rotate(m, glm::radians(-sm.angles.x), glm::vec3(0, 1, 0));
    m = glm::rotate(m, glm::radians(sm.angles.z), glm::vec3(1, 0, 0));
    return glm::vec3(m * glm::vec4(p, 1.0f));
}

// Marks the face at mesh position `order` in the face bits.
void markFace(std::vector<uint64_t>& bits, uint32_t order) {
    bits[order >> 6] |= uint64_t(1) << (order & 63);
}

} // namespace

// The sky faces of leaf `leaf` into the face bits.
void Visibility::markLeafSkyFaces(uint32_t leaf) {
    const bsp::Leaf& l = m_map.leaves[leaf];
    for (uint32_t k = 0; k < l.num_leaf_faces; ++k) {
        const uint32_t face = m_map.leaf_faces[l.first_leaf_face + k];
        if (face < m_mesh.faces.size() && m_mesh.faces[face].submodel == 0 &&
            m_mesh.faces[face].pass == Pass::Sky)
            markFace(m_face_bits, m_mesh.faces[face].order);
    }
}

// The world faces of the PVS leaves whose bounds the frustum reaches (every PVS leaf when
// `use_frustum` is off) into the face bits, less those farther from `eye` than their
// max_distance_sq (Source overlays' fade distances); returns how many leaves passed. A leaf
// that only the far plane rejects keeps its sky faces (DrawStats::sky_leaves_past_far).
uint32_t Visibility::markLeafFaces(const Frustum& frustum, bool use_frustum, const glm::vec3& eye,
                                   DrawStats& stats) {
    uint32_t visible_leaves = 0;
    const Frustum past_far = frustum.withoutFarPlane();
    for (uint32_t li : m_pvs_leaves) {
        if (use_frustum && !frustum.intersectsBox(m_leaf_mins[li], m_leaf_maxs[li])) {
            if (m_leaf_sky[li] && past_far.intersectsBox(m_leaf_mins[li], m_leaf_maxs[li])) {
                markLeafSkyFaces(li);
                ++stats.sky_leaves_past_far;
            }
            continue;
        }
        ++visible_leaves;
        const bsp::Leaf& l = m_map.leaves[li];
        for (uint32_t k = 0; k < l.num_leaf_faces; ++k) {
            const uint32_t face = m_map.leaf_faces[l.first_leaf_face + k];
            if (face >= m_mesh.faces.size() || m_mesh.faces[face].submodel != 0)
                continue;
            const MeshFace& mf = m_mesh.faces[face];
            if (mf.max_distance_sq > 0.0f) {
                const glm::vec3 d = mf.center - eye;
                if (glm::dot(d, d) > mf.max_distance_sq)
                    continue;
            }
            markFace(m_face_bits, mf.order);
        }
    }
    return visible_leaves;
}

// Flares, in face order: the camera cluster's PVS row decides by the flare's cluster
// (flareInPvs), the frustum by the bounds of the leaf holding its point (its point when in
// no leaf), as for the world faces of that leaf.
void Visibility::collectFlares(const Frustum& frustum, const VisOptions& options, int32_t cluster,
                               DrawList& out) const {
    for (const Flare& f : m_flares) {
        if (options.pvs && !flareInPvs(m_map.vis, f, cluster))
            continue;
        if (m_cached_area >= 0 && leafArea(m_map, f.leaf) != m_cached_area)
            continue;
        if (options.frustum) {
            const bool in_leaf = f.leaf >= 0 && static_cast<size_t>(f.leaf) < m_leaf_mins.size();
            const glm::vec3 lo = in_leaf ? m_leaf_mins[static_cast<size_t>(f.leaf)] : f.origin;
            const glm::vec3 hi = in_leaf ? m_leaf_maxs[static_cast<size_t>(f.leaf)] : f.origin;
            if (!frustum.intersectsBox(lo, hi))
                continue;
        }
        out.flares.push_back(f.face);
    }
}

// Entity models: the PVS by the cluster of the origin, as collectPvsLeaves decides for a
// leaf (every cluster from outside the map; an origin in no cluster only without vis
// data); the frustum by the bounding sphere's box; then the distance fade from the eye.
void Visibility::collectModels(const Camera& camera, const Frustum& frustum,
                               const VisOptions& options, int32_t cluster, DrawList& out) const {
    if (!m_models)
        return;
    out.stats.models_total = static_cast<uint32_t>(m_models->size());
    const bool all = !options.pvs || cluster < 0 || !m_map.vis.present();
    for (uint32_t i = 0; options.models && i < m_models->size(); ++i) {
        const EntityModelInstance& m = (*m_models)[i];
        if (!all && !m_map.vis.visible(cluster, m.cluster))
            continue;
        if (m_cached_area >= 0 && m_model_areas[i] != m_cached_area)
            continue;
        if (all && options.pvs && m_map.vis.present() && m.cluster < 0)
            continue;
        if (options.frustum &&
            !frustum.intersectsBox(m.origin - glm::vec3(m.radius), m.origin + glm::vec3(m.radius)))
            continue;
        if (m.fade.max_sq > 0.0f && distanceFadeOpacity(m.fade, camera.position) <= 0.0f) {
            ++out.stats.models_faded;
            continue;
        }
        out.models.push_back(i);
    }
    out.stats.models_drawn = static_cast<uint32_t>(out.models.size());
}

// Brush models are not in the leaves: test their bounds, placed at their origin, and, where
// the game's server sends only the entities the eye's PVS reaches, the leaves they touch. The
// Source overlay fragments on a model's faces (bsp::buildOverlayFaces appends them after the
// map's own faces, each keeping its face's submodel) are drawn with their model, less those
// farther from the eye than their max_distance_sq, measured from the fragment's centre placed as
// its model is.
void Visibility::markBrushModels(const Camera& camera, const Frustum& frustum,
                                 const VisOptions& options, DrawList& out) {
    const bool models_by_pvs = m_brush_vis.by_pvs && options.pvs;
    if (models_by_pvs)
        collectFatPvs(camera.position);
    // Whether submodel `s` is drawn this frame; `count` tallies the ones the PVS hid.
    const auto drawn = [&](size_t s, bool count) {
        const bsp::Submodel& sm = m_map.submodels[s];
        if (!sm.visible)
            return false;
        if (models_by_pvs && !brushModelSent(s)) {
            if (count)
                ++out.stats.brush_models_culled_pvs;
            return false;
        }
        if (m_cached_area >= 0 && !brushModelInArea(s, m_cached_area)) {
            if (count)
                ++out.stats.brush_models_culled_area;
            return false;
        }
        return !options.frustum ||
               frustum.intersectsBox(sm.mins + sm.origin - glm::vec3(1.0f),
                                     sm.maxs + sm.origin + glm::vec3(1.0f)) ||
               sm.angles != glm::vec3(0.0f);
    };
    for (size_t s = 1; s < m_map.submodels.size(); ++s) {
        if (!drawn(s, true))
            continue;
        const bsp::Submodel& sm = m_map.submodels[s];
        for (uint32_t k = 0; k < sm.num_faces; ++k) {
            const uint32_t face = sm.first_face + k;
            if (face < m_mesh.faces.size())
                markFace(m_face_bits, m_mesh.faces[face].order);
        }
    }
    const size_t faces = m_mesh.faces.size();
    const size_t fragments = std::min<size_t>(m_map.overlay_faces.fragments, faces);
    for (size_t face = faces - fragments; face < faces; ++face) {
        const MeshFace& mf = m_mesh.faces[face];
        if (mf.submodel <= 0 || static_cast<size_t>(mf.submodel) >= m_map.submodels.size() ||
            !drawn(static_cast<size_t>(mf.submodel), false))
            continue;
        if (mf.max_distance_sq > 0.0f) {
            const glm::vec3 d =
                placeOnModel(m_map.submodels[static_cast<size_t>(mf.submodel)], mf.center) -
                camera.position;
            if (glm::dot(d, d) > mf.max_distance_sq)
                continue;
        }
        markFace(m_face_bits, mf.order);
    }
}

void Visibility::classify(DrawList& out) const {
    // Faces referenced by any leaf the PVS passes, and by any leaf at all (world faces only).
    const size_t n = m_mesh.faces.size();
    std::vector<uint8_t> fate(n, 0); // 0 unreferenced, 1 referenced, 2 in a PVS leaf
    std::vector<uint8_t> in_pvs(m_map.leaves.size(), 0);
    for (uint32_t li : m_pvs_leaves)
        in_pvs[li] = 1;
    for (uint32_t li = 0; li < m_map.leaves.size(); ++li) {
        const bsp::Leaf& l = m_map.leaves[li];
        const uint8_t level = in_pvs[li] ? 2 : 1;
        for (uint32_t k = 0; k < l.num_leaf_faces; ++k) {
            const uint32_t face = m_map.leaf_faces[l.first_leaf_face + k];
            if (face < n && m_mesh.faces[face].submodel == 0 && m_mesh.faces[face].num_indices)
                fate[face] = std::max(fate[face], level);
        }
    }
    for (uint32_t face = 0; face < n; ++face) {
        if (!fate[face])
            continue;
        ++out.stats.faces_considered;
        const uint32_t order = m_mesh.faces[face].order;
        if ((m_face_bits[order >> 6] >> (order & 63)) & 1) {
            ++out.stats.drawn_world;
        } else if (fate[face] == 2) {
            out.culled_frustum.push_back(face);
        } else {
            out.culled_pvs.push_back(face);
        }
    }
    out.stats.culled_pvs = static_cast<uint32_t>(out.culled_pvs.size());
    out.stats.culled_frustum = static_cast<uint32_t>(out.culled_frustum.size());
}

bool Visibility::blendCommutes(int32_t material, int32_t submodel) const {
    if (material < 0 || static_cast<size_t>(material) >= m_mesh.materials.size())
        return false;
    switch (m_mesh.materials[static_cast<size_t>(material)].blend_order) {
    case BlendOrder::Commutes:
        return true;
    case BlendOrder::CommutesInAdditiveModel:
        return submodel > 0 && static_cast<size_t>(submodel) < m_map.submodels.size() &&
               m_map.submodels[static_cast<size_t>(submodel)].blend == bsp::BlendMode::Additive;
    case BlendOrder::Ordered:
        break;
    }
    return false;
}

// Additive blending into the frame is saturating addition of non-negative values, and with
// depth writes off every face tests against the same depth buffer: within a run of such faces
// (in the sorted order) any drawing order gives the same frame. Each maximal run is regrouped
// by (material, submodel, fog): groups in order of their first face, faces in their sorted
// order within a group, so the merge that follows makes one batch per group. A batch that does
// not commute stays where it is and ends the run.
void Visibility::regroupCommutingRuns(DrawList& out, size_t first_translucent) {
    const size_t end = out.batches.size();
    size_t i = first_translucent;
    while (i < end) {
        if (!blendCommutes(out.batches[i].material, out.batches[i].submodel)) {
            ++i;
            continue;
        }
        size_t run_end = i + 1;
        while (run_end < end &&
               blendCommutes(out.batches[run_end].material, out.batches[run_end].submodel))
            ++run_end;
        if (run_end - i > 1)
            regroupRun(out, i, run_end);
        i = run_end;
    }
}

void Visibility::regroupRun(DrawList& out, size_t begin, size_t end) {
    // Groups in order of first appearance, found through the material's chain of groups in
    // this run (one material rarely has more than a few models and fogs): linear, no sorting.
    m_groups.clear();
    m_batch_group.clear();
    for (size_t i = begin; i < end; ++i) {
        const DrawBatch& b = out.batches[i];
        int32_t& head = m_material_group[static_cast<size_t>(b.material)];
        int32_t g = head;
        while (g >= 0 && (m_groups[static_cast<size_t>(g)].submodel != b.submodel ||
                          m_groups[static_cast<size_t>(g)].fog != b.fog))
            g = m_groups[static_cast<size_t>(g)].next;
        if (g < 0) {
            g = static_cast<int32_t>(m_groups.size());
            m_groups.push_back({b.submodel, b.fog, head, 0});
            head = g;
        }
        ++m_groups[static_cast<size_t>(g)].count;
        m_batch_group.push_back(static_cast<uint32_t>(g));
    }
    for (size_t i = begin; i < end; ++i)
        m_material_group[static_cast<size_t>(out.batches[i].material)] = -1;
    if (m_groups.size() == end - begin)
        return; // every batch is a group of its own: the order stays
    // Counts become each group's first slot; batches keep their order inside a group.
    uint32_t slot = 0;
    for (BlendGroup& g : m_groups) {
        const uint32_t n = g.count;
        g.count = slot;
        slot += n;
    }
    m_regrouped.assign(out.batches.begin() + static_cast<std::ptrdiff_t>(begin),
                       out.batches.begin() + static_cast<std::ptrdiff_t>(end));
    for (size_t k = 0; k < m_regrouped.size(); ++k)
        out.batches[begin + m_groups[m_batch_group[k]].count++] = m_regrouped[k];
}

void Visibility::emit(const Camera& camera, bool commute_blends, DrawList& out) {
    m_translucent.clear();
    emitOpaque(out);
    const size_t first_translucent = out.batches.size();
    const size_t first_range = out.ranges.size();
    addTranslucentBatches(camera, out);
    if (commute_blends)
        regroupCommutingRuns(out, first_translucent);
    mergeTranslucentBatches(out, first_translucent, first_range);
    out.stats.faces_drawn = static_cast<uint32_t>(out.faces.size());
    out.stats.draw_calls = static_cast<uint32_t>(out.batches.size());
}

// The marked faces in mesh order: opaque ones into batches of one pass, material, model and
// fog with their index ranges joined where they meet; blended ones into m_translucent.
void Visibility::emitOpaque(DrawList& out) {
    DrawBatch* batch = nullptr;
    for (size_t w = 0; w < m_face_bits.size(); ++w) {
        uint64_t bits = m_face_bits[w];
        while (bits) {
            const uint32_t order = static_cast<uint32_t>(w * 64 + std::countr_zero(bits));
            bits &= bits - 1;
            const uint32_t face = m_mesh.order_to_face[order];
            const MeshFace& mf = m_mesh.faces[face];
            if (mf.num_indices == 0)
                continue;
            out.faces.push_back(face);
            out.stats.triangles += mf.num_indices / 3;
            if (mf.pass == Pass::Translucent) {
                m_translucent.push_back(face);
                continue;
            }
            const int32_t fog = m_map.faces[face].fog;
            if (!batch || batch->pass != mf.pass || batch->material != mf.material ||
                batch->submodel != mf.submodel || batch->fog != fog) {
                DrawBatch b;
                b.pass = mf.pass;
                b.material = mf.material;
                b.submodel = mf.submodel;
                b.fog = fog;
                b.first_range = static_cast<uint32_t>(out.ranges.size());
                out.batches.push_back(b);
                batch = &out.batches.back();
            }
            ++batch->num_faces;
            DrawRange* last = batch->num_ranges ? &out.ranges.back() : nullptr;
            if (last && last->first_index + last->count == mf.first_index) {
                last->count += mf.num_indices;
            } else {
                out.ranges.push_back({mf.first_index, mf.num_indices});
                ++batch->num_ranges;
            }
        }
    }
}

// Blended faces: one batch each, sorted by shader sort, then back to front.
void Visibility::addTranslucentBatches(const Camera& camera, DrawList& out) const {
    const size_t first_translucent = out.batches.size();
    for (uint32_t face : m_translucent) {
        const MeshFace& mf = m_mesh.faces[face];
        DrawBatch b;
        b.pass = Pass::Translucent;
        b.material = mf.material;
        b.submodel = mf.submodel;
        b.first_range = static_cast<uint32_t>(out.ranges.size());
        b.num_ranges = 1;
        b.num_faces = 1;
        const glm::vec3 d = mf.center - camera.position;
        b.sort_distance = glm::dot(d, d);
        b.fog = m_map.faces[face].fog;
        b.sort_order =
            mf.material >= 0 && static_cast<size_t>(mf.material) < m_mesh.materials.size()
                ? m_mesh.materials[static_cast<size_t>(mf.material)].sort
                : 0.0f;
        out.ranges.push_back({mf.first_index, mf.num_indices});
        out.batches.push_back(b);
    }
    std::sort(out.batches.begin() + static_cast<std::ptrdiff_t>(first_translucent),
              out.batches.end(), [](const DrawBatch& a, const DrawBatch& b) {
                  if (a.sort_order != b.sort_order)
                      return a.sort_order < b.sort_order;
                  return a.sort_distance > b.sort_distance;
              });
}

// Neighbours in that order that share material, model, sort and fog draw as one batch
// (their ranges in the same order), so a window of many faces is one draw per stage, not
// one per face. The ranges are rewritten in drawing order.
void Visibility::mergeTranslucentBatches(DrawList& out, size_t first_translucent,
                                         size_t first_range) {
    m_sorted_ranges.clear();
    size_t kept = first_translucent;
    for (size_t i = first_translucent; i < out.batches.size(); ++i) {
        const DrawBatch b = out.batches[i];
        const DrawRange r = out.ranges[b.first_range];
        if (kept > first_translucent) {
            DrawBatch& prev = out.batches[kept - 1];
            if (prev.material == b.material && prev.submodel == b.submodel &&
                prev.sort_order == b.sort_order && prev.fog == b.fog) {
                DrawRange& last = m_sorted_ranges.back();
                if (last.first_index + last.count == r.first_index) {
                    last.count += r.count;
                } else {
                    m_sorted_ranges.push_back(r);
                    ++prev.num_ranges;
                }
                ++prev.num_faces;
                continue;
            }
        }
        DrawBatch& nb = out.batches[kept++];
        nb = b;
        nb.first_range = static_cast<uint32_t>(first_range + m_sorted_ranges.size());
        nb.num_ranges = 1;
        m_sorted_ranges.push_back(r);
    }
    out.batches.resize(kept);
    out.ranges.resize(first_range);
    out.ranges.insert(out.ranges.end(), m_sorted_ranges.begin(), m_sorted_ranges.end());
}

} // namespace scene
