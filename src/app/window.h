// SDL2 window + OpenGL 3.3 core context (visible for the viewer, hidden for headless modes).
#pragma once

#include "core/result.h"

#include <memory>
#include <string>

struct SDL_Window;

namespace app {

class Window {
public:
    ~Window();
    Window(const Window&) = delete;
    Window& operator=(const Window&) = delete;

    // Creates the window and context and loads GL. `hidden` makes an invisible window whose
    // default framebuffer is never shown (rendering goes to an offscreen target).
    static core::Result<std::unique_ptr<Window>> create(const std::string& title, int width,
                                                        int height, bool hidden);

    SDL_Window* sdl() const { return m_window; }
    void* glContext() const { return m_context; }
    void swap();
    void setVsync(bool on);
    void drawableSize(int* w, int* h) const;

private:
    Window() = default;
    SDL_Window* m_window = nullptr;
    void* m_context = nullptr;
};

} // namespace app
