// Zip members stored with LZMA (method 14), as Valve's bspzip writes pakfile members: read
// through the pakfile path (FileSystem::addEmbeddedArchive) whether or not libzip decodes LZMA.
#include "content/vfs/vfs.h"
#include "core/lzma.h"

#include <gtest/gtest.h>
#include <zip.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

// Written by Python's zipfile (ZIP_LZMA, which sets the end-marker flag and writes the marker):
// one member "materials/brick/wall.vmt" of 46 bytes, 64 bytes packed at offset 54 (9 of them
// the LZMA header: version 9.4, properties size 5, properties 5d 00 00 80 00), CRC d051a54e
// in the central directory at offset 134.
const std::vector<uint8_t> kLzmaZip = {
    0x50, 0x4b, 0x03, 0x04, 0x3f, 0x00, 0x02, 0x00, 0x0e, 0x00, 0x00, 0x00, 0x21, 0x50, 0x4e,
    0xa5, 0x51, 0xd0, 0x40, 0x00, 0x00, 0x00, 0x2e, 0x00, 0x00, 0x00, 0x18, 0x00, 0x00, 0x00,
    0x6d, 0x61, 0x74, 0x65, 0x72, 0x69, 0x61, 0x6c, 0x73, 0x2f, 0x62, 0x72, 0x69, 0x63, 0x6b,
    0x2f, 0x77, 0x61, 0x6c, 0x6c, 0x2e, 0x76, 0x6d, 0x74, 0x09, 0x04, 0x05, 0x00, 0x5d, 0x00,
    0x00, 0x80, 0x00, 0x00, 0x26, 0x1a, 0x48, 0xe6, 0xa8, 0x16, 0xd5, 0x2d, 0xf8, 0x76, 0xca,
    0xe1, 0x9f, 0x5e, 0x2b, 0x58, 0x3b, 0xd0, 0x8e, 0xa8, 0xd2, 0xd1, 0x2d, 0xc0, 0xa3, 0xbc,
    0x7a, 0x7d, 0x7a, 0x54, 0x13, 0x48, 0x88, 0xe0, 0x85, 0xba, 0x90, 0x84, 0xe4, 0x98, 0xc8,
    0xb1, 0xee, 0xce, 0x09, 0x11, 0xea, 0x52, 0xff, 0xff, 0xe6, 0x08, 0x80, 0x00, 0x50, 0x4b,
    0x01, 0x02, 0x3f, 0x03, 0x3f, 0x00, 0x02, 0x00, 0x0e, 0x00, 0x00, 0x00, 0x21, 0x50, 0x4e,
    0xa5, 0x51, 0xd0, 0x40, 0x00, 0x00, 0x00, 0x2e, 0x00, 0x00, 0x00, 0x18, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x01, 0x00, 0x00, 0x00, 0x00, 0x6d,
    0x61, 0x74, 0x65, 0x72, 0x69, 0x61, 0x6c, 0x73, 0x2f, 0x62, 0x72, 0x69, 0x63, 0x6b, 0x2f,
    0x77, 0x61, 0x6c, 0x6c, 0x2e, 0x76, 0x6d, 0x74, 0x50, 0x4b, 0x05, 0x06, 0x00, 0x00, 0x00,
    0x00, 0x01, 0x00, 0x01, 0x00, 0x46, 0x00, 0x00, 0x00, 0x76, 0x00, 0x00, 0x00, 0x00, 0x00,
};
const char kMember[] = "materials/brick/wall.vmt";
const std::string kText = "LightmappedGeneric { $basetexture brick/wall }";

core::Result<std::vector<uint8_t>> readFromPakfile(std::vector<uint8_t> zip) {
    content::FileSystem fs;
    if (auto st = fs.addEmbeddedArchive(std::move(zip), "x.bsp", "pakfile (x.bsp)"); !st)
        return st.error();
    return fs.readChecked(kMember);
}

TEST(ZipLzma, PakfileMemberDecodes) {
    ASSERT_EQ(kLzmaZip.size(), 210u);
    // Debian's libzip 1.7.3 is built without liblzma; the member is decoded by core/lzma.h
    // then. Either way the bytes must come out.
    RecordProperty("libzip_lzma", zip_compression_method_supported(ZIP_CM_LZMA, 0));
    auto data = readFromPakfile(kLzmaZip);
    ASSERT_TRUE(data) << data.error().message();
    EXPECT_EQ(std::string(data->begin(), data->end()), kText);
}

TEST(ZipLzma, CorruptDataAndCrcAreErrorsNamingTheMember) {
    std::vector<uint8_t> bad = kLzmaZip;
    bad[54 + 9 + 20] ^= 0x40; // inside the LZMA data
    auto data = readFromPakfile(bad);
    ASSERT_FALSE(data);
    EXPECT_EQ(data.error().code, core::ErrorCode::BadArchive);
    EXPECT_NE(data.error().message().find(kMember), std::string::npos) << data.error().message();

    bad = kLzmaZip;
    bad[134] ^= 1; // the central directory's CRC
    data = readFromPakfile(bad);
    ASSERT_FALSE(data);
    EXPECT_EQ(data.error().code, core::ErrorCode::BadArchive);
    EXPECT_NE(data.error().message().find("CRC"), std::string::npos) << data.error().message();
}

TEST(ZipLzma, DecodeZipLzmaChecksItsHeader) {
    const std::vector<uint8_t> member(kLzmaZip.begin() + 54, kLzmaZip.begin() + 54 + 64);
    auto ok = core::decodeZipLzma(member, 46);
    ASSERT_TRUE(ok) << ok.error().message();
    EXPECT_EQ(core::crc32(*ok), 0xd051a54eu);
    EXPECT_EQ(core::crc32(std::vector<uint8_t>{'1', '2', '3', '4', '5', '6', '7', '8', '9'}),
              0xcbf43926u); // the CRC-32 check value
    std::vector<uint8_t> bad = member;
    bad[2] = 4; // properties size
    EXPECT_EQ(core::decodeZipLzma(bad, 46).error().code, core::ErrorCode::BadArchive);
    EXPECT_FALSE(core::decodeZipLzma(std::span(member).first(8), 46));
    EXPECT_FALSE(core::decodeZipLzma(member, 47)); // the data ends 1 byte early
    EXPECT_FALSE(core::decodeZipLzma(member, uint64_t(core::kMaxLzmaOutput) + 1));
}

} // namespace
