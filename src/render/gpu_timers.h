// GPU time per pass with GL_TIME_ELAPSED queries (core in 3.3), read back a few frames later so
// the CPU never waits for the GPU: each frame uses its own slot of a ring of kFrames query sets,
// and a slot's results are collected (only when GL says they are available) just before the
// slot is reused, kFrames - 1 frames after it was issued.
#pragma once

#include "render/gl.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace render {

class GpuTimers {
public:
    static constexpr int kFrames = 4;
    static constexpr int kMaxPasses = 12;

    GpuTimers() = default;
    ~GpuTimers();
    GpuTimers(const GpuTimers&) = delete;
    GpuTimers& operator=(const GpuTimers&) = delete;

    // Starts a frame: collects the results of the slot about to be reused, if ready.
    void beginFrame();
    // One pass at a time (GL allows a single active GL_TIME_ELAPSED query); names are copied.
    void begin(const char* pass);
    void end();

    struct PassTime {
        std::string name;
        double ms = 0.0;
    };
    // The most recent complete frame's passes, in the order they ran.
    const std::vector<PassTime>& latest() const { return m_latest; }
    // Frames whose results were dropped because the GPU had not finished them in time.
    uint64_t framesNotReady() const { return m_not_ready; }
    uint64_t framesRead() const { return m_read; }
    // Frames dropped because a sample made no sense (negative, or over a minute).
    uint64_t framesInvalid() const { return m_invalid; }

private:
    struct Slot {
        std::array<GLuint, kMaxPasses> queries{};
        std::array<std::string, kMaxPasses> names;
        int used = 0;
    };
    void collect(Slot& slot);

    std::array<Slot, kFrames> m_slots;
    int m_current = -1;
    bool m_created = false;
    bool m_active = false;
    std::vector<PassTime> m_latest;
    uint64_t m_not_ready = 0, m_read = 0, m_invalid = 0;
};

} // namespace render
