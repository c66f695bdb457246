// Noticing that other programs (map compilers) rewrote files: stat polling with a settle time.
//
// Compilers write a map in stages (qbsp, then vis, then light rewrite the same .bsp), some in
// place and some by writing a new file and renaming it over the old one. A change is taken when
// the files' stamps (existence, size, modification time, inode) differ from the ones last taken
// and have then stayed the same for a settle time, so a file is not read between two stages or
// while it is half written. Polling a handful of paths a few times a second costs microseconds,
// behaves the same for both ways of writing and needs no platform notification API (ericw-tools'
// lightpreview watches with QFileSystemWatcher; TrenchBroom polls).
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <vector>

namespace core {

// What stat says about a path; two stamps differ when the file was written or replaced.
struct FileStamp {
    bool exists = false;
    uint64_t size = 0;
    int64_t mtime_ns = 0; // modification time, nanoseconds since the epoch
    uint64_t inode = 0;   // changes when a new file is renamed over the path
    bool operator==(const FileStamp&) const = default;
};

FileStamp stampOf(const std::filesystem::path& path);

class FileWatch {
public:
    using Clock = std::chrono::steady_clock;

    // `settle`: how long the files must stay unchanged after a change before it is reported.
    // `interval`: the least time between two looks at the files.
    explicit FileWatch(Clock::duration settle = std::chrono::milliseconds(400),
                       Clock::duration interval = std::chrono::milliseconds(100));

    // Watches `paths` from their state now; a path that does not exist is watched for appearing.
    void watch(std::vector<std::filesystem::path> paths);
    void clear();
    const std::vector<std::filesystem::path>& paths() const { return m_paths; }

    // Looks at the files (at most once per interval). True once per change: when the stamps
    // differ from the ones taken last and have not changed for the settle time. The new stamps
    // then become the base, so the next change is reported again, whatever came of this one.
    bool poll(Clock::time_point now);
    // A change was seen and is waiting to settle.
    bool settling() const { return m_settling; }

private:
    std::vector<FileStamp> stamps() const;

    Clock::duration m_settle, m_interval;
    std::vector<std::filesystem::path> m_paths;
    std::vector<FileStamp> m_base; // taken when watching began or at the last report
    std::vector<FileStamp> m_seen; // the last look
    Clock::time_point m_seen_changed{};
    Clock::time_point m_last_look{};
    bool m_looked = false;
    bool m_settling = false;
};

} // namespace core
