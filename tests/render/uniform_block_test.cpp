// The uniform blocks of shaders/gpu_interface.h: the C++ structs (render/uniform_blocks.h) lay
// their fields where the GL driver puts the GLSL block's members in a linked program, so the
// one field list can be written into both. Offsets, strides, block sizes and binding points are
// asked of the driver (Mesa llvmpipe in CI), not computed here.
#include "gl_fixture.h"
#include "render/frame.h"
#include "render/glsl_library.h"
#include "render/programs.h"
#include "render/uniform_blocks.h"

#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <span>
#include <string>
#include <string_view>
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
        v.curves = render::kCurveTextureMax | render::kCurveLightMax |
                   render::kCurveLightNormalize | render::kCurveOutputGamma;
        v.fullbright_light = true;
        v.solid_colour = true;
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

    // A program the renderer draws with, and the blocks its shaders read (so the driver must
    // report them active): those that place vertices in the world or scale colours to the frame
    // read the frame block; the world and the sky read the map's rules.
    struct Drawn {
        std::string name;
        GLuint program;
        bool frame, map;
    };

    // Every program the renderer builds: the cache's (a variant of each kind) and those the
    // entity model, flare and debug line renderers build from the same files and defines.
    std::vector<Drawn> everyProgram() {
        std::vector<Drawn> out;
        const auto add = [&out](std::string name, GLuint id, bool frame, bool map) {
            out.push_back({std::move(name), id, frame, map});
        };
        add("world flat", m_cache.flat().program.id(), true, false);
        add("world lit", worldProgram(), true, true);
        add("depth", m_cache.depth().program.id(), true, false);
        for (render::SkyMode mode : {render::SkyMode::Box, render::SkyMode::Flat,
                                     render::SkyMode::Textured, render::SkyMode::Layers}) {
            const render::SkyProgram* sky = m_cache.sky(mode, false);
            add("sky " + std::to_string(static_cast<int>(mode)), sky ? sky->program.id() : 0, true,
                true);
        }
        scene::RenderStage stage;
        stage.source = scene::StageSource::Lightmap;
        const scene::RenderStage* stages[] = {&stage};
        render::StageVariant variant;
        variant.stages = stages;
        variant.count = 1;
        const render::StageProgram* staged = m_cache.stage(variant);
        add("stage", staged ? staged->program.id() : 0, true, false);
        const render::FogProgram* fog = m_cache.fog();
        add("fog", fog ? fog->program.id() : 0, true, false);
        const render::LuxelProgram* luxel = m_cache.luxel();
        add("luxel", luxel ? luxel->program.id() : 0, true, false);
        // Screen-space passes over the finished frame: neither block (a driver may still report
        // an unread std140 block active).
        const render::DisplayRampProgram* ramp = m_cache.displayRamp();
        add("display ramp", ramp ? ramp->program.id() : 0, false, false);
        const render::PictureProgram* picture = m_cache.picture();
        add("picture", picture ? picture->program.id() : 0, false, false);
        const render::ScreenWarpProgram* warp = m_cache.screenWarp();
        add("screen warp", warp ? warp->program.id() : 0, true, false);
        // render/model_renderer.cpp, flare_renderer.cpp, debug_draw.cpp.
        const auto build = [this](const char* vs, const char* fs, const char* defines) {
            std::string error;
            m_built.push_back(render::GlslLibrary().build("test", vs, fs, defines, &error));
            EXPECT_TRUE(m_built.back()) << vs << " " << defines << ": " << error;
            return m_built.back().id();
        };
        add("model alias", build("model.vert.glsl", "model.frag.glsl", ""), true, false);
        add("model sprite", build("model.vert.glsl", "model.frag.glsl", "SPRITE"), true, false);
        add("flare test", build("flare.vert.glsl", "flare.frag.glsl", "OCCLUSION_TEST"), true,
            false);
        add("flare quad", build("flare.vert.glsl", "flare.frag.glsl", ""), true, false);
        add("debug lines", build("debug_line.vert.glsl", "debug_line.frag.glsl", ""), true, false);
        return out;
    }

    render::ProgramCache m_cache;
    std::vector<render::Program> m_built;
};

// The loose uniforms a program must not have: a block field's name as a uniform of its own
// ("u_view_projection", "u_frame_scale", "u_light_scale"...).
std::set<std::string> blockFieldsAsLooseUniforms() {
    std::set<std::string> names;
    for (std::span<const render::BlockMember> members :
         {std::span<const render::BlockMember>(render::kFrameBlockMembers),
          std::span<const render::BlockMember>(render::kMapBlockMembers)}) {
        for (const render::BlockMember& m : members) {
            std::string_view name = m.name;
            name = name.substr(0, name.find('['));
            names.insert("u_" + std::string(name));
        }
    }
    return names;
}

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
    const render::SkyProgram* sky = m_cache.sky(render::SkyMode::Box, true); // Quake 2's gamma
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
    // A new frame replaces the whole block.
    frame.view_projection = glm::mat4(2.0f);
    frame.eye = {1.0f, 2.0f, 3.0f};
    blocks.setFrame(frame);
    const auto g = readBack(render::kBlockFrame, sizeof frame);
    EXPECT_EQ(std::memcmp(g.data(), &frame, sizeof frame), 0);
}

TEST_F(UniformBlock, EveryProgramReadsItsBlocksAtTheirPoints) {
    for (const Drawn& d : everyProgram()) {
        SCOPED_TRACE(d.name);
        ASSERT_NE(d.program, 0u);
        const bool frame = glGetUniformBlockIndex(d.program, "FrameBlock") != GL_INVALID_INDEX;
        const bool map = glGetUniformBlockIndex(d.program, "MapBlock") != GL_INVALID_INDEX;
        EXPECT_TRUE(frame || !d.frame) << "FrameBlock not read";
        EXPECT_TRUE(map || !d.map) << "MapBlock not read";
        if (frame)
            expectLayout(d.program, "FrameBlock", render::kFrameBlockMembers,
                         sizeof(render::FrameBlock), render::kBlockFrame);
        if (map)
            expectLayout(d.program, "MapBlock", render::kMapBlockMembers, sizeof(render::MapBlock),
                         render::kBlockMap);
    }
}

TEST_F(UniformBlock, NoProgramTakesABlockFieldAsALooseUniform) {
    const std::set<std::string> loose = blockFieldsAsLooseUniforms();
    ASSERT_TRUE(loose.count("u_view_projection") && loose.count("u_light_scale"));
    for (const Drawn& d : everyProgram()) {
        ASSERT_NE(d.program, 0u) << d.name;
        GLint count = 0, longest = 0;
        glGetProgramiv(d.program, GL_ACTIVE_UNIFORMS, &count);
        glGetProgramiv(d.program, GL_ACTIVE_UNIFORM_MAX_LENGTH, &longest);
        for (GLint i = 0; i < count; ++i) {
            std::string name(static_cast<size_t>(longest) + 1, '\0');
            GLsizei length = 0;
            glGetActiveUniformName(d.program, static_cast<GLuint>(i), longest + 1, &length,
                                   name.data());
            name.resize(static_cast<size_t>(length));
            EXPECT_EQ(loose.count(name.substr(0, name.find('['))), 0u) << d.name << ": " << name;
        }
    }
}

TEST_F(UniformBlock, TheProgramListCoversEveryShaderFile) {
    // A new shader file joins everyProgram() (and so the two tests above).
    const std::set<std::string> listed = {
        "world.vert.glsl",      "world.frag.glsl",        "depth.vert.glsl",
        "depth.frag.glsl",      "sky.frag.glsl",          "stage.vert.glsl",
        "stage.frag.glsl",      "fog.vert.glsl",          "fog.frag.glsl",
        "luxel.frag.glsl",      "display_ramp.vert.glsl", "display_ramp.frag.glsl",
        "picture.frag.glsl",    "model.vert.glsl",        "model.frag.glsl",
        "flare.vert.glsl",      "flare.frag.glsl",        "debug_line.vert.glsl",
        "debug_line.frag.glsl", "screen_warp.frag.glsl"};
    for (size_t i = 0; i < render::kNumEmbeddedShaders; ++i) {
        const std::string name = render::kEmbeddedShaders[i].name;
        if (name.ends_with(".vert.glsl") || name.ends_with(".frag.glsl")) {
            EXPECT_TRUE(listed.count(name)) << name << " is built by no listed program";
        }
    }
}

// Each step of the light curve a map block asks for is one define of the programs, and a
// neutral block (gamma 1, no limits, no normalising) asks for none. No game curves the texel
// in the shader (Half-Life's texgammatable is applied to the palette at load).
TEST(LightCurves, EachStepOfTheMapBlockIsItsOwnDefine) {
    render::MapBlock neutral{};
    neutral.output_gamma = 1.0f;
    EXPECT_EQ(render::lightCurves(neutral), 0u);
    const auto with = [&neutral](auto change) {
        render::MapBlock b = neutral;
        change(b);
        return render::lightCurves(b);
    };
    EXPECT_EQ(with([](render::MapBlock& b) { b.texture_max = 1.0f; }), render::kCurveTextureMax);
    EXPECT_EQ(with([](render::MapBlock& b) { b.light_max = 2.0f; }), render::kCurveLightMax);
    EXPECT_EQ(with([](render::MapBlock& b) { b.light_normalize = 1; }),
              render::kCurveLightNormalize);
    EXPECT_EQ(with([](render::MapBlock& b) { b.output_gamma = 1.0f / 1.2f; }),
              render::kCurveOutputGamma);
}
