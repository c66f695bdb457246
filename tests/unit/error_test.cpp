#include "core/byte_reader.h"
#include "core/error.h"
#include "core/result.h"

#include <gtest/gtest.h>

TEST(Error, MessageNamesFileLumpIndexAndField) {
    core::Error e = core::makeError(core::ErrorCode::IndexOutOfRange, "faces", 42, "meshvert",
                                    "range 900+6 beyond 880 meshverts");
    e.file = "crypt.bsp";
    EXPECT_EQ(e.message(), "crypt.bsp: faces[42].meshvert: range 900+6 beyond 880 meshverts");
    EXPECT_EQ(core::errorCodeName(e.code), "IndexOutOfRange");
}

TEST(Error, MessageWithoutContextUsesDefaultText) {
    core::Error e = core::makeError(core::ErrorCode::UnknownFormat);
    EXPECT_EQ(e.message(), "unrecognised header");
}

TEST(Result, HoldsValueOrError) {
    core::Result<int> a = 5;
    ASSERT_TRUE(a.ok());
    EXPECT_EQ(*a, 5);
    core::Result<int> b = core::makeError(core::ErrorCode::Truncated);
    ASSERT_FALSE(b.ok());
    EXPECT_EQ(b.error().code, core::ErrorCode::Truncated);
}

TEST(ByteReader, RejectsReadsThatWouldWrapOrOverrun) {
    const uint8_t bytes[8] = {1, 0, 0, 0, 2, 0, 0, 0};
    core::ByteReader r(bytes);
    EXPECT_EQ(r.u32(0), 1u);
    EXPECT_EQ(r.u32(4), 2u);
    uint32_t v = 0;
    EXPECT_FALSE(r.read(5, v));
    EXPECT_FALSE(r.inRange(UINT64_MAX - 2, 4));
    EXPECT_FALSE(r.inRange(4, UINT64_MAX));
    std::vector<uint32_t> out;
    EXPECT_FALSE(r.readArray(0, 3, out));
    EXPECT_FALSE(r.readArray(0, UINT64_MAX / 2, out));
    EXPECT_TRUE(r.readArray(0, 2, out));
    EXPECT_EQ(out[1], 2u);
    EXPECT_EQ(r.sub(6, 4).size(), 0u);
}

TEST(ByteReader, ReadsUnalignedValues) {
    const uint8_t bytes[9] = {0xff, 0x78, 0x56, 0x34, 0x12, 0, 0, 0, 0};
    core::ByteReader r(bytes);
    EXPECT_EQ(r.u32(1), 0x12345678u);
}

TEST(ByteReader, FixedStringStopsAtNulAndField) {
    const char text[8] = {'a', 'b', 'c', '\0', 'x', 'y', 'z', 'w'};
    core::ByteReader r(std::span(reinterpret_cast<const uint8_t*>(text), 8));
    EXPECT_EQ(r.fixedString(0, 8), "abc");
    EXPECT_EQ(r.fixedString(4, 4), "xyzw");
    EXPECT_EQ(r.fixedString(6, 4), "");
}
