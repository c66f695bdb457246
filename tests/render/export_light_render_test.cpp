// One lighting rule for the viewer and the exporter (game::apply, game/profile.h): for every game
// family a synthetic floor of one texel value under one luxel value is drawn by the world renderer
// (Mesa llvmpipe under xvfb-run) and exported (exporter::buildExportScene), and the pixel the
// viewer reads back must equal the colour the export carries for that texel and luxel:
//   lightmap export: exported texel x exported page texel x lightmap_scale (the glTF extras),
//   baked export:    exported texel x COLOR_0,
// both rebuilt here from the bytes the writers store. The texel, the page texel and COLOR_0 are
// each rounded to 8 bits, where the shader multiplies the exact values and rounds once, so they
// may differ by a level: the tolerance is 1 of 255. Each case states what apply() gives.
#include "content/image/image.h"
#include "export/export_scene.h"
#include "game/profile.h"
#include "gl_fixture.h"
#include "render/render_target.h"
#include "render/world_renderer.h"
#include "scene/load/map_bundle.h"
#include "scene/view/visibility.h"
#include "scene/world/light_styles.h"
#include "scene/world/lightmap_set.h"
#include "support/map_builder.h"

#include <gtest/gtest.h>

#include <array>
#include <memory>
#include <string>

namespace {

constexpr int kW = 160, kH = 90;

// A 64-unit floor at z = 0 whose lightmap is `luxel` everywhere, in a map of `format` with
// light data.
bsp::Map litFloor(bsp::Format format, uint8_t luxel) {
    bsp::Map m = testsupport::litFloorMap(luxel, glm::vec2(0.3f, 0.3f));
    m.format = format;
    m.has_light_data = true;
    return m;
}

// A bundle as loadMapBundle builds it, without files: the map, its game's profile, one grey
// texture, the map's own lightmap pages and the mesh.
std::unique_ptr<scene::MapBundle> floorBundle(bsp::Format format, uint8_t texel, uint8_t luxel) {
    auto b = std::make_unique<scene::MapBundle>();
    b->map = litFloor(format, luxel);
    b->profile = game::profileFor(b->map);
    content::TextureInfo t;
    t.image.width = t.image.height = 8;
    t.image.rgba.assign(8 * 8 * 4, texel);
    for (size_t i = 3; i < t.image.rgba.size(); i += 4)
        t.image.rgba[i] = 255;
    t.missing = false;
    b->textures.push_back(std::move(t));
    b->materials = scene::resolveMaterials(b->map, nullptr, b->textures);
    b->lightmaps = scene::lightmapsInMap(b->map);
    scene::WorldMeshOptions o;
    o.lightmaps = &b->lightmaps;
    o.unlit_faces = b->profile.rules.light.unlit_faces;
    b->mesh = scene::buildWorldMesh(b->map, b->materials, o);
    return b;
}

class ExportLight : public gltest::GlFixture {
protected:
    // The red channel the viewer draws at the middle of the floor, seen from straight above.
    int viewerPixel(const scene::MapBundle& b) {
        render::WorldRenderer r;
        std::string error;
        EXPECT_TRUE(r.init(render::GlslLibrary(), &error)) << error;
        render::WorldSource source{b.map, b.mesh, b.textures};
        source.lightmaps = &b.lightmaps;
        source.rules = b.profile.rules;
        EXPECT_TRUE(r.upload(source, &error)) << error;
        render::RenderTarget target;
        EXPECT_TRUE(target.create(kW, kH, &error)) << error;
        scene::Camera cam;
        cam.position = {32, 32, 60};
        cam.pitch = 90.0f;
        cam.aspect = static_cast<float>(kW) / static_cast<float>(kH);
        cam.z_near = 1.0f;
        scene::Visibility vis(b.map, b.mesh, nullptr, b.profile.entities.brush_model_vis);
        scene::DrawList list;
        vis.update(cam, {}, list);
        EXPECT_EQ(list.faces.size(), 1u);
        target.bind();
        render::RenderOptions ro;
        ro.clear_colour = glm::vec4(0.0f, 1.0f, 0.0f, 1.0f);
        ro.style_values = scene::lightStyleValues(0.0); // style 0: 'm'
        r.draw(list, cam, ro);
        const auto img = target.readPixels();
        const uint8_t* p = gltest::pixelAt(img, kW, kW / 2, kH / 2);
        EXPECT_EQ(p[0], p[1]);
        EXPECT_EQ(p[0], p[2]);
        return p[0];
    }

    // What the export stores for the floor: with the lightmap, the texel times the page texel
    // times lightmap_scale; baked, the texel times COLOR_0 (nullopt when that light passed 1 and
    // was clamped, which the baked form cannot carry).
    struct Exported {
        float lightmap = 0.0f;
        std::optional<float> baked;
    };
    static Exported exported(const scene::MapBundle& b, uint8_t texel, uint8_t luxel) {
        Exported out;
        exporter::ExportOptions o;
        const exporter::ExportScene lm = exporter::buildExportScene(b, o);
        EXPECT_EQ(lm.materials.size(), 1u);
        EXPECT_EQ(lm.materials.at(0).page, 0); // the floor carries its lightmap page
        const float t = exporter::exportedTexel(lm, glm::u8vec4(texel, texel, texel, 255)).r;
        const float page = exporter::savedTexel(lm, glm::u8vec3(luxel)).r;
        out.lightmap = t * page / 255.0f * lm.light_scale;
        o.lighting = exporter::ExportLighting::Baked;
        const exporter::ExportScene baked = exporter::buildExportScene(b, o);
        const exporter::ExportPrimitive& p = baked.meshes.at(0).at(0);
        EXPECT_FALSE(p.colours.empty());
        if (!p.colours.empty() &&
            game::lightPart(b.profile.rules.light, glm::vec3(luxel / 255.0f)).r < 1.0f)
            out.baked = t * p.colours[0].r / 255.0f;
        return out;
    }

    // The viewer's pixel, the exporter's two colours and apply()'s value agree within a level.
    void expectOneRule(bsp::Format format, uint8_t texel, uint8_t luxel, float by_hand) {
        SCOPED_TRACE(std::string(bsp::formatName(format)));
        const auto b = floorBundle(format, texel, luxel);
        const float rule = game::apply(b->profile.rules.light, glm::vec3(texel / 255.0f),
                                       glm::vec3(luxel / 255.0f))
                               .r *
                           255.0f;
        EXPECT_NEAR(rule, by_hand, 0.01f);
        const int viewer = viewerPixel(*b);
        EXPECT_NEAR(viewer, rule, 1.0f);
        const Exported e = exported(*b, texel, luxel);
        EXPECT_NEAR(viewer, e.lightmap, 1.0f) << "lightmap export";
        ASSERT_TRUE(e.baked.has_value());
        EXPECT_NEAR(viewer, *e.baked, 1.0f) << "baked export";
    }
};

} // namespace

// QuakeSpasm: 100 * 100 / 255 * 2 * 264 / 256 = 80.88.
TEST_F(ExportLight, Quake1) {
    expectOneRule(bsp::Format::Quake1, 100, 100, 80.88f);
}

// Xash3D at GoldSrc's defaults: palette colour 128 is loaded as texel 146 (texgammatable,
// int(146.93)), under 128 / 255 * 264 / 256 * 338 / 256 = 0.68345: 99.78.
TEST_F(ExportLight, HalfLife) {
    expectOneRule(bsp::Format::HalfLife, 146, 128, 99.78f);
}

// yquake2 GL3: 255 (100 / 255 * 1.5 * 100 / 255 * 1.3)^(1 / 1.2) = 93.47.
TEST_F(ExportLight, Quake2) {
    expectOneRule(bsp::Format::Quake2, 100, 100, 93.47f);
}

// ioquake3 overbright: the light shifted to 120 of 255 (no channel passes 1), the frame drawn at
// half and doubled: 100 * 120 / 255 * 2 = 94.12 (the display ramp doubles the rounded half,
// 47.06 -> 47 -> 94).
TEST_F(ExportLight, Quake3) {
    expectOneRule(bsp::Format::Quake3, 100, 60, 94.12f);
}

// Source: the 2x overbright of luxels, 100 * 100 / 255 * 2 = 78.43.
TEST_F(ExportLight, Source) {
    expectOneRule(bsp::Format::Source, 100, 100, 78.43f);
}
