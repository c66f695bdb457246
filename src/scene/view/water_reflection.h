// A planar water's reflection view (content::WaterShading::planar: Source's expensive water):
// the plane it reflects in, the mirrored camera and its own visible set. GL-free; the renderer
// draws the view it is given (render/pass_water.cpp) and never learns the game.
//
// The engine builds the reflection's world lists for the mirrored view itself
// (game/client/viewrender.cpp CAboveWaterView::CReflectionView::Draw -> CBaseWorldView::DrawSetup
// -> BuildWorldRenderLists with the reflection's own frustum), from the visible set the frame set
// up once from the real eye's origin (CViewRender::ViewDrawScene -> SetupVis). So the reflection
// holds what the mirrored camera sees of the eye's PVS, not only what the main view holds: looking
// down at the water, the walls, ceiling and sky above it that the main frustum leaves out.
#pragma once

#include "bsp/map.h"
#include "scene/view/camera.h"
#include "scene/view/visibility.h"
#include "scene/world/material_table.h"

#include <optional>
#include <span>
#include <vector>

namespace scene {

// Per material of `materials`: the height of the plane a planar water reflects in, its first
// upward world face's (Source water is a level top surface of the world's brushes, its fog
// volume's plane: CViewRender's fogInfo.m_flWaterHeight); NaN for every other material.
std::vector<float> planarWaterHeights(const bsp::Map& map, const MaterialTable& materials);

// The plane this view reflects (one per view, as CViewRender::DetermineWaterRenderInfo takes one
// fog volume's material): the height of the first batch of `list` of the world (submodel 0)
// whose material has a planar water height (`heights`, planarWaterHeights) below the eye
// (CAboveWaterView: the view from under the water is not drawn). nullopt: none.
std::optional<float> reflectedWaterPlane(const DrawList& list, std::span<const float> heights,
                                         const Camera& camera);

// The main camera mirrored in the plane z = `plane`: its origin mirrored, its pitch negated
// (CBaseWorldView::PushView's mirror); the rest as the main camera's.
Camera reflectionCamera(const Camera& world, float plane);

// What the renderer draws into a planar water's reflection (render::WorldRenderer::draw): the
// mirrored camera, its visible batches and the plane. Plain data, no game in it.
struct ReflectionView {
    Camera camera;
    DrawList list;
    float plane = 0.0f;
};

// Fills `out` for the world camera `world` whose visible set is `world_list`: the plane
// (reflectedWaterPlane), the mirrored camera and its batches from `vis` (a Visibility of the
// same map) with `options` but the PVS of the real eye (VisOptions::pvs_point) and the mirrored
// camera's frustum; no models (entities are reflected only with $reflectentities, not read).
// False, `out` untouched, when no planar water below the eye is in view.
bool updateReflectionView(const Camera& world, const DrawList& world_list,
                          std::span<const float> heights, Visibility& vis,
                          const VisOptions& options, ReflectionView& out);

} // namespace scene
