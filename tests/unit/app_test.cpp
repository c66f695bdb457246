// The GL-free parts of the app: command line, camera path, statistics, fly camera.
#include "app/bench.h"
#include "app/cli.h"
#include "app/fly_camera.h"
#include "app/headless.h"
#include "app/map_session.h"
#include "app/pass_times_panel.h"
#include "render/gpu_timers.h"

#include <gtest/gtest.h>

TEST(Cli, ParsesEveryFlag) {
    auto o = app::parseArguments({"map.bsp",
                                  "--screenshot",
                                  "o.png",
                                  "--camera",
                                  "1,2,3,10,90",
                                  "--size",
                                  "640x360",
                                  "--fov",
                                  "100",
                                  "--base",
                                  "a",
                                  "--base",
                                  "b",
                                  "--view",
                                  "lightmap",
                                  "--wireframe",
                                  "--no-pvs",
                                  "--no-frustum",
                                  "--patch-level",
                                  "8",
                                  "--time",
                                  "2.5",
                                  "--lock-camera",
                                  "spawn:2",
                                  "--overlay",
                                  "--config-dir",
                                  "/tmp/cfg"});
    ASSERT_TRUE(o.ok()) << o.error().message();
    EXPECT_EQ(o->mode, app::Mode::Screenshot);
    EXPECT_EQ(o->map, "map.bsp");
    EXPECT_FALSE(o->camera.from_spawn);
    EXPECT_EQ(o->camera.yaw, 90.0f);
    EXPECT_EQ(o->width, 640);
    EXPECT_EQ(o->base_dirs.size(), 2u);
    EXPECT_FALSE(o->pvs);
    EXPECT_EQ(o->patch_level, 8);
    EXPECT_TRUE(o->lock_camera_given);
    EXPECT_EQ(o->lock_camera.spawn_index, 2);
    EXPECT_TRUE(o->overlay);
    EXPECT_EQ(o->config_dir, "/tmp/cfg");
    EXPECT_TRUE(o->fov_given);
    EXPECT_TRUE(o->view_given);
    auto d = app::parseArguments({"m.bsp"});
    ASSERT_TRUE(d.ok());
    EXPECT_FALSE(d->overlay || d->fov_given || d->view_given);
    EXPECT_TRUE(d->config_dir.empty());
    EXPECT_EQ(o->gl_path, "auto");
    auto b =
        app::parseArguments({"--bench", "--frames", "12", "--path", "p.txt", "--gl-path", "33"});
    ASSERT_TRUE(b.ok());
    EXPECT_EQ(b->mode, app::Mode::Bench);
    EXPECT_EQ(b->frames, 12);
    EXPECT_EQ(b->gl_path, "33");
    EXPECT_TRUE(b->flares && b->stages && b->watch);
    auto n = app::parseArguments(
        {"--screenshot", "x.png", "--no-flares", "--no-shader-stages", "--no-watch"});
    ASSERT_TRUE(n.ok());
    EXPECT_FALSE(n->flares);
    EXPECT_FALSE(n->stages);
    EXPECT_FALSE(n->watch);
    EXPECT_TRUE(n->walk_script.empty());
    EXPECT_TRUE(n->depth_prepass && n->display_ramp && n->fog && n->hardware_gamma);
    EXPECT_EQ(n->pass_timing, "auto");
    auto passes = app::parseArguments({"--bench", "--no-depth-prepass", "--no-display-ramp",
                                       "--no-fog", "--pass-timing", "finish"});
    ASSERT_TRUE(passes.ok());
    EXPECT_FALSE(passes->depth_prepass || passes->display_ramp || passes->fog);
    EXPECT_EQ(passes->pass_timing, "finish");
    EXPECT_TRUE(app::parseArguments({"--bench", "--pass-timing", "cpu"}).ok());
    auto ro = app::renderOptionsOf(*passes);
    ASSERT_TRUE(ro.ok());
    EXPECT_FALSE(ro->depth_prepass || ro->display_ramp || ro->fog);
    EXPECT_TRUE(ro->flares && ro->shader_stages && ro->hardware_gamma);
    auto windowed = app::parseArguments({"--no-hardware-gamma"});
    ASSERT_TRUE(windowed.ok());
    EXPECT_FALSE(windowed->hardware_gamma);
    auto windowed_ro = app::renderOptionsOf(*windowed);
    ASSERT_TRUE(windowed_ro.ok());
    EXPECT_FALSE(windowed_ro->hardware_gamma);
    EXPECT_TRUE(windowed_ro->display_ramp); // the ramp pass stays asked for; the map decides
    EXPECT_FALSE(passes->quake2_look);
    auto look = app::parseArguments({"--screenshot", "x.png", "--quake2-look", "classic"});
    ASSERT_TRUE(look.ok());
    EXPECT_EQ(look->quake2_look, game::Quake2Look::Classic);
    EXPECT_EQ(app::loadSettingsOf(*look).game.quake2_look, game::Quake2Look::Classic);
    EXPECT_EQ(app::loadSettingsOf(*passes).game.quake2_look, game::Quake2Look::Yamagi);
    auto w = app::parseArguments({"--screenshot", "x.png", "--walk-script", "walk.txt"});
    ASSERT_TRUE(w.ok());
    EXPECT_EQ(w->walk_script, "walk.txt");
}

TEST(Cli, RejectsBadValuesWithACode) {
    for (const auto& args : std::vector<std::vector<std::string>>{{"--size", "0x5"},
                                                                  {"--size", "abc"},
                                                                  {"--fov", "500"},
                                                                  {"--camera", "1,2,3"},
                                                                  {"--camera", "spawn:x"},
                                                                  {"--patch-level", "99"},
                                                                  {"--frames", "0"},
                                                                  {"--gl-path", "44"},
                                                                  {"--gl-path"},
                                                                  {"--pass-timing", "gpu"},
                                                                  {"--pass-timing"},
                                                                  {"--bogus"},
                                                                  {"a.bsp", "b.bsp"},
                                                                  {"--screenshot"},
                                                                  {"--config-dir"},
                                                                  {"--config-dir", ""},
                                                                  {"--walk-script"},
                                                                  {"--walk-script", "w.txt"},
                                                                  {"--view", "bogus"},
                                                                  {"--view"},
                                                                  {"--quake2-look", "gl1"},
                                                                  {"--quake2-look"}}) {
        auto o = app::parseArguments(args);
        ASSERT_FALSE(o.ok()) << args[0];
        EXPECT_EQ(o.error().code, core::ErrorCode::BadArgument);
    }
}

TEST(Bench, PathFileAndSampling) {
    auto keys = app::parsePathFile("# a path\n0 0 0 0 0\n\n100 0 0 10 350  # comment\n", "p.txt");
    ASSERT_TRUE(keys.ok());
    ASSERT_EQ(keys->size(), 2u);
    const scene::Camera start = app::samplePath(*keys, 0.0f);
    const scene::Camera mid = app::samplePath(*keys, 0.5f);
    const scene::Camera end = app::samplePath(*keys, 1.0f);
    EXPECT_FLOAT_EQ(start.position.x, 0.0f);
    EXPECT_FLOAT_EQ(end.position.x, 100.0f);
    EXPECT_NEAR(mid.position.x, 50.0f, 1e-3f);
    EXPECT_NEAR(mid.yaw, -5.0f, 1e-3f); // shortest arc from 0 to 350 goes through -5
    EXPECT_NEAR(mid.pitch, 5.0f, 1e-3f);
    auto bad = app::parsePathFile("1 2 3\n", "p.txt");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().index, 1);
    EXPECT_FALSE(app::parsePathFile("# nothing\n", "p.txt").ok());
}

TEST(Bench, Percentiles) {
    std::vector<double> v;
    for (int i = 1; i <= 100; ++i)
        v.push_back(i);
    EXPECT_EQ(app::percentile(v, 50), 50.0);
    EXPECT_EQ(app::percentile(v, 95), 95.0);
    EXPECT_EQ(app::percentile(v, 99), 99.0);
    EXPECT_EQ(app::percentile(v, 100), 100.0);
    EXPECT_EQ(app::percentile({}, 50), 0.0);
}

TEST(FlyCamera, MovesAlongViewAndClampsPitch) {
    app::FlyCamera fly;
    fly.camera.yaw = 90.0f;
    app::FlyInput in;
    in.forward = true;
    fly.update(in, 1.0f);
    EXPECT_NEAR(fly.camera.position.y, fly.speed, 1e-3f);
    EXPECT_NEAR(fly.camera.position.x, 0.0f, 1e-3f);
    in = app::FlyInput();
    in.mouse_dy = 10000.0f;
    fly.update(in, 0.016f);
    EXPECT_EQ(fly.camera.pitch, 89.0f);
    const float before = fly.speed;
    fly.changeSpeed(1.0f);
    EXPECT_NEAR(fly.speed, before * 1.25f, 1e-3f);
}

// Ctrl moves the camera down and also starts chords (Ctrl+1..9 saves a bookmark): a chord
// gives back the height Ctrl had taken away, keeps a turn made meanwhile, and stops the descent
// until Ctrl is released.
TEST(FlyCamera, CtrlChordUndoesTheCtrlDescent) {
    app::FlyCamera fly;
    fly.camera.position = glm::vec3(10.0f, 20.0f, 30.0f);
    app::CtrlChord ctrl;
    EXPECT_TRUE(ctrl.descends());
    ctrl.pressed(fly.camera);
    app::FlyInput in;
    in.down = ctrl.descends();
    in.mouse_dx = 10.0f;
    fly.update(in, 0.1f); // a few frames of Ctrl held, and a turn
    EXPECT_LT(fly.camera.position.z, 30.0f);
    const float yaw = fly.camera.yaw;
    fly.camera = ctrl.chord(fly.camera); // Ctrl+1
    EXPECT_FLOAT_EQ(fly.camera.position.z, 30.0f);
    EXPECT_FLOAT_EQ(fly.camera.position.x, 10.0f);
    EXPECT_FLOAT_EQ(fly.camera.yaw, yaw) << "the turn stays";
    EXPECT_FALSE(ctrl.descends()) << "still held: no more descent";
    fly.camera.position.z = 25.0f;
    EXPECT_FLOAT_EQ(ctrl.chord(fly.camera).position.z, 25.0f) << "a second chord changes nothing";
    ctrl.released();
    EXPECT_TRUE(ctrl.descends());
}

// Every mode reads the command line's render and visibility flags through these.
TEST(SessionOptions, RenderAndVisibilityFlagsAreReadInOnePlace) {
    app::Options o;
    auto plain = app::renderOptionsOf(o);
    ASSERT_TRUE(plain.ok());
    EXPECT_EQ(plain->view, render::ViewMode::Lit);
    EXPECT_FALSE(plain->wireframe);
    EXPECT_TRUE(plain->flares && plain->shader_stages && plain->fold_stages);
    EXPECT_EQ(plain->draw_path, render::DrawPath::Auto);

    o.view = "lightmap";
    o.wireframe = true;
    o.gl_path = "33";
    o.flares = false;
    o.stages = false;
    o.fold_stages = false;
    auto ro = app::renderOptionsOf(o);
    ASSERT_TRUE(ro.ok());
    EXPECT_EQ(ro->view, render::ViewMode::Lightmap);
    EXPECT_TRUE(ro->wireframe);
    EXPECT_EQ(ro->draw_path, render::DrawPath::Fallback);
    EXPECT_FALSE(ro->flares || ro->shader_stages || ro->fold_stages);

    o.view = "no-such-view";
    EXPECT_FALSE(app::renderOptionsOf(o).ok());

    o.pvs = false;
    EXPECT_FALSE(app::visOptionsOf(o).pvs);
    EXPECT_TRUE(app::visOptionsOf(o).frustum);
    o.frustum = false;
    EXPECT_FALSE(app::visOptionsOf(o).frustum);
}

TEST(MapSession, ClearColourIsTheGamesWhenTheMapStatesOne) {
    game::ViewRule view;
    const glm::vec4 viewer{0.05f, 0.05f, 0.07f, 1.0f};
    EXPECT_EQ(app::clearColourOf(view), viewer); // RenderOptions' own background
    EXPECT_EQ(app::clearColourOf(view, glm::vec4(0, 1, 0, 1)), glm::vec4(0, 1, 0, 1));
    bsp::Map quake1;
    quake1.format = bsp::Format::Quake1; // black, as QuakeSpasm (game/quake1.cpp)
    view = game::profileFor(quake1).view;
    EXPECT_EQ(app::clearColourOf(view, glm::vec4(0, 1, 0, 1)), glm::vec4(0, 0, 0, 1));
}

// The Debug window's per-pass table: every pass of the list in order, "-" for those that did not
// run, then the names the viewer adds.
TEST(PassTimes, RowsFollowTheListAndKeepOtherNames) {
    const std::vector<render::GpuTimers::PassTime> frame = {
        {"ui", 0.5}, {"opaque", 2.0}, {"clear", 0.25}, {"display ramp", 1.0}};
    const std::vector<app::PassTimeRow> rows = app::passTimeRows(frame);
    const size_t known = std::size(render::kTimedPasses);
    ASSERT_EQ(rows.size(), known + 1);
    for (size_t i = 0; i < known; ++i)
        EXPECT_EQ(rows[i].name, render::kTimedPasses[i]);
    EXPECT_EQ(rows[known].name, "ui");
    EXPECT_DOUBLE_EQ(rows[known].ms, 0.5);
    int ran = 0;
    for (const app::PassTimeRow& r : rows) {
        ran += r.ran;
        if (r.name == "opaque") {
            EXPECT_DOUBLE_EQ(r.ms, 2.0);
        }
        if (!r.ran) {
            EXPECT_EQ(r.ms, 0.0) << r.name;
        }
    }
    EXPECT_EQ(ran, 4);
}

TEST(PassTimes, SoftwareRenderersAreNotTimedByQueries) {
    EXPECT_FALSE(render::timerQueriesMeaningful("llvmpipe (LLVM 15.0.6, 256 bits)"));
    EXPECT_FALSE(render::timerQueriesMeaningful("softpipe"));
    EXPECT_TRUE(render::timerQueriesMeaningful("NVIDIA H100 80GB HBM3/PCIe/SSE2"));
    EXPECT_TRUE(render::timerQueriesMeaningful("AMD Radeon RX 7900 XTX (radeonsi, navi31)"));
}
