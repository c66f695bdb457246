// ViewerApp: events, the key table's actions, camera input and click to select
// (app/viewer_app.h). Keys act on their press events, looked up in app/key_bindings.h, and the
// held keys that move the camera are tracked from events too: nothing polls SDL's keyboard.
#include "app/viewer_app.h"

#include <SDL.h>
#include <backends/imgui_impl_sdl.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace app {

namespace {
constexpr float kClickSlop = 4.0f; // pixels a left press may move and still be a click
} // namespace

void ViewerApp::pumpEvents() {
    SDL_Event e;
    while (SDL_PollEvent(&e))
        m_events.push(e);
    for (const SDL_Event& ev : m_events.takeFrame())
        handleEvent(ev);
}

void ViewerApp::handleEvent(const SDL_Event& e) {
    ImGui_ImplSDL2_ProcessEvent(&e);
    ImGuiIO& io = ImGui::GetIO();
    switch (e.type) {
    case SDL_QUIT:
        m_running = false;
        break;
    case SDL_WINDOWEVENT:
        if (e.window.event == SDL_WINDOWEVENT_FOCUS_LOST)
            m_keys_down.reset(); // their releases go elsewhere
        else if (e.window.event == SDL_WINDOWEVENT_LEAVE)
            m_mouse_pos.reset();
        break;
    case SDL_DROPFILE:
        if (e.drop.file) {
            const std::string path = e.drop.file;
            SDL_free(e.drop.file);
            handleDrop(path);
        }
        break;
    case SDL_MOUSEMOTION:
        m_mouse_pos = ImVec2(static_cast<float>(e.motion.x), static_cast<float>(e.motion.y));
        break;
    case SDL_MOUSEBUTTONDOWN: {
        const ImVec2 at(static_cast<float>(e.button.x), static_cast<float>(e.button.y));
        m_mouse_pos = at;
        // WantCaptureMouse is as of the last frame, which drew what is under the pointer.
        if (e.button.button == SDL_BUTTON_RIGHT && !io.WantCaptureMouse) {
            m_right_held = true;
            SDL_SetRelativeMouseMode(SDL_TRUE);
        } else if (e.button.button == SDL_BUTTON_LEFT && !io.WantCaptureMouse &&
                   !m_mouse_captured) {
            m_left_down_at = at;
        }
        break;
    }
    case SDL_MOUSEBUTTONUP:
        m_mouse_pos = ImVec2(static_cast<float>(e.button.x), static_cast<float>(e.button.y));
        if (e.button.button == SDL_BUTTON_RIGHT) {
            m_right_held = false;
            SDL_SetRelativeMouseMode(m_mouse_captured ? SDL_TRUE : SDL_FALSE);
        } else if (e.button.button == SDL_BUTTON_LEFT && m_left_down_at) {
            const ImVec2 d(m_mouse_pos->x - m_left_down_at->x, m_mouse_pos->y - m_left_down_at->y);
            if (std::abs(d.x) <= kClickSlop && std::abs(d.y) <= kClickSlop)
                selectAtCursor(m_mouse_pos->x, m_mouse_pos->y);
            m_left_down_at.reset();
        }
        break;
    case SDL_MOUSEWHEEL:
        if (!io.WantCaptureMouse)
            m_fly.changeSpeed(static_cast<float>(e.wheel.y));
        break;
    case SDL_KEYUP:
        // The modifiers as this event has them, not as SDL's state has them now.
        m_mods = e.key.keysym.mod;
        io.KeyCtrl = (m_mods & KMOD_CTRL) != 0;
        io.KeyShift = (m_mods & KMOD_SHIFT) != 0;
        io.KeyAlt = (m_mods & KMOD_ALT) != 0;
        if (e.key.keysym.scancode < SDL_NUM_SCANCODES)
            m_keys_down.reset(e.key.keysym.scancode);
        if (e.key.keysym.sym == SDLK_LCTRL || e.key.keysym.sym == SDLK_RCTRL)
            m_ctrl.released();
        break;
    case SDL_KEYDOWN:
        m_mods = e.key.keysym.mod;
        io.KeyCtrl = (m_mods & KMOD_CTRL) != 0;
        io.KeyShift = (m_mods & KMOD_SHIFT) != 0;
        io.KeyAlt = (m_mods & KMOD_ALT) != 0;
        handleKeyDown(e.key);
        break;
    default:
        break;
    }
}

void ViewerApp::handleKeyDown(const SDL_KeyboardEvent& key) {
    const SDL_Keycode k = key.keysym.sym;
    const bool typing = ImGui::GetIO().WantTextInput;
    if (key.keysym.scancode < SDL_NUM_SCANCODES && !typing)
        m_keys_down.set(key.keysym.scancode);
    if ((k == SDLK_LCTRL || k == SDLK_RCTRL) && !key.repeat)
        m_ctrl.pressed(m_fly.camera);
    const std::optional<KeyHit> hit = findKeyAction(k, key.keysym.mod);
    if (!hit || (key.repeat && hit->action != KeyAction::None))
        return;
    // While a text field has the keyboard, only Esc and the function keys reach the table.
    const bool function_key = (k >= SDLK_F1 && k <= SDLK_F12) || k == SDLK_ESCAPE;
    if (typing && !function_key)
        return;
    const bool ctrl = (key.keysym.mod & KMOD_CTRL) != 0;
    if (ctrl && k != SDLK_LCTRL && k != SDLK_RCTRL)
        m_fly.camera = m_ctrl.chord(m_fly.camera); // Ctrl was a chord, not a descent
    runKeyAction(*hit, ctrl);
}

void ViewerApp::runKeyAction(const KeyHit& hit, bool /*ctrl*/) {
    switch (hit.action) {
    case KeyAction::None:
        break;
    case KeyAction::KeyHelp:
        m_windows.key_help = !m_windows.key_help;
        break;
    case KeyAction::ToggleUi:
        m_ui_visible = !m_ui_visible;
        break;
    case KeyAction::ToggleMouseCapture:
        setMouseCaptured(!m_mouse_captured);
        break;
    case KeyAction::CloseOrRelease:
        if (!closeTopDialog() && m_mouse_captured)
            setMouseCaptured(false);
        break;
    case KeyAction::OpenMap:
        m_open.showFor(m_session.bundle() ? m_session.bundle()->spec : std::string());
        break;
    case KeyAction::Reload:
        reloadMap();
        break;
    case KeyAction::Screenshot:
        m_screenshot_requested = true;
        break;
    case KeyAction::Fullscreen:
        toggleFullscreen();
        break;
    case KeyAction::Quit:
        m_running = false;
        break;
    case KeyAction::NextSpawn:
    case KeyAction::PreviousSpawn:
        goToSpawn(m_spawn + (hit.action == KeyAction::NextSpawn ? 1 : -1));
        break;
    case KeyAction::Bookmark:
    case KeyAction::SaveBookmark:
        bookmarkKey(hit.index + 1, hit.action == KeyAction::SaveBookmark);
        break;
    case KeyAction::LockVisibility:
        m_vis_options.lock = !m_vis_options.lock;
        break;
    case KeyAction::Wireframe:
        m_render_options.wireframe = !m_render_options.wireframe;
        break;
    case KeyAction::PauseAnimation:
        m_styles.paused = !m_styles.paused;
        break;
    case KeyAction::FlipCompile:
        flipCompile();
        break;
    case KeyAction::DropToFloor:
        dropToFloor();
        break;
    case KeyAction::WalkToggle:
        m_walk_on = !m_walk_on;
        break;
    case KeyAction::PickCentre:
        pickCentre();
        break;
    case KeyAction::LookAtSelection:
        lookAtSelection();
        break;
    case KeyAction::LeakPrevious:
    case KeyAction::LeakNext:
        goToCamera(m_debug.stepLeak(hit.action == KeyAction::LeakNext ? 1 : -1, m_fly.camera));
        break;
    case KeyAction::ReloadShaders:
        reloadShaders();
        break;
    }
}

bool ViewerApp::closeTopDialog() {
    if (m_windows.key_help) {
        m_windows.key_help = false;
        return true;
    }
    if (m_open.visible()) {
        m_open.visible() = false;
        return true;
    }
    if (m_export.visible()) {
        m_export.visible() = false;
        return true;
    }
    if (m_windows.about) {
        m_windows.about = false;
        return true;
    }
    return false;
}

void ViewerApp::setMouseCaptured(bool captured) {
    m_mouse_captured = captured;
    SDL_SetRelativeMouseMode(captured || m_right_held ? SDL_TRUE : SDL_FALSE);
}

void ViewerApp::toggleFullscreen() {
    m_fullscreen = !m_fullscreen;
    SDL_SetWindowFullscreen(m_window->sdl(), m_fullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP : 0);
}

void ViewerApp::handleDrop(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        addGameFolder(path);
        return;
    }
    requestLoad(path);
}

void ViewerApp::addGameFolder(const std::string& folder) {
    std::error_code ec;
    const std::string abs = std::filesystem::absolute(folder, ec).lexically_normal().string();
    auto& folders = m_settings.game_folders;
    if (std::find(folders.begin(), folders.end(), abs) != folders.end()) {
        info("already a game folder: " + abs);
        return;
    }
    if (folders.size() >= kMaxGameFolders) {
        error("too many game folders (" + std::to_string(kMaxGameFolders) +
              "); remove one in File > Open");
        return;
    }
    folders.push_back(abs);
    saveSettingsNow();
    // The map on screen looks again, with the new folder (its missing textures may be there).
    if (m_session.bundle()) {
        info("added the game folder " + abs + "; reloading " + m_session.bundle()->map.name);
        reloadMap();
    } else {
        info("added the game folder " + abs);
    }
}

void ViewerApp::dropToFloor() {
    if (!m_session.bundle())
        return;
    if (auto eye = dropEyeToFloor(m_session.bundle()->map, m_fly.camera.position))
        m_fly.camera.position = *eye;
    else
        info("drop to floor: no floor below (or no collision data)");
}

void ViewerApp::bookmarkKey(int slot, bool save) {
    if (!m_session.bundle())
        return;
    const std::string n = std::to_string(slot);
    if (save) {
        Bookmark b = bookmarkOf(m_fly.camera);
        if (const auto old = bookmark(m_settings, m_model.map_key, slot))
            b.name = old->name; // saving over a named slot keeps its name
        setBookmark(m_settings, m_model.map_key, slot, b);
        m_model.names_key.clear(); // the Bookmarks panel reads the names again
        info("saved bookmark " + n);
        saveSettingsNow();
    } else if (auto b = bookmark(m_settings, m_model.map_key, slot)) {
        applyBookmark(m_fly.camera, *b);
        info("bookmark " + n + (b->name.empty() ? std::string() : ": " + b->name));
    } else {
        info("bookmark " + n + " is empty (Ctrl+" + n + " saves it)");
    }
}

void ViewerApp::selectAtCursor(float x, float y) {
    const scene::MapBundle* b = m_session.bundle();
    if (!b)
        return;
    int w = 0, h = 0;
    m_window->drawableSize(&w, &h);
    // Window to drawable pixels (they differ on high-DPI displays).
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const float sx = display.x > 0.0f ? static_cast<float>(w) / display.x : 1.0f;
    const float sy = display.y > 0.0f ? static_cast<float>(h) / display.y : 1.0f;
    const Ray ray =
        cursorRay(m_fly.camera, x * sx, y * sy, static_cast<float>(w), static_cast<float>(h));
    m_selection = selectAlong(*b, ray, &m_face_bounds);
    m_debug.pickRay(ray.origin, ray.dir); // the Debug window shows the face's details
    switch (m_selection.kind) {
    case Selection::Kind::None:
        m_debug.clearPick();
        info("nothing under the cursor");
        break;
    case Selection::Kind::Face: {
        const bsp::Face& f = b->map.faces[static_cast<size_t>(m_selection.face)];
        const std::string material =
            f.material >= 0 && static_cast<size_t>(f.material) < b->map.materials.size()
                ? b->map.materials[static_cast<size_t>(f.material)].name
                : "?";
        info("selected face " + std::to_string(m_selection.face) + " (" + material +
             "); C looks at it");
        break;
    }
    case Selection::Kind::Entity: {
        const bsp::Entity& e = b->map.entities[static_cast<size_t>(m_selection.entity)];
        m_model.selected_entity = m_selection.entity;
        info("selected entity " + std::to_string(m_selection.entity) + " (" +
             std::string(e.classname()) + "); C looks at it");
        break;
    }
    }
}

void ViewerApp::lookAtSelection() {
    if (m_selection.kind == Selection::Kind::None) {
        info("nothing selected: click a face or an entity first");
        return;
    }
    goToCamera(lookAtBox(m_fly.camera, m_selection.box));
}

void ViewerApp::pickCentre() {
    m_debug.pickCentre();
    if (!m_debug.open())
        info("picked the face under the crosshair: Windows > Debug shows it");
}

void ViewerApp::updateCamera(float dt) {
    // Anything that moved the camera since the last update (a spawn, bookmark, entity or leak
    // step, a map load) was a teleport.
    if (m_drop_teleports && m_fly.camera.position != m_last_eye && m_session.bundle())
        if (auto eye = dropEyeToFloor(m_session.bundle()->map, m_fly.camera.position))
            m_fly.camera.position = *eye;
    updateCameraInput(dt);
    m_last_eye = m_fly.camera.position;
}

void ViewerApp::updateCameraInput(float dt) {
    FlyInput in;
    if (!ImGui::GetIO().WantTextInput) {
        const auto held = [&](SDL_Scancode s) { return m_keys_down.test(s); };
        in.forward = held(SDL_SCANCODE_W) || held(SDL_SCANCODE_UP);
        in.back = held(SDL_SCANCODE_S) || held(SDL_SCANCODE_DOWN);
        in.left = held(SDL_SCANCODE_A) || held(SDL_SCANCODE_LEFT);
        in.right = held(SDL_SCANCODE_D) || held(SDL_SCANCODE_RIGHT);
        in.up = held(SDL_SCANCODE_SPACE) || held(SDL_SCANCODE_E);
        const bool ctrl = held(SDL_SCANCODE_LCTRL) || held(SDL_SCANCODE_RCTRL);
        in.down = (ctrl && m_ctrl.descends()) || held(SDL_SCANCODE_Q);
        in.fast = held(SDL_SCANCODE_LSHIFT) || held(SDL_SCANCODE_RSHIFT);
    }
    if (m_right_held || m_mouse_captured) {
        int dx = 0, dy = 0;
        SDL_GetRelativeMouseState(&dx, &dy);
        in.mouse_dx = static_cast<float>(dx);
        in.mouse_dy = static_cast<float>(dy);
    } else {
        SDL_GetRelativeMouseState(nullptr, nullptr);
    }
    // Walk mode follows the map on screen: a load, reload or flip starts it again from the
    // camera in the new map (its bundle is built beside the old one, so the address differs).
    const bsp::Map* map = m_session.bundle() ? &m_session.bundle()->map : nullptr;
    if (!m_walk_on || !map)
        m_walk.end();
    else if (m_walk.map() != map) {
        if (!m_walk.begin(*map, m_fly.camera)) {
            m_walk_on = false;
            info("walk: this map has no collision data");
        } else if (std::string notice = walkModeNotice(*map); !notice.empty()) {
            info(notice); // models the player passes through
        }
    }
    if (!m_walk.active()) {
        m_fly.update(in, dt);
        return;
    }
    FlyInput look; // the fly camera turns the view, the walk moves it
    look.mouse_dx = in.mouse_dx;
    look.mouse_dy = in.mouse_dy;
    m_fly.update(look, dt);
    m_walk.update(in, dt, m_fly.camera);
}

} // namespace app
