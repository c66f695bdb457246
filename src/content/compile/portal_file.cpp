#include "content/compile/portal_file.h"

#include "content/compile/compile_text.h"
#include "core/file.h"

namespace content {

std::string_view portalFormatName(PortalFormat format) {
    switch (format) {
    case PortalFormat::Prt1:
        return "PRT1";
    case PortalFormat::Prt1Q3:
        return "PRT1 (q3map2)";
    case PortalFormat::Prt1Am:
        return "PRT1-AM";
    case PortalFormat::Prt2:
        return "PRT2";
    }
    return "?";
}

size_t PortalFile::hintPortals() const {
    size_t n = 0;
    for (const Portal& p : portals)
        n += p.hint ? 1 : 0;
    return n;
}

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

class PortalParser {
public:
    PortalParser(std::string_view text, std::string_view file)
        : m_scan(text, kCompileTextSyntax), m_file(file) {
        m_out.file = std::string(file);
    }

    core::Result<PortalFile> run() {
        if (!header() || !portals() || !faces() || !leafClusters())
            return m_error;
        return std::move(m_out);
    }

private:
    bool fail(core::ErrorCode code, int line, std::string detail) {
        m_error = core::makeError(code, line > 0 ? "line " + std::to_string(line) : std::string(),
                                  -1, {}, std::move(detail));
        m_error.file = std::string(m_file);
        return false;
    }
    std::string got() {
        const std::string_view t = m_scan.peek().text;
        return t.empty() ? "end of file" : "'" + std::string(t.substr(0, 32)) + "'";
    }

    // A count of the header, 0..limit.
    bool count(const char* what, uint32_t limit, uint32_t& out) {
        const int line = m_scan.line();
        int64_t v = 0;
        if (m_scan.atEnd())
            return fail(core::ErrorCode::Truncated, line, std::string(what) + ": the file ends");
        if (!m_scan.integer(v) || v < 0)
            return fail(core::ErrorCode::BadValue, line,
                        std::string(what) + ": expected a count, got " + got());
        if (v > limit)
            return fail(core::ErrorCode::LimitExceeded, line,
                        std::string(what) + " " + std::to_string(v) + " exceeds limit " +
                            std::to_string(limit));
        out = static_cast<uint32_t>(v);
        return true;
    }

    // An integer of a record ("portal 3: back cluster").
    bool integer(const std::string& where, int64_t& out) {
        const int line = m_scan.line();
        if (m_scan.atEnd())
            return fail(core::ErrorCode::Truncated, line, where + ": the file ends");
        if (!m_scan.integer(out))
            return fail(core::ErrorCode::BadValue, line,
                        where + ": expected an integer, got " + got());
        return true;
    }
    // An index below `count`; `debug_zero`: also 0 when count is 0 (the portals of ericw-tools'
    // debug portal files, "PRT1", 0 clusters, "N 0 0 ...").
    bool index(const std::string& where, uint32_t count, uint32_t& out, bool debug_zero = false) {
        int64_t v = 0;
        const int line = m_scan.line();
        if (!integer(where, v))
            return false;
        if (v < 0 || (v >= count && !(debug_zero && count == 0 && v == 0)))
            return fail(core::ErrorCode::IndexOutOfRange, line,
                        where + " " + std::to_string(v) + " not below the header's " +
                            std::to_string(count));
        out = static_cast<uint32_t>(v);
        return true;
    }

    bool header() {
        const std::string_view magic = trim(m_scan.restOfLine());
        uint32_t portal_count = 0;
        if (magic == "PRT1") {
            if (!count("cluster count", kMaxPortalClusters, m_out.num_clusters) ||
                !count("portal count", kMaxPortalCount, portal_count))
                return false;
            // q3map2 adds a solid-face count on a line of its own; a portal line has more.
            core::TextScanner ahead = m_scan;
            int64_t v = 0;
            const int line = ahead.line();
            if (ahead.integer(v) && !ahead.onLine(line)) {
                m_out.format = PortalFormat::Prt1Q3;
                if (!count("solid face count", kMaxPortalCount, m_face_count))
                    return false;
            }
        } else if (magic == "PRT1-AM") {
            m_out.format = PortalFormat::Prt1Am;
            if (!count("cluster count", kMaxPortalClusters, m_out.num_clusters) ||
                !count("portal count", kMaxPortalCount, portal_count) ||
                !count("leaf count", kMaxPortalClusters, m_out.num_leaves))
                return false;
        } else if (magic == "PRT2") {
            m_out.format = PortalFormat::Prt2;
            if (!count("leaf count", kMaxPortalClusters, m_out.num_leaves) ||
                !count("cluster count", kMaxPortalClusters, m_out.num_clusters) ||
                !count("portal count", kMaxPortalCount, portal_count))
                return false;
        } else {
            return fail(core::ErrorCode::UnknownFormat, 1,
                        "not a portal file: first line '" + std::string(magic.substr(0, 32)) +
                            "' (expected PRT1, PRT1-AM or PRT2)");
        }
        m_portal_count = portal_count;
        return true;
    }

    // "N" then N points "( x y z )".
    bool winding(const std::string& where, uint32_t num_points, PortalWinding& w) {
        w.first_point = static_cast<uint32_t>(m_out.points.size());
        w.num_points = num_points;
        for (uint32_t k = 0; k < num_points; ++k) {
            const std::string at = where + " point " + std::to_string(k);
            const int line = m_scan.line();
            if (m_scan.atEnd())
                return fail(core::ErrorCode::Truncated, line, at + ": the file ends");
            if (!m_scan.accept('('))
                return fail(core::ErrorCode::BadValue, line, at + ": expected '(', got " + got());
            glm::vec3 p(0.0f);
            for (int c = 0; c < 3; ++c)
                if (!m_scan.number(p[c], kMaxCompileCoordinate))
                    return fail(
                        m_scan.atEnd() ? core::ErrorCode::Truncated : core::ErrorCode::BadValue,
                        m_scan.line(),
                        at + ": expected a coordinate (finite, within +-1048576), got " + got());
            if (!m_scan.accept(')'))
                return fail(m_scan.atEnd() ? core::ErrorCode::Truncated : core::ErrorCode::BadValue,
                            m_scan.line(), at + ": expected ')', got " + got());
            m_out.points.push_back(p);
        }
        return true;
    }

    bool pointCount(const std::string& where, uint32_t& out) {
        int64_t n = 0;
        const int line = m_scan.line();
        if (!integer(where + ": point count", n))
            return false;
        if (n < 3 || n > kMaxPortalWinding)
            return fail(n < 3 ? core::ErrorCode::BadValue : core::ErrorCode::LimitExceeded, line,
                        where + ": " + std::to_string(n) + " points (a winding has 3 to " +
                            std::to_string(kMaxPortalWinding) + ")");
        out = static_cast<uint32_t>(n);
        return true;
    }

    bool portals() {
        for (uint32_t i = 0; i < m_portal_count; ++i) {
            const std::string where = "portal " + std::to_string(i);
            Portal p;
            uint32_t n = 0;
            const bool debug = m_out.format == PortalFormat::Prt1;
            if (!pointCount(where, n) ||
                !index(where + ": front", m_out.num_clusters, p.a, debug) ||
                !index(where + ": back", m_out.num_clusters, p.b, debug))
                return false;
            if (m_out.format == PortalFormat::Prt1Q3) {
                int64_t hint = 0;
                if (!integer(where + ": hint flag", hint))
                    return false;
                p.hint = hint != 0;
            }
            if (!winding(where, n, p))
                return false;
            m_out.portals.push_back(p);
        }
        return true;
    }

    bool faces() {
        for (uint32_t i = 0; i < m_face_count; ++i) {
            const std::string where = "solid face " + std::to_string(i);
            PortalFace f;
            uint32_t n = 0;
            if (!pointCount(where, n) ||
                !index(where + ": cluster", m_out.num_clusters, f.cluster) || !winding(where, n, f))
                return false;
            m_out.faces.push_back(f);
        }
        return true;
    }

    // PRT1-AM: a cluster per leaf. PRT2: per cluster its leaves, each list ended by -1. The
    // table grows with what is read (up to the largest leaf listed, at most the header's leaf
    // count), so a count with nothing behind it allocates nothing.
    bool leafClusters() {
        if (m_out.format == PortalFormat::Prt1Am) {
            for (uint32_t leaf = 0; leaf < m_out.num_leaves; ++leaf) {
                uint32_t c = 0;
                if (!index("leaf " + std::to_string(leaf) + ": cluster", m_out.num_clusters, c))
                    return false;
                m_out.leaf_cluster.push_back(static_cast<int32_t>(c));
            }
        } else if (m_out.format == PortalFormat::Prt2) {
            for (uint32_t c = 0; c < m_out.num_clusters; ++c) {
                const std::string where = "cluster " + std::to_string(c) + ": leaf";
                for (;;) {
                    int64_t v = 0;
                    const int line = m_scan.line();
                    if (!integer(where, v))
                        return false;
                    if (v == -1)
                        break;
                    if (v < 0 || v >= m_out.num_leaves)
                        return fail(core::ErrorCode::IndexOutOfRange, line,
                                    where + " " + std::to_string(v) + " not below the header's " +
                                        std::to_string(m_out.num_leaves));
                    const auto leaf = static_cast<size_t>(v);
                    if (leaf >= m_out.leaf_cluster.size())
                        m_out.leaf_cluster.resize(leaf + 1, -1);
                    m_out.leaf_cluster[leaf] = static_cast<int32_t>(c);
                }
            }
        }
        return true;
    }

    core::TextScanner m_scan;
    std::string_view m_file;
    PortalFile m_out;
    core::Error m_error;
    uint32_t m_portal_count = 0, m_face_count = 0;
};

} // namespace

core::Result<PortalFile> parsePortalFile(std::string_view text, std::string_view file) {
    return PortalParser(text, file).run();
}

core::Result<PortalFile> loadPortalFile(const std::filesystem::path& path) {
    auto bytes = core::readFile(path);
    if (!bytes)
        return bytes.error();
    const std::string_view text(reinterpret_cast<const char*>(bytes->data()), bytes->size());
    return parsePortalFile(text, core::baseName(path.string()));
}

} // namespace content
