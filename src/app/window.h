// SDL2 window + OpenGL 3.3 core context (visible for the viewer, hidden for headless modes;
// without a display server the hidden one is an EGL pbuffer of SDL's offscreen driver).
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

    // Whether a hidden window takes SDL's "offscreen" driver (EGL, no display server): when
    // DISPLAY, WAYLAND_DISPLAY and SDL_VIDEODRIVER are all unset or empty.
    static bool offscreenWithoutDisplay();
    // The SDL video driver in use ("x11", "wayland", "offscreen", ...), "" before create().
    static std::string videoDriver();

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
