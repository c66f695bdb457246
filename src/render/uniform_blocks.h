// The uniform blocks of shaders/gpu_interface.h as C++ structs: FrameBlock (the frame's
// constants) and MapBlock (the map's rules as the options apply them). The field lists are the
// ones the GLSL blocks expand, so the two cannot drift; the structs' offsets are checked against
// std140's rules here at compile time and against the driver's in
// tests/render/uniform_block_test.cpp. UniformBlocks owns one buffer per block, uploads a block
// only when its bytes change and binds both to their points (BLOCK_FRAME, BLOCK_MAP).
#pragma once

#include "render/gl.h"

#include "gpu_interface.h"

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include <cstddef>
#include <cstdint>
#include <span>

namespace render {

// std140's mat3: three columns, each padded to a vec4.
struct Std140Mat3 {
    glm::vec4 columns[3];
};

// The C++ type, std140 base alignment and size of each GLSL field type.
#define BSPV_STD140_TYPE_float float
#define BSPV_STD140_TYPE_int int32_t
#define BSPV_STD140_TYPE_vec3 alignas(16) glm::vec3
#define BSPV_STD140_TYPE_vec4 alignas(16) glm::vec4
#define BSPV_STD140_TYPE_mat3 alignas(16) Std140Mat3
#define BSPV_STD140_TYPE_mat4 alignas(16) glm::mat4
#define BSPV_STD140_ALIGN_float 4
#define BSPV_STD140_ALIGN_int 4
#define BSPV_STD140_ALIGN_vec3 16
#define BSPV_STD140_ALIGN_vec4 16
#define BSPV_STD140_ALIGN_mat3 16
#define BSPV_STD140_ALIGN_mat4 16
#define BSPV_STD140_SIZE_float 4
#define BSPV_STD140_SIZE_int 4
#define BSPV_STD140_SIZE_vec3 12
#define BSPV_STD140_SIZE_vec4 16
#define BSPV_STD140_SIZE_mat3 48
#define BSPV_STD140_SIZE_mat4 64

#define BSPV_CPP_FIELD(type, name) BSPV_STD140_TYPE_##type name;
#define BSPV_CPP_ARRAY(type, name, count) BSPV_STD140_TYPE_##type name[count];

struct FrameBlock {
    FRAME_BLOCK_FIELDS(BSPV_CPP_FIELD, BSPV_CPP_ARRAY)
};
struct MapBlock {
    MAP_BLOCK_FIELDS(BSPV_CPP_FIELD, BSPV_CPP_ARRAY)
};

#undef BSPV_CPP_FIELD
#undef BSPV_CPP_ARRAY

// One field of a block: its GLSL name (an array's first element as GL names it), its offset in
// the C++ struct, and the std140 alignment and size it must have.
struct BlockMember {
    const char* name;
    size_t offset, align, size;
};

#define BSPV_MEMBER(block, type, name, suffix, count)                                              \
    BlockMember{#name suffix, offsetof(block, name), BSPV_STD140_ALIGN_##type,                     \
                size_t{BSPV_STD140_SIZE_##type} * (count)},
#define BSPV_FRAME_MEMBER(type, name) BSPV_MEMBER(FrameBlock, type, name, "", 1)
#define BSPV_FRAME_ARRAY(type, name, count) BSPV_MEMBER(FrameBlock, type, name, "[0]", count)
#define BSPV_MAP_MEMBER(type, name) BSPV_MEMBER(MapBlock, type, name, "", 1)
#define BSPV_MAP_ARRAY(type, name, count) BSPV_MEMBER(MapBlock, type, name, "[0]", count)

inline constexpr BlockMember kFrameBlockMembers[] = {
    FRAME_BLOCK_FIELDS(BSPV_FRAME_MEMBER, BSPV_FRAME_ARRAY)};
inline constexpr BlockMember kMapBlockMembers[] = {
    MAP_BLOCK_FIELDS(BSPV_MAP_MEMBER, BSPV_MAP_ARRAY)};

#undef BSPV_MEMBER
#undef BSPV_FRAME_MEMBER
#undef BSPV_FRAME_ARRAY
#undef BSPV_MAP_MEMBER
#undef BSPV_MAP_ARRAY

// Whether each member sits where std140 puts it (the offset so far rounded up to its
// alignment; arrays of vec4 have a stride of 16) and the struct's size is that of the block
// rounded up to 16.
constexpr bool std140Layout(std::span<const BlockMember> members, size_t struct_size) {
    size_t offset = 0;
    for (const BlockMember& m : members) {
        offset = (offset + m.align - 1) / m.align * m.align;
        if (m.offset != offset)
            return false;
        offset += m.size;
    }
    return struct_size == (offset + 15) / 16 * 16;
}
static_assert(std140Layout(kFrameBlockMembers, sizeof(FrameBlock)));
static_assert(std140Layout(kMapBlockMembers, sizeof(MapBlock)));

enum BlockBinding : GLuint {
    kBlockFrame = BLOCK_FRAME,
    kBlockMap = BLOCK_MAP,
};

// Points a linked program's blocks (those it uses) at their binding points.
void bindUniformBlocks(GLuint program);

class UniformBlocks {
public:
    // Uploads a block whose bytes differ from the last upload (the first always).
    void setFrame(const FrameBlock& block);
    void setMap(const MapBlock& block);
    // Binds both buffers to their points (made on first use).
    void bind();
    const FrameBlock& frame() const { return m_frame; }
    const MapBlock& map() const { return m_map; }

private:
    void create();

    Buffer m_frame_buffer, m_map_buffer;
    FrameBlock m_frame{};
    MapBlock m_map{};
    bool m_frame_set = false, m_map_set = false;
};

} // namespace render
