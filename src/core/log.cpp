#include "core/log.h"

#include <atomic>
#include <cstdio>
#include <mutex>

namespace core {

namespace {
std::atomic<LogLevel> g_level{LogLevel::Warning};
std::mutex g_mutex;
} // namespace

void setLogLevel(LogLevel level) {
    g_level = level;
}

void log(LogLevel level, std::string_view message) {
    if (level < g_level.load())
        return;
    static constexpr const char* kNames[] = {"debug", "info", "warning", "error"};
    std::lock_guard lock(g_mutex);
    std::fprintf(stderr, "bspview: %s: %.*s\n", kNames[static_cast<int>(level)],
                 static_cast<int>(message.size()), message.data());
}

} // namespace core
