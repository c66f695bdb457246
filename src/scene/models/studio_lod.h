// Which level of detail of a Source studio model to draw, as the engine picks it.
//
// Engine rule (the same in every Source branch with studiorender): CStudioRenderContext::
// ComputeRenderLOD (studiorender/studiorendercontext.cpp) measures the model's "unit sphere"
// on screen, ComputePixelWidthOfSphere(origin, 0.5): twice the pixel diameter that
// CMatRenderContextBase::ComputePixelDiameterOfSphere (materialsystem/cmatrendercontext.cpp)
// finds by projecting origin +- 0.5 * view up through the view-projection and scaling the clip
// y difference by half the viewport height (a clip w under 0.001 multiplies y by 1000 instead of
// dividing). The metric is 100 / that width (SDK 2013 public/studio.h studiohwdata_t::LODMetric;
// 0 for width 0), and studiohwdata_t::GetLODForMetric takes the last LOD whose successor's switch
// point is still above the metric, never a trailing shadow LOD (a negative switch point); the
// caller clamps to the LODs drawn (one fewer when the .mdl flags STUDIOHDR_FLAGS_HASSHADOWLOD).
// The switch points are those of the .vtx's body part 0, model 0 (CStudioRenderContext::
// LoadModel saves pLOD(n)->switchPoint from there for every model).
//
// Reading of the projection for bspview's symmetric perspective: origin +- 0.5 up differ in clip
// y by P[1][1] = 1 / tan(fov_y / 2) at the same clip w (the view depth of the origin), so the
// width is viewport_height * P[1][1] / max(depth, 0.001) and the metric
// 100 * max(depth, 0.001) * tan(fov_y / 2) / viewport_height. A larger metric (farther, narrower
// view, smaller window) picks a coarser LOD.
#pragma once

#include <cstdint>
#include <span>

namespace scene {

// The engine's LOD metric for a model whose origin lies `view_depth` units in front of the eye
// (along the view direction; behind it counts as 0.001), seen with vertical fov `fov_y_degrees`
// in a viewport `viewport_height` pixels tall. 0 when the height is not positive.
float studioLodMetric(float view_depth, float fov_y_degrees, float viewport_height);

// studiohwdata_t::GetLODForMetric over `switch_points` (one per LOD, LOD 0's first), then
// clamped below the shadow LOD when `has_shadow_lod` (the .mdl's flag). 0 for no LODs.
uint32_t studioLodForMetric(std::span<const float> switch_points, float metric,
                            bool has_shadow_lod);

} // namespace scene
