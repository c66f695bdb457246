#include "app/cli.h"

#include "export/export.h"
#include "game/profile.h"
#include "render/view_mode.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <sstream>

#ifndef BSPV_VERSION
#define BSPV_VERSION "0.0.0"
#endif

namespace app {

// Defined in git_revision.cpp, which the build regenerates when the checkout's revision changes.
extern const char kGitRevision[];

namespace {

core::Error argError(std::string detail) {
    return core::makeError(core::ErrorCode::BadArgument, {}, -1, {}, std::move(detail));
}

bool parseFloat(std::string_view s, float* out) {
    std::string buf(s);
    char* end = nullptr;
    const float v = std::strtof(buf.c_str(), &end);
    if (buf.empty() || end != buf.c_str() + buf.size() || !std::isfinite(v))
        return false;
    *out = v;
    return true;
}

bool parseInt(std::string_view s, int* out) {
    int v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (r.ec != std::errc() || r.ptr != s.data() + s.size())
        return false;
    *out = v;
    return true;
}

} // namespace

core::Result<CameraSpec> parseCamera(std::string_view text) {
    CameraSpec c;
    if (text.rfind("leak", 0) == 0) {
        c.from_spawn = false;
        c.from_leak = true;
        if (text.size() > 4) {
            if (text[4] != ':' || !parseInt(text.substr(5), &c.leak_stop) || c.leak_stop < 0)
                return argError("expected leak or leak:N, got '" + std::string(text) + "'");
        }
        return c;
    }
    if (text.rfind("spawn", 0) == 0) {
        c.from_spawn = true;
        if (text.size() > 5) {
            if (text[5] != ':' || !parseInt(text.substr(6), &c.spawn_index) || c.spawn_index < 0)
                return argError("expected spawn or spawn:N, got '" + std::string(text) + "'");
        }
        return c;
    }
    float v[5];
    size_t start = 0;
    for (int i = 0; i < 5; ++i) {
        const size_t comma = text.find(',', start);
        const bool last = i == 4;
        if ((comma == std::string_view::npos) != last)
            return argError("expected X,Y,Z,PITCH,YAW, got '" + std::string(text) + "'");
        const std::string_view part =
            text.substr(start, last ? std::string_view::npos : comma - start);
        if (!parseFloat(part, &v[i]))
            return argError("'" + std::string(part) + "' is not a number");
        start = comma + 1;
    }
    c.from_spawn = false;
    c.x = v[0];
    c.y = v[1];
    c.z = v[2];
    c.pitch = v[3];
    c.yaw = v[4];
    return c;
}

namespace {

// The argument list as the flag parsers walk it: next() takes a flag's value.
struct ArgCursor {
    const std::vector<std::string>& args;
    size_t& i;
    const std::string* next(const char*) const {
        if (i + 1 >= args.size())
            return nullptr;
        return &args[++i];
    }
};

core::Error missing(const char* flag) {
    return argError(std::string(flag) + " needs a value");
}

// The checks of the flags whose values are more than stored: each stores a good value, or
// says what it expected (`flag` is the name given).
using ValueSetter = core::Status (*)(Options& o, std::string_view flag, const std::string& v);

core::Status setFrames(Options& o, std::string_view, const std::string& v) {
    if (!parseInt(v, &o.frames) || o.frames < 1 || o.frames > 1000000)
        return argError("--frames: expected 1..1000000, got '" + v + "'");
    return core::okStatus();
}

core::Status setScreenshot(Options& o, std::string_view, const std::string& v) {
    o.mode = Mode::Screenshot;
    o.screenshot_path = v;
    return core::okStatus();
}

core::Status setExportPath(Options& o, std::string_view flag, const std::string& v) {
    if (v.empty())
        return argError(std::string(flag) + ": expected a path");
    (flag == "--export" ? o.export_path : o.export_textures) = v;
    o.mode = Mode::Export;
    return core::okStatus();
}

core::Status setExportScale(Options& o, std::string_view, const std::string& v) {
    if (!parseFloat(v, &o.export_options.scale) || !(o.export_options.scale > 0.0f))
        return argError("--export-scale: expected metres per unit > 0, got '" + v + "'");
    return core::okStatus();
}

core::Status setExportLighting(Options& o, std::string_view, const std::string& v) {
    if (v == "lightmap")
        o.export_options.lighting = exporter::ExportLighting::Lightmap;
    else if (v == "baked")
        o.export_options.lighting = exporter::ExportLighting::Baked;
    else if (v == "none")
        o.export_options.lighting = exporter::ExportLighting::None;
    else
        return argError("--export-lighting: expected lightmap, baked or none, got '" + v + "'");
    return core::okStatus();
}

// --camera and --lock-camera.
core::Status setCamera(Options& o, std::string_view flag, const std::string& v) {
    auto c = parseCamera(v);
    if (!c)
        return argError(std::string(flag) + ": " + c.error().detail);
    const bool lock = flag == "--lock-camera";
    (lock ? o.lock_camera : o.camera) = *c;
    (lock ? o.lock_camera_given : o.camera_given) = true;
    return core::okStatus();
}

core::Status setSize(Options& o, std::string_view, const std::string& v) {
    const size_t x = v.find('x');
    if (x == std::string::npos || !parseInt(std::string_view(v).substr(0, x), &o.width) ||
        !parseInt(std::string_view(v).substr(x + 1), &o.height) || o.width < 1 || o.height < 1 ||
        o.width > 16384 || o.height > 16384)
        return argError("--size: expected WxH (1..16384), got '" + v + "'");
    return core::okStatus();
}

core::Status setFov(Options& o, std::string_view, const std::string& v) {
    if (!parseFloat(v, &o.fov) || o.fov < 1.0f || o.fov > 170.0f)
        return argError("--fov: expected degrees in 1..170, got '" + v + "'");
    o.fov_given = true;
    return core::okStatus();
}

core::Status setView(Options& o, std::string_view, const std::string& v) {
    // Checked here, with every other value, so a bad one exits 2 before any window.
    render::ViewMode mode{};
    if (!render::parseViewMode(v, &mode))
        return argError("--view: expected lit, lightmap, fullbright, flat, normals, "
                        "overdraw or deluxe, got '" +
                        v + "'");
    o.view = v;
    o.view_given = true;
    return core::okStatus();
}

core::Status setConfigDir(Options& o, std::string_view, const std::string& v) {
    if (v.empty())
        return argError("--config-dir: expected a folder");
    o.config_dir = v;
    return core::okStatus();
}

core::Status setDebug(Options& o, std::string_view, const std::string& v) {
    std::string error;
    if (!scene::parseDebugViews(v, &o.debug_views, &error))
        return argError("--debug: " + error);
    return core::okStatus();
}

// --pointfile and --prt.
core::Status setCompileFile(Options& o, std::string_view flag, const std::string& v) {
    if (v.empty())
        return argError(std::string(flag) + ": expected a file");
    (flag == "--prt" ? o.prt_file : o.pointfile) = v;
    return core::okStatus();
}

core::Status setPatchLevel(Options& o, std::string_view, const std::string& v) {
    if (!parseInt(v, &o.patch_level) || o.patch_level < 1 || o.patch_level > 32)
        return argError("--patch-level: expected 1..32, got '" + v + "'");
    return core::okStatus();
}

core::Status setTime(Options& o, std::string_view, const std::string& v) {
    float t = 0;
    if (!parseFloat(v, &t) || t < 0)
        return argError("--time: expected seconds >= 0, got '" + v + "'");
    o.time = t;
    return core::okStatus();
}

core::Status setTextureMode(Options& o, std::string_view, const std::string& v) {
    if (!game::textureModeFromName(v))
        return argError("--texture-mode: expected GL_NEAREST, GL_LINEAR, "
                        "GL_NEAREST_MIPMAP_NEAREST, GL_NEAREST_MIPMAP_LINEAR, "
                        "GL_LINEAR_MIPMAP_NEAREST or GL_LINEAR_MIPMAP_LINEAR, got '" +
                        v + "'");
    o.texture_mode = v;
    return core::okStatus();
}

core::Status setAnisotropy(Options& o, std::string_view, const std::string& v) {
    if (!parseFloat(v, &o.anisotropy) || o.anisotropy < 1.0f || o.anisotropy > 16.0f)
        return argError("--anisotropy: expected 1..16 (1: off), got '" + v + "'");
    return core::okStatus();
}

core::Status setPassTiming(Options& o, std::string_view, const std::string& v) {
    if (v != "auto" && v != "queries" && v != "finish" && v != "cpu" && v != "off")
        return argError("--pass-timing: expected auto, queries, finish, cpu or off, got '" + v +
                        "'");
    o.pass_timing = v;
    return core::okStatus();
}

core::Status setGlPath(Options& o, std::string_view, const std::string& v) {
    if (v != "auto" && v != "33" && v != "43")
        return argError("--gl-path: expected auto, 33 or 43, got '" + v + "'");
    o.gl_path = v;
    return core::okStatus();
}

core::Status setQuake2Look(Options& o, std::string_view, const std::string& v) {
    o.quake2_look = game::parseQuake2Look(v);
    if (!o.quake2_look)
        return argError("--quake2-look: expected yamagi or classic, got '" + v + "'");
    return core::okStatus();
}

// One flag: a switch (`on` sets what it turns on or off), or a flag with a value, stored as
// given (`text`) or checked first (`set`).
struct FlagRow {
    const char* name;
    void (*on)(Options&) = nullptr;
    std::string Options::*text = nullptr;
    ValueSetter set = nullptr;
};

const FlagRow kFlags[] = {
    // Modes and what they read (--info ... --lock-camera).
    {.name = "--help", .on = [](Options& o) { o.mode = Mode::Help; }},
    {.name = "-h", .on = [](Options& o) { o.mode = Mode::Help; }},
    {.name = "--version", .on = [](Options& o) { o.mode = Mode::Version; }},
    {.name = "--info", .on = [](Options& o) { o.mode = Mode::Info; }},
    {.name = "--bench", .on = [](Options& o) { o.mode = Mode::Bench; }},
    {.name = "--frames", .set = setFrames},
    {.name = "--path", .text = &Options::path_file},
    {.name = "--walk-script", .text = &Options::walk_script},
    {.name = "--screenshot", .set = setScreenshot},
    {.name = "--export", .set = setExportPath},
    {.name = "--export-textures", .set = setExportPath},
    {.name = "--export-all", .on = [](Options& o) { o.export_options.include_hidden = true; }},
    {.name = "--export-scale", .set = setExportScale},
    {.name = "--export-lighting", .set = setExportLighting},
    {.name = "--camera", .set = setCamera},
    {.name = "--lock-camera", .set = setCamera},
    // The picture and what is loaded (--size ... --shader-dir).
    {.name = "--size", .set = setSize},
    {.name = "--fov", .set = setFov},
    {.name = "--base",
     .set =
         [](Options& o, std::string_view, const std::string& v) {
             o.base_dirs.emplace_back(v);
             return core::okStatus();
         }},
    {.name = "--view", .set = setView},
    {.name = "--overlay", .on = [](Options& o) { o.overlay = true; }},
    {.name = "--config-dir", .set = setConfigDir},
    {.name = "--debug", .set = setDebug},
    {.name = "--pointfile", .set = setCompileFile},
    {.name = "--prt", .set = setCompileFile},
    {.name = "--wireframe", .on = [](Options& o) { o.wireframe = true; }},
    {.name = "--no-pvs", .on = [](Options& o) { o.pvs = false; }},
    {.name = "--no-frustum", .on = [](Options& o) { o.frustum = false; }},
    {.name = "--patch-level", .set = setPatchLevel},
    {.name = "--time", .set = setTime},
    {.name = "--compare", .text = &Options::compare},
    {.name = "--no-watch", .on = [](Options& o) { o.watch = false; }},
    {.name = "--hdr", .on = [](Options& o) { o.hdr = true; }},
    {.name = "--auto-exposure", .on = [](Options& o) { o.auto_exposure = true; }},
    {.name = "--no-flares", .on = [](Options& o) { o.flares = false; }},
    {.name = "--no-3d-sky", .on = [](Options& o) { o.sky_region = false; }},
    {.name = "--no-models", .on = [](Options& o) { o.models = false; }},
    {.name = "--no-shader-stages", .on = [](Options& o) { o.stages = false; }},
    {.name = "--no-stage-folding", .on = [](Options& o) { o.fold_stages = false; }},
    {.name = "--no-depth-prepass", .on = [](Options& o) { o.depth_prepass = false; }},
    {.name = "--no-water-reflection", .on = [](Options& o) { o.water_reflection = false; }},
    {.name = "--no-liquid-view", .on = [](Options& o) { o.liquid_view = false; }},
    {.name = "--no-display-ramp", .on = [](Options& o) { o.display_ramp = false; }},
    {.name = "--no-hardware-gamma", .on = [](Options& o) { o.hardware_gamma = false; }},
    {.name = "--no-fog", .on = [](Options& o) { o.fog = false; }},
    {.name = "--texture-mode", .set = setTextureMode},
    {.name = "--anisotropy", .set = setAnisotropy},
    {.name = "--pass-timing", .set = setPassTiming},
    {.name = "--gl-path", .set = setGlPath},
    {.name = "--shader-dir",
     .set =
         [](Options& o, std::string_view, const std::string& v) {
             o.shader_dir = v;
             return core::okStatus();
         }},
    // How a game's engine draws.
    {.name = "--quake2-look", .set = setQuake2Look},
};

const FlagRow* findFlag(std::string_view a) {
    for (const FlagRow& row : kFlags)
        if (a == row.name)
            return &row;
    return nullptr;
}

// Applies one flag, taking its value from the cursor.
core::Status applyFlag(Options& o, const FlagRow& row, const ArgCursor& cursor) {
    if (row.on) {
        row.on(o);
        return core::okStatus();
    }
    const std::string* v = cursor.next(row.name);
    if (!v)
        return missing(row.name);
    if (row.text) {
        o.*row.text = *v;
        return core::okStatus();
    }
    return row.set(o, row.name, *v);
}

} // namespace

core::Result<Options> parseArguments(const std::vector<std::string>& args) {
    Options o;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (const FlagRow* row = findFlag(a)) {
            if (auto st = applyFlag(o, *row, ArgCursor{args, i}); !st)
                return st.error();
        } else if (!a.empty() && a[0] == '-') {
            return argError("unknown option '" + a + "' (see --help)");
        } else if (o.map.empty()) {
            o.map = a;
        } else {
            return argError("more than one map given: '" + o.map + "' and '" + a + "'");
        }
    }
    if (!o.walk_script.empty() && o.mode != Mode::Screenshot)
        return argError("--walk-script needs --screenshot");
    if (o.mode == Mode::Export && !o.export_path.empty()) {
        auto format = exporter::exportFormatOf(o.export_path);
        if (!format)
            return format.error();
    }
    return o;
}

namespace {

// --help in two parts: the modes and what they read; the picture and what is loaded.
constexpr const char kHelpModes[] =
    "usage: bspview [MAP] [options]\n"
    "  MAP                     a .bsp file, or ARCHIVE.pk3:maps/NAME.bsp (default: the demo "
    "map)\n"
    "  --info                  print a JSON summary of the map and exit\n"
    "  --screenshot OUT.png    render one frame offscreen to OUT.png, print JSON stats, "
    "exit\n"
    "  --bench                 fly a deterministic path offscreen, print frame statistics "
    "as JSON\n"
    "  --frames N              frames to render with --bench (default 300)\n"
    "  --path FILE             --bench keyframes, one \"X Y Z PITCH YAW\" per line "
    "(default: spawns)\n"
    "  --camera X,Y,Z,PITCH,YAW  eye position and angles (Quake convention), spawn[:N],\n"
    "                          or leak[:N] (stop N of the leak line, looking along it)\n"
    "  --export OUT            write the map to OUT.glb, OUT.gltf (+ .bin, images beside) "
    "or\n"
    "                          OUT.obj (+ .mtl, textures beside), print JSON stats, exit\n"
    "  --export-textures DIR   write the map's textures and lightmap pages as PNG files "
    "into\n"
    "                          DIR, with missing.txt listing textures not found\n"
    "  --export-all            --export: keep sky, clip, trigger and other tool surfaces\n"
    "  --export-scale M        --export: metres per map unit (default 0.0254, 1 unit = 1 "
    "inch)\n"
    "  --export-lighting MODE  --export: lightmap (pages as images, TEXCOORD_1; default),\n"
    "                          baked (light in vertex colours) or none\n"
    "  --overlay               --screenshot: also draw the overlay (UI) into the image\n"
    "  --walk-script FILE      --screenshot: walk from --camera as a player at 60 Hz\n"
    "                          (lines: forward|back|left|right|crouch|wait SECONDS, jump,\n"
    "                          turn DEGREES), draw the end view, add \"walk\" to the JSON\n"
    "  --lock-camera CAMERA    --screenshot: compute visibility from CAMERA (same forms as\n"
    "                          --camera), draw from --camera, tint culled faces (why "
    "culled)\n";

constexpr const char kHelpView[] =
    "  --size WxH              image/window size (default 1280x720)\n"
    "  --fov DEG               horizontal field of view (default 90)\n"
    "  --base DIR              game folder or _dir.vpk to search for textures (repeatable)\n"
    "  --view MODE             lit, lightmap, fullbright, flat, normals, overdraw or\n"
    "                          deluxe (light directions: q3map2 deluxe maps, BSPX\n"
    "                          LIGHTINGDIR or .lux)\n"
    "                          (default lit)\n"
    "  --debug LIST            overlays, comma-separated: frustum (needs --lock-camera),\n"
    "                          leaf-bounds, clusters, areas, area-borders, entities,\n"
    "                          luxels, patches, portals, leak; changes (needs --compare);\n"
    "                          collision: hull1, hull2, hull3 (clip hulls), brushes\n"
    "                          (clip, liquid, trigger and ladder brushes); or all (but\n"
    "                          changes and collision)\n"
    "  --compare OLD.bsp       --screenshot: what changed since the compile OLD.bsp (the\n"
    "                          counts in the JSON; --debug changes tints the faces)\n"
    "  --prt FILE              portal file to draw with portals (default: MAP.prt beside "
    "the map)\n"
    "  --pointfile FILE        leak file to draw with leak (default: MAP.pts or MAP.lin "
    "beside\n"
    "                          the map)\n"
    "  --wireframe             draw triangle edges on top\n"
    "  --no-pvs                ignore the map's visibility data\n"
    "  --no-frustum            do not cull against the view frustum\n"
    "  --patch-level N         Bezier patch subdivisions per segment, 1..32 (default 4)\n"
    "  --time SECONDS          animation time for --screenshot (default 0)\n"
    "  --shader-dir DIR        read GLSL from DIR instead of the embedded copies (F5 "
    "reloads)\n"
    "  --config-dir DIR        settings, bookmarks, recent files and imgui.ini (default:\n"
    "                          $BSPVIEW_CONFIG_DIR, else $XDG_CONFIG_HOME/bspview, else\n"
    "                          ~/.config/bspview)\n"
    "  --gl-path auto|33|43    draw submission: 43 multi-draw indirect (GL 4.3+), 33 the\n"
    "                          GL 3.3 glMultiDrawElements fallback (default auto)\n"
    "  --no-watch              do not reload the map when a compiler rewrites its files\n"
    "  --hdr                   draw a Source map's HDR lightmaps where it has both sets\n"
    "  --auto-exposure         HDR-lit Source maps: auto exposure (the engine's: the tone\n"
    "                          map scale follows the frame's brightness within the map's\n"
    "                          range; --screenshot lets it settle first) instead of the\n"
    "                          fixed scale (the map's start, 1 unless its\n"
    "                          env_tonemap_controller sets it)\n"
    "  --no-flares             do not draw Quake 3 flares (as ioquake3's r_flares 0)\n"
    "  --no-3d-sky             do not draw a Source map's 3D sky box, only the sky box\n"
    "                          (as the engine's r_3dsky 0)\n"
    "  --no-models             do not draw entity models and sprites (Quake 1 monsters,\n"
    "                          items, torches); their entities keep the debug boxes\n"
    "  --no-shader-stages      Quake 3: each surface as its first image x lightmap\n"
    "  --no-stage-folding      Quake 3: one pass per shader stage, as ioquake3 draws them\n"
    "                          (default: runs of stages folded into one pass where that\n"
    "                          draws the same image)\n"
    "  --no-depth-prepass      no depth-only pass before the shaded passes\n"
    "  --no-water-reflection   Source water's expensive path drawn as its cheap one (no\n"
    "                          planar reflection and refraction pass)\n"
    "  --no-liquid-view        with the eye in water, slime or lava, no colour over the\n"
    "                          view, no breathing or rippling picture (Quake, Quake 2)\n"
    "  --no-display-ramp       no full-screen doubling of an overbright (Quake 3) map's\n"
    "                          frame: half as bright, to measure what the pass costs\n"
    "  --no-hardware-gamma     Quake 3 as ioquake3 shows it windowed or without the\n"
    "                          display's gamma ramp (lightmaps times 4, no doubling);\n"
    "                          default: fullscreen with the ramp, as most players see it\n"
    "  --no-fog                no Quake 3 fog volumes and no Quake 1 distance fog\n"
    "  --texture-mode MODE     texture filter as gl_texturemode names it (GL_NEAREST,\n"
    "                          GL_LINEAR_MIPMAP_NEAREST, ...; the GL_ optional; default:\n"
    "                          the game's engine, see docs/fidelity.md)\n"
    "  --anisotropy N          anisotropic filtering 1..16, 1 off (default: the game's\n"
    "                          engine: 8 for Half-Life, 1 for the others), clamped to\n"
    "                          what the OpenGL driver offers\n"
    "  --quake2-look LOOK      Quake 2 maps as yamagi (Yamagi Quake II's default GL3\n"
    "                          renderer, vid_gamma 1.2) or classic (its GL1 renderer,\n"
    "                          id's look, vid_gamma 1) draws them (default: the saved\n"
    "                          setting, else yamagi)\n"
    "  --pass-timing MODE      --bench: GPU time per pass from timer queries (queries),\n"
    "                          from a glFinish at every pass (finish: for llvmpipe, whose\n"
    "                          timer queries time one tile), the same in the process's CPU\n"
    "                          time (cpu: llvmpipe's work, not inflated by other jobs) or\n"
    "                          not at all (off); auto: queries, or off on a software\n"
    "                          renderer (default auto)\n"
    "  --version               print the version and git revision\n"
    "  --help                  print this help\n";

} // namespace

std::string helpText() {
    return std::string(kHelpModes) + kHelpView;
}

std::string versionText() {
    return std::string("bspview ") + BSPV_VERSION + " (" + kGitRevision + ")\n";
}

} // namespace app
