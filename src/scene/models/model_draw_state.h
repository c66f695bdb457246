// The draw state (scene/world/draw_state.h) of entity models' draw ranges and sprites, resolved
// from the vocabularies the loaders fill: an instance's Half-Life render mode
// (ModelRenderMode, halfLifeRenderMode) and its Quake 3 additive shader (EntityModelInstance::
// additive), a range's studio texture flags or Source material (content::ModelDrawRange:
// additive, translucent, masked, unlit, two_sided) and a sprite's format
// (content::SpriteRenderMode). render::ModelRenderer resolves every instance once when it takes
// a model set and draws by the result alone.
#pragma once

#include "content/model/model_mesh.h"
#include "content/model/sprite.h"
#include "scene/models/model_set.h"
#include "scene/world/draw_state.h"

#include <vector>

namespace scene {

// One range of an alias or studio mesh drawn for `inst`. Ranges that add or blend are drawn
// after the opaque models without depth writes (Xash3D gl_studio.c R_StudioDrawPoints draws
// additive textures after the rest); an instance whose render mode blends blends every range.
DrawState modelRangeDrawState(const EntityModelInstance& inst, const content::ModelDrawRange& r);

// Every range of `ranges` (content::skinRanges of the instance's skin), in order.
std::vector<DrawState> modelRangeDrawStates(const EntityModelInstance& inst,
                                            const std::vector<content::ModelDrawRange>& ranges);

// The opacity an instance's mesh is drawn with (the shader's u_alpha): its render amount when
// its render mode blends, else 1.
float modelOpacity(const EntityModelInstance& inst);

// A range of an instance part-way through its distance fade (distanceFadeOpacity between 0 and
// 1): drawn with the blended ones, alpha-blended (additive ranges add alpha times their colour),
// writing no
// depth, as the engine draws a prop whose fade alpha is below 255 among the translucent
// renderables (its alpha modulating the material). `s` is the range's own state.
DrawState fadingDrawState(DrawState s);

// A sprite of format `format` drawn in render mode `mode`: by its format when the mode is
// Normal (Quake's sprites, Half-Life's sprite types), else as Xash3D ref/gl/gl_sprite.c
// R_DrawSpriteModel draws the entity's mode. Sprites are seen from both sides and take no light.
DrawState spriteDrawState(const ModelRenderMode& mode, content::SpriteRenderMode format);
// A sprite's opacity and tint (the shader's u_alpha, u_tint): the render mode's amount and
// colour when it is not Normal, else 1 and white.
float spriteOpacity(const ModelRenderMode& mode);
glm::vec3 spriteTint(const ModelRenderMode& mode);

} // namespace scene
