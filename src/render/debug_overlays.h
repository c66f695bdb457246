// The debug overlays of issue #6, drawn after WorldRenderer::draw: the visibility camera's
// frustum, the bounds of the leaves it draws through, faces tinted by cluster or Quake 2 area,
// area borders, entity markers and target lines, the luxel grid, Quake 3 patch control nets, the
// compiler's portals and leak line, and a highlighted face. The geometry comes from
// scene/debug_geometry (GL-free); this class owns the per-map caches and the line renderer. Used by
// the viewer and by --screenshot --debug.
#pragma once

#include "render/debug_draw.h"
#include "render/world_renderer.h"
#include "scene/debug/collision_view.h"
#include "scene/debug/compile_overlays.h"
#include "scene/debug/debug_geometry.h"
#include "scene/debug/map_diff.h"
#include "scene/view/visibility.h"

#include <array>
#include <string>
#include <vector>

namespace render {

// How opaque the tints that mark faces are (a pick, a texture's faces, changes since the
// previous compile): the surface stays readable under them.
inline constexpr float kMarkTintAlpha = 0.45f;

struct DebugOverlayInput {
    const scene::DrawList* list = nullptr; // what draw() drew this frame
    scene::Camera vis_camera;              // the camera visibility was computed from
    bool vis_pvs = true, vis_frustum = true;
    scene::DebugViews views;
    std::string entity_filter;             // classname substring, empty: all
    bool target_lines = true;              // with views.entities
    int32_t highlight_face = -1;           // tinted yellow (picked face)
    std::vector<uint32_t> highlight_faces; // tinted cyan (the texture browser's selection)
    float frustum_depth = 2048.0f;         // far distance of the drawn frustum (0: the camera's)
    // With views.changes: the faces of the map on screen against an earlier compile
    // (`compare`, whose removed faces are drawn as red outlines).
    const scene::MapDiff* changes = nullptr;
    const bsp::Map* compare = nullptr;
    // With views.brushes: the bsp::CollisionContents drawn (by default the ones a player
    // never sees: clips, liquids, triggers, ladders).
    uint32_t brush_contents = kDefaultBrushContents;
    static constexpr uint32_t kDefaultBrushContents =
        bsp::kCollidePlayerClip | bsp::kCollideMonsterClip | bsp::kCollideWater |
        bsp::kCollideSlime | bsp::kCollideLava | bsp::kCollideTrigger | bsp::kCollideLadder;
    int32_t leak_stop = -1;        // with views.leak: the stop the camera went to (-1: none)
    int32_t highlight_portal = -1; // with views.portals: drawn white (picked portal)
};

struct DebugOverlayStats {
    uint32_t line_segments = 0;
    uint32_t visible_leaves = 0;
    uint32_t tinted_groups = 0; // clusters or areas among the visible faces
    uint32_t markers = 0;
    uint32_t area_borders = 0;
    uint32_t changed_faces = 0; // added, moved or relit faces tinted this frame
    uint32_t collision_solids = 0, collision_polygons = 0;       // hull / brush views
    uint32_t portals = 0, portal_clusters = 0, hint_portals = 0; // views.portals
    uint32_t leak_points = 0, leak_stops = 0;                    // views.leak
    uint32_t triangles = 0; // translucent triangles drawn (portals, leak ribbon)
};

class DebugOverlays {
public:
    bool init(const GlslLibrary& shaders, std::string* error);
    // Shader hot reload of the line program; the current one stays when it fails.
    bool reloadShaders(const GlslLibrary& shaders, std::string* error) {
        return m_draw.reloadProgram(shaders, error);
    }
    // Builds the per-map caches (face -> cluster / area, area borders, entity markers).
    // The map and mesh must outlive their use here; call again after a new map or mesh.
    void setMap(const bsp::Map& map, const scene::WorldMesh& mesh);
    void clearMap();
    // The compile files drawn by views.portals and views.leak (either may be null); they must
    // outlive their use here. Call again after a new map.
    void setCompileFiles(const content::LeakLine* leak, const content::PortalFile* portals);

    void draw(WorldRenderer& renderer, const DebugOverlayInput& in);

    const DebugOverlayStats& stats() const { return m_stats; }
    const std::vector<scene::EntityMarker>& markers() const { return m_markers; }
    const scene::LineList& lines() const { return m_lines; }
    // With views.brushes: the brushes of brush entities (triggers, clips of doors...) with
    // their entity's classname, at the brush's centre, for labels.
    struct BrushLabel {
        glm::vec3 centre{0.0f};
        std::string classname;
    };
    const std::vector<BrushLabel>& brushLabels() const { return m_brush_labels; }

private:
    void tintFaces(WorldRenderer& renderer, const DebugOverlayInput& in,
                   const std::vector<int32_t>& key);
    void tintChanges(WorldRenderer& renderer, const DebugOverlayInput& in);
    // The picked face (yellow) and the texture browser's faces (cyan), tinted.
    void tintPicks(WorldRenderer& renderer, const DebugOverlayInput& in);
    // m_groups: `faces` in one group of `colour` per placement (brush model).
    void groupBySubmodel(const std::vector<uint32_t>& faces, const glm::vec4& colour);
    // m_lines: the line views (leaf bounds, area borders, entities, patch nets, removed faces,
    // the visibility frustum).
    void collectLines(const DebugOverlayInput& in);
    void drawCollision(WorldRenderer& renderer, const DebugOverlayInput& in);
    void labelBrushes(const scene::CollisionSolids& solids);

    // A collision view's geometry, built the first time it is shown for a map.
    struct CollisionView {
        bool built = false;
        uint32_t contents = 0; // brushes: the mask it was built for
        scene::TriangleList fill;
        scene::LineList lines;
        uint32_t solids = 0, polygons = 0;
    };
    std::array<CollisionView, 4> m_collision; // hulls 1..3, brushes
    std::vector<BrushLabel> m_brush_labels;
    void drawCompileFiles(WorldRenderer& renderer, const DebugOverlayInput& in);

    DebugDraw m_draw;
    const bsp::Map* m_map = nullptr;
    const scene::WorldMesh* m_mesh = nullptr;
    std::vector<int32_t> m_face_cluster, m_face_area;
    std::vector<scene::AreaBorder> m_borders;
    std::vector<scene::EntityMarker> m_markers;
    std::vector<scene::TargetLink> m_links;
    scene::LineList m_lines;
    // Compile files and their geometry, built once per file (the leak lines again when the
    // current stop changes).
    const content::LeakLine* m_leak = nullptr;
    const content::PortalFile* m_portals = nullptr;
    scene::TriangleList m_portal_fill, m_leak_ribbon, m_picked_fill;
    scene::LineList m_portal_lines, m_leak_lines, m_picked_lines;
    scene::PortalOverlayStats m_portal_stats;
    int32_t m_leak_lines_stop = -2;  // the stop m_leak_lines highlight
    std::vector<FaceGroup> m_groups; // scratch
    DebugOverlayStats m_stats;
};

} // namespace render
