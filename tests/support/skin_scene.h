// A Quake 3 misc_model with a .skin, on disk in a temporary folder: md3test::buildMd3()'s model
// (surfaces "body" and "flag"; the flag a square of +-1 unit at z 0 facing up), a shader script
// whose "models/test/red_skin" maps textures/skin/red.tga (2x2 texels of kSkinTexel), the skin
// file given, and a map with the misc_model at the origin, lit by the engine's fixed light (a
// light-grid map without grid data, overbright).
#pragma once

#include "support/md3_builder.h"

#include "bsp/map.h"
#include "content/material/shader_library.h"
#include "content/vfs/vfs.h"

#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace skintest {

inline constexpr std::array<uint8_t, 3> kSkinTexel = {60, 90, 120};

struct SkinScene {
    std::filesystem::path dir;
    content::FileSystem fs;
    content::ShaderLibrary shaders;
    bsp::Map map;

    SkinScene() = default;
    SkinScene(const SkinScene&) = delete;
    SkinScene& operator=(const SkinScene&) = delete;
    ~SkinScene() {
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }
};

inline void writeFile(const std::filesystem::path& path, const std::string& bytes) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
    EXPECT_TRUE(out.good()) << path;
}

// An uncompressed 24-bit Targa of 2x2 texels of one colour (stored blue, green, red).
inline std::string solidTga(const std::array<uint8_t, 3>& rgb) {
    std::string t(18, '\0');
    t[2] = 2;             // uncompressed true colour
    t[12] = 2, t[14] = 2; // width, height
    t[16] = 24;           // bits per pixel
    t[17] = 0x20;         // top-left origin
    for (int i = 0; i < 4; ++i)
        t += {char(rgb[2]), char(rgb[1]), char(rgb[0])};
    return t;
}

// `skin_key`: the misc_model's "_skin" value (empty: none); `skin_file` and `skin_text`: a
// .skin written beside the model (empty name: none).
inline void makeSkinScene(SkinScene& s, const std::string& skin_key, const std::string& skin_file,
                          const std::string& skin_text) {
    s.dir = std::filesystem::temp_directory_path() /
            ("bspv_skin_" + std::to_string(::getpid()) + "_" + std::to_string(rand()));
    const auto md3 = md3test::buildMd3();
    writeFile(s.dir / "models/test/thing.md3", std::string(md3.begin(), md3.end()));
    writeFile(s.dir / "scripts/skin.shader",
              "models/test/red_skin\n{\n\t{\n\t\tmap textures/skin/red.tga\n\t}\n}\n");
    writeFile(s.dir / "textures/skin/red.tga", solidTga(kSkinTexel));
    if (!skin_file.empty())
        writeFile(s.dir / skin_file, skin_text);
    const core::Status st = s.fs.addDirectory(s.dir);
    EXPECT_TRUE(st.ok()) << st.error().message();
    s.shaders = content::ShaderLibrary::load(s.fs);
    s.map.entity_models = bsp::EntityModelTable::Quake3;
    s.map.model_lighting = bsp::ModelLighting::LightGrid;
    s.map.overbright_lighting = true;
    bsp::Entity world;
    world.pairs = {{"classname", "worldspawn"}};
    bsp::Entity misc;
    misc.pairs = {
        {"classname", "misc_model"}, {"model", "models/test/thing.md3"}, {"origin", "0 0 0"}};
    if (!skin_key.empty())
        misc.pairs.push_back({"_skin", skin_key});
    s.map.entities = {world, misc};
}

} // namespace skintest
