// The interactive viewer driven as a user drives it (issue 33): a real window under xvfb-run,
// SDL events pushed into its queue (keys, clicks on the menu bar, text, a dropped folder), its
// frames run one by one, and its state and pixels checked. BSPV_UI_SHOTS=DIR saves the frames
// the layout test measures, to look at.
#include "app/cli.h"
#include "app/ui_layout.h"
#include "app/viewer_app.h"
#include "content/image/image.h"

#include <SDL.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

const std::string kDemo = BSPV_SOURCE_DIR "/assets/maps/demo.bsp";
const std::string kMaps = BSPV_SHARED_MAPS_DIR;

class ViewerUi : public ::testing::Test {
protected:
    void SetUp() override {
        m_dir = fs::temp_directory_path() /
                ("bspv_ui_" + std::to_string(::getpid()) + "_" +
                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(m_dir);
        fs::create_directories(m_dir / "config");
        // Detected game folders and screenshots stay inside the test's folder.
        ::setenv("HOME", (m_dir / "home").c_str(), 1);
        ::unsetenv("XDG_PICTURES_DIR");
    }
    void TearDown() override {
        m_app.reset();
        fs::remove_all(m_dir);
    }

    // Starts the viewer on `map` (a 1280x720 window) and runs frames until it is loaded.
    void start(const std::string& map, std::vector<std::string> extra = {}) {
        std::vector<std::string> args = {map,      "--config-dir", (m_dir / "config").string(),
                                         "--size", "1280x720",     "--no-watch"};
        args.insert(args.end(), extra.begin(), extra.end());
        auto options = app::parseArguments(args);
        ASSERT_TRUE(options.ok()) << options.error().message();
        m_app = std::make_unique<app::ViewerApp>(*options);
        auto st = m_app->init();
        ASSERT_TRUE(st.ok()) << st.error().message();
        for (int i = 0; i < 2000 && m_app->loading(); ++i)
            m_app->frame();
        ASSERT_FALSE(m_app->loading());
        frames(3); // auto-sized panels settle in their second frame
    }
    void frames(int n) {
        for (int i = 0; i < n; ++i)
            m_app->frame();
    }
    static void push(SDL_Event e) { ASSERT_EQ(SDL_PushEvent(&e), 1) << SDL_GetError(); }
    static SDL_Event keyEvent(Uint32 type, SDL_Keycode key, Uint16 mod) {
        SDL_Event e{};
        e.type = type;
        e.key.keysym.sym = key;
        e.key.keysym.scancode = SDL_GetScancodeFromKey(key);
        e.key.keysym.mod = mod;
        e.key.state = type == SDL_KEYDOWN ? SDL_PRESSED : SDL_RELEASED;
        return e;
    }
    // A tap: pressed and released before the next frame starts, with its modifier key held
    // around it as a hand does (Ctrl down, A down, A up, Ctrl up).
    void tap(SDL_Keycode key, Uint16 mod = KMOD_NONE) {
        const SDL_Keycode modifier = (mod & KMOD_CTRL)    ? SDLK_LCTRL
                                     : (mod & KMOD_SHIFT) ? SDLK_LSHIFT
                                                          : SDLK_UNKNOWN;
        if (modifier != SDLK_UNKNOWN)
            push(keyEvent(SDL_KEYDOWN, modifier, mod));
        push(keyEvent(SDL_KEYDOWN, key, mod));
        push(keyEvent(SDL_KEYUP, key, mod));
        if (modifier != SDLK_UNKNOWN)
            push(keyEvent(SDL_KEYUP, modifier, KMOD_NONE));
        frames(3);
    }
    void type(const std::string& text) {
        SDL_Event e{};
        e.type = SDL_TEXTINPUT;
        std::snprintf(e.text.text, sizeof e.text.text, "%s", text.c_str());
        push(e);
        frames(1);
    }
    // A left click at (x, y): the pointer moves there in one frame, then presses and releases
    // (within one frame, as a quick click does).
    void click(float x, float y) {
        SDL_Event m{};
        m.type = SDL_MOUSEMOTION;
        m.motion.x = static_cast<Sint32>(x);
        m.motion.y = static_cast<Sint32>(y);
        push(m);
        frames(1);
        SDL_Event d{};
        d.type = SDL_MOUSEBUTTONDOWN;
        d.button.button = SDL_BUTTON_LEFT;
        d.button.x = m.motion.x;
        d.button.y = m.motion.y;
        d.button.state = SDL_PRESSED;
        d.button.clicks = 1;
        SDL_Event u = d;
        u.type = SDL_MOUSEBUTTONUP;
        u.button.state = SDL_RELEASED;
        push(d);
        push(u);
        frames(3);
    }
    // Clicks the middle of a recorded rectangle ("Windows", "Windows/Debug").
    void clickOn(const std::string& name) {
        const auto r = app::rectOf(name);
        ASSERT_TRUE(r) << name << " was not drawn";
        click((*r)[0] + (*r)[2] * 0.5f, (*r)[1] + (*r)[3] * 0.5f);
    }
    std::vector<uint8_t> capture(int* w = nullptr, int* h = nullptr) {
        std::vector<uint8_t> rgba;
        int cw = 0, ch = 0;
        m_app->captureNextFrame(&rgba, &cw, &ch);
        frames(1);
        if (w)
            *w = cw;
        if (h)
            *h = ch;
        return rgba;
    }

    fs::path m_dir;
    std::unique_ptr<app::ViewerApp> m_app;
};

size_t differing(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
    size_t n = 0;
    for (size_t i = 0; i + 3 < a.size() && i + 3 < b.size(); i += 4)
        n += a[i] != b[i] || a[i + 1] != b[i + 1] || a[i + 2] != b[i + 2];
    return n;
}

void saveShot(const std::vector<uint8_t>& rgba, int w, int h, const std::string& name) {
    const char* dir = std::getenv("BSPV_UI_SHOTS");
    if (!dir || rgba.empty())
        return;
    content::Image img;
    img.width = w;
    img.height = h;
    img.rgba = rgba; // top row first
    for (size_t i = 3; i < img.rgba.size(); i += 4)
        img.rgba[i] = 255;
    content::writePng(fs::path(dir) / (name + ".png"), img);
}

} // namespace

// The default layout at 1280x720 leaves at least 85 % of the view free: the pixels that differ
// between a frame with the UI and one without it (F2), the world frozen in between.
TEST_F(ViewerUi, DefaultLayoutLeavesMostOfTheViewFree) {
    start(kMaps + "/q1/lq_e1m1.bsp");
    m_app->setAnimationPaused(true);
    m_app->notices().clearAll();
    frames(2);
    int w = 0, h = 0;
    const std::vector<uint8_t> with_ui = capture(&w, &h);
    ASSERT_EQ(w, 1280);
    ASSERT_EQ(h, 720);
    tap(SDLK_F2);
    ASSERT_FALSE(m_app->uiVisible());
    m_app->notices().clearAll();
    frames(1);
    const std::vector<uint8_t> plain = capture();
    EXPECT_EQ(differing(plain, capture()), 0u); // the world alone draws the same each frame
    const double covered = static_cast<double>(differing(with_ui, plain)) / (w * h);
    saveShot(with_ui, w, h, "layout_with_ui");
    saveShot(plain, w, h, "layout_plain");
    std::printf("default layout covers %.2f %% of 1280x720\n", covered * 100.0);
    EXPECT_LE(covered, 0.15);
    EXPECT_GT(covered, 0.01); // the menu bar and the overview are there
}

// Issue 33: the Debug window's close box was final. Every panel comes back from Windows.
TEST_F(ViewerUi, APanelClosedWithItsBoxReopensFromTheWindowsMenu) {
    start(kDemo);
    EXPECT_FALSE(m_app->debugWindow()); // not in the default layout
    clickOn("Windows");
    clickOn("Windows/Debug");
    ASSERT_TRUE(m_app->debugWindow());
    frames(2);
    const auto r = app::rectOf("Debug");
    ASSERT_TRUE(r);
    // The close box at the right end of the title bar.
    click((*r)[0] + (*r)[2] - 12.0f, (*r)[1] + 9.0f);
    ASSERT_FALSE(m_app->debugWindow());
    clickOn("Windows");
    clickOn("Windows/Debug");
    EXPECT_TRUE(m_app->debugWindow());
    // The others too.
    for (const char* name : {"Map info", "Entities", "Textures", "Bookmarks", "View options"}) {
        clickOn("Windows");
        clickOn(std::string("Windows/") + name);
        frames(2);
        EXPECT_TRUE(app::rectOf(name)) << name;
    }
    EXPECT_TRUE(m_app->windows().map_info && m_app->windows().textures);
}

// A Debug window left at the bottom right of a larger window is moved on screen.
TEST_F(ViewerUi, PanelsStayOnScreenWhenTheWindowIsSmaller) {
    std::ofstream(m_dir / "config" / app::kImGuiIniName)
        << "[Window][Debug]\nPos=1500,800\nSize=600,900\nCollapsed=0\n\n";
    std::ofstream(m_dir / "config" / app::kConfigFileName)
        << "# bspview config 1\nwindow debug 1\n";
    start(kDemo);
    ASSERT_TRUE(m_app->debugWindow());
    frames(2);
    const auto r = app::rectOf("Debug");
    ASSERT_TRUE(r);
    EXPECT_GE((*r)[0], 0.0f);
    EXPECT_GE((*r)[1], 0.0f);
    EXPECT_LE((*r)[0] + (*r)[2], 1280.0f);
    EXPECT_LE((*r)[1] + (*r)[3], 720.0f);
}

// Keys read by the UI from its key state (I to pick; Enter and Ctrl+A in a field) now work for
// taps shorter than a frame.
TEST_F(ViewerUi, KeysTappedWithinOneFrameAreSeen) {
    start(kMaps + "/q1/lq_e1m1.bsp");
    ASSERT_FALSE(m_app->debugPanels().pick());
    tap(SDLK_i);
    EXPECT_TRUE(m_app->debugPanels().pick());

    m_app->windows().bookmarks = true;
    frames(2);
    clickOn("Bookmarks/go to field");
    type("junk");
    tap(SDLK_a, KMOD_LCTRL); // select all: the next text replaces it
    type("128 -880 46 0 90");
    {
        int w = 0, h = 0;
        const auto shot = capture(&w, &h);
        saveShot(shot, w, h, "goto_typed");
    }
    tap(SDLK_RETURN);
    EXPECT_EQ(m_app->camera().position, glm::vec3(128, -880, 46));
    EXPECT_EQ(m_app->camera().yaw, 90.0f);
    // A Source getpos line, likewise.
    clickOn("Bookmarks/go to field");
    tap(SDLK_a, KMOD_LCTRL);
    type("setpos 1.5 2.5 3.5;setang 10 20 0");
    tap(SDLK_RETURN);
    EXPECT_EQ(m_app->camera().position, glm::vec3(1.5f, 2.5f, 3.5f));
    EXPECT_EQ(m_app->camera().pitch, 10.0f);
}

// Esc closes the Open and Export panels (and the key help); F1 and ? open the key help.
TEST_F(ViewerUi, EscClosesOpenAndExportAndF1ShowsTheKeys) {
    start(kDemo);
    tap(SDLK_o, KMOD_LCTRL);
    ASSERT_TRUE(m_app->openPanelVisible());
    tap(SDLK_ESCAPE); // with the Open panel's filter field focused
    EXPECT_FALSE(m_app->openPanelVisible());
    clickOn("File");
    clickOn("File/Export...");
    ASSERT_TRUE(m_app->exportPanelVisible());
    tap(SDLK_ESCAPE);
    EXPECT_FALSE(m_app->exportPanelVisible());
    tap(SDLK_F1);
    EXPECT_TRUE(m_app->windows().key_help);
    EXPECT_TRUE(app::rectOf("Keys"));
    tap(SDLK_ESCAPE);
    EXPECT_FALSE(m_app->windows().key_help);
    tap(SDLK_SLASH, KMOD_LSHIFT); // '?'
    EXPECT_TRUE(m_app->windows().key_help);
}

// A folder dropped on the window becomes a game folder (saved), and the map reloads with it.
TEST_F(ViewerUi, ADroppedFolderBecomesAGameFolder) {
    start(kDemo);
    const fs::path games = m_dir / "my game" / "id1";
    fs::create_directories(games);
    SDL_Event e{};
    e.type = SDL_DROPFILE;
    const std::string path = games.string();
    e.drop.file = static_cast<char*>(SDL_malloc(path.size() + 1));
    std::memcpy(e.drop.file, path.c_str(), path.size() + 1);
    push(e);
    frames(2);
    const auto& folders = m_app->settings().game_folders;
    ASSERT_EQ(folders.size(), 1u);
    EXPECT_EQ(fs::path(folders[0]), games);
    EXPECT_TRUE(m_app->notices().find("added the game folder"));
    std::ifstream cfg(m_dir / "config" / app::kConfigFileName);
    const std::string text((std::istreambuf_iterator<char>(cfg)), {});
    EXPECT_NE(text.find("game_folder " + games.string()), std::string::npos);
}

// With the UI hidden, a failed open still says why, on screen; an empty file says "empty file".
TEST_F(ViewerUi, NoticesShowWithTheUiHidden) {
    start(kDemo);
    m_app->setAnimationPaused(true);
    tap(SDLK_F2);
    ASSERT_FALSE(m_app->uiVisible());
    m_app->notices().clearAll();
    frames(1);
    const auto before = capture();
    const fs::path empty = m_dir / "empty.bsp";
    std::ofstream(empty).close();
    SDL_Event e{};
    e.type = SDL_DROPFILE;
    e.drop.file = static_cast<char*>(SDL_malloc(empty.string().size() + 1));
    std::memcpy(e.drop.file, empty.c_str(), empty.string().size() + 1);
    push(e);
    for (int i = 0; i < 200 && !m_app->notices().find("empty file"); ++i)
        frames(1);
    const app::Notice* n = m_app->notices().find("empty file");
    ASSERT_TRUE(n);
    EXPECT_EQ(n->kind, app::NoticeKind::Error);
    EXPECT_NE(n->text.find("empty.bsp"), std::string::npos);
    frames(1);
    EXPECT_GT(differing(before, capture()), 1000u); // drawn, bottom left
}

// A map loading shows its progress; a picture setting carried over from the last run is said
// at the start, and a hidden UI is not carried over.
TEST_F(ViewerUi, ProgressAtLoadAndCarriedOverSettingsAreShown) {
    std::ofstream(m_dir / "config" / app::kConfigFileName)
        << "# bspview config 1\nview lightmap\noverlay 0\nexposure -1\n";
    auto options = app::parseArguments({kMaps + "/q1/lq_e1m1.bsp", "--config-dir",
                                        (m_dir / "config").string(), "--size", "1280x720"});
    ASSERT_TRUE(options.ok());
    m_app = std::make_unique<app::ViewerApp>(*options);
    ASSERT_TRUE(m_app->init().ok());
    m_app->frame();
    ASSERT_TRUE(m_app->loading());
    const app::Notice* progress = m_app->notices().find("loading lq_e1m1.bsp");
    ASSERT_TRUE(progress);
    EXPECT_EQ(progress->kind, app::NoticeKind::Progress);
    EXPECT_GE(progress->progress, 0.0f);
    for (int i = 0; i < 2000 && m_app->loading(); ++i)
        m_app->frame();
    EXPECT_FALSE(m_app->notices().find("loading lq_e1m1.bsp"));
    EXPECT_TRUE(m_app->uiVisible());
    const app::Notice* carried = m_app->notices().find("from the last run");
    ASSERT_TRUE(carried);
    EXPECT_NE(carried->text.find("lightmap"), std::string::npos);
    EXPECT_NE(carried->text.find("exposure -1.0"), std::string::npos);
}

// "Why culled" ticked with visibility locked classifies the locked set at once (it showed
// "considered 0" until L was pressed twice).
TEST_F(ViewerUi, WhyCulledAfterLockCountsAtOnce) {
    start(kMaps + "/q1/lq_e1m1.bsp");
    tap(SDLK_l);
    ASSERT_TRUE(m_app->visOptions().lock);
    m_app->windows().view = true;
    frames(2);
    clickOn("View options/why culled");
    ASSERT_TRUE(m_app->renderOptions().show_culled);
    EXPECT_GT(m_app->drawList().stats.faces_considered, 0u);
    EXPECT_EQ(m_app->drawList().stats.faces_considered, m_app->drawList().stats.drawn_world +
                                                            m_app->drawList().stats.culled_pvs +
                                                            m_app->drawList().stats.culled_frustum);
}

// F12 writes into the screenshot folder, and the notice gives the whole path.
TEST_F(ViewerUi, ScreenshotGoesToItsFolderWithThePathShown) {
    const fs::path shots = m_dir / "shots";
    std::ofstream(m_dir / "config" / app::kConfigFileName)
        << "# bspview config 1\nscreenshot_folder " << shots.string() << "\n";
    start(kDemo);
    tap(SDLK_F12);
    ASSERT_TRUE(fs::is_directory(shots));
    std::vector<fs::path> files;
    for (const auto& f : fs::directory_iterator(shots))
        files.push_back(f.path());
    ASSERT_EQ(files.size(), 1u);
    EXPECT_EQ(files[0].extension(), ".png");
    const app::Notice* n = m_app->notices().find("screenshot saved");
    ASSERT_TRUE(n);
    EXPECT_NE(n->text.find(files[0].string()), std::string::npos) << n->text;
}

// Click to select: the face under the cursor in the middle of the view; C looks at it.
TEST_F(ViewerUi, ClickSelectsAndCLooksAtTheSelection) {
    start(kMaps + "/q1/lq_e1m1.bsp");
    click(640.0f, 420.0f);
    const app::Selection& s = m_app->selection();
    ASSERT_NE(s.kind, app::Selection::Kind::None);
    const glm::vec3 before = m_app->camera().position;
    tap(SDLK_c);
    EXPECT_NE(m_app->camera().position, before);
    const glm::vec3 to = glm::normalize(s.box.centre() - m_app->camera().position);
    EXPECT_GT(glm::dot(to, m_app->camera().forward()), 0.99f);
}

// Export: the panel starts in the export folder, asks before creating it, and the result is a
// notice with the full path.
TEST_F(ViewerUi, ExportAsksThenWritesAndSaysWhere) {
    start(kDemo);
    const fs::path out = m_dir / "home" / "Documents" / "bspview";
    clickOn("File");
    clickOn("File/Export...");
    ASSERT_TRUE(m_app->exportPanelVisible());
    EXPECT_EQ(fs::path(m_app->exportPanel().path()), out / "demo.glb");
    frames(2);
    clickOn("Export/Export");
    EXPECT_NE(m_app->exportPanel().question().find("does not exist"), std::string::npos);
    EXPECT_FALSE(fs::exists(out));
    frames(2);
    clickOn("Export/Yes");
    EXPECT_TRUE(fs::exists(out / "demo.glb"));
    const app::Notice* n = m_app->notices().find("wrote");
    ASSERT_TRUE(n);
    EXPECT_NE(n->text.find((out / "demo.glb").string()), std::string::npos) << n->text;
}

// Nothing to export before a map is open: the File menu's Export is disabled.
TEST_F(ViewerUi, ExportIsDisabledWithoutAMap) {
    const fs::path empty = m_dir / "empty.bsp";
    std::ofstream(empty).close();
    start(empty.string());
    EXPECT_EQ(m_app->bundle(), nullptr);
    EXPECT_TRUE(m_app->notices().find("empty file"));
    clickOn("File");
    clickOn("File/Export...");
    EXPECT_FALSE(m_app->exportPanelVisible());
}
