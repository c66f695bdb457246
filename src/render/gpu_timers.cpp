#include "render/gpu_timers.h"

namespace render {

GpuTimers::~GpuTimers() {
    if (!m_created)
        return;
    for (Slot& s : m_slots)
        glDeleteQueries(kMaxPasses, s.queries.data());
}

void GpuTimers::collect(Slot& slot) {
    if (slot.used == 0)
        return;
    // Only the last query needs checking: queries complete in order.
    GLint available = 0;
    glGetQueryObjectiv(slot.queries[static_cast<size_t>(slot.used - 1)], GL_QUERY_RESULT_AVAILABLE,
                       &available);
    if (!available) {
        ++m_not_ready; // never wait: drop this frame's numbers
        slot.used = 0;
        return;
    }
    // Read signed: llvmpipe can report an end before the begin (timestamps taken on different
    // threads), which unsigned becomes ~1.8e19 ns. A frame with such a sample, or one longer
    // than a minute, is dropped and counted rather than shown.
    std::vector<PassTime> passes;
    for (int i = 0; i < slot.used; ++i) {
        GLint64 ns = 0;
        glGetQueryObjecti64v(slot.queries[static_cast<size_t>(i)], GL_QUERY_RESULT, &ns);
        if (ns < 0 || ns > GLint64{60} * 1000 * 1000 * 1000) {
            ++m_invalid;
            slot.used = 0;
            return;
        }
        passes.push_back({slot.names[static_cast<size_t>(i)], static_cast<double>(ns) * 1e-6});
    }
    m_latest = std::move(passes);
    ++m_read;
    slot.used = 0;
}

void GpuTimers::beginFrame() {
    if (!m_created) {
        for (Slot& s : m_slots)
            glGenQueries(kMaxPasses, s.queries.data());
        m_created = true;
    }
    if (m_active)
        end();
    m_current = (m_current + 1) % kFrames;
    collect(m_slots[static_cast<size_t>(m_current)]);
}

void GpuTimers::begin(const char* pass) {
    if (m_current < 0 || m_active)
        return;
    Slot& s = m_slots[static_cast<size_t>(m_current)];
    if (s.used >= kMaxPasses)
        return;
    s.names[static_cast<size_t>(s.used)] = pass;
    glBeginQuery(GL_TIME_ELAPSED, s.queries[static_cast<size_t>(s.used)]);
    m_active = true;
}

void GpuTimers::end() {
    if (!m_active)
        return;
    glEndQuery(GL_TIME_ELAPSED);
    ++m_slots[static_cast<size_t>(m_current)].used;
    m_active = false;
}

} // namespace render
