// Entity keys read as numbers the way the games' spawn code reads them: game/entity_keys.h, used
// unqualified by the model set's files. GL-free.
#pragma once

#include "game/entity_keys.h"

namespace scene {

using game::floatKey;
using game::intKey;

} // namespace scene
