// Short messages in a corner of the window that the user sees whether or not the panels are
// shown (issue 33): load errors, reload results, screenshot and export paths, the picture
// settings a start carried over, and the progress of a map being loaded.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace app {

enum class NoticeKind { Info, Warning, Error, Progress };

struct Notice {
    NoticeKind kind = NoticeKind::Info;
    std::string text;
    std::string key;        // non-empty: a later notice with the same key replaces this one
    double expires = 0.0;   // seconds on the notices' clock; progress notices never expire
    float progress = -1.0f; // 0..1 for a progress bar, < 0: none
};

class Notices {
public:
    static constexpr size_t kMaxShown = 5;
    static constexpr double kInfoSeconds = 6.0;
    static constexpr double kErrorSeconds = 15.0;

    // Adds a notice (replacing one with the same non-empty key) that lasts `seconds` from now
    // (the default for its kind when 0).
    void post(NoticeKind kind, std::string text, std::string key = {}, double seconds = 0.0);
    // A progress notice under `key`: shown until clear(key).
    void progress(const std::string& key, std::string text, float fraction);
    void clear(const std::string& key);
    void clearAll() { m_items.clear(); }
    // Drops the expired ones; `now` is in seconds and only ever grows.
    void update(double now);
    double now() const { return m_now; }
    const std::vector<Notice>& items() const { return m_items; }
    // The newest notice whose text contains `needle` (tests, the status line).
    const Notice* find(const std::string& needle) const;

    // Draws them (ImGui) at the bottom left of a display `width` x `height`, newest at the
    // bottom; `bottom_margin` keeps them clear of anything drawn along the bottom edge.
    void draw(float width, float height, float bottom_margin = 0.0f) const;

private:
    std::vector<Notice> m_items; // oldest first
    double m_now = 0.0;
};

} // namespace app
