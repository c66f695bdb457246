// Reload on recompile (issue #18): the viewer watches the files the map on screen was built
// from and loads it again, in place, when a compiler has rewritten them.
//
// The reload goes through the same path as any load (scene::loadMapBundle on a worker thread,
// then MapSession::adopt), so a file caught half written, or a map that no longer loads, leaves
// the current map on screen and reports the error; the next good write loads. What the viewer
// keeps across a reload (camera, toggles, locked visibility, bookmarks) it simply does not
// reset: MapReloader only swaps the map.
#pragma once

#include "app/map_session.h"
#include "core/file_watch.h"
#include "scene/load/map_bundle.h"

#include <filesystem>
#include <future>
#include <memory>
#include <string>
#include <vector>

namespace app {

// The files a map spec is built from and a recompile rewrites: the archive for a member of
// one; for a loose map the .bsp, the .lit / .lux / .prt / .pts / .lin beside it, and q3map2's
// external lightmaps (the folder named after the map and the lm_*.tga in it). Paths that do
// not exist yet are included: a compile that writes them counts as a change.
std::vector<std::filesystem::path> watchedFilesOf(const std::string& spec);

class MapReloader {
public:
    using Clock = core::FileWatch::Clock;
    enum class Event { None, Reloaded, Failed };

    explicit MapReloader(MapSession& session, core::FileWatch watch = core::FileWatch())
        : m_session(session), m_watch(std::move(watch)) {}
    ~MapReloader();
    MapReloader(const MapReloader&) = delete;
    MapReloader& operator=(const MapReloader&) = delete;

    // Off: no look at the files and no reload (a reload in flight still lands).
    void setEnabled(bool on) { m_enabled = on; }
    bool enabled() const { return m_enabled; }
    // Watches the session's current map's files, from their state now. Call after a map was
    // opened by other means (a reload of the previous map still in flight is then dropped); a
    // reload does it itself.
    void follow();
    const core::FileWatch& watch() const { return m_watch; }

    // Once per frame. When the watched files changed and have settled, starts loading the
    // current spec again with `settings` on a worker thread; when that load is done, adopts it
    // (Reloaded) or reports why not in *error (Failed: the current map stays).
    Event update(Clock::time_point now, const scene::LoadSettings& settings, std::string* error);
    bool loading() const { return m_pending.valid(); }

private:
    MapSession& m_session;
    core::FileWatch m_watch;
    bool m_enabled = true;
    std::string m_spec;
    std::future<core::Result<std::unique_ptr<scene::MapBundle>>> m_pending;
};

} // namespace app
