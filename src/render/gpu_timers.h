// GPU time per pass. Two ways to measure, the same interface:
//
// - Queries (the default): a GL_TIMESTAMP query (glQueryCounter, core in 3.3) at the start of
//   the frame and at every pass boundary, read back kFrames - 1 frames later so the CPU never
//   waits for the GPU: each frame uses its own slot of a ring of query sets, and a slot is read
//   (only when GL says its last query is available; otherwise the frame is dropped and counted)
//   just before it is reused. Timestamps, unlike GL_TIME_ELAPSED, need no nesting rule: begin()
//   while a pass runs ends that pass at the same instant.
// - Finish: glFinish at the frame start and at every boundary, timed by the CPU clock. It
//   stalls on purpose, for drivers whose timer queries mean nothing: llvmpipe records a query
//   per tile on each rasteriser thread, so its results are one tile's time, not the pass's
//   (see timerQueriesMeaningful). Each glFinish also ends the driver's batch, which costs a
//   little; --bench reports which way it measured.
// - FinishCpu: the same marks, timed by the CPU time of the whole process (every thread:
//   llvmpipe's rasteriser threads do the drawing). That is the work a pass costs, summed over
//   the threads, and it does not grow while other jobs hold the machine's cores, as the wall
//   clock does.
//
// A pass may run several times in a frame (a name that comes back after another one); its
// times are summed, and passes are listed in the order they first ran.
#pragma once

#include "render/gl.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace render {

// The names WorldRenderer::draw times, in the order they run (RenderOptions::timers). A pass
// that draws nothing in a frame is not timed in it (absent from GpuTimers::latest()).
// "stages": opaque and alpha-tested surfaces drawn through their Quake 3 shader stages;
// "blended stages": liquid and translucent ones; "opaque", "alpha-test", "liquid",
// "translucent": the single-texture path.
// "water reflection": the view mirrored in a planar water's plane (its own passes untimed);
// "water copy": the frame's colour and depth copied for the refraction.
inline constexpr const char* kTimedPasses[] = {"clear",
                                               "water reflection",
                                               "depth prepass",
                                               "opaque",
                                               "alpha-test",
                                               "stages",
                                               "sky",
                                               "models",
                                               "fog",
                                               "liquid",
                                               "water copy",
                                               "translucent",
                                               "blended stages",
                                               "flares",
                                               "display ramp",
                                               "screen warp",
                                               "view blend",
                                               "exposure",
                                               "world overlays"};

// False for renderers whose timer queries do not measure passes (Mesa's llvmpipe, softpipe,
// swrast): use GpuTimers::Mode::Finish there.
bool timerQueriesMeaningful(std::string_view gl_renderer);

class GpuTimers {
public:
    enum class Mode { Queries, Finish, FinishCpu };
    static constexpr int kFrames = 4;

    explicit GpuTimers(Mode mode = Mode::Queries) : m_mode(mode) {}
    ~GpuTimers();
    GpuTimers(const GpuTimers&) = delete;
    GpuTimers& operator=(const GpuTimers&) = delete;

    Mode mode() const { return m_mode; }

    // Starts a frame (and its first mark). Queries: reads the slot about to be reused, if
    // ready. Finish, FinishCpu: the frame before is complete and becomes latest().
    void beginFrame();
    // Ends the running pass, if any, and starts `pass` (names are interned, not kept).
    void begin(std::string_view pass);
    // Ends the running pass.
    void end();

    struct PassTime {
        std::string name;
        double ms = 0.0;
    };
    // The most recent complete frame's passes, each name once, in the order they first ran.
    const std::vector<PassTime>& latest() const { return m_latest; }
    // That frame from its first mark (beginFrame) to its last one: passes plus any gaps.
    double latestFrameMs() const { return m_latest_frame_ms; }
    // Frames whose results were dropped because the GPU had not finished them in time.
    uint64_t framesNotReady() const { return m_not_ready; }
    uint64_t framesRead() const { return m_read; }
    // Frames dropped because a sample made no sense (time running backwards, over a minute).
    uint64_t framesInvalid() const { return m_invalid; }

private:
    static constexpr int kNone = -1; // a mark that starts no pass (end())
    struct Slot {
        std::vector<GLuint> queries;   // grown as a frame needs more marks, never shrunk
        std::vector<int> names;        // per mark: the pass it starts, or kNone
        std::vector<double> finish_ms; // Finish, FinishCpu: the time of each mark
        size_t used = 0;
    };
    void mark(int name);
    void collect(Slot& slot);
    void publish(const Slot& slot, const std::vector<double>& at_ms);
    int intern(std::string_view name);

    Mode m_mode;
    std::vector<Slot> m_slots = std::vector<Slot>(kFrames);
    int m_current = -1;
    bool m_active = false;
    int m_running = kNone;       // the pass being timed while m_active
    double m_finish_start = 0.0; // ms on the mode's clock
    double clockMs() const;
    std::vector<std::string> m_names;
    std::vector<double> m_scratch; // mark times of the slot being read
    std::vector<PassTime> m_latest;
    double m_latest_frame_ms = 0.0;
    uint64_t m_not_ready = 0, m_read = 0, m_invalid = 0;
};

} // namespace render
