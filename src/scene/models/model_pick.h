// Picking an entity model with the viewer's I key, and what the pick panel says of it. GL-free.
#pragma once

#include "scene/models/model_set.h"

#include <glm/vec3.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace scene {

// The instance whose bounding sphere a ray crosses first within `max_distance` (picking: the
// viewer's I key); `dir` need not be unit length.
struct EntityModelHit {
    uint32_t instance = 0;
    float distance = 0.0f;
};
std::optional<EntityModelHit> pickEntityModel(const EntityModelSet& set, const glm::vec3& origin,
                                              const glm::vec3& dir, float max_distance);

// What the pick panel (I) shows of an instance, one line each: the model file, its .skin and
// skin index; the frame or frames; the light as the scene computed it ("full bright", or
// "ambient r g b", and "directed r g b toward x y z" when there is a directed light, in the
// renderer's units, two decimals); for Source props the LOD, the light's source and the
// ambient cube's six sides in linear light. `drawn_lod`: the LOD the renderer last chose by
// screen size (render::ModelRenderer::drawnLod), shown "LOD k of n" for a model with n LODs;
// absent: the instance's own (0).
std::vector<std::string> describeInstance(const EntityModelSet& set, uint32_t instance,
                                          std::optional<uint32_t> drawn_lod = std::nullopt);

} // namespace scene
