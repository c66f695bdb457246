#include "scene/models/model_set.h"

#include "game/entity_models.h"
#include "scene/models/animation.h"
#include "scene/models/detail_props.h"
#include "scene/models/entity_keys.h"
#include "scene/models/half_life_keys.h"
#include "scene/models/model_files.h"
#include "scene/models/model_light.h"
#include "scene/models/placement.h"
#include "scene/models/source_props.h"

#include <glm/geometric.hpp>

#include <algorithm>
#include <string>

namespace scene {

namespace {

// What one entity shows: the table's row (nullptr when a Half-Life entity names its own file)
// and the files, before they are loaded.
struct EntityChoice {
    const game::EntityModelRule* rule = nullptr;
    bool own_model = false;      // the row takes the entity's "model" key (misc_model)
    std::string_view paths[2]{}; // the model, and the row's second model (empty: none)
};

// Everything loadEntityModels works with, for the steps below.
struct SetBuilder {
    const bsp::Map& map;
    const game::GameProfile& profile;
    const LightmapSet& lightmaps;
    std::span<const game::EntityModelRule> rules;
    int32_t worldtype = 0;
    bool half_life = false;
    ModelFiles files;
    MapProbe probe;
    EntityModelSet& set;
};

int32_t worldtypeOf(const bsp::Map& map) {
    int32_t worldtype = 0;
    for (const bsp::Entity& e : map.entities)
        if (e.classname() == "worldspawn")
            worldtype = intKey(e, "worldtype", 0);
    return worldtype;
}

// The entity's row and files; nullopt when it shows no model (no row, a brush entity of the
// row's name, which draws its own brushes, or a Half-Life sprite that starts off).
std::optional<EntityChoice> chooseModel(const SetBuilder& b, const bsp::Entity& e) {
    EntityChoice c;
    // Half-Life: a point entity whose "model" key names a .mdl or .spr shows that file.
    const std::string_view key_path = b.half_life ? halfLifeModelKey(e) : std::string_view{};
    if (key_path.empty()) {
        c.rule = game::findEntityModelRule(b.rules, e, b.worldtype);
        c.own_model = c.rule && c.rule->model.empty();
        if (!c.rule || (!c.own_model && e.has("model")) || (c.own_model && !e.has("model")))
            return std::nullopt;
    }
    if (b.half_life && halfLifeStartsOff(e))
        return std::nullopt;
    c.paths[0] = !key_path.empty() ? key_path : c.own_model ? e.get("model") : c.rule->model;
    c.paths[1] = c.rule ? c.rule->model2 : std::string_view{};
    return c;
}

// Where the game puts the entity at spawn (placement.h); nullopt when the game removes it, which
// is listed in `missing`.
std::optional<glm::vec3> spawnOrigin(SetBuilder& b, const EntityChoice& c, glm::vec3 place,
                                     uint32_t spawnflags) {
    const game::EntityModelRule* rule = c.rule;
    if (rule && rule->item_motion && (spawnflags & 1) == 0)
        place = quake3ItemDrop(b.probe, place);
    if (!rule || rule->drop.distance <= 0.0f || (spawnflags & rule->drop.skip_spawnflags) != 0)
        return place;
    // Quake 2's droptofloor and M_droptofloor, for an entity whose model is there (a missing
    // one is listed as missing by its instance).
    const LoadedModel& drawn = b.set.models[b.files.get(rule->model).first];
    if (!drawn.drawable())
        return place;
    const physics::CollisionWorld& world = b.probe.collision();
    const auto floor = dropToFloor(world, rule->drop, place);
    if (!floor) {
        b.set.missing.push_back(std::string(rule->classname) + ": " + drawn.path +
                                " (starts in solid: removed by droptofloor)");
        return std::nullopt;
    }
    if (boxInSolid(world, rule->drop, *floor))
        b.set.warnings.push_back(std::string(rule->classname) + " in solid at " + vtos(*floor));
    return floor;
}

// What the entity asks of its file: a misc_model's skin (q3map2 AddTriangleModels: "_skin",
// else "skin"), a Half-Life studio model's keys.
content::ModelRequest requestOf(const SetBuilder& b, const EntityChoice& c, const bsp::Entity& e) {
    content::ModelRequest r;
    if (c.own_model)
        r.skin_key = e.has("_skin") ? e.get("_skin") : e.get("skin");
    if (b.half_life)
        r.studio = halfLifeStudioKeys(e);
    r.palette_table = b.profile.materials.palette_table;
    return r;
}

// One instance of model `index` (drawable) for entity `i` at `origin`.
EntityModelInstance makeInstance(SetBuilder& b, const EntityChoice& c, uint32_t i, uint32_t index,
                                 const PathModels& pm, const glm::vec3& origin) {
    const bsp::Entity& e = b.map.entities[i];
    const LoadedModel& model = b.set.models[index];
    EntityModelInstance inst;
    inst.entity = i;
    inst.model = index;
    inst.origin = origin;
    inst.angles = entityAngles(e);
    inst.fullbright = c.rule && c.rule->fullbright;
    inst.additive = pm.additive[index - pm.first];
    if (model.mesh)
        setUpFrames(inst, *model.mesh, c.rule, e);
    if (b.half_life)
        applyHalfLifeKeys(e, model, inst);
    setUpMotion(inst, model, c.rule, e, i);
    applyScale(inst, c.rule, e, c.own_model, pm.midpoint);
    lightInstance(inst, model, b.probe, b.lightmaps, b.profile);
    finishPlacement(inst, model, b.map);
    return inst;
}

void addEntity(SetBuilder& b, uint32_t i) {
    const bsp::Entity& e = b.map.entities[i];
    const std::optional<EntityChoice> c = chooseModel(b, e);
    const auto origin = c ? e.vec3("origin") : std::nullopt;
    if (!origin)
        return;
    ++b.set.wanted;
    const auto place = spawnOrigin(b, *c, *origin, uint32_t(intKey(e, "spawnflags", 0)));
    if (!place)
        return;
    for (const std::string_view path : c->paths) {
        if (path.empty())
            continue;
        const PathModels pm = b.files.get(path, requestOf(b, *c, e));
        for (uint32_t index = pm.first; index < pm.first + pm.count; ++index) {
            const LoadedModel& model = b.set.models[index];
            if (model.drawable())
                b.set.instances.push_back(makeInstance(b, *c, i, index, pm, *place));
            else
                b.set.missing.push_back(std::string(e.classname()) + ": " + model.path + " (" +
                                        model.error + ")");
        }
    }
}

} // namespace

EntityModelSet loadEntityModels(const bsp::Map& map, const content::FileSystem& fs,
                                const LightmapSet& lightmaps, const WorldMesh& mesh,
                                const content::ShaderLibrary* shaders,
                                const game::GameProfile* game_profile) {
    EntityModelSet set;
    const game::GameProfile profile = game_profile ? *game_profile : game::profileFor(map);
    if (profile.entities.model_table == game::EntityModelTable::SourceProps) {
        ModelFiles files(fs, shaders, profile.rules.light.unlit_faces, set.models);
        addSourceProps(map, fs, files, set);
        addDetailProps(map, fs, files, set);
        return set;
    }
    const auto rules = game::entityModelRules(profile.entities.model_table);
    if (rules.empty())
        return set;
    SetBuilder b{map,
                 profile,
                 lightmaps,
                 rules,
                 worldtypeOf(map),
                 profile.entities.model_table == game::EntityModelTable::HalfLife,
                 ModelFiles(fs, shaders, profile.rules.light.unlit_faces, set.models),
                 MapProbe(map, mesh),
                 set};
    // Every file the entities will ask for, decoded on the worker threads first (addEntity
    // then finds them loaded): the first request of each path, in entity order.
    std::vector<std::pair<std::string_view, content::ModelRequest>> requests;
    for (const bsp::Entity& e : map.entities) {
        const std::optional<EntityChoice> c = chooseModel(b, e);
        if (!c || !e.vec3("origin"))
            continue;
        for (const std::string_view path : c->paths)
            if (!path.empty())
                requests.emplace_back(path, requestOf(b, *c, e));
    }
    b.files.prefetch(requests);
    for (uint32_t i = 0; i < map.entities.size(); ++i)
        addEntity(b, i);
    return set;
}

float distanceFadeOpacity(const DistanceFade& fade, const glm::vec3& eye) {
    if (fade.max_sq <= 0.0f)
        return 1.0f;
    const glm::vec3 d = eye - fade.centre;
    const float dist_sq = glm::dot(d, d);
    if (!(dist_sq > fade.min_sq)) // NaN distances (a hostile origin) stay drawn
        return 1.0f;
    if (dist_sq >= fade.max_sq)
        return 0.0f;
    return std::clamp((fade.max_sq - dist_sq) / (fade.max_sq - fade.min_sq), 0.0f, 1.0f);
}

} // namespace scene
