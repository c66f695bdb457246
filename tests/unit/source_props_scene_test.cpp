// Source props as the scene places, skins and lights them (scene/models/source_props.h): a
// hand-made studio model (tests/support/source_model_builder.h) with a hand-made material, on
// a map of one leaf with one ambient sample; positions and light computed by hand from the SDK's
// AngleMatrix and common_vs_fxc.h AmbientLight.
#include "scene/models/model_pick.h"
#include "scene/models/model_set.h"
#include "scene/models/source_props.h"
#include "scene/view/visibility.h"
#include "scene/world/world_mesh.h"

#include "bsp/source_props.h"
#include "content/image/vtf.h"
#include "support/vtf_builder.h"

#include "support/source_model_builder.h"
#include "unit/content_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace {

using content_test::TempDir;
using content_test::writeBytes;
using content_test::writeText;

// A 2x1 RGBA8888 VTF 7.2 (80-byte header, no thumbnail, one mip): texels (200, 100, 50, 255)
// and (10, 20, 30, 0).
std::vector<uint8_t> twoTexelVtf() {
    testsupport::VtfSpec spec;
    spec.width = 2;
    return testsupport::makeVtf(spec, {200, 100, 50, 255, 10, 20, 30, 0});
}

bsp::Entity entity(std::vector<std::pair<std::string, std::string>> pairs) {
    bsp::Entity e;
    e.pairs = std::move(pairs);
    return e;
}

// models/test/x.mdl (one mesh of vertices (0 0 0), (1 0 1), (2 0 2), the builder's layout) and
// its alpha-tested material; a Source map of one leaf from (0 0 0) to (1024 1024 1024) with one
// ambient sample whose +x side is 51 * 2^-8 and -z side 102 * 2^-8, the rest 0.
struct PropScene {
    TempDir dir;
    content::FileSystem fs;
    bsp::Map map;
    PropScene() {
        const srcmdltest::Files f = srcmdltest::build(srcmdltest::Spec{});
        writeBytes(dir / "models/test/x.mdl", f.mdl);
        writeBytes(dir / "models/test/x.vvd", f.vvd);
        writeBytes(dir / "models/test/x.dx90.vtx", f.vtx);
        writeText(dir / "materials/models/test/tex.vmt",
                  "VertexLitGeneric { $basetexture \"models/test/tex\" $alphatest 1 }");
        writeBytes(dir / "materials/models/test/tex.vtf", twoTexelVtf());
        EXPECT_TRUE(fs.addDirectory(dir.path()).ok());
        map.format = bsp::Format::Source;
        map.has_light_data = true;
        map.leaves.resize(1);
        map.leaves[0].maxs = glm::vec3(1024);
        bsp::LeafAmbientSample sample;
        sample.cube[0] = {51, 51, 51, -8};
        sample.cube[5] = {102, 102, 102, -8};
        map.leaf_ambient.samples.push_back(sample);
        map.leaf_ambient.leaves.push_back({1, 0});
        map.entities.push_back(entity({{"classname", "worldspawn"}}));
    }
    scene::EntityModelSet load() {
        return scene::loadEntityModels(map, fs, scene::LightmapSet{}, scene::WorldMesh{});
    }
};

} // namespace

TEST(SourcePropsScene, AngleMatrixPlacesAVertexExactly) {
    // Pitch 90, yaw 90: AngleMatrix's forward column (cp cy, cp sy, -sp) = (0, 0, -1) and up
    // column (cr sp cy + sr sy, cr sp sy - sr cy, cr cp) = (0, 1, 0): the vertex (2, 0, 2) lands
    // at origin + 2 * forward + 2 * up.
    const glm::vec3 p = scene::sourcePropToWorld({100, 200, 300}, {90, 90, 0}, {2, 0, 2});
    EXPECT_NEAR(p.x, 100.0f, 1e-4f);
    EXPECT_NEAR(p.y, 202.0f, 1e-4f);
    EXPECT_NEAR(p.z, 298.0f, 1e-4f);
    // Roll 90 alone: the left column (0, cr, sr) = (0, 0, 1).
    const glm::vec3 r = scene::sourcePropToWorld({0, 0, 0}, {0, 0, 90}, {0, 3, 0});
    EXPECT_NEAR(r.y, 0.0f, 1e-5f);
    EXPECT_NEAR(r.z, 3.0f, 1e-5f);
}

TEST(SourcePropsScene, AmbientCubeLightsByTheNormalSquared) {
    std::array<glm::vec3, 6> cube{};
    for (size_t k = 0; k < 6; ++k)
        cube[k] = glm::vec3(float(k + 1));
    // n = (0.6, 0, -0.8): 0.36 of +x (1) and 0.64 of -z (6).
    const glm::vec3 l = scene::ambientCubeLight(cube, {0.6f, 0.0f, -0.8f});
    EXPECT_NEAR(l.x, 0.36f * 1.0f + 0.64f * 6.0f, 1e-5f);
    EXPECT_NEAR(scene::ambientCubeLight(cube, {0, -1, 0}).y, 4.0f, 1e-6f);
}

TEST(SourcePropsScene, PropEntityPlacedSkinnedAndLitByTheLeafCube) {
    PropScene s;
    s.map.entities.push_back(entity({{"classname", "prop_dynamic"},
                                     {"model", "models/test/x.mdl"},
                                     {"origin", "100 200 300"},
                                     {"angles", "90 90 0"},
                                     {"skin", "5"}}));
    s.map.entities.push_back(entity({{"classname", "prop_physics_multiplayer"},
                                     {"model", "models/test/gone.mdl"},
                                     {"origin", "0 0 0"}}));
    s.map.entities.push_back(entity({{"classname", "info_target"}, {"origin", "1 2 3"}}));
    const scene::EntityModelSet set = s.load();
    EXPECT_EQ(set.wanted, 2u);
    ASSERT_EQ(set.missing.size(), 1u);
    EXPECT_EQ(set.missing[0], "prop_physics_multiplayer: models/test/gone.mdl (not found)");
    ASSERT_EQ(set.instances.size(), 1u);
    const scene::EntityModelInstance& inst = set.instances[0];
    EXPECT_EQ(inst.entity, 1u);
    EXPECT_EQ(inst.origin, glm::vec3(100, 200, 300));
    EXPECT_EQ(inst.angles, glm::vec3(90, 90, 0));
    EXPECT_TRUE(inst.pitch_down);
    EXPECT_EQ(inst.skin, 0); // one skin family: 5 clamps to it
    // The drawn vertex 2 through the instance's matrix (the renderer's).
    const scene::LoadedModel& model = set.models[inst.model];
    ASSERT_TRUE(model.mesh.has_value());
    ASSERT_EQ(model.mesh->vertex_count, 3u);
    const auto& v2 = model.mesh->positions[2];
    EXPECT_EQ(v2, (std::array<float, 3>{2, 0, 2}));
    const glm::vec4 w =
        scene::sourcePropMatrix(inst.origin, inst.angles) * glm::vec4(v2[0], v2[1], v2[2], 1.0f);
    EXPECT_NEAR(w.x, 100.0f, 1e-4f);
    EXPECT_NEAR(w.y, 202.0f, 1e-4f);
    EXPECT_NEAR(w.z, 298.0f, 1e-4f);
    // The material: its $basetexture as the range's image, alpha kept for $alphatest.
    ASSERT_EQ(model.mesh->images.size(), 1u);
    const content::ModelImage& img = model.mesh->images[0];
    ASSERT_EQ(img.width, 2);
    EXPECT_EQ(img.rgba, (std::vector<uint8_t>{200, 100, 50, 255, 10, 20, 30, 0}));
    ASSERT_EQ(model.mesh->skin_ranges.size(), 1u);
    const content::ModelDrawRange& range = model.mesh->skin_ranges[0].at(0);
    EXPECT_EQ(range.image, 0);
    EXPECT_TRUE(range.masked);
    EXPECT_FALSE(range.translucent || range.additive || range.two_sided || range.unlit);
    EXPECT_TRUE(model.warnings.empty()) << model.warnings[0];
    // Lit by the one sample (illumposition 0: the origin), its sides as linear light.
    EXPECT_TRUE(inst.cube_lit);
    EXPECT_NEAR(inst.ambient_cube[0].x, 51.0f / 256.0f, 1e-6f);
    EXPECT_NEAR(inst.ambient_cube[5].z, 102.0f / 256.0f, 1e-6f);
    EXPECT_EQ(inst.ambient_cube[2], glm::vec3(0.0f));
    const std::vector<std::string> lines = scene::describeInstance(set, 0);
    ASSERT_EQ(lines.size(), 4u);
    EXPECT_EQ(lines[0], "model models/test/x.mdl  skin 0");
    EXPECT_EQ(lines[2], "LOD 0  light: LDR leaf ambient cube at (100 200 300) (illumposition)");
    EXPECT_EQ(lines[3].rfind("cube  +x 0.199 0.199 0.199  -x 0.000", 0), 0u) << lines[3];
    // The LOD the renderer chose by screen size, when the panel has it.
    const std::string drawn = scene::describeInstance(set, 0, 1u)[2];
    EXPECT_EQ(drawn.rfind("LOD 1", 0), 0u) << drawn;
}

TEST(SourcePropsScene, StaticPropsTakeTheirRecordAndItsLightingOrigin) {
    PropScene s;
    bsp::StaticProp shown;
    shown.origin = glm::vec3(10, 20, 30);
    shown.angles = glm::vec3(0, 45, 0);
    shown.skin = 0;
    shown.flags = bsp::kStaticPropUseLightingOrigin;
    shown.lighting_origin = glm::vec3(500, 600, 700);
    bsp::StaticProp hidden = shown;
    hidden.flags = bsp::kStaticPropNoDraw;
    s.map.static_props.models = {"models/test/x.mdl"};
    s.map.static_props.props = {shown, hidden};
    for (int k = 0; k < 2; ++k)
        s.map.entities.push_back(entity({{"classname", "prop_static"},
                                         {"model", "models/test/x.mdl"},
                                         {"origin", "0 0 0"},
                                         {"_sprp", std::to_string(k)}}));
    const scene::EntityModelSet set = s.load();
    EXPECT_EQ(set.wanted, 1u); // STATIC_PROP_NO_DRAW is not drawn nor counted
    ASSERT_EQ(set.instances.size(), 1u);
    EXPECT_EQ(set.instances[0].origin, glm::vec3(10, 20, 30));
    EXPECT_EQ(set.instances[0].angles, glm::vec3(0, 45, 0));
    EXPECT_EQ(set.instances[0].lighting,
              "LDR leaf ambient cube at (500 600 700) (the prop's lighting origin)");
}

TEST(SourcePropsScene, MissingMaterialIsTheMissingTileAndAWarning) {
    PropScene s;
    std::filesystem::remove(s.dir / "materials/models/test/tex.vtf");
    s.map.entities.push_back(entity(
        {{"classname", "prop_dynamic"}, {"model", "models/test/x.mdl"}, {"origin", "0 0 0"}}));
    const scene::EntityModelSet set = s.load();
    ASSERT_EQ(set.instances.size(), 1u);
    const scene::LoadedModel& model = set.models[set.instances[0].model];
    ASSERT_EQ(model.mesh->images.size(), 1u);
    EXPECT_EQ(model.mesh->images[0].width, 64); // content::makeMissingTexture()
    ASSERT_EQ(model.warnings.size(), 1u);
    EXPECT_NE(model.warnings[0].find("materials/models/test/tex.vmt"), std::string::npos);
}

namespace {

// A point light of the engine's default attenuation (quadratic 1) `height` units above `at`.
bsp::WorldLight pointLight(const glm::vec3& at, float height, const glm::vec3& intensity) {
    bsp::WorldLight l;
    l.type = bsp::EmitType::Point;
    l.origin = at + glm::vec3(0, 0, height);
    l.intensity = intensity;
    l.cluster = 0;
    bsp::fixUpWorldLight(l, false);
    return l;
}

} // namespace

// A prop lit by one point light 100 units above it: the light becomes the one local light (the
// engine's WorldLightToMaterialLight: quadratic 1), and a vertex at the origin facing up gets
// the +z side of the cube (0.1) plus (5000, 2500, 0) / 100^2 = (0.5, 0.25, 0); one facing +x
// gets the cube's +x side alone.
TEST(SourcePropsScene, PropLitByOnePointLightAsTheEngine) {
    PropScene s;
    const glm::vec3 origin(16, 16, 64);
    s.map.world_lights.push_back(pointLight(origin, 100.0f, {5000, 2500, 0}));
    s.map.entities.push_back(entity(
        {{"classname", "prop_dynamic"}, {"model", "models/test/x.mdl"}, {"origin", "16 16 64"}}));
    const scene::EntityModelSet set = s.load();
    ASSERT_EQ(set.instances.size(), 1u);
    const scene::EntityModelInstance& inst = set.instances[0];
    ASSERT_EQ(inst.local_light_count, 1u);
    const scene::SourceLocalLight& l = inst.local_lights[0];
    EXPECT_EQ(l.colour, glm::vec3(5000, 2500, 0));
    EXPECT_EQ(l.position, glm::vec3(16, 16, 164));
    EXPECT_EQ(l.attenuation, glm::vec3(0, 0, 1));
    EXPECT_FALSE(l.directional || l.cone);
    EXPECT_NE(inst.lighting.find("+ world lights 0"), std::string::npos) << inst.lighting;
    scene::SourcePropLight light;
    light.cube = inst.ambient_cube;
    light.cube[4] = glm::vec3(0.1f);
    light.lights[0] = l;
    light.light_count = 1;
    const glm::vec3 up = scene::sourceVertexLight(light, origin, {0, 0, 1});
    EXPECT_NEAR(up.r, 0.6f, 1e-6f);
    EXPECT_NEAR(up.g, 0.35f, 1e-6f);
    EXPECT_NEAR(up.b, 0.1f, 1e-6f);
    const glm::vec3 side = scene::sourceVertexLight(light, origin, {1, 0, 0});
    EXPECT_NEAR(side.r, 51.0f / 256.0f, 1e-6f);
    EXPECT_NEAR(side.b, 51.0f / 256.0f, 1e-6f);
}

// AddWorldLightToLightingState with five lights and four slots: the dimmest (illum = ratio *
// grey) gives its slot to a brighter one and goes into the ambient cube by its direction's
// cosines (AddWorldLightToLightCube); one below r_worldlightmin goes there too; a styled light
// and one the cell's radius test rejects are left out.
TEST(SourcePropsScene, FourBrightestWorldLightsStayLocal) {
    bsp::Map map;
    map.format = bsp::Format::Source;
    map.leaves.resize(1);
    const glm::vec3 o(16, 16, 64);
    std::vector<bsp::WorldLight> lights;
    for (float k : {4.0f, 1.0f, 3.0f, 5.0f, 2.0f}) // light 1 is the dimmest
        lights.push_back(pointLight(o, 10.0f, glm::vec3(k * 100.0f)));
    // Bright enough to count (0.03 * 0.01 >= 0.0002), too dim in grey for a slot (0.114 * that).
    lights.push_back(pointLight(o, 10.0f, {0.0f, 0.0f, 0.03f}));
    lights.push_back(pointLight(o, 10.0f, glm::vec3(900.0f)));
    lights.back().style = 1;
    lights.push_back(pointLight(o, 200.0f, glm::vec3(900.0f)));
    lights.back().radius = 5.0f; // 136 units above the light cache cell (z 0..128)
    const scene::SourcePropLight p = scene::lightSourceProp(map, lights, nullptr, o, {});
    ASSERT_EQ(p.light_count, 4u);
    std::vector<int32_t> kept(p.world_light.begin(), p.world_light.end());
    std::sort(kept.begin(), kept.end());
    EXPECT_EQ(kept, (std::vector<int32_t>{0, 2, 3, 4}));
    // Light 1 (100 at 10 units: ratio 0.01, grey 1 each) from straight above: +z gets 100 * 0.01,
    // light 5 adds 0.03 * 0.01 to blue; the other sides nothing.
    EXPECT_NEAR(p.cube[4].r, 1.0f, 1e-6f);
    EXPECT_NEAR(p.cube[4].g, 1.0f, 1e-6f);
    EXPECT_NEAR(p.cube[4].b, 1.0003f, 1e-6f);
    for (int side : {0, 1, 2, 3, 5})
        EXPECT_EQ(p.cube[size_t(side)], glm::vec3(0.0f)) << side;
}

TEST(SourcePropsScene, FadeDistancesReadAsTheEngineReadsThem) {
    const glm::vec3 c(1, 2, 3);
    EXPECT_EQ(scene::sourcePropFade(0, 0, c).max_sq, 0.0f);  // no fade
    EXPECT_EQ(scene::sourcePropFade(-1, 0, c).max_sq, 0.0f); // prop_dynamic's defaults
    const scene::DistanceFade f = scene::sourcePropFade(500, 1000, c);
    EXPECT_EQ(f.min_sq, 250000.0f);
    EXPECT_EQ(f.max_sq, 1000000.0f);
    EXPECT_EQ(f.centre, c);
    const scene::DistanceFade swapped = scene::sourcePropFade(1000, 500, c);
    EXPECT_EQ(swapped.min_sq, 250000.0f);
    EXPECT_EQ(swapped.max_sq, 1000000.0f);
    EXPECT_EQ(scene::sourcePropFade(-1, 1000, c).min_sq, 600.0f * 600.0f); // max - 400
    EXPECT_EQ(scene::sourcePropFade(-1, 300, c).min_sq, 0.0f);             // at least 0
    const scene::DistanceFade only_min = scene::sourcePropFade(500, 0, c); // swapped to 0..500
    EXPECT_EQ(only_min.min_sq, 0.0f);
    EXPECT_EQ(only_min.max_sq, 250000.0f);
}

TEST(SourcePropsScene, FadeOpacityIsLinearInTheSquaredDistance) {
    scene::DistanceFade f;
    f.centre = glm::vec3(0, 0, 100);
    EXPECT_EQ(scene::distanceFadeOpacity(f, {5000, 0, 100}), 1.0f); // max_sq 0: never fades
    f.min_sq = 300.0f * 300.0f;
    f.max_sq = 500.0f * 500.0f;
    EXPECT_EQ(scene::distanceFadeOpacity(f, {300, 0, 100}), 1.0f);
    EXPECT_EQ(scene::distanceFadeOpacity(f, {500, 0, 100}), 0.0f);
    EXPECT_EQ(scene::distanceFadeOpacity(f, {0, 900, 100}), 0.0f);
    // d^2 = 170000, halfway between 90000 and 250000.
    EXPECT_NEAR(scene::distanceFadeOpacity(f, {0, std::sqrt(170000.0f), 100}), 0.5f, 1e-4f);
    EXPECT_EQ(scene::distanceFadeOpacity(f, {NAN, 0, 0}), 1.0f);
}

TEST(SourcePropsScene, PropsFadeByTheirKeysOrTheirRecordsFlag) {
    PropScene s;
    bsp::StaticProp fading;
    fading.origin = glm::vec3(10, 20, 30);
    fading.flags = bsp::kStaticPropFades;
    fading.fade_min = 300;
    fading.fade_max = 400;
    bsp::StaticProp steady = fading;
    steady.flags = 0; // distances without STATIC_PROP_FLAG_FADES: never fades
    s.map.static_props.models = {"models/test/x.mdl"};
    s.map.static_props.props = {fading, steady};
    for (int k = 0; k < 2; ++k)
        s.map.entities.push_back(entity({{"classname", "prop_static"},
                                         {"model", "models/test/x.mdl"},
                                         {"origin", "0 0 0"},
                                         {"_sprp", std::to_string(k)}}));
    s.map.entities.push_back(entity({{"classname", "prop_dynamic"},
                                     {"model", "models/test/x.mdl"},
                                     {"origin", "100 200 300"},
                                     {"fademindist", "-1"},
                                     {"fademaxdist", "600"}}));
    const scene::EntityModelSet set = s.load();
    ASSERT_EQ(set.instances.size(), 3u);
    EXPECT_EQ(set.instances[0].fade.min_sq, 90000.0f);
    EXPECT_EQ(set.instances[0].fade.max_sq, 160000.0f);
    // The centre of the model's bounds (0 0 0)..(2 0 2) through the prop's matrix.
    EXPECT_EQ(set.instances[0].fade.centre, glm::vec3(11, 20, 31));
    EXPECT_EQ(set.instances[1].fade.max_sq, 0.0f);
    EXPECT_EQ(set.instances[2].fade.min_sq, 200.0f * 200.0f);
    EXPECT_EQ(set.instances[2].fade.max_sq, 600.0f * 600.0f);
    EXPECT_EQ(set.instances[2].fade.centre, glm::vec3(101, 200, 301));

    // Visibility drops the faded one only once the eye is past its end.
    const scene::WorldMesh mesh = scene::buildWorldMesh(s.map);
    scene::Visibility vis(s.map, mesh, &set.instances);
    scene::DrawList list;
    scene::Camera cam;
    cam.position = {11 - 399, 20, 31}; // looking along +x at all three
    vis.update(cam, {}, list);
    EXPECT_EQ(list.models, (std::vector<uint32_t>{0, 1, 2}));
    EXPECT_EQ(list.stats.models_faded, 0u);
    cam.position = {11 - 401, 20, 31};
    vis.update(cam, {}, list);
    EXPECT_EQ(list.models, (std::vector<uint32_t>{1, 2}));
    EXPECT_EQ(list.stats.models_faded, 1u);
    EXPECT_EQ(list.stats.models_drawn, 2u);
}

namespace {

// A 4x4 DXT1 VTF 7.2 with one-bit alpha and its 3 mips (1x1, 2x2, 4x4: a block each, smallest
// first), every texel of every level transparent black (three-colour mode, index 3).
std::vector<uint8_t> transparentDxt1Vtf() {
    testsupport::VtfSpec spec;
    spec.width = spec.height = 4;
    spec.flags = content::kVtfFlagOneBitAlpha;
    spec.format = content::VtfFormat::DXT1;
    spec.mips = 3;
    std::vector<uint8_t> blocks;
    for (int level = 0; level < 3; ++level)
        for (uint8_t v : {0x00, 0x00, 0x1f, 0x00, 0xff, 0xff, 0xff, 0xff}) // c0 0 <= c1 blue
            blocks.push_back(v);
    return testsupport::makeVtf(spec, blocks);
}

} // namespace

TEST(SourcePropsScene, MaterialsBringTheirFilesMips) {
    for (const bool alphatest : {true, false}) {
        PropScene s;
        writeText(s.dir / "materials/models/test/tex.vmt",
                  std::string("VertexLitGeneric { $basetexture \"models/test/tex\" ") +
                      (alphatest ? "$alphatest 1 }" : "}"));
        writeBytes(s.dir / "materials/models/test/tex.vtf", transparentDxt1Vtf());
        s.map.entities.push_back(entity(
            {{"classname", "prop_dynamic"}, {"model", "models/test/x.mdl"}, {"origin", "0 0 0"}}));
        const scene::EntityModelSet set = s.load();
        ASSERT_EQ(set.instances.size(), 1u);
        const scene::LoadedModel& model = set.models[set.instances[0].model];
        ASSERT_TRUE(model.mesh && model.mesh->images.size() == 1u);
        const content::ModelImage& img = model.mesh->images[0];
        // Levels 1 and 2 (2x2 and 1x1) as the file holds them.
        ASSERT_EQ(img.mips.size(), 2u);
        EXPECT_EQ(img.mips[0].width, 2);
        EXPECT_EQ(img.mips[1].width, 1);
        // An alpha-tested material keeps the file's alpha at every level (the cut follows the
        // file's mips); an opaque one has its alpha set to 255 at every level.
        const uint8_t alpha = alphatest ? 0 : 255;
        EXPECT_EQ(img.rgba[3], alpha);
        EXPECT_EQ(img.mips[0].rgba[3], alpha);
        EXPECT_EQ(img.mips[1].rgba[3], alpha);
    }
}
