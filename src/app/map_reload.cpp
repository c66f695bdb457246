#include "app/map_reload.h"

#include "content/vfs/vfs.h"
#include "core/file.h"

#include <chrono>
#include <utility>

namespace app {

std::vector<std::filesystem::path> watchedFilesOf(const std::string& spec) {
    const content::MapLocation where(spec);
    const std::filesystem::path file = where.file();
    std::vector<std::filesystem::path> out{file};
    if (where.in_archive)
        return out;
    for (const char* ext : {".lit", ".lux", ".prt", ".pts", ".lin"}) {
        std::filesystem::path sibling = file;
        sibling.replace_extension(ext);
        out.push_back(sibling);
    }
    // q3map2 -external: maps/NAME/lm_0000.tga ... beside maps/NAME.bsp. The folder's own stamp
    // changes when a lightmap is added or removed.
    std::filesystem::path folder = file;
    folder.replace_extension();
    out.push_back(folder);
    std::error_code ec;
    if (std::filesystem::is_directory(folder, ec))
        for (const auto& entry : std::filesystem::directory_iterator(folder, ec)) {
            const std::string name = core::toLower(entry.path().filename().string());
            if (name.starts_with("lm_") && entry.is_regular_file(ec))
                out.push_back(entry.path());
        }
    return out;
}

MapReloader::~MapReloader() {
    if (m_pending.valid())
        m_pending.wait();
}

void MapReloader::follow() {
    const scene::MapBundle* bundle = m_session.bundle();
    m_spec = bundle ? bundle->spec : std::string();
    if (m_spec.empty())
        m_watch.clear();
    else
        m_watch.watch(watchedFilesOf(m_spec));
}

MapReloader::Event MapReloader::update(Clock::time_point now, const scene::LoadSettings& settings,
                                       std::string* error) {
    if (m_pending.valid()) {
        if (m_pending.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
            return Event::None;
        auto loaded = m_pending.get();
        if (!loaded) {
            *error = loaded.error().message();
            return Event::Failed;
        }
        if ((*loaded)->spec != m_spec)
            return Event::None; // another map was opened meanwhile: this reload is stale
        if (auto adopted = m_session.adoptReload(std::move(*loaded)); !adopted) {
            *error = m_spec + ": " + adopted.error().message();
            return Event::Failed;
        }
        follow(); // the compile may have added a file (a .prt, a .lit)
        return Event::Reloaded;
    }
    if (!m_enabled || m_spec.empty() || !m_watch.poll(now))
        return Event::None;
    m_pending = std::async(std::launch::async, [spec = m_spec, settings] {
        return scene::loadMapBundle(spec, settings);
    });
    return Event::None;
}

} // namespace app
