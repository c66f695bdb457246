#include "render/draw_submitter.h"

#include <algorithm>
#include <array>
#include <cstring>

namespace render {

const char* drawPathName(DrawPath path) {
    switch (path) {
    case DrawPath::Auto:
        return "auto";
    case DrawPath::Fallback:
        return "33";
    case DrawPath::Indirect:
        return "43";
    }
    return "auto";
}

bool parseDrawPath(std::string_view text, DrawPath* out) {
    if (text == "auto") {
        *out = DrawPath::Auto;
    } else if (text == "33" || text == "gl33" || text == "fallback") {
        *out = DrawPath::Fallback;
    } else if (text == "43" || text == "gl43" || text == "indirect") {
        *out = DrawPath::Indirect;
    } else {
        return false;
    }
    return true;
}

bool appendMergedRange(std::vector<IndexRange>& ranges, uint32_t first, uint32_t count) {
    if (count == 0)
        return true;
    if (!ranges.empty()) {
        IndexRange& last = ranges.back();
        // 64-bit sum: a range ending at 2^32 must not wrap around and "touch" index 0.
        if (static_cast<uint64_t>(last.first) + last.count == first) {
            last.count += count;
            return true;
        }
    }
    ranges.push_back({first, count});
    return false;
}

namespace {

constexpr size_t kRegions = 3;              // frames in flight
constexpr size_t kInitialRegionCmds = 4096; // grows by doubling when a frame needs more

} // namespace

struct DrawSubmitter::Ring {
    static_assert(sizeof(IndirectCommand) == 20);
    Buffer buffer;
    bool persistent = false; // mapped with buffer storage; else orphaned per frame
    IndirectCommand* mapped = nullptr;
    size_t region_cmds = 0;
    size_t region = 0;
    size_t cursor = 0; // commands written into the current region this frame
    std::array<GLsync, kRegions> fences{};

    ~Ring() { dropFences(); }

    void dropFences() {
        for (GLsync& f : fences) {
            if (f)
                glDeleteSync(f);
            f = nullptr;
        }
    }

    // (Re)creates the buffer with room for `cmds` commands per region. Draws already issued
    // from the old buffer still complete: GL deletes a buffer only when it is no longer used.
    void allocate(size_t cmds) {
        dropFences();
        if (buffer && persistent) {
            glBindBuffer(GL_DRAW_INDIRECT_BUFFER, buffer.id());
            glUnmapBuffer(GL_DRAW_INDIRECT_BUFFER);
        }
        mapped = nullptr;
        buffer = makeBuffer("world/indirect commands");
        region_cmds = cmds;
        region = 0;
        cursor = 0;
        const auto bytes = static_cast<GLsizeiptr>(cmds * kRegions * sizeof(IndirectCommand));
        glBindBuffer(GL_DRAW_INDIRECT_BUFFER, buffer.id());
        persistent = caps().atLeast(4, 4) && glBufferStorage; // glad here has no ARB_buffer_storage
        if (persistent) {
            const GLbitfield flags = GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
            glBufferStorage(GL_DRAW_INDIRECT_BUFFER, bytes, nullptr, flags);
            mapped = static_cast<IndirectCommand*>(
                glMapBufferRange(GL_DRAW_INDIRECT_BUFFER, 0, bytes, flags));
            if (!mapped) {
                // Not mappable after all: start over with a plain buffer.
                buffer = makeBuffer("world/indirect commands");
                glBindBuffer(GL_DRAW_INDIRECT_BUFFER, buffer.id());
                persistent = false;
            }
        }
        if (!persistent)
            glBufferData(GL_DRAW_INDIRECT_BUFFER, bytes, nullptr, GL_STREAM_DRAW);
    }

    void beginFrame() {
        if (!persistent) {
            // Orphan: the driver hands out fresh storage while last frame's is still read.
            glBindBuffer(GL_DRAW_INDIRECT_BUFFER, buffer.id());
            glBufferData(GL_DRAW_INDIRECT_BUFFER,
                         static_cast<GLsizeiptr>(region_cmds * kRegions * sizeof(IndirectCommand)),
                         nullptr, GL_STREAM_DRAW);
            region = 0;
            cursor = 0;
            return;
        }
        region = (region + 1) % kRegions;
        cursor = 0;
        if (GLsync f = fences[region]) {
            // Normally long signalled (it guards the frame three frames back).
            while (glClientWaitSync(f, GL_SYNC_FLUSH_COMMANDS_BIT, 1000000000ull) ==
                   GL_TIMEOUT_EXPIRED) {
            }
            glDeleteSync(f);
            fences[region] = nullptr;
        }
    }

    void endFrame() {
        if (persistent && cursor > 0) {
            if (fences[region])
                glDeleteSync(fences[region]);
            fences[region] = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
        }
    }
};

DrawSubmitter::DrawSubmitter() = default;

DrawSubmitter::~DrawSubmitter() {
    delete m_ring;
}

void DrawSubmitter::beginFrame(DrawPath requested) {
    m_stats = SubmitStats();
    m_pending.clear();
    const bool indirect_ok = caps().multi_draw_indirect && glMultiDrawElementsIndirect;
    m_path =
        requested != DrawPath::Fallback && indirect_ok ? DrawPath::Indirect : DrawPath::Fallback;
    if (m_path != DrawPath::Indirect)
        return;
    if (!m_ring) {
        m_ring = new Ring();
        m_ring->allocate(kInitialRegionCmds);
    }
    m_ring->beginFrame();
}

void DrawSubmitter::endFrame() {
    flush();
    if (m_path == DrawPath::Indirect && m_ring) {
        m_ring->endFrame();
        glBindBuffer(GL_DRAW_INDIRECT_BUFFER, 0);
    }
}

void DrawSubmitter::append(uint32_t first_index, uint32_t count) {
    if (count > 0)
        ++m_stats.ranges_appended;
    appendMergedRange(m_pending, first_index, count);
}

void DrawSubmitter::flush() {
    if (m_pending.empty())
        return;
    ++m_stats.draw_calls;
    m_stats.ranges_drawn += static_cast<uint32_t>(m_pending.size());
    if (m_path == DrawPath::Indirect) {
        flushIndirect();
    } else {
        m_counts.clear();
        m_offsets.clear();
        for (const IndexRange& r : m_pending) {
            m_counts.push_back(static_cast<GLsizei>(r.count));
            m_offsets.push_back(
                reinterpret_cast<const void*>(static_cast<uintptr_t>(r.first) * sizeof(GLuint)));
        }
        glMultiDrawElements(GL_TRIANGLES, m_counts.data(), GL_UNSIGNED_INT, m_offsets.data(),
                            static_cast<GLsizei>(m_counts.size()));
    }
    m_pending.clear();
}

void DrawSubmitter::flushIndirect() {
    Ring& ring = *m_ring;
    const size_t n = m_pending.size();
    if (ring.cursor + n > ring.region_cmds) {
        // This frame needs more than a region holds: a bigger buffer from here on.
        size_t cmds = ring.region_cmds * 2;
        while (cmds < n)
            cmds *= 2;
        ring.allocate(cmds);
    }
    const size_t first_cmd = ring.region * ring.region_cmds + ring.cursor;
    glBindBuffer(GL_DRAW_INDIRECT_BUFFER, ring.buffer.id());
    if (ring.persistent) {
        IndirectCommand* out = ring.mapped + first_cmd;
        for (size_t i = 0; i < n; ++i)
            out[i] = {m_pending[i].count, 1, m_pending[i].first, 0, 0};
    } else {
        m_scratch_cmds.resize(n);
        IndirectCommand* out = m_scratch_cmds.data();
        for (size_t i = 0; i < n; ++i)
            out[i] = {m_pending[i].count, 1, m_pending[i].first, 0, 0};
        glBufferSubData(GL_DRAW_INDIRECT_BUFFER,
                        static_cast<GLintptr>(first_cmd * sizeof(IndirectCommand)),
                        static_cast<GLsizeiptr>(n * sizeof(IndirectCommand)), out);
    }
    ring.cursor += n;
    glMultiDrawElementsIndirect(
        GL_TRIANGLES, GL_UNSIGNED_INT,
        reinterpret_cast<const void*>(static_cast<uintptr_t>(first_cmd * sizeof(IndirectCommand))),
        static_cast<GLsizei>(n), sizeof(IndirectCommand));
}

} // namespace render
