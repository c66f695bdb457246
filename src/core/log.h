// Minimal logging to stderr. Headless modes keep stdout for JSON.
#pragma once

#include <string_view>

namespace core {

enum class LogLevel { Debug, Info, Warning, Error };

void setLogLevel(LogLevel level);
void log(LogLevel level, std::string_view message);
inline void logInfo(std::string_view m) {
    log(LogLevel::Info, m);
}
inline void logWarning(std::string_view m) {
    log(LogLevel::Warning, m);
}
inline void logError(std::string_view m) {
    log(LogLevel::Error, m);
}

} // namespace core
