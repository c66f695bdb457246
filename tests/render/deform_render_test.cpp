// deformVertexes on a real GL context (Mesa llvmpipe under xvfb-run): a synthetic Quake 3 map
// (tests/unit/q3_builder.h) with a shader script added in memory, drawn through the same
// upload path as the app. Every test checks that the KHR_debug callback saw no GL error.
#include "content/material/q3_shader.h"
#include "content/material/shader_library.h"
#include "gl_fixture.h"
#include "render/world_renderer.h"
#include "render/world_upload.h"
#include "scene/load/map_bundle.h"
#include "scene/view/visibility.h"
#include "support/q3_builder.h"

#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

namespace {

const glm::vec4 kClear{0.0f, 1.0f, 0.0f, 1.0f}; // pure green: the white stage never is
constexpr int kW = 160, kH = 90;

// One leaf, one model, one face: the quad `corners` (fan 0 1 2, 0 2 3) with texture `name`,
// vertex lit (no lightmap). With `patch_before`, a flat 3 x 3 Bezier patch (texture
// "textures/test/patch") 300 units behind the origin along -X comes first, so the patch's
// tessellation decides where the quad's vertices land in the mesh.
std::vector<uint8_t> oneQuadMap(const std::string& name, const std::array<glm::vec3, 4>& corners,
                                bool patch_before = false) {
    q3test::Q3Builder b;
    b.entities = "{\n\"classname\" \"worldspawn\"\n}\n";
    b.textures = {{name, 0, 1}};
    b.planes = {{{1, 0, 0, 0}}};
    b.nodes.resize(1);
    b.nodes[0].children[0] = -1;
    b.nodes[0].children[1] = -1;
    b.leafs.resize(1);
    b.leafs[0].cluster = -1; // no vis: always drawn
    b.leafs[0].mins[0] = b.leafs[0].mins[1] = b.leafs[0].mins[2] = -256;
    b.leafs[0].maxs[0] = b.leafs[0].maxs[1] = b.leafs[0].maxs[2] = 256;
    b.leafs[0].first_face = 0;
    b.leafs[0].num_faces = 1;
    b.leaf_faces = {0};
    b.models.resize(1);
    for (int k = 0; k < 3; ++k) {
        b.models[0].mins[k] = -256;
        b.models[0].maxs[k] = 256;
    }
    b.models[0].first_face = 0;
    b.models[0].num_faces = 1;
    if (patch_before) {
        b.textures.push_back({"textures/test/patch", 0, 1});
        q3test::FaceRec patch;
        patch.texture = 1;
        patch.type = 2;
        patch.num_vertices = 9;
        patch.patch_w = patch.patch_h = 3;
        for (int row = 0; row < 3; ++row)
            for (int col = 0; col < 3; ++col)
                b.vertices.push_back(q3test::Q3Builder::vertex(
                    -300.0f, static_cast<float>(col * 16 - 16), static_cast<float>(row * 16 - 16)));
        b.faces.push_back(patch);
        b.leafs[0].num_faces = b.models[0].num_faces = 2;
        b.leaf_faces = {0, 1};
    }
    const auto first = static_cast<int32_t>(b.vertices.size());
    for (const glm::vec3& c : corners)
        b.vertices.push_back(q3test::Q3Builder::vertex(c.x, c.y, c.z));
    b.meshverts = {0, 1, 2, 0, 2, 3};
    q3test::FaceRec f;
    f.type = 1;
    f.first_vertex = first;
    f.num_vertices = 4;
    f.first_meshvert = 0;
    f.num_meshverts = 6;
    f.lightmap = -1;
    b.faces.push_back(f);
    return b.build();
}

class DeformRender : public gltest::GlFixture {
protected:
    // Loads the map from a file, adds `script`, and redoes what the shaders decide (flags,
    // stages, mesh passes, sprite data) as loadMapBundle does.
    std::unique_ptr<scene::MapBundle> load(const std::vector<uint8_t>& bytes,
                                           const std::string& file, const std::string& script) {
        const std::filesystem::path path = std::filesystem::path(testing::TempDir()) / file;
        {
            std::ofstream out(path, std::ios::binary);
            out.write(reinterpret_cast<const char*>(bytes.data()),
                      static_cast<std::streamsize>(bytes.size()));
        }
        auto b = scene::loadMapBundle(path.string(), scene::LoadSettings());
        EXPECT_TRUE(b.ok()) << (b.ok() ? "" : b.error().message());
        if (!b.ok())
            return nullptr;
        std::unique_ptr<scene::MapBundle> bundle = std::move(*b);
        bundle->shaders.addScript(content::parseShaderScript(script, "scripts/test.shader"));
        bundle->materials =
            scene::resolveMaterials(bundle->map, &bundle->shaders, bundle->textures);
        bundle->stages = scene::buildMaterialStages(bundle->map, bundle->materials, bundle->shaders,
                                                    *bundle->fs);
        bundle->mesh = scene::buildMapMesh(bundle->map, bundle->materials, bundle->stages);
        return bundle;
    }

    static std::unique_ptr<render::WorldRenderer> uploaded(const scene::MapBundle& b) {
        auto r = std::make_unique<render::WorldRenderer>();
        std::string error;
        EXPECT_TRUE(r->init(render::GlslLibrary(), &error)) << error;
        const core::Status st = render::uploadBundle(*r, b);
        EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error().message());
        return r;
    }

    struct Shot {
        size_t pixels = 0; // not background
        int min_x = kW, max_x = -1, min_y = kH, max_y = -1;
        double centre_x = 0.0;
    };

    Shot shoot(render::WorldRenderer& r, const scene::MapBundle& b, const scene::Camera& cam,
               double time) {
        scene::Visibility vis(b.map, b.mesh);
        scene::DrawList list;
        scene::VisOptions vo;
        vo.pvs = false;
        vo.frustum = false;
        vis.update(cam, vo, list);
        render::RenderTarget target;
        std::string error;
        EXPECT_TRUE(target.create(kW, kH, &error)) << error;
        target.bind();
        render::RenderOptions ro;
        ro.clear_colour = kClear;
        ro.style_values = scene::lightStyleValues(0.0);
        ro.time = time;
        r.draw(list, cam, ro);
        const std::vector<uint8_t> rgba = target.readPixels();
        Shot s;
        for (int y = 0; y < kH; ++y)
            for (int x = 0; x < kW; ++x) {
                const uint8_t* p =
                    &rgba[(static_cast<size_t>(y) * kW + static_cast<size_t>(x)) * 4];
                if (p[0] == 0 && p[1] == 255 && p[2] == 0)
                    continue;
                ++s.pixels;
                s.centre_x += x;
                s.min_x = std::min(s.min_x, x);
                s.max_x = std::max(s.max_x, x);
                s.min_y = std::min(s.min_y, y);
                s.max_y = std::max(s.max_y, y);
            }
        if (s.pixels)
            s.centre_x /= static_cast<double>(s.pixels);
        return s;
    }

    static scene::Camera camera(glm::vec3 position, float yaw) {
        scene::Camera c;
        c.position = position;
        c.yaw = yaw;
        c.aspect = static_cast<float>(kW) / static_cast<float>(kH);
        return c;
    }
};

TEST_F(DeformRender, MoveShiftsTheFaceOverTime) {
    // A 32 x 32 wall in the plane x = 0, facing a camera 100 units down -X.
    const std::string name = "textures/test/mover";
    auto b = load(oneQuadMap(name, {glm::vec3(0, -16, -16), glm::vec3(0, 16, -16),
                                    glm::vec3(0, 16, 16), glm::vec3(0, -16, 16)}),
                  "deform_move.bsp",
                  name + "\n{\n cull none\n deformVertexes move 0 32 0 sin 0 1 0 1\n"
                         " {\n  map $whiteimage\n }\n}\n");
    ASSERT_TRUE(b);
    ASSERT_TRUE(b->stages.materials[0].shader);
    ASSERT_FALSE(b->stages.materials[0].stages.empty());
    auto r = uploaded(*b);
    const scene::Camera cam = camera(glm::vec3(-100, 0, 0), 0.0f);
    const Shot still = shoot(*r, *b, cam, 0.0);  // sin(0) = 0: in place
    const Shot left = shoot(*r, *b, cam, 0.25);  // +32 along +Y: to the left of the view
    const Shot right = shoot(*r, *b, cam, 0.75); // -32: to the right
    ASSERT_GT(still.pixels, 200u);
    EXPECT_NEAR(still.centre_x, kW / 2.0, 2.0);
    // 32 units at distance 100 with a 90 degree fov over 160 pixels: about 25 pixels.
    EXPECT_LT(left.centre_x, still.centre_x - 15.0);
    EXPECT_GT(right.centre_x, still.centre_x + 15.0);
    EXPECT_NEAR(left.pixels, still.pixels, still.pixels / 5);
    EXPECT_EQ(r->stageDraws(), 1u);
}

TEST_F(DeformRender, LightmappedShaderWithADeformStillMoves) {
    // Texture x lightmap alone is drawn by the single-texture path, which cannot deform; a
    // deform must keep the material on the stage path.
    const std::string name = "textures/test/plain";
    auto b = load(oneQuadMap(name, {glm::vec3(0, -16, -16), glm::vec3(0, 16, -16),
                                    glm::vec3(0, 16, 16), glm::vec3(0, -16, 16)}),
                  "deform_plain.bsp",
                  name + "\n{\n cull none\n deformVertexes move 0 32 0 sin 0 1 0 1\n"
                         " {\n  map $lightmap\n  rgbGen identity\n }\n"
                         " {\n  map textures/test/plain.tga\n  blendFunc filter\n }\n}\n");
    ASSERT_TRUE(b);
    ASSERT_EQ(b->stages.materials[0].stages.size(), 1u);
    EXPECT_TRUE(b->stages.materials[0].stages[0].times_lightmap);
    auto r = uploaded(*b);
    const scene::Camera cam = camera(glm::vec3(-100, 0, 0), 0.0f);
    const Shot still = shoot(*r, *b, cam, 0.0);
    const Shot left = shoot(*r, *b, cam, 0.25);
    ASSERT_GT(still.pixels, 200u);
    EXPECT_LT(left.centre_x, still.centre_x - 15.0);
}

TEST_F(DeformRender, AutospriteFacesTheCamera) {
    // A 32 x 32 quad lying flat at eye height: seen edge on from any horizontal view unless
    // the autosprite deform turns it to the viewer.
    const std::string name = "textures/test/sprite";
    const std::array<glm::vec3, 4> corners = {glm::vec3(-16, -16, 0), glm::vec3(16, -16, 0),
                                              glm::vec3(16, 16, 0), glm::vec3(-16, 16, 0)};
    const std::string body = "\n{\n cull none\n {\n  map $whiteimage\n }\n}\n";
    auto flat = load(oneQuadMap(name, corners), "sprite_flat.bsp", name + body);
    auto sprite = load(oneQuadMap(name, corners), "sprite.bsp",
                       name + "\n{\n cull none\n deformVertexes autosprite\n"
                              " {\n  map $whiteimage\n }\n}\n");
    ASSERT_TRUE(flat && sprite);
    ASSERT_EQ(sprite->mesh.sprites.size(), sprite->mesh.vertices.size());
    auto rf = uploaded(*flat);
    auto rs = uploaded(*sprite);
    for (const scene::Camera& cam :
         {camera(glm::vec3(-100, 0, 0), 0.0f), camera(glm::vec3(60, -80, 0), 126.87f)}) {
        const Shot edge = shoot(*rf, *flat, cam, 0.0);
        const Shot s = shoot(*rs, *sprite, cam, 0.0);
        EXPECT_LT(edge.pixels, 200u) << "yaw " << cam.yaw; // a line at most
        ASSERT_GT(s.pixels, 300u) << "yaw " << cam.yaw;
        // A square facing the view, centred: as wide as it is high.
        const int w = s.max_x - s.min_x + 1, h = s.max_y - s.min_y + 1;
        EXPECT_NEAR(w, h, 2) << "yaw " << cam.yaw;
        EXPECT_NEAR(s.centre_x, kW / 2.0, 2.0) << "yaw " << cam.yaw;
        EXPECT_NEAR(static_cast<double>(s.pixels), static_cast<double>(w * h), w * h * 0.1);
    }
}

// A new patch level rebuilds the mesh and moves the vertices of every face after a patch; the
// sprite data must move with them (it once stayed behind: the viewer rebuilt the mesh without
// it and re-uploaded the old one). Built and uploaded through the app's own path.
TEST_F(DeformRender, AutospriteSurvivesAPatchLevelChange) {
    const std::string name = "textures/test/sprite";
    const std::array<glm::vec3, 4> corners = {glm::vec3(-16, -16, 0), glm::vec3(16, -16, 0),
                                              glm::vec3(16, 16, 0), glm::vec3(-16, 16, 0)};
    auto b = load(oneQuadMap(name, corners, true), "sprite_after_patch.bsp",
                  name + "\n{\n cull none\n deformVertexes autosprite\n"
                         " {\n  map $whiteimage\n }\n}\n");
    ASSERT_TRUE(b);
    ASSERT_EQ(b->mesh.patch_level, 4);
    auto r = uploaded(*b);
    const scene::Camera cam = camera(glm::vec3(-100, 0, 0), 0.0f);
    const Shot before = shoot(*r, *b, cam, 0.0);
    ASSERT_GT(before.pixels, 300u) << "the sprite faces the camera";
    const size_t vertices_before = b->mesh.vertices.size();

    const core::Status st = render::setPatchLevel(*r, *b, 1);
    ASSERT_TRUE(st.ok()) << (st.ok() ? "" : st.error().message());
    EXPECT_EQ(b->mesh.patch_level, 1);
    ASSERT_LT(b->mesh.vertices.size(), vertices_before) << "the quad's vertices moved down";
    EXPECT_EQ(b->mesh.sprites.size(), b->mesh.vertices.size());
    const Shot after = shoot(*r, *b, cam, 0.0);
    EXPECT_EQ(after.pixels, before.pixels);
    EXPECT_EQ(after.min_x, before.min_x);
    EXPECT_EQ(after.max_y, before.max_y);

    // The same as a fresh load at that level, byte for byte on the GPU.
    auto fresh = load(oneQuadMap(name, corners, true), "sprite_after_patch_fresh.bsp",
                      name + "\n{\n cull none\n deformVertexes autosprite\n"
                             " {\n  map $whiteimage\n }\n}\n");
    ASSERT_TRUE(fresh);
    scene::WorldMeshOptions level1;
    level1.patch_level = 1;
    fresh->mesh = scene::buildMapMesh(fresh->map, fresh->materials, fresh->stages, level1);
    auto rf = uploaded(*fresh);
    EXPECT_EQ(rf->gpuStats().vertex_bytes, r->gpuStats().vertex_bytes);
}

} // namespace
