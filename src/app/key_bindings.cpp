#include "app/key_bindings.h"

#include <SDL_keyboard.h>

namespace app {

namespace {

using K = KeyAction;
using M = KeyMods;

constexpr SDL_Keycode kDoc = SDLK_UNKNOWN;

// clang-format off
constexpr KeyBinding kBindings[] = {
    {SDLK_F1, SDLK_F1, M::Any, K::KeyHelp, "F1 or ?", "this key help", "Window"},
    {SDLK_SLASH, SDLK_SLASH, M::Any, K::KeyHelp, "", "", ""}, // '?' is Shift+/ on most layouts
    {SDLK_F2, SDLK_F2, M::Any, K::ToggleUi, "F2 or `", "show or hide the menus and panels",
     "Window"},
    {SDLK_BACKQUOTE, SDLK_BACKQUOTE, M::Any, K::ToggleUi, "", "", ""},
    {SDLK_ESCAPE, SDLK_ESCAPE, M::Any, K::CloseOrRelease, "Esc",
     "close the key help, Open or Export panel; release the mouse", "Window"},
    {SDLK_F11, SDLK_F11, M::Any, K::Fullscreen, "F11", "fullscreen on / off", "Window"},
    {SDLK_o, SDLK_o, M::Ctrl, K::OpenMap, "Ctrl+O", "open a map (or drop a .bsp on the window)",
     "File"},
    {SDLK_r, SDLK_r, M::Ctrl, K::Reload, "Ctrl+R", "reload the map from disk", "File"},
    {SDLK_F12, SDLK_F12, M::Any, K::Screenshot, "F12",
     "screenshot into the screenshot folder (File menu)", "File"},
    {SDLK_q, SDLK_q, M::Ctrl, K::Quit, "Ctrl+Q", "quit", "File"},
    {kDoc, kDoc, M::Any, K::None, "right mouse drag", "look around", "Camera"},
    {kDoc, kDoc, M::Any, K::None, "W A S D, arrows", "move", "Camera"},
    {kDoc, kDoc, M::Any, K::None, "Space or E / Q or Ctrl",
     "up / down (walking: jump / crouch)", "Camera"},
    {kDoc, kDoc, M::Any, K::None, "Shift, mouse wheel", "move faster, change the speed",
     "Camera"},
    {SDLK_m, SDLK_m, M::Plain, K::ToggleMouseCapture, "M",
     "capture the mouse (look without holding a button)", "Camera"},
    {SDLK_n, SDLK_n, M::Plain, K::NextSpawn, "N", "next spawn point", "Camera"},
    {SDLK_n, SDLK_n, M::Shift, K::PreviousSpawn, "Shift+N", "previous spawn point", "Camera"},
    {SDLK_1, SDLK_9, M::Plain, K::Bookmark, "1-9", "go to a bookmark", "Camera"},
    {SDLK_1, SDLK_9, M::Ctrl, K::SaveBookmark, "Ctrl+1-9", "save the view as a bookmark",
     "Camera"},
    {SDLK_g, SDLK_g, M::Plain, K::DropToFloor, "G", "drop to the floor (eye height)", "Camera"},
    {SDLK_v, SDLK_v, M::Plain, K::WalkToggle, "V", "walk as the game's player / fly",
     "Camera"},
    {kDoc, kDoc, M::Any, K::None, "left click", "select the face or entity under the cursor",
     "Selection"},
    {SDLK_c, SDLK_c, M::Plain, K::LookAtSelection, "C", "look at the selection from outside it",
     "Selection"},
    {SDLK_i, SDLK_i, M::Plain, K::PickCentre, "I",
     "pick the face under the crosshair (Debug window: luxel, shader)", "Selection"},
    {SDLK_l, SDLK_l, M::Plain, K::LockVisibility, "L",
     "lock visibility, fly out to see what was drawn", "Debug"},
    {SDLK_f, SDLK_f, M::Plain, K::Wireframe, "F", "wireframe on / off", "Debug"},
    {SDLK_LEFTBRACKET, SDLK_LEFTBRACKET, M::Plain, K::LeakPrevious, "[ / ]",
     "previous / next stop along the leak line", "Debug"},
    {SDLK_RIGHTBRACKET, SDLK_RIGHTBRACKET, M::Plain, K::LeakNext, "", "", ""},
    {SDLK_b, SDLK_b, M::Plain, K::FlipCompile, "B",
     "flip to the previous compile (kept by a reload)", "Debug"},
    {SDLK_p, SDLK_p, M::Plain, K::PauseAnimation, "P", "pause the animation (light styles, "
     "shaders)", "Debug"},
    {SDLK_F5, SDLK_F5, M::Any, K::ReloadShaders, "F5", "reload the GLSL shaders", "Debug"},
};
// clang-format on

bool modsMatch(KeyMods want, uint16_t mods, bool shift_row_exists) {
    const bool ctrl = (mods & KMOD_CTRL) != 0;
    const bool shift = (mods & KMOD_SHIFT) != 0;
    const bool alt = (mods & KMOD_ALT) != 0;
    switch (want) {
    case KeyMods::Any:
        return true;
    case KeyMods::Ctrl:
        return ctrl && !alt;
    case KeyMods::Shift:
        return shift && !ctrl && !alt;
    case KeyMods::Plain:
        return !ctrl && !alt && !(shift && shift_row_exists);
    }
    return false;
}

} // namespace

std::span<const KeyBinding> keyBindings() {
    return kBindings;
}

std::optional<KeyHit> findKeyAction(SDL_Keycode key, uint16_t mods) {
    if (key == SDLK_UNKNOWN)
        return std::nullopt;
    const auto rows = keyBindings();
    bool shift_row = false;
    for (const KeyBinding& b : rows)
        shift_row |= b.mods == KeyMods::Shift && key >= b.first && key <= b.last;
    for (const KeyBinding& b : rows) {
        if (b.action == KeyAction::None || key < b.first || key > b.last)
            continue;
        if (modsMatch(b.mods, mods, shift_row))
            return KeyHit{b.action, static_cast<int>(key - b.first)};
    }
    return std::nullopt;
}

std::string_view keysOf(KeyAction action) {
    if (action == KeyAction::None)
        return {};
    for (const KeyBinding& b : keyBindings())
        if (b.action == action && b.keys[0] != 0)
            return b.keys;
    return {};
}

} // namespace app
