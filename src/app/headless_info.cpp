// --info: the map's JSON summary (no GL at all).
#include "app/headless.h"

#include "bsp/map_limits.h"
#include "bsp/tree.h"
#include "content/model/source_model.h"
#include "content/vfs/game_hints.h"
#include "core/file.h"
#include "core/json.h"
#include "scene/view/visibility.h"

#include <algorithm>
#include <iostream>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace app {

namespace {

// The compile files loaded with the map (--info).
void writeCompileFiles(core::JsonWriter& j, const scene::MapBundle& b) {
    j.key("portal_file");
    if (b.portals) {
        const content::PortalFile& p = *b.portals;
        j.beginObject().field("file", p.file).field("format", content::portalFormatName(p.format));
        j.field("clusters", p.num_clusters).field("leaves", p.num_leaves);
        j.field("portals", static_cast<uint64_t>(p.portals.size()));
        j.field("hint_portals", static_cast<uint64_t>(p.hintPortals()));
        j.field("solid_faces", static_cast<uint64_t>(p.faces.size())).endObject();
    } else {
        j.null();
    }
    j.key("leak_file");
    if (b.leak) {
        const content::LeakLine& l = *b.leak;
        j.beginObject()
            .field("file", l.file)
            .field("points", static_cast<uint64_t>(l.points.size()));
        j.field("stops", static_cast<uint64_t>(l.stops.size())).field("length", l.length);
        j.endObject();
    } else {
        j.null();
    }
}

// Source overlays (bsp/overlays.h, --info): how many the map has and what became of them; the
// count of cube-map samples.
void writeOverlays(core::JsonWriter& j, const bsp::Map& map) {
    if (map.format != bsp::Format::Source)
        return;
    j.key("overlays").beginObject();
    j.field("count", uint64_t(map.overlay_count));
    j.field("fragments", uint64_t(map.overlay_faces.fragments));
    j.field("on_displacements", uint64_t(map.overlay_faces.on_displacements));
    // Of the fragments, those on brush entities' faces, drawn with their model: the fragments
    // are the last faces of the map (bsp::buildOverlayFaces appends them), each keeping its
    // face's submodel.
    const size_t fragments = std::min<size_t>(map.overlay_faces.fragments, map.faces.size());
    uint64_t on_brush_models = 0;
    for (size_t f = map.faces.size() - fragments; f < map.faces.size(); ++f)
        on_brush_models += map.faces[f].submodel != 0 ? 1u : 0u;
    j.field("on_brush_models", on_brush_models);
    j.field("not_drawn", uint64_t(map.overlay_faces.not_polygons));
    j.field("missed", uint64_t(map.overlay_faces.missed));
    j.endObject();
    // The cube-map samples of lump 42 (bsp/cube_maps.h).
    j.field("cube_maps", uint64_t(map.cube_maps.size()));
}

// A linear fog's keys (game::LinearFog) as the object `key`; `farz` (the env_fog_controller's
// far plane, game::ViewRule::far_plane: 0 none) when given.
void writeLinearFog(core::JsonWriter& j, std::string_view key, const game::LinearFog& fog,
                    std::optional<float> farz = std::nullopt) {
    const auto vec = [&](std::string_view name, glm::vec3 v) {
        j.key(name).beginArray().value(v.x).value(v.y).value(v.z).endArray();
    };
    j.key(key).beginObject().field("enabled", fog.enabled);
    vec("colour", fog.colour);
    j.field("start", fog.start).field("end", fog.end).field("max_density", fog.max_density);
    j.field("radial", fog.radial).field("blend", fog.blend);
    if (fog.blend) {
        vec("colour2", fog.colour2);
        vec("direction", fog.direction);
    }
    if (farz)
        j.field("farz", *farz);
    j.endObject();
}

// Source's 3D sky box (game::SkyRegion from sky_camera, --info): null when the map has none.
// `area`: the area of the leaf at its origin, the only one its view draws (scene::leafArea; null
// when the map has no areas or they were dropped as broken).
void writeSkyRegion(core::JsonWriter& j, const bsp::Map& map, const game::GameProfile& profile) {
    if (!profile.sky_region) {
        j.key("sky_region").null();
        return;
    }
    const game::SkyRegion& r = *profile.sky_region;
    j.key("sky_region").beginObject();
    j.key("origin").beginArray().value(r.origin.x).value(r.origin.y).value(r.origin.z).endArray();
    j.field("scale", r.scale);
    const int32_t area = scene::leafArea(map, bsp::pointLeaf(map, r.origin));
    if (area >= 0)
        j.field("area", area);
    else
        j.key("area").null();
    writeLinearFog(j, "fog", r.fog);
    j.endObject();
}

// Source static props (bsp::Map::static_props, --info): how many, and which of their models
// load (content::loadSourceModel through the map's file system); the others with the reason and
// the game their path suggests. Props are decoded, not drawn yet (docs/source.md).
void writeStaticProps(core::JsonWriter& j, const scene::MapBundle& b) {
    if (b.map.format != bsp::Format::Source)
        return;
    const bsp::StaticProps& sp = b.map.static_props;
    std::vector<bool> loads(sp.models.size(), false);
    std::vector<std::string> missing;
    for (size_t i = 0; i < sp.models.size(); ++i) {
        auto model = b.fs ? content::loadSourceModel(*b.fs, sp.models[i])
                          : core::Result<content::SourceModel>(core::makeError(
                                core::ErrorCode::NotFound, {}, -1, {}, "no file system"));
        loads[i] = model.ok();
        if (model)
            continue;
        // "models/x.mdl: not found in any search path [Team Fortress 2]"; an error in a
        // companion file names that file after the model.
        std::string why = model.error().message();
        if (!why.starts_with(sp.models[i]))
            why = sp.models[i] + ": " + why;
        const std::string_view game = content::likelyGameOf(sp.models[i]);
        missing.push_back(why + (game.empty() ? "" : " [" + std::string(game) + "]"));
    }
    uint64_t props_found = 0;
    for (const bsp::StaticProp& p : sp.props)
        props_found += p.model < loads.size() && loads[p.model];
    j.key("static_props").beginObject();
    j.field("version", uint64_t(sp.version)).field("count", uint64_t(sp.props.size()));
    j.field("models", uint64_t(sp.models.size()));
    j.field("models_found", uint64_t(std::count(loads.begin(), loads.end(), true)));
    j.field("props_with_model", props_found);
    // Drawn by the scene (scene/models/source_props.h): instances of the sprp props.
    uint64_t drawn = 0;
    for (const scene::EntityModelInstance& inst : b.models.instances)
        drawn += inst.entity < b.map.entities.size() && b.map.entities[inst.entity].has("_sprp");
    j.field("drawn", drawn);
    j.key("models_missing").beginArray();
    for (const std::string& m : missing)
        j.value(m);
    j.endArray();
    j.field("detail_props", uint64_t(b.map.detail_props.props.size()));
    j.field("ambient_samples", uint64_t(b.map.leaf_ambient.samples.size()));
    j.field("ambient_samples_hdr", uint64_t(b.map.leaf_ambient_hdr.samples.size()));
    // The lights that light props beside their cube (scene/models/prop_lights.h).
    j.field("world_lights", uint64_t(b.map.world_lights.size()));
    j.field("world_lights_hdr", uint64_t(b.map.world_lights_hdr.size()));
    j.endObject();
}

// Collision data (bsp/collision.h): clip hulls with their sizes and world heads, or brushes
// counted by neutral contents (a brush with several bits counts under each).
void writeCollision(core::JsonWriter& j, const bsp::Map& m) {
    const bsp::Collision& c = m.collision;
    const char* kind = c.kind == bsp::CollisionKind::Hulls     ? "hulls"
                       : c.kind == bsp::CollisionKind::Brushes ? "brushes"
                                                               : "none";
    j.key("collision").beginObject().field("kind", kind);
    j.key("hulls").beginArray();
    for (size_t h = 0; h < c.hulls.size(); ++h) {
        j.beginObject().field("hull", static_cast<uint64_t>(h));
        writeVec3(j, "mins", c.hulls[h].mins);
        writeVec3(j, "maxs", c.hulls[h].maxs);
        if (c.kind == bsp::CollisionKind::Hulls && !c.models.empty())
            j.field("world_head", c.models[0].heads[h < 4 ? h : 0]);
        j.endObject();
    }
    j.endArray();
    j.field("clipnodes", static_cast<uint64_t>(c.clipnodes.size()));
    j.field("brushes", static_cast<uint64_t>(c.brushes.size()));
    j.field("brush_sides", static_cast<uint64_t>(c.brush_sides.size()));
    j.field("leaf_brushes", static_cast<uint64_t>(c.leaf_brushes.size()));
    j.key("brushes_by_contents").beginObject();
    for (const bsp::CollisionContentsName& n : bsp::kCollisionContentsNames) {
        uint64_t count = 0;
        for (const bsp::Brush& b : c.brushes)
            count += (b.contents & n.bit) ? 1 : 0;
        j.field(n.name, count);
    }
    j.endObject();
    uint64_t solid_models = 0;
    for (const bsp::ModelCollision& mc : c.models)
        solid_models += mc.solid ? 1 : 0;
    j.field("solid_models", solid_models).endObject();
}

// The game's lighting rule (game/profile.h), inside --info's "lightmaps" object, and whether
// its textures' palettes go through a table at load (game::MaterialSource::palette_table).
void writeLightRule(core::JsonWriter& j, const game::LightRule& rule, uint32_t unlit_faces,
                    bool palette_table) {
    j.field("style_m", rule.light_style_scale).field("light_max", rule.light_max);
    j.field("lightmap_scale", rule.lightmap_scale).field("texture_scale", rule.texture_scale);
    j.field("output_gamma", rule.output_gamma);
    j.field("texture_max", rule.texture_max);
    j.field("texture_palette", palette_table ? "through the game's table" : "as stored");
    j.field("unlit_faces", unlit_faces);
    j.field("unlit_faces_drawn", game::unlitFacesName(rule.unlit_faces));
}

// The game's tone map settings (game::ToneMapRule), inside "lightmaps"; only for games that
// have one (Source). "applied": the lighting drawn is the linear set the scale applies to.
void writeToneMap(core::JsonWriter& j, const game::ToneMapRule& t) {
    if (t.source == game::ToneMapSource::None)
        return;
    j.key("tone_map").beginObject();
    j.field("source", game::toneMapSourceName(t.source)).field("controllers", t.controllers);
    j.field("applied", t.enabled).field("scale", t.scale);
    j.field("auto_exposure_min", t.auto_min).field("auto_exposure_max", t.auto_max);
    j.field("rate", t.rate).field("bloom_scale", t.bloom_scale);
    j.endObject();
}

// The lumps as the file lays them out, how full they are against the game's MAX_MAP_* tables
// (bsp/map_limits.h), and the BSPX lumps (Quake 1 family) with whether the parser drew on each
// (bsp/bspx.h).
void writeLumps(core::JsonWriter& j, const bsp::Map& m) {
    j.key("lumps").beginArray();
    for (const bsp::LumpInfo& l : m.lumps) {
        j.beginObject().field("name", l.name).field("offset", l.offset).field("length", l.length);
        j.field("record_size", l.record_size).field("count", l.count).endObject();
    }
    j.endArray();
    j.key("limits").beginObject().field("source", bsp::limitsSource(m.format));
    j.key("lumps").beginArray();
    for (const bsp::LimitRow& r : bsp::checkLimits(m)) {
        if (!r.limit)
            continue;
        j.beginObject().field("name", r.lump).field("constant", r.constant);
        j.field("used", r.used).field("limit", r.limit).field("over", r.over()).endObject();
    }
    j.endArray().endObject();
    j.key("extra_lumps").beginArray();
    for (const bsp::ExtraLump& l : m.extra_lumps) {
        j.beginObject().field("name", l.name).field("offset", l.offset);
        j.field("length", l.length).field("used", l.used).endObject();
    }
    j.endArray();
}

// Faces by kind and the other record counts, collision and visibility.
void writeGeometry(core::JsonWriter& j, const scene::MapBundle& b) {
    const bsp::Map& m = b.map;
    uint32_t by_kind[4] = {};
    for (const bsp::Face& f : m.faces)
        ++by_kind[static_cast<int>(f.kind)];
    j.key("faces").beginObject();
    j.field("total", static_cast<uint64_t>(m.faces.size()));
    j.field("polygon", by_kind[0]).field("mesh", by_kind[1]).field("patch", by_kind[2]);
    j.field("billboard", by_kind[3]).endObject();
    j.field("vertices", static_cast<uint64_t>(m.vertices.size()));
    j.field("triangles", b.mesh.triangles);
    j.field("leaves", static_cast<uint64_t>(m.leaves.size()));
    j.field("nodes", static_cast<uint64_t>(m.nodes.size()));
    j.field("submodels", static_cast<uint64_t>(m.submodels.size()));
    j.field("materials", static_cast<uint64_t>(m.materials.size()));
    writeCollision(j, m);
    j.key("vis").beginObject().field("present", m.vis.present());
    j.field("clusters", m.vis.num_clusters).field("row_size", m.vis.row_size).endObject();
}

// The pages drawn (scene/world/lightmap_set.h): in the map or q3map2's external images, with
// deluxe maps (light directions) split off.
void writeLightmaps(core::JsonWriter& j, const scene::MapBundle& b) {
    const bsp::Map& m = b.map;
    const scene::LightmapSet& lm = b.lightmaps;
    j.key("lightmaps").beginObject();
    j.field("storage", lm.storage == bsp::LightmapStorage::External ? "external" : "map");
    j.field("pages", static_cast<uint64_t>(lm.pages.size()));
    j.field("width", lm.width).field("height", lm.height);
    j.field("deluxe_pages", static_cast<uint64_t>(lm.deluxe.size()));
    if (!lm.deluxe.empty())
        j.field("deluxe_space", lm.deluxe_tangent_space ? "tangent" : "model");
    j.field("files", static_cast<uint64_t>(lm.files.size()));
    j.field("faces_without_pages", static_cast<uint64_t>(scene::facesWithoutPages(m, lm)));
    writeLightRule(j, b.profile.rules.light, m.unlit_face_count,
                   b.profile.materials.palette_table.has_value());
    // Source faces with three directional lightmaps beside the flat one (bsp::Face::bump_light).
    if (m.bump_light_face_count > 0)
        j.field("bump_light_faces", m.bump_light_face_count);
    if (!m.lighting_variants.empty()) {
        j.key("variants").beginArray();
        for (const std::string& v : m.lighting_variants)
            j.value(v);
        j.endArray();
        j.field("variant", m.lighting_variant);
    }
    writeToneMap(j, b.profile.rules.tonemap);
    j.endObject();
}

// Entities, spawn points and the world bounds.
void writePlaces(core::JsonWriter& j, const scene::MapBundle& b) {
    const bsp::Map& m = b.map;
    j.field("entities", static_cast<uint64_t>(m.entities.size()));
    j.key("spawn_points").beginArray();
    for (const bsp::SpawnPoint& s : b.spawns) {
        j.beginObject().field("classname", s.classname);
        writeVec3(j, "origin", s.origin);
        j.field("yaw", s.yaw).endObject();
    }
    j.endArray();
    j.key("bounds").beginObject();
    writeVec3(j, "mins", m.worldMins());
    writeVec3(j, "maxs", m.worldMaxs());
    j.endObject();
}

// One entry per missing texture name, with the faces drawn with it and, for Source maps, the
// game its path suggests; then the entity models (scene/models/model_set.h): those the game's
// table names, those placed, and the ones that could not be drawn ("classname: path (why)").
void writeMissingAssets(core::JsonWriter& j, const scene::MapBundle& b) {
    j.key("missing_textures").beginArray();
    for (const scene::MissingTexture& t : b.missing_textures) {
        j.beginObject().field("name", t.name).field("faces", static_cast<uint64_t>(t.faces));
        if (!t.game.empty())
            j.field("game", t.game);
        j.endObject();
    }
    j.endArray();
    j.field("texture_names", static_cast<uint64_t>(b.drawn_texture_names));
    // Material names (compared without case, as texture_names) whose base texture or normal map
    // plays frames (Source's AnimatedTexture proxy: content::TextureInfo::animated).
    std::set<std::string> animated;
    for (size_t i = 0; i < b.textures.size() && i < b.map.materials.size(); ++i)
        if (b.textures[i].animated())
            animated.insert(core::toLower(b.map.materials[i].name));
    j.field("animated_textures", static_cast<uint64_t>(animated.size()));
    // Material names, counted the same way, with number proxies run at the clock (Sine,
    // LinearRamp, ...: content::TextureInfo::proxies).
    std::set<std::string> proxied;
    for (size_t i = 0; i < b.textures.size() && i < b.map.materials.size(); ++i)
        if (!b.textures[i].proxies.empty())
            proxied.insert(core::toLower(b.map.materials[i].name));
    j.field("proxy_materials", static_cast<uint64_t>(proxied.size()));
    j.key("models").beginObject();
    j.field("wanted", static_cast<uint64_t>(b.models.wanted));
    j.field("placed", static_cast<uint64_t>(b.models.instances.size()));
    j.field("files", static_cast<uint64_t>(b.models.models.size())).endObject();
    j.key("models_missing").beginArray();
    for (const std::string& missing : b.models.missing)
        j.value(missing);
    j.endArray();
}

} // namespace

int runInfo(const Options& options) {
    auto loaded = scene::loadMapBundle(mapSpecOf(options), loadSettingsOf(options));
    if (!loaded)
        return reportError(loaded.error());
    const scene::MapBundle& b = **loaded;
    const bsp::Map& m = b.map;

    core::JsonWriter j;
    j.beginObject();
    j.field("file", m.name);
    j.field("format", bsp::formatName(m.format));
    j.field("version", m.version);
    j.field("game", game::familyName(b.profile.family)); // whose rules (src/game/)
    writeLumps(j, m);
    writeGeometry(j, b);
    writeLightmaps(j, b);
    writePlaces(j, b);
    writeMissingAssets(j, b);
    writeCompileFiles(j, b);
    writeStaticProps(j, b);
    writeOverlays(j, b.map);
    if (m.format == bsp::Format::Source) {
        writeSkyRegion(j, m, b.profile);
        writeLinearFog(j, "fog", b.profile.rules.linear_fog, // env_fog_controller's
                       b.profile.view.far_plane);
    }
    j.key("warnings").beginArray();
    for (const std::string& w : b.warnings)
        j.value(w);
    j.endArray();
    j.endObject();
    std::cout << j.str() << "\n";
    return 0;
}

} // namespace app
