// Source props as the scene draws them: the static props of the map's "sprp" lump (listed as
// prop_static entities with their record's index in "_sprp", bsp/source_props.h) and the
// prop_dynamic / prop_physics entities, each a Source studio model (content/model/
// source_model.h) placed, skinned and lit as the engine does, drawn through the entity model
// path (model_set.h, render/model_renderer.h). GL-free.
//
// Rules and where they come from (Source SDK 2013, ValveSoftware/source-sdk-2013):
//  - placement: origin and angles (pitch, yaw, roll) through mathlib's AngleMatrix (yaw about
//    z, then pitch about y, a positive pitch nose down, then roll about x);
//  - skin: the record's or the entity's "skin", clamped to the model's skin families (the
//    studio renderer's pskinref for the family);
//  - not drawn: STATIC_PROP_NO_DRAW props (public/gamebspfile.h);
//  - materials: each skin family's .vmt (found by content's $cdmaterials search) decoded into
//    an image; $alphatest, $translucent, $additive, $nocull and UnlitGeneric set the range's
//    drawing (content::applyVmtDrawing);
//  - light: the leaf ambient cube (bsp::ambientCubeAt, the engine's Mod_LeafAmbientColorAtPos)
//    at the prop's lighting origin: the record's when STATIC_PROP_USE_LIGHTING_ORIGIN is set
//    (vbsp utils/vbsp/staticprop.cpp ComputeLightingOrigin, from an info_lighting entity), else
//    the model's illumposition through the prop's matrix (as game/client/c_baseentity.cpp
//    C_BaseEntity::ComputeLightingOrigin transforms a model's lighting centre).
//    The cube lights a vertex by its world normal squared, one side per axis
//    (materialsystem/stdshaders common_vs_fxc.h AmbientLight), plus up to four of the map's
//    world lights chosen as the engine's light cache does (scene/models/prop_lights.h). Baked
//    per-vertex light (sp_N.vhv) is found and reported, not drawn yet.
#pragma once

#include "bsp/map.h"
#include "content/vfs/vfs.h"
#include "scene/models/model_files.h"
#include "scene/models/model_set.h"

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include <array>
#include <string>

namespace scene {

// The entity classes drawn with their "model" key: prop_static (the sprp copies),
// prop_dynamic*, prop_physics* (their _override, _multiplayer variants alike).
bool isSourcePropClass(std::string_view classname);

// Adds an instance per drawable prop entity of `map` to `set` (its models loaded through
// `files`, which appends to set.models), and "classname: path (why)" to set.missing for each
// prop whose model does not load. Never fails.
void addSourceProps(const bsp::Map& map, const content::FileSystem& fs, ModelFiles& files,
                    EntityModelSet& set);

// The matrix a Source prop is placed with (the renderer's too): translation by `origin`, then
// mathlib's AngleMatrix(angles): yaw about z, pitch about y (positive: nose down), roll about x.
glm::mat4 sourcePropMatrix(const glm::vec3& origin, const glm::vec3& angles);
// A model-space point through that matrix.
glm::vec3 sourcePropToWorld(const glm::vec3& origin, const glm::vec3& angles,
                            const glm::vec3& model_point);

// A prop's distance fade from its fade distances as the engine reads them (cdll_util.cpp
// ComputeDistanceFade): none when both are <= 0; swapped when min > max; a negative min is max -
// 400, at least 0. `centre`: the prop's world-space centre (the engine's WorldSpaceCenter).
DistanceFade sourcePropFade(float min_dist, float max_dist, const glm::vec3& centre);

// The light of an ambient cube (+x, -x, +y, -y, +z, -z) on a unit world normal: n.x^2 times
// the side n.x faces, and so for y and z (common_vs_fxc.h AmbientLight).
glm::vec3 ambientCubeLight(const std::array<glm::vec3, 6>& cube, const glm::vec3& normal);

} // namespace scene
