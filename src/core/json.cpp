#include "core/json.h"

#include <cmath>
#include <cstdio>

namespace core {

std::string jsonEscape(std::string_view s) {
    std::string out;
    out.reserve(s.size() + 2);
    out += '"';
    for (const char c : s) {
        const auto u = static_cast<unsigned char>(c);
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (u < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", u);
                out += buf;
            } else {
                out += c; // bytes >= 0x80 pass through (names may be UTF-8 or Latin-1)
            }
        }
    }
    out += '"';
    return out;
}

void JsonWriter::newline() {
    if (!m_pretty)
        return;
    m_out += '\n';
    m_out.append(m_first.size() * 2, ' ');
}

void JsonWriter::separator() {
    if (m_after_key) {
        m_after_key = false;
        return;
    }
    if (!m_first.empty()) {
        if (!m_first.back())
            m_out += ',';
        m_first.back() = false;
        newline();
    }
}

JsonWriter& JsonWriter::beginObject() {
    separator();
    m_out += '{';
    m_first.push_back(true);
    return *this;
}

JsonWriter& JsonWriter::endObject() {
    const bool empty = m_first.back();
    m_first.pop_back();
    if (!empty)
        newline();
    m_out += '}';
    return *this;
}

JsonWriter& JsonWriter::beginArray() {
    separator();
    m_out += '[';
    m_first.push_back(true);
    return *this;
}

JsonWriter& JsonWriter::endArray() {
    const bool empty = m_first.back();
    m_first.pop_back();
    if (!empty)
        newline();
    m_out += ']';
    return *this;
}

JsonWriter& JsonWriter::key(std::string_view k) {
    separator();
    m_out += jsonEscape(k);
    m_out += m_pretty ? ": " : ":";
    m_after_key = true;
    return *this;
}

JsonWriter& JsonWriter::value(std::string_view v) {
    separator();
    m_out += jsonEscape(v);
    return *this;
}

JsonWriter& JsonWriter::value(bool v) {
    separator();
    m_out += v ? "true" : "false";
    return *this;
}

JsonWriter& JsonWriter::value(int64_t v) {
    separator();
    m_out += std::to_string(v);
    return *this;
}

JsonWriter& JsonWriter::value(uint64_t v) {
    separator();
    m_out += std::to_string(v);
    return *this;
}

JsonWriter& JsonWriter::value(double v) {
    separator();
    if (!std::isfinite(v)) {
        m_out += "null";
        return *this;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    m_out += buf;
    return *this;
}

JsonWriter& JsonWriter::null() {
    separator();
    m_out += "null";
    return *this;
}

} // namespace core
