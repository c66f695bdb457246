// Models and sprites on point entities, as the scene keeps them: every model file a map's
// entities show (read through content::loadModelAsset) and one placed, lit instance per entity.
// GL-free.
//
// Which entity shows which model is the game's rule: a table per game in src/game/
// (game/entity_models.h, picked by game::EntityRules::model_table). The sub-system,
// scene/models/:
//   model_files.*    the files, each loaded once per choice through the content registry
//   placement.*      where an instance stands: origin, angles, the drop to the floor, bounds
//   model_light.*    how it is lit: the lightmap below it, the light grid, the studio rule
//   half_life_keys.* the Half-Life entity keys (render modes, studio choices, frame rates)
//   animation.*      what it shows at a time: frames, skins, sprite pictures, turn and bob
//   model_pick.*     the viewer's pick and what its panel says of an instance
//   model_set.*      these types, and loadEntityModels putting them together
//
// A model that is missing or broken is listed (EntityModelSet::missing) and its entity keeps
// the debug marker; it is never an error.
#pragma once

#include "bsp/map.h"
#include "content/material/shader_library.h"
#include "content/model/model_mesh.h"
#include "content/model/sprite.h"
#include "content/vfs/vfs.h"
#include "game/profile.h"
#include "scene/models/prop_lights.h"
#include "scene/world/lightmap_set.h"
#include "scene/world/world_mesh.h"

#include <glm/vec3.hpp>

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace scene {

struct BrushModel; // scene/load/brush_model.h

// A model file as loaded (one content::ModelPart of its asset: the file, or one surface of an
// .md3): an alias or studio mesh, a sprite, a brush model (Quake 1's item boxes "maps/b_*.bsp",
// scene/load/brush_model.h), or none of them (a file that is missing or broken). `warnings`: parts
// that failed while the model still draws (a Quake 2 skin or sprite picture missing, drawn as a
// checker or transparent).
struct LoadedModel {
    std::string path;
    std::optional<content::ModelMesh> mesh;
    std::optional<content::Sprite> sprite;
    std::string error; // why none is present
    std::vector<std::string> warnings;
    std::string skin{};  // the .skin file that gave an .md3 surface its shader; empty: none
    bool studio = false; // a Half-Life studio model: lit as the engine lights those (below)
    // Shared, not copied: the set is copied by value (the renderer keeps the instances) and a
    // brush model holds a whole map.
    std::shared_ptr<const BrushModel> brush{};

    bool drawable() const { return mesh || sprite || brush; }
};

// How an instance is drawn over what lies behind it: Half-Life's entity render modes (HLSDK
// common/const.h kRender*), mapped by the table's loader (halfLifeRenderMode); other games draw
// everything Normal.
enum class ModelBlend : uint8_t {
    Normal,   // opaque (a sprite as its file's format says)
    Alpha,    // blended by `alpha` (kRenderTransColor, kRenderTransTexture, kRenderTransAlpha)
    Additive, // added, times `alpha`, full bright (kRenderTransAdd, kRenderGlow)
};

struct ModelRenderMode {
    ModelBlend blend = ModelBlend::Normal;
    float alpha = 1.0f;      // renderamt / 255 when blended
    glm::vec3 tint{1.0f};    // sprites: rendercolor / 255 when given and not black
    bool alpha_test = false; // kRenderTransAlpha: texels below half alpha are cut
    bool depth_test = true;  // kRenderGlow sprites show through walls
};

// How an instance fades with its distance from the eye (Source props; the engine's
// ComputeDistanceFade): drawn whole while |eye - centre|^2 <= min_sq, gone from max_sq on.
// max_sq <= 0: it never fades.
struct DistanceFade {
    float min_sq = 0.0f;
    float max_sq = 0.0f;
    glm::vec3 centre{0.0f}; // world space
};

// The opacity `fade` gives an instance seen from `eye`: 1 up to min_sq, 0 from max_sq, linear
// in the squared distance between (cdll_util.cpp ComputeDistanceFade's 255 * (max^2 - d^2) /
// (max^2 - min^2)).
float distanceFadeOpacity(const DistanceFade& fade, const glm::vec3& eye);

// One entity drawn with a model.
struct EntityModelInstance {
    uint32_t entity = 0; // index into bsp::Map::entities
    uint32_t model = 0;  // index into EntityModelSet::models
    glm::vec3 origin{0.0f};
    glm::vec3 angles{0.0f}; // pitch, yaw, roll in degrees ("angles", else "angle" as yaw)
    int32_t skin = 0;       // clamped to the model's skins
    uint32_t first_frame = 0;
    uint32_t frame_count = 1; // > 1: frames first_frame.. play at frame_rate
    bool rotates = false;     // the model's rotate flag: turns about z at 100 degrees/s
    bool fullbright = false;
    float spin_rate = 100.0f; // degrees a second when `rotates`
    float bob_scale = 0.0f;   // > 0: bobs 4 + 4 cos((ms + 1000) * bob_scale) units (CG_Item)
    glm::vec3 pivot{0.0f};    // model-space point the model turns about (weapon midpoint)
    float scale = 1.0f;       // Quake 3 weapons 1.5, misc_model "modelscale", Half-Life "scale"
    bool additive = false;    // drawn blended GL_ONE, GL_ONE after the opaque models
    ModelRenderMode render{};
    float frame_rate = 10.0f; // frames per second of the frame_count frames
    // The model's own frame timing runs at this multiple of real time (Half-Life's
    // pev->framerate on a studio model's sequence); 0 holds its first pose.
    float anim_rate = 1.0f;
    glm::vec3 light{1.0f}; // the lightmap under the origin / 200 (R_LightPoint), or 1 unlit;
                           // a brush model's own lightmaps light it (1 here)
    glm::vec3 directed_light{0.0f};        // directed colour; 0: none
    glm::vec3 light_dir{0.0f, 0.0f, 1.0f}; // world-space unit vector toward the light
    // How the directed light falls off with the angle d = dot(normal, light_dir): directed *
    // min(max((d + x) / y, 0), z). (0, 1, huge): Lambert, max(d, 0) (Quake 3's
    // RB_CalcDiffuseColor); (1, 1.495, 1): GoldSrc's "modified hemispherical" lambert
    // (R_StudioLighting), which still lights faces turned 90 degrees away at two thirds.
    glm::vec3 light_wrap{0.0f, 1.0f, 1e30f};
    // Flat-shaded ranges (content::ModelDrawRange::flat) take directed * flat_share: GoldSrc's
    // R_StudioLighting adds shadelight * 0.8 for STUDIO_NF_FLATSHADE textures.
    float flat_share = 0.8f;
    // > 0: the vertex light is whole bytes per channel, this many to 1 unit, at most 255 (Quake
    // 3's RB_CalcDiffuseColor, ModelLight::bytes); 0: not quantized.
    float light_bytes = 0.0f;
    float radius = 0.0f;  // of a sphere about the origin holding every pose at any angle
    int32_t cluster = -1; // of the leaf holding the origin; -1 outside the map
    // Source props (source_props.h): the angles turn as the engine's AngleMatrix does, a
    // positive pitch putting the nose down (false: Quake's R_RotateForEntity, whose pitch is
    // inverted for alias models).
    bool pitch_down = false;
    // Source props: lit by this ambient cube (+x, -x, +y, -y, +z, -z; linear light, as
    // bsp::ambientCubeAt gives it) through the world-space normal instead of `light`.
    bool cube_lit = false;
    std::array<glm::vec3, 6> ambient_cube{};
    // Source props: up to four world lights added per vertex (scene/models/prop_lights.h).
    std::array<SourceLocalLight, kMaxSourceLocalLights> local_lights{};
    uint32_t local_light_count = 0;
    std::string lighting; // how the instance is lit, for the pick panel; empty: the game's rule
    uint32_t lod = 0;     // the level of detail drawn (Source studio models)
    DistanceFade fade;    // not drawn where it has faded out (Visibility::collectModels)
};

struct EntityModelSet {
    std::vector<LoadedModel> models;            // each path once
    std::vector<EntityModelInstance> instances; // in entity order
    // Entities whose model could not be drawn: "classname: path (why)", in entity order.
    std::vector<std::string> missing;
    // Entities drawn where the game would complain: "classname in solid at (x y z)" for a
    // monster whose box ends its drop to the floor in solid (walkmonster_start_go's message;
    // the game keeps the monster, and so does this).
    std::vector<std::string> warnings;
    size_t wanted = 0; // entities the table gives a model
};

// Resolves, loads and places the models of every point entity the map's table knows
// (game/entity_models.h): the files through the content registry (model_files.h; a Quake 3 .md3 is
// a LoadedModel per surface, "file.md3#surface", each with its shader's image found through
// `shaders`, and an entity gets an instance per surface), each instance where the game puts it
// at spawn (placement.h: Quake 2's droptofloor and M_droptofloor, an item that starts in solid
// removed by the game and listed in `missing`; Quake 3's item drop), lit by the map's rule
// (model_light.h: the lightmap below its origin, or the light grid) and set to play its frames
// (animation.h).
//
// `profile`: the map's game rules (which table, how models are lit, the unlit-face rule brush
// model files follow); nullptr: game::profileFor(map).
EntityModelSet loadEntityModels(const bsp::Map& map, const content::FileSystem& fs,
                                const LightmapSet& lightmaps, const WorldMesh& mesh,
                                const content::ShaderLibrary* shaders = nullptr,
                                const game::GameProfile* profile = nullptr);

} // namespace scene
