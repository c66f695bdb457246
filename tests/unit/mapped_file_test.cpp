// core::MappedFile: a whole file seen in place (mapped) with readFile's bytes and errors; a
// moved-from file keeps nothing, the one moved to keeps the bytes; an entry replaced by rename
// while mapped (as the texture cache stores entries) leaves the mapped bytes as they were.
#include "core/file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

fs::path scratch(const std::string& name) {
    const fs::path dir =
        fs::temp_directory_path() / ("bspv_mapped_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

void writeBytes(const fs::path& p, const std::string& bytes) {
    std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes;
}

std::string textOf(std::span<const uint8_t> b) {
    return std::string(b.begin(), b.end());
}

} // namespace

TEST(MappedFile, SeesTheBytesReadFileReads) {
    const fs::path dir = scratch("bytes");
    std::string bytes;
    for (int i = 0; i < 300000; ++i)
        bytes.push_back(static_cast<char>((i * 7919) & 0xff));
    writeBytes(dir / "a.bin", bytes);
    auto mapped = core::MappedFile::open(dir / "a.bin");
    ASSERT_TRUE(mapped) << mapped.error().message();
    EXPECT_TRUE(mapped->mapped());
    auto read = core::readFile(dir / "a.bin");
    ASSERT_TRUE(read);
    ASSERT_EQ(mapped->bytes().size(), read->size());
    EXPECT_TRUE(std::equal(read->begin(), read->end(), mapped->bytes().begin()));

    core::MappedFile moved = std::move(*mapped);
    EXPECT_TRUE(mapped->bytes().empty());
    EXPECT_FALSE(mapped->mapped());
    EXPECT_EQ(textOf(moved.bytes()), bytes);

    // Replaced by rename while mapped: the mapping still shows the old bytes.
    writeBytes(dir / "b.bin", "new");
    fs::rename(dir / "b.bin", dir / "a.bin");
    EXPECT_EQ(textOf(moved.bytes()), bytes);
    auto again = core::MappedFile::open(dir / "a.bin");
    ASSERT_TRUE(again);
    EXPECT_EQ(textOf(again->bytes()), "new");
    fs::remove_all(dir);
}

TEST(MappedFile, EmptyMissingAndFolderAsReadFileAnswers) {
    const fs::path dir = scratch("errors");
    writeBytes(dir / "empty.bin", "");
    auto empty = core::MappedFile::open(dir / "empty.bin");
    ASSERT_TRUE(empty);
    EXPECT_TRUE(empty->bytes().empty());
    EXPECT_FALSE(empty->mapped());

    auto missing = core::MappedFile::open(dir / "nope.bin");
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().code, core::ErrorCode::FileOpen);
    EXPECT_NE(missing.error().message().find("nope.bin"), std::string::npos);

    auto folder = core::MappedFile::open(dir);
    ASSERT_FALSE(folder);
    EXPECT_EQ(folder.error().code, core::ErrorCode::FileOpen);
    fs::remove_all(dir);
}
