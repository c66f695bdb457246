#include "bsp/dropped.h"

#include "bsp/map.h"

namespace bsp {

void DroppedReferences::add(const core::Error& what, std::string_view consequence) {
    for (Kind& k : m_kinds)
        if (k.first.lump == what.lump && k.first.field == what.field &&
            k.consequence == consequence) {
            ++k.records;
            return;
        }
    m_kinds.push_back(Kind{what, std::string(consequence), 1});
}

void DroppedReferences::flush(Map& map) {
    for (const Kind& k : m_kinds)
        map.warnings.push_back(droppedWarning(k.first, k.consequence, k.records));
    m_kinds.clear();
}

uint64_t DroppedReferences::count() const {
    uint64_t n = 0;
    for (const Kind& k : m_kinds)
        n += k.records;
    return n;
}

uint64_t DroppedReferences::count(std::string_view consequence) const {
    uint64_t n = 0;
    for (const Kind& k : m_kinds)
        if (k.consequence == consequence)
            n += k.records;
    return n;
}

std::string droppedWarning(const core::Error& first, std::string_view consequence,
                           uint64_t records) {
    core::Error e = first;
    e.file.clear(); // loadMap names the file once for every warning
    std::string text = e.message();
    if (!consequence.empty())
        text += "; " + std::string(consequence);
    if (records > 1)
        text += " (and " + std::to_string(records - 1) + " more in " + first.lump + ")";
    return text;
}

} // namespace bsp
