// Submission of index ranges from the static world index buffer: callers append the ranges of
// one draw (one material in one pass, or one brush model in the depth pre-pass) and flush, which
// issues exactly one GL draw call for everything appended since the last flush.
//
// Two paths, picked per frame:
// - Indirect (GL 4.3+): each range becomes a DrawElementsIndirectCommand written into a
//   persistently mapped ring (GL 4.4 buffer storage; orphaned and rewritten with
//   glBufferSubData where that is missing) and the flush is one glMultiDrawElementsIndirect.
//   The ring has one region per frame in flight, each guarded by a fence, so the CPU never
//   writes commands the GPU may still read and never waits unless it is three frames ahead.
// - Fallback (GL 3.3): one glMultiDrawElements over the same ranges.
// Both merge a range into the previous one when it starts where that one ends (the index
// buffer is laid out sorted by pass, model and material, so neighbouring faces of a material
// touch), and both draw the same triangles in the same order, so the images are identical.
#pragma once

#include "render/gl.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace render {

enum class DrawPath : int {
    Auto = 0,     // indirect when the context offers GL 4.3, else the fallback
    Fallback = 1, // glMultiDrawElements (GL 3.3)
    Indirect = 2, // glMultiDrawElementsIndirect (GL 4.3); falls back when unavailable
};
const char* drawPathName(DrawPath path);
// "auto", "33" / "gl33" / "fallback", "43" / "gl43" / "indirect".
bool parseDrawPath(std::string_view text, DrawPath* out);

// Counts of one frame (since DrawSubmitter::beginFrame).
struct SubmitStats {
    uint32_t draw_calls = 0;      // GL draw calls issued
    uint32_t ranges_appended = 0; // ranges handed to append()
    uint32_t ranges_drawn = 0;    // after merging: draws inside those calls
};

// One contiguous run of indices (first index and count, in indices, not bytes).
struct IndexRange {
    uint32_t first = 0;
    uint32_t count = 0;
};

// Appends [first, first + count) to ranges, extending the last range instead when it ends
// exactly at `first`. Empty ranges are dropped. Returns true when it merged (or dropped).
// GL-free, for tests.
bool appendMergedRange(std::vector<IndexRange>& ranges, uint32_t first, uint32_t count);

class DrawSubmitter {
public:
    DrawSubmitter();
    ~DrawSubmitter();
    DrawSubmitter(const DrawSubmitter&) = delete;
    DrawSubmitter& operator=(const DrawSubmitter&) = delete;

    // Starts a frame on the requested path (resolved against caps()); resets the counters.
    // The element array buffer bound at flush time is the one drawn from.
    void beginFrame(DrawPath requested);
    // Ends the frame: fences the ring region the frame wrote into.
    void endFrame();

    void append(uint32_t first_index, uint32_t count);
    // One draw call for the ranges appended since the last flush; nothing when there are none.
    void flush();

    // The path this frame uses (Fallback or Indirect).
    DrawPath path() const { return m_path; }
    const SubmitStats& frameStats() const { return m_stats; }

private:
    // The layout glMultiDrawElementsIndirect reads (GL 4.3 core, DrawElementsIndirectCommand).
    struct IndirectCommand {
        GLuint count;
        GLuint instance_count;
        GLuint first_index;
        GLint base_vertex;
        GLuint base_instance;
    };
    struct Ring;
    void flushIndirect();

    DrawPath m_path = DrawPath::Fallback;
    std::vector<IndexRange> m_pending;
    std::vector<GLsizei> m_counts;               // fallback scratch
    std::vector<const void*> m_offsets;          // fallback scratch
    std::vector<IndirectCommand> m_scratch_cmds; // indirect without buffer storage
    Ring* m_ring = nullptr;                      // created on the first indirect frame
    SubmitStats m_stats;
};

} // namespace render
