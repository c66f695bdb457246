// --export flags and the viewer's Export panel (app/export_panel.h), GL-free.
#include "app/cli.h"
#include "app/export_panel.h"

#include <imgui.h>

#include <gtest/gtest.h>

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

TEST(ExportPanel, DefaultFileBesideTheMap) {
    EXPECT_EQ(app::ExportPanel::defaultPathFor("maps/e1m1.bsp"), "maps/e1m1.glb");
    EXPECT_EQ(app::ExportPanel::defaultPathFor("/q3/baseq3/pak0.pk3:maps/q3dm1.bsp"),
              "/q3/baseq3/q3dm1.glb");
    EXPECT_EQ(app::ExportPanel::defaultPathFor("x"), "x.glb");
}

// Drawn in a context without a window: nothing until shown, then the panel, which asks for
// nothing until its button is pressed.
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
            panel.showFor("maps/e1m1.bsp");
        ImGui::NewFrame();
        EXPECT_FALSE(panel.draw("wrote 1 file"));
        ImGui::Render();
        const bool drawn = ImGui::GetDrawData()->TotalVtxCount > 0;
        // ImGui measures an auto-sized window in its first frame without drawing it.
        EXPECT_EQ(drawn, frame >= 2) << frame;
    }
    EXPECT_TRUE(panel.visible());
    ImGui::DestroyContext(ctx);
}
