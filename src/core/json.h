// A small streaming JSON writer for the headless modes' output (--info, --screenshot, --bench).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace core {

class JsonWriter {
public:
    explicit JsonWriter(bool pretty = true) : m_pretty(pretty) {}

    JsonWriter& beginObject();
    JsonWriter& endObject();
    JsonWriter& beginArray();
    JsonWriter& endArray();
    JsonWriter& key(std::string_view k);
    JsonWriter& value(std::string_view v);
    JsonWriter& value(const char* v) { return value(std::string_view(v)); }
    JsonWriter& value(bool v);
    JsonWriter& value(int64_t v);
    JsonWriter& value(uint64_t v);
    JsonWriter& value(int v) { return value(static_cast<int64_t>(v)); }
    JsonWriter& value(unsigned v) { return value(static_cast<uint64_t>(v)); }
    JsonWriter& value(double v);
    JsonWriter& value(float v) { return value(static_cast<double>(v)); }
    JsonWriter& null();

    template <class T> JsonWriter& field(std::string_view k, const T& v) {
        key(k);
        return value(v);
    }

    const std::string& str() const { return m_out; }

private:
    void separator();
    void newline();

    std::string m_out;
    std::vector<bool> m_first; // per open container: no element written yet
    bool m_after_key = false;
    bool m_pretty;
};

std::string jsonEscape(std::string_view s);

} // namespace core
