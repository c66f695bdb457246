#include "game/entity_models.h"

#include "game/entity_keys.h"
#include "game/families.h"

namespace game {

std::span<const EntityModelRule> entityModelRules(EntityModelTable table) {
    switch (table) {
    case EntityModelTable::Quake1:
        return detail::quake1EntityModels();
    case EntityModelTable::Quake2:
        return detail::quake2EntityModels();
    case EntityModelTable::Quake3:
        return detail::quake3EntityModels();
    case EntityModelTable::HalfLife:
        return detail::halfLifeEntityModels();
    case EntityModelTable::None:
    case EntityModelTable::SourceProps: // no table: scene/models/source_props.h
        break;
    }
    return {};
}

const EntityModelRule* findEntityModelRule(std::span<const EntityModelRule> rules,
                                           const bsp::Entity& entity, int32_t worldtype) {
    const std::string_view classname = entity.classname();
    if (classname.empty())
        return nullptr;
    const uint32_t spawnflags = uint32_t(intKey(entity, "spawnflags", 0));
    for (const EntityModelRule& r : rules) {
        if (r.classname != classname)
            continue;
        if (r.spawnflags != 0 && (spawnflags & r.spawnflags) == 0)
            continue;
        if (r.worldtype >= 0 && r.worldtype != worldtype)
            continue;
        return &r;
    }
    return nullptr;
}

} // namespace game
