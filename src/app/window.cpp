#include "app/window.h"

#include "render/gl.h"

#include <SDL.h>

namespace app {

namespace {
core::Error sdlError(const std::string& what) {
    return core::makeError(core::ErrorCode::Graphics, {}, -1, {}, what + ": " + SDL_GetError());
}

bool unset(const char* variable) {
    const char* value = SDL_getenv(variable);
    return !value || !*value;
}
} // namespace

bool Window::offscreenWithoutDisplay() {
    return unset("SDL_VIDEODRIVER") && unset("DISPLAY") && unset("WAYLAND_DISPLAY");
}

std::string Window::videoDriver() {
    const char* driver = SDL_GetCurrentVideoDriver();
    return driver ? driver : "";
}

Window::~Window() {
    if (m_context)
        SDL_GL_DeleteContext(m_context);
    if (m_window)
        SDL_DestroyWindow(m_window);
    SDL_QuitSubSystem(SDL_INIT_VIDEO);
}

core::Result<std::unique_ptr<Window>> Window::create(const std::string& title, int width,
                                                     int height, bool hidden) {
    // Headless with no display server: SDL's offscreen driver (an EGL pbuffer on the first EGL
    // device that initialises: a GPU's, or Mesa's software one), without probing X11 and
    // Wayland first (libwayland prints an XDG_RUNTIME_DIR error when it finds no server).
    const bool offscreen = hidden && offscreenWithoutDisplay();
    if (offscreen)
        SDL_SetHint(SDL_HINT_VIDEODRIVER, "offscreen");
    if (SDL_InitSubSystem(SDL_INIT_VIDEO) != 0)
        return sdlError(offscreen ? "cannot initialise SDL's offscreen video driver (no DISPLAY "
                                    "or WAYLAND_DISPLAY; it needs EGL with a device: Mesa or a "
                                    "GPU driver's libEGL)"
                                  : "cannot initialise SDL video (is a display available?)");
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, SDL_GL_CONTEXT_FORWARD_COMPATIBLE_FLAG
#ifndef NDEBUG
                                                  | SDL_GL_CONTEXT_DEBUG_FLAG
#endif
    );
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
    std::unique_ptr<Window> w(new Window());
    Uint32 flags = SDL_WINDOW_OPENGL | SDL_WINDOW_ALLOW_HIGHDPI;
    flags |= hidden ? SDL_WINDOW_HIDDEN : SDL_WINDOW_RESIZABLE;
    w->m_window = SDL_CreateWindow(title.c_str(), SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                                   hidden ? 64 : width, hidden ? 64 : height, flags);
    if (!w->m_window)
        return sdlError("cannot create window");
    w->m_context = SDL_GL_CreateContext(w->m_window);
    if (!w->m_context)
        return sdlError("cannot create an OpenGL 3.3 core context");
    SDL_GL_MakeCurrent(w->m_window, w->m_context);
    std::string error;
    if (!render::loadGl(reinterpret_cast<GLADloadfunc>(SDL_GL_GetProcAddress), &error))
        return core::makeError(core::ErrorCode::Graphics, {}, -1, {}, error);
    render::installDebugOutput();
    return w;
}

void Window::swap() {
    SDL_GL_SwapWindow(m_window);
}

void Window::setVsync(bool on) {
    SDL_GL_SetSwapInterval(on ? 1 : 0);
}

void Window::drawableSize(int* w, int* h) const {
    SDL_GL_GetDrawableSize(m_window, w, h);
}

} // namespace app
