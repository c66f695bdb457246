// The sky region's view (game::SkyRegion: Source's 3D sky box): the camera it is drawn from and
// the visibility options that give its own visible set. GL-free.
//
// Each frame the region is drawn before the world from skyRegionCamera(world camera), its faces
// chosen by a Visibility update with skyRegionVis(): the PVS row of the cluster at the region's
// origin (the engine sets vis up from the sky camera's origin, not from the moved eye:
// game/client/viewrender.cpp CSkyboxView::DrawInternal), culled by the region camera's frustum.
#pragma once

#include "game/profile.h"
#include "scene/view/camera.h"
#include "scene/view/visibility.h"

namespace scene {

// The world camera moved to the region's eye (game::skyRegionEye), same angles and field of
// view; near plane 2 as DrawInternal sets it, far plane the world camera's.
Camera skyRegionCamera(const Camera& world, const game::SkyRegion& region);

// `options` with the PVS taken from the cluster at the region's origin.
VisOptions skyRegionVis(const game::SkyRegion& region, VisOptions options);

} // namespace scene
