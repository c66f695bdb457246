// The sky region's view (game::SkyRegion: Source's 3D sky box): the camera it is drawn from and
// the visibility options that give its own visible set. GL-free.
//
// Each frame the region is drawn before the world from skyRegionCamera(world camera), its faces
// chosen by a Visibility update with skyRegionVis(): the PVS row of the cluster at the region's
// origin (the engine sets vis up from the sky camera's origin, not from the moved eye:
// game/client/viewrender.cpp CSkyboxView::DrawInternal), less the leaves of other areas (the same
// function opens the camera's area alone), culled by the region camera's frustum.
#pragma once

#include "game/profile.h"
#include "scene/view/camera.h"
#include "scene/view/visibility.h"

namespace scene {

// The sky region view's far plane, whatever the world's: DrawInternal's MAX_TRACE_LENGTH
// (public/worldsize.h: sqrt(3) times COORD_EXTENT 32768), so a far plane the map pulls in for
// the world (Source's farz) never cuts the region.
inline constexpr float kSkyRegionFarPlane = 1.732050807569f * 32768.0f;

// The world camera moved to the region's eye (game::skyRegionEye), same angles and field of
// view; near plane 2 and far plane kSkyRegionFarPlane as DrawInternal sets them.
Camera skyRegionCamera(const Camera& world, const game::SkyRegion& region);

// `options` with the PVS taken from the cluster at the region's origin and only the leaves of
// that leaf's area kept (VisOptions::own_area_only: DrawInternal opens the sky camera's area
// alone, the area SkyCamera.cpp CSkyCamera::Spawn stores for the leaf at its origin).
VisOptions skyRegionVis(const game::SkyRegion& region, VisOptions options);

// A linear fog (game::LinearFog) as one view draws it: its colour for the view's direction,
// distances in the view's units (a sky region's are world distances divided by its scale:
// game/client/viewrender.cpp CSkyboxView::Enable3dSkyboxFog).
struct LinearFog {
    bool enabled = false;
    glm::vec3 colour{0.0f}; // 0..1
    float start = 0.0f, end = 0.0f, max_density = 1.0f;
    bool radial = false; // by the distance to the eye, not the depth along the view axis
};
// `fog` seen by `camera`, its distances divided by `scale`.
LinearFog viewFog(const game::LinearFog& fog, const Camera& camera, float scale = 1.0f);
LinearFog skyRegionFog(const game::SkyRegion& region, const Camera& region_camera);

// The colour a view shows where a far plane the game pulls in (game::ViewRule::far_plane) cuts
// the world and nothing else is drawn: the world fog's colour for `camera`'s direction
// (game::fogColourFor) while that fog is on (`fog_on`: the viewer's fog switch, the engine's
// fog_enable). Source clears the frame to the fog's colour when the far plane clips the view
// and no sky is drawn (game/client/viewrender.cpp CViewRender::ViewDrawScene,
// SetClearColorToFogColor). nullopt: the game's usual clear colour.
std::optional<glm::vec3> farClearColour(const game::GameProfile& profile, const Camera& camera,
                                        bool fog_on);

// What the renderer draws behind the world for a sky region (render::WorldRenderer::draw): the
// region's camera, its visible batches and its fog. Plain data, no game in it.
struct RegionView {
    Camera camera;
    DrawList list;
    LinearFog fog;
};

// Whether `list` holds a sky batch: the world shows the region only through its sky surfaces
// (the engine draws no 3D sky when no sky surface is in view: CSkyboxView::Setup).
bool hasSkyBatch(const DrawList& list);

// Fills `out` for the world camera `world`: the region camera, its batches from `vis` (a
// Visibility of the same map) with skyRegionVis(options). False, `out` untouched, when
// `world_list` shows no sky.
bool updateRegionView(const game::SkyRegion& region, const Camera& world,
                      const DrawList& world_list, Visibility& vis, const VisOptions& options,
                      RegionView& out);

} // namespace scene
