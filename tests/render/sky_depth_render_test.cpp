// How sky faces meet the depth buffer (game::SkyDepth). A room whose ceiling is sky, seen from
// its middle looking up; above the ceiling either a red quad or a second sky layer.
// - Quake rules (the sky face writes its own depth): the ceiling hides what lies beyond it.
// - Source rules (the sky at the far plane, as the engine draws its box at zFar): what lies
//   beyond a sky brush shows through it, and a second sky layer over the same pixels is
//   rejected by the depth test before it is shaded: the frame passes no more samples with it
//   than without it (one sky box lookup per pixel).
#include "gl_fixture.h"
#include "render/world_renderer.h"
#include "scene/view/visibility.h"
#include "scene/world/world_mesh.h"
#include "support/sky_region_fixture.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

constexpr int kSize = 64;

using testsupport::addSkyRegionBox;
using testsupport::kRed;
using testsupport::kSky;
using testsupport::kWall;

enum class Above { Nothing, RedQuad, SkyLayer };

// The room (200 units around the origin, its ceiling sky) and, 50 units above its ceiling, a
// quad facing down into it: red or sky.
bsp::Map roomMap(Above above) {
    bsp::Map m;
    testsupport::addMaterial(m, "wall");
    testsupport::addMaterial(m, "sky", bsp::kSurfSky);
    testsupport::addMaterial(m, "red");
    addSkyRegionBox(m, glm::vec3(0.0f), 100.0f, {kWall, kWall, kWall, kWall, kSky, kWall}, false);
    if (above != Above::Nothing) {
        bsp::Face f;
        f.material = above == Above::RedQuad ? kRed : kSky;
        // The corner order of the room's ceiling: seen from below.
        const float h = 400.0f, z = 150.0f;
        testsupport::addQuad(m, {glm::vec3(-h, -h, z), {h, -h, z}, {h, h, z}, {-h, h, z}}, f);
    }
    testsupport::addWorldLeaf(m, glm::vec3(-500.0f), glm::vec3(500.0f));
    return m;
}

struct Frame {
    glm::ivec3 centre{};
    GLuint samples = 0; // samples that passed the depth test in the whole frame
};

class SkyDepthRender : public gltest::GlFixture {
protected:
    Frame draw(Above above, bool at_far_plane) {
        const bsp::Map map = roomMap(above);
        const scene::WorldMesh mesh = scene::buildWorldMesh(map);
        const std::vector<content::TextureInfo> textures = testsupport::skyRegionTextures();
        render::WorldSource source{map, mesh, textures};
        source.rules.sky.at_far_plane = at_far_plane;
        render::WorldRenderer renderer;
        render::RenderTarget target;
        std::string error;
        EXPECT_TRUE(renderer.init(render::GlslLibrary(), &error)) << error;
        EXPECT_TRUE(renderer.upload(source, &error)) << error;
        EXPECT_TRUE(target.create(kSize, kSize, &error)) << error;
        scene::Camera camera;
        camera.pitch = -89.0f;
        camera.aspect = 1.0f;
        camera.z_near = 1.0f;
        scene::Visibility vis(map, mesh);
        scene::DrawList list;
        vis.update(camera, {}, list);
        render::RenderOptions options;
        options.depth_prepass = false; // every sample counted is a shaded one
        target.bind();
        GLuint query = 0;
        glGenQueries(1, &query);
        glBeginQuery(GL_SAMPLES_PASSED, query);
        renderer.draw(list, camera, options);
        glEndQuery(GL_SAMPLES_PASSED);
        Frame frame;
        glGetQueryObjectuiv(query, GL_QUERY_RESULT, &frame.samples);
        glDeleteQueries(1, &query);
        const std::vector<uint8_t> rgba = target.readPixels();
        const uint8_t* p = &rgba[static_cast<size_t>(((kSize / 2) * kSize + kSize / 2) * 4)];
        frame.centre = {p[0], p[1], p[2]};
        return frame;
    }
};

// render::kSkyFlatColour (0.32, 0.40, 0.55) in 8 bits: the sky material is missing.
const glm::ivec3 kFlat{82, 102, 140};

bool isRed(glm::ivec3 c) {
    return c.r > 100 && c.g < 20 && c.b < 20;
}

} // namespace

TEST_F(SkyDepthRender, QuakeSkyFaceHidesWhatLiesBeyondIt) {
    EXPECT_EQ(draw(Above::Nothing, false).centre, kFlat);
    EXPECT_EQ(draw(Above::RedQuad, false).centre, kFlat);
}

TEST_F(SkyDepthRender, SourceSkyAtTheFarPlaneShowsWhatLiesBeyondIt) {
    EXPECT_EQ(draw(Above::Nothing, true).centre, kFlat);
    const glm::ivec3 red = draw(Above::RedQuad, true).centre;
    EXPECT_TRUE(isRed(red)) << red.r << " " << red.g << " " << red.b;
}

TEST_F(SkyDepthRender, SecondSkyLayerOverThePixelsIsNotShaded) {
    // The ceiling alone fills the middle of the view; the layer above covers it all.
    const Frame one = draw(Above::Nothing, true);
    const Frame two = draw(Above::SkyLayer, true);
    EXPECT_EQ(two.centre, kFlat);
    EXPECT_GT(one.samples, GLuint(kSize * kSize / 4));
    EXPECT_EQ(two.samples, one.samples);
    // A sky that writes its own depth shades the nearer layer only as well.
    EXPECT_EQ(draw(Above::SkyLayer, false).samples, draw(Above::Nothing, false).samples);
}
