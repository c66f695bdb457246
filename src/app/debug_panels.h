// The viewer's debug panel (issue #6): overlay toggles (render/debug_overlays), entity labels,
// the compiler's portals and leak line with leak stop moves, face picking with the luxel readout,
// the lightmap atlas viewer, the patch inspector, GPU time per pass (render/gpu_timers) and the
// frame-time graph with percentiles. The viewer calls a handful of hooks; everything else lives
// here. Also the --screenshot --debug path.
#pragma once

#include "app/cli.h"
#include "physics/collision.h"
#include "render/debug_overlays.h"
#include "render/gpu_timers.h"
#include "render/world_renderer.h"
#include "scene/debug/debug_geometry.h"
#include "scene/load/map_bundle.h"
#include "scene/models/model_pick.h"
#include "scene/view/visibility.h"

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace app {

// Percentiles of a frame-time window (nearest rank, like --bench).
struct FramePercentiles {
    double p50 = 0.0, p95 = 0.0, p99 = 0.0, max = 0.0;
};
FramePercentiles framePercentiles(const float* ms, size_t count);

// What a picked face shows: face, material, lightmap page/rectangle and the luxel value.
struct FacePick {
    scene::RayHit hit;
    std::optional<scene::Luxel> luxel;
    // An entity model nearer than the face (by its bounding sphere).
    std::optional<scene::EntityModelHit> model;
};
// The face under the centre of the view (bounds: scene::faceBounds of the map, to go faster).
std::optional<FacePick> pickFace(const scene::MapBundle& bundle, const scene::Camera& camera,
                                 const std::vector<scene::FaceBounds>* bounds = nullptr);
// The face along a ray (a click in the view), likewise.
std::optional<FacePick> pickFaceAlong(const scene::MapBundle& bundle, const glm::vec3& origin,
                                      const glm::vec3& dir, float far,
                                      const std::vector<scene::FaceBounds>* bounds = nullptr);

// The portal of the map's portal file under the centre of the view (nullopt: no portal file,
// or the centre ray crosses none).
std::optional<scene::PortalHit> pickPortal(const scene::MapBundle& bundle,
                                           const scene::Camera& camera);

class DebugPanels {
public:
    DebugPanels();
    ~DebugPanels();

    // Compiles the overlay programs; false with *error on failure (the viewer runs without).
    bool init(const render::GlslLibrary& shaders, const scene::DebugViews& initial,
              std::string* error);
    void setMap(const scene::MapBundle* bundle);
    // What changed since the previous compile (null: no previous compile); both must outlive
    // their use here: call again after a map change.
    void setChanges(const scene::MapDiff* changes, const bsp::Map* previous) {
        m_changes = changes;
        m_previous = previous;
    }
    // Shader hot reload of the overlay programs; the current ones stay when one fails.
    bool reloadShaders(const render::GlslLibrary& shaders, std::string* error) {
        return !m_ready || m_overlays.reloadShaders(shaders, error);
    }

    // Frame hooks: beginFrame before drawing (starts the GPU timer frame and records the frame
    // time), pass timers around passes, drawScene after WorldRenderer::draw, drawPanel and
    // drawLabels between ImGui::NewFrame and ImGui::Render.
    void beginFrame(float frame_ms);
    render::GpuTimers& timers() { return m_timers; }
    void drawScene(render::WorldRenderer& renderer, const scene::DrawList& list,
                   const scene::Camera& camera, const scene::VisOptions& vis);
    // Picking runs either way; the window only when `visible` (F1 hides the overlay windows).
    void drawPanel(const scene::DrawList& list, bool visible = true);
    void drawLabels(const scene::Camera& camera);

    bool& open() { return m_open; }
    // I (the viewer's key table): the face under the crosshair, as the panel's button.
    void pickCentre() {
        if (m_ready && m_bundle)
            pickAt(m_view_camera.position, m_view_camera.forward());
    }
    // A click in the view (app/selection.h): the face along the ray, shown in the panel.
    void pickRay(const glm::vec3& origin, const glm::vec3& dir) {
        if (m_ready && m_bundle)
            pickAt(origin, dir);
    }
    void clearPick() { m_highlight_face = -1, m_pick.reset(), m_clip_pick.reset(); }
    // Faces tinted besides the pick (the texture browser's "highlight"); must outlive the
    // frame's drawScene. Null: none.
    void setHighlightFaces(const std::vector<uint32_t>* faces) { m_highlight_faces = faces; }
    scene::DebugViews& views() { return m_views; }
    void setFollowCrosshair(bool on) { m_follow_crosshair = on; }
    void setAtlasOpen(bool on) { m_atlas_open = on; }
    int32_t highlightedFace() const { return m_highlight_face; }
    const std::optional<FacePick>& pick() const { return m_pick; }
    const render::DebugOverlayStats& overlayStats() const { return m_overlays.stats(); }
    // Leak line stops: moves the current stop by `delta` (wrapping) and returns the camera to
    // put the view at (scene::leakStopCamera; fov and clip planes from `view`), or nullopt when
    // the map has no leak line. Also turns the leak overlay on.
    std::optional<scene::Camera> stepLeak(int delta, const scene::Camera& view);
    int32_t leakStop() const { return m_leak_stop; }
    // A camera move asked for by a panel button (leak stops), taken once by the viewer.
    std::optional<scene::Camera> takeCameraRequest() { return std::exchange(m_camera_request, {}); }

private:
    void atlasPanel();
    // Own 2D copies of the lightmap pages (the renderer's atlas is an array texture, which ImGui
    // cannot show), and the page shown with its click-to-pick.
    void uploadAtlasPages(const scene::LightmapSet& set);
    void atlasPageView(const bsp::Map& map, const scene::LightmapSet& set);
    // Clip-hull and brush views with the brush contents filter.
    void collisionSection(const bsp::Map& map);
    void releaseAtlas();
    // The picked face's Quake 3 shader: where it was defined, its stages, a toggle per stage.
    void shaderSection(int32_t material);
    // The picked entity model: its file, skin, frames and the entity's keys.
    void modelSection(uint32_t instance);
    // Portals and the leak line: toggles, counts, leak stop buttons.
    void compileFilesSection();
    // drawPanel's sections, top to bottom: frame time and draw calls; overlay toggles (with
    // the changes since the previous compile); entity markers; lightmaps and the picked face;
    // patches (Quake 3 maps only).
    void frameSection(const scene::DrawList& list);
    void overlaysSection(const bsp::Map& map);
    void changesSection(const scene::MapDiff& changes);
    void entitiesSection();
    void lightmapsSection(const bsp::Map& map);
    void faceSection(const bsp::Map& map);
    void patchesSection(const bsp::Map& map);

    bool m_ready = false;
    bool m_open = false; // Windows > Debug (issue 33: the default layout leaves the view free)
    const std::vector<uint32_t>* m_highlight_faces = nullptr;
    render::DebugOverlays m_overlays;
    render::GpuTimers m_timers;
    const scene::MapBundle* m_bundle = nullptr;
    const scene::MapDiff* m_changes = nullptr;
    const bsp::Map* m_previous = nullptr;
    render::WorldRenderer* m_renderer = nullptr; // of the last drawScene, for stage toggles
    std::vector<scene::FaceBounds> m_face_bounds;
    scene::DebugViews m_views;
    char m_filter[128] = {};
    bool m_target_lines = true;
    uint32_t m_brush_contents = render::DebugOverlayInput::kDefaultBrushContents;
    bool m_labels = true;
    bool m_follow_crosshair = false;
    bool m_atlas_open = false;
    float m_frustum_depth = 2048.0f;
    // The camera visibility was computed from: follows the view until visibility is locked.
    scene::Camera m_vis_camera;
    bool m_was_locked = false;
    std::optional<FacePick> m_pick;
    int32_t m_highlight_face = -1;
    // With a collision view on, what the pick ray met first when that was a collision solid
    // (clip, liquid, trigger, ...) nearer than any face: then there is no face pick.
    std::optional<physics::CollisionPick> m_clip_pick;
    std::unique_ptr<physics::CollisionWorld> m_world; // for m_world_map, built on first pick
    const bsp::Map* m_world_map = nullptr;
    void pickAt(const glm::vec3& origin, const glm::vec3& dir);
    int32_t m_leak_stop = -1; // the leak stop the camera last went to, -1: none yet
    std::optional<scene::PortalHit> m_portal_pick;
    std::optional<scene::Camera> m_camera_request;
    std::vector<render::Texture> m_atlas_textures; // one labelled 2D texture per lightmap page
    int m_atlas_page = 0;
    static constexpr int kFrames = 240;
    std::array<float, kFrames> m_frame_ms{};
    int m_frame_next = 0, m_frame_count = 0;
    glm::mat4 m_view_projection{1.0f};
    scene::Camera m_view_camera; // the camera of the last drawScene, for picking
    int m_screen_w = 0, m_screen_h = 0;
};

// --screenshot --debug: draws the overlays once over the frame the renderer just drew.
core::Status drawDebugOverlaysOnce(render::WorldRenderer& renderer,
                                   const render::GlslLibrary& shaders,
                                   const scene::MapBundle& bundle, const scene::DrawList& list,
                                   const scene::Camera& vis_camera, const scene::VisOptions& vis,
                                   const scene::DebugViews& views, render::DebugOverlayStats* stats,
                                   int32_t leak_stop = -1, const scene::MapDiff* changes = nullptr,
                                   const bsp::Map* compare = nullptr);

} // namespace app
