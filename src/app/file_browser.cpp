#include "app/file_browser.h"

#include "content/vfs/vfs.h"
#include "core/file.h"

#include <algorithm>
#include <chrono>
#include <system_error>

namespace app {

namespace fs = std::filesystem;

namespace {

int64_t mtimeOf(const fs::directory_entry& e) {
    std::error_code ec;
    const auto t = e.last_write_time(ec);
    if (ec)
        return 0;
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::file_clock::to_sys(t).time_since_epoch())
        .count();
}

bool isArchive(const std::string& ext) {
    return ext == ".pk3" || ext == ".pak" || ext == ".zip";
}

int kindOrder(BrowserEntry::Kind k) {
    switch (k) {
    case BrowserEntry::Kind::Parent:
        return 0;
    case BrowserEntry::Kind::Error:
        return 1;
    case BrowserEntry::Kind::Folder:
        return 2;
    case BrowserEntry::Kind::Map:
    case BrowserEntry::Kind::ArchiveMap:
        return 3;
    }
    return 4;
}

} // namespace

bool FileBrowser::open(const fs::path& folder) {
    std::error_code ec;
    fs::path abs = fs::absolute(folder.empty() ? fs::path(".") : folder, ec);
    if (ec)
        abs = folder;
    m_folder = abs.lexically_normal();
    if (m_folder.has_relative_path() && m_folder.filename().empty())
        m_folder = m_folder.parent_path(); // "/a/b/" -> "/a/b"
    m_all.clear();
    if (m_folder.has_parent_path() && m_folder.parent_path() != m_folder)
        m_all.push_back({BrowserEntry::Kind::Parent, "..", m_folder.parent_path().string(), 0});
    bool ok = true;
    fs::directory_iterator it(m_folder, fs::directory_options::skip_permission_denied, ec);
    if (ec) {
        m_all.push_back({BrowserEntry::Kind::Error,
                         "cannot read " + m_folder.string() + ": " + ec.message(),
                         {},
                         0});
        ok = false;
    }
    for (; ok && it != fs::directory_iterator(); it.increment(ec)) {
        if (ec) {
            m_all.push_back({BrowserEntry::Kind::Error, "listing stopped: " + ec.message(), {}, 0});
            break;
        }
        const fs::directory_entry& e = *it;
        const std::string name = e.path().filename().string();
        if (name.empty() || name[0] == '.')
            continue; // hidden files and folders
        std::error_code kind_ec;
        if (e.is_directory(kind_ec)) {
            m_all.push_back(
                {BrowserEntry::Kind::Folder, name + "/", e.path().string(), mtimeOf(e)});
            continue;
        }
        if (!e.is_regular_file(kind_ec))
            continue;
        const std::string ext = core::toLower(e.path().extension().string());
        if (ext == ".bsp") {
            m_all.push_back({BrowserEntry::Kind::Map, name, e.path().string(), mtimeOf(e)});
        } else if (isArchive(ext)) {
            content::FileSystem archive;
            if (auto st = archive.addArchive(e.path()); !st) {
                m_all.push_back({BrowserEntry::Kind::Error,
                                 name + ": " + st.error().message(),
                                 {},
                                 mtimeOf(e)});
                continue;
            }
            for (const std::string& member : archive.list("maps/", ".bsp"))
                m_all.push_back({BrowserEntry::Kind::ArchiveMap, name + ": " + member,
                                 archive.specOf(member), mtimeOf(e)});
        }
    }
    apply();
    return ok;
}

void FileBrowser::setFilter(std::string filter) {
    m_filter = std::move(filter);
    apply();
}

void FileBrowser::setSort(BrowserSort sort) {
    m_sort = sort;
    apply();
}

void FileBrowser::apply() {
    const std::string needle = core::toLower(m_filter);
    m_shown.clear();
    for (const BrowserEntry& e : m_all)
        if (e.kind == BrowserEntry::Kind::Parent || e.kind == BrowserEntry::Kind::Error ||
            core::toLower(e.label).find(needle) != std::string::npos)
            m_shown.push_back(e);
    std::stable_sort(m_shown.begin(), m_shown.end(),
                     [this](const BrowserEntry& a, const BrowserEntry& b) {
                         if (kindOrder(a.kind) != kindOrder(b.kind))
                             return kindOrder(a.kind) < kindOrder(b.kind);
                         if (m_sort == BrowserSort::Date && a.mtime != b.mtime)
                             return a.mtime > b.mtime; // newest first
                         return core::toLower(a.label) < core::toLower(b.label);
                     });
    // With a filter, the first match (not "..") is selected, so Enter opens it.
    m_selected = 0;
    if (!needle.empty())
        for (size_t i = 0; i < m_shown.size(); ++i)
            if (m_shown[i].kind != BrowserEntry::Kind::Parent &&
                m_shown[i].kind != BrowserEntry::Kind::Error) {
                m_selected = static_cast<int>(i);
                break;
            }
}

void FileBrowser::select(int index) {
    if (m_shown.empty()) {
        m_selected = 0;
        return;
    }
    m_selected = std::clamp(index, 0, static_cast<int>(m_shown.size()) - 1);
}

std::string FileBrowser::activate() {
    if (m_selected < 0 || static_cast<size_t>(m_selected) >= m_shown.size())
        return {};
    const BrowserEntry e = m_shown[static_cast<size_t>(m_selected)];
    switch (e.kind) {
    case BrowserEntry::Kind::Parent:
    case BrowserEntry::Kind::Folder:
        m_filter.clear();
        open(e.spec);
        return {};
    case BrowserEntry::Kind::Map:
    case BrowserEntry::Kind::ArchiveMap:
        return e.spec;
    case BrowserEntry::Kind::Error:
        break;
    }
    return {};
}

void addRecentFolder(std::vector<std::string>& folders, const std::string& folder, size_t max) {
    if (folder.empty())
        return;
    folders.erase(std::remove(folders.begin(), folders.end(), folder), folders.end());
    folders.insert(folders.begin(), folder);
    if (folders.size() > max)
        folders.resize(max);
}

} // namespace app
