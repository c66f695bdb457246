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
#include <iostream>
#include <numeric>
#include <sstream>

namespace app {

namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
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

std::vector<double> benchWalkTicks(const bsp::Map& map, const std::vector<Keyframe>& starts) {
    std::vector<double> us;
    if (map.collision.kind == bsp::CollisionKind::None)
        return us;
    const physics::CollisionWorld world(map);
    const physics::PlayerMove move(world, physics::moveRulesFor(map.collision));
    us.reserve(starts.size() * kBenchWalkTicks);
    for (const Keyframe& k : starts) {
        physics::PlayerState s;
        s.origin = k.position - glm::vec3(0.0f, 0.0f, map.eye_height);
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

int runBench(const Options& options) {
    const auto t_process = Clock::now();
    auto gl = createOffscreenRenderer(options, "bspview (bench)");
    if (!gl)
        return reportError(gl.error());
    render::WorldRenderer& renderer = (*gl)->renderer;
    render::RenderTarget& target = (*gl)->target;

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
    MapSession session(renderer);
    if (auto st = session.adopt(std::move(*loaded)); !st)
        return reportError(st.error());
    glFinish();
    const double upload_ms = msSince(t_upload);
    const scene::MapBundle& b = *session.bundle();
    ro.clear_colour = clearColourOf(b.map, ro.clear_colour);

    // The path: a fixed camera, a keyframe file, or the spawn points in order.
    std::vector<Keyframe> keys;
    if (options.camera_given) {
        auto cam = resolveCamera(options.camera, b);
        if (!cam)
            return reportError(cam.error());
        keys.push_back({cam->position, cam->pitch, cam->yaw});
    } else if (!options.path_file.empty()) {
        auto text = core::readFile(options.path_file);
        if (!text)
            return reportError(text.error());
        auto parsed = parsePathFile(std::string(text->begin(), text->end()), options.path_file);
        if (!parsed)
            return reportError(parsed.error());
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

    scene::Visibility& visibility = *session.visibility();
    scene::DrawList list;
    const scene::VisOptions vis_options = visOptionsOf(options);

    // GPU time per frame through the same ring of timer queries the viewer's pass timings use,
    // read a few frames later (never stalls; render/gpu_timers.h).
    render::GpuTimers gpu_timer;
    std::vector<double> frame_ms, vis_ms, submit_ms, gpu_ms;
    std::vector<double> leaves, faces, tris, calls, gl_calls, ranges_in, ranges_drawn, models;
    frame_ms.reserve(static_cast<size_t>(options.frames));
    const float far = scene::farPlaneForBounds(b.map.worldMins(), b.map.worldMaxs());
    double first_frame_ms = 0.0;
    const double load_ms = msSince(t_load);
    for (int f = 0; f < options.frames; ++f) {
        const auto t_frame = Clock::now();
        const float t = options.frames > 1
                            ? static_cast<float>(f) / static_cast<float>(options.frames - 1)
                            : 0.0f;
        scene::Camera cam = samplePath(keys, t);
        cam.fov_x = options.fov;
        cam.aspect = static_cast<float>(options.width) / static_cast<float>(options.height);
        cam.z_far = far;
        const auto t_vis = Clock::now();
        visibility.update(cam, vis_options, list);
        vis_ms.push_back(msSince(t_vis));
        const auto t_submit = Clock::now();
        target.bind();
        const uint64_t read_before = gpu_timer.framesRead();
        gpu_timer.beginFrame(); // collects the frame issued kFrames - 1 frames ago
        if (gpu_timer.framesRead() != read_before && !gpu_timer.latest().empty())
            gpu_ms.push_back(gpu_timer.latest().front().ms);
        gpu_timer.begin("world");
        ro.time = f / 60.0;
        ro.style_values = scene::lightStyleValues(ro.time, nullptr, &b.map);
        renderer.draw(list, cam, ro);
        gpu_timer.end();
        submit_ms.push_back(msSince(t_submit));
        glFinish();
        const double ms = msSince(t_frame);
        if (f == 0)
            first_frame_ms = ms;
        frame_ms.push_back(ms);
        leaves.push_back(list.stats.visible_leaves);
        faces.push_back(list.stats.faces_drawn);
        models.push_back(list.stats.models_drawn);
        tris.push_back(static_cast<double>(list.stats.triangles));
        calls.push_back(list.stats.draw_calls);
        const render::SubmitStats& ss = renderer.submitStats();
        gl_calls.push_back(ss.draw_calls);
        ranges_in.push_back(ss.ranges_appended);
        ranges_drawn.push_back(ss.ranges_drawn);
    }
    render::checkGlErrors("bench");

    const std::vector<double> walk_us = benchWalkTicks(b.map, keys);

    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const double total_s = std::chrono::duration<double>(Clock::now() - t_process).count();
    const double mean_frame = std::accumulate(frame_ms.begin(), frame_ms.end(), 0.0) /
                              static_cast<double>(frame_ms.size());

    core::JsonWriter j;
    j.beginObject();
    j.field("file", b.map.name).field("frames", options.frames);
    j.field("width", options.width).field("height", options.height);
    j.field("path", options.camera_given         ? "fixed camera"
                    : !options.path_file.empty() ? options.path_file
                                                 : "spawn points");
    j.field("keyframes", static_cast<uint64_t>(keys.size()));
    j.key("load_ms").beginObject();
    j.field("read_parse", b.timings.parse_s * 1000.0);
    j.field("textures", b.timings.textures_s * 1000.0);
    j.field("texture_cache_write", b.timings.texture_cache_write_s * 1000.0);
    j.field("mesh", b.timings.mesh_s * 1000.0);
    j.field("models", b.timings.models_s * 1000.0);
    j.field("upload", upload_ms);
    j.field("first_frame", first_frame_ms);
    j.field("total_to_first_frame", load_ms + first_frame_ms);
    j.endObject();
    j.field("texture_cache", b.texture_cache);
    writeStats(j, "frame_ms", frame_ms);
    j.field("fps", mean_frame > 0 ? 1000.0 / mean_frame : 0.0);
    j.key("cpu_ms").beginObject();
    writeStats(j, "visibility", vis_ms);
    writeStats(j, "submission", submit_ms);
    j.endObject();
    j.key("gpu_ms").beginObject();
    writeStats(j, "world", gpu_ms);
    j.field("dropped_samples", gpu_timer.framesInvalid() + gpu_timer.framesNotReady());
    j.endObject();
    j.key("per_frame").beginObject();
    writeStats(j, "visible_leaves", leaves);
    writeStats(j, "faces", faces);
    writeStats(j, "models_drawn", models);
    writeStats(j, "triangles", tris);
    writeStats(j, "draw_calls", calls); // batches: one per (pass, model, material)
    // What reached GL: calls (the depth pre-pass adds one per brush model), the ranges handed
    // to the submitter and the draws left inside those calls after merging adjacent ones.
    writeStats(j, "gl_draw_calls", gl_calls);
    writeStats(j, "ranges_appended", ranges_in);
    writeStats(j, "ranges_drawn", ranges_drawn);
    j.endObject();
    // Walk mode's cost per 60 Hz tick (movement and its traces), CPU only.
    j.key("walk").beginObject();
    j.field("ticks", static_cast<uint64_t>(walk_us.size()));
    writeStats(j, "tick_us", walk_us);
    j.endObject();
    j.field("models_total", static_cast<uint64_t>(b.models.instances.size()));
    j.field("gl_path", render::drawPathName(renderer.drawPath()));
    j.field("peak_rss_mib", static_cast<double>(usage.ru_maxrss) / 1024.0);
    j.field("process_s", total_s);
    j.field("gl_renderer", render::caps().renderer);
    j.field("gl_errors", render::glErrorCount());
    j.endObject();
    std::cout << j.str() << "\n";
    return render::glErrorCount() == 0 ? 0 : 2;
}

} // namespace app
