// Per-frame visibility: camera -> leaf -> cluster -> PVS leaves -> frustum -> DrawList. Quake 3
// flares go through the same PVS, frustum and lock rules, by the leaf holding each one's point.
//
// The set of PVS leaves is recomputed only when the camera's cluster changes (or the options
// do). Faces are de-duplicated with a bitset over the mesh's sorted layout owned by this object,
// never by the Map, and collected by scanning that bitset, which yields them already grouped by
// (pass, submodel, material) without sorting. After the first frames no heap allocation
// happens per frame: every array here keeps its capacity.
#pragma once

#include "bsp/map.h"
#include "scene/models/model_set.h"
#include "scene/view/camera.h"
#include "scene/view/frustum.h"
#include "scene/world/flares.h"
#include "scene/world/world_mesh.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace scene {

struct VisOptions {
    bool pvs = true;     // use the map's PVS (false: every leaf is a candidate)
    bool frustum = true; // cull leaves and submodels against the view frustum
    bool lock = false;   // keep the last computed set; the camera moves freely
    // Also record why each world face was not drawn (DrawList::culled_*): for the "why
    // culled" debug view. Costs a pass over all leaves; off in normal frames.
    bool classify = false;
    // Regroup runs of blended faces whose blending commutes (scene::BlendOrder: additive, no
    // depth writes) by material, model and fog, so they draw in fewer batches; the frame is
    // the same. Off: strict sort-then-distance order (for comparisons and tests).
    bool commute_blends = true;
    bool models = true; // entity models and sprites (scene/models/model_set.h); --no-models
    // The point whose cluster's PVS row is used; empty: the camera's position (a sky region's
    // set comes from its origin: scene/view/sky_region.h).
    std::optional<glm::vec3> pvs_point;
    // Only the leaves (and the models, flares and brush models standing in leaves) of the area
    // of the leaf at pvs_point (or the camera): a sky region is drawn with its camera's area
    // alone open (game/client/viewrender.cpp CSkyboxView::DrawInternal sets that one area bit),
    // and the client draws the renderables of the leaves its view keeps
    // (game/client/clientleafsystem.cpp CClientLeafSystem::BuildRenderablesList): a brush
    // model is kept when a leaf its placed box touches is in that area. No effect on a map
    // without areas or when that leaf's area is not one of the map's.
    bool own_area_only = false;
};

struct DrawRange {
    uint32_t first_index = 0;
    uint32_t count = 0;
};

struct DrawBatch {
    Pass pass = Pass::Opaque;
    int32_t material = -1;
    int32_t submodel = 0;
    uint32_t first_range = 0; // into DrawList::ranges
    uint32_t num_ranges = 0;
    uint32_t num_faces = 0;
    float sort_distance = 0.0f; // translucent batches: distance of the face from the camera
    float sort_order = 0.0f;    // translucent batches: ResolvedMaterial::sort (lower first)
    int32_t fog = -1;           // the faces' bsp::Face::fog (a batch is one fog volume, or none)
};

struct DrawStats {
    int32_t camera_leaf = -1;
    int32_t camera_cluster = -1;
    int32_t area = -1;           // with VisOptions::own_area_only: the area kept, -1 for none
    uint32_t pvs_leaves = 0;     // leaves whose cluster the PVS lets through
    uint32_t visible_leaves = 0; // of those, inside the frustum
    // Of the PVS leaves, those beyond the far plane alone (inside the other five planes) whose
    // sky faces are kept: the sky is drawn at the far plane whatever the far plane's distance
    // (game::SkyDepth), so a far plane the map pulls in (Source's farz) never cuts it. Their
    // other faces are culled. Not in visible_leaves.
    uint32_t sky_leaves_past_far = 0;
    uint32_t faces_drawn = 0;
    uint32_t faces_total = 0; // drawable faces of the mesh
    uint64_t triangles = 0;
    uint32_t draw_calls = 0; // one per batch
    // With VisOptions::classify: world faces referenced by leaves, by fate. drawn_world +
    // culled_pvs + culled_frustum == faces_considered.
    uint32_t faces_considered = 0;
    uint32_t drawn_world = 0;
    uint32_t culled_pvs = 0;     // in no leaf the PVS lets through
    uint32_t culled_frustum = 0; // in PVS leaves, all outside the frustum
    // Entity models: instances drawn (in DrawList::models) of those the map places.
    uint32_t models_drawn = 0;
    uint32_t models_total = 0;
    uint32_t models_faded = 0; // in the PVS but beyond their fade distance (DistanceFade)
    // Brush models the PVS hid as the game's server does (game::EntityRules::brush_model_vis).
    uint32_t brush_models_culled_pvs = 0;
    // With VisOptions::own_area_only: brush models none of whose leaves is in the area kept.
    uint32_t brush_models_culled_area = 0;
};

// Plain data, like ImDrawData: what to draw this frame, in order.
struct DrawList {
    std::vector<uint32_t> faces; // visible face indices (Map/WorldMesh numbering)
    std::vector<DrawRange> ranges;
    std::vector<DrawBatch> batches; // ordered by pass; translucent ones back to front
    // Quake 3 flares that may be drawn (face indices, ascending): those of scene::extractFlares
    // that the same PVS, frustum and lock rules pass as the world faces (by the cluster and
    // the leaf holding each flare's point). The flare renderer draws only these, after its
    // own on-screen, facing and occlusion tests.
    std::vector<uint32_t> flares;
    // Entity model instances to draw (EntityModelSet::instances indices, ascending): those whose
    // origin's cluster the camera's PVS row lets through and whose bounding sphere meets the
    // frustum, as for the world faces.
    std::vector<uint32_t> models;
    DrawStats stats;
    // With VisOptions::classify: the world faces the PVS or the frustum rejected.
    std::vector<uint32_t> culled_pvs;
    std::vector<uint32_t> culled_frustum;

    bool containsFace(uint32_t face) const;
    void clear();
};

// The area of leaf `leaf` when the map has areas and that area is one of them; -1 otherwise (no
// leaf, or the areas dropped as broken: bsp::kAreasDropped).
int32_t leafArea(const bsp::Map& map, int32_t leaf);

class Visibility {
public:
    // Both must outlive it. Blended faces sort by, and regroup by, the sort and blend order of
    // mesh.materials (the resolved table the mesh was built from).
    // `models` (optional, outlives it too): the entity model instances culled into
    // DrawList::models. `brush_model_vis`: which brush models the game's server sends
    // (game::EntityRules::brush_model_vis); nullopt: the rule of the map's own game.
    Visibility(const bsp::Map& map, const WorldMesh& mesh,
               const std::vector<EntityModelInstance>* models = nullptr,
               std::optional<game::BrushModelVis> brush_model_vis = std::nullopt);

    // Computes the draw list for a camera. With options.lock the previous list is kept (the
    // camera position is still reported in the stats).
    void update(const Camera& camera, const VisOptions& options, DrawList& out);

    // Forces the next update to recompute (e.g. after toggling options).
    void invalidate() { m_cached_cluster = kInvalid; }

private:
    static constexpr int32_t kInvalid = -2;

    void collectPvsLeaves(int32_t cluster, bool use_pvs, int32_t area);
    uint32_t markLeafFaces(const Frustum& frustum, bool use_frustum, const glm::vec3& eye,
                           DrawStats& stats);
    void markLeafSkyFaces(uint32_t leaf);
    void collectFlares(const Frustum& frustum, const VisOptions& options, int32_t cluster,
                       DrawList& out) const;
    void collectModels(const Camera& camera, const Frustum& frustum, const VisOptions& options,
                       int32_t cluster, DrawList& out) const;
    void markBrushModels(const Camera& camera, const Frustum& frustum, const VisOptions& options,
                         DrawList& out);
    void emit(const Camera& camera, bool commute_blends, DrawList& out);
    void emitOpaque(DrawList& out);
    void addTranslucentBatches(const Camera& camera, DrawList& out) const;
    void mergeTranslucentBatches(DrawList& out, size_t first_translucent, size_t first_range);
    bool blendCommutes(int32_t material, int32_t submodel) const;
    void regroupCommutingRuns(DrawList& out, size_t first_translucent);
    void regroupRun(DrawList& out, size_t begin, size_t end);
    void classify(DrawList& out) const;
    template <class Leaf>
    void walkBoxLeaves(const glm::vec3& centre, const glm::vec3& half, Leaf&& leaf);
    void linkBrushModels();
    void linkBrushModelAreas();
    bool brushModelInArea(size_t submodel, int32_t area) const;
    void collectFatPvs(const glm::vec3& eye);
    bool brushModelSent(size_t submodel) const;

    const bsp::Map& m_map;
    const WorldMesh& m_mesh;
    const std::vector<EntityModelInstance>* m_models = nullptr;
    game::BrushModelVis m_brush_vis;
    std::vector<Flare> m_flares; // extractFlares(map), for DrawList::flares
    std::vector<glm::vec3> m_leaf_mins, m_leaf_maxs;
    std::vector<uint8_t> m_leaf_sky; // per leaf: it lists a world face of the sky pass
    std::vector<uint32_t> m_pvs_leaves;
    // Leaves with faces grouped by cluster (CSR): the PVS row's set bits index straight into
    // this, so a cluster change costs the visible leaves, not all leaves.
    std::vector<uint32_t> m_cluster_first; // num_clusters + 1 entries
    std::vector<uint32_t> m_cluster_leaves;
    int32_t m_cached_cluster = kInvalid;
    bool m_cached_use_pvs = true;
    int32_t m_cached_area = -1;
    std::vector<int32_t> m_model_areas;     // per model instance: its origin leaf's area, or -1
    std::vector<uint64_t> m_face_bits;      // over mesh order
    std::vector<uint32_t> m_translucent;    // scratch: translucent face indices
    std::vector<DrawRange> m_sorted_ranges; // scratch: translucent ranges in drawing order
    // Scratch for regroupCommutingRuns, per run: its (material, submodel, fog) groups in
    // order of first appearance, each chained to the material's previous group in the run.
    struct BlendGroup {
        int32_t submodel = 0, fog = -1;
        int32_t next = -1;  // previous group of the same material, -1 for none
        uint32_t count = 0; // batches, then the next free slot of the group
    };
    std::vector<BlendGroup> m_groups;
    std::vector<int32_t> m_material_group; // per material: its newest group in the run, or -1
    std::vector<uint32_t> m_batch_group;   // per batch of the run
    std::vector<DrawBatch> m_regrouped;    // the run's batches in their sorted order
    bool m_has_list = false;
    // Brush models as the game's server links them (m_brush_vis): per submodel the
    // clusters of the leaves its placed box touches (CSR, submodels + 1 entries), and whether it
    // touches so many that it is always sent.
    std::vector<uint32_t> m_model_first;
    std::vector<int32_t> m_model_clusters;
    std::vector<uint8_t> m_model_always;
    // Per submodel the areas of the leaves its placed box touches (CSR, submodels + 1 entries;
    // built with the Visibility on maps that have areas).
    std::vector<uint32_t> m_model_area_first;
    std::vector<int32_t> m_model_area_list;
    std::vector<uint8_t> m_fat_pvs;  // scratch: the eye's fat PVS, one row
    bool m_fat_reaches_leaf = false; // the fat PVS walk reached a leaf that is not solid
    std::vector<int32_t> m_walk;     // scratch: nodes still to visit
};

} // namespace scene
