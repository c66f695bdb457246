// --export flags and the viewer's Export panel (app/export_panel.h), GL-free.
#include "app/cli.h"
#include "app/export_panel.h"
#include "app/settings.h"

#include <imgui.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

TEST(ExportCli, FlagsSetModeAndOptions) {
    auto o =
        app::parseArguments({"m.bsp", "--export", "out/m.gltf", "--export-all", "--export-scale",
                             "1", "--export-lighting", "baked", "--export-textures", "tex"});
    ASSERT_TRUE(o) << o.error().message();
    EXPECT_EQ(o->mode, app::Mode::Export);
    EXPECT_EQ(o->export_path, "out/m.gltf");
    EXPECT_EQ(o->export_textures, "tex");
    EXPECT_TRUE(o->export_options.include_hidden);
    EXPECT_EQ(o->export_options.scale, 1.0f);
    EXPECT_EQ(o->export_options.lighting, exporter::ExportLighting::Baked);

    auto d = app::parseArguments({"m.bsp", "--export", "m.glb"});
    ASSERT_TRUE(d);
    EXPECT_FALSE(d->export_options.include_hidden);
    EXPECT_EQ(d->export_options.scale, 0.0254f);
    EXPECT_EQ(d->export_options.lighting, exporter::ExportLighting::Lightmap);

    auto t = app::parseArguments({"m.bsp", "--export-textures", "dir"});
    ASSERT_TRUE(t);
    EXPECT_EQ(t->mode, app::Mode::Export);
    EXPECT_TRUE(t->export_path.empty());
}

TEST(ExportCli, BadValuesAreRejected) {
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"--export", "m.fbx"},
          {"--export"},
          {"--export", ""},
          {"--export", "m.glb", "--export-scale", "0"},
          {"--export", "m.glb", "--export-scale", "-1"},
          {"--export", "m.glb", "--export-scale", "inch"},
          {"--export", "m.glb", "--export-lighting", "full"}}) {
        auto o = app::parseArguments(args);
        ASSERT_FALSE(o) << args.back();
        EXPECT_EQ(o.error().code, core::ErrorCode::BadArgument);
    }
}

// Issue 33: the default file is in the export folder (the user's documents or the last one
// used), never beside the map inside a game's folder.
TEST(ExportPanel, DefaultFileInTheExportFolder) {
    EXPECT_EQ(app::ExportPanel::defaultPathFor("maps/e1m1.bsp", "/home/u/Documents/bspview"),
              "/home/u/Documents/bspview/e1m1.glb");
    EXPECT_EQ(app::ExportPanel::defaultPathFor("/q3/baseq3/pak0.pk3:maps/q3dm1.bsp", "/out"),
              "/out/q3dm1.glb");
    EXPECT_EQ(app::ExportPanel::defaultPathFor("x", "/out"), "/out/x.glb");
    const auto env = [](const char* name) -> const char* {
        return std::string(name) == "HOME" ? "/home/u" : nullptr;
    };
    EXPECT_EQ(app::defaultExportFolder(env), std::filesystem::path("/home/u/Documents/bspview"));
    EXPECT_EQ(app::defaultScreenshotFolder(env), std::filesystem::path("/home/u/Pictures/bspview"));
    const auto xdg = [](const char* name) -> const char* {
        return std::string(name) == "XDG_PICTURES_DIR" ? "/data/pics" : "/home/u";
    };
    EXPECT_EQ(app::defaultScreenshotFolder(xdg), std::filesystem::path("/data/pics/bspview"));
}

// A folder that does not exist is created only after a yes; a file that exists is replaced
// only after a yes; asked inside the panel.
TEST(ExportPanel, AsksBeforeCreatingAFolderOrReplacingAFile) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("bspv_export_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    app::ExportPanel panel;
    panel.showFor("maps/e1m1.bsp", dir / "new");
    EXPECT_EQ(std::string(panel.path()), (dir / "new" / "e1m1.glb").string());
    EXPECT_FALSE(panel.press());
    EXPECT_NE(panel.question().find("does not exist"), std::string::npos) << panel.question();
    EXPECT_FALSE(fs::exists(dir / "new")); // nothing created by asking
    EXPECT_FALSE(panel.answer(false));
    EXPECT_TRUE(panel.question().empty());
    EXPECT_FALSE(panel.press());
    const auto yes = panel.answer(true);
    ASSERT_TRUE(yes);
    EXPECT_EQ(yes->path, (dir / "new" / "e1m1.glb").string());
    // The folder exists and so does the file: asked again, about the file.
    fs::create_directories(dir / "new");
    std::ofstream(dir / "new" / "e1m1.glb") << "x";
    EXPECT_FALSE(panel.press());
    EXPECT_NE(panel.question().find("Replace"), std::string::npos);
    EXPECT_TRUE(panel.answer(true));
    fs::remove(dir / "new" / "e1m1.glb");
    EXPECT_TRUE(panel.press()); // nothing to ask
    fs::remove_all(dir);
}

// Drawn in a context without a window: nothing until shown, then the panel, which asks for
// nothing until its button is pressed; with no map its button is disabled.
TEST(ExportPanel, DrawsOnlyWhenShownAndAsksNothingUnpressed) {
    ImGuiContext* ctx = ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(1280, 720);
    io.DeltaTime = 1.0f / 60.0f;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    app::ExportPanel panel;
    for (int frame = 0; frame < 3; ++frame) {
        if (frame == 1)
            panel.showFor("maps/e1m1.bsp", "/tmp");
        ImGui::NewFrame();
        EXPECT_FALSE(panel.draw("wrote 1 file", frame != 2));
        ImGui::Render();
        const bool drawn = ImGui::GetDrawData()->TotalVtxCount > 0;
        // ImGui measures an auto-sized window in its first frame without drawing it.
        EXPECT_EQ(drawn, frame >= 2) << frame;
    }
    EXPECT_TRUE(panel.visible());
    ImGui::DestroyContext(ctx);
}
