#include "app/headless.h"

#include "app/debug_panels.h"
#include "app/panels.h"
#include "app/window.h"
#include "bsp/map_limits.h"
#include "bsp/tree.h"
#include "content/image/image.h"
#include "content/material/texture_cache.h"
#include "content/model/source_model.h"
#include "content/vfs/game_hints.h"
#include "content/vfs/vfs.h"
#include "core/file.h"
#include "core/json.h"
#include "physics/walk_script.h"
#include "render/flare_renderer.h"
#include "render/world_renderer.h"
#include "scene/debug/map_diff.h"
#include "scene/view/camera.h"
#include "scene/view/visibility.h"

#include <SDL.h>
#include <backends/imgui_impl_opengl3.h>
#include <glm/common.hpp>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <limits>
#include <optional>

#ifndef BSPV_SOURCE_ASSETS_DIR
#define BSPV_SOURCE_ASSETS_DIR ""
#endif

namespace app {

void writeVec3(core::JsonWriter& j, std::string_view key, const glm::vec3& v) {
    j.key(key).beginArray().value(v.x).value(v.y).value(v.z).endArray();
}

void writeGlIdentity(core::JsonWriter& j) {
    const render::GlCaps& caps = render::caps();
    j.field("gl_renderer", caps.renderer).field("gl_vendor", caps.vendor);
    j.field("gl_version", caps.version).field("video_driver", Window::videoDriver());
}

namespace {

// --overlay: the viewer's overlay drawn over the frame in the bound target, through an ImGui
// context that has no platform window (display size and time step are set by hand). Two
// frames are built because ImGui hides auto-sized windows for their first frame while it
// measures them. Returns the main window's rectangle.
std::array<float, 4> drawOverlayOffscreen(const Options& options, const scene::MapBundle& bundle,
                                          const scene::DrawList& list, scene::Camera camera,
                                          render::RenderOptions ro, scene::VisOptions vo) {
    IMGUI_CHECKVERSION();
    ImGuiContext* context = ImGui::CreateContext();
    ImGui::StyleColorsDark();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.LogFilename = nullptr;
    io.DisplaySize = ImVec2(static_cast<float>(options.width), static_cast<float>(options.height));
    io.DeltaTime = 1.0f / 60.0f;
    ImGui_ImplOpenGL3_Init("#version 330 core");
    OverlayModel model;
    model.bundle = &bundle;
    model.stats = &list.stats;
    model.camera = &camera;
    model.render_options = &ro;
    model.vis_options = &vo;
    StyleControls styles;
    styles.paused = true;
    styles.time = options.time;
    model.styles = &styles;
    model.styles_in_use = stylesInUse(bundle.map);
    model.patch_level = bundle.mesh.patch_level;
    for (int frame = 0; frame < 2; ++frame) {
        ImGui_ImplOpenGL3_NewFrame();
        ImGui::NewFrame();
        drawOverlay(model, false);
        ImGui::Render();
    }
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    const std::array<float, 4> rect = overlayWindowRect();
    ImGui_ImplOpenGL3_Shutdown();
    ImGui::DestroyContext(context);
    return rect;
}

// "q1_mp_lobby.prt": the companion file of the map with `ext`, as looked for beside it.
std::string compileFileName(const scene::MapBundle& b, const char* ext) {
    return std::filesystem::path(b.map.name).replace_extension(ext).filename().string();
}

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

// Source overlays (bsp/overlays.h, --info): how many the map has and what became of them.
void writeOverlays(core::JsonWriter& j, const bsp::Map& map) {
    if (map.format != bsp::Format::Source)
        return;
    j.key("overlays").beginObject();
    j.field("count", uint64_t(map.overlay_count));
    j.field("fragments", uint64_t(map.overlay_faces.fragments));
    j.field("not_drawn", uint64_t(map.overlay_faces.not_polygons));
    j.field("missed", uint64_t(map.overlay_faces.missed));
    j.endObject();
}

} // namespace

int reportError(const core::Error& e) {
    std::fprintf(stderr, "bspview: error: %s\n", e.message().c_str());
    return 1;
}

std::string mapSpecOf(const Options& options) {
    return options.map.empty() ? defaultMapPath() : options.map;
}

scene::LoadSettings loadSettingsOf(const Options& options) {
    scene::LoadSettings settings;
    settings.base_dirs = options.base_dirs;
    settings.patch_level = options.patch_level;
    settings.texture_cache_dir = content::defaultTextureCacheDir();
    settings.pointfile = options.pointfile;
    settings.portal_file = options.prt_file;
    settings.parse.hdr_lighting = options.hdr;
    settings.game.quake2_look = options.quake2_look.value_or(game::Quake2Look::Yamagi);
    return settings;
}

core::Result<std::unique_ptr<OffscreenRenderer>> createOffscreenRenderer(const Options& options,
                                                                         const char* title) {
    auto gl = std::make_unique<OffscreenRenderer>();
    auto window = Window::create(title, options.width, options.height, true);
    if (!window)
        return window.error();
    gl->window = std::move(*window);
    gl->shaders.setShaderDir(options.shader_dir);
    std::string error;
    if (!gl->renderer.init(gl->shaders, &error))
        return graphicsError(error);
    if (!gl->target.create(options.width, options.height, &error))
        return graphicsError(error);
    return gl;
}

std::string defaultMapPath() {
    namespace fs = std::filesystem;
    std::vector<fs::path> candidates;
    if (char* base = SDL_GetBasePath()) {
        const fs::path exe_dir(base);
        SDL_free(base);
        candidates.push_back(exe_dir / "../share/bspview/maps/demo.bsp");
        candidates.push_back(exe_dir / "assets/maps/demo.bsp");
    }
    candidates.push_back(fs::path(BSPV_SOURCE_ASSETS_DIR) / "maps/demo.bsp");
    std::error_code ec;
    for (const auto& p : candidates)
        if (fs::is_regular_file(p, ec))
            return fs::weakly_canonical(p, ec).string();
    return candidates.back().string();
}

core::Result<scene::Camera> resolveCamera(const CameraSpec& spec, const scene::MapBundle& bundle) {
    scene::Camera cam;
    const bsp::Map& map = bundle.map;
    cam.z_far = scene::farPlaneForBounds(map.worldMins(), map.worldMaxs());
    if (spec.from_leak) {
        const auto at =
            bundle.leak ? scene::leakStopCamera(*bundle.leak, spec.leak_stop, cam) : std::nullopt;
        if (!at)
            return core::makeError(core::ErrorCode::BadArgument, {}, -1, {},
                                   "--camera leak: the map has no leak file (a .pts or .lin "
                                   "beside it, or --pointfile FILE)");
        if (spec.leak_stop >= static_cast<int>(bundle.leak->stops.size()))
            return core::makeError(core::ErrorCode::BadArgument, {}, -1, {},
                                   "--camera leak:" + std::to_string(spec.leak_stop) +
                                       ": the leak line has " +
                                       std::to_string(bundle.leak->stops.size()) + " stops");
        return *at;
    }
    if (!spec.from_spawn) {
        cam.position = {spec.x, spec.y, spec.z};
        cam.pitch = spec.pitch;
        cam.yaw = spec.yaw;
        return cam;
    }
    const auto at = spec.spawn_index >= 0
                        ? scene::spawnCamera(bundle, static_cast<size_t>(spec.spawn_index))
                        : std::nullopt;
    if (!at && bundle.spawns.empty())
        return core::makeError(core::ErrorCode::BadArgument, {}, -1, {},
                               "--camera spawn:" + std::to_string(spec.spawn_index) +
                                   ": the map has no spawn points");
    if (!at)
        return core::makeError(core::ErrorCode::BadArgument, {}, -1, {},
                               "--camera spawn:" + std::to_string(spec.spawn_index) +
                                   ": the map has " + std::to_string(bundle.spawns.size()) +
                                   " spawn points");
    return *at;
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

namespace {

// The game's lighting rule (game/profile.h), inside --info's "lightmaps" object.
void writeLightRule(core::JsonWriter& j, const game::LightRule& rule, uint32_t unlit_faces) {
    j.field("style_m", rule.light_style_scale).field("light_max", rule.light_max);
    j.field("lightmap_scale", rule.lightmap_scale).field("texture_scale", rule.texture_scale);
    j.field("texture_gamma", rule.texture_gamma).field("output_gamma", rule.output_gamma);
    j.field("texture_max", rule.texture_max);
    j.field("unlit_faces", unlit_faces);
    j.field("unlit_faces_drawn", game::unlitFacesName(rule.unlit_faces));
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
    j.key("lumps").beginArray();
    for (const bsp::LumpInfo& l : m.lumps) {
        j.beginObject().field("name", l.name).field("offset", l.offset).field("length", l.length);
        j.field("record_size", l.record_size).field("count", l.count).endObject();
    }
    j.endArray();
    // How full the map is against its game's MAX_MAP_* tables (bsp/map_limits.h).
    j.key("limits").beginObject().field("source", bsp::limitsSource(m.format));
    j.key("lumps").beginArray();
    for (const bsp::LimitRow& r : bsp::checkLimits(m)) {
        if (!r.limit)
            continue;
        j.beginObject().field("name", r.lump).field("constant", r.constant);
        j.field("used", r.used).field("limit", r.limit).field("over", r.over()).endObject();
    }
    j.endArray().endObject();
    // BSPX lumps (Quake 1 family), and whether the parser drew on each (bsp/bspx.h).
    j.key("extra_lumps").beginArray();
    for (const bsp::ExtraLump& l : m.extra_lumps) {
        j.beginObject().field("name", l.name).field("offset", l.offset);
        j.field("length", l.length).field("used", l.used).endObject();
    }
    j.endArray();
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
    // The pages drawn (scene/world/lightmap_set.h): in the map or q3map2's external images, with
    // deluxe maps (light directions) split off.
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
    writeLightRule(j, b.profile.rules.light, m.unlit_face_count);
    if (!m.lighting_variants.empty()) {
        j.key("variants").beginArray();
        for (const std::string& v : m.lighting_variants)
            j.value(v);
        j.endArray();
        j.field("variant", m.lighting_variant);
    }
    j.endObject();
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
    // One entry per texture name, with the faces drawn with it and, for Source maps, the game
    // its path suggests.
    j.key("missing_textures").beginArray();
    for (const scene::MissingTexture& t : b.missing_textures) {
        j.beginObject().field("name", t.name).field("faces", static_cast<uint64_t>(t.faces));
        if (!t.game.empty())
            j.field("game", t.game);
        j.endObject();
    }
    j.endArray();
    j.field("texture_names", static_cast<uint64_t>(b.drawn_texture_names));
    // Entity models (scene/models/model_set.h): those the game's table names, those placed, and
    // the ones that could not be drawn ("classname: path (why)").
    j.key("models").beginObject();
    j.field("wanted", static_cast<uint64_t>(b.models.wanted));
    j.field("placed", static_cast<uint64_t>(b.models.instances.size()));
    j.field("files", static_cast<uint64_t>(b.models.models.size())).endObject();
    j.key("models_missing").beginArray();
    for (const std::string& missing : b.models.missing)
        j.value(missing);
    j.endArray();
    writeCompileFiles(j, b);
    writeStaticProps(j, b);
    writeOverlays(j, b.map);
    j.key("warnings").beginArray();
    for (const std::string& w : b.warnings)
        j.value(w);
    j.endArray();
    j.endObject();
    std::cout << j.str() << "\n";
    return 0;
}

// --walk-script: where the walk ends, for the JSON.
struct WalkResult {
    glm::vec3 eye{0.0f};
    bool on_ground = false;
    int waterlevel = 0; // 0 dry .. 3 under (physics::PlayerState::waterlevel)
    int64_t ticks = 0;
};

// Plays the script from the camera's eye (origin = eye - the game's eye height) and moves the
// camera to the eye at the end (the crouched eye if the walk ends crouched).
core::Result<WalkResult> walkCamera(const std::string& script, const bsp::Map& map,
                                    float eye_height, scene::Camera& cam) {
    auto text = core::readFile(script);
    if (!text)
        return text.error();
    auto steps = physics::parseWalkScript(std::string(text->begin(), text->end()), script);
    if (!steps)
        return steps.error();
    if (map.collision.kind == bsp::CollisionKind::None)
        return core::makeError(core::ErrorCode::BadArgument, {}, -1, {},
                               "--walk-script: the map has no collision data");
    const physics::CollisionWorld world(map);
    const physics::PlayerMove move(world, physics::moveRulesFor(map.collision));
    physics::PlayerState s;
    s.origin = cam.position - glm::vec3(0.0f, 0.0f, eye_height);
    move.settle(s);
    float yaw = cam.yaw;
    for (physics::WalkStep& step : *steps)
        step.input.pitch = cam.pitch; // swimming goes where the camera looks, as in the viewer
    WalkResult r;
    r.ticks = physics::playWalkScript(move, *steps, s, yaw);
    const float eye = s.crouched ? move.rules().crouch_eye : eye_height;
    r.eye = s.origin + glm::vec3(0.0f, 0.0f, eye);
    r.on_ground = s.on_ground;
    r.waterlevel = s.waterlevel;
    cam.position = r.eye;
    cam.yaw = yaw;
    return r;
}

int runScreenshot(const Options& options) {
    using Clock = std::chrono::steady_clock;
    const auto t_start = Clock::now();
    auto render_options = renderOptionsOf(options);
    if (!render_options)
        return reportError(render_options.error());
    render::RenderOptions& ro = *render_options;
    auto loaded = scene::loadMapBundle(mapSpecOf(options), loadSettingsOf(options));
    if (!loaded)
        return reportError(loaded.error());
    auto cam = resolveCamera(options.camera, **loaded);
    if (!cam)
        return reportError(cam.error());
    cam->fov_x = options.fov;
    cam->aspect = static_cast<float>(options.width) / static_cast<float>(options.height);
    std::optional<WalkResult> walk;
    if (!options.walk_script.empty()) {
        auto w = walkCamera(options.walk_script, (*loaded)->map, (*loaded)->profile.view.eye_height,
                            *cam);
        if (!w)
            return reportError(w.error());
        walk = *w;
    }

    auto gl = createOffscreenRenderer(options, "bspview (headless)");
    if (!gl)
        return reportError(gl.error());
    render::WorldRenderer& renderer = (*gl)->renderer;
    render::RenderTarget& target = (*gl)->target;
    MapSession session(renderer);
    if (auto st = session.adopt(std::move(*loaded)); !st)
        return reportError(st.error());
    scene::MapBundle& b = *session.bundle();
    ro.clear_colour = clearColourOf(b.profile.view, ro.clear_colour);

    scene::DrawList list;
    scene::VisOptions vis_options = visOptionsOf(options);
    scene::Camera vis_camera = *cam;
    if (options.lock_camera_given) {
        auto locked = resolveCamera(options.lock_camera, b);
        if (!locked)
            return reportError(locked.error());
        vis_camera = *locked;
        vis_camera.fov_x = cam->fov_x;
        vis_camera.aspect = cam->aspect;
        vis_options.classify = true;
    }
    session.visibility()->update(vis_camera, vis_options, list);

    ro.show_culled = options.lock_camera_given;
    ro.style_values =
        scene::lightStyleValues(options.time, nullptr, b.profile.entities.light_styles);
    target.bind();
    // Flares fade in once their occlusion queries have answered, a frame later: two lead-in
    // frames (waited for, as nobody is watching) let them settle before the one that is saved.
    if (ro.flares && renderer.flares() && renderer.flares()->count() > 0)
        for (double lead : {0.3, 0.15}) {
            ro.time = options.time - lead;
            renderer.draw(list, *cam, ro);
            glFinish();
        }
    ro.time = options.time;
    renderer.draw(list, *cam, ro);
    // --compare: what changed since an earlier compile (the A/B view of issue #18).
    std::optional<bsp::Map> compare_map;
    std::optional<scene::MapDiff> changes;
    if (!options.compare.empty()) {
        auto old = scene::loadMapSpec(options.compare, loadSettingsOf(options).parse);
        if (!old)
            return reportError(old.error());
        compare_map = std::move(*old);
        changes = scene::diffMaps(*compare_map, b.map);
    } else if (options.debug_views.changes) {
        return reportError(core::makeError(core::ErrorCode::BadArgument, {}, -1, {},
                                           "--debug changes needs --compare OLD.bsp"));
    }
    render::DebugOverlayStats debug_stats;
    if (options.debug_views.any()) {
        if (options.debug_views.portals && !b.portals)
            std::fprintf(stderr,
                         "bspview: warning: --debug portals: no portal file (%s beside "
                         "the map, or --prt FILE)\n",
                         compileFileName(b, ".prt").c_str());
        if (options.debug_views.leak && !b.leak)
            std::fprintf(stderr,
                         "bspview: warning: --debug leak: no leak file (%s or %s beside "
                         "the map, or --pointfile FILE)\n",
                         compileFileName(b, ".pts").c_str(), compileFileName(b, ".lin").c_str());
        const int32_t leak_stop = options.camera.from_leak ? options.camera.leak_stop : -1;
        if (auto st = drawDebugOverlaysOnce(renderer, (*gl)->shaders, b, list, *cam, vis_camera,
                                            vis_options, options.debug_views, &debug_stats,
                                            leak_stop, changes ? &*changes : nullptr,
                                            compare_map ? &*compare_map : nullptr);
            !st)
            return reportError(st.error());
    }
    std::array<float, 4> overlay_rect{};
    if (options.overlay)
        overlay_rect = drawOverlayOffscreen(options, b, list, *cam, ro, vis_options);
    content::Image image;
    image.width = options.width;
    image.height = options.height;
    image.rgba = target.readPixels();
    for (size_t i = 3; i < image.rgba.size(); i += 4)
        image.rgba[i] = 255;
    render::checkGlErrors("screenshot");
    if (!content::writePng(options.screenshot_path, image))
        return reportError(core::makeError(core::ErrorCode::FileOpen, {}, -1, {},
                                           "cannot write " + options.screenshot_path));

    const scene::DrawStats& s = list.stats;
    core::JsonWriter j;
    j.beginObject();
    j.field("file", b.map.name).field("screenshot", options.screenshot_path);
    j.key("camera").beginObject();
    writeVec3(j, "position", cam->position);
    j.field("pitch", cam->pitch).field("yaw", cam->yaw).field("fov", cam->fov_x);
    j.field("width", options.width).field("height", options.height).endObject();
    j.field("camera_leaf", s.camera_leaf).field("camera_cluster", s.camera_cluster);
    j.field("pvs_leaves", s.pvs_leaves).field("visible_leaves", s.visible_leaves);
    j.field("faces_drawn", s.faces_drawn).field("faces_total", s.faces_total);
    j.field("triangles", s.triangles).field("draw_calls", s.draw_calls);
    j.field("models_drawn", s.models_drawn).field("models_total", s.models_total);
    j.field("gl_path", render::drawPathName(renderer.drawPath()));
    j.field("gl_draw_calls", renderer.submitStats().draw_calls);
    j.field("gl_ranges", renderer.submitStats().ranges_drawn);
    if (options.lock_camera_given) {
        j.key("why_culled").beginObject().field("considered", s.faces_considered);
        j.field("drawn", s.drawn_world).field("pvs", s.culled_pvs);
        j.field("frustum", s.culled_frustum).endObject();
    }
    if (options.debug_views.any()) {
        j.key("debug").beginObject().field("line_segments", debug_stats.line_segments);
        j.field("visible_leaves", debug_stats.visible_leaves);
        j.field("tinted_groups", debug_stats.tinted_groups).field("markers", debug_stats.markers);
        j.field("area_borders", debug_stats.area_borders);
        j.field("portals", debug_stats.portals)
            .field("portal_clusters", debug_stats.portal_clusters);
        j.field("hint_portals", debug_stats.hint_portals);
        j.field("leak_points", debug_stats.leak_points).field("leak_stops", debug_stats.leak_stops);
        j.field("triangles", debug_stats.triangles);
        j.field("changed_faces", debug_stats.changed_faces);
        j.field("collision_solids", debug_stats.collision_solids);
        j.field("collision_polygons", debug_stats.collision_polygons).endObject();
    }
    if (changes) {
        j.key("changes").beginObject().field("compared_with", options.compare);
        j.field("same", changes->same).field("added", changes->added);
        j.field("moved", changes->moved).field("relit", changes->relit);
        j.field("removed", static_cast<uint64_t>(changes->removed.size())).endObject();
    }
    if (options.debug_views.portals) // the portal under the crosshair and what it joins
        if (const auto hit = pickPortal(b, *cam)) {
            const content::Portal& p = b.portals->portals[hit->portal];
            j.key("portal_at_crosshair").beginObject().field("portal", hit->portal);
            j.field("front", p.a).field("back", p.b).field("hint", p.hint);
            j.field("distance", hit->distance).endObject();
        }
    if (options.debug_views.luxels) // luxel readout: the face under the crosshair
        if (const auto pick = pickFace(b, *cam)) {
            j.key("crosshair").beginObject().field("face", pick->hit.face);
            writeVec3(j, "point", pick->hit.point);
            if (pick->luxel) {
                const scene::Luxel& l = *pick->luxel;
                j.field("lightmap_page", l.page).key("luxel").beginArray().value(l.x).value(l.y);
                j.endArray().key("rgb").beginArray().value(l.rgb[0]).value(l.rgb[1]);
                j.value(l.rgb[2]).endArray();
            }
            j.endObject();
        }
    j.field("missing_textures", static_cast<uint64_t>(b.missing_textures.size()));
    if (walk) {
        j.key("walk").beginObject();
        writeVec3(j, "end", walk->eye);
        j.field("on_ground", walk->on_ground).field("ticks", static_cast<uint64_t>(walk->ticks));
        j.field("waterlevel", static_cast<uint64_t>(walk->waterlevel));
        j.endObject();
    }
    if (options.overlay) {
        j.key("overlay").beginArray();
        for (float v : overlay_rect)
            j.value(v);
        j.endArray();
    }
    j.field("gl_errors", render::glErrorCount());
    writeGlIdentity(j);
    j.field("seconds", std::chrono::duration<double>(Clock::now() - t_start).count());
    j.endObject();
    std::cout << j.str() << "\n";
    return render::glErrorCount() == 0 ? 0 : 2;
}

} // namespace app
