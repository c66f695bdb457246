// Source detail props (the `dprp` game lump, bsp::DetailProps) as entity model instances, as
// the client's detail object system draws them (Source SDK 2013
// game/client/detailobjectsystem.cpp): sprites cut from the world's detail material, models
// through the model registry.
#pragma once

#include "bsp/map.h"
#include "content/vfs/vfs.h"
#include "scene/models/model_files.h"
#include "scene/models/model_set.h"

#include <array>
#include <string>

namespace scene {

// cl_detaildist and cl_detailfade's defaults: detail props fade out between 800 and 1200 units,
// linear in the squared distance (CDetailObjectSystem::BuildDetailObjectRenderLists,
// RenderOpaqueDetailObjects). An env_detail_controller's nearer distances are not read.
inline constexpr float kDetailFadeEnd = 1200.0f;
inline constexpr float kDetailFadeLength = 400.0f;

// The detail material of `map`: worldspawn "detailmaterial", else "detail/detailsprites"
// (CDetailObjectSystem::LevelInitPostEntity, DETAIL_SPRITE_MATERIAL).
std::string detailMaterialName(const bsp::Map& map);

// A sprite's light: each channel of the lump's ColorRGBExp32 as linear light
// (TexLightToLinear: c * 2^exponent / 255), then to gamma space by pow(x, 1 / 2.2), at most 1
// (CDetailModel::GetColorModulation and UnserializeFastSprite: LinearToGamma, then 0..255
// bytes).
glm::vec3 detailSpriteLight(const bsp::ColorRgbExp32& lighting);

// Adds the map's detail props to `set`: each sprite (types Sprite, ShapeCross and ShapeTri, the
// shapes drawn as their plain sprite: USE_DETAIL_SHAPES is TF2's) a sprite model per dictionary
// entry, orientation and flip, its picture the entry's texture rectangle of the detail
// material's $basetexture and its quad the entry's corners times the prop's scale; blended by
// the texels' alpha (IsDetailModelTranslucent: every sprite), tinted by detailSpriteLight,
// faded out as kDetailFade* say. Every other object (lump order) is flipped
// (CDetailObjectSystem::UnserializeModels toggles bFlipped per object, the first unflipped;
// CDetailModel::DrawTypeSprite shows an unflipped one's rectangle mirrored). Models (type Model)
// load through `files`, lit by the same light. What is not drawn goes to set.warnings once per
// cause ("detail props: ...").
void addDetailProps(const bsp::Map& map, const content::FileSystem& fs, ModelFiles& files,
                    EntityModelSet& set);

} // namespace scene
