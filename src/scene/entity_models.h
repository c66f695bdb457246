// Models and sprites on point entities: which entity shows which model (a table per game, as
// data, the way level editors keep it: TrenchBroom's FGD `model()`), the models read through
// the map's search paths, and one placed, lit instance per entity. GL-free.
//
// The table is picked by bsp::Map::entity_models, which the parser sets; nothing here or in
// the renderer asks which game a map came from. A model that is missing or broken is listed
// (EntityModelSet::missing) and its entity keeps the debug marker; it is never an error.
#pragma once

#include "bsp/map.h"
#include "content/model/model_mesh.h"
#include "content/model/sprite.h"
#include "content/shader_library.h"
#include "content/vfs.h"
#include "scene/lightmap_set.h"
#include "scene/world_mesh.h"

#include <glm/vec3.hpp>

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace scene {

struct BrushModel; // scene/brush_model.h

// A move to the floor when the entity spawns, as a game's code does it: the box (mins, maxs
// about the origin) traced from the origin raised by `raise` down `distance` units against the
// CollisionContents in `mask`, the origin moved to where the box stops. Quake 2 items
// (g_items.c droptofloor: +-15, 128 units, MASK_SOLID; an item that starts in solid is freed)
// and walking monsters (g_monster.c M_droptofloor: the spawn function's box, raised 1 unit,
// 256 units, MASK_MONSTERSOLID; a trace that meets nothing or is all in solid leaves the origin
// raised; walkmonster_start_go skips it for MONSTER_TRIGGER_SPAWN, spawnflags 2).
struct FloorDrop {
    float distance = 0.0f; // 0: not dropped
    float raise = 0.0f;
    glm::vec3 mins{0.0f};
    glm::vec3 maxs{0.0f};
    uint32_t mask = 0;
    uint32_t skip_spawnflags = 0; // any of these bits set: not dropped
    bool needs_floor = false;     // no floor within `distance`: stays raised (else moves it all)
    bool removes_in_solid = false;
};

// One row of a game's table. Rows of one classname are tried in order; the first whose
// conditions hold gives the model.
struct EntityModelRule {
    std::string_view classname{};
    std::string_view model{}; // virtual path ("progs/soldier.mdl", "maps/b_bh25.bsp"); empty:
                              // the entity's own "model" key (Quake 3 misc_model)
    uint32_t spawnflags = 0;  // the row needs (spawnflags & this) != 0; 0: any
    int32_t worldtype = -1;   // the row needs worldspawn "worldtype" equal to this; -1: any
    int32_t skin = 0;         // skin index (item_armor1..armorInv share one model)
    int32_t frame = 0;        // frame shown; its frame group animates by its intervals
    int32_t idle_frames = 0;  // > 1: frames frame .. frame + idle_frames - 1 play at 10 Hz (a
                              // QuakeC monster's stand frames, one per 0.1 s think; a Quake 2
                              // monster's stand mmove_t, one frame per M_MoveFrame)
    bool fullbright = false;  // drawn unlit (QuakeSpasm's MOD_FBRIGHTHACK for flames)
    // Quake 3 items (cgame cg_ents.c CG_Item): a second model drawn with the first (health's
    // sphere about its cross, a powerup's ring), the turn and bob every item shows, the
    // weapons' 1.5 scale about their midpoint, and the drop to the floor (g_items.c
    // FinishSpawningItem) unless spawnflags 1 (suspended).
    std::string_view model2{};
    bool item_motion = false;
    bool weapon = false;
    // Quake 2: the item's EF_ROTATE (g_items.c itemlist world_model_flags), which spawnflags
    // bits in `still_spawnflags` clear (ITEM_NO_TOUCH, droptofloor); and the game's drop to
    // the floor at spawn (FloorDrop above).
    bool rotates = false;
    uint32_t still_spawnflags = 0;
    FloorDrop drop{};
};

// The table bsp::Map::entity_models names (empty for None).
std::span<const EntityModelRule> entityModelRules(bsp::EntityModelTable table);

// The rule that applies to `entity`, or nullptr. `worldtype` is worldspawn's (0 when absent).
const EntityModelRule* findEntityModelRule(std::span<const EntityModelRule> rules,
                                           const bsp::Entity& entity, int32_t worldtype);

// A model file as loaded: an alias mesh (.mdl, .md2), a sprite (.spr, .sp2), a brush model
// (a .bsp: Quake 1's item boxes "maps/b_*.bsp", scene/brush_model.h), or none of them (a file
// that is missing or broken). `warnings`: parts that failed while the model still draws (a
// Quake 2 skin or sprite picture missing, drawn as a checker or transparent).
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

// Half-Life's render keys of `entity`: rendermode (0 normal, 1 colour, 2 texture, 3 glow,
// 4 solid / alpha test, 5 additive), renderamt (0..255), rendercolor ("r g b").
ModelRenderMode halfLifeRenderMode(const bsp::Entity& entity);

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

// Resolves, loads and places the models of every point entity the map's table knows, lighting
// each from the lightmap below its origin (QuakeSpasm gl_rlight.c R_LightPoint: the first
// surface straight down, its style-0 luxel; set.pages give the colour). Rows that drop to the
// floor are moved first, as Quake 2's droptofloor and M_droptofloor do (FloorDrop; an item that
// starts in solid is removed by the game and listed in `missing` here).
//
// On a map whose models are lit from a light grid (bsp::ModelLighting::LightGrid) an instance
// takes its ambient, directed light and direction from the grid instead (scene/model_light.h).
//
// A Quake 3 .md3 becomes one LoadedModel per surface (its path "file.md3#surface"), each with
// its shader's base image as its one skin, found through `shaders` (nullptr: the shader name
// as an image); an entity gets an instance per surface. A misc_model whose "_skin" / "skin" key
// names a .skin (content::q3map2SkinPath) takes each surface's shader from it and leaves out the
// surfaces it does not name, as q3map2 compiles it. A shader whose image is not found draws the
// missing texture and is listed in its model's warnings.
EntityModelSet loadEntityModels(const bsp::Map& map, const content::FileSystem& fs,
                                const LightmapSet& lightmaps, const WorldMesh& mesh,
                                const content::ShaderLibrary* shaders = nullptr);

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
// renderer's units, two decimals).
std::vector<std::string> describeInstance(const EntityModelSet& set, uint32_t instance);

// Which pose of `model` an instance shows at `time` seconds (its frame's group timing at
// anim_rate, or its idle frames at frame_rate), and which skin image.
uint32_t instancePose(const EntityModelInstance& instance, const content::ModelMesh& model,
                      double time);
uint32_t instanceSkinImage(const EntityModelInstance& instance, const content::ModelMesh& model,
                           double time);
// Which picture of a sprite an instance shows at `time` (its frames at frame_rate when
// frame_count > 1, each frame's group by its intervals).
uint32_t instanceSpritePicture(const EntityModelInstance& instance, const content::Sprite& sprite,
                               double time);
// The instance's yaw at `time`: rotating items turn at 100 degrees a second (QuakeSpasm
// cl_main.c CL_RelinkEntities, bobjrotate = anglemod(100 * cl.time)); Quake 3 items at
// spin_rate 360 / 2.048 (cg_ents.c CG_AddPacketEntities: autoAngles yaw (cg.time & 2047) * 360
// / 2048).
float instanceYaw(const EntityModelInstance& instance, double time);
// Where the instance's origin is at `time`: its origin, raised by the Quake 3 item bob.
glm::vec3 instanceOrigin(const EntityModelInstance& instance, double time);

} // namespace scene
