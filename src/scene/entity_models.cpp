#include "scene/entity_models.h"

#include "bsp/tree.h"
#include "content/mdl.h"
#include "content/studio.h"
#include "scene/debug_geometry.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <map>

namespace scene {

namespace {

// Quake 1, from id's QuakeC (LibreQuake's qcsrc keeps the names and paths): the monsters'
// spawn functions (soldier.qc monster_army, dog.qc monster_dog, ...: precache_model and
// setmodel), items.qc (item_health's H_ROTTEN 1 / H_MEGA 2, the ammo boxes' WEAPON_BIG2 1,
// the keys by worldtype 0 medieval / 1 metal / 2 base, item_sigil's spawnflags 1..8, the
// armours' skins) and misc.qc (the torches and flames: light_flame_large_yellow shows frame 1
// of flame2.mdl). Monsters stand in their stand frames, which their think functions play at
// 10 Hz: their place in the model is the order of the file's $frame lines (dog.qc lists
// attack, death, deathb, pain, painb, run and leap before stand1..9: frames 69..77). Models
// whose idle is not a plain stand loop (shalrath, tarbaby, fish, boss, oldone) show frame 0. The
// flames are drawn full bright (QuakeSpasm gl_model.c Mod_SetExtraFlags sets MOD_FBRIGHTHACK on
// flame.mdl, flame2.mdl and boss.mdl).
constexpr EntityModelRule kQuake1[] = {
    {.classname = "monster_army", .model = "progs/soldier.mdl", .idle_frames = 8},
    {.classname = "monster_dog", .model = "progs/dog.mdl", .frame = 69, .idle_frames = 9},
    {.classname = "monster_ogre", .model = "progs/ogre.mdl", .idle_frames = 9},
    {.classname = "monster_ogre_marksman", .model = "progs/ogre.mdl", .idle_frames = 9},
    {.classname = "monster_knight", .model = "progs/knight.mdl", .idle_frames = 9},
    {.classname = "monster_hell_knight", .model = "progs/hknight.mdl", .idle_frames = 9},
    {.classname = "monster_wizard", .model = "progs/wizard.mdl", .idle_frames = 15},
    {.classname = "monster_demon1", .model = "progs/demon.mdl", .idle_frames = 13},
    {.classname = "monster_shambler", .model = "progs/shambler.mdl", .idle_frames = 17},
    {.classname = "monster_zombie", .model = "progs/zombie.mdl", .idle_frames = 15},
    {.classname = "monster_enforcer", .model = "progs/enforcer.mdl", .idle_frames = 7},
    {.classname = "monster_shalrath", .model = "progs/shalrath.mdl"},
    {.classname = "monster_tarbaby", .model = "progs/tarbaby.mdl"},
    {.classname = "monster_fish", .model = "progs/fish.mdl"},
    {.classname = "monster_boss", .model = "progs/boss.mdl", .fullbright = true},
    {.classname = "monster_oldone", .model = "progs/oldone.mdl"},
    {.classname = "weapon_supershotgun", .model = "progs/g_shot.mdl"},
    {.classname = "weapon_nailgun", .model = "progs/g_nail.mdl"},
    {.classname = "weapon_supernailgun", .model = "progs/g_nail2.mdl"},
    {.classname = "weapon_grenadelauncher", .model = "progs/g_rock.mdl"},
    {.classname = "weapon_rocketlauncher", .model = "progs/g_rock2.mdl"},
    {.classname = "weapon_lightning", .model = "progs/g_light.mdl"},
    {.classname = "item_armor1", .model = "progs/armor.mdl", .skin = 0},
    {.classname = "item_armor2", .model = "progs/armor.mdl", .skin = 1},
    {.classname = "item_armorInv", .model = "progs/armor.mdl", .skin = 2},
    {.classname = "item_health", .model = "maps/b_bh10.bsp", .spawnflags = 1},
    {.classname = "item_health", .model = "maps/b_bh100.bsp", .spawnflags = 2},
    {.classname = "item_health", .model = "maps/b_bh25.bsp"},
    {.classname = "item_shells", .model = "maps/b_shell1.bsp", .spawnflags = 1},
    {.classname = "item_shells", .model = "maps/b_shell0.bsp"},
    {.classname = "item_spikes", .model = "maps/b_nail1.bsp", .spawnflags = 1},
    {.classname = "item_spikes", .model = "maps/b_nail0.bsp"},
    {.classname = "item_rockets", .model = "maps/b_rock1.bsp", .spawnflags = 1},
    {.classname = "item_rockets", .model = "maps/b_rock0.bsp"},
    {.classname = "item_cells", .model = "maps/b_batt1.bsp", .spawnflags = 1},
    {.classname = "item_cells", .model = "maps/b_batt0.bsp"},
    {.classname = "item_key1", .model = "progs/m_s_key.mdl", .worldtype = 1},
    {.classname = "item_key1", .model = "progs/b_s_key.mdl", .worldtype = 2},
    {.classname = "item_key1", .model = "progs/w_s_key.mdl"},
    {.classname = "item_key2", .model = "progs/m_g_key.mdl", .worldtype = 1},
    {.classname = "item_key2", .model = "progs/b_g_key.mdl", .worldtype = 2},
    {.classname = "item_key2", .model = "progs/w_g_key.mdl"},
    {.classname = "item_sigil", .model = "progs/end1.mdl", .spawnflags = 1},
    {.classname = "item_sigil", .model = "progs/end2.mdl", .spawnflags = 2},
    {.classname = "item_sigil", .model = "progs/end3.mdl", .spawnflags = 4},
    {.classname = "item_sigil", .model = "progs/end4.mdl", .spawnflags = 8},
    {.classname = "item_artifact_invulnerability", .model = "progs/invulner.mdl"},
    {.classname = "item_artifact_envirosuit", .model = "progs/suit.mdl"},
    {.classname = "item_artifact_invisibility", .model = "progs/invisibl.mdl"},
    {.classname = "item_artifact_super_damage", .model = "progs/quaddama.mdl"},
    {.classname = "light_torch_small_walltorch", .model = "progs/flame.mdl", .fullbright = true},
    {.classname = "light_flame_large_yellow",
     .model = "progs/flame2.mdl",
     .frame = 1,
     .fullbright = true},
    {.classname = "light_flame_small_yellow", .model = "progs/flame2.mdl", .fullbright = true},
    {.classname = "light_flame_small_white", .model = "progs/flame2.mdl", .fullbright = true},
    {.classname = "light_globe", .model = "progs/s_light.spr", .fullbright = true},
    {.classname = "misc_explobox", .model = "maps/b_explob.bsp"},
    {.classname = "misc_explobox2", .model = "maps/b_exbox2.bsp"},
};

// Half-Life, from the HLSDK's dlls (ValveSoftware/halflife): the pickups' Spawn functions set a
// fixed world model (items.cpp CItemSuit / CItemBattery / CItemAntidote / CItemSecurity /
// CItemLongJump, healthkit.cpp, airtank.cpp, effects.cpp CItemSoda; the weapons' Spawn in
// crowbar.cpp, glock.cpp, python.cpp, mp5.cpp, shotgun.cpp, crossbow.cpp, rpg.cpp, gauss.cpp,
// egon.cpp, hornetgun.cpp, handgrenade.cpp, satchel.cpp, tripmine.cpp (v_tripmine.mdl, body 3),
// squeakgrenade.cpp; their ammo classes likewise). Every other point entity whose "model" key
// names a .mdl or .spr (cycler, cycler_sprite, env_sprite, env_glow, monster_generic,
// monster_furniture, monsters given a model) shows that file (SET_MODEL(pev->model)): see
// halfLifeModelKey.
constexpr EntityModelRule kHalfLife[] = {
    {.classname = "item_suit", .model = "models/w_suit.mdl"},
    {.classname = "item_battery", .model = "models/w_battery.mdl"},
    {.classname = "item_antidote", .model = "models/w_antidote.mdl"},
    {.classname = "item_security", .model = "models/w_security.mdl"},
    {.classname = "item_longjump", .model = "models/w_longjump.mdl"},
    {.classname = "item_healthkit", .model = "models/w_medkit.mdl"},
    {.classname = "item_airtank", .model = "models/w_oxygen.mdl"},
    {.classname = "item_sodacan", .model = "models/can.mdl"},
    {.classname = "weapon_crowbar", .model = "models/w_crowbar.mdl"},
    {.classname = "weapon_9mmhandgun", .model = "models/w_9mmhandgun.mdl"},
    {.classname = "weapon_glock", .model = "models/w_9mmhandgun.mdl"},
    {.classname = "weapon_357", .model = "models/w_357.mdl"},
    {.classname = "weapon_python", .model = "models/w_357.mdl"},
    {.classname = "weapon_9mmAR", .model = "models/w_9mmAR.mdl"},
    {.classname = "weapon_mp5", .model = "models/w_9mmAR.mdl"},
    {.classname = "weapon_shotgun", .model = "models/w_shotgun.mdl"},
    {.classname = "weapon_crossbow", .model = "models/w_crossbow.mdl"},
    {.classname = "weapon_rpg", .model = "models/w_rpg.mdl"},
    {.classname = "weapon_gauss", .model = "models/w_gauss.mdl"},
    {.classname = "weapon_egon", .model = "models/w_egon.mdl"},
    {.classname = "weapon_hornetgun", .model = "models/w_hgun.mdl"},
    {.classname = "weapon_handgrenade", .model = "models/w_grenade.mdl"},
    {.classname = "weapon_satchel", .model = "models/w_satchel.mdl"},
    {.classname = "weapon_tripmine", .model = "models/v_tripmine.mdl"},
    {.classname = "weapon_snark", .model = "models/w_sqknest.mdl"},
    {.classname = "ammo_9mmclip", .model = "models/w_9mmclip.mdl"},
    {.classname = "ammo_glockclip", .model = "models/w_9mmclip.mdl"},
    {.classname = "ammo_9mmAR", .model = "models/w_9mmARclip.mdl"},
    {.classname = "ammo_mp5clip", .model = "models/w_9mmARclip.mdl"},
    {.classname = "ammo_9mmbox", .model = "models/w_chainammo.mdl"},
    {.classname = "ammo_ARgrenades", .model = "models/w_ARgrenade.mdl"},
    {.classname = "ammo_mp5grenades", .model = "models/w_ARgrenade.mdl"},
    {.classname = "ammo_buckshot", .model = "models/w_shotbox.mdl"},
    {.classname = "ammo_357", .model = "models/w_357ammobox.mdl"},
    {.classname = "ammo_crossbow", .model = "models/w_crossbow_clip.mdl"},
    {.classname = "ammo_rpgclip", .model = "models/w_rpgammo.mdl"},
    {.classname = "ammo_gaussclip", .model = "models/w_gaussammo.mdl"},
    {.classname = "ammo_egonclip", .model = "models/w_chainammo.mdl"},
};

int32_t intKey(const bsp::Entity& e, std::string_view key, int32_t fallback) {
    const std::string_view v = e.get(key);
    float f = 0;
    if (v.empty() || std::from_chars(v.data(), v.data() + v.size(), f).ec != std::errc() ||
        !std::isfinite(f) || std::fabs(f) > 1e9f)
        return fallback;
    return int32_t(f);
}

bool hasSuffix(std::string_view s, std::string_view suffix) {
    if (s.size() < suffix.size())
        return false;
    for (size_t i = 0; i < suffix.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(s[s.size() - suffix.size() + i])) != suffix[i])
            return false;
    return true;
}

// A Half-Life studio model with its companions: the "T" file when it keeps no textures (an
// error when missing: the engine refuses such a model, Mod_LoadStudioModel), and the sequence
// group of its first sequence (missing: the rest pose, as the engine would show it unanimated).
core::Result<content::ModelMesh> loadStudio(const content::FileSystem& fs, std::string_view path,
                                            std::span<const uint8_t> bytes) {
    auto model = content::parseStudio(bytes);
    if (!model)
        return model.error();
    if (model->textures.empty()) {
        const std::string t_path = content::studioTextureFilePath(path);
        auto t = fs.readChecked(t_path);
        if (!t)
            return core::makeError(core::ErrorCode::NotFound, t_path, -1, {},
                                   "the model's textures");
        if (auto s = content::loadStudioTextures(*model, *t); !s)
            return s.error();
    }
    if (!model->sequences.empty()) {
        const uint32_t group = model->sequences[0].group;
        if (group == 0) {
            if (auto s = content::decodeStudioAnimation(*model, 0, bytes); !s)
                return s.error();
        } else if (auto g = fs.readChecked(content::studioSequenceGroupPath(path, group))) {
            if (auto s = content::decodeStudioAnimation(*model, 0, *g); !s)
                return s.error();
        }
    }
    return content::buildStudioMesh(*model);
}

LoadedModel loadModel(const content::FileSystem& fs, std::string_view path) {
    LoadedModel m;
    m.path = std::string(path);
    if (hasSuffix(path, ".bsp")) {
        m.error = fs.exists(path) ? "brush model, not drawn yet" : "not found";
        return m;
    }
    auto bytes = fs.readChecked(path);
    if (!bytes) {
        m.error =
            bytes.error().code == core::ErrorCode::NotFound ? "not found" : bytes.error().message();
        return m;
    }
    if (hasSuffix(path, ".spr")) {
        auto s = content::decodeSprite(*bytes, content::defaultQuakePalette());
        if (s)
            m.sprite = std::move(*s);
        else
            m.error = s.error().message();
    } else if (bytes->size() >= 4 && std::equal(bytes->begin(), bytes->begin() + 4, "IDST")) {
        auto mesh = loadStudio(fs, path, *bytes);
        if (mesh)
            m.mesh = std::move(*mesh);
        else
            m.error = mesh.error().message();
    } else {
        auto mesh = content::decodeMdl(*bytes, content::defaultQuakePalette());
        if (mesh)
            m.mesh = std::move(*mesh);
        else
            m.error = mesh.error().message();
    }
    return m;
}

// R_LightPoint: the style-0 luxel of the first lit surface straight below `p`, / 200 as
// R_SetupAliasLighting scales it (its sum capped at 288 first, as with overbright models).
glm::vec3 lightBelow(const bsp::Map& map, const LightmapSet& set, const WorldMesh& mesh,
                     const std::vector<FaceBounds>& bounds, const glm::vec3& p) {
    if (set.pages.empty())
        return glm::vec3(255.0f / 200.0f); // a map without light data: everything full bright
    // From a unit above: items stand with their origin on the floor (QuakeC droptofloor), where
    // the engine's plane walk still finds the floor but a ray from the plane itself may not.
    const auto hit =
        rayCast(map, mesh, p + glm::vec3(0, 0, 1), glm::vec3(0, 0, -1), 8193.0f, &bounds);
    if (!hit)
        return glm::vec3(0.0f);
    const auto luxel = luxelAt(map, set, hit->face, hit->lm_uv);
    if (!luxel)
        return glm::vec3(0.0f);
    glm::vec3 c(luxel->rgb[0], luxel->rgb[1], luxel->rgb[2]);
    const float sum = c.r + c.g + c.b;
    if (sum > 288.0f)
        c *= 288.0f / sum;
    return c / 200.0f;
}

float modelRadius(const LoadedModel& m) {
    float r = 0;
    if (m.mesh)
        for (int i = 0; i < 8; ++i) {
            const glm::vec3 c((i & 1) ? m.mesh->maxs[0] : m.mesh->mins[0],
                              (i & 2) ? m.mesh->maxs[1] : m.mesh->mins[1],
                              (i & 4) ? m.mesh->maxs[2] : m.mesh->mins[2]);
            r = std::max(r, glm::length(c));
        }
    if (m.sprite)
        for (const content::SpritePicture& p : m.sprite->pictures) {
            const float x = float(std::max(std::abs(p.origin_x), std::abs(p.origin_x + p.width)));
            const float y = float(std::max(std::abs(p.origin_y), std::abs(p.origin_y - p.height)));
            r = std::max(r, std::sqrt(x * x + y * y));
        }
    return std::isfinite(r) ? r : 0.0f;
}

// Half-Life's SET_MODEL(pev->model): a point entity's "model" key naming a .mdl or .spr file
// (brush entities name "*N"); empty otherwise.
std::string_view halfLifeModelKey(const bsp::Entity& e) {
    const std::string_view m = e.get("model");
    return hasSuffix(m, ".mdl") || hasSuffix(m, ".spr") ? m : std::string_view{};
}

float floatKey(const bsp::Entity& e, std::string_view key, float fallback) {
    const auto v = e.number(key);
    return v && std::isfinite(*v) ? *v : fallback;
}

// The keys the Half-Life engine reads from every entity (render mode, scale) and those the
// sprite entities read (framerate: effects.cpp CSprite::TurnOn / CGlow::Spawn and h_cycler.cpp
// CCyclerSprite::Think step their frames at pev->framerate; CSprite::Spawn turns a yaw-only
// "angles" into roll, since Worldcraft sets only yaw).
void applyHalfLifeKeys(const bsp::Entity& e, const LoadedModel& model, EntityModelInstance& inst) {
    inst.render = halfLifeRenderMode(e);
    if (inst.render.blend == ModelBlend::Additive)
        inst.fullbright = true;
    const float scale = floatKey(e, "scale", 0.0f);
    if (scale > 0.0f && scale < 1000.0f)
        inst.scale = scale;
    if (model.sprite) {
        inst.fullbright = true; // sprites take no light
        const float rate = floatKey(e, "framerate", 0.0f);
        if (rate > 0.0f && rate < 1000.0f && model.sprite->frames.size() > 1) {
            inst.frame_rate = rate;
            inst.frame_count = uint32_t(model.sprite->frames.size());
        }
        if (e.classname() == "env_sprite" && inst.angles.y != 0.0f && inst.angles.z == 0.0f) {
            inst.angles.z = inst.angles.y;
            inst.angles.y = 0.0f;
        }
    }
}

} // namespace

ModelRenderMode halfLifeRenderMode(const bsp::Entity& e) {
    ModelRenderMode r;
    const int32_t mode = intKey(e, "rendermode", 0);
    const float amount = std::clamp(floatKey(e, "renderamt", 0.0f), 0.0f, 255.0f) / 255.0f;
    switch (mode) {
    case 1: // kRenderTransColor
    case 2: // kRenderTransTexture
        r.blend = ModelBlend::Alpha;
        break;
    case 3: // kRenderGlow: added, seen through walls
        r.blend = ModelBlend::Additive;
        r.depth_test = false;
        break;
    case 4: // kRenderTransAlpha
        r.blend = ModelBlend::Alpha;
        r.alpha_test = true;
        break;
    case 5: // kRenderTransAdd
        r.blend = ModelBlend::Additive;
        break;
    default:
        return r;
    }
    r.alpha = amount;
    if (auto c = e.vec3("rendercolor"); c && (c->r > 0 || c->g > 0 || c->b > 0))
        r.tint = glm::clamp(*c / 255.0f, glm::vec3(0.0f), glm::vec3(1.0f));
    return r;
}

std::span<const EntityModelRule> entityModelRules(bsp::EntityModelTable table) {
    switch (table) {
    case bsp::EntityModelTable::Quake1:
        return kQuake1;
    case bsp::EntityModelTable::HalfLife:
        return kHalfLife;
    case bsp::EntityModelTable::None:
        break;
    }
    return {};
}

const EntityModelRule* findEntityModelRule(std::span<const EntityModelRule> rules,
                                           const bsp::Entity& entity, int32_t worldtype) {
    const std::string_view classname = entity.classname();
    if (classname.empty())
        return nullptr;
    const uint32_t spawnflags = uint32_t(intKey(entity, "spawnflags", 0));
    for (const EntityModelRule& r : rules) {
        if (r.classname != classname)
            continue;
        if (r.spawnflags != 0 && (spawnflags & r.spawnflags) == 0)
            continue;
        if (r.worldtype >= 0 && r.worldtype != worldtype)
            continue;
        return &r;
    }
    return nullptr;
}

EntityModelSet loadEntityModels(const bsp::Map& map, const content::FileSystem& fs,
                                const LightmapSet& lightmaps, const WorldMesh& mesh) {
    EntityModelSet set;
    const auto rules = entityModelRules(map.entity_models);
    if (rules.empty())
        return set;
    int32_t worldtype = 0;
    for (const bsp::Entity& e : map.entities)
        if (e.classname() == "worldspawn")
            worldtype = intKey(e, "worldtype", 0);
    const bool half_life = map.entity_models == bsp::EntityModelTable::HalfLife;
    std::map<std::string, uint32_t, std::less<>> by_path;
    std::vector<FaceBounds> bounds;
    for (uint32_t i = 0; i < map.entities.size(); ++i) {
        const bsp::Entity& e = map.entities[i];
        std::string_view path = half_life ? halfLifeModelKey(e) : std::string_view{};
        const EntityModelRule* rule = nullptr;
        if (path.empty()) {
            rule = findEntityModelRule(rules, e, worldtype);
            if (!rule || e.has("model")) // a brush entity of the same name draws its own brushes
                continue;
            path = rule->model;
        }
        // effects.cpp CSprite::Spawn: a named env_sprite without "start on" (spawnflags 1)
        // stays off until triggered.
        if (half_life && e.classname() == "env_sprite" && e.has("targetname") &&
            (intKey(e, "spawnflags", 0) & 1) == 0)
            continue;
        const auto origin = e.vec3("origin");
        if (!origin)
            continue;
        ++set.wanted;
        auto it = by_path.find(path);
        if (it == by_path.end()) {
            it = by_path.emplace(std::string(path), uint32_t(set.models.size())).first;
            set.models.push_back(loadModel(fs, path));
        }
        const LoadedModel& model = set.models[it->second];
        if (!model.mesh && !model.sprite) {
            set.missing.push_back(std::string(e.classname()) + ": " + model.path + " (" +
                                  model.error + ")");
            continue;
        }
        EntityModelInstance inst;
        inst.entity = i;
        inst.model = it->second;
        inst.origin = *origin;
        if (auto angles = e.vec3("angles"))
            inst.angles = *angles;
        else if (auto yaw = e.number("angle"))
            inst.angles = glm::vec3(0.0f, *yaw, 0.0f);
        inst.fullbright = rule && rule->fullbright;
        if (model.mesh) {
            const content::ModelMesh& m = *model.mesh;
            const int32_t skin = rule ? rule->skin : intKey(e, "skin", 0);
            const int32_t frame = rule ? rule->frame : 0;
            inst.skin = std::clamp(skin, 0, int32_t(m.skins.size()) - 1);
            inst.first_frame = uint32_t(std::clamp(frame, 0, int32_t(m.frames.size()) - 1));
            if (rule && rule->idle_frames > 1 &&
                size_t(rule->frame) + size_t(rule->idle_frames) <= m.frames.size())
                inst.frame_count = uint32_t(rule->idle_frames);
        }
        if (half_life)
            applyHalfLifeKeys(e, model, inst);
        inst.rotates = model.mesh && model.mesh->rotates;
        if (!inst.fullbright) {
            if (bounds.empty())
                bounds = faceBounds(map);
            inst.light = lightBelow(map, lightmaps, mesh, bounds, inst.origin);
        }
        inst.radius = modelRadius(model);
        const int32_t leaf = bsp::pointLeaf(map, inst.origin);
        inst.cluster =
            leaf >= 0 && size_t(leaf) < map.leaves.size() ? map.leaves[size_t(leaf)].cluster : -1;
        set.instances.push_back(inst);
    }
    return set;
}

std::optional<EntityModelHit> pickEntityModel(const EntityModelSet& set, const glm::vec3& origin,
                                              const glm::vec3& dir_in, float max_distance) {
    const float len = glm::length(dir_in);
    if (!(len > 0.0f))
        return std::nullopt;
    const glm::vec3 dir = dir_in / len;
    std::optional<EntityModelHit> best;
    for (uint32_t i = 0; i < set.instances.size(); ++i) {
        const EntityModelInstance& inst = set.instances[i];
        const glm::vec3 to = inst.origin - origin;
        const float along = glm::dot(to, dir);
        const float miss2 = glm::dot(to, to) - along * along;
        const float r2 = inst.radius * inst.radius;
        if (miss2 > r2)
            continue;
        const float t = std::max(0.0f, along - std::sqrt(r2 - miss2));
        if (along < -inst.radius || t > max_distance || (best && t >= best->distance))
            continue;
        best = EntityModelHit{i, t};
    }
    return best;
}

uint32_t instancePose(const EntityModelInstance& inst, const content::ModelMesh& m, double time) {
    if (m.frames.empty())
        return 0;
    uint32_t frame = std::min<uint32_t>(inst.first_frame, uint32_t(m.frames.size()) - 1);
    if (inst.frame_count > 1 && std::isfinite(time)) {
        const double step = std::floor(time * inst.frame_rate);
        const double k = step - std::floor(step / inst.frame_count) * inst.frame_count;
        frame = std::min<uint32_t>(frame + uint32_t(k), uint32_t(m.frames.size()) - 1);
    }
    const content::TimedRun& run = m.frames[frame].poses;
    return std::min<uint32_t>(run.first + content::entryAt(run, time), m.pose_count - 1);
}

uint32_t instanceSkinImage(const EntityModelInstance& inst, const content::ModelMesh& m,
                           double time) {
    if (m.skins.empty())
        return 0;
    const content::TimedRun& run =
        m.skins[size_t(std::clamp(inst.skin, 0, int32_t(m.skins.size()) - 1))].images;
    return std::min<uint32_t>(run.first + content::entryAt(run, time),
                              uint32_t(m.images.size()) - 1);
}

uint32_t instanceSpritePicture(const EntityModelInstance& inst, const content::Sprite& s,
                               double time) {
    if (s.frames.empty())
        return 0;
    uint32_t frame = std::min<uint32_t>(inst.first_frame, uint32_t(s.frames.size()) - 1);
    if (inst.frame_count > 1 && std::isfinite(time)) {
        const double step = std::floor(time * inst.frame_rate);
        const double k = step - std::floor(step / inst.frame_count) * inst.frame_count;
        frame = std::min<uint32_t>(frame + uint32_t(k), uint32_t(s.frames.size()) - 1);
    }
    const content::TimedRun& run = s.frames[frame].pictures;
    return std::min<uint32_t>(run.first + content::entryAt(run, time),
                              uint32_t(s.pictures.size()) - 1);
}

float instanceYaw(const EntityModelInstance& inst, double time) {
    if (!inst.rotates || !std::isfinite(time))
        return inst.angles.y;
    return float(std::fmod(100.0 * time, 360.0));
}

} // namespace scene
