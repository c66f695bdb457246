#include "app/viewer.h"

#include "app/fly_camera.h"
#include "app/headless.h"
#include "app/window.h"
#include "content/image.h"
#include "core/file.h"
#include "render/world_renderer.h"
#include "scene/map_bundle.h"
#include "scene/visibility.h"

#include <SDL.h>
#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>
#include <imgui.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace app {

namespace {

struct FrameTimes {
    static constexpr int kCount = 240;
    float ms[kCount] = {};
    int next = 0;
    void push(float v) {
        ms[next] = v;
        next = (next + 1) % kCount;
    }
};

class Viewer {
public:
    explicit Viewer(const Options& options) : m_options(options) {}
    int run();

private:
    void requestLoad(const std::string& spec);
    void pollLoad();
    void goToSpawn(int index);
    void saveScreenshot(int width, int height);
    void handleEvent(const SDL_Event& e);
    void updateCamera(float dt);
    void drawOverlay();
    void drawOpenPanel();
    void refreshMapList();

    Options m_options;
    std::unique_ptr<Window> m_window;
    render::ShaderLibrary m_shaders;
    render::WorldRenderer m_renderer;
    std::unique_ptr<scene::MapBundle> m_bundle;
    std::unique_ptr<scene::Visibility> m_visibility;
    scene::DrawList m_list;
    scene::VisOptions m_vis_options;
    render::RenderOptions m_render_options;
    FlyCamera m_fly;
    int m_spawn = 0;

    std::future<core::Result<std::unique_ptr<scene::MapBundle>>> m_pending;
    std::string m_pending_spec;
    std::string m_error;
    std::string m_status;

    bool m_running = true;
    bool m_overlay = true;
    bool m_mouse_captured = false;
    bool m_right_held = false;
    bool m_vsync = true;
    bool m_open_panel = false;
    bool m_anim_paused = false;
    bool m_screenshot_requested = false; // F12: saved after the next frame is drawn
    double m_time = 0.0;
    char m_path_field[1024] = {};
    std::vector<std::string> m_map_list;
    FrameTimes m_frame_times;
    std::array<bool, scene::kNumLightStyles> m_style_enabled{};
    std::vector<int> m_styles_in_use;
    float m_cpu_vis_ms = 0.0f;
};

void Viewer::requestLoad(const std::string& spec) {
    if (m_pending.valid())
        return; // one load at a time
    m_pending_spec = spec;
    m_status = "loading " + spec + " ...";
    const scene::LoadSettings settings = loadSettingsOf(m_options);
    m_pending = std::async(std::launch::async,
                           [spec, settings] { return scene::loadMapBundle(spec, settings); });
}

void Viewer::pollLoad() {
    if (!m_pending.valid() ||
        m_pending.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
        return;
    auto result = m_pending.get();
    m_status.clear();
    if (!result) {
        // The current map stays; the error is shown in the overlay.
        m_error = result.error().message();
        std::fprintf(stderr, "bspview: error: %s\n", m_error.c_str());
        return;
    }
    std::unique_ptr<scene::MapBundle> bundle = std::move(*result);
    if (auto uploaded = uploadBundle(m_renderer, *bundle); !uploaded) {
        m_error = bundle->spec + ": " + uploaded.error().message();
        return;
    }
    m_error.clear();
    m_visibility.reset();
    m_bundle = std::move(bundle);
    m_visibility = std::make_unique<scene::Visibility>(m_bundle->map, m_bundle->mesh);
    m_list.clear();
    std::snprintf(m_path_field, sizeof m_path_field, "%s", m_bundle->spec.c_str());
    SDL_SetWindowTitle(m_window->sdl(), ("bspview - " + m_bundle->map.name).c_str());
    m_spawn = 0;
    auto cam = resolveCamera(m_options.camera_given ? m_options.camera : CameraSpec(), *m_bundle);
    if (cam)
        m_fly.camera = *cam;
    m_options.camera_given = false; // the command-line camera applies to the first map only
    std::array<bool, 256> used{};
    for (const bsp::Face& f : m_bundle->map.faces)
        for (uint8_t st : f.styles)
            if (st != bsp::kNoStyle)
                used[st] = true;
    m_styles_in_use.clear();
    for (int i = 0; i < 256; ++i)
        if (used[static_cast<size_t>(i)])
            m_styles_in_use.push_back(i);
    m_fly.camera.fov_x = m_options.fov;
    refreshMapList();
}

void Viewer::saveScreenshot(int width, int height) {
    content::Image image;
    image.width = width;
    image.height = height;
    image.rgba.resize(static_cast<size_t>(width) * static_cast<size_t>(height) * 4);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, image.rgba.data());
    // Bottom row first in GL; opaque alpha.
    const size_t row = static_cast<size_t>(width) * 4;
    for (int y = 0; y < height / 2; ++y)
        std::swap_ranges(image.rgba.begin() + static_cast<std::ptrdiff_t>(y * row),
                         image.rgba.begin() + static_cast<std::ptrdiff_t>((y + 1) * row),
                         image.rgba.begin() + static_cast<std::ptrdiff_t>((height - 1 - y) * row));
    for (size_t i = 3; i < image.rgba.size(); i += 4)
        image.rgba[i] = 255;
    const std::time_t now = std::time(nullptr);
    char name[64];
    std::strftime(name, sizeof name, "bspview-%Y%m%d-%H%M%S.png", std::localtime(&now));
    if (content::writePng(name, image))
        m_status = std::string("saved ") + name;
    else
        m_error = std::string("cannot write ") + name;
}

void Viewer::goToSpawn(int index) {
    if (!m_bundle || m_bundle->spawns.empty())
        return;
    const int n = static_cast<int>(m_bundle->spawns.size());
    m_spawn = ((index % n) + n) % n;
    CameraSpec spec;
    spec.spawn_index = m_spawn;
    auto cam = resolveCamera(spec, *m_bundle);
    if (cam) {
        const float fov = m_fly.camera.fov_x;
        m_fly.camera = *cam;
        m_fly.camera.fov_x = fov;
    }
}

void Viewer::refreshMapList() {
    m_map_list.clear();
    if (m_bundle && m_bundle->fs)
        for (const std::string& name : m_bundle->fs->list("maps/", ".bsp"))
            m_map_list.push_back(m_bundle->fs->specOf(name));
    // Loose .bsp files beside the current map.
    if (m_bundle) {
        std::error_code ec;
        const std::filesystem::path dir = std::filesystem::path(m_bundle->spec).parent_path();
        if (!dir.empty() && std::filesystem::is_directory(dir, ec)) {
            for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
                if (entry.is_regular_file(ec) &&
                    core::toLower(entry.path().extension().string()) == ".bsp")
                    m_map_list.push_back(entry.path().string());
            }
        }
    }
    std::sort(m_map_list.begin(), m_map_list.end());
    m_map_list.erase(std::unique(m_map_list.begin(), m_map_list.end()), m_map_list.end());
}

void Viewer::handleEvent(const SDL_Event& e) {
    ImGui_ImplSDL2_ProcessEvent(&e);
    const ImGuiIO& io = ImGui::GetIO();
    switch (e.type) {
    case SDL_QUIT:
        m_running = false;
        break;
    case SDL_DROPFILE:
        if (e.drop.file) {
            requestLoad(e.drop.file);
            SDL_free(e.drop.file);
        }
        break;
    case SDL_MOUSEBUTTONDOWN:
        if (e.button.button == SDL_BUTTON_RIGHT && !io.WantCaptureMouse) {
            m_right_held = true;
            SDL_SetRelativeMouseMode(SDL_TRUE);
        }
        break;
    case SDL_MOUSEBUTTONUP:
        if (e.button.button == SDL_BUTTON_RIGHT) {
            m_right_held = false;
            SDL_SetRelativeMouseMode(m_mouse_captured ? SDL_TRUE : SDL_FALSE);
        }
        break;
    case SDL_MOUSEWHEEL:
        if (!io.WantCaptureMouse)
            m_fly.changeSpeed(static_cast<float>(e.wheel.y));
        break;
    case SDL_KEYDOWN: {
        if (io.WantCaptureKeyboard)
            break;
        const SDL_Keycode k = e.key.keysym.sym;
        const bool ctrl = (e.key.keysym.mod & KMOD_CTRL) != 0;
        if (k == SDLK_F1 || k == SDLK_BACKQUOTE)
            m_overlay = !m_overlay;
        else if (k == SDLK_m || (k == SDLK_ESCAPE && m_mouse_captured)) {
            m_mouse_captured = k == SDLK_m ? !m_mouse_captured : false;
            SDL_SetRelativeMouseMode(m_mouse_captured ? SDL_TRUE : SDL_FALSE);
        } else if (k == SDLK_n)
            goToSpawn(m_spawn + ((e.key.keysym.mod & KMOD_SHIFT) ? -1 : 1));
        else if (k == SDLK_l) {
            m_vis_options.lock = !m_vis_options.lock;
        } else if (k == SDLK_o && ctrl)
            m_open_panel = true;
        else if (k == SDLK_f && !ctrl)
            m_render_options.wireframe = !m_render_options.wireframe;
        else if (k == SDLK_F12)
            m_screenshot_requested = true;
        break;
    }
    default:
        break;
    }
}

void Viewer::updateCamera(float dt) {
    const ImGuiIO& io = ImGui::GetIO();
    FlyInput in;
    if (!io.WantCaptureKeyboard) {
        const Uint8* keys = SDL_GetKeyboardState(nullptr);
        const SDL_Keymod mod = SDL_GetModState();
        in.forward = keys[SDL_SCANCODE_W] || keys[SDL_SCANCODE_UP];
        in.back = keys[SDL_SCANCODE_S] || keys[SDL_SCANCODE_DOWN];
        in.left = keys[SDL_SCANCODE_A] || keys[SDL_SCANCODE_LEFT];
        in.right = keys[SDL_SCANCODE_D] || keys[SDL_SCANCODE_RIGHT];
        in.up = keys[SDL_SCANCODE_SPACE] || keys[SDL_SCANCODE_E];
        in.down = ((mod & KMOD_CTRL) != 0) || keys[SDL_SCANCODE_Q];
        in.fast = (mod & KMOD_SHIFT) != 0;
    }
    if (m_right_held || m_mouse_captured) {
        int dx = 0, dy = 0;
        SDL_GetRelativeMouseState(&dx, &dy);
        in.mouse_dx = static_cast<float>(dx);
        in.mouse_dy = static_cast<float>(dy);
    } else {
        SDL_GetRelativeMouseState(nullptr, nullptr);
    }
    m_fly.update(in, dt);
}

void Viewer::drawOpenPanel() {
    if (!m_open_panel)
        return;
    ImGui::SetNextWindowSize(ImVec2(560, 420), ImGuiCond_FirstUseEver);
    if (!ImGui::Begin("Open map", &m_open_panel)) {
        ImGui::End();
        return;
    }
    ImGui::TextUnformatted("Path (a .bsp, or ARCHIVE.pk3:maps/NAME.bsp):");
    ImGui::SetNextItemWidth(-80);
    const bool enter = ImGui::InputText("##path", m_path_field, sizeof m_path_field,
                                        ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    if (ImGui::Button("Open") || enter)
        requestLoad(m_path_field);
    ImGui::Separator();
    ImGui::Text("Maps in the search paths (%zu):", m_map_list.size());
    if (ImGui::BeginChild("maps")) {
        for (const std::string& spec : m_map_list) {
            if (ImGui::Selectable(spec.c_str()))
                requestLoad(spec);
        }
    }
    ImGui::EndChild();
    ImGui::End();
}

void Viewer::drawOverlay() {
    if (!m_overlay)
        return;
    ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(360, 0), ImGuiCond_FirstUseEver);
    ImGui::Begin("bspview", nullptr, ImGuiWindowFlags_AlwaysAutoResize);
    const ImGuiIO& io = ImGui::GetIO();
    ImGui::Text("%.1f fps  %.2f ms  (visibility %.3f ms)", io.Framerate, 1000.0f / io.Framerate,
                m_cpu_vis_ms);
    ImGui::PlotLines("##frametimes", m_frame_times.ms, FrameTimes::kCount, m_frame_times.next,
                     "frame ms", 0.0f, 50.0f, ImVec2(-1, 40));
    if (!m_error.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.35f, 0.3f, 1.0f));
        ImGui::TextWrapped("%s", m_error.c_str());
        ImGui::PopStyleColor();
    }
    if (!m_status.empty())
        ImGui::TextUnformatted(m_status.c_str());
    if (m_bundle) {
        const bsp::Map& m = m_bundle->map;
        ImGui::Text("%s  (%s v%d)", m.name.c_str(), std::string(bsp::formatName(m.format)).c_str(),
                    m.version);
        const scene::Camera& c = m_fly.camera;
        ImGui::Text("pos %.1f %.1f %.1f  pitch %.1f yaw %.1f", c.position.x, c.position.y,
                    c.position.z, c.pitch, c.yaw);
        const scene::DrawStats& s = m_list.stats;
        ImGui::Text("leaf %d  cluster %d", s.camera_leaf, s.camera_cluster);
        ImGui::Text("leaves %u visible / %u PVS / %zu", s.visible_leaves, s.pvs_leaves,
                    m.leaves.size());
        ImGui::Text("faces %u / %u   triangles %llu", s.faces_drawn, s.faces_total,
                    static_cast<unsigned long long>(s.triangles));
        const render::SubmitStats& ss = m_renderer.submitStats();
        ImGui::Text("batches %u  GL draw calls %u (%s)  ranges %u -> %u", s.draw_calls,
                    ss.draw_calls,
                    m_renderer.drawPath() == render::DrawPath::Indirect ? "indirect" : "multi-draw",
                    ss.ranges_appended, ss.ranges_drawn);
        if (!m_bundle->missing_textures.empty())
            ImGui::Text("missing textures: %zu (drawn as checkers)",
                        m_bundle->missing_textures.size());
        ImGui::Separator();
        bool changed = false;
        changed |= ImGui::Checkbox("PVS culling", &m_vis_options.pvs);
        ImGui::SameLine();
        changed |= ImGui::Checkbox("frustum culling", &m_vis_options.frustum);
        ImGui::Checkbox("lock visibility (L)", &m_vis_options.lock);
        ImGui::SameLine();
        if (ImGui::Checkbox("why culled", &m_render_options.show_culled)) {
            m_vis_options.classify = m_render_options.show_culled;
            if (m_visibility && !m_vis_options.lock)
                m_visibility->invalidate();
        }
        if (m_render_options.show_culled)
            ImGui::TextColored(ImVec4(0.9f, 0.9f, 0.9f, 1.0f),
                               "considered %u: drawn %u, PVS-rejected %u (red), frustum %u (blue)",
                               s.faces_considered, s.drawn_world, s.culled_pvs, s.culled_frustum);
        ImGui::SameLine();
        ImGui::Checkbox("wireframe (F)", &m_render_options.wireframe);
        if (changed && m_visibility)
            m_visibility->invalidate();
        int view = static_cast<int>(m_render_options.view);
        ImGui::Combo("view", &view,
                     "lit\0lightmap only\0fullbright\0flat shaded\0normals\0overdraw\0");
        m_render_options.view = static_cast<render::ViewMode>(view);
        ImGui::Checkbox("neutral lighting", &m_render_options.neutral_lighting);
        ImGui::SameLine();
        ImGui::Checkbox("pause animation", &m_anim_paused);
        int level = m_bundle->mesh.patch_level;
        if (ImGui::SliderInt("patch level", &level, 1, 16) && level != m_bundle->mesh.patch_level) {
            scene::WorldMeshOptions mo;
            mo.patch_level = level;
            scene::WorldMesh mesh = scene::buildWorldMesh(m_bundle->map, mo);
            std::string error;
            if (m_renderer.upload(m_bundle->map, mesh, m_bundle->textures, &error)) {
                m_renderer.uploadSkyBox(m_bundle->skybox ? &*m_bundle->skybox : nullptr);
                m_visibility.reset();
                m_bundle->mesh = std::move(mesh);
                m_options.patch_level = level;
                m_visibility = std::make_unique<scene::Visibility>(m_bundle->map, m_bundle->mesh);
            } else {
                m_error = error;
            }
        }
        ImGui::SliderFloat("liquid alpha", &m_render_options.liquid_alpha, 0.1f, 1.0f, "%.2f");
        if (!m_styles_in_use.empty() && ImGui::CollapsingHeader("Light styles")) {
            for (int st : m_styles_in_use) {
                if (st >= scene::kNumLightStyles) {
                    ImGui::TextDisabled("style %d (out of range)", st);
                    continue;
                }
                const std::string label = "style " + std::to_string(st) + "  " +
                                          std::string(scene::lightStyleString(st)).substr(0, 24);
                ImGui::Checkbox(label.c_str(), &m_style_enabled[static_cast<size_t>(st)]);
            }
        }
        if (!m_bundle->missing_textures.empty() && ImGui::CollapsingHeader("Missing textures")) {
            for (const std::string& name : m_bundle->missing_textures)
                ImGui::BulletText("%s", name.c_str());
        }
        ImGui::SliderFloat("speed", &m_fly.speed, 16.0f, 4000.0f, "%.0f u/s",
                           ImGuiSliderFlags_Logarithmic);
        ImGui::SliderFloat("fov", &m_fly.camera.fov_x, 30.0f, 140.0f, "%.0f");
        if (ImGui::Button("copy camera")) {
            char text[160];
            std::snprintf(text, sizeof text, "--camera %.1f,%.1f,%.1f,%.2f,%.2f", c.position.x,
                          c.position.y, c.position.z, c.pitch, c.yaw);
            SDL_SetClipboardText(text);
            m_status = std::string("copied: ") + text;
        }
        ImGui::SameLine();
        if (ImGui::Button("next spawn (N)"))
            goToSpawn(m_spawn + 1);
        ImGui::SameLine();
        ImGui::Text("%d / %zu", m_bundle->spawns.empty() ? 0 : m_spawn + 1,
                    m_bundle->spawns.size());
    }
    if (ImGui::Checkbox("vsync", &m_vsync))
        m_window->setVsync(m_vsync);
    ImGui::SameLine();
    if (ImGui::Button("Open... (Ctrl+O)"))
        m_open_panel = true;
    ImGui::TextDisabled("RMB look, WASD move, Space/E up, Ctrl/Q down, Shift fast,\n"
                        "wheel speed, M capture mouse, F1 overlay, F12 screenshot");
    ImGui::End();
}

int Viewer::run() {
    m_style_enabled.fill(true);
    auto window = Window::create("bspview", m_options.width, m_options.height, false);
    if (!window) {
        std::fprintf(stderr, "bspview: error: %s\n", window.error().message().c_str());
        return 1;
    }
    m_window = std::move(*window);
    m_window->setVsync(m_vsync);
    m_shaders.setShaderDir(m_options.shader_dir);
    std::string error;
    if (!m_renderer.init(m_shaders, &error)) {
        std::fprintf(stderr, "bspview: error: %s\n", error.c_str());
        return 1;
    }
    render::parseViewMode(m_options.view, &m_render_options.view);
    render::parseDrawPath(m_options.gl_path, &m_render_options.draw_path);
    m_render_options.wireframe = m_options.wireframe;
    m_vis_options.pvs = m_options.pvs;
    m_vis_options.frustum = m_options.frustum;

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::StyleColorsDark();
    ImGui_ImplSDL2_InitForOpenGL(m_window->sdl(), m_window->glContext());
    ImGui_ImplOpenGL3_Init("#version 330 core");

    requestLoad(mapSpecOf(m_options));

    auto last = std::chrono::steady_clock::now();
    while (m_running) {
        SDL_Event e;
        while (SDL_PollEvent(&e))
            handleEvent(e);
        pollLoad();
        const auto now = std::chrono::steady_clock::now();
        const float dt = std::min(0.1f, std::chrono::duration<float>(now - last).count());
        last = now;
        m_frame_times.push(dt * 1000.0f);
        if (!m_anim_paused)
            m_time += dt;

        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplSDL2_NewFrame();
        ImGui::NewFrame();
        updateCamera(dt);

        int w = 0, h = 0;
        m_window->drawableSize(&w, &h);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glViewport(0, 0, w, h);
        m_fly.camera.aspect = h > 0 ? static_cast<float>(w) / static_cast<float>(h) : 1.0f;
        if (m_bundle && m_visibility) {
            const auto t0 = std::chrono::steady_clock::now();
            m_visibility->update(m_fly.camera, m_vis_options, m_list);
            m_cpu_vis_ms =
                std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - t0)
                    .count();
        }
        m_render_options.time = m_time;
        m_render_options.style_values = scene::lightStyleValues(m_time, &m_style_enabled);
        m_renderer.draw(m_list, m_fly.camera, m_render_options);

        drawOverlay();
        drawOpenPanel();
        ImGui::Render();
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        if (m_screenshot_requested) {
            m_screenshot_requested = false;
            saveScreenshot(w, h);
        }
        m_window->swap();
    }
    if (m_pending.valid())
        m_pending.wait();
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
    return 0;
}

} // namespace

int runViewer(const Options& options) {
    Viewer viewer(options);
    return viewer.run();
}

} // namespace app
