// Replays every saved fuzzer finding (fuzz/regressions/<target>/*) through the same entry
// point as the fuzzer, in a plain build without the fuzzer runtime. A finding that crashes
// here crashes the test; one that breaks the contract fails it.
#include "entry_points.h"

#include "core/file.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

namespace fs = std::filesystem;

namespace {

const fs::path kRegressions = fs::path(BSPV_SOURCE_DIR) / "fuzz" / "regressions";

TEST(FuzzRegressions, EveryTargetHasAFolderAndEveryFileReplaysCleanly) {
    ASSERT_TRUE(fs::is_directory(kRegressions)) << kRegressions;
    size_t total = 0;
    for (const fuzz::Target& t : fuzz::targets()) {
        const fs::path dir = kRegressions / t.name;
        ASSERT_TRUE(fs::is_directory(dir)) << "missing " << dir;
        std::vector<fs::path> files;
        for (const auto& e : fs::directory_iterator(dir))
            if (e.is_regular_file() && e.path().filename() != "README.md")
                files.push_back(e.path());
        std::sort(files.begin(), files.end());
        for (const fs::path& f : files) {
            auto bytes = core::readFile(f);
            ASSERT_TRUE(bytes.ok()) << bytes.error().message();
            const fuzz::Outcome o = t.run(*bytes);
            EXPECT_TRUE(o.violation.empty()) << f << ": " << o.violation;
            ++total;
        }
        std::printf("%s: %zu regression inputs\n", t.name, files.size());
    }
    std::printf("replayed %zu regression inputs\n", total);
}

} // namespace
