// core::FileWatch: a change is reported once, after the files have stayed unchanged for the
// settle time, whether the file was rewritten in place or replaced by a rename.
#include "core/file_watch.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using Clock = core::FileWatch::Clock;

namespace {

fs::path scratch(const std::string& name) {
    const fs::path dir =
        fs::temp_directory_path() / ("bspv_watch_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

void writeText(const fs::path& p, const std::string& text) {
    std::ofstream(p, std::ios::binary | std::ios::trunc) << text;
}

// Polls at t0 + each of `ms`; returns the first time (ms) a change was reported, -1 if none.
int firstReport(core::FileWatch& w, Clock::time_point t0, std::initializer_list<int> ms) {
    for (int t : ms)
        if (w.poll(t0 + std::chrono::milliseconds(t)))
            return t;
    return -1;
}

} // namespace

TEST(FileWatch, InPlaceRewriteReportedOnceAfterTheSettleTime) {
    const fs::path dir = scratch("inplace");
    writeText(dir / "m.bsp", "first");
    core::FileWatch w(400ms, 0ms);
    w.watch({dir / "m.bsp"});
    const auto t0 = Clock::now();
    EXPECT_FALSE(w.poll(t0));
    writeText(dir / "m.bsp", "second build");
    EXPECT_FALSE(w.poll(t0 + 100ms)) << "seen, not settled";
    EXPECT_TRUE(w.settling());
    EXPECT_FALSE(w.poll(t0 + 400ms)) << "300 ms unchanged < 400";
    EXPECT_TRUE(w.poll(t0 + 500ms));
    EXPECT_FALSE(w.settling());
    EXPECT_FALSE(w.poll(t0 + 600ms)) << "reported once";
    EXPECT_FALSE(w.poll(t0 + 5000ms));
    fs::remove_all(dir);
}

TEST(FileWatch, WritesInStagesReportedWhenTheLastStageSettles) {
    const fs::path dir = scratch("stages");
    writeText(dir / "m.bsp", "qbsp");
    core::FileWatch w(400ms, 0ms);
    w.watch({dir / "m.bsp", dir / "m.lit"});
    const auto t0 = Clock::now();
    EXPECT_FALSE(w.poll(t0));
    writeText(dir / "m.bsp", "qbsp + vis"); // every 300 ms a new stage: never settled
    EXPECT_FALSE(w.poll(t0 + 100ms));
    writeText(dir / "m.bsp", "qbsp + vis + light");
    EXPECT_FALSE(w.poll(t0 + 400ms));
    writeText(dir / "m.lit", "QLIT"); // a file that did not exist appears
    EXPECT_FALSE(w.poll(t0 + 700ms));
    EXPECT_EQ(firstReport(w, t0, {800, 1000, 1100, 1200}), 1100);
    fs::remove_all(dir);
}

TEST(FileWatch, ReplacementByRenameIsAChangeEvenWithTheSameSizeAndTime) {
    const fs::path dir = scratch("rename");
    writeText(dir / "m.bsp", "abcd");
    const auto mtime = fs::last_write_time(dir / "m.bsp");
    core::FileWatch w(100ms, 0ms);
    w.watch({dir / "m.bsp"});
    const auto t0 = Clock::now();
    writeText(dir / "m.bsp.tmp", "wxyz");
    fs::last_write_time(dir / "m.bsp.tmp", mtime);
    fs::rename(dir / "m.bsp.tmp", dir / "m.bsp"); // a new inode
    EXPECT_EQ(firstReport(w, t0, {10, 50, 200}), 200);
    fs::remove_all(dir);
}

TEST(FileWatch, AChangeUndoneBeforeItSettlesIsNoChange) {
    const fs::path dir = scratch("undo");
    writeText(dir / "m.bsp", "same");
    const auto mtime = fs::last_write_time(dir / "m.bsp");
    core::FileWatch w(100ms, 0ms);
    w.watch({dir / "m.bsp"});
    const auto t0 = Clock::now();
    writeText(dir / "m.bsp", "other");
    EXPECT_FALSE(w.poll(t0 + 10ms));
    writeText(dir / "m.bsp", "same");
    fs::last_write_time(dir / "m.bsp", mtime);
    EXPECT_EQ(firstReport(w, t0, {20, 200, 400}), -1);
    EXPECT_FALSE(w.settling());
    fs::remove_all(dir);
}

TEST(FileWatch, LooksAtMostOncePerInterval) {
    const fs::path dir = scratch("interval");
    writeText(dir / "m.bsp", "one");
    core::FileWatch w(0ms, 250ms);
    w.watch({dir / "m.bsp"});
    const auto t0 = Clock::now();
    EXPECT_FALSE(w.poll(t0)); // first look
    writeText(dir / "m.bsp", "two!");
    EXPECT_FALSE(w.poll(t0 + 100ms)) << "within the interval: not looked";
    EXPECT_FALSE(w.settling());
    EXPECT_FALSE(w.poll(t0 + 300ms)) << "looked: the change is seen";
    EXPECT_TRUE(w.settling());
    EXPECT_TRUE(w.poll(t0 + 600ms));
    fs::remove_all(dir);
}

TEST(FileWatch, StampOfAMissingFile) {
    const core::FileStamp s = core::stampOf("/nonexistent/bspview/m.bsp");
    EXPECT_FALSE(s.exists);
    EXPECT_EQ(s, core::FileStamp{});
}
