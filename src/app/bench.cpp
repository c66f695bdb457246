#include "app/bench.h"

#include "app/headless.h"
#include "app/window.h"
#include "core/file.h"
#include "core/json.h"
#include "physics/player_move.h"
#include "render/gpu_timers.h"
#include "render/world_renderer.h"
#include "scene/view/visibility.h"
#include "scene/world/light_styles.h"

#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <numeric>
#include <optional>
#include <sstream>

namespace app {

namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

// CPU time of the whole process (every thread: llvmpipe's rasterisers too), in ms.
double processCpuMs() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) * 1e-6;
}

glm::vec3 catmullRom(const glm::vec3& p0, const glm::vec3& p1, const glm::vec3& p2,
                     const glm::vec3& p3, float t) {
    const float t2 = t * t, t3 = t2 * t;
    return 0.5f * ((2.0f * p1) + (-p0 + p2) * t + (2.0f * p0 - 5.0f * p1 + 4.0f * p2 - p3) * t2 +
                   (-p0 + 3.0f * p1 - 3.0f * p2 + p3) * t3);
}

// Mean, p50, p95, p99 and max of a series as a JSON object.
void writeStats(core::JsonWriter& j, std::string_view key, const std::vector<double>& v) {
    j.key(key).beginObject();
    const double mean = v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / v.size();
    j.field("mean", mean).field("p50", percentile(v, 50)).field("p95", percentile(v, 95));
    j.field("p99", percentile(v, 99));
    j.field("max", v.empty() ? 0.0 : *std::max_element(v.begin(), v.end()));
    j.endObject();
}

} // namespace

std::vector<double> benchWalkTicks(const bsp::Map& map, float eye_height,
                                   const std::vector<Keyframe>& starts) {
    std::vector<double> us;
    if (map.collision.kind == bsp::CollisionKind::None)
        return us;
    const physics::CollisionWorld world(map);
    const physics::PlayerMove move(world, physics::moveRulesFor(map.collision));
    us.reserve(starts.size() * kBenchWalkTicks);
    for (const Keyframe& k : starts) {
        physics::PlayerState s;
        s.origin = k.position - glm::vec3(0.0f, 0.0f, eye_height);
        move.settle(s);
        physics::MoveInput in;
        in.forward = 1.0f;
        for (int i = 0; i < kBenchWalkTicks; ++i) {
            in.yaw = k.yaw + 2.0f * static_cast<float>(i);
            in.jump = i % 60 == 30;
            const auto t = Clock::now();
            move.tick(s, in);
            us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t).count());
        }
    }
    return us;
}

double percentile(std::vector<double> values, double p) {
    if (values.empty())
        return 0.0;
    std::sort(values.begin(), values.end());
    const double rank = std::ceil(p / 100.0 * static_cast<double>(values.size()));
    const size_t i = static_cast<size_t>(std::clamp(rank, 1.0, static_cast<double>(values.size())));
    return values[i - 1];
}

core::Result<std::vector<Keyframe>> parsePathFile(const std::string& text,
                                                  const std::string& name) {
    std::vector<Keyframe> keys;
    std::istringstream in(text);
    std::string line;
    int line_no = 0;
    while (std::getline(in, line)) {
        ++line_no;
        if (const size_t hash = line.find('#'); hash != std::string::npos)
            line.resize(hash);
        std::istringstream ls(line);
        Keyframe k;
        if (!(ls >> k.position.x)) {
            continue; // blank line
        }
        if (!(ls >> k.position.y >> k.position.z >> k.pitch >> k.yaw)) {
            core::Error e = core::makeError(core::ErrorCode::BadValue, "line", line_no, {},
                                            "expected X Y Z PITCH YAW");
            e.file = name;
            return e;
        }
        keys.push_back(k);
        if (keys.size() > 100000) {
            core::Error e = core::makeError(core::ErrorCode::LimitExceeded, "line", line_no, {},
                                            "more than 100000 keyframes");
            e.file = name;
            return e;
        }
    }
    if (keys.empty()) {
        core::Error e = core::makeError(core::ErrorCode::BadValue, {}, -1, {}, "no keyframes");
        e.file = name;
        return e;
    }
    return keys;
}

scene::Camera samplePath(const std::vector<Keyframe>& keys, float t) {
    scene::Camera cam;
    if (keys.empty())
        return cam;
    if (keys.size() == 1) {
        cam.position = keys[0].position;
        cam.pitch = keys[0].pitch;
        cam.yaw = keys[0].yaw;
        return cam;
    }
    const float segments = static_cast<float>(keys.size() - 1);
    const float x = std::clamp(t, 0.0f, 1.0f) * segments;
    const size_t i = std::min(static_cast<size_t>(x), keys.size() - 2);
    const float u = x - static_cast<float>(i);
    const auto at = [&](ptrdiff_t k) {
        return keys[static_cast<size_t>(std::clamp<ptrdiff_t>(k, 0, keys.size() - 1))].position;
    };
    const auto si = static_cast<ptrdiff_t>(i);
    cam.position = catmullRom(at(si - 1), at(si), at(si + 1), at(si + 2), u);
    float dyaw = std::fmod(keys[i + 1].yaw - keys[i].yaw, 360.0f);
    if (dyaw > 180.0f)
        dyaw -= 360.0f;
    if (dyaw < -180.0f)
        dyaw += 360.0f;
    cam.yaw = keys[i].yaw + dyaw * u;
    cam.pitch = keys[i].pitch + (keys[i + 1].pitch - keys[i].pitch) * u;
    return cam;
}

namespace {

// The camera path: a fixed camera, a keyframe file, or the spawn points in order.
core::Result<std::vector<Keyframe>> benchKeyframes(const Options& options,
                                                   const scene::MapBundle& b) {
    std::vector<Keyframe> keys;
    if (options.camera_given) {
        auto cam = resolveCamera(options.camera, b);
        if (!cam)
            return cam.error();
        keys.push_back({cam->position, cam->pitch, cam->yaw});
    } else if (!options.path_file.empty()) {
        auto text = core::readFile(options.path_file);
        if (!text)
            return text.error();
        auto parsed = parsePathFile(std::string(text->begin(), text->end()), options.path_file);
        if (!parsed)
            return parsed.error();
        keys = std::move(*parsed);
    } else {
        for (size_t i = 0; i < b.spawns.size(); ++i) {
            CameraSpec cs;
            cs.spawn_index = static_cast<int>(i);
            if (auto cam = resolveCamera(cs, b))
                keys.push_back({cam->position, cam->pitch, cam->yaw});
        }
        if (keys.empty()) {
            auto cam = resolveCamera(CameraSpec(), b);
            keys.push_back({cam->position, 0.0f, 0.0f});
        }
    }
    return keys;
}

// How --bench times passes (--pass-timing): nullopt for off. auto: timer queries where the
// driver's are meaningful, off on a software renderer (there, "finish" measures).
std::optional<render::GpuTimers::Mode> passTimingMode(const std::string& setting) {
    if (setting == "queries" ||
        (setting == "auto" && render::timerQueriesMeaningful(render::caps().renderer)))
        return render::GpuTimers::Mode::Queries;
    if (setting == "finish")
        return render::GpuTimers::Mode::Finish;
    if (setting == "cpu")
        return render::GpuTimers::Mode::FinishCpu;
    return std::nullopt;
}

// Every series --bench records, one value per frame (GPU times: per frame read back).
struct BenchSeries {
    std::vector<double> frame_ms, vis_ms, submit_ms;
    std::vector<double> process_cpu_ms; // per frame, every thread of the process
    std::vector<double> leaves, faces, tris, calls, gl_calls, ranges_in, ranges_drawn, models;
    double first_frame_ms = 0.0;
    std::vector<double> gpu_frame_ms; // first mark to last: the clear and every pass
    // Per pass (render::kTimedPasses, then any other name the renderer timed): GPU time in
    // each frame read back, 0 where the pass did not run in that frame.
    std::vector<std::string> pass_names{std::begin(render::kTimedPasses),
                                        std::end(render::kTimedPasses)};
    std::vector<std::vector<double>> pass_ms = std::vector<std::vector<double>>(pass_names.size());

    // Takes the frame GpuTimers read last.
    void addGpuFrame(const render::GpuTimers& timers) {
        gpu_frame_ms.push_back(timers.latestFrameMs());
        for (std::vector<double>& v : pass_ms)
            v.push_back(0.0);
        for (const render::GpuTimers::PassTime& t : timers.latest()) {
            auto it = std::find(pass_names.begin(), pass_names.end(), t.name);
            if (it == pass_names.end()) {
                pass_names.push_back(t.name);
                pass_ms.emplace_back(gpu_frame_ms.size(), 0.0);
                it = pass_names.end() - 1;
            }
            pass_ms[static_cast<size_t>(it - pass_names.begin())].back() = t.ms;
        }
    }
    void addDrawStats(const scene::DrawStats& s, const render::SubmitStats& ss) {
        leaves.push_back(s.visible_leaves);
        faces.push_back(s.faces_drawn);
        models.push_back(s.models_drawn);
        tris.push_back(static_cast<double>(s.triangles));
        calls.push_back(s.draw_calls);
        gl_calls.push_back(ss.draw_calls);
        ranges_in.push_back(ss.ranges_appended);
        ranges_drawn.push_back(ss.ranges_drawn);
    }
};

// Renders options.frames frames along `keys`, each waited for (glFinish), into `out`.
void renderBenchFrames(const Options& options, MapSession& session, OffscreenRenderer& gl,
                       render::RenderOptions ro, render::GpuTimers* timers,
                       const std::vector<Keyframe>& keys, BenchSeries& out) {
    const scene::MapBundle& b = *session.bundle();
    scene::Visibility& visibility = *session.visibility();
    scene::DrawList list;
    const scene::VisOptions vis_options = visOptionsOf(options);
    const float far = scene::viewFarPlane(b);
    ro.timers = timers;
    const glm::vec4 clear = ro.clear_colour; // the map's; a pulled-in far plane's is per view
    out.frame_ms.reserve(static_cast<size_t>(options.frames));
    for (int f = 0; f < options.frames; ++f) {
        const auto t_frame = Clock::now();
        const double cpu_frame = processCpuMs();
        const float t = options.frames > 1
                            ? static_cast<float>(f) / static_cast<float>(options.frames - 1)
                            : 0.0f;
        scene::Camera cam = samplePath(keys, t);
        cam.fov_x = options.fov;
        cam.aspect = static_cast<float>(options.width) / static_cast<float>(options.height);
        cam.z_far = far;
        ro.time = f / 60.0;
        // The eye in a liquid: the frame is culled and drawn by its breathing camera.
        const scene::EyeLiquid eye = eyeLiquidOf(b, cam, ro.time, ro.liquid_view);
        cam = eye.camera;
        ro.view_blend = eye.blend;
        ro.screen_warp = eye.screen_warp;
        const auto t_vis = Clock::now();
        visibility.update(cam, vis_options, list);
        // A Source 3D sky box: its own visible set from its camera (nullptr: none in view).
        const scene::RegionView* region =
            session.skyRegion(cam, vis_options, list, options.sky_region);
        // A planar water's reflection: its own visible set from the mirrored camera.
        const scene::ReflectionView* reflection =
            session.waterReflection(cam, vis_options, list, options.water_reflection);
        out.vis_ms.push_back(msSince(t_vis));
        const auto t_submit = Clock::now();
        gl.target.bind();
        if (timers) {
            // Collects a frame issued earlier (never waits; render/gpu_timers.h).
            const uint64_t read_before = timers->framesRead();
            timers->beginFrame();
            if (timers->framesRead() != read_before)
                out.addGpuFrame(*timers);
        }
        ro.frame_seconds = 1.0f / 60.0f; // auto exposure moves as at 60 frames a second
        ro.style_values =
            scene::lightStyleValues(ro.time, nullptr, b.profile.entities.light_styles);
        ro.clear_colour = clearColourOf(b.profile, cam, fogShown(ro), clear);
        gl.renderer.draw(list, cam, ro, region, reflection);
        out.submit_ms.push_back(msSince(t_submit));
        glFinish();
        const double ms = msSince(t_frame);
        out.process_cpu_ms.push_back(processCpuMs() - cpu_frame);
        if (f == 0)
            out.first_frame_ms = ms;
        out.frame_ms.push_back(ms);
        out.addDrawStats(list.stats, gl.renderer.submitStats());
    }
    if (timers && timers->mode() != render::GpuTimers::Mode::Queries) {
        timers->beginFrame(); // completes the last frame
        out.addGpuFrame(*timers);
    }
}

struct BenchReport {
    BenchReport(const Options& o, const scene::MapBundle& b, const std::vector<Keyframe>& k,
                const BenchSeries& s)
        : options(o), bundle(b), keys(k), series(s) {}
    const Options& options;
    const scene::MapBundle& bundle;
    const std::vector<Keyframe>& keys;
    const BenchSeries& series;
    const render::GpuTimers* timers = nullptr; // nullptr: passes not timed
    double upload_ms = 0.0, load_ms = 0.0, process_s = 0.0;
    std::vector<double> walk_us;
    const char* drawPath = "";
};

// "gpu_ms": the whole frame ("world", kept under that name for older readers) and each pass.
void writeGpuTimes(core::JsonWriter& j, const BenchReport& r) {
    const BenchSeries& s = r.series;
    j.key("gpu_ms").beginObject();
    j.field("pass_timing", !r.timers                                              ? "off"
                           : r.timers->mode() == render::GpuTimers::Mode::Queries ? "timer queries"
                           : r.timers->mode() == render::GpuTimers::Mode::Finish
                               ? "glFinish per pass"
                               : "glFinish per pass, process CPU time");
    writeStats(j, "world", s.gpu_frame_ms);
    j.key("passes").beginObject();
    for (size_t i = 0; i < s.pass_names.size(); ++i)
        writeStats(j, s.pass_names[i], s.pass_ms[i]);
    j.endObject();
    j.field("frames_timed", static_cast<uint64_t>(s.gpu_frame_ms.size()));
    j.field("dropped_samples",
            r.timers ? r.timers->framesInvalid() + r.timers->framesNotReady() : 0);
    j.endObject();
}

std::string writeBenchJson(const BenchReport& r) {
    const Options& options = r.options;
    const scene::MapBundle& b = r.bundle;
    const BenchSeries& s = r.series;
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const double mean_frame = std::accumulate(s.frame_ms.begin(), s.frame_ms.end(), 0.0) /
                              static_cast<double>(s.frame_ms.size());
    core::JsonWriter j;
    j.beginObject();
    j.field("file", b.map.name).field("frames", options.frames);
    j.field("width", options.width).field("height", options.height);
    j.field("path", options.camera_given         ? "fixed camera"
                    : !options.path_file.empty() ? options.path_file
                                                 : "spawn points");
    j.field("keyframes", static_cast<uint64_t>(r.keys.size()));
    j.key("load_ms").beginObject();
    j.field("read_parse", b.timings.parse_s * 1000.0);
    j.field("textures", b.timings.textures_s * 1000.0);
    j.field("texture_cache_write", b.timings.texture_cache_write_s * 1000.0);
    j.field("sky", b.timings.sky_s * 1000.0);
    j.field("lightmaps", b.timings.lightmaps_s * 1000.0);
    j.field("mesh", b.timings.mesh_s * 1000.0);
    j.field("models", b.timings.models_s * 1000.0);
    j.field("upload", r.upload_ms);
    j.field("first_frame", s.first_frame_ms);
    j.field("total_to_first_frame", r.load_ms + s.first_frame_ms);
    j.endObject();
    j.field("texture_cache", b.texture_cache);
    writeStats(j, "frame_ms", s.frame_ms);
    j.field("fps", mean_frame > 0 ? 1000.0 / mean_frame : 0.0);
    j.key("cpu_ms").beginObject();
    writeStats(j, "visibility", s.vis_ms);
    writeStats(j, "submission", s.submit_ms);
    // The whole frame's CPU time over every thread (on llvmpipe: the drawing itself), which
    // other jobs on the machine do not inflate as they do frame_ms.
    writeStats(j, "process", s.process_cpu_ms);
    j.endObject();
    writeGpuTimes(j, r);
    j.key("per_frame").beginObject();
    writeStats(j, "visible_leaves", s.leaves);
    writeStats(j, "faces", s.faces);
    writeStats(j, "models_drawn", s.models);
    writeStats(j, "triangles", s.tris);
    writeStats(j, "draw_calls", s.calls); // batches: one per (pass, model, material)
    // What reached GL: calls (the depth pre-pass adds one per brush model), the ranges handed
    // to the submitter and the draws left inside those calls after merging adjacent ones.
    writeStats(j, "gl_draw_calls", s.gl_calls);
    writeStats(j, "ranges_appended", s.ranges_in);
    writeStats(j, "ranges_drawn", s.ranges_drawn);
    j.endObject();
    // Walk mode's cost per 60 Hz tick (movement and its traces), CPU only.
    j.key("walk").beginObject();
    j.field("ticks", static_cast<uint64_t>(r.walk_us.size()));
    writeStats(j, "tick_us", r.walk_us);
    j.endObject();
    j.field("models_total", static_cast<uint64_t>(b.models.instances.size()));
    j.field("gl_path", r.drawPath);
    j.field("peak_rss_mib", static_cast<double>(usage.ru_maxrss) / 1024.0);
    j.field("process_s", r.process_s);
    writeGlIdentity(j);
    j.field("gl_errors", render::glErrorCount());
    j.endObject();
    return j.str();
}

} // namespace

int runBench(const Options& options) {
    const auto t_process = Clock::now();
    auto gl = createOffscreenRenderer(options, "bspview (bench)");
    if (!gl)
        return reportError(gl.error());
    auto render_options = renderOptionsOf(options);
    if (!render_options)
        return reportError(render_options.error());
    render::RenderOptions& ro = *render_options;

    // Load, timed by stage.
    const auto t_load = Clock::now();
    auto loaded = scene::loadMapBundle(mapSpecOf(options), loadSettingsOf(options));
    if (!loaded)
        return reportError(loaded.error());
    const auto t_upload = Clock::now();
    MapSession session((*gl)->renderer);
    if (auto st = session.adopt(std::move(*loaded)); !st)
        return reportError(st.error());
    glFinish();
    const double upload_ms = msSince(t_upload);
    const scene::MapBundle& b = *session.bundle();
    ro.clear_colour = clearColourOf(b.profile.view, ro.clear_colour);
    auto keys = benchKeyframes(options, b);
    if (!keys)
        return reportError(keys.error());

    const std::optional<render::GpuTimers::Mode> timing = passTimingMode(options.pass_timing);
    render::GpuTimers timers(timing.value_or(render::GpuTimers::Mode::Queries));
    BenchSeries series;
    const double load_ms = msSince(t_load);
    renderBenchFrames(options, session, **gl, ro, timing ? &timers : nullptr, *keys, series);
    render::checkGlErrors("bench");

    BenchReport report(options, b, *keys, series);
    report.timers = timing ? &timers : nullptr;
    report.upload_ms = upload_ms;
    report.load_ms = load_ms;
    report.walk_us = benchWalkTicks(b.map, b.profile.view.eye_height, *keys);
    report.drawPath = render::drawPathName((*gl)->renderer.drawPath());
    report.process_s = std::chrono::duration<double>(Clock::now() - t_process).count();
    std::cout << writeBenchJson(report) << "\n";
    return render::glErrorCount() == 0 ? 0 : 2;
}

} // namespace app
