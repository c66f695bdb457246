// shaders/common.glsl skyboxCoord run on the GL driver (Mesa llvmpipe in CI) for a list of
// directions, one point each into a float target, against the face table of
// content/material/skybox.h written out here: which face (ties between axes go to x, then y),
// where on it, and the game's edge inset (u_map.sky_edge, game::SkyBoxEdge).
#include "gl_fixture.h"
#include "render/glsl_library.h"
#include "render/uniform_blocks.h"

#include <gtest/gtest.h>

#include <glm/glm.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

constexpr const char* kProbeVs = R"(layout(location = 0) in vec3 a_dir;
uniform int u_count;
flat out vec3 v_dir;
void main() {
    v_dir = a_dir;
    gl_Position = vec4(-1.0 + (2.0 * float(gl_VertexID) + 1.0) / float(u_count), 0.0, 0.0, 1.0);
}
)";

constexpr const char* kProbeFs = R"(flat in vec3 v_dir;
out vec4 o_coord;
void main() {
    o_coord = vec4(skyboxCoord(v_dir), 0.0);
}
)";

// The face table: face, the direction its right edge points and the one its top row points
// (rt bk lf ft up dn: +X +Y -X -Y +Z -Z), the major axis found x first, then y (`>=`).
struct Expected {
    int face;
    glm::vec2 uv;
};

Expected expected(glm::vec3 d, float inset) {
    const glm::vec3 a = glm::abs(d);
    int face = 0;
    glm::vec3 right, top;
    float m = 0.0f;
    if (a.x >= a.y && a.x >= a.z) {
        m = a.x;
        face = d.x > 0.0f ? 0 : 2;
        right = d.x > 0.0f ? glm::vec3(0, -1, 0) : glm::vec3(0, 1, 0);
        top = glm::vec3(0, 0, 1);
    } else if (a.y >= a.z) {
        m = a.y;
        face = d.y > 0.0f ? 1 : 3;
        right = d.y > 0.0f ? glm::vec3(1, 0, 0) : glm::vec3(-1, 0, 0);
        top = glm::vec3(0, 0, 1);
    } else {
        m = a.z;
        face = d.z > 0.0f ? 4 : 5;
        right = glm::vec3(0, -1, 0);
        top = d.z > 0.0f ? glm::vec3(-1, 0, 0) : glm::vec3(1, 0, 0);
    }
    glm::vec2 uv(0.5f + 0.5f * glm::dot(d, right) / m, 0.5f - 0.5f * glm::dot(d, top) / m);
    uv = glm::clamp(uv, glm::vec2(inset), glm::vec2(1.0f - inset));
    return {face, uv};
}

class SkyboxCoord : public gltest::GlFixture {
protected:
    // skyboxCoord of each direction as the driver computes it: (u, v, face) per direction.
    std::vector<glm::vec3> run(const std::vector<glm::vec3>& dirs, float inset) {
        const fs::path dir = fs::path(testing::TempDir()) / "bspv_skybox_coord";
        fs::create_directories(dir);
        std::ofstream(dir / "skybox_probe.vert.glsl") << kProbeVs;
        std::ofstream(dir / "skybox_probe.frag.glsl") << kProbeFs;
        render::GlslLibrary library; // common.glsl and the blocks from the embedded copies
        library.setShaderDir(dir);
        std::string error;
        render::Program program = library.build("skybox probe", "skybox_probe.vert.glsl",
                                                "skybox_probe.frag.glsl", "", &error);
        fs::remove_all(dir);
        EXPECT_TRUE(program) << error;
        if (!program)
            return {};

        render::UniformBlocks blocks;
        render::MapBlock map{};
        map.sky_edge = inset;
        blocks.setFrame(render::FrameBlock{});
        blocks.setMap(map);
        blocks.bind();

        const auto width = static_cast<GLsizei>(dirs.size());
        render::Texture colour = render::makeTexture(GL_TEXTURE_2D, "skybox probe target");
        glBindTexture(GL_TEXTURE_2D, colour.id());
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, width, 1, 0, GL_RGBA, GL_FLOAT, nullptr);
        GLuint fbo = 0;
        glGenFramebuffers(1, &fbo);
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, colour.id(), 0);
        EXPECT_EQ(glCheckFramebufferStatus(GL_FRAMEBUFFER), GLenum(GL_FRAMEBUFFER_COMPLETE));

        render::VertexArray vao = render::makeVertexArray("skybox probe");
        render::Buffer vbo = render::makeBuffer("skybox probe directions");
        glBindVertexArray(vao.id());
        glBindBuffer(GL_ARRAY_BUFFER, vbo.id());
        glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(dirs.size() * sizeof(glm::vec3)),
                     dirs.data(), GL_STATIC_DRAW);
        glEnableVertexAttribArray(0);
        glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(glm::vec3), nullptr);

        glViewport(0, 0, width, 1);
        glDisable(GL_DEPTH_TEST);
        glDisable(GL_BLEND);
        glClearColor(-1.0f, -1.0f, -1.0f, -1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glUseProgram(program.id());
        glUniform1i(glGetUniformLocation(program.id(), "u_count"), width);
        glDrawArrays(GL_POINTS, 0, width);

        std::vector<glm::vec4> out(dirs.size());
        glReadPixels(0, 0, width, 1, GL_RGBA, GL_FLOAT, out.data());
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glDeleteFramebuffers(1, &fbo);
        glBindVertexArray(0);
        std::vector<glm::vec3> coords;
        for (const glm::vec4& c : out)
            coords.emplace_back(c.x, c.y, c.z);
        return coords;
    }

    // Every direction against the table.
    void expectTable(const std::vector<glm::vec3>& dirs, float inset) {
        const std::vector<glm::vec3> got = run(dirs, inset);
        ASSERT_EQ(got.size(), dirs.size());
        for (size_t i = 0; i < dirs.size(); ++i) {
            const Expected want = expected(dirs[i], inset);
            const glm::vec3 d = dirs[i];
            EXPECT_EQ(static_cast<int>(got[i].z), want.face)
                << "direction " << d.x << " " << d.y << " " << d.z;
            EXPECT_NEAR(got[i].x, want.uv.x, 1e-6f) << "u of " << d.x << " " << d.y << " " << d.z;
            EXPECT_NEAR(got[i].y, want.uv.y, 1e-6f) << "v of " << d.x << " " << d.y << " " << d.z;
        }
    }
};

} // namespace

TEST_F(SkyboxCoord, EachAxisLooksAtTheMiddleOfItsFace) {
    const std::vector<glm::vec3> dirs = {{1, 0, 0},  {0, 1, 0}, {-1, 0, 0},
                                         {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    const std::vector<glm::vec3> got = run(dirs, 0.0f);
    ASSERT_EQ(got.size(), dirs.size());
    for (size_t i = 0; i < dirs.size(); ++i) {
        EXPECT_EQ(got[i].z, static_cast<float>(i)); // rt bk lf ft up dn
        EXPECT_EQ(got[i].x, 0.5f);
        EXPECT_EQ(got[i].y, 0.5f);
    }
}

// Where two or three components are equal in size the face is x's, then y's, as the table's
// `>=` picks it; a zero component counts as negative (the -x face for (0, 0, 0) aside).
TEST_F(SkyboxCoord, TiesGoToXThenY) {
    const std::vector<glm::vec3> dirs = {{1, 1, 0},  {-1, 1, 0},  {1, -1, 0}, {-1, -1, 0},
                                         {1, 0, 1},  {-1, 0, -1}, {0, 1, 1},  {0, -1, 1},
                                         {0, 1, -1}, {1, 1, 1},   {-1, 1, 1}, {-1, -1, -1},
                                         {3, -3, 3}, {0, -2, -2}, {2, 0, -2}, {-5, 5, 5}};
    const std::vector<glm::vec3> got = run(dirs, 0.0f);
    ASSERT_EQ(got.size(), dirs.size());
    const int faces[] = {0, 2, 0, 2, 0, 2, 1, 3, 1, 0, 2, 2, 0, 3, 0, 2};
    for (size_t i = 0; i < dirs.size(); ++i)
        EXPECT_EQ(static_cast<int>(got[i].z), faces[i]) << "direction " << i;
    expectTable(dirs, 0.0f);
}

// Each face's right edge and top row, and the inset: a direction near an edge or corner is
// held 1/512 inside the face (Quake 2's sky_min/sky_max), and one in the middle is not moved.
TEST_F(SkyboxCoord, OrientationAndEdgeInsetAsTheFaceTable) {
    std::vector<glm::vec3> dirs = {{1, -0.5f, 0.25f}, {1, 0.999f, -0.999f},  {-1, 0.5f, 0.25f},
                                   {0.5f, 1, 0.25f},  {-0.5f, -1, -0.25f},   {0.3f, -0.6f, 1},
                                   {0.3f, -0.6f, -1}, {0.9999f, 0.9999f, 1}, {-1, 0.9999f, 0}};
    // A spread of directions and lengths (a fixed linear congruential sequence).
    uint32_t state = 12345u;
    const auto next = [&state] {
        state = state * 1664525u + 1013904223u;
        return static_cast<float>(state >> 8) / static_cast<float>(1u << 24) * 2.0f - 1.0f;
    };
    for (int i = 0; i < 256; ++i) {
        const float scale = 1.0f + 4000.0f * std::abs(next());
        dirs.push_back(scale * glm::vec3(next(), next(), next()));
    }
    expectTable(dirs, 1.0f / 512.0f);
    expectTable(dirs, 0.0f);
}
