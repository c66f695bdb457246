#include "render/gpu_timers.h"

#include <algorithm>
#include <chrono>
#include <ctime>

namespace render {

bool timerQueriesMeaningful(std::string_view gl_renderer) {
    for (std::string_view software : {"llvmpipe", "softpipe", "swrast", "Software Rasterizer"})
        if (gl_renderer.find(software) != std::string_view::npos)
            return false;
    return true;
}

GpuTimers::~GpuTimers() {
    for (Slot& s : m_slots)
        if (!s.queries.empty())
            glDeleteQueries(static_cast<GLsizei>(s.queries.size()), s.queries.data());
}

int GpuTimers::intern(std::string_view name) {
    for (size_t i = 0; i < m_names.size(); ++i)
        if (m_names[i] == name)
            return static_cast<int>(i);
    m_names.emplace_back(name);
    return static_cast<int>(m_names.size() - 1);
}

double GpuTimers::clockMs() const {
    if (m_mode == Mode::FinishCpu) {
        timespec t{};
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
        return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) * 1e-6;
    }
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

void GpuTimers::mark(int name) {
    Slot& s = m_slots[static_cast<size_t>(m_current)];
    if (s.used == s.names.size()) {
        s.names.push_back(kNone);
        s.finish_ms.push_back(0.0);
        if (m_mode == Mode::Queries) {
            GLuint query = 0;
            glGenQueries(1, &query);
            s.queries.push_back(query);
        }
    }
    s.names[s.used] = name;
    if (m_mode == Mode::Queries) {
        glQueryCounter(s.queries[s.used], GL_TIMESTAMP);
    } else {
        glFinish();
        s.finish_ms[s.used] = clockMs() - m_finish_start;
    }
    ++s.used;
}

void GpuTimers::publish(const Slot& slot, const std::vector<double>& at_ms) {
    m_latest.clear();
    for (size_t i = 0; i + 1 < slot.used; ++i) {
        if (slot.names[i] == kNone)
            continue;
        const std::string& name = m_names[static_cast<size_t>(slot.names[i])];
        auto it = std::find_if(m_latest.begin(), m_latest.end(),
                               [&](const PassTime& p) { return p.name == name; });
        if (it == m_latest.end())
            it = m_latest.insert(m_latest.end(), PassTime{name, 0.0});
        it->ms += at_ms[i + 1] - at_ms[i];
    }
    m_latest_frame_ms = slot.used > 0 ? at_ms[slot.used - 1] - at_ms[0] : 0.0;
    ++m_read;
}

void GpuTimers::collect(Slot& slot) {
    if (slot.used == 0)
        return;
    // Only the last query needs checking: queries complete in order.
    GLint available = 0;
    glGetQueryObjectiv(slot.queries[slot.used - 1], GL_QUERY_RESULT_AVAILABLE, &available);
    if (!available) {
        ++m_not_ready; // never wait: drop this frame's numbers
        return;
    }
    // A frame whose time runs backwards or spans more than a minute is dropped and counted
    // rather than shown.
    m_scratch.resize(slot.used);
    GLuint64 first = 0, previous = 0;
    for (size_t i = 0; i < slot.used; ++i) {
        GLuint64 ns = 0;
        glGetQueryObjectui64v(slot.queries[i], GL_QUERY_RESULT, &ns);
        if (i == 0)
            first = previous = ns;
        if (ns < previous || ns - first > GLuint64{60} * 1000 * 1000 * 1000) {
            ++m_invalid;
            return;
        }
        previous = ns;
        m_scratch[i] = static_cast<double>(ns - first) * 1e-6;
    }
    publish(slot, m_scratch);
}

void GpuTimers::beginFrame() {
    if (m_active)
        end();
    if (m_mode != Mode::Queries) {
        // One slot: the frame before is complete as soon as its last mark returned.
        Slot& s = m_slots[0];
        if (m_current == 0 && s.used > 0)
            publish(s, s.finish_ms);
        m_current = 0;
        s.used = 0;
        glFinish();
        m_finish_start = clockMs();
    } else {
        m_current = (m_current + 1) % kFrames;
        Slot& s = m_slots[static_cast<size_t>(m_current)];
        collect(s);
        s.used = 0;
    }
    mark(kNone);
}

void GpuTimers::begin(std::string_view pass) {
    if (m_current < 0)
        return;
    const int name = intern(pass);
    if (m_active && name == m_running)
        return; // the same pass goes on
    mark(name);
    m_running = name;
    m_active = true;
}

void GpuTimers::end() {
    if (!m_active)
        return;
    mark(kNone);
    m_running = kNone;
    m_active = false;
}

} // namespace render
