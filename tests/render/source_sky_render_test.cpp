// A Source map's worldspawn sky box drawn: tf2_test2 names sky_tf2_04, six solid-colour Sky
// materials in a --base folder stand in for Team Fortress 2's, and the pixel at the centre of a
// view toward each face is that face's colour (content/material/skybox.h: rt along +X, bk along +Y,
// up along +Z). Without them the sky faces draw the flat sky colour, not a world face.
#include "content/material/skybox.h"
#include "gl_fixture.h"
#include "render/world_renderer.h"
#include "render/world_upload.h"
#include "scene/load/map_bundle.h"
#include "scene/view/visibility.h"
#include "support/vtf_builder.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

constexpr int kW = 64, kH = 64;

// VTF 7.2, 4x4 BGRA8888 of one colour.
std::vector<uint8_t> solidVtf(std::array<uint8_t, 3> rgb) {
    return testsupport::solidVtf(rgb[0], rgb[1], rgb[2]);
}

constexpr std::array<std::array<uint8_t, 3>, 6> kFaceColours = {
    {{200, 40, 40}, {40, 200, 40}, {40, 40, 200}, {200, 200, 40}, {40, 200, 200}, {90, 60, 30}}};

std::array<uint8_t, 3> centre(const scene::MapBundle& b, render::WorldRenderer& renderer,
                              render::RenderTarget& target, float pitch, float yaw) {
    scene::Camera camera;
    camera.position = glm::vec3(0.0f, -500.0f, 100.0f); // in tf2_test2's open yard
    camera.pitch = pitch;
    camera.yaw = yaw;
    camera.aspect = 1.0f;
    scene::Visibility vis(b.map, b.mesh);
    scene::DrawList list;
    vis.update(camera, scene::VisOptions(), list);
    target.bind();
    renderer.draw(list, camera, render::RenderOptions());
    const std::vector<uint8_t> rgba = target.readPixels();
    const size_t at = (size_t(kH / 2) * kW + kW / 2) * 4;
    return {rgba[at], rgba[at + 1], rgba[at + 2]};
}

class SourceSkyRender : public gltest::GlFixture {};

} // namespace

TEST_F(SourceSkyRender, SkynameFacesFromABaseFolderDrawAroundTheView) {
    const fs::path dir = fs::path(testing::TempDir()) / "bspv_source_sky_render";
    fs::remove_all(dir);
    fs::create_directories(dir / "materials/skybox");
    for (size_t i = 0; i < 6; ++i) {
        const std::string face = "sky_tf2_04" + std::string(content::kSkyFaceSuffixes[i]);
        std::ofstream(dir / "materials/skybox" / (face + ".vmt"))
            << "Sky { $basetexture skybox/" << face << " }\n";
        const auto vtf = solidVtf(kFaceColours[i]);
        std::ofstream(dir / "materials/skybox" / (face + ".vtf"), std::ios::binary)
            .write(reinterpret_cast<const char*>(vtf.data()), std::streamsize(vtf.size()));
    }
    const std::string map = std::string(BSPV_SHARED_MAPS_DIR) + "/source/tf2_test2.bsp";
    for (const bool with_sky : {true, false}) {
        scene::LoadSettings settings;
        settings.texture_cache_dir.reset();
        if (with_sky)
            settings.base_dirs.push_back(dir);
        auto bundle = scene::loadMapBundle(map, settings);
        ASSERT_TRUE(bundle.ok()) << bundle.error().message();
        ASSERT_EQ((*bundle)->skybox.has_value(), with_sky);
        render::WorldRenderer renderer;
        std::string error;
        ASSERT_TRUE(renderer.init(render::GlslLibrary(), &error)) << error;
        ASSERT_TRUE(render::uploadBundle(renderer, **bundle).ok());
        render::RenderTarget target;
        ASSERT_TRUE(target.create(kW, kH, &error)) << error;
        const auto rt = centre(**bundle, renderer, target, -35.0f, 0.0f);
        const auto bk = centre(**bundle, renderer, target, -35.0f, 90.0f);
        const auto up = centre(**bundle, renderer, target, -89.0f, 0.0f);
        if (with_sky) {
            EXPECT_EQ(rt, kFaceColours[0]);
            EXPECT_EQ(bk, kFaceColours[1]);
            EXPECT_EQ(up, kFaceColours[4]);
            // Under an HDR tone map of scale 0.5 (sky_ps2x.fxc's TONEMAP_SCALE_LINEAR) the box
            // is 0.5^(1/2.2) = 0.7297 as bright: 200 -> 145.9, 40 -> 29.2.
            (*bundle)->profile.rules.tonemap.enabled = true;
            (*bundle)->profile.rules.tonemap.scale = 0.5f;
            ASSERT_TRUE(render::uploadBundle(renderer, **bundle).ok());
            const auto dim = centre(**bundle, renderer, target, -35.0f, 0.0f);
            for (size_t c = 0; c < 3; ++c)
                EXPECT_NEAR(dim[c], kFaceColours[0][c] * std::pow(0.5, 1.0 / 2.2), 1.0) << c;
        } else {
            // render::kSkyFlatColour (0.32, 0.40, 0.55) in 8 bits.
            const std::array<uint8_t, 3> flat = {82, 102, 140};
            EXPECT_EQ(rt, flat);
            EXPECT_EQ(up, flat);
        }
    }
    fs::remove_all(dir);
}
