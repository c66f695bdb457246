// scene::ModelFiles: files decoded ahead on the worker threads (prefetch) give the set what
// loading them in turn gives, and get() takes them from there rather than from the disk.
#include "scene/models/model_files.h"

#include "support/md3_builder.h"
#include "support/q1_builder.h"
#include "support/studio_builder.h"
#include "support/vfs_folder.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct Folder : testsupport::VfsFolder {
    Folder() : VfsFolder("model_files") {}
};

using Request = std::pair<std::string_view, content::ModelRequest>;

content::ModelRequest body(int32_t b) {
    content::ModelRequest r;
    r.studio.body = b;
    return r;
}

// What a set holds, in order: each model's path, error and index count (-1: no mesh), and the
// range each request got.
std::vector<std::string> describe(const std::vector<scene::LoadedModel>& models,
                                  const std::vector<scene::PathModels>& got) {
    std::vector<std::string> out;
    for (const scene::LoadedModel& m : models)
        out.push_back(m.path + " | " + m.error + " | " +
                      std::to_string(m.mesh ? int64_t(m.mesh->indices.size()) : -1) +
                      (m.brush ? " | brush" : ""));
    for (const scene::PathModels& pm : got)
        out.push_back(std::to_string(pm.first) + "+" + std::to_string(pm.count));
    return out;
}

std::vector<std::string> loadInTurn(const content::FileSystem& vfs,
                                    const std::vector<Request>& requests, bool prefetch) {
    std::vector<scene::LoadedModel> models;
    scene::ModelFiles files(vfs, nullptr, game::UnlitFaces{}, models);
    if (prefetch)
        files.prefetch(requests);
    std::vector<scene::PathModels> got;
    for (const auto& [path, request] : requests)
        got.push_back(files.get(path, request));
    return describe(models, got);
}

} // namespace

TEST(ModelFiles, PrefetchedFilesGiveWhatLoadingInTurnGives) {
    Folder f;
    f.put("models/thing.md3", md3test::buildMd3());
    f.put("models/body.mdl", studiotest::buildStudio({.body_groups = true}));
    f.put("maps/b_box.bsp", q1test::buildQ1());
    f.mount();
    // One path twice with other keys (decoded ahead once, then shared through the cache), one
    // twice with the same keys, a missing file, an empty path.
    const std::vector<Request> requests = {
        {"models/body.mdl", body(1)}, {"models/thing.md3", {}},     {"maps/b_box.bsp", {}},
        {"models/body.mdl", body(0)}, {"models/gone.mdl", {}},      {"models/thing.md3", {}},
        {"models/body.mdl", body(1)}, {"models/thing.md3", body(3)}};
    const std::vector<std::string> in_turn = loadInTurn(f.vfs, requests, false);
    const std::vector<std::string> ahead = loadInTurn(f.vfs, requests, true);
    EXPECT_EQ(ahead, in_turn);
    // The set is what it should be, not only the same twice: the md3's two surfaces, the
    // studio model's two bodies, the brush model, the missing file's reason.
    const std::vector<std::string> want_models = {"models/body.mdl", "models/thing.md3",
                                                  "maps/b_box.bsp", "models/gone.mdl"};
    size_t found = 0;
    for (const std::string& line : in_turn)
        for (const std::string& w : want_models)
            found += line.rfind(w, 0) == 0 ? 1 : 0;
    EXPECT_EQ(found, 2u + 2u + 1u + 1u); // 2 bodies, 2 surfaces, the box, the missing one
    EXPECT_NE(std::find(in_turn.begin(), in_turn.end(), "models/gone.mdl | not found | -1"),
              in_turn.end());
}

TEST(ModelFiles, GetTakesAPrefetchedFileWithoutReadingItAgain) {
    Folder f;
    f.put("models/thing.md3", md3test::buildMd3());
    f.mount();
    const std::vector<Request> requests = {{"models/thing.md3", {}}};
    std::vector<scene::LoadedModel> models;
    scene::ModelFiles files(f.vfs, nullptr, game::UnlitFaces{}, models);
    files.prefetch(requests);
    // The file is gone from the disk: only a decode done ahead can still give its surfaces.
    fs::remove(f.dir / "models/thing.md3");
    const scene::PathModels& pm = files.get("models/thing.md3");
    ASSERT_EQ(pm.count, 2u);
    EXPECT_TRUE(models[pm.first].drawable()) << models[pm.first].error;
    // Without the prefetch the same request now fails.
    std::vector<scene::LoadedModel> fresh;
    scene::ModelFiles plain(f.vfs, nullptr, game::UnlitFaces{}, fresh);
    const scene::PathModels& none = plain.get("models/thing.md3");
    ASSERT_EQ(none.count, 1u);
    EXPECT_FALSE(fresh[none.first].drawable());
}
