// What blob mutations of the fuzz table's inputs (table_mutations_test.cpp) do not reach:
// mutations of an archive's directory entries (a .pak, a .pk3), and hostile texts built here
// (long runs of one token, huge counts, unterminated quotes and comments, NULs) for the text
// formats. Each is accepted or rejected with a proper core::Error, never a crash.
#include "robust/mutate.h"
#include "robust/table_inputs.h"
#include "robust/tally.h"

#include "bsp/load.h"
#include "content/vfs/vfs.h"
#include "core/file.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>

namespace fs = std::filesystem;

namespace {

const fs::path kMaps = BSPV_SHARED_MAPS_DIR;

double secondsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void runBlob(robust::Tally& tally, std::span<const uint8_t> bytes, robust::BlobOptions options,
             fuzz::Outcome (*run)(std::span<const uint8_t>)) {
    robust::blobMutations(bytes, options, [&](std::string_view label, std::span<const uint8_t> b) {
        tally.check(label, b, run);
    });
}

std::span<const uint8_t> bytesOf(const std::string& s) {
    return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
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

TEST(ContentMutations, Pk3Directory) {
    const std::vector<uint8_t> pk3 = robust::madeInput("made.pk3");
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
    tally.print(secondsSince(t0));
    EXPECT_LT(tally.accepted(), tally.total());
}

TEST(ContentMutations, EntityTextEdgeCases) {
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

TEST(ContentMutations, PortalFileEdgeCases) {
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

TEST(ContentMutations, LeakFileEdgeCases) {
    robust::Tally edges("leak edge cases");
    for (const std::string& s : {std::string(1 << 20, '\n'), std::string(1 << 20, '1'),
                                 std::string("1e38 -1e38 1e38\n-1e38 1e38 -1e38\n"),
                                 std::string("0 0 0\n0 0 0\n0 0 0\n")}) {
        edges.check("edge", bytesOf(s), &fuzz::runLeakFile);
    }
    edges.print(0.0);
}

TEST(ContentMutations, WalkScriptEdgeCases) {
    robust::Tally edges("walk script edge cases");
    for (const std::string& s :
         {std::string(1 << 20, '\n'), std::string(1 << 20, '9'),
          std::string("wait ") + std::string(1 << 16, '9'), std::string("turn 1e39\n"),
          std::string("wait 3600\nwait 0.01\n"), std::string(4096, '\0')}) {
        edges.check("edge", bytesOf(s), &fuzz::runWalkScript);
    }
    edges.print(0.0);
}

TEST(ContentMutations, CameraTextEdgeCases) {
    // The go-to field's text (scene/view/camera_text.h).
    robust::Tally edges("camera text edge cases");
    for (const std::string& s :
         {std::string(1 << 16, '9'), std::string("1e39 0 0"), std::string("nan 0 0 0 0"),
          std::string("setpos 1 2 3;setpos 1 2 3"), std::string("(1 2 3"), std::string(";;;"),
          std::string("setang 1e6 1e6 1e6"), std::string(600, ' ') + "1 2 3"}) {
        edges.check("edge", bytesOf(s), &fuzz::runCameraText);
    }
    edges.print(0.0);
}

TEST(ContentMutations, SteamLibraryEdgeCases) {
    // libraryfolders.vdf (content/vfs/game_install.h): deep nesting, runs of one token.
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

TEST(ContentMutations, Quake3SkinEdgeCases) {
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

TEST(ContentMutations, VmtTextEdgeCases) {
    robust::Tally edges("vmt edge cases");
    for (const std::string& s :
         {std::string(1 << 16, '{'), "s " + std::string(1 << 16, '{'), std::string(1 << 16, '"'),
          std::string("s { [") + std::string(4096, '!'), std::string(4096, '\0')})
        edges.check("edge", bytesOf(s), &fuzz::runVmt);
    edges.print(0.0);
}

} // namespace
