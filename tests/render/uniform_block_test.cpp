// The uniform blocks of shaders/gpu_interface.h: the C++ structs (render/uniform_blocks.h) lay
// their fields where the GL driver puts the GLSL block's members in a linked program, so the
// one field list can be written into both. Offsets, strides, block sizes and binding points are
// asked of the driver (Mesa llvmpipe in CI), not computed here.
#include "gl_fixture.h"
#include "render/glsl_library.h"
#include "render/programs.h"
#include "render/uniform_blocks.h"

#include <gtest/gtest.h>

#include <cstring>
#include <span>
#include <string>
#include <vector>

namespace {

class UniformBlock : public gltest::GlFixture {
protected:
    void SetUp() override {
        GlFixture::SetUp();
        std::string error;
        ASSERT_TRUE(m_cache.init(render::GlslLibrary(), &error)) << error;
    }

    // The lit world program with every feature that reads the blocks compiled in.
    GLuint worldProgram() {
        render::WorldVariant v;
        v.styles = 4;
        v.warp = true;
        v.distance_fog = true;
        v.fog_pass = true;
        const render::WorldProgram* p = m_cache.world(v);
        return p ? p->program.id() : 0;
    }

    // Every member of `block` in `program` at the struct's offset, with std140's strides.
    static void expectLayout(GLuint program, const char* block,
                             std::span<const render::BlockMember> members, size_t struct_size,
                             GLuint binding) {
        const GLuint index = glGetUniformBlockIndex(program, block);
        ASSERT_NE(index, GL_INVALID_INDEX) << block;
        GLint size = 0, point = -1;
        glGetActiveUniformBlockiv(program, index, GL_UNIFORM_BLOCK_DATA_SIZE, &size);
        glGetActiveUniformBlockiv(program, index, GL_UNIFORM_BLOCK_BINDING, &point);
        EXPECT_EQ(static_cast<size_t>(size), struct_size) << block;
        EXPECT_EQ(point, static_cast<GLint>(binding)) << block;
        GLint active = 0;
        glGetActiveUniformBlockiv(program, index, GL_UNIFORM_BLOCK_ACTIVE_UNIFORMS, &active);
        EXPECT_EQ(static_cast<size_t>(active), members.size()) << block << ": fields not listed";
        for (const render::BlockMember& m : members) {
            const std::string name = std::string(block) + "." + m.name;
            const char* names[] = {name.c_str()};
            GLuint u = GL_INVALID_INDEX;
            glGetUniformIndices(program, 1, names, &u);
            ASSERT_NE(u, GL_INVALID_INDEX) << name;
            GLint offset = -1, array_stride = -1, matrix_stride = -1, in_block = -1;
            glGetActiveUniformsiv(program, 1, &u, GL_UNIFORM_OFFSET, &offset);
            glGetActiveUniformsiv(program, 1, &u, GL_UNIFORM_ARRAY_STRIDE, &array_stride);
            glGetActiveUniformsiv(program, 1, &u, GL_UNIFORM_MATRIX_STRIDE, &matrix_stride);
            glGetActiveUniformsiv(program, 1, &u, GL_UNIFORM_BLOCK_INDEX, &in_block);
            EXPECT_EQ(static_cast<size_t>(offset), m.offset) << name;
            EXPECT_EQ(in_block, static_cast<GLint>(index)) << name;
            if (array_stride > 0) { // arrays: vec4 only, a stride of 16 in both
                EXPECT_EQ(array_stride, 16) << name;
            }
            if (matrix_stride > 0) { // mat3 and mat4: columns 16 bytes apart
                EXPECT_EQ(matrix_stride, 16) << name;
            }
        }
    }

    render::ProgramCache m_cache;
};

} // namespace

TEST_F(UniformBlock, FrameBlockOffsetsAreTheDriversInTheWorldProgram) {
    const GLuint program = worldProgram();
    ASSERT_NE(program, 0u);
    expectLayout(program, "FrameBlock", render::kFrameBlockMembers, sizeof(render::FrameBlock),
                 render::kBlockFrame);
}

TEST_F(UniformBlock, MapBlockOffsetsAreTheDriversInTheWorldProgram) {
    const GLuint program = worldProgram();
    ASSERT_NE(program, 0u);
    expectLayout(program, "MapBlock", render::kMapBlockMembers, sizeof(render::MapBlock),
                 render::kBlockMap);
}

TEST_F(UniformBlock, SkyAndStageProgramsReadTheSameBlocks) {
    const render::SkyProgram* sky = m_cache.sky(render::SkyMode::Box);
    ASSERT_NE(sky, nullptr);
    expectLayout(sky->program.id(), "FrameBlock", render::kFrameBlockMembers,
                 sizeof(render::FrameBlock), render::kBlockFrame);
    expectLayout(sky->program.id(), "MapBlock", render::kMapBlockMembers, sizeof(render::MapBlock),
                 render::kBlockMap);
    // The depth pre-pass reads the frame block only: its binding is set all the same.
    const GLuint depth = m_cache.depth().program.id();
    expectLayout(depth, "FrameBlock", render::kFrameBlockMembers, sizeof(render::FrameBlock),
                 render::kBlockFrame);
}

TEST_F(UniformBlock, BuffersHoldTheLastBlockAndAreBoundToTheirPoints) {
    render::UniformBlocks blocks;
    render::FrameBlock frame{};
    frame.time = 12.5f;
    frame.style_values[15].w = 0.75f; // light style 63
    frame.view_projection[3][2] = -2.0f;
    render::MapBlock map{};
    map.light_normalize = 1;
    map.warp_tile = 64.0f;
    blocks.setFrame(frame);
    blocks.setMap(map);
    blocks.bind();
    const auto readBack = [](GLuint point, size_t size) {
        GLint buffer = 0;
        glGetIntegeri_v(GL_UNIFORM_BUFFER_BINDING, point, &buffer);
        std::vector<uint8_t> bytes(size);
        glBindBuffer(GL_UNIFORM_BUFFER, static_cast<GLuint>(buffer));
        glGetBufferSubData(GL_UNIFORM_BUFFER, 0, static_cast<GLsizeiptr>(size), bytes.data());
        return bytes;
    };
    const auto f = readBack(render::kBlockFrame, sizeof frame);
    const auto m = readBack(render::kBlockMap, sizeof map);
    EXPECT_EQ(std::memcmp(f.data(), &frame, sizeof frame), 0);
    EXPECT_EQ(std::memcmp(m.data(), &map, sizeof map), 0);
    // Only the matrix changes for the overlays drawn after the frame.
    glm::mat4 vp(2.0f);
    blocks.setViewProjection(vp);
    frame.view_projection = vp;
    const auto g = readBack(render::kBlockFrame, sizeof frame);
    EXPECT_EQ(std::memcmp(g.data(), &frame, sizeof frame), 0);
}
