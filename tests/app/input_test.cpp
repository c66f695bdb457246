// The viewer's key table (app/key_bindings.h) and its event queue (app/event_queue.h), GL-free:
// the help lists every key that does something, each key fires one action, and a key tapped
// within one frame is seen pressed in one frame and released in the next.
#include "app/event_queue.h"
#include "app/key_bindings.h"

#include <gtest/gtest.h>

#include <fstream>

#include <string>

namespace {

SDL_Event keyEvent(Uint32 type, SDL_Keycode key, SDL_Scancode sc, Uint16 mod = KMOD_NONE) {
    SDL_Event e{};
    e.type = type;
    e.key.keysym.sym = key;
    e.key.keysym.scancode = sc;
    e.key.keysym.mod = mod;
    e.key.state = type == SDL_KEYDOWN ? SDL_PRESSED : SDL_RELEASED;
    return e;
}

std::string helpText() {
    std::string text = "\n";
    for (const app::KeyBinding& b : app::keyBindings())
        text += std::string(b.keys) + " | " + b.what + "\n";
    return text;
}

} // namespace

// Issue 33: the old on-screen help left out L, F, N, I, [ ], F5 and Ctrl+O and named P for
// picking. The help is now the table the keys are looked up in.
TEST(KeyBindings, HelpListsTheKeysThatActAndNothingElse) {
    const std::string help = helpText();
    for (const char* keys : {"L |", "F |", "N |", "I |", "[ / ] |", "F5 |", "Ctrl+O |", "F1 or ? |",
                             "Esc |", "F12 |", "C |", "Ctrl+1-9 |", "1-9 |"})
        EXPECT_NE(help.find(std::string("\n") + keys), std::string::npos) << keys << "\n" << help;
    // I picks, P pauses.
    EXPECT_EQ(app::findKeyAction(SDLK_i, KMOD_NONE)->action, app::KeyAction::PickCentre);
    EXPECT_EQ(app::findKeyAction(SDLK_p, KMOD_NONE)->action, app::KeyAction::PauseAnimation);
    EXPECT_NE(help.find("P | pause"), std::string::npos);
    // Every row with an action is reachable through findKeyAction with its own modifiers.
    for (const app::KeyBinding& b : app::keyBindings()) {
        if (b.action == app::KeyAction::None)
            continue;
        const Uint16 mods = b.mods == app::KeyMods::Ctrl    ? KMOD_LCTRL
                            : b.mods == app::KeyMods::Shift ? KMOD_LSHIFT
                                                            : KMOD_NONE;
        for (SDL_Keycode k = b.first; k <= b.last; ++k) {
            const auto hit = app::findKeyAction(k, mods);
            ASSERT_TRUE(hit) << b.keys;
            EXPECT_EQ(hit->action, b.action) << b.keys;
            EXPECT_EQ(hit->index, static_cast<int>(k - b.first));
        }
    }
    // A documentation row names keys; an action row without text follows the row naming it.
    for (const app::KeyBinding& b : app::keyBindings()) {
        if (b.keys[0] != 0) {
            EXPECT_NE(std::string(b.group), "") << b.keys;
        }
    }
}

TEST(KeyBindings, ModifiersPickTheRow) {
    EXPECT_EQ(app::findKeyAction(SDLK_n, KMOD_NONE)->action, app::KeyAction::NextSpawn);
    EXPECT_EQ(app::findKeyAction(SDLK_n, KMOD_LSHIFT)->action, app::KeyAction::PreviousSpawn);
    EXPECT_EQ(app::findKeyAction(SDLK_3, KMOD_NONE)->action, app::KeyAction::Bookmark);
    EXPECT_EQ(app::findKeyAction(SDLK_3, KMOD_NONE)->index, 2);
    EXPECT_EQ(app::findKeyAction(SDLK_3, KMOD_RCTRL)->action, app::KeyAction::SaveBookmark);
    EXPECT_EQ(app::findKeyAction(SDLK_o, KMOD_LCTRL)->action, app::KeyAction::OpenMap);
    EXPECT_FALSE(app::findKeyAction(SDLK_o, KMOD_NONE));  // O alone does nothing
    EXPECT_FALSE(app::findKeyAction(SDLK_g, KMOD_LCTRL)); // Ctrl+G is not G
    EXPECT_EQ(app::findKeyAction(SDLK_SLASH, KMOD_LSHIFT)->action, app::KeyAction::KeyHelp);
    EXPECT_EQ(app::findKeyAction(SDLK_ESCAPE, KMOD_NONE)->action, app::KeyAction::CloseOrRelease);
    EXPECT_EQ(app::keysOf(app::KeyAction::Screenshot), "F12");
    EXPECT_EQ(app::keysOf(app::KeyAction::None), "");
}

// A key pressed and released between two frames: the press in the first frame's batch, the
// release (and everything after it) in the next, in order.
TEST(EventQueue, ATapWithinAFrameSpansTwoFrames) {
    app::EventQueue q;
    q.push(keyEvent(SDL_KEYDOWN, SDLK_LCTRL, SDL_SCANCODE_LCTRL, KMOD_LCTRL));
    q.push(keyEvent(SDL_KEYDOWN, SDLK_a, SDL_SCANCODE_A, KMOD_LCTRL));
    q.push(keyEvent(SDL_KEYUP, SDLK_a, SDL_SCANCODE_A, KMOD_LCTRL));
    q.push(keyEvent(SDL_KEYUP, SDLK_LCTRL, SDL_SCANCODE_LCTRL));
    q.push(keyEvent(SDL_KEYDOWN, SDLK_a, SDL_SCANCODE_A));
    const auto first = q.takeFrame();
    ASSERT_EQ(first.size(), 2u);
    EXPECT_EQ(first[1].type, static_cast<Uint32>(SDL_KEYDOWN));
    EXPECT_EQ(first[1].key.keysym.scancode, SDL_SCANCODE_A);
    const auto second = q.takeFrame();
    ASSERT_EQ(second.size(), 2u); // A up, Ctrl up; the second A down waits again
    EXPECT_EQ(second[0].type, static_cast<Uint32>(SDL_KEYUP));
    EXPECT_EQ(second[1].key.keysym.scancode, SDL_SCANCODE_LCTRL);
    const auto third = q.takeFrame();
    ASSERT_EQ(third.size(), 1u);
    EXPECT_TRUE(q.empty());
    EXPECT_TRUE(q.takeFrame().empty());
}

TEST(EventQueue, RepeatsAndOtherEventsPassAndClicksSplitToo) {
    app::EventQueue q;
    SDL_Event repeat = keyEvent(SDL_KEYDOWN, SDLK_w, SDL_SCANCODE_W);
    q.push(repeat);
    repeat.key.repeat = 1;
    q.push(repeat);
    SDL_Event motion{};
    motion.type = SDL_MOUSEMOTION;
    q.push(motion);
    SDL_Event down{};
    down.type = SDL_MOUSEBUTTONDOWN;
    down.button.button = SDL_BUTTON_LEFT;
    SDL_Event up = down;
    up.type = SDL_MOUSEBUTTONUP;
    q.push(down);
    q.push(up);
    EXPECT_EQ(q.takeFrame().size(), 4u); // the release waits
    EXPECT_EQ(q.takeFrame().size(), 1u);
}

// The README's quick start (issue 33): at most 40 lines before its reference list, and the keys
// it names do what it says (the same table the viewer uses).
TEST(KeyBindings, ReadmeQuickStartIsShortAndTrue) {
    std::ifstream in(BSPV_SOURCE_DIR "/README.md");
    ASSERT_TRUE(in);
    std::string line, quick;
    int lines = 0;
    while (std::getline(in, line) && line.rfind("## Reference", 0) != 0) {
        quick += line + "\n";
        ++lines;
    }
    EXPECT_LE(lines, 40);
    struct Claim {
        const char* text;
        SDL_Keycode key;
        Uint16 mods;
        app::KeyAction action;
    };
    for (const Claim& c :
         {Claim{"F1 lists all", SDLK_F1, KMOD_NONE, app::KeyAction::KeyHelp},
          Claim{"| N | next spawn point", SDLK_n, KMOD_NONE, app::KeyAction::NextSpawn},
          Claim{"| 1-9, Ctrl+1-9 | go to, save a bookmark", SDLK_5, KMOD_NONE,
                app::KeyAction::Bookmark},
          Claim{"| 1-9, Ctrl+1-9 | go to, save a bookmark", SDLK_5, KMOD_LCTRL,
                app::KeyAction::SaveBookmark},
          Claim{"| left click, C | select, look at it", SDLK_c, KMOD_NONE,
                app::KeyAction::LookAtSelection},
          Claim{"| F12 | screenshot", SDLK_F12, KMOD_NONE, app::KeyAction::Screenshot},
          Claim{"| F2 | hide the menus and panels", SDLK_F2, KMOD_NONE, app::KeyAction::ToggleUi},
          Claim{"| Esc | close a panel, free the mouse", SDLK_ESCAPE, KMOD_NONE,
                app::KeyAction::CloseOrRelease},
          Claim{"File > Open (Ctrl+O)", SDLK_o, KMOD_LCTRL, app::KeyAction::OpenMap}}) {
        EXPECT_NE(quick.find(c.text), std::string::npos) << c.text;
        const auto hit = app::findKeyAction(c.key, c.mods);
        ASSERT_TRUE(hit) << c.text;
        EXPECT_EQ(hit->action, c.action) << c.text;
    }
}
