// How the parsers tolerate real maps (docs/robustness.md, "Refuse or degrade").
//
// Memory safety is checked strictly, always: every read goes through core::ByteReader and every
// index a later stage follows lies inside its array. What differs is the answer to a reference
// out of range. One that only one feature uses (a face's fog, a model's clip hull, one face's
// lightmap, a material's animation) is dropped with a warning that names the lump, the record
// and the field (loadMap puts the file in front of every map warning), and the rest of the map
// loads, as the engines load such maps. A map is refused only when its world cannot be drawn:
// its tree, planes, geometry or face ranges are broken.
#pragma once

#include "core/error.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bsp {

struct Map;

// The references one parser dropped, one warning per kind (lump, field and what the map does
// without them): the first record in full, then how many more records of that kind.
//   "faces[1209].effect: effect 0 beyond 0 effects; drawn without fog (and 3 more in faces)"
class DroppedReferences {
public:
    // `what` names the record (lump, index, field) and the value (detail); `consequence` says
    // what the map does without it ("drawn without fog").
    void add(const core::Error& what, std::string_view consequence);
    // Appends one warning per kind to map.warnings and forgets them.
    void flush(Map& map);
    // Records dropped so far (all kinds), or those with `consequence`.
    uint64_t count() const;
    uint64_t count(std::string_view consequence) const;

private:
    struct Kind {
        core::Error first;
        std::string consequence;
        uint64_t records = 0;
    };
    std::vector<Kind> m_kinds;
};

// What a map without collision data does: the consequence of a collision reference dropped.
inline constexpr std::string_view kCollisionDropped =
    "no collision: walk mode and the collision views are off";

// The warning text of one kind: "LUMP[INDEX].FIELD: DETAIL; CONSEQUENCE" and, when more than
// one record was dropped, " (and N more in LUMP)".
std::string droppedWarning(const core::Error& first, std::string_view consequence,
                           uint64_t records);

} // namespace bsp
