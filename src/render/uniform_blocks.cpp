#include "render/uniform_blocks.h"

#include <cstring>

namespace render {

void bindUniformBlocks(GLuint program) {
    const auto bind = [program](const char* name, GLuint point) {
        const GLuint index = glGetUniformBlockIndex(program, name);
        if (index != GL_INVALID_INDEX)
            glUniformBlockBinding(program, index, point);
    };
    bind("FrameBlock", kBlockFrame);
    bind("MapBlock", kBlockMap);
}

void UniformBlocks::create() {
    if (m_frame_buffer)
        return;
    m_frame_buffer = makeBuffer("uniform block/frame");
    m_map_buffer = makeBuffer("uniform block/map");
    glBindBuffer(GL_UNIFORM_BUFFER, m_frame_buffer.id());
    glBufferData(GL_UNIFORM_BUFFER, sizeof(FrameBlock), nullptr, GL_DYNAMIC_DRAW);
    glBindBuffer(GL_UNIFORM_BUFFER, m_map_buffer.id());
    glBufferData(GL_UNIFORM_BUFFER, sizeof(MapBlock), nullptr, GL_DYNAMIC_DRAW);
}

namespace {

// Copies `block` over `last` and uploads it when its bytes differ (or nothing was uploaded).
template <class Block> void upload(GLuint buffer, const Block& block, Block& last, bool& set) {
    if (set && std::memcmp(&block, &last, sizeof(Block)) == 0)
        return;
    std::memcpy(&last, &block, sizeof(Block));
    set = true;
    glBindBuffer(GL_UNIFORM_BUFFER, buffer);
    glBufferSubData(GL_UNIFORM_BUFFER, 0, sizeof(Block), &last);
}

} // namespace

void UniformBlocks::setFrame(const FrameBlock& block) {
    create();
    upload(m_frame_buffer.id(), block, m_frame, m_frame_set);
}

void UniformBlocks::setMap(const MapBlock& block) {
    create();
    upload(m_map_buffer.id(), block, m_map, m_map_set);
}

void UniformBlocks::bind() {
    create();
    glBindBufferBase(GL_UNIFORM_BUFFER, kBlockFrame, m_frame_buffer.id());
    glBindBufferBase(GL_UNIFORM_BUFFER, kBlockMap, m_map_buffer.id());
}

} // namespace render
