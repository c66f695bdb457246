// Content layer on real files: the Quake 2 texture pak, OpenArena's pk3s and the Blob and
// Conquer 1x1 JPEG textures (see BSPV_SHARED_MAPS_DIR/SOURCES.md). A missing file fails.
#include "content/image/image.h"
#include "content/material/textures.h"
#include "content/vfs/vfs.h"
#include "core/file.h"
#include "unit/content_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>

using namespace content_test;
namespace fs = std::filesystem;
using core::ErrorCode;

namespace {

const fs::path kMaps = BSPV_SHARED_MAPS_DIR;
const fs::path kOpenArena = BSPV_OPENARENA_DIR;

Bytes readAll(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return Bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Member names listed in aq_textures.pak.txt ("name <- source path" lines).
std::vector<std::string> aqListedNames() {
    std::ifstream in(kMaps / "q2/aq_textures.pak.txt");
    std::vector<std::string> out;
    std::string line;
    while (std::getline(in, line)) {
        const size_t arrow = line.find(" <- ");
        if (!line.empty() && line[0] != '#' && arrow != std::string::npos)
            out.push_back(line.substr(0, arrow));
    }
    return out;
}

} // namespace

TEST(RealPak, AqTexturesListsAndReadsEveryListedMember) {
    const fs::path pak = kMaps / "q2/aq_textures.pak";
    ASSERT_TRUE(fs::exists(pak)) << pak;
    content::FileSystem vfs;
    const core::Status st = vfs.addArchive(pak);
    ASSERT_TRUE(st) << st.error().message();

    const auto listed = aqListedNames();
    ASSERT_GT(listed.size(), 150u);
    for (const std::string& name : listed) {
        EXPECT_TRUE(vfs.exists(name)) << name;
        EXPECT_EQ(vfs.sourceOf(name), "aq_textures.pak");
    }
    // The pak holds two entries whose names differ only in case
    // (textures/HcPeura/... and textures/hcpeura/...); a case-insensitive lookup sees one.
    std::set<std::string> distinct_wals;
    for (const std::string& n : listed)
        if (n.size() > 4 && n.substr(n.size() - 4) == ".wal")
            distinct_wals.insert(core::toLower(n));
    const auto wals = vfs.list("textures/", ".wal");
    EXPECT_EQ(wals.size(), distinct_wals.size());
    EXPECT_LT(distinct_wals.size(), listed.size());

    // A .wal starts with a 32-byte name, then width and height; its mip 0 lies inside the file.
    const std::string wal_name = "textures/HcPeura/wall-_floor_china1_red.wal";
    auto wal = vfs.read(wal_name);
    ASSERT_TRUE(wal);
    ASSERT_GE(wal->size(), 100u);
    uint32_t w = 0, h = 0, ofs0 = 0;
    std::memcpy(&w, wal->data() + 32, 4);
    std::memcpy(&h, wal->data() + 36, 4);
    std::memcpy(&ofs0, wal->data() + 40, 4);
    EXPECT_GT(w, 0u);
    EXPECT_GT(h, 0u);
    EXPECT_LE(uint64_t{ofs0} + uint64_t{w} * h, wal->size());
    // Mixed case in the map, lower case on disk: the lookup ignores case.
    auto lower = vfs.read("TEXTURES/hcpeura/WALL-_FLOOR_CHINA1_RED.WAL");
    ASSERT_TRUE(lower);
    EXPECT_EQ(*lower, *wal);

    // The sky is shipped as .tga too, which stb_image decodes.
    const auto skies = vfs.list("env/", ".tga");
    ASSERT_EQ(skies.size(), 6u);
    auto sky = content::decodeImage(*vfs.read(skies[0]), skies[0]);
    ASSERT_TRUE(sky) << sky.error().message();
    EXPECT_GT(sky->width, 0);
    auto pcx = vfs.read("pics/colormap.pcx");
    ASSERT_TRUE(pcx);
    EXPECT_EQ((*pcx)[0], 0x0a); // PCX manufacturer byte
}

TEST(RealPak, TruncatedCopyIsACleanError) {
    const Bytes pak = readAll(kMaps / "q2/aq_textures.pak");
    ASSERT_GT(pak.size(), 1000u);
    TempDir tmp;
    for (size_t len : {size_t{8}, pak.size() / 2, pak.size() - 1}) {
        writeBytes(tmp / "aq_cut.pak", Bytes(pak.begin(), pak.begin() + static_cast<long>(len)));
        content::FileSystem vfs;
        const core::Status st = vfs.addArchive(tmp / "aq_cut.pak");
        ASSERT_FALSE(st) << len;
        EXPECT_EQ(st.error().code, ErrorCode::Truncated) << st.error().message();
        EXPECT_NE(st.error().message().find("aq_cut.pak"), std::string::npos);
    }
}

TEST(RealPk3, OpenArenaMapSpecAndGameDir) {
    const fs::path pk3 = kOpenArena / "pak1-maps.pk3";
    ASSERT_TRUE(fs::exists(pk3)) << pk3;
    std::string display;
    auto bsp = content::readMapSpec(pk3.string() + ":maps/oa_dm5.bsp", &display);
    ASSERT_TRUE(bsp) << bsp.error().message();
    ASSERT_GT(bsp->size(), 8u);
    EXPECT_EQ(std::string(bsp->begin(), bsp->begin() + 4), "IBSP");
    EXPECT_EQ((*bsp)[4], 46);
    EXPECT_EQ(display, "pak1-maps.pk3:maps/oa_dm5.bsp");

    EXPECT_EQ(content::findGameDir(pk3), kOpenArena);
    EXPECT_EQ(content::findGameDir(pk3.string() + ":maps/oa_dm5.bsp"), kOpenArena);

    content::FileSystem vfs;
    const core::Status st = vfs.addGameDir(kOpenArena);
    ASSERT_TRUE(st) << st.error().message();
    const auto sources = vfs.sources();
    ASSERT_GE(sources.size(), 2u);
    EXPECT_TRUE(std::is_sorted(sources.begin(), sources.end() - 1));
    EXPECT_EQ(sources.back(), kOpenArena.string());

    const auto maps = vfs.list("maps/", ".bsp");
    EXPECT_GE(maps.size(), 10u);
    EXPECT_NE(std::find(maps.begin(), maps.end(), "maps/oa_dm5.bsp"), maps.end());
    const std::string from = vfs.sourceOf("maps/oa_dm5.bsp");
    EXPECT_EQ(from.substr(from.size() - 4), ".pk3");
    auto again = vfs.read("MAPS/OA_DM5.BSP");
    ASSERT_TRUE(again);
    EXPECT_EQ(again->size(), vfs.read("maps/oa_dm5.bsp")->size());
}

TEST(RealImages, BlobAndConquerJpegsDecodeTo1x1) {
    const fs::path dir = kMaps / "q3/bc_textures";
    ASSERT_TRUE(fs::is_directory(dir)) << dir;
    int count = 0;
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
        if (!e.is_regular_file() || e.path().extension() != ".jpg")
            continue;
        ++count;
        const Bytes jpg = readAll(e.path());
        auto img = content::decodeImage(jpg, e.path().filename().string());
        ASSERT_TRUE(img) << img.error().message();
        EXPECT_EQ(img->width, 1);
        EXPECT_EQ(img->height, 1);
        EXPECT_EQ(img->rgba[3], 255);
        // Every truncation either fails cleanly or still yields a 1x1 image (stb pads a short
        // entropy-coded segment); a cut inside the headers always fails.
        for (size_t len = 0; len < jpg.size(); ++len) {
            auto cut = content::decodeImage(std::span<const uint8_t>(jpg.data(), len), "cut.jpg");
            if (cut) {
                EXPECT_EQ(cut->width, 1);
                EXPECT_GT(len, 100u);
            }
        }
        auto header_only = content::decodeImage(std::span<const uint8_t>(jpg.data(), 20), "h.jpg");
        EXPECT_FALSE(header_only);
    }
    EXPECT_EQ(count, 10);
}

TEST(RealImages, BlobAndConquerMaterialsResolveThroughTheVfs) {
    content::FileSystem vfs;
    ASSERT_TRUE(vfs.addDirectory(kMaps / "q3/bc_textures"));
    bsp::Map map;
    for (const char* name : {"textures/mech/crate", "textures/liquid/lava01",
                             "textures/grasslands/rock43", "noshader", "textures/mech/absent"}) {
        bsp::Material m;
        m.name = name;
        map.materials.push_back(m);
    }
    const auto tex = content::loadMaterialTextures(map, vfs);
    ASSERT_EQ(tex.size(), 5u);
    for (int i = 0; i < 3; ++i) {
        EXPECT_FALSE(tex[i].missing) << map.materials[i].name;
        EXPECT_EQ(tex[i].source, map.materials[i].name + ".jpg");
        EXPECT_EQ(tex[i].image.width, 1);
    }
    EXPECT_TRUE(tex[3].missing);
    EXPECT_TRUE(tex[4].missing);
    EXPECT_EQ(tex[4].image.width, 64);
}
