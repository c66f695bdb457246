// The viewer's keys in one table (issue 33): the event handler finds a key press's action here
// and the key-help window (F1 or ?) lists the same rows, so what the help says and what the
// keys do cannot disagree. Rows without an action (held keys, mouse) only document; the
// camera reads those every frame from the keys held (app/viewer_app.h).
#pragma once

#include <SDL_keycode.h>

#include <optional>
#include <span>
#include <string_view>

namespace app {

enum class KeyAction {
    None, // documentation only (held keys, mouse)
    KeyHelp,
    ToggleUi,
    ToggleMouseCapture,
    CloseOrRelease, // Esc: the key help, Open or Export panel, else the captured mouse
    OpenMap,
    Reload,
    Screenshot,
    Fullscreen,
    NextSpawn,
    PreviousSpawn,
    Bookmark,     // 1-9: index 0..8
    SaveBookmark, // Ctrl+1-9
    LockVisibility,
    Wireframe,
    PauseAnimation,
    FlipCompile,
    DropToFloor,
    WalkToggle,
    PickCentre,
    LookAtSelection,
    LeakPrevious,
    LeakNext,
    ReloadShaders,
    Quit,
};

// Which modifiers a row needs. Plain rows fire without Ctrl or Alt (Shift allowed unless a
// Shift row for the same key exists); Any rows fire whatever is held.
enum class KeyMods { Plain, Ctrl, Shift, Any };

struct KeyBinding {
    SDL_Keycode first = SDLK_UNKNOWN; // SDLK_UNKNOWN: a documentation row
    SDL_Keycode last = SDLK_UNKNOWN;  // a range (1-9); equal to first for one key
    KeyMods mods = KeyMods::Plain;
    KeyAction action = KeyAction::None;
    const char* keys = "";  // as the help shows them: "Ctrl+O", "1-9", "W A S D"
    const char* what = "";  // one line
    const char* group = ""; // the help's section: "Camera", "View", "File", ...
};

// Every row, in the order the help lists them.
std::span<const KeyBinding> keyBindings();

struct KeyHit {
    KeyAction action = KeyAction::None;
    int index = 0; // position in a range row (the bookmark slot - 1)
};
// The action a key press fires with the modifiers held (SDL's KMOD_* bits), if any.
std::optional<KeyHit> findKeyAction(SDL_Keycode key, uint16_t mods);

// The help text of the row that fires `action` ("F12"), for menus; "" when none does.
std::string_view keysOf(KeyAction action);

} // namespace app
