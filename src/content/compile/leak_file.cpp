#include "content/compile/leak_file.h"

#include "content/compile/compile_text.h"
#include "core/file.h"

#include <cmath>
#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

namespace content {

namespace {

core::Error leakError(core::ErrorCode code, std::string_view file, int line, std::string detail) {
    core::Error e = core::makeError(code, line > 0 ? "line " + std::to_string(line) : std::string(),
                                    -1, {}, std::move(detail));
    e.file = std::string(file);
    return e;
}

} // namespace

std::vector<uint32_t> leakStops(const std::vector<glm::vec3>& points, float min_degrees) {
    std::vector<uint32_t> stops;
    if (points.empty())
        return stops;
    const float cos_limit = std::cos(glm::radians(min_degrees));
    stops.push_back(0);
    // Direction of the run since the last stop; a point starts a new run where the next
    // segment turns away from it.
    glm::vec3 run(0.0f);
    for (uint32_t i = 1; i + 1 < points.size(); ++i) {
        const glm::vec3 in = points[i] - points[stops.back()];
        const glm::vec3 out = points[i + 1] - points[i];
        if (glm::length(in) <= 0.0f || glm::length(out) <= 0.0f)
            continue; // a repeated point turns nowhere
        if (glm::length(run) <= 0.0f)
            run = glm::normalize(in);
        if (glm::dot(run, glm::normalize(out)) < cos_limit) {
            stops.push_back(i);
            run = glm::vec3(0.0f);
        }
    }
    if (points.size() > 1)
        stops.push_back(static_cast<uint32_t>(points.size() - 1));
    return stops;
}

core::Result<LeakLine> parseLeakFile(std::string_view text, std::string_view file) {
    LeakLine out;
    out.file = std::string(file);
    core::TextScanner scan(text, kCompileTextSyntax);
    while (!scan.atEnd()) {
        const int line = scan.line();
        glm::vec3 p(0.0f);
        for (int k = 0; k < 3; ++k) {
            if (!scan.onLine(line) || !scan.number(p[k], kMaxCompileCoordinate))
                return leakError(
                    core::ErrorCode::BadValue, file, line,
                    "expected three coordinates \"X Y Z\" (finite, within +-1048576), got '" +
                        std::string(scan.onLine(line) ? scan.peek().text : "end of line") + "'");
        }
        if (scan.onLine(line))
            return leakError(core::ErrorCode::BadValue, file, line,
                             "unexpected '" + std::string(scan.peek().text) + "' after \"X Y Z\"");
        if (out.points.size() >= kMaxLeakPoints)
            return leakError(core::ErrorCode::LimitExceeded, file, line,
                             "more than " + std::to_string(kMaxLeakPoints) + " points");
        if (!out.points.empty())
            out.length += glm::length(p - out.points.back());
        out.points.push_back(p);
    }
    if (out.points.empty())
        return leakError(core::ErrorCode::BadValue, file, 0, "no points in the leak file");
    out.stops = leakStops(out.points);
    return out;
}

core::Result<LeakLine> loadLeakFile(const std::filesystem::path& path) {
    auto bytes = core::readFile(path);
    if (!bytes)
        return bytes.error();
    const std::string_view text(reinterpret_cast<const char*>(bytes->data()), bytes->size());
    return parseLeakFile(text, core::baseName(path.string()));
}

} // namespace content
