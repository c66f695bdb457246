// SDL events handed to the viewer a frame's worth at a time, so that a key tapped faster than a
// frame is still seen held for one frame (issue 33). ImGui 1.86 reads keys as state
// (io.KeysDown at NewFrame): a key pressed and released between two frames left no trace in the
// fields that read it (Enter, Ctrl+A) or in anything polling the keyboard. The queue stops a
// frame's batch before the event that would undo a key or button change made earlier in the same
// batch; that event and everything after it wait for the next frame, in order (Dear ImGui 1.87's
// input queue "trickling" does the same: imgui.cpp UpdateInputEvents).
#pragma once

#include <SDL_events.h>

#include <deque>
#include <vector>

namespace app {

class EventQueue {
public:
    void push(const SDL_Event& event) { m_events.push_back(event); }
    // The events to handle this frame, oldest first.
    std::vector<SDL_Event> takeFrame();
    bool empty() const { return m_events.empty(); }
    size_t size() const { return m_events.size(); }

private:
    std::deque<SDL_Event> m_events;
};

} // namespace app
