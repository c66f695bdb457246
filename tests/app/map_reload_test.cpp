// The app's map session on a GL context: a map that fails to reach the GPU changes nothing, and
// reload on recompile (issue #18): a map rewritten on disk while the viewer runs. The frame
// loop is driven here as the viewer drives it (MapReloader::update once a frame, on a GL
// context); the clock is the test's, the loads run on their worker thread for real.
#include "app/map_reload.h"
#include "app/map_session.h"
#include "app/settings.h"
#include "render/gl_fixture.h"
#include "render/world_renderer.h"
#include "scene/load/map_bundle.h"
#include "support/q2_builder.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

class MapReload : public gltest::GlFixture {};

// The viewer, --screenshot and --bench take maps through a MapSession: a map that fails to
// reach the GPU leaves the current bundle, visibility and GPU copy as they were.
TEST_F(MapReload, MapSessionKeepsTheCurrentMapWhenANewOneFails) {
    render::WorldRenderer r;
    std::string error;
    ASSERT_TRUE(r.init(render::GlslLibrary(), &error)) << error;
    app::MapSession session(r);
    EXPECT_FALSE(session.hasMap());
    const std::string demo = std::string(BSPV_SOURCE_DIR) + "/assets/maps/demo.bsp";
    ASSERT_TRUE(session.load(demo, scene::LoadSettings()).ok());
    const scene::MapBundle* first = session.bundle();
    const scene::Visibility* first_vis = session.visibility();
    ASSERT_NE(first_vis, nullptr);
    const uint64_t vertex_bytes = r.gpuStats().vertex_bytes;

    auto loaded = scene::loadMapBundle(std::string(BSPV_SHARED_MAPS_DIR) + "/q1/lq_e1m1.bsp",
                                       scene::LoadSettings());
    ASSERT_TRUE(loaded.ok()) << loaded.error().message();
    std::unique_ptr<scene::MapBundle> broken = std::move(*loaded);
    broken->textures.clear(); // no longer parallel to the materials: the upload refuses it
    EXPECT_FALSE(session.adopt(std::move(broken)).ok());
    EXPECT_EQ(session.bundle(), first);
    EXPECT_EQ(session.visibility(), first_vis);
    EXPECT_EQ(r.gpuStats().vertex_bytes, vertex_bytes);
    EXPECT_FALSE(session.load("/no/such/map.bsp", scene::LoadSettings()).ok());
    EXPECT_EQ(session.bundle(), first);

    ASSERT_TRUE(
        session.load(std::string(BSPV_SHARED_MAPS_DIR) + "/q1/lq_e1m1.bsp", scene::LoadSettings())
            .ok());
    EXPECT_EQ(session.bundle()->map.name, "lq_e1m1.bsp");
    EXPECT_NE(r.gpuStats().vertex_bytes, vertex_bytes);
    ASSERT_TRUE(session.setPatchLevel(2).ok());
    EXPECT_EQ(session.bundle()->mesh.patch_level, 2);
}

void writeBytes(const fs::path& p, const std::vector<uint8_t>& bytes) {
    std::ofstream(p, std::ios::binary | std::ios::trunc)
        .write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()));
}

std::vector<uint8_t> readBytes(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

// Frames of 50 ms of the test's clock until the reloader reports something (at most 20 s of
// real time for the worker's load).
app::MapReloader::Event runFrames(app::MapReloader& reloader,
                                  app::MapReloader::Clock::time_point* now, std::string* error,
                                  int* frames = nullptr) {
    for (int i = 0; i < 4000; ++i) {
        *now += 50ms;
        const auto event = reloader.update(*now, scene::LoadSettings(), error);
        if (frames)
            *frames = i + 1;
        if (event != app::MapReloader::Event::None)
            return event;
        std::this_thread::sleep_for(5ms);
    }
    return app::MapReloader::Event::None;
}

} // namespace

TEST_F(MapReload, TruncatedWriteKeepsTheMapAndTheNextGoodWriteLoads) {
    const fs::path dir = fs::temp_directory_path() / ("bspv_reload_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    const fs::path map = dir / "m.bsp";
    const std::vector<uint8_t> demo = readBytes(fs::path(BSPV_SOURCE_DIR) / "assets/maps/demo.bsp");
    ASSERT_GT(demo.size(), 4096u);
    writeBytes(map, demo);

    render::GlslLibrary glsl;
    render::WorldRenderer renderer;
    std::string error;
    ASSERT_TRUE(renderer.init(glsl, &error)) << error;
    app::MapSession session(renderer);
    ASSERT_TRUE(session.load(map.string(), {}).ok());
    const scene::MapBundle* first = session.bundle();
    const size_t first_faces = first->map.faces.size();
    const std::string key = app::mapKey(map.string());

    app::MapReloader reloader(session, core::FileWatch(200ms, 0ms));
    reloader.follow();
    auto now = app::MapReloader::Clock::now();
    // Nothing changed: frames pass, no load starts.
    for (int i = 0; i < 20; ++i) {
        now += 50ms;
        EXPECT_EQ(reloader.update(now, {}, &error), app::MapReloader::Event::None);
    }
    EXPECT_FALSE(reloader.loading());

    // A compiler caught half way: the file cut short.
    writeBytes(map, std::vector<uint8_t>(demo.begin(), demo.begin() + 1000));
    int frames = 0;
    EXPECT_EQ(runFrames(reloader, &now, &error, &frames), app::MapReloader::Event::Failed);
    EXPECT_GE(frames, 4) << "the load waits for the settle time (200 ms = 4 frames)";
    EXPECT_NE(error.find("m.bsp"), std::string::npos) << error;
    EXPECT_EQ(session.bundle(), first) << "the map on screen stays";
    EXPECT_EQ(session.bundle()->map.faces.size(), first_faces);

    // The finished compile: another map under the same name (a two-face Quake 2 map).
    writeBytes(map, q2test::buildQ2());
    EXPECT_EQ(runFrames(reloader, &now, &error), app::MapReloader::Event::Reloaded) << error;
    ASSERT_NE(session.bundle(), nullptr);
    EXPECT_EQ(session.bundle()->map.format, bsp::Format::Quake2);
    EXPECT_EQ(session.bundle()->map.faces.size(), 2u);
    EXPECT_NE(session.visibility(), nullptr);
    EXPECT_EQ(app::mapKey(map.string()), key) << "bookmarks stay under the same key";

    // A/B: the compile it replaced stays in memory; flipping swaps the two, twice is back.
    ASSERT_NE(session.previous(), nullptr);
    EXPECT_EQ(session.previous()->map.format, bsp::Format::Quake3);
    ASSERT_TRUE(session.flipPrevious().ok());
    EXPECT_EQ(session.bundle()->map.format, bsp::Format::Quake3);
    EXPECT_EQ(session.bundle()->map.faces.size(), first_faces);
    EXPECT_EQ(session.previous()->map.format, bsp::Format::Quake2);
    ASSERT_TRUE(session.flipPrevious().ok());
    EXPECT_EQ(session.bundle()->map.format, bsp::Format::Quake2);

    // Watching goes on after a reload: a .lit appearing beside it is a change too.
    std::ofstream(dir / "m.lit") << "QLIT";
    EXPECT_EQ(runFrames(reloader, &now, &error), app::MapReloader::Event::Reloaded) << error;

    // Opening another map drops the previous compile: it belonged to the other one.
    ASSERT_TRUE(
        session.load((fs::path(BSPV_SOURCE_DIR) / "assets/maps/demo.bsp").string(), {}).ok());
    EXPECT_EQ(session.previous(), nullptr);
    EXPECT_FALSE(session.flipPrevious().ok());
    ASSERT_TRUE(session.load(map.string(), {}).ok());
    reloader.follow();

    // Turned off (--no-watch, the checkbox): a rewrite is left alone.
    reloader.setEnabled(false);
    writeBytes(map, demo);
    for (int i = 0; i < 20; ++i) {
        now += 50ms;
        EXPECT_EQ(reloader.update(now, {}, &error), app::MapReloader::Event::None);
    }
    EXPECT_EQ(session.bundle()->map.format, bsp::Format::Quake2);
    fs::remove_all(dir);
}

TEST(MapReloadFiles, WatchedFilesOfALooseMapAndOfAnArchiveMember) {
    const fs::path dir =
        fs::temp_directory_path() / ("bspv_reload_files_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir / "maps/x");
    std::ofstream(dir / "maps/x/lm_0000.tga") << "t";
    std::ofstream(dir / "maps/x/notes.txt") << "t";
    const auto files = app::watchedFilesOf((dir / "maps/x.bsp").string());
    const std::vector<fs::path> expected = {
        dir / "maps/x.bsp", dir / "maps/x.lit", dir / "maps/x.lux", dir / "maps/x.prt",
        dir / "maps/x.pts", dir / "maps/x.lin", dir / "maps/x",     dir / "maps/x/lm_0000.tga"};
    EXPECT_EQ(files, expected);
    const auto member = app::watchedFilesOf((dir / "pak0.pk3").string() + ":maps/x.bsp");
    EXPECT_EQ(member, std::vector<fs::path>{dir / "pak0.pk3"});
    fs::remove_all(dir);
}
