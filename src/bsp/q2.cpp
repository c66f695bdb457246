#include "bsp/parsers.h"
namespace bsp {
core::Result<Map> parseQuake2(std::span<const uint8_t>, std::string_view) {
    return core::makeError(core::ErrorCode::UnsupportedVersion, "header", -1, "version",
                           "Quake 2 maps are not supported yet");
}
} // namespace bsp
