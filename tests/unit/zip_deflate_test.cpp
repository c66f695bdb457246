// Zip members stored with deflate (method 8), read raw and inflated by libdeflate
// (core/inflate.h): the bytes zlib (through libzip) gives, the directory's CRC checked, and a
// damaged member an error naming the archive and the member.
#include "content/vfs/vfs.h"
#include "content_test_util.h"
#include "core/inflate.h"
#include "core/lzma.h"

#include <gtest/gtest.h>
#include <libdeflate.h>
#include <zip.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace {

using content_test::Bytes;
using content_test::TempDir;

// Text-like bytes (repeats a compressor finds) followed by noise (which it cannot shrink).
std::string mixedPayload(size_t text, size_t noise, uint32_t seed) {
    std::mt19937 rng(seed);
    std::string out;
    out.reserve(text + noise);
    const char* words[] = {"textures/", "base_wall/", "concrete", ".jpg ", "{ map $lightmap }\n"};
    while (out.size() < text)
        out += words[rng() % 5];
    out.resize(text);
    for (size_t i = 0; i < noise; ++i)
        out.push_back(static_cast<char>(rng() & 0xff));
    return out;
}

Bytes deflateWith(const Bytes& data, int level) {
    std::unique_ptr<libdeflate_compressor, void (*)(libdeflate_compressor*)> c(
        libdeflate_alloc_compressor(level), libdeflate_free_compressor);
    Bytes out(libdeflate_deflate_compress_bound(c.get(), data.size()));
    const size_t n =
        libdeflate_deflate_compress(c.get(), data.data(), data.size(), out.data(), out.size());
    out.resize(n);
    return out;
}

TEST(Inflate, StreamsOfEveryLevelComeBackWithTheirCrc) {
    for (const std::string& text : {std::string(), std::string("q"), mixedPayload(100000, 0, 1),
                                    mixedPayload(0, 70000, 2), mixedPayload(300000, 50000, 3)}) {
        const Bytes data = content_test::bytesOf(text);
        const uint32_t crc = core::crc32(data);
        EXPECT_EQ(core::fastCrc32(data), crc) << data.size();
        for (int level : {0, 1, 6, 12}) {
            const Bytes packed = deflateWith(data, level);
            auto out = core::inflateZipMember(packed, data.size(), crc);
            ASSERT_TRUE(out) << data.size() << " level " << level << ": " << out.error().message();
            EXPECT_EQ(*out, data) << data.size() << " level " << level;
        }
    }
}

TEST(Inflate, DamagedStreamsAndWrongSizesAreErrors) {
    const Bytes data = content_test::bytesOf(mixedPayload(50000, 1000, 4));
    const uint32_t crc = core::crc32(data);
    const Bytes packed = deflateWith(data, 6);
    const auto errorOf = [&](std::span<const uint8_t> p, uint64_t size, uint32_t c) {
        auto r = core::inflateZipMember(p, size, c);
        EXPECT_FALSE(r) << size;
        if (r)
            return std::string();
        EXPECT_EQ(r.error().code, core::ErrorCode::BadArchive);
        return r.error().message();
    };
    // Cut short: the stream ends inside a block.
    EXPECT_NE(errorOf(std::span(packed).first(packed.size() / 2), data.size(), crc)
                  .find("corrupt deflate data"),
              std::string::npos);
    // The directory claims more bytes than the stream holds, or fewer.
    EXPECT_NE(errorOf(packed, data.size() + 1, crc)
                  .find("holds " + std::to_string(data.size()) + " bytes, not the " +
                        std::to_string(data.size() + 1)),
              std::string::npos);
    EXPECT_NE(errorOf(packed, data.size() - 1, crc).find("holds more than the"), std::string::npos);
    // The right bytes under another CRC.
    EXPECT_NE(errorOf(packed, data.size(), crc ^ 1).find("CRC"), std::string::npos);
    // A hostile size is refused before anything is allocated for it.
    EXPECT_NE(errorOf(packed, core::kMaxInflateOutput + 1, crc).find("beyond the limit"),
              std::string::npos);
    // More than DEFLATE's best ratio can give from these bytes: refused before allocating.
    EXPECT_NE(errorOf(std::span(packed).first(16),
                      16 * core::kMaxDeflateRatio + core::kDeflateSlack + 1, crc)
                  .find("beyond what 16 deflate bytes can hold"),
              std::string::npos);
    // The bound holds for the most compressible data there is: 8 MB of zeros at libdeflate's
    // strongest level.
    const Bytes zeros(8u << 20, 0);
    const Bytes packed_zeros = deflateWith(zeros, 12);
    auto unpacked = core::inflateZipMember(packed_zeros, zeros.size(), core::crc32(zeros));
    ASSERT_TRUE(unpacked) << packed_zeros.size() << ": " << unpacked.error().message();
    EXPECT_EQ(unpacked->size(), zeros.size());
    // Garbage that is no deflate stream at all.
    const Bytes junk(64, 0xff);
    EXPECT_FALSE(core::inflateZipMember(junk, 100, 0));
}

// Every member of a zip that libzip wrote (zlib deflate) reads back through the libdeflate path
// as the bytes libzip itself inflates.
TEST(Inflate, Pk3MembersEqualWhatLibzipInflates) {
    TempDir tmp;
    const content_test::Files files = {{"maps/big.bsp", mixedPayload(1 << 20, 200000, 5)},
                                       {"scripts/a.shader", mixedPayload(5000, 0, 6)},
                                       {"noise.bin", mixedPayload(0, 30000, 7)},
                                       {"empty.txt", ""}};
    content_test::writeZip(tmp / "z.pk3", files);
    content::FileSystem vfs;
    ASSERT_TRUE(vfs.addArchive(tmp / "z.pk3"));
    int err = 0;
    zip_t* z = zip_open((tmp / "z.pk3").string().c_str(), ZIP_RDONLY, &err);
    ASSERT_NE(z, nullptr);
    int deflated = 0;
    for (const auto& [name, text] : files) {
        zip_stat_t st;
        ASSERT_EQ(zip_stat(z, name.c_str(), 0, &st), 0) << name;
        deflated += st.comp_method == ZIP_CM_DEFLATE;
        Bytes by_libzip(st.size);
        zip_file_t* f = zip_fopen(z, name.c_str(), 0);
        ASSERT_NE(f, nullptr) << name;
        ASSERT_EQ(zip_fread(f, by_libzip.data(), by_libzip.size()),
                  static_cast<zip_int64_t>(st.size));
        zip_fclose(f);
        auto ours = vfs.readChecked(name);
        ASSERT_TRUE(ours) << name << ": " << ours.error().message();
        EXPECT_EQ(*ours, by_libzip) << name;
        EXPECT_EQ(*ours, content_test::bytesOf(text)) << name;
    }
    zip_discard(z);
    // The three members with bytes are deflated (the path under test), the empty one may not be.
    EXPECT_GE(deflated, 3);
}

// Offsets of the CRC fields of a one-member zip: the local header's (14) and the central
// directory entry's (16 past its signature).
size_t centralCrcOffset(const Bytes& zip) {
    for (size_t i = 0; i + 4 <= zip.size(); ++i)
        if (std::memcmp(zip.data() + i, "PK\x01\x02", 4) == 0)
            return i + 16;
    return 0;
}

TEST(Inflate, AWrongCrcIsAnErrorNamingArchiveAndMember) {
    TempDir tmp;
    content_test::writeZip(tmp / "crc.pk3", {{"maps/m.bsp", mixedPayload(40000, 100, 8)}});
    auto bytes = core::readFile(tmp / "crc.pk3");
    ASSERT_TRUE(bytes);
    const size_t central = centralCrcOffset(*bytes);
    ASSERT_GT(central, 0u);
    (*bytes)[14] ^= 0x01;
    (*bytes)[central] ^= 0x01;
    content_test::writeBytes(tmp / "crc.pk3", *bytes);
    content::FileSystem vfs;
    ASSERT_TRUE(vfs.addArchive(tmp / "crc.pk3"));
    auto r = vfs.readChecked("maps/m.bsp");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, core::ErrorCode::BadArchive);
    const std::string message = r.error().message();
    EXPECT_NE(message.find("crc.pk3"), std::string::npos) << message;
    EXPECT_NE(message.find("maps/m.bsp"), std::string::npos) << message;
    EXPECT_NE(message.find("CRC"), std::string::npos) << message;
}

} // namespace
