// VPK archives: the directory parser (content/vfs/vpk.h) with hand-computed offsets, and mounting
// through content::FileSystem (preload bytes, the directory file's own data, NAME_NNN.vpk).
#include "content/vfs/vpk.h"

#include "content/vfs/vfs.h"
#include "content_test_util.h"
#include "vpk_builder.h"

#include <gtest/gtest.h>

namespace {

using content_test::TempDir;
using content_test::writeBytes;
using vpk_test::buildVpk;
using vpk_test::Bytes;
using vpk_test::sampleFiles;

std::string text(const Bytes& b) {
    return std::string(b.begin(), b.end());
}

// Tree of sampleFiles(): "vmt\0" (4) "materials/brick\0" (16) "wall\0" (5) record (18) preload
// (4) two list ends (2) = 49; vtf: 4 + 16 + 5 + 18 + 2 = 45; txt: 4 + " \0" (2) + "readme\0" (7)
// + 18 + preload 2 + 2 = 35; the final list end 1. 49 + 45 + 35 + 1 = 130.
constexpr uint64_t kTree = 130;

TEST(Vpk, Version1DirectoryHasHandComputedOffsets) {
    const auto built = buildVpk(sampleFiles(), 1);
    ASSERT_EQ(built.dir.size(), 12 + kTree + 3); // header, tree, "cde"
    auto dir = content::parseVpkDirectory(built.dir, built.dir.size(), "pak01_dir.vpk");
    ASSERT_TRUE(dir) << dir.error().message();
    EXPECT_EQ(dir->version, 1u);
    EXPECT_EQ(dir->header_size, 12u);
    EXPECT_EQ(dir->tree_size, kTree);
    EXPECT_EQ(dir->data_offset, 142u);
    EXPECT_EQ(dir->data_size, 3u);
    ASSERT_EQ(dir->entries.size(), 3u);

    const content::VpkEntry& vmt = dir->entries[0];
    EXPECT_EQ(vmt.name, "materials/brick/wall.vmt");
    EXPECT_EQ(vmt.crc, 0x11223344u);
    EXPECT_EQ(vmt.preload_offset, 12u + 4 + 16 + 5 + 18); // 55
    EXPECT_EQ(vmt.preload_size, 4u);
    EXPECT_EQ(vmt.archive, content::kVpkDirArchive);
    EXPECT_EQ(vmt.size, 0u);
    EXPECT_EQ(vmt.totalSize(), 4u);

    const content::VpkEntry& vtf = dir->entries[1];
    EXPECT_EQ(vtf.name, "materials/brick/Wall.vtf");
    EXPECT_EQ(vtf.crc, 0x55667788u);
    EXPECT_EQ(vtf.preload_size, 0u);
    EXPECT_EQ(vtf.archive, 0u);
    EXPECT_EQ(vtf.offset, 2u);
    EXPECT_EQ(vtf.size, 5u);

    const content::VpkEntry& txt = dir->entries[2];
    EXPECT_EQ(txt.name, "readme.txt");                             // " " is the root folder
    EXPECT_EQ(txt.preload_offset, 12u + 49 + 45 + 4 + 2 + 7 + 18); // 137
    EXPECT_EQ(txt.preload_size, 2u);
    EXPECT_EQ(txt.offset, 142u); // 0 in the data after the tree
    EXPECT_EQ(txt.size, 3u);
}

TEST(Vpk, Version2HeaderSectionsAreSizedAndSkipped) {
    const auto built = buildVpk(sampleFiles(), 2);
    ASSERT_EQ(built.dir.size(), 28 + kTree + 3 + 48);
    auto dir = content::parseVpkDirectory(built.dir, built.dir.size(), "pak01_dir.vpk");
    ASSERT_TRUE(dir) << dir.error().message();
    EXPECT_EQ(dir->version, 2u);
    EXPECT_EQ(dir->header_size, 28u);
    EXPECT_EQ(dir->data_offset, 158u);
    EXPECT_EQ(dir->data_size, 3u); // the file data section, not the rest of the file
    ASSERT_EQ(dir->entries.size(), 3u);
    EXPECT_EQ(dir->entries[0].preload_offset, 28u + 43);
    EXPECT_EQ(dir->entries[2].offset, 158u);

    // The other MD5 section claims 49 bytes: one past the end of the file.
    Bytes bad = built.dir;
    content_test::putU32(bad, 20, 49);
    auto e = content::parseVpkDirectory(bad, bad.size(), "pak01_dir.vpk");
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error().code, core::ErrorCode::Truncated);
    EXPECT_EQ(e.error().lump, "header");
    EXPECT_EQ(e.error().file, "pak01_dir.vpk");

    bad = built.dir;
    content_test::putU32(bad, 16, 27); // archive MD5 entries are 28 bytes
    e = content::parseVpkDirectory(bad, bad.size(), "pak01_dir.vpk");
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error().code, core::ErrorCode::BadArchive);

    // The file data section shrunk to 2 bytes: readme.txt's 3 bytes no longer fit.
    bad = built.dir;
    content_test::putU32(bad, 12, 2);
    e = content::parseVpkDirectory(bad, bad.size(), "pak01_dir.vpk");
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error().code, core::ErrorCode::BadArchive);
    EXPECT_EQ(e.error().index, 2);
    EXPECT_NE(e.error().message().find("readme.txt"), std::string::npos) << e.error().message();
}

TEST(Vpk, HostileDirectoriesAreCleanErrors) {
    const auto built = buildVpk(sampleFiles(), 1);
    // Every truncated prefix: the tree or the embedded data no longer fits.
    for (size_t n = 0; n < built.dir.size(); ++n) {
        const std::span<const uint8_t> prefix(built.dir.data(), n);
        auto dir = content::parseVpkDirectory(prefix, n, "pak01_dir.vpk");
        ASSERT_FALSE(dir) << "prefix " << n;
        EXPECT_NE(dir.error().code, core::ErrorCode::Ok);
        EXPECT_FALSE(dir.error().message().empty());
    }
    Bytes bad = built.dir;
    content_test::putU32(bad, 4, 3);
    EXPECT_EQ(content::parseVpkDirectory(bad, bad.size(), "x").error().code,
              core::ErrorCode::UnsupportedVersion);
    bad = built.dir;
    bad[0] ^= 1;
    EXPECT_EQ(content::parseVpkDirectory(bad, bad.size(), "x").error().code,
              core::ErrorCode::BadArchive);

    // The second entry's part list does not end after one part (offset 12 + 49 + 4 + 16 + 5 +
    // 16 = 102).
    bad = built.dir;
    bad[102] = 0;
    auto e = content::parseVpkDirectory(bad, bad.size(), "pak01_dir.vpk");
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error().code, core::ErrorCode::BadArchive);
    EXPECT_EQ(e.error().lump, "tree");
    EXPECT_EQ(e.error().index, 1);
    EXPECT_NE(e.error().message().find("materials/brick/Wall.vtf"), std::string::npos);
    EXPECT_NE(e.error().message().find("terminator"), std::string::npos);

    // The first entry's preload claims 200 bytes (offset 12 + 4 + 16 + 5 + 4 = 41).
    bad = built.dir;
    bad[41] = 200;
    e = content::parseVpkDirectory(bad, bad.size(), "pak01_dir.vpk");
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error().code, core::ErrorCode::Truncated);
    EXPECT_EQ(e.error().index, 0);
}

TEST(Vpk, ArchiveNames) {
    EXPECT_TRUE(content::isVpkDirectoryName("tf/tf2_textures_DIR.vpk"));
    EXPECT_FALSE(content::isVpkDirectoryName("tf/tf2_textures_000.vpk"));
    EXPECT_FALSE(content::isVpkDirectoryName("_dir.vpk"));
    EXPECT_EQ(content::vpkArchivePath("tf/pak01_dir.vpk", 7),
              std::filesystem::path("tf/pak01_007.vpk"));
    EXPECT_EQ(content::vpkArchivePath("tf/pak01_dir.vpk", 123),
              std::filesystem::path("tf/pak01_123.vpk"));
}

void writeVpk(const TempDir& dir, const vpk_test::Built& built) {
    writeBytes(dir / "pak01_dir.vpk", built.dir);
    for (const auto& [index, bytes] : built.archives)
        writeBytes(content::vpkArchivePath(dir / "pak01_dir.vpk", index), bytes);
}

TEST(Vpk, FileSystemReadsPreloadDirectoryDataAndSiblings) {
    for (uint32_t version : {1u, 2u}) {
        TempDir tmp;
        const auto built = buildVpk(sampleFiles(), version);
        ASSERT_EQ(text(built.archives.at(0)), std::string("\0\0VTFDA", 7));
        writeVpk(tmp, built);
        content::FileSystem fs;
        ASSERT_TRUE(fs.addArchive(tmp / "pak01_dir.vpk"));
        EXPECT_EQ(text(*fs.readChecked("MATERIALS\\Brick/WALL.VMT")), "VMT!");
        EXPECT_EQ(text(*fs.readChecked("materials/brick/wall.vtf")), "VTFDA");
        EXPECT_EQ(text(*fs.readChecked("readme.txt")), "abcde");
        EXPECT_EQ(fs.sourceOf("materials/brick/wall.vtf"), "pak01_dir.vpk");
        EXPECT_EQ(fs.list("materials/", "vtf"),
                  std::vector<std::string>{"materials/brick/Wall.vtf"});
    }
}

TEST(Vpk, MissingOrShortDataFileFailsOnReadNamingIt) {
    TempDir tmp;
    const auto built = buildVpk(sampleFiles(), 1);
    writeBytes(tmp / "pak01_dir.vpk", built.dir);
    content::FileSystem fs;
    ASSERT_TRUE(fs.addArchive(tmp / "pak01_dir.vpk"));
    EXPECT_EQ(text(*fs.readChecked("materials/brick/wall.vmt")), "VMT!"); // preload only
    auto missing = fs.readChecked("materials/brick/wall.vtf");
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().code, core::ErrorCode::FileOpen);
    EXPECT_NE(missing.error().message().find("pak01_000.vpk"), std::string::npos)
        << missing.error().message();

    writeBytes(tmp / "pak01_000.vpk", Bytes{0, 0, 'V', 'T'}); // 7 bytes needed
    auto shorter = fs.readChecked("materials/brick/wall.vtf");
    ASSERT_FALSE(shorter);
    EXPECT_EQ(shorter.error().code, core::ErrorCode::BadArchive);
    EXPECT_NE(shorter.error().message().find("Wall.vtf"), std::string::npos);
}

TEST(Vpk, GameDirMountsDirectoryFilesNotDataFiles) {
    TempDir tmp;
    writeVpk(tmp, buildVpk(sampleFiles(), 2));
    content_test::writeText(tmp / "materials/brick/wall.vmt", "loose");
    content::FileSystem fs;
    ASSERT_TRUE(fs.addGameDir(tmp.path())); // pak01_000.vpk has no header: not mounted
    EXPECT_EQ(fs.sources().size(), 2u);
    EXPECT_EQ(fs.sources()[0], "pak01_dir.vpk");
    EXPECT_EQ(text(*fs.readChecked("materials/brick/wall.vmt")), "loose"); // loose overrides
    EXPECT_EQ(text(*fs.readChecked("materials/brick/wall.vtf")), "VTFDA");
    EXPECT_EQ(content::findGameDir(tmp / "x.bsp"), tmp.path());
}

} // namespace
