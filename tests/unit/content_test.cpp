// Content layer on data built in code: pak / pk3 / directory lookups, override order, game
// folder and map-spec helpers, image decoding limits, the missing-texture tile and material
// textures.
#include "content/image/image.h"
#include "content/material/skybox.h"
#include "content/material/textures.h"
#include "content/vfs/vfs.h"
#include "support/map_builder.h"
#include "unit/content_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace content_test;
namespace fs = std::filesystem;
using core::ErrorCode;

// ---------------------------------------------------------------------------------------------
// Names

TEST(VfsNames, NormalizeLowersAndUsesSlashes) {
    EXPECT_EQ(content::normalizeName("Textures\\HcPeura/WALL.wal"), "textures/hcpeura/wall.wal");
    EXPECT_EQ(content::normalizeName("/./maps/X.bsp"), "maps/x.bsp");
    EXPECT_EQ(content::normalizeName(""), "");
}

// ---------------------------------------------------------------------------------------------
// Quake .pak

TEST(Pak, ListReadAndCaseInsensitiveLookup) {
    TempDir tmp;
    const Files files = {{"textures/HcPeura/Wall.wal", "wall-bytes"},
                         {"maps/start.bsp", "bsp!"},
                         {"pics/colormap.pcx", std::string(300, 'c')}};
    writeBytes(tmp / "test.pak", makePak(files));
    content::FileSystem vfs;
    ASSERT_TRUE(vfs.addArchive(tmp / "test.pak"));

    auto wall = vfs.read("TEXTURES/hcpeura/wall.WAL");
    ASSERT_TRUE(wall);
    EXPECT_EQ(stringOf(*wall), "wall-bytes");
    EXPECT_EQ(stringOf(*vfs.read("textures\\HcPeura\\Wall.wal")), "wall-bytes");
    EXPECT_EQ(stringOf(*vfs.read("pics/colormap.pcx")), std::string(300, 'c'));
    EXPECT_TRUE(vfs.exists("Maps/Start.BSP"));
    EXPECT_FALSE(vfs.exists("maps/other.bsp"));
    EXPECT_FALSE(vfs.read("maps/other.bsp"));
    EXPECT_EQ(vfs.readChecked("maps/other.bsp").error().code, ErrorCode::NotFound);
    EXPECT_EQ(vfs.sourceOf("maps/start.bsp"), "test.pak");
    EXPECT_EQ(vfs.sourceOf("maps/other.bsp"), "");

    EXPECT_EQ(vfs.list("textures/", ".wal"),
              (std::vector<std::string>{"textures/HcPeura/Wall.wal"}));
    EXPECT_EQ(vfs.list("MAPS", "BSP"), (std::vector<std::string>{"maps/start.bsp"}));
    EXPECT_EQ(vfs.list("", "").size(), 3u);
}

TEST(Pak, EveryTruncatedPrefixIsACleanError) {
    TempDir tmp;
    const Bytes pak = makePak({{"a.txt", "hello"}, {"b/c.txt", "world!"}});
    for (size_t len = 0; len < pak.size(); ++len) {
        writeBytes(tmp / "cut.pak", Bytes(pak.begin(), pak.begin() + static_cast<long>(len)));
        content::FileSystem vfs;
        const core::Status st = vfs.addArchive(tmp / "cut.pak");
        ASSERT_FALSE(st) << "prefix " << len;
        EXPECT_TRUE(st.error().code == ErrorCode::Truncated ||
                    st.error().code == ErrorCode::BadArchive)
            << len << ": " << st.error().message();
        EXPECT_NE(st.error().message().find("cut.pak"), std::string::npos);
        EXPECT_TRUE(vfs.sources().empty());
    }
}

TEST(Pak, EntryPointingPastTheEndIsRejectedWithItsName) {
    TempDir tmp;
    Bytes pak = makePak({{"ok.txt", "fine"}, {"textures/bad.wal", "0123456789"}});
    // Second entry's length field: directory offset + 64 + 60.
    uint32_t dir_offset = 0;
    std::memcpy(&dir_offset, pak.data() + 4, 4);
    putU32(pak, dir_offset + 64 + 60, 1000);
    writeBytes(tmp / "bad.pak", pak);
    content::FileSystem vfs;
    const core::Status st = vfs.addArchive(tmp / "bad.pak");
    ASSERT_FALSE(st);
    EXPECT_EQ(st.error().code, ErrorCode::BadArchive);
    EXPECT_EQ(st.error().index, 1);
    EXPECT_NE(st.error().message().find("textures/bad.wal"), std::string::npos);
    EXPECT_NE(st.error().message().find("bad.pak"), std::string::npos);
}

TEST(Pak, HostileHeadersAndEntries) {
    TempDir tmp;
    auto tryPak = [&](const Bytes& pak) {
        writeBytes(tmp / "h.pak", pak);
        content::FileSystem vfs;
        const core::Status st = vfs.addArchive(tmp / "h.pak");
        return st ? ErrorCode::Ok : st.error().code;
    };
    const Bytes good = makePak({{"a.txt", "hello"}});
    EXPECT_EQ(tryPak(good), ErrorCode::Ok);

    Bytes misaligned = good;
    putU32(misaligned, 8, 65);
    EXPECT_EQ(tryPak(misaligned), ErrorCode::BadArchive);

    Bytes negative = good;
    putU32(negative, 4, 0x80000000u);
    EXPECT_EQ(tryPak(negative), ErrorCode::BadArchive);

    Bytes huge_dir = good;
    putU32(huge_dir, 8, 64u * 1000000u);
    EXPECT_EQ(tryPak(huge_dir), ErrorCode::Truncated);

    Bytes huge_member = good; // claims 300 MiB: over the member cap before the range check
    putU32(huge_member, 12 + 5 + 60, 300u * 1024 * 1024);
    EXPECT_EQ(tryPak(huge_member), ErrorCode::LimitExceeded);

    Bytes negative_pos = good;
    putU32(negative_pos, 12 + 5 + 56, 0xfffffff0u);
    EXPECT_EQ(tryPak(negative_pos), ErrorCode::BadArchive);

    Bytes unnamed = good;
    unnamed[12 + 5] = 0;
    EXPECT_EQ(tryPak(unnamed), ErrorCode::BadArchive);

    EXPECT_EQ(tryPak(bytesOf("NOPE and some more bytes")), ErrorCode::BadArchive);
}

TEST(Pak, MissingArchiveIsFileOpen) {
    content::FileSystem vfs;
    const core::Status st = vfs.addArchive("/nonexistent/folder/x.pak");
    ASSERT_FALSE(st);
    EXPECT_EQ(st.error().code, ErrorCode::FileOpen);
    EXPECT_NE(st.error().message().find("x.pak"), std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// .pk3 (zip)

TEST(Pk3, ReadListAndCaseInsensitiveLookup) {
    TempDir tmp;
    const Files files = {{"maps/", ""},
                         {"maps/Test.bsp", std::string(5000, 'm')},
                         {"textures/base/Wall.TGA", "tga-bytes"},
                         {"scripts/a.shader", "textures/x { }"}};
    writeZip(tmp / "pak9.pk3", files);
    content::FileSystem vfs;
    ASSERT_TRUE(vfs.addArchive(tmp / "pak9.pk3"));
    EXPECT_EQ(stringOf(*vfs.read("MAPS/test.bsp")), std::string(5000, 'm'));
    EXPECT_EQ(stringOf(*vfs.read("textures/base/wall.tga")), "tga-bytes");
    EXPECT_EQ(vfs.sourceOf("textures/BASE/wall.tga"), "pak9.pk3");
    EXPECT_EQ(vfs.list("maps/", ".bsp"), (std::vector<std::string>{"maps/Test.bsp"}));
    EXPECT_FALSE(vfs.exists("maps/")); // folder entries are not files
    EXPECT_EQ(vfs.list("", "").size(), 3u);
}

TEST(Pk3, CorruptAndTruncatedZipsAreCleanErrors) {
    TempDir tmp;
    writeBytes(tmp / "junk.pk3", bytesOf(std::string("PK\x03\x04", 4) + std::string(200, 'x')));
    content::FileSystem vfs;
    core::Status st = vfs.addArchive(tmp / "junk.pk3");
    ASSERT_FALSE(st);
    EXPECT_EQ(st.error().code, ErrorCode::BadArchive);
    EXPECT_NE(st.error().message().find("junk.pk3"), std::string::npos);

    writeZip(tmp / "whole.pk3", {{"a/b.txt", std::string(4000, 'q')}, {"c.txt", "cc"}});
    std::ifstream in(tmp / "whole.pk3", std::ios::binary);
    const Bytes whole((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_GT(whole.size(), 100u);
    for (size_t len : {size_t{2}, size_t{30}, whole.size() / 2, whole.size() - 1}) {
        writeBytes(tmp / "cut.pk3", Bytes(whole.begin(), whole.begin() + static_cast<long>(len)));
        content::FileSystem cut;
        st = cut.addArchive(tmp / "cut.pk3");
        EXPECT_FALSE(st) << len;
    }
}

TEST(Pk3, DamagedMemberDataFailsOnRead) {
    TempDir tmp;
    const std::string payload(20000, 'z');
    writeZip(tmp / "d.pk3", {{"big.txt", payload}});
    std::ifstream in(tmp / "d.pk3", std::ios::binary);
    Bytes bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    in.close();
    // Flip bytes inside the compressed data (after the 30-byte local header and the name).
    for (size_t i = 40; i < 60 && i < bytes.size(); ++i)
        bytes[i] ^= 0x5a;
    writeBytes(tmp / "d.pk3", bytes);
    content::FileSystem vfs;
    ASSERT_TRUE(vfs.addArchive(tmp / "d.pk3")); // the central directory is intact
    auto r = vfs.readChecked("big.txt");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::BadArchive);
    EXPECT_NE(r.error().message().find("big.txt"), std::string::npos);
    EXPECT_NE(r.error().message().find("d.pk3"), std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// Loose directories and override order

TEST(Vfs, LooseDirectoryIsCaseInsensitive) {
    TempDir tmp;
    writeText(tmp / "game/Textures/Sub/Foo.TGA", "foo");
    writeText(tmp / "outside.txt", "secret");
    content::FileSystem vfs;
    ASSERT_TRUE(vfs.addDirectory(tmp / "game"));
    // Only indexed names resolve: no path can climb out of the folder.
    EXPECT_FALSE(vfs.exists("../outside.txt"));
    EXPECT_FALSE(vfs.read("textures/../../outside.txt"));
    EXPECT_EQ(stringOf(*vfs.read("textures/sub/foo.tga")), "foo");
    EXPECT_EQ(vfs.sourceOf("textures/sub/foo.tga"), (tmp / "game").string());
    EXPECT_EQ(vfs.list("textures", "tga"), (std::vector<std::string>{"Textures/Sub/Foo.TGA"}));
    EXPECT_FALSE(vfs.addDirectory(tmp / "nope"));
    EXPECT_EQ(vfs.addDirectory(tmp / "nope").error().code, ErrorCode::FileOpen);
}

TEST(Vfs, OverrideOrderFollowsIoquake3) {
    TempDir tmp;
    const fs::path base = tmp / "baseq3";
    // Written in an order that differs from the sorted one; names differ in case so that a
    // case-sensitive sort ("B.pk3" < "a.pk3") would give the other answer.
    writeZip(base / "z_last.pk3", {{"a.txt", "z"}, {"d.txt", "z"}});
    writeZip(base / "B.pk3", {{"a.txt", "B"}, {"b.txt", "B"}, {"e.txt", "B"}});
    writeZip(base / "a.pk3", {{"a.txt", "a"}, {"b.txt", "a"}, {"c.txt", "a"}, {"e.txt", "a"}});
    writeBytes(base / "m.pak", makePak({{"e.txt", "m"}}));
    writeText(base / "b.txt", "loose");

    content::FileSystem vfs;
    ASSERT_TRUE(vfs.addGameDir(base));
    EXPECT_EQ(vfs.sources(),
              (std::vector<std::string>{"a.pk3", "B.pk3", "m.pak", "z_last.pk3", base.string()}));
    EXPECT_EQ(stringOf(*vfs.read("a.txt")), "z");     // last archive wins
    EXPECT_EQ(stringOf(*vfs.read("b.txt")), "loose"); // loose file beats every archive
    EXPECT_EQ(stringOf(*vfs.read("c.txt")), "a");     // only in the first archive
    EXPECT_EQ(stringOf(*vfs.read("e.txt")), "m");     // .pak sorted among the .pk3s
    EXPECT_EQ(vfs.sourceOf("a.txt"), "z_last.pk3");
    EXPECT_EQ(vfs.sourceOf("b.txt"), base.string());
    EXPECT_EQ(vfs.sourceOf("e.txt"), "m.pak");

    // A mod folder added later overrides the base folder, loose or archived.
    const fs::path mod = tmp / "mymod";
    writeZip(mod / "zz.pk3", {{"c.txt", "mod"}});
    writeText(mod / "A.TXT", "mod-loose");
    ASSERT_TRUE(vfs.addGameDir(mod));
    EXPECT_EQ(stringOf(*vfs.read("c.txt")), "mod");
    EXPECT_EQ(stringOf(*vfs.read("a.txt")), "mod-loose");
    EXPECT_EQ(stringOf(*vfs.read("b.txt")), "loose");

    // Each name once, with the overriding source's spelling.
    const auto txt = vfs.list("", ".txt");
    EXPECT_EQ(txt, (std::vector<std::string>{"A.TXT", "b.txt", "c.txt", "d.txt", "e.txt"}));
}

TEST(Vfs, GameDirFailsOnABadArchive) {
    TempDir tmp;
    writeZip(tmp / "g/good.pk3", {{"x", "y"}});
    writeText(tmp / "g/pak1.pak", "PACK but not really");
    content::FileSystem vfs;
    const core::Status st = vfs.addGameDir(tmp / "g");
    ASSERT_FALSE(st);
    EXPECT_NE(st.error().message().find("pak1.pak"), std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// findGameDir, parseMapSpec, readMapSpec

TEST(GameDir, WalksUpToTheGameFolder) {
    TempDir tmp;
    const fs::path game = tmp / "baseoa";
    writeText(game / "maps/x.bsp", "IBSP");
    writeText(game / "maps/sub/y.bsp", "IBSP");
    writeZip(game / "pak1-maps.pk3", {{"maps/z.bsp", "IBSP"}});
    writeText(tmp / "withpak/q.pak", "PACK");
    writeText(tmp / "withpak/levels/w.bsp", "IBSP");
    // Deeper than the search climbs (4 folders), so that whatever another process leaves in
    // the system's temporary folder (an archive, a gfx/ folder) is never reached: that made
    // this test fail once under ctest -j2.
    writeText(tmp / "a/b/c/loose/v.bsp", "IBSP");

    EXPECT_EQ(content::findGameDir(game / "maps/x.bsp"), game);
    EXPECT_EQ(content::findGameDir(game / "MAPS/../maps/sub/y.bsp"), game);
    EXPECT_EQ(content::findGameDir(game / "pak1-maps.pk3"), game);
    EXPECT_EQ(content::findGameDir((game / "pak1-maps.pk3").string() + ":maps/z.bsp"), game);
    EXPECT_EQ(content::findGameDir(tmp / "withpak/levels/w.bsp"), tmp / "withpak");
    EXPECT_EQ(content::findGameDir(tmp / "a/b/c/loose/v.bsp"), std::nullopt);
}

TEST(MapSpec, Parses) {
    auto s = content::parseMapSpec("/a/b/Pak1-Maps.PK3:maps/oa_dm5.bsp");
    ASSERT_TRUE(s);
    EXPECT_EQ(s->archive, fs::path("/a/b/Pak1-Maps.PK3"));
    EXPECT_EQ(s->member, "maps/oa_dm5.bsp");
    EXPECT_TRUE(content::parseMapSpec("q.pak:maps/e1m1.bsp"));
    EXPECT_TRUE(content::parseMapSpec("q.zip:maps/e1m1.bsp"));
    EXPECT_FALSE(content::parseMapSpec("/a/b/maps/x.bsp"));
    EXPECT_FALSE(content::parseMapSpec("/a/b/x.pk3:"));
    EXPECT_FALSE(content::parseMapSpec("/a/b/x.pk3"));
}

TEST(MapSpec, ReadsMembersAndFiles) {
    TempDir tmp;
    writeZip(tmp / "maps.pk3", {{"maps/Test.bsp", "IBSP-zip"}});
    writeBytes(tmp / "maps.pak", makePak({{"maps/e1m1.bsp", "BSP29-pak"}}));
    writeText(tmp / "plain.bsp", "IBSP-file");

    std::string display;
    auto r = content::readMapSpec((tmp / "maps.pk3").string() + ":maps/test.bsp", &display);
    ASSERT_TRUE(r) << r.error().message();
    EXPECT_EQ(stringOf(*r), "IBSP-zip");
    EXPECT_EQ(display, "maps.pk3:maps/test.bsp");

    r = content::readMapSpec((tmp / "maps.pak").string() + ":maps/E1M1.bsp", &display);
    ASSERT_TRUE(r) << r.error().message();
    EXPECT_EQ(stringOf(*r), "BSP29-pak");

    r = content::readMapSpec((tmp / "plain.bsp").string(), &display);
    ASSERT_TRUE(r);
    EXPECT_EQ(stringOf(*r), "IBSP-file");
    EXPECT_EQ(display, "plain.bsp");

    r = content::readMapSpec((tmp / "maps.pk3").string() + ":maps/missing.bsp", nullptr);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::NotFound);
    EXPECT_NE(r.error().message().find("maps.pk3"), std::string::npos);
    EXPECT_NE(r.error().message().find("maps/missing.bsp"), std::string::npos);

    r = content::readMapSpec((tmp / "none.pk3").string() + ":maps/x.bsp", nullptr);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::FileOpen);
    r = content::readMapSpec((tmp / "none.bsp").string(), nullptr);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::FileOpen);
}

// ---------------------------------------------------------------------------------------------
// Images

namespace {

uint32_t crc32(const uint8_t* p, size_t n) {
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; ++i) {
        c ^= p[i];
        for (int k = 0; k < 8; ++k)
            c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
    }
    return ~c;
}

void putBe32(Bytes& b, uint32_t v) {
    for (int s = 24; s >= 0; s -= 8)
        b.push_back(static_cast<uint8_t>(v >> s));
}

// A PNG signature and IHDR chunk (no image data): enough for a header check.
Bytes pngHeader(uint32_t w, uint32_t h) {
    Bytes b = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    putBe32(b, 13);
    const size_t type_at = b.size();
    for (char c : std::string("IHDR"))
        b.push_back(static_cast<uint8_t>(c));
    putBe32(b, w);
    putBe32(b, h);
    b.insert(b.end(), {8, 6, 0, 0, 0}); // 8-bit RGBA, deflate, no filter, no interlace
    putBe32(b, crc32(b.data() + type_at, b.size() - type_at));
    return b;
}

// An uncompressed 32-bit TGA, rows stored top-down (descriptor bit 5).
Bytes makeTga(int w, int h, const std::vector<uint8_t>& rgba) {
    Bytes b(18, 0);
    b[2] = 2;
    b[12] = static_cast<uint8_t>(w);
    b[13] = static_cast<uint8_t>(w >> 8);
    b[14] = static_cast<uint8_t>(h);
    b[15] = static_cast<uint8_t>(h >> 8);
    b[16] = 32;
    b[17] = 0x28;
    for (size_t i = 0; i + 3 < rgba.size(); i += 4)
        b.insert(b.end(), {rgba[i + 2], rgba[i + 1], rgba[i], rgba[i + 3]});
    return b;
}

content::Image testImage(int w, int h) {
    content::Image img;
    img.width = w;
    img.height = h;
    for (int i = 0; i < w * h; ++i)
        img.rgba.insert(img.rgba.end(),
                        {static_cast<uint8_t>(i * 40), static_cast<uint8_t>(255 - i),
                         static_cast<uint8_t>(i * 7), static_cast<uint8_t>(200 + i)});
    return img;
}

Bytes readAll(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return Bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

} // namespace

TEST(Image, PngRoundTripThroughWritePng) {
    TempDir tmp;
    const content::Image img = testImage(3, 2);
    ASSERT_TRUE(content::writePng(tmp / "t.png", img));
    auto decoded = content::decodeImage(readAll(tmp / "t.png"), "t.png");
    ASSERT_TRUE(decoded) << decoded.error().message();
    EXPECT_EQ(decoded->width, 3);
    EXPECT_EQ(decoded->height, 2);
    EXPECT_EQ(decoded->rgba, img.rgba); // first row first: no flip on either side
    EXPECT_FALSE(content::writePng(tmp / "bad.png", content::Image{}));
}

TEST(Image, TgaDecodes) {
    const content::Image img = testImage(2, 3);
    auto decoded = content::decodeImage(makeTga(2, 3, img.rgba), "t.tga");
    ASSERT_TRUE(decoded) << decoded.error().message();
    EXPECT_EQ(decoded->rgba, img.rgba);
}

TEST(Image, GarbageEmptyAndTruncatedAreCleanErrors) {
    const Bytes garbage = bytesOf("this is not an image, just some text of no known format");
    auto r = content::decodeImage(garbage, "junk.jpg");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::BadImage);
    EXPECT_EQ(r.error().file, "junk.jpg");
    EXPECT_EQ(content::decodeImage({}, "empty.png").error().code, ErrorCode::BadImage);

    TempDir tmp;
    ASSERT_TRUE(content::writePng(tmp / "t.png", testImage(4, 4)));
    const Bytes png = readAll(tmp / "t.png");
    // stb_image stops at the IEND chunk type and never reads its CRC, so only the last four
    // bytes may go missing unnoticed; every shorter prefix fails.
    for (size_t len = 0; len < png.size(); ++len) {
        auto cut = content::decodeImage(std::span<const uint8_t>(png.data(), len), "cut.png");
        if (len < png.size() - 4) {
            EXPECT_FALSE(cut) << "prefix " << len << " of " << png.size();
        } else {
            ASSERT_TRUE(cut);
            EXPECT_EQ(cut->rgba, testImage(4, 4).rgba);
        }
    }
}

TEST(Image, DimensionCapIsCheckedFromTheHeader) {
    // Only headers: a decoder that allocated first would fail differently (BadImage) or not at
    // all; the cap must answer LimitExceeded.
    for (auto [w, h] : {std::pair<uint32_t, uint32_t>{8193, 1}, {1, 8193}, {9000, 9000}}) {
        auto r = content::decodeImage(pngHeader(w, h), "big.png");
        ASSERT_FALSE(r);
        EXPECT_EQ(r.error().code, ErrorCode::LimitExceeded) << w << "x" << h;
    }
    // stb_image's own header check already refuses more than 2^24 pixels per side.
    EXPECT_FALSE(content::decodeImage(pngHeader(60000, 60000), "huge.png"));
    auto tga = content::decodeImage(makeTga(9000, 2, {}), "big.tga");
    ASSERT_FALSE(tga);
    EXPECT_EQ(tga.error().code, ErrorCode::LimitExceeded);
    // Within the cap the same header reaches the decoder, which finds no pixel data.
    auto small = content::decodeImage(pngHeader(8192, 1), "ok.png");
    ASSERT_FALSE(small);
    EXPECT_EQ(small.error().code, ErrorCode::BadImage);
}

TEST(Image, MissingTextureIsAGreyTileWithAFaintGrid) {
    const content::Image c = content::makeMissingTexture();
    ASSERT_TRUE(c.valid());
    EXPECT_EQ(c.width, 64);
    EXPECT_EQ(c.height, 64);
    auto px = [&](const content::Image& img, int x, int y) {
        const uint8_t* p = &img.rgba[static_cast<size_t>((y * img.width + x) * 4)];
        return std::array<uint8_t, 4>{p[0], p[1], p[2], p[3]};
    };
    // Grid lines every 64 / 4 = 16 texels along the first row and column of each cell (150),
    // light grey (176) between them, opaque everywhere.
    const std::array<uint8_t, 4> line{150, 150, 150, 255}, fill{176, 176, 176, 255};
    EXPECT_EQ(px(c, 0, 0), line);
    EXPECT_EQ(px(c, 5, 0), line);
    EXPECT_EQ(px(c, 0, 9), line);
    EXPECT_EQ(px(c, 16, 40), line);
    EXPECT_EQ(px(c, 40, 48), line);
    EXPECT_EQ(px(c, 1, 1), fill);
    EXPECT_EQ(px(c, 15, 15), fill);
    EXPECT_EQ(px(c, 17, 33), fill);
    EXPECT_EQ(px(c, 63, 63), fill);
    int lines = 0;
    for (size_t i = 0; i < c.rgba.size(); i += 4)
        lines += c.rgba[i] == 150 ? 1 : 0;
    EXPECT_EQ(lines, 64 * 64 - 60 * 60); // 4 rows and 4 columns of 64, crossings counted once
    // Smaller tiles keep four cells: 16 -> lines every 4 texels.
    const content::Image small = content::makeMissingTexture(16);
    EXPECT_EQ(small.width, 16);
    EXPECT_EQ(px(small, 4, 1), line);
    EXPECT_EQ(px(small, 5, 5), fill);
    EXPECT_EQ(content::makeMissingTexture(-5).width, 8);
    const content::Image clamped = content::makeMissingTexture(1 << 20);
    EXPECT_TRUE(clamped.valid());
    EXPECT_EQ(clamped.width, content::kMaxMissingTextureSize);
}

// ---------------------------------------------------------------------------------------------
// Material textures

TEST(Textures, CandidatesFollowIoquake3) {
    using V = std::vector<std::string>;
    EXPECT_EQ(content::imageCandidates("textures/a/b"),
              (V{"textures/a/b.tga", "textures/a/b.jpg", "textures/a/b.jpeg", "textures/a/b.png",
                 "textures/a/b.bmp"}));
    EXPECT_EQ(content::imageCandidates("textures/a/b.JPG"),
              (V{"textures/a/b.JPG", "textures/a/b.tga", "textures/a/b.jpeg", "textures/a/b.png",
                 "textures/a/b.bmp"}));
    EXPECT_EQ(content::imageCandidates("textures/v1.5/b")[0], "textures/v1.5/b.tga");
    EXPECT_EQ(content::imageCandidates("textures\\x.y")[0], "textures/x.y.tga");
    EXPECT_TRUE(content::imageCandidates("").empty());
}

namespace {

bsp::Map mapWithMaterials(const std::vector<std::pair<std::string, uint32_t>>& materials) {
    bsp::Map map;
    map.name = "synthetic.bsp";
    for (const auto& [name, flags] : materials)
        testsupport::addMaterial(map, name, flags);
    return map;
}

} // namespace

TEST(Textures, FoundMissingAndPreferenceOrder) {
    TempDir tmp;
    const fs::path game = tmp / "game";
    const content::Image red = testImage(2, 2);
    const content::Image other = testImage(3, 1);
    fs::create_directories(game / "textures/base");
    fs::create_directories(game / "textures/Base");
    ASSERT_TRUE(content::writePng(game / "textures/base/found.png", red));
    // Both exist: .tga is preferred over .png.
    writeBytes(game / "textures/base/pref.tga", makeTga(3, 1, other.rgba));
    ASSERT_TRUE(content::writePng(game / "textures/base/pref.png", red));
    // .tga exists but is garbage: skipped, .png used.
    writeText(game / "textures/base/broken.tga", "definitely not a targa file at all......");
    ASSERT_TRUE(content::writePng(game / "textures/base/broken.png", red));
    // Explicit extension naming a missing file falls back to other extensions.
    ASSERT_TRUE(content::writePng(game / "textures/Base/Explicit.png", red));

    content::FileSystem vfs;
    ASSERT_TRUE(vfs.addDirectory(game));
    const bsp::Map map = mapWithMaterials({{"textures/base/found", 0},
                                           {"textures/base/pref", 0},
                                           {"textures/base/missing", 0},
                                           {"textures/base/broken", 0},
                                           {"textures/base/explicit.jpg", 0},
                                           {"textures/skies/space", bsp::kSurfSky},
                                           {"common/nodraw", bsp::kSurfNoDraw},
                                           {"", 0}});
    const auto tex = content::loadMaterialTextures(map, vfs, 1);
    ASSERT_EQ(tex.size(), map.materials.size());

    EXPECT_FALSE(tex[0].missing);
    EXPECT_EQ(tex[0].source, "textures/base/found.png");
    EXPECT_EQ(tex[0].origin, game.string());
    EXPECT_EQ(tex[0].image.rgba, red.rgba);

    EXPECT_FALSE(tex[1].missing);
    EXPECT_EQ(tex[1].source, "textures/base/pref.tga");
    EXPECT_EQ(tex[1].image.width, 3);
    EXPECT_EQ(tex[1].image.rgba, other.rgba);

    EXPECT_FALSE(tex[3].missing);
    EXPECT_EQ(tex[3].source, "textures/base/broken.png");
    EXPECT_NE(tex[3].error.find("broken.tga"), std::string::npos);

    EXPECT_FALSE(tex[4].missing);
    EXPECT_EQ(tex[4].source, "textures/base/explicit.png");

    const content::Image missing = content::makeMissingTexture();
    for (size_t i : {size_t{2}, size_t{5}, size_t{6}, size_t{7}}) {
        EXPECT_TRUE(tex[i].missing) << i;
        EXPECT_TRUE(tex[i].source.empty()) << i;
        EXPECT_EQ(tex[i].image.rgba, missing.rgba) << i;
    }
}

TEST(Textures, ThreadCountDoesNotChangeTheResult) {
    TempDir tmp;
    std::vector<std::pair<std::string, uint32_t>> names;
    fs::create_directories(tmp / "textures/t");
    for (int i = 0; i < 37; ++i) {
        const std::string name = "textures/t/n" + std::to_string(i);
        if (i % 3 != 0) {
            ASSERT_TRUE(content::writePng(tmp / (name + ".png"), testImage(1 + i % 4, 1 + i % 5)));
        }
        names.emplace_back(name, 0);
    }
    writeZip(tmp / "z.pk3", {{"textures/t/n3.jpg", "broken jpg"}, {"textures/t/n6.png", ""}});
    content::FileSystem vfs;
    ASSERT_TRUE(vfs.addArchive(tmp / "z.pk3"));
    ASSERT_TRUE(vfs.addDirectory(tmp.path()));
    const bsp::Map map = mapWithMaterials(names);
    const auto one = content::loadMaterialTextures(map, vfs, 1);
    const auto many = content::loadMaterialTextures(map, vfs, 4);
    const auto automatic = content::loadMaterialTextures(map, vfs);
    ASSERT_EQ(one.size(), 37u);
    int found = 0;
    for (size_t i = 0; i < one.size(); ++i) {
        found += one[i].missing ? 0 : 1;
        EXPECT_EQ(one[i].missing, i % 3 == 0) << i;
        for (const auto* other : {&many[i], &automatic[i]}) {
            EXPECT_EQ(one[i].source, other->source) << i;
            EXPECT_EQ(one[i].missing, other->missing) << i;
            EXPECT_EQ(one[i].image.rgba, other->image.rgba) << i;
        }
    }
    EXPECT_EQ(found, 24);
}

TEST(TextureSources, KindFollowsWhereThePixelsCameFrom) {
    content::TextureInfo t;
    EXPECT_EQ(content::sourceKindOf(t), content::TextureSourceKind::Missing);
    t.missing = false;
    t.source = "<embedded> + gfx/palette.lmp (pak0.pak)";
    t.origin = "e1m1";
    EXPECT_EQ(content::sourceKindOf(t), content::TextureSourceKind::Embedded);
    t.source = "<wad> halflife.wad";
    t.origin = "/games/valve/halflife.wad";
    EXPECT_EQ(content::sourceKindOf(t), content::TextureSourceKind::Wad);
    t.source = "textures/e1u1/floor1_3.wal";
    t.origin = "/q2/baseq2/PAK0.PAK";
    EXPECT_EQ(content::sourceKindOf(t), content::TextureSourceKind::Pak);
    t.source = "textures/base_wall/concrete.jpg";
    t.origin = "/oa/baseoa/pak0.pk3";
    EXPECT_EQ(content::sourceKindOf(t), content::TextureSourceKind::Pk3);
    t.origin = "/home/me/maps";
    EXPECT_EQ(content::sourceKindOf(t), content::TextureSourceKind::Folder);
    EXPECT_EQ(content::sourceKindName(content::TextureSourceKind::Pk3), "pk3");
    EXPECT_EQ(content::sourceKindName(content::TextureSourceKind::Missing), "missing");
}

// A sky box's faces given already decoded (the texture cache's sky entry) are taken from there,
// moved out, and only the others are read and decoded; the sources say where each came from.
TEST(SkyBoxFaces, DecodedFacesAreTakenInsteadOfTheFiles) {
    TempDir tmp;
    const fs::path game = tmp / "game";
    fs::create_directories(game / "env");
    const char* suffixes[] = {"rt", "bk", "lf", "ft", "up", "dn"};
    for (size_t i = 0; i < 6; ++i) {
        content::Image face = testImage(2, 2);
        face.rgba[0] = static_cast<uint8_t>(10 + i); // tells the files apart
        writeBytes(game / ("env/s_" + std::string(suffixes[i]) + ".tga"), makeTga(2, 2, face.rgba));
    }
    content::FileSystem vfs;
    ASSERT_TRUE(vfs.addDirectory(game));
    // The right face from the memo (3x1, first texel 99), under the name the file has; the
    // back face under a .jpg name the search paths lack, which is still taken (the cache vouches
    // for its sources); an entry of another box is left.
    content::DecodedImages decoded;
    content::Image memo_rt = testImage(3, 1);
    memo_rt.rgba[0] = 99;
    decoded["env/s_rt.tga"] = memo_rt;
    content::Image memo_bk = testImage(1, 1);
    decoded["env/s_bk.jpg"] = memo_bk;
    decoded["env/other_rt.tga"] = testImage(1, 1);
    auto sky = content::loadSkyBox(vfs, "env/s_", game::MaterialFiles::Images, nullptr, &decoded);
    ASSERT_TRUE(sky.has_value());
    EXPECT_EQ(sky->faces[0].width, 3);
    EXPECT_EQ(sky->faces[0].rgba[0], 99);
    EXPECT_EQ(sky->sources[0], "env/s_rt.tga");
    EXPECT_EQ(sky->faces[1].width, 1);
    EXPECT_EQ(sky->sources[1], "env/s_bk.jpg");
    for (size_t i = 2; i < 6; ++i) {
        EXPECT_EQ(sky->faces[i].width, 2) << i;
        EXPECT_EQ(sky->faces[i].rgba[0], 10 + i) << i;
        EXPECT_EQ(sky->sources[i], "env/s_" + std::string(suffixes[i]) + ".tga") << i;
    }
    ASSERT_EQ(decoded.size(), 1u); // the two taken were moved out
    EXPECT_EQ(decoded.begin()->first, "env/other_rt.tga");
}
