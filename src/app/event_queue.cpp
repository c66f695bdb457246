#include "app/event_queue.h"

#include <algorithm>

namespace app {

std::vector<SDL_Event> EventQueue::takeFrame() {
    std::vector<SDL_Event> out;
    std::vector<SDL_Scancode> keys_changed;
    std::vector<Uint8> buttons_changed;
    while (!m_events.empty()) {
        const SDL_Event& e = m_events.front();
        if (e.type == SDL_KEYDOWN || e.type == SDL_KEYUP) {
            // A repeat changes nothing; a second change of the same key waits.
            const SDL_Scancode sc = e.key.keysym.scancode;
            if (!e.key.repeat) {
                if (std::find(keys_changed.begin(), keys_changed.end(), sc) != keys_changed.end())
                    break;
                keys_changed.push_back(sc);
            }
        } else if (e.type == SDL_MOUSEBUTTONDOWN || e.type == SDL_MOUSEBUTTONUP) {
            const Uint8 b = e.button.button;
            if (std::find(buttons_changed.begin(), buttons_changed.end(), b) !=
                buttons_changed.end())
                break;
            buttons_changed.push_back(b);
        }
        out.push_back(e);
        m_events.pop_front();
    }
    return out;
}

} // namespace app
