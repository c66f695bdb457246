// Source detail props (scene/models/detail_props.h) from a hand-made dprp dictionary and a
// detail material in a temporary game folder: sprites cut from the material's texture (every
// other one mirrored), their quads, light and fade; a model the folder lacks is a warning.
#include "scene/models/detail_props.h"
#include "scene/models/model_set.h"
#include "scene/world/lightmap_set.h"
#include "scene/world/world_mesh.h"
#include "support/vtf_builder.h"
#include "unit/content_test_util.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>
#include <vector>

namespace {

using content_test::TempDir;

// Column colours of the 4x2 detail texture (both rows alike): red, green, blue, white; alpha 200.
constexpr std::array<std::array<uint8_t, 3>, 4> kColumns = {
    {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {255, 255, 255}}};

std::vector<uint8_t> detailTexture() {
    testsupport::VtfSpec spec;
    spec.width = 4;
    spec.height = 2;
    std::vector<uint8_t> texels;
    for (int row = 0; row < 2; ++row)
        for (const auto& c : kColumns)
            texels.insert(texels.end(), {c[0], c[1], c[2], 200});
    return testsupport::makeVtf(spec, texels);
}

struct DetailScene {
    TempDir dir;
    content::FileSystem fs;
    bsp::Map map;
    DetailScene() {
        content_test::writeText(
            dir / "materials/detail/mysprites.vmt",
            "UnlitGeneric { $basetexture \"detail/mysprites\" $translucent 1 }");
        content_test::writeBytes(dir / "materials/detail/mysprites.vtf", detailTexture());
        EXPECT_TRUE(fs.addDirectory(dir.path()).ok());
        map.format = bsp::Format::Source;
        map.leaves.resize(1);
        map.leaves[0].maxs = glm::vec3(1024);
        bsp::Entity world;
        world.pairs = {{"classname", "worldspawn"}, {"detailmaterial", "detail/mysprites"}};
        map.entities.push_back(world);
        // Sprite 0: a 16 x 16 quad standing on the origin, the texture's left half (columns 0, 1).
        bsp::DetailSprite s;
        s.upper_left = {-8.0f, 16.0f};
        s.lower_right = {8.0f, 0.0f};
        s.tex_upper_left = {0.0f, 0.0f};
        s.tex_lower_right = {0.5f, 1.0f};
        map.detail_props.sprites.push_back(s);
        map.detail_props.models.push_back("models/detail/gone.mdl");
        for (int k = 0; k < 3; ++k) {
            bsp::DetailProp d;
            d.origin = glm::vec3(100.0f * float(k), 10.0f, 20.0f);
            d.type = k == 2 ? bsp::DetailType::Model : bsp::DetailType::Sprite;
            d.orientation = 2;
            d.scale = k == 1 ? 2.0f : 1.0f;
            d.lighting = {128, 64, 0, 0};
            map.detail_props.props.push_back(d);
        }
    }
    scene::EntityModelSet load() {
        return scene::loadEntityModels(map, fs, scene::LightmapSet{}, scene::WorldMesh{});
    }
};

std::array<uint8_t, 3> texel(const content::SpritePicture& p, int x, int y) {
    const uint8_t* t = &p.rgba[(size_t(y) * size_t(p.width) + size_t(x)) * 4];
    return {t[0], t[1], t[2]};
}

} // namespace

TEST(DetailProps, MaterialFromWorldspawnElseTheEnginesDefault) {
    DetailScene s;
    EXPECT_EQ(scene::detailMaterialName(s.map), "detail/mysprites");
    s.map.entities[0].pairs.pop_back();
    EXPECT_EQ(scene::detailMaterialName(s.map), "detail/detailsprites");
}

// 128 / 255 = 0.50196 linear -> 0.50196^(1 / 2.2) = 0.73104; 64 / 255 -> 0.53350; exponent 2
// quadruples 255 / 255 -> 4, capped at 1.
TEST(DetailProps, SpriteLightIsTheLumpsColourInGammaSpace) {
    const glm::vec3 l = scene::detailSpriteLight({128, 64, 0, 0});
    EXPECT_NEAR(l.r, 0.73104f, 1e-4f);
    EXPECT_NEAR(l.g, 0.53350f, 1e-4f);
    EXPECT_EQ(l.b, 0.0f);
    EXPECT_EQ(scene::detailSpriteLight({255, 255, 255, 2}), glm::vec3(1.0f));
}

TEST(DetailProps, SpritesCutFromTheMaterialEveryOtherMirrored) {
    DetailScene s;
    const scene::EntityModelSet set = s.load();
    ASSERT_EQ(set.instances.size(), 2u); // the model's file is not in the folder
    ASSERT_EQ(set.warnings.size(), 1u);
    EXPECT_NE(set.warnings[0].find("1 models not drawn"), std::string::npos) << set.warnings[0];
    const scene::EntityModelInstance& first = set.instances[0];
    const scene::EntityModelInstance& second = set.instances[1];
    EXPECT_EQ(first.origin, glm::vec3(0.0f, 10.0f, 20.0f));
    EXPECT_EQ(second.scale, 2.0f);
    EXPECT_NE(first.model, second.model); // mirrored and not: two pictures
    for (const auto* inst : {&first, &second}) {
        const content::Sprite& sprite = *set.models[inst->model].sprite;
        EXPECT_EQ(sprite.orientation, content::SpriteOrientation::FacingUpright);
        EXPECT_EQ(sprite.render_mode, content::SpriteRenderMode::IndexAlpha);
        ASSERT_EQ(sprite.pictures.size(), 1u);
        const content::SpritePicture& p = sprite.pictures[0];
        EXPECT_EQ(p.width, 2);
        EXPECT_EQ(p.height, 2);
        EXPECT_EQ(content::spritePictureRect(p), (std::array<float, 4>{-8.0f, 0.0f, 8.0f, 16.0f}));
        // The first object (not flipped) shows its rectangle mirrored: green then red.
        const bool mirrored = inst == &first;
        EXPECT_EQ(texel(p, 0, 1), mirrored ? kColumns[1] : kColumns[0]);
        EXPECT_EQ(texel(p, 1, 0), mirrored ? kColumns[0] : kColumns[1]);
        EXPECT_EQ(inst->render.blend, scene::ModelBlend::Alpha);
        EXPECT_NEAR(inst->render.tint.r, 0.73104f, 1e-4f);
        EXPECT_EQ(inst->fade.min_sq, 800.0f * 800.0f);
        EXPECT_EQ(inst->fade.max_sq, 1200.0f * 1200.0f);
    }
    // The quad's far corner (8, 16) at scale 2 lies 35.8 units from the origin.
    EXPECT_NEAR(second.radius, std::sqrt(16.0f * 16.0f + 32.0f * 32.0f), 1e-3f);
}

TEST(DetailProps, MissingMaterialIsOneWarningNamingIt) {
    DetailScene s;
    s.map.entities[0].pairs.back().second = "detail/absent";
    const scene::EntityModelSet set = s.load();
    EXPECT_TRUE(set.instances.empty());
    ASSERT_EQ(set.warnings.size(), 2u);
    EXPECT_NE(set.warnings[0].find("2 sprites not drawn (material detail/absent"),
              std::string::npos)
        << set.warnings[0];
}
