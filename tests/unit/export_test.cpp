// Export (export/export.h) of the tiny Quake 3 map of tests/support, read back with tinygltf.
//
// The map (q3_builder.h Q3Builder::tiny): textures wall, sky, mist (nodraw fog); face 0 a wall
// quad 64x64 at z = 0 on lightmap page 0 (2 triangles), face 1 a wall triangle soup on page 1
// (1 triangle, x 0..16, y 100, z 0..8), face 2 a vertex-lit 3x3 wall patch x 0..64,
// y 200..264 whose middle control point is at z = 32, face 3 a flare (never exported), face 4
// the door's 16x16 wall quad at z = 4 on page 0, owned by func_door with origin 0 0 8. Two
// submodels, two entities.
//
// By hand: the patch at level 4 is 5x5 vertices, 4 x 4 quads, 32 triangles; its top is the
// Bezier middle 32 * (2 t (1 - t))^2 at t = 1/2: z = 8. Triangles 2 + 1 + 32 + 2 = 37. Bounds
// in Quake units x 0..64, y 0..264, z 0..12 (the door's 4 + 8), so in metres with +Y up
// (x, z, -y) * 0.0254: mins (0, 0, -6.7056), maxs (1.6256, 0.3048, 0).
#include "export/export.h"

#include "content/image/image.h"
#include "scene/load/map_bundle.h"
#include "support/gltf_check.h"
#include "support/q3_builder.h"
#include "unit/content_test_util.h"

#include <gtest/gtest.h>

#include <fstream>
#include <optional>
#include <sstream>

using namespace content_test;

namespace {

constexpr float kInch = 0.0254f;
constexpr float kEps = 1e-6f; // metres: float rounding of (vertex + origin) * scale

struct Fixture {
    TempDir dir;
    std::unique_ptr<scene::MapBundle> bundle;

    explicit Fixture(const q3test::Q3Builder& b = q3test::Q3Builder::tiny(),
                     bool wall_texture = false) {
        writeBytes(dir / "maps/tiny.bsp", b.build());
        if (wall_texture)
            writeBytes(dir / "textures/base/wall.tga", wallTga());
        auto r = scene::loadMapBundle((dir / "maps/tiny.bsp").string(), {});
        EXPECT_TRUE(r) << (r ? "" : r.error().message());
        if (r)
            bundle = std::move(*r);
    }

    // 2x1 uncompressed 24-bit TGA, top row stored first (descriptor bit 5): red, blue.
    static Bytes wallTga() {
        Bytes b(18, 0);
        b[2] = 2;
        b[12] = 2;
        b[14] = 1;
        b[16] = 24;
        b[17] = 0x20;
        b.insert(b.end(), {0, 0, 255, 255, 0, 0}); // BGR
        return b;
    }

    gltftest::Summary exportAndRead(const std::string& name, const exporter::ExportOptions& o,
                                    tinygltf::Model* out = nullptr) {
        auto r = exporter::exportMap(*bundle, dir / name, o, "bspview test");
        EXPECT_TRUE(r) << (r ? "" : r.error().message());
        tinygltf::Model model;
        if (!r || !gltftest::load(dir / name, model))
            return {};
        gltftest::Summary s = gltftest::summarize(model);
        EXPECT_EQ(r->nodes, s.nodes);
        EXPECT_EQ(r->materials, s.materials);
        EXPECT_EQ(r->triangles, s.triangles);
        if (out)
            *out = std::move(model);
        return s;
    }
};

void expectVec(glm::vec3 got, glm::vec3 want) {
    EXPECT_NEAR(got.x, want.x, kEps);
    EXPECT_NEAR(got.y, want.y, kEps);
    EXPECT_NEAR(got.z, want.z, kEps);
}

std::string readText(const std::filesystem::path& p) {
    std::ifstream f(p);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

size_t countLines(const std::string& text, std::string_view prefix) {
    size_t n = 0;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        n += line.rfind(prefix, 0) == 0 ? 1 : 0;
    return n;
}

} // namespace

TEST(ExportNames, FileStemsAreSafeRelativePaths) {
    EXPECT_EQ(exporter::textureFileStem("textures/base_wall/concrete"),
              "textures/base_wall/concrete");
    EXPECT_EQ(exporter::textureFileStem("*water1"), "_water1");
    EXPECT_EQ(exporter::textureFileStem("+0slime"), "+0slime");
    EXPECT_EQ(exporter::textureFileStem("{grate"), "_grate");
    EXPECT_EQ(exporter::textureFileStem("../../etc/passwd"), "etc/passwd");
    EXPECT_EQ(exporter::textureFileStem("/abs//x y"), "abs/x_y");
    EXPECT_EQ(exporter::textureFileStem("a\\b"), "a/b");
    EXPECT_EQ(exporter::textureFileStem(""), "_");
    EXPECT_EQ(exporter::uniqueTextureStems({"*a", "_a", "*a", "b"}),
              (std::vector<std::string>{"_a", "_a~2", "_a~3", "b"}));
}

TEST(ExportNames, FormatFromExtension) {
    EXPECT_EQ(*exporter::exportFormatOf("x/map.GLB"), exporter::ExportFormat::Glb);
    EXPECT_EQ(*exporter::exportFormatOf("map.gltf"), exporter::ExportFormat::Gltf);
    EXPECT_EQ(*exporter::exportFormatOf("map.obj"), exporter::ExportFormat::Obj);
    auto bad = exporter::exportFormatOf("map.fbx");
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().code, core::ErrorCode::BadArgument);
}

TEST(ExportAxes, QuakeZUpInchesToGltfYUpMetres) {
    expectVec(exporter::toExportAxes({1, 2, 3}, 1.0f), {1, 3, -2});
    expectVec(exporter::toExportAxes({100, 0, 0}, kInch), {2.54f, 0, 0});
}

TEST(ExportGlb, TinyMapRoundTrip) {
    Fixture f;
    ASSERT_TRUE(f.bundle);
    tinygltf::Model model;
    const gltftest::Summary s = f.exportAndRead("tiny.glb", {}, &model);
    EXPECT_EQ(s.nodes, 4u); // world, *1, worldspawn, func_door
    EXPECT_EQ(s.meshes, 2u);
    EXPECT_EQ(s.primitives, 4u); // world: page 0, page 1, vertex lit; door: page 0
    EXPECT_EQ(s.materials, 3u);  // wall#lm0, wall#lm1, wall (vertex lit)
    EXPECT_EQ(s.images, 3u);     // the wall (missing tile) and two lightmap pages
    EXPECT_EQ(s.with_lightmap_uv, 3u);
    EXPECT_EQ(s.with_colour, 1u); // the vertex-lit patch carries its light as COLOR_0
    EXPECT_EQ(s.triangles, 37u);
    // The mesh winds front faces clockwise as the games do; glTF viewers cull by
    // counter-clockwise fronts, so every triangle is turned around (the patch as well). The
    // soup's builder NORMAL (0, 0, 1) lies in its plane y = 100: it cannot tell.
    EXPECT_EQ(s.front_ccw, 36u);
    EXPECT_EQ(s.clockwise, 0u);
    EXPECT_EQ(s.untold, 1u);
    expectVec(s.mins, {0.0f, 0.0f, -264 * kInch});
    expectVec(s.maxs, {64 * kInch, 12 * kInch, 0.0f});

    // The door: an entity node at the origin its model is drawn at, carrying the model.
    const tinygltf::Node* door = gltftest::entityNode(model, "func_door");
    ASSERT_NE(door, nullptr);
    EXPECT_EQ(door->extras.Get("model").Get<std::string>(), "*1");
    EXPECT_EQ(door->extras.Get("origin").Get<std::string>(), "0 0 8");
    ASSERT_EQ(door->translation.size(), 3u);
    EXPECT_NEAR(door->translation[1], 8 * kInch, kEps);
    ASSERT_EQ(door->children.size(), 1u);
    EXPECT_EQ(model.nodes[static_cast<size_t>(door->children[0])].name, "*1");
    ASSERT_NE(gltftest::entityNode(model, "worldspawn"), nullptr);
    EXPECT_EQ(model.asset.generator, "bspview test");

    // The lightmap convention: occlusion texture on TEXCOORD_1, the page in extras.
    int lit = 0;
    for (const tinygltf::Material& m : model.materials) {
        EXPECT_EQ(m.extras.Get("bsp_material").Get<std::string>(), "textures/base/wall");
        if (m.occlusionTexture.index >= 0) {
            ++lit;
            EXPECT_EQ(m.occlusionTexture.texCoord, 1);
            EXPECT_TRUE(m.extras.Has("lightmap_page"));
        }
        EXPECT_EQ(m.alphaMode, "OPAQUE");
    }
    EXPECT_EQ(lit, 2);
}

// Quake 3 lightmap pages are written as the light the renderer multiplies the texture by
// before its output doubling: texel x 2, scaled down by its largest channel past 255. The
// builder's lightmap byte i is (i * 7 + page) mod 256, so page 0 holds texel (0, 7, 14) ->
// (0, 14, 28) and texel (210, 217, 224) -> (420, 434, 448) * 255 / 448 = (239.06, 247.03, 255)
// -> (239, 247, 255); lightmap_scale is the output doubling, 2.
TEST(ExportGlb, Quake3PagesHoldTheSaturatedLight) {
    Fixture f;
    ASSERT_TRUE(f.bundle);
    tinygltf::Model model;
    f.exportAndRead("tiny.glb", {}, &model);
    const tinygltf::Image* page = nullptr;
    for (const tinygltf::Image& img : model.images)
        if (img.name == "lightmap_000")
            page = &img;
    ASSERT_NE(page, nullptr);
    const std::vector<uint8_t>& source = f.bundle->lightmaps.pages.at(0).rgb;
    ASSERT_EQ(static_cast<size_t>(page->width) * static_cast<size_t>(page->height) * 3,
              source.size());
    const auto exportedAt = [&](uint8_t r, uint8_t g, uint8_t b) -> std::optional<glm::u8vec3> {
        const auto c = static_cast<size_t>(page->component);
        for (size_t t = 0; t + 2 < source.size(); t += 3)
            if (source[t] == r && source[t + 1] == g && source[t + 2] == b)
                return glm::u8vec3(page->image[t / 3 * c], page->image[t / 3 * c + 1],
                                   page->image[t / 3 * c + 2]);
        return std::nullopt;
    };
    EXPECT_EQ(exportedAt(0, 7, 14), glm::u8vec3(0, 14, 28));
    EXPECT_EQ(exportedAt(210, 217, 224), glm::u8vec3(239, 247, 255));
    EXPECT_EQ(model.scenes.at(0).extras.Get("lightmap_scale").GetNumberAsDouble(), 2.0);
}

TEST(ExportGlb, BakedAndUnlit) {
    Fixture f;
    ASSERT_TRUE(f.bundle);
    exporter::ExportOptions baked;
    baked.lighting = exporter::ExportLighting::Baked;
    const gltftest::Summary b = f.exportAndRead("baked.glb", baked);
    EXPECT_EQ(b.materials, 1u);
    EXPECT_EQ(b.images, 1u);
    EXPECT_EQ(b.with_colour, 2u); // one primitive per node now
    EXPECT_EQ(b.with_lightmap_uv, 0u);
    EXPECT_EQ(b.triangles, 37u);

    exporter::ExportOptions none;
    none.lighting = exporter::ExportLighting::None;
    const gltftest::Summary n = f.exportAndRead("none.glb", none);
    EXPECT_EQ(n.materials, 1u);
    EXPECT_EQ(n.with_colour, 0u);
    EXPECT_EQ(n.with_lightmap_uv, 0u);
}

TEST(ExportGlb, ScaleIsMetresPerUnit) {
    Fixture f;
    ASSERT_TRUE(f.bundle);
    exporter::ExportOptions o;
    o.scale = 1.0f;
    const gltftest::Summary s = f.exportAndRead("units.glb", o);
    expectVec(s.mins, {0, 0, -264});
    expectVec(s.maxs, {64, 12, 0});
}

TEST(ExportGlb, ToolSurfacesOnlyWithExportAll) {
    q3test::Q3Builder b = q3test::Q3Builder::tiny();
    b.faces[1].texture = 2; // the soup becomes textures/fog/mist (nodraw, fog)
    Fixture f(b);
    ASSERT_TRUE(f.bundle);
    const gltftest::Summary def = f.exportAndRead("default.glb", {});
    EXPECT_EQ(def.triangles, 36u);
    EXPECT_EQ(def.materials, 2u);
    exporter::ExportOptions all;
    all.include_hidden = true;
    tinygltf::Model model;
    const gltftest::Summary s = f.exportAndRead("all.glb", all, &model);
    EXPECT_EQ(s.triangles, 37u);
    EXPECT_EQ(s.materials, 3u);
    bool mist = false;
    for (const tinygltf::Material& m : model.materials)
        mist |= m.extras.Get("bsp_material").Get<std::string>() == "textures/fog/mist";
    EXPECT_TRUE(mist);
}

TEST(ExportGltf, ImagesAndBufferBeside) {
    Fixture f(q3test::Q3Builder::tiny(), true);
    ASSERT_TRUE(f.bundle);
    tinygltf::Model model;
    const gltftest::Summary s = f.exportAndRead("out/tiny.gltf", {}, &model);
    EXPECT_EQ(s.triangles, 37u);
    EXPECT_TRUE(std::filesystem::is_regular_file(f.dir / "out/tiny.bin"));
    const auto wall = f.dir / "out/tiny_images/textures/base/wall.png";
    ASSERT_TRUE(std::filesystem::is_regular_file(wall));
    EXPECT_TRUE(std::filesystem::is_regular_file(f.dir / "out/tiny_images/lightmap_000.png"));
    EXPECT_TRUE(std::filesystem::is_regular_file(f.dir / "out/tiny_images/lightmap_001.png"));
    // The texture as decoded from the TGA: red, blue.
    std::ifstream in(wall, std::ios::binary);
    const Bytes png((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto img = content::decodeImage(png, "wall.png");
    ASSERT_TRUE(img);
    ASSERT_EQ(img->width, 2);
    ASSERT_EQ(img->height, 1);
    EXPECT_EQ(img->rgba, (std::vector<uint8_t>{255, 0, 0, 255, 0, 0, 255, 255}));
}

TEST(ExportObj, GeometryMaterialsAndTextures) {
    Fixture f(q3test::Q3Builder::tiny(), true);
    ASSERT_TRUE(f.bundle);
    auto r = exporter::exportMap(*f.bundle, f.dir / "tiny.obj", {}, "t");
    ASSERT_TRUE(r) << r.error().message();
    const std::string obj = readText(f.dir / "tiny.obj");
    const std::string mtl = readText(f.dir / "tiny.mtl");
    EXPECT_EQ(countLines(obj, "f "), 37u);
    EXPECT_EQ(countLines(obj, "o "), 2u); // the world and the door
    EXPECT_EQ(countLines(obj, "mtllib tiny.mtl"), 1u);
    // OBJ carries lighting as vertex colours (baked): one material.
    EXPECT_EQ(countLines(mtl, "newmtl "), 1u);
    EXPECT_EQ(countLines(mtl, "map_Kd tiny_textures/textures/base/wall.png"), 1u);
    EXPECT_TRUE(std::filesystem::is_regular_file(f.dir / "tiny_textures/textures/base/wall.png"));
    // Every vertex line has a colour: x y z r g b.
    std::istringstream in(obj);
    size_t vertices = 0;
    for (std::string line; std::getline(in, line);)
        if (line.rfind("v ", 0) == 0) {
            ++vertices;
            std::istringstream fields(line.substr(2));
            float v[6];
            int n = 0;
            while (n < 6 && fields >> v[n])
                ++n;
            EXPECT_EQ(n, 6) << line;
        }
    // quad 4 + soup 3 + patch 25 + door 4
    EXPECT_EQ(vertices, 36u);
}

TEST(ExportTextures, EveryTextureLightmapsAndMissingList) {
    Fixture f(q3test::Q3Builder::tiny(), true);
    ASSERT_TRUE(f.bundle);
    auto r = exporter::exportTextures(*f.bundle, f.dir / "tex");
    ASSERT_TRUE(r) << r.error().message();
    EXPECT_EQ(r->textures, 1u);
    EXPECT_EQ(r->lightmaps, 2u);
    EXPECT_EQ(r->missing, (std::vector<std::string>{"textures/fog/mist", "textures/skies/sky"}));
    EXPECT_TRUE(std::filesystem::is_regular_file(f.dir / "tex/textures/base/wall.png"));
    EXPECT_EQ(readText(f.dir / "tex/missing.txt"), "textures/fog/mist\ntextures/skies/sky\n");
    // Page 1 as the builder wrote it: byte i of the lump is i * 7 + i / 49152 (mod 256).
    std::ifstream in(f.dir / "tex/lightmaps/page_001.png", std::ios::binary);
    const Bytes png((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto img = content::decodeImage(png, "page_001.png");
    ASSERT_TRUE(img);
    ASSERT_EQ(img->width, 128);
    ASSERT_EQ(img->height, 128);
    const size_t i = 49152 + 4; // texel 1 of page 1, green channel (4 = 3 + 1)
    EXPECT_EQ(img->rgba[4 + 1], static_cast<uint8_t>(i * 7 + 1));
}

TEST(ExportErrors, UnwritablePathNamesTheFile) {
    Fixture f;
    ASSERT_TRUE(f.bundle);
    writeText(f.dir / "file", "x");
    for (const char* name : {"file/x.glb", "file/x.gltf", "file/x.obj"}) {
        auto r = exporter::exportMap(*f.bundle, f.dir / name, {}, "t");
        ASSERT_FALSE(r) << name;
        EXPECT_EQ(r.error().code, core::ErrorCode::FileWrite) << name;
        EXPECT_NE(r.error().message().find("file/x"), std::string::npos) << r.error().message();
    }
    auto t = exporter::exportTextures(*f.bundle, f.dir / "file/tex");
    ASSERT_FALSE(t);
    EXPECT_EQ(t.error().code, core::ErrorCode::FileWrite);
}

// Baked light, by hand. Quake 3 rules: light = texel * 2, scaled down by its largest channel
// when that passes 1, then doubled (overbright output), clamped to 1. The builder's lightmap
// byte i is (i * 7 + page) mod 256 and vertices have lm_uv = st / 2, so:
// - the quad's vertex at (0, 0, 0) samples texel (0, 0) of page 0: (0, 7, 14) * 4 = (0, 28, 56);
// - the soup's vertex at (0, 100, 0) texel (0, 0) of page 1: (1, 8, 15) * 4 = (4, 32, 60);
// - the patch is vertex lit with white (255): 2, scaled down to 1, doubled, clamped: 255.
TEST(ExportScene, BakedLightFollowsTheGamesRules) {
    Fixture f;
    ASSERT_TRUE(f.bundle);
    exporter::ExportOptions o;
    o.lighting = exporter::ExportLighting::Baked;
    o.scale = 1.0f;
    const exporter::ExportScene s = exporter::buildExportScene(*f.bundle, o);
    // The pages are written saturated (light x 2, hue kept): a viewer only doubles them.
    EXPECT_TRUE(s.saturate_pages);
    EXPECT_FLOAT_EQ(s.page_scale, 2.0f);
    EXPECT_FLOAT_EQ(s.light_scale, 2.0f);
    ASSERT_EQ(s.meshes.size(), 2u);
    ASSERT_EQ(s.meshes[0].size(), 1u);
    const exporter::ExportPrimitive& p = s.meshes[0][0];
    const auto colourAt = [&](glm::vec3 quake) -> std::optional<glm::u8vec4> {
        const glm::vec3 want = exporter::toExportAxes(quake, 1.0f);
        for (size_t i = 0; i < p.positions.size(); ++i)
            if (glm::all(glm::lessThan(glm::abs(p.positions[i] - want), glm::vec3(1e-4f))))
                return p.colours[i];
        return std::nullopt;
    };
    EXPECT_EQ(colourAt({0, 0, 0}), glm::u8vec4(0, 28, 56, 255));
    EXPECT_EQ(colourAt({0, 100, 0}), glm::u8vec4(4, 32, 60, 255));
    EXPECT_EQ(colourAt({0, 200, 0}), glm::u8vec4(255, 255, 255, 255));
}

// Patches at another level than the mesh on screen: level 2 makes the patch 3x3 vertices,
// 2 x 2 quads, 8 triangles; 2 + 1 + 8 + 2 = 13 in all. Level 0 keeps the bundle's (4): 37.
TEST(ExportScene, PatchLevel) {
    Fixture f;
    ASSERT_TRUE(f.bundle);
    exporter::ExportOptions o;
    o.patch_level = 2;
    EXPECT_EQ(exporter::buildExportScene(*f.bundle, o).triangles, 13u);
    o.patch_level = 0;
    EXPECT_EQ(exporter::buildExportScene(*f.bundle, o).triangles, 37u);
}
