#include "core/file_watch.h"

#include <sys/stat.h>

#include <utility>

namespace core {

FileStamp stampOf(const std::filesystem::path& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        return {};
    FileStamp s;
    s.exists = true;
    s.size = static_cast<uint64_t>(st.st_size);
    s.mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 +
                 static_cast<int64_t>(st.st_mtim.tv_nsec);
    s.inode = static_cast<uint64_t>(st.st_ino);
    return s;
}

FileWatch::FileWatch(Clock::duration settle, Clock::duration interval)
    : m_settle(settle), m_interval(interval) {}

void FileWatch::watch(std::vector<std::filesystem::path> paths) {
    m_paths = std::move(paths);
    m_base = stamps();
    m_seen = m_base;
    m_looked = false;
    m_settling = false;
}

void FileWatch::clear() {
    watch({});
}

std::vector<FileStamp> FileWatch::stamps() const {
    std::vector<FileStamp> out;
    out.reserve(m_paths.size());
    for (const std::filesystem::path& p : m_paths)
        out.push_back(stampOf(p));
    return out;
}

bool FileWatch::poll(Clock::time_point now) {
    if (m_paths.empty() || (m_looked && now - m_last_look < m_interval))
        return false;
    m_looked = true;
    m_last_look = now;
    std::vector<FileStamp> current = stamps();
    if (current != m_seen) {
        m_seen = std::move(current);
        m_seen_changed = now;
        m_settling = m_seen != m_base;
        return false;
    }
    if (!m_settling || now - m_seen_changed < m_settle)
        return false;
    m_base = m_seen;
    m_settling = false;
    return true;
}

} // namespace core
