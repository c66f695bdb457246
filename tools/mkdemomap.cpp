// mkdemomap: writes bspview's demo map and its textures into the source tree.
//
//   mkdemomap [ROOT]          write ROOT/assets/maps/demo.bsp and ROOT/assets/textures/demo/*.tga
//   mkdemomap --check [ROOT]  compare those files with a fresh build; exit 1 when they differ
//
// ROOT defaults to the source folder this tool was configured from. The test suite
// regenerates the map in memory and compares it with the committed file, so run this after
// every change to tools/mapgen and commit the outputs.
#include "mapgen/demo_map.h"
#include "mapgen/demo_textures.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace fs = std::filesystem;

bool writeFile(const fs::path& path, const std::vector<uint8_t>& bytes) {
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
    f.close();
    if (!f) {
        std::fprintf(stderr, "mkdemomap: cannot write %s\n", path.string().c_str());
        return false;
    }
    std::printf("wrote %s (%zu bytes)\n", path.string().c_str(), bytes.size());
    return true;
}

bool sameAsFile(const fs::path& path, const std::vector<uint8_t>& bytes) {
    std::ifstream f(path, std::ios::binary);
    const std::vector<uint8_t> have((std::istreambuf_iterator<char>(f)),
                                    std::istreambuf_iterator<char>());
    const bool same = f.good() || f.eof() ? have == bytes : false;
    std::printf("%s %s\n", same ? "same   " : "DIFFERS", path.string().c_str());
    return same;
}

} // namespace

int main(int argc, char** argv) {
    bool check = false;
    fs::path root = BSPV_SOURCE_DIR;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--check")
            check = true;
        else if (arg == "-h" || arg == "--help") {
            std::printf("usage: mkdemomap [--check] [ROOT]\n");
            return 0;
        } else
            root = arg;
    }
    std::vector<std::pair<fs::path, std::vector<uint8_t>>> outputs;
    const mapgen::DemoMap map = mapgen::buildDemoMap();
    const std::string problems = mapgen::validateQ3Map(map.desc);
    if (!problems.empty()) {
        std::fprintf(stderr, "mkdemomap: generated map is invalid:\n%s", problems.c_str());
        return 1;
    }
    outputs.push_back({root / "assets" / "maps" / "demo.bsp", mapgen::writeQ3Bsp(map.desc)});
    for (const mapgen::DemoTexture& t : mapgen::buildDemoTextures())
        outputs.push_back(
            {root / "assets" / "textures" / "demo" / (t.name + ".tga"), mapgen::encodeTga(t)});
    bool ok = true;
    for (const auto& [path, bytes] : outputs)
        ok = (check ? sameAsFile(path, bytes) : writeFile(path, bytes)) && ok;
    return ok ? 0 : 1;
}
