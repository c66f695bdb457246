// Mutated archives (.pak, .pk3, .vpk), images, entity text, portal and leak files, models and
// sprites through the fuzz entry points: each mutant is accepted or rejected with a proper
// core::Error, never a crash. New decoders add an input list and a TEST with blobMutations (or
// spanMutations for formats with a directory).
#include "robust/mutate.h"
#include "robust/tally.h"
#include "support/md2_builder.h"
#include "support/q1_builder.h"
#include "support/source_model_builder.h"
#include "support/source_props_builder.h"
#include "support/studio_builder.h"
#include "unit/vpk_builder.h"

#include "bsp/load.h"
#include "content/vfs/vfs.h"
#include "core/file.h"

#include <gtest/gtest.h>
#include <zip.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

const fs::path kMaps = BSPV_SHARED_MAPS_DIR;
const fs::path kOpenArena = BSPV_OPENARENA_DIR;

double secondsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void runBlob(robust::Tally& tally, std::span<const uint8_t> bytes, robust::BlobOptions options,
             fuzz::Outcome (*run)(std::span<const uint8_t>)) {
    robust::blobMutations(bytes, options, [&](std::string_view label, std::span<const uint8_t> b) {
        tally.check(label, b, run);
    });
}

std::vector<uint8_t> readOpenArena(const char* archive, const char* member) {
    content::FileSystem vfs;
    core::Status st = vfs.addArchive(kOpenArena / archive);
    EXPECT_TRUE(st.ok()) << st.error().message();
    auto bytes = vfs.readChecked(member);
    EXPECT_TRUE(bytes.ok()) << bytes.error().message();
    return bytes.ok() ? std::move(*bytes) : std::vector<uint8_t>{};
}

// A small .pk3 made here with libzip: a map, an image and a text file, one member stored and
// the others deflated.
std::vector<uint8_t> makePk3() {
    const fs::path path =
        fs::temp_directory_path() / ("bspv_robust_" + std::to_string(::getpid()) + ".pk3");
    auto map = core::readFile(kMaps / "q1" / "ew_q1_cube.bsp");
    EXPECT_TRUE(map.ok());
    const std::vector<uint8_t> image = readOpenArena("pak0.pk3", "gfx/2d/colorbar.jpg");
    static const char kText[] = "textures/x\n{\n\tsurfaceparm nodraw\n}\n";
    int err = 0;
    zip_t* z = zip_open(path.string().c_str(), ZIP_CREATE | ZIP_TRUNCATE, &err);
    EXPECT_NE(z, nullptr);
    if (!z)
        return {};
    auto add = [&](const char* name, const void* data, size_t size, bool store) {
        zip_source_t* s = zip_source_buffer(z, data, size, 0);
        const zip_int64_t idx = zip_file_add(z, name, s, ZIP_FL_OVERWRITE);
        EXPECT_GE(idx, 0);
        if (store)
            zip_set_file_compression(z, static_cast<zip_uint64_t>(idx), ZIP_CM_STORE, 0);
    };
    add("maps/cube.bsp", map->data(), map->size(), false);
    add("gfx/colorbar.jpg", image.data(), image.size(), true);
    add("scripts/x.shader", kText, sizeof(kText) - 1, false);
    EXPECT_EQ(zip_close(z), 0);
    auto bytes = core::readFile(path);
    std::error_code ec;
    fs::remove(path, ec);
    EXPECT_TRUE(bytes.ok());
    return bytes.ok() ? std::move(*bytes) : std::vector<uint8_t>{};
}

TEST(ContentMutations, QuakePak) {
    auto pak = core::readFile(kMaps / "q2" / "aq_textures.pak");
    ASSERT_TRUE(pak.ok()) << pak.error().message();
    const auto t0 = std::chrono::steady_clock::now();
    robust::Tally tally("aq_textures.pak");
    ASSERT_TRUE(fuzz::runArchive(*pak).accepted);
    // The header's directory entry and the first entries of the directory itself.
    const int32_t dir_offset = robust::readI32(*pak, 4);
    const int32_t dir_length = robust::readI32(*pak, 8);
    ASSERT_GT(dir_length, 64 * 8);
    std::vector<robust::Span> spans;
    spans.push_back(
        {"directory", static_cast<uint64_t>(dir_offset), static_cast<uint64_t>(dir_length), 4, 8});
    for (int i = 0; i < 8; ++i) {
        const uint64_t at = static_cast<uint64_t>(dir_offset) + static_cast<uint64_t>(i) * 64;
        spans.push_back({"entry" + std::to_string(i),
                         static_cast<uint32_t>(robust::readI32(*pak, at + 56)),
                         static_cast<uint32_t>(robust::readI32(*pak, at + 60)),
                         static_cast<int64_t>(at + 56), static_cast<int64_t>(at + 60)});
    }
    robust::SpanOptions so;
    so.seed = 0x5eed0101;
    robust::spanMutations(*pak, spans, so, [&](std::string_view label, std::span<const uint8_t> b) {
        tally.check(label, b, &fuzz::runArchive);
    });
    robust::BlobOptions bo;
    bo.seed = 0x5eed0102;
    bo.random_truncations = 20;
    bo.flip_mutants = 16;
    bo.header_bytes = 12;
    runBlob(tally, *pak, bo, &fuzz::runArchive);
    tally.print(secondsSince(t0));
    EXPECT_LT(tally.accepted(), tally.total());
}

TEST(ContentMutations, Pk3) {
    const std::vector<uint8_t> pk3 = makePk3();
    ASSERT_GT(pk3.size(), 22u);
    const auto t0 = std::chrono::steady_clock::now();
    robust::Tally tally("made.pk3");
    ASSERT_TRUE(fuzz::runArchive(pk3).accepted);
    // The end-of-central-directory record (no comment: the last 22 bytes) points at the
    // central directory: size at +12, offset at +16.
    const uint64_t eocd = pk3.size() - 22;
    ASSERT_EQ(robust::readI32(pk3, eocd), 0x06054b50);
    std::vector<robust::Span> spans;
    spans.push_back({"central directory", static_cast<uint32_t>(robust::readI32(pk3, eocd + 16)),
                     static_cast<uint32_t>(robust::readI32(pk3, eocd + 12)),
                     static_cast<int64_t>(eocd + 16), static_cast<int64_t>(eocd + 12)});
    robust::SpanOptions so;
    so.seed = 0x5eed0201;
    so.flip_mutants_per_span = 32;
    robust::spanMutations(pk3, spans, so, [&](std::string_view label, std::span<const uint8_t> b) {
        tally.check(label, b, &fuzz::runArchive);
    });
    robust::BlobOptions bo;
    bo.seed = 0x5eed0202;
    bo.header_bytes = 64; // the first local header
    runBlob(tally, pk3, bo, &fuzz::runArchive);
    tally.print(secondsSince(t0));
    EXPECT_LT(tally.accepted(), tally.total());
}

TEST(ContentMutations, Images) {
    const struct {
        const char* archive;
        const char* member;
    } kImages[] = {
        {"pak0.pk3", "gfx/2d/colorbar.jpg"},
        {"pak0.pk3", "models/weapons2/railgun/f_railgun3.jpg"},
        {"pak0.pk3", "gfx/2d/defer.tga"},
        {"pak5-TA.pk3", "icons/doubler.tga"},
        {"pak0.pk3", "icons/icona_blue.png"},
    };
    for (const auto& img : kImages) {
        const std::vector<uint8_t> bytes = readOpenArena(img.archive, img.member);
        ASSERT_FALSE(bytes.empty()) << img.member;
        const auto t0 = std::chrono::steady_clock::now();
        robust::Tally tally(img.member);
        ASSERT_TRUE(fuzz::runImage(bytes).accepted) << img.member;
        robust::BlobOptions bo;
        bo.seed = 0x5eed0300;
        bo.header_bytes = 32;
        runBlob(tally, bytes, bo, &fuzz::runImage);
        tally.print(secondsSince(t0));
        EXPECT_LT(tally.accepted(), tally.total());
    }
}

TEST(ContentMutations, ExternalLightmapImage) {
    // A 4x4 q3map2 lightmap TGA (BGR, bottom row first) mutated as lm_0001 of an external set:
    // every mutant ends as pages or a warning with vertex colours, never a crash.
    std::vector<uint8_t> tga(18, 0);
    tga[2] = 2;
    tga[12] = 4;
    tga[14] = 4;
    tga[16] = 24;
    for (int i = 0; i < 4 * 4 * 3; ++i)
        tga.push_back(static_cast<uint8_t>(i * 5));
    const auto t0 = std::chrono::steady_clock::now();
    robust::Tally tally("lm_0001.tga");
    ASSERT_TRUE(fuzz::runExternalLightmap(tga).accepted);
    robust::BlobOptions bo;
    bo.seed = 0x5eed0a00;
    bo.header_bytes = 18;
    runBlob(tally, tga, bo, &fuzz::runExternalLightmap);
    tally.print(secondsSince(t0));
    EXPECT_GT(tally.total(), 100u);
}

TEST(ContentMutations, EntityText) {
    for (const fs::path& p : {kMaps / "q3" / "bc_crypt.bsp", kMaps / "q1" / "lq_start.bsp",
                              kMaps / "q2" / "aq_wizs.bsp"}) {
        auto map = bsp::loadMapFile(p);
        ASSERT_TRUE(map.ok()) << map.error().message();
        const std::span<const uint8_t> text(
            reinterpret_cast<const uint8_t*>(map->entity_text.data()), map->entity_text.size());
        ASSERT_FALSE(text.empty());
        const auto t0 = std::chrono::steady_clock::now();
        robust::Tally tally(p.filename().string() + " entities");
        robust::BlobOptions bo;
        bo.seed = 0x5eed0400;
        bo.flip_mutants = 128;
        runBlob(tally, text, bo, &fuzz::runEntities);
        tally.print(secondsSince(t0));
        EXPECT_EQ(tally.accepted(), tally.total()); // the entity parser never rejects
    }
    // Pathological texts: long runs of one token, unterminated quotes, NULs.
    robust::Tally tally("entity edge cases");
    for (const std::string& s :
         {std::string(1 << 20, '{'), std::string(1 << 20, '}'), std::string(1 << 20, '"'),
          std::string("{\"a\" \"") + std::string(1 << 20, 'x'), std::string(4096, '\0'),
          std::string("{ \"classname\" \"info_player_start\" \"origin\" \"1e39 -1e39 nan\" "
                      "\"angle\" \"inf\" }")}) {
        tally.check("edge",
                    std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(s.data()), s.size()),
                    &fuzz::runEntities);
    }
    tally.print(0.0);
}

std::span<const uint8_t> bytesOf(const std::string& s) {
    return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

TEST(ContentMutations, PortalFiles) {
    for (const char* name :
         {"lobby/q3_mp_lobby.prt", "lobby/q2_mp_lobby.prt", "source/tf2_test_physcollide.prt"}) {
        auto prt = core::readFile(kMaps / name);
        ASSERT_TRUE(prt.ok()) << prt.error().message();
        const auto t0 = std::chrono::steady_clock::now();
        robust::Tally tally(name);
        ASSERT_TRUE(fuzz::runPortalFile(*prt).accepted) << name;
        robust::BlobOptions bo;
        bo.seed = 0x5eed0500;
        bo.flip_mutants = 128;
        bo.header_bytes = 16; // the magic and the counts
        runBlob(tally, *prt, bo, &fuzz::runPortalFile);
        tally.print(secondsSince(t0));
        EXPECT_LT(tally.accepted(), tally.total());
    }
    // Hostile counts and shapes: nothing is allocated from a count, nothing runs long.
    robust::Tally tally("portal edge cases");
    const std::string square = "(0 0 0) (0 64 0) (0 64 64) (0 0 64)\n";
    std::string many;
    for (int i = 0; i < 20000; ++i)
        many += "4 0 1 " + square;
    for (const std::string& s :
         {std::string("PRT1\n1048576\n1048576\n"), std::string("PRT2\n1048576\n1048576\n0\n"),
          std::string("PRT1-AM\n1\n0\n1048576\n") + std::string(1 << 20, '0'),
          std::string("PRT1\n2\n20000\n") + many,
          std::string("PRT1\n2\n1\n64 0 1 ") + std::string(1 << 20, '('),
          std::string("PRT1\n") + std::string(1 << 20, '9'),
          std::string("PRT1\n2\n1\n") + "4 0 1 " + std::string(1 << 16, ' ') + square,
          std::string(4096, '\0'),
          std::string("PRT2\n4\n2\n0\n") + std::string(1 << 18, '0') + " -1"}) {
        tally.check("edge", bytesOf(s), &fuzz::runPortalFile);
    }
    tally.print(0.0);
}

TEST(ContentMutations, LeakFiles) {
    std::string trail;
    for (int i = 0; i < 300; ++i)
        trail += std::to_string(i * 2) + ".000000 " + std::to_string(i % 7) + ".500000 8.000000\n";
    const auto t0 = std::chrono::steady_clock::now();
    robust::Tally tally("made.pts");
    ASSERT_TRUE(fuzz::runLeakFile(bytesOf(trail)).accepted);
    robust::BlobOptions bo;
    bo.seed = 0x5eed0600;
    bo.flip_mutants = 128;
    runBlob(tally, bytesOf(trail), bo, &fuzz::runLeakFile);
    tally.print(secondsSince(t0));
    EXPECT_LT(tally.accepted(), tally.total());
    robust::Tally edges("leak edge cases");
    for (const std::string& s : {std::string(1 << 20, '\n'), std::string(1 << 20, '1'),
                                 std::string("1e38 -1e38 1e38\n-1e38 1e38 -1e38\n"),
                                 std::string("0 0 0\n0 0 0\n0 0 0\n")}) {
        edges.check("edge", bytesOf(s), &fuzz::runLeakFile);
    }
    edges.print(0.0);
}

TEST(ContentMutations, WalkScripts) {
    // --walk-script text (physics/walk_script.h): every command, comments, blank lines.
    std::string script;
    for (int i = 0; i < 40; ++i)
        script += "forward 0.5\nturn -45 # corner\n\nleft 0.25\njump\ncrouch 0.1\nback 1\n"
                  "right 2\nwait 0.016\n";
    const auto t0 = std::chrono::steady_clock::now();
    robust::Tally tally("walk.txt");
    ASSERT_TRUE(fuzz::runWalkScript(bytesOf(script)).accepted);
    robust::BlobOptions bo;
    bo.seed = 0x5eed0700;
    bo.flip_mutants = 128;
    runBlob(tally, bytesOf(script), bo, &fuzz::runWalkScript);
    tally.print(secondsSince(t0));
    EXPECT_LT(tally.accepted(), tally.total());
    robust::Tally edges("walk script edge cases");
    for (const std::string& s :
         {std::string(1 << 20, '\n'), std::string(1 << 20, '9'),
          std::string("wait ") + std::string(1 << 16, '9'), std::string("turn 1e39\n"),
          std::string("wait 3600\nwait 0.01\n"), std::string(4096, '\0')}) {
        edges.check("edge", bytesOf(s), &fuzz::runWalkScript);
    }
    edges.print(0.0);
}

TEST(ContentMutations, CameraStrings) {
    // The go-to field's text (scene/camera_text.h): one line of each form, mutated.
    const std::string forms = "Viewpos: (544 -312 48) 10 90 0";
    const auto t0 = std::chrono::steady_clock::now();
    robust::Tally tally("camera text");
    for (const std::string& seed :
         {forms, std::string("setpos -1.5 2.25 64.03125;setang 12.5 -90 0.000000"),
          std::string("(1024 512 88) : 270"), std::string("--camera 128,-880,46,0,90")}) {
        ASSERT_TRUE(fuzz::runCameraText(bytesOf(seed)).accepted) << seed;
        robust::BlobOptions bo;
        bo.seed = 0x5eed0c00;
        bo.flip_mutants = 256;
        runBlob(tally, bytesOf(seed), bo, &fuzz::runCameraText);
    }
    tally.print(secondsSince(t0));
    EXPECT_LT(tally.accepted(), tally.total());
    robust::Tally edges("camera text edge cases");
    for (const std::string& s :
         {std::string(1 << 16, '9'), std::string("1e39 0 0"), std::string("nan 0 0 0 0"),
          std::string("setpos 1 2 3;setpos 1 2 3"), std::string("(1 2 3"), std::string(";;;"),
          std::string("setang 1e6 1e6 1e6"), std::string(600, ' ') + "1 2 3"}) {
        edges.check("edge", bytesOf(s), &fuzz::runCameraText);
    }
    edges.print(0.0);
}

TEST(ContentMutations, SteamLibraryFolders) {
    // libraryfolders.vdf in both layouts (content/game_install.h).
    const std::string vdf = "\"libraryfolders\"\n{\n\t\"0\"\n\t{\n\t\t\"path\"\t\t"
                            "\"/home/u/.local/share/Steam\"\n\t\t\"apps\"\n\t\t{\n"
                            "\t\t\t\"2310\"\t\"123\"\n\t\t}\n\t}\n\t\"1\"\n\t{\n"
                            "\t\t\"path\"\t\t\"D:\\\\SteamLibrary\"\n\t}\n}\n"
                            "\"LibraryFolders\" { \"1\" \"E:\\\\Steam\" // old\n }\n";
    const auto t0 = std::chrono::steady_clock::now();
    robust::Tally tally("libraryfolders.vdf");
    ASSERT_TRUE(fuzz::runSteamLibrary(bytesOf(vdf)).accepted);
    robust::BlobOptions bo;
    bo.seed = 0x5eed0d00;
    bo.flip_mutants = 256;
    runBlob(tally, bytesOf(vdf), bo, &fuzz::runSteamLibrary);
    tally.print(secondsSince(t0));
    EXPECT_LT(tally.accepted(), tally.total());
    robust::Tally edges("vdf edge cases");
    std::string deep;
    for (int i = 0; i < 1000; ++i)
        deep += "\"k\" {";
    for (const std::string& s : {deep, std::string(1 << 20, '{'), std::string(1 << 20, '"'),
                                 std::string((1 << 20) + 1, ' '), std::string("}"),
                                 std::string("\"libraryfolders\" { \"path\" }")}) {
        edges.check("edge", bytesOf(s), &fuzz::runSteamLibrary);
    }
    edges.print(0.0);
}

TEST(ContentMutations, QuakeModels) {
    // LibreQuake models: a skin group (armor: three skins), frame groups (flame2), a large
    // animated model (soldier), and the hand-made two-frame model with a seam.
    for (const char* name : {"armor.mdl", "flame2.mdl", "soldier.mdl", "bolt.mdl"}) {
        auto bytes = core::readFile(kMaps / "q1/progs" / name);
        ASSERT_TRUE(bytes.ok()) << name;
        const auto t0 = std::chrono::steady_clock::now();
        robust::Tally tally(name);
        ASSERT_TRUE(fuzz::runMdl(*bytes).accepted) << name;
        robust::BlobOptions bo;
        bo.seed = 0x5eed0800;
        bo.header_bytes = 84;
        runBlob(tally, *bytes, bo, &fuzz::runMdl);
        tally.print(secondsSince(t0));
        EXPECT_LT(tally.accepted(), tally.total());
    }
}

TEST(ContentMutations, QuakeItemBoxes) {
    // Item boxes (maps/b_*.bsp) through scene::loadBrushModel: the hand-made lit two-quad file
    // and a real compile (ew_q1_cube: one box brush, unlit).
    auto cube = core::readFile(kMaps / "q1/ew_q1_cube.bsp");
    ASSERT_TRUE(cube.ok());
    const std::pair<const char*, std::vector<uint8_t>> inputs[] = {{"buildQ1", q1test::buildQ1()},
                                                                   {"ew_q1_cube.bsp", *cube}};
    for (const auto& [name, bytes] : inputs) {
        const auto t0 = std::chrono::steady_clock::now();
        robust::Tally tally(name);
        ASSERT_TRUE(fuzz::runBrushModel(bytes).accepted) << name;
        robust::BlobOptions bo;
        bo.seed = 0x5eed0b5b;
        bo.header_bytes = 124; // version and the 15 lump entries
        runBlob(tally, bytes, bo, &fuzz::runBrushModel);
        tally.print(secondsSince(t0));
        EXPECT_LT(tally.accepted(), tally.total());
    }
}

TEST(ContentMutations, Quake3Models) {
    // OpenArena models: one surface (an ammo box), several surfaces (the red armour), a weapon
    // with tags (the rocket launcher's tag_barrel and tag_flash).
    for (const char* member :
         {"models/powerups/ammo/rocketam.md3", "models/powerups/armor/armor_red.md3",
          "models/weapons2/rocketl/rocketl.md3"}) {
        const std::vector<uint8_t> bytes = readOpenArena("pak0.pk3", member);
        ASSERT_FALSE(bytes.empty()) << member;
        const auto t0 = std::chrono::steady_clock::now();
        robust::Tally tally(member);
        ASSERT_TRUE(fuzz::runMd3(bytes).accepted) << member;
        robust::BlobOptions bo;
        bo.seed = 0x5eed0a00;
        bo.header_bytes = 108;
        runBlob(tally, bytes, bo, &fuzz::runMd3);
        tally.print(secondsSince(t0));
        EXPECT_LT(tally.accepted(), tally.total());
    }
}

TEST(ContentMutations, Quake3Skins) {
    // OpenArena's sarge upper skin (a surface and three tag lines without commas) and the flag
    // skin (repeated surface names); each mutant is a skin or an error naming a line.
    for (const char* member :
         {"models/players/sarge/upper_default.skin", "models/flags/flag.skin"}) {
        const std::vector<uint8_t> bytes = readOpenArena("pak0.pk3", member);
        ASSERT_FALSE(bytes.empty()) << member;
        const auto t0 = std::chrono::steady_clock::now();
        robust::Tally tally(member);
        ASSERT_TRUE(fuzz::runSkin(bytes).accepted) << member;
        robust::BlobOptions bo;
        bo.seed = 0x5eed0b00;
        runBlob(tally, bytes, bo, &fuzz::runSkin);
        tally.print(secondsSince(t0));
        EXPECT_LT(tally.accepted(), tally.total());
    }
    // Edge cases: an open quote or comment at the end, a lone comma, 300 surfaces.
    robust::Tally edges("skin edge cases");
    std::string many;
    for (int i = 0; i < 300; ++i)
        many += "s" + std::to_string(i) + ",x\n";
    for (const std::string& s : {std::string("a,\"open"), std::string("a,b /* open"),
                                 std::string(","), std::string(",,,"), many}) {
        const std::vector<uint8_t> b(s.begin(), s.end());
        edges.check("edge", b, &fuzz::runSkin);
    }
    EXPECT_EQ(edges.accepted(), edges.total());
}

TEST(ContentMutations, Sprites) {
    for (const char* name : {"s_explod.spr", "s_light.spr", "s_bubble.spr"}) {
        auto bytes = core::readFile(kMaps / "q1/progs" / name);
        ASSERT_TRUE(bytes.ok()) << name;
        const auto t0 = std::chrono::steady_clock::now();
        robust::Tally tally(name);
        ASSERT_TRUE(fuzz::runSprite(*bytes).accepted) << name;
        robust::BlobOptions bo;
        bo.seed = 0x5eed0900;
        bo.header_bytes = 40;
        runBlob(tally, *bytes, bo, &fuzz::runSprite);
        tally.print(secondsSince(t0));
        EXPECT_LT(tally.accepted(), tally.total());
    }
}

TEST(ContentMutations, QuakeTwoModels) {
    // The hand-made two-frame .md2 (a split vertex) and a real one from assimp-testmodels.
    std::vector<std::pair<std::string, std::vector<uint8_t>>> files = {
        {"two_frames.md2", md2test::buildMd2()}};
    auto faerie = core::readFile("/usr/share/assimp/models/MD2/faerie.md2");
    ASSERT_TRUE(faerie.ok()) << "apt-get install assimp-testmodels";
    files.emplace_back("faerie.md2", std::move(*faerie));
    for (const auto& [name, bytes] : files) {
        const auto t0 = std::chrono::steady_clock::now();
        robust::Tally tally(name);
        ASSERT_TRUE(fuzz::runMd2(bytes).accepted) << name;
        robust::BlobOptions bo;
        bo.seed = 0x5eed0a00;
        bo.header_bytes = 68;
        runBlob(tally, bytes, bo, &fuzz::runMd2);
        tally.print(secondsSince(t0));
        EXPECT_LT(tally.accepted(), tally.total());
    }
}

TEST(ContentMutations, QuakeTwoSprites) {
    const auto bytes = md2test::buildSp2();
    const auto t0 = std::chrono::steady_clock::now();
    robust::Tally tally("two_frames.sp2");
    ASSERT_TRUE(fuzz::runSp2(bytes).accepted);
    robust::BlobOptions bo;
    bo.seed = 0x5eed0b00;
    bo.header_bytes = 12;
    runBlob(tally, bytes, bo, &fuzz::runSp2);
    tally.print(secondsSince(t0));
    EXPECT_LT(tally.accepted(), tally.total());
}

TEST(ContentMutations, SourcePakfileVtfs) {
    // The cube maps in Source maps' pakfile lumps: DXT5 7.4 with seven faces (Left 4 Dead 2)
    // and RGBA16161616F 7.5 (CS:GO).
    for (const auto& [map_name, member] :
         {std::pair{"l4d2_tooltextures", "materials/maps/l4d2_tooltextures/cubemapdefault.vtf"},
          std::pair{"csgo_tooltextures",
                    "materials/maps/csgo_tooltextures/cubemapdefault.hdr.vtf"}}) {
        auto map = bsp::loadMapFile(kMaps / "source" / (std::string(map_name) + ".bsp"));
        ASSERT_TRUE(map.ok()) << map.error().message();
        content::FileSystem vfs;
        ASSERT_TRUE(vfs.addEmbeddedArchive(map->embedded_archive, map_name, "pakfile").ok());
        auto bytes = vfs.readChecked(member);
        ASSERT_TRUE(bytes.ok()) << bytes.error().message();
        const auto t0 = std::chrono::steady_clock::now();
        robust::Tally tally(member);
        ASSERT_TRUE(fuzz::runVtf(*bytes).accepted) << member;
        robust::BlobOptions bo;
        bo.seed = 0x5eed0a00;
        bo.header_bytes = 88;
        runBlob(tally, *bytes, bo, &fuzz::runVtf);
        tally.print(secondsSince(t0));
        EXPECT_LT(tally.accepted(), tally.total());
    }
}

TEST(ContentMutations, VmtText) {
    // KeyValues with comments, conditionals, nested blocks; a patch that includes itself.
    const std::string vmt = "// comment\n\"LightmappedGeneric\"\n{\n"
                            "\t\"$basetexture\" \"brick/wall\"\n\t$translucent 1\n"
                            "\t\"$envmap\" \"env_cubemap\" [$X360]\n"
                            "\t\"$nocull\" \"1\" [!$X360 && $WIN32]\n"
                            "\t\"Proxies\" { \"AnimatedTexture\" { \"animatedtexturevar\" "
                            "\"$basetexture\" } }\n}\n";
    const std::string patch = "patch { include materials/fuzz.vmt insert { $additive 1 } "
                              "replace { $basetexture other } }";
    for (const std::string& text : {vmt, patch}) {
        const auto t0 = std::chrono::steady_clock::now();
        robust::Tally tally("vmt");
        ASSERT_TRUE(fuzz::runVmt(bytesOf(text)).accepted);
        robust::BlobOptions bo;
        bo.seed = 0x5eed0b00;
        bo.flip_mutants = 128;
        runBlob(tally, bytesOf(text), bo, &fuzz::runVmt);
        tally.print(secondsSince(t0));
        EXPECT_LT(tally.accepted(), tally.total());
    }
    robust::Tally edges("vmt edge cases");
    for (const std::string& s :
         {std::string(1 << 16, '{'), "s " + std::string(1 << 16, '{'), std::string(1 << 16, '"'),
          std::string("s { [") + std::string(4096, '!'), std::string(4096, '\0')})
        edges.check("edge", bytesOf(s), &fuzz::runVmt);
    edges.print(0.0);
}

TEST(ContentMutations, VpkDirectories) {
    // Version 1 and 2 directories (tests/unit/vpk_builder.h): preload bytes, data in the
    // directory file and in NAME_000.vpk; the header and the first records are mutated densely.
    for (uint32_t version : {1u, 2u}) {
        const auto built = vpk_test::buildVpk(vpk_test::sampleFiles(), version);
        const auto t0 = std::chrono::steady_clock::now();
        robust::Tally tally("vpk v" + std::to_string(version));
        ASSERT_TRUE(fuzz::runVpk(built.dir).accepted);
        robust::BlobOptions bo;
        bo.seed = 0x5eed0c00 + version;
        bo.header_bytes = version == 1 ? 12 : 28;
        runBlob(tally, built.dir, bo, &fuzz::runVpk);
        tally.print(secondsSince(t0));
        EXPECT_LT(tally.accepted(), tally.total());
        EXPECT_GT(tally.accepted(), 0u);
    }
}

} // namespace

TEST(ContentMutations, HalfLifeStudioModels) {
    // assimp-testmodels' Half-Life models: one with its textures inside and a chrome texture,
    // one with an additive texture, several bones and sequences (unnamed_bones), and the
    // hand-made two-bone model with an animation.
    const fs::path dir = "/usr/share/assimp/models/MDL/MDL (HL1)";
    std::vector<std::pair<std::string, std::vector<uint8_t>>> inputs;
    for (const char* name : {"chrome_sphere.mdl", "blend_additive.mdl", "unnamed_bones.mdl"}) {
        auto bytes = core::readFile(dir / name);
        ASSERT_TRUE(bytes.ok()) << name << ": install assimp-testmodels";
        inputs.emplace_back(name, std::move(*bytes));
    }
    inputs.emplace_back("hand-made", studiotest::buildStudio());
    for (const auto& [name, bytes] : inputs) {
        const auto t0 = std::chrono::steady_clock::now();
        robust::Tally tally(name);
        ASSERT_TRUE(fuzz::runStudio(bytes).accepted) << name;
        robust::BlobOptions bo;
        bo.seed = 0x5eed0a00;
        bo.header_bytes = 244;
        runBlob(tally, bytes, bo, &fuzz::runStudio);
        tally.print(secondsSince(t0));
        EXPECT_LT(tally.accepted(), tally.total());
    }
}

TEST(ContentMutations, SourceStudioModels) {
    // The three files of two Wiremod models (v44 and v48 with 14 skins) and a hand-made one
    // with two LODs, .vvd fixups and the later .vtx layout, each through its own entry point.
    const fs::path wire = kMaps / ".." / "models" / "source" / "wire" / "models";
    srcmdltest::Spec spec;
    spec.version = 49;
    spec.lods = 2;
    spec.fixups = true;
    spec.topology = true;
    spec.textures = {"a", "b"};
    spec.skins = {{0, 1}, {1, 0}};
    srcmdltest::MeshSpec quad;
    quad.vertex_count = 4;
    quad.lods = {{0, 1, 2, 0, 2, 3}, {2, 1, 0}};
    quad.two_groups = true;
    srcmdltest::MeshSpec tri;
    tri.material = 1;
    spec.parts[0].models[0].meshes = {quad, tri};
    const srcmdltest::Files made = srcmdltest::build(spec);
    struct Input {
        std::string name;
        std::vector<uint8_t> bytes;
        fuzz::Outcome (*run)(std::span<const uint8_t>);
        int header;
    };
    std::vector<Input> inputs = {{"hand-made.mdl", made.mdl, &fuzz::runSourceMdl, 240},
                                 {"hand-made.vvd", made.vvd, &fuzz::runVvd, 64},
                                 {"hand-made.vtx", made.vtx, &fuzz::runVtx, 36},
                                 {"sp_0.vhv", srcprops::vhvFile(), &fuzz::runVhv, 96}};
    for (const char* model : {"beer/wiremod/gate_e2", "bull/gates/logic"}) {
        const std::pair<const char*, fuzz::Outcome (*)(std::span<const uint8_t>)> kinds[] = {
            {".mdl", &fuzz::runSourceMdl}, {".vvd", &fuzz::runVvd}, {".dx90.vtx", &fuzz::runVtx}};
        for (const auto& [ext, run] : kinds) {
            auto bytes = core::readFile(wire / (std::string(model) + ext));
            ASSERT_TRUE(bytes.ok()) << model << ext;
            inputs.push_back({std::string(model) + ext, std::move(*bytes), run, 240});
        }
    }
    for (const Input& in : inputs) {
        const auto t0 = std::chrono::steady_clock::now();
        robust::Tally tally(in.name);
        const fuzz::Outcome original = in.run(in.bytes);
        ASSERT_TRUE(original.accepted) << in.name << ": " << original.error.message();
        ASSERT_TRUE(original.violation.empty()) << in.name << ": " << original.violation;
        robust::BlobOptions bo;
        bo.seed = 0x5eed0b00;
        bo.header_bytes = in.header;
        runBlob(tally, in.bytes, bo, in.run);
        tally.print(secondsSince(t0));
        EXPECT_LT(tally.accepted(), tally.total()) << in.name;
    }
}

TEST(ContentMutations, SourcePropLumps) {
    // Static prop lumps of the SDK 2013 layout, Left 4 Dead 2's and Strata's 13, and a detail
    // prop lump, with their kind and version in front (fuzz::runPropLumps).
    std::vector<std::pair<std::string, std::vector<uint8_t>>> inputs;
    auto add = [&](const std::string& name, uint8_t kind, uint16_t version,
                   const std::vector<uint8_t>& lump) {
        std::vector<uint8_t> b = {kind, uint8_t(version & 0xff), uint8_t(version >> 8)};
        b.insert(b.end(), lump.begin(), lump.end());
        inputs.emplace_back(name, std::move(b));
    };
    add("sprp v10 SDK 2013", 0, 10, srcprops::sprpLump(10, 3, true));
    add("sprp v9", 0, 9, srcprops::sprpLump(9, 3));
    add("sprp v13", 0, 13, srcprops::sprpLump(13, 3));
    std::vector<uint8_t> dprp;
    srcprops::put<int32_t>(dprp, 1);
    srcprops::putName(dprp, "models/grass.mdl");
    srcprops::put<int32_t>(dprp, 1);
    dprp.resize(dprp.size() + 32, 0);
    srcprops::put<int32_t>(dprp, 2);
    for (int k = 0; k < 2; ++k) {
        const size_t at = dprp.size();
        dprp.resize(at + 52, 0);
        dprp[at + 44] = uint8_t(k); // a model, then a sprite
        dprp[at + 48 + 3] = 0x3f;   // scale 0.5
    }
    add("dprp v4", 1, 4, dprp);
    for (const auto& [name, bytes] : inputs) {
        const auto t0 = std::chrono::steady_clock::now();
        robust::Tally tally(name);
        ASSERT_TRUE(fuzz::runPropLumps(bytes).accepted) << name;
        robust::BlobOptions bo;
        bo.seed = 0x5eed0c00;
        bo.header_bytes = 300;
        runBlob(tally, bytes, bo, &fuzz::runPropLumps);
        tally.print(secondsSince(t0));
        EXPECT_LT(tally.accepted(), tally.total()) << name;
    }
}
