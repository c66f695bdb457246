// Procedural textures for the demo map (assets/textures/demo/*.tga).
//
// Small tileable 64x64 RGB images drawn from integer arithmetic only, so every build makes
// the same pixels and the committed files can be checked against their generator.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mapgen {

struct DemoTexture {
    std::string name; // short name: the material is "textures/demo/<name>"
    int32_t width = 0;
    int32_t height = 0;
    std::vector<uint8_t> rgb; // width * height * 3, top row first
};

inline constexpr std::string_view kDemoMaterialPrefix = "textures/demo/";

// All demo textures, in the order their materials appear in the demo maps' shader lump:
// brick, panel, floor, ceiling, stone, trim.
std::vector<DemoTexture> buildDemoTextures();

// "textures/demo/<name>"
std::string demoMaterialName(std::string_view short_name);

// The texture as a TGA file (run-length encoded, as stb_image_write writes it).
std::vector<uint8_t> encodeTga(const DemoTexture& texture);

} // namespace mapgen
