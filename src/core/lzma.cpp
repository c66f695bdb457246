#include "core/lzma.h"

#include <lzma.h>

#include <cstring>
#include <string>

namespace core {

namespace {

constexpr uint8_t kId[4] = {'L', 'Z', 'M', 'A'};
// liblzma's memory limit for one decoder: the dictionary of any real block is far smaller.
constexpr uint64_t kDecoderMemLimit = 256ull * 1024 * 1024;

Error lzmaError(std::string detail) {
    return makeError(ErrorCode::BadArchive, "lzma", -1, {}, std::move(detail));
}

uint32_t le32(const uint8_t* p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

void putLe32(uint8_t* p, uint64_t v) {
    for (int i = 0; i < 4; ++i)
        p[i] = uint8_t(v >> (8 * i));
}

} // namespace

bool isValveLzma(std::span<const uint8_t> data) {
    return data.size() >= 4 && std::memcmp(data.data(), kId, 4) == 0;
}

Result<std::vector<uint8_t>> decodeValveLzma(std::span<const uint8_t> data) {
    if (data.size() < kValveLzmaHeaderSize || !isValveLzma(data))
        return lzmaError("no LZMA header in " + std::to_string(data.size()) + " bytes");
    const uint32_t actual = le32(data.data() + 4);
    const uint32_t packed = le32(data.data() + 8);
    if (actual > kMaxLzmaOutput)
        return lzmaError("uncompressed size " + std::to_string(actual) + " beyond the limit of " +
                         std::to_string(kMaxLzmaOutput));
    if (packed > data.size() - kValveLzmaHeaderSize)
        return lzmaError("compressed size " + std::to_string(packed) + " beyond the " +
                         std::to_string(data.size() - kValveLzmaHeaderSize) + " bytes present");
    // An .lzma stream header: the five property bytes, then the uncompressed size (64-bit).
    std::vector<uint8_t> in(13 + size_t(packed));
    std::memcpy(in.data(), data.data() + 12, 5);
    putLe32(in.data() + 5, actual);
    std::memcpy(in.data() + 13, data.data() + kValveLzmaHeaderSize, packed);

    std::vector<uint8_t> out(actual);
    lzma_stream s = LZMA_STREAM_INIT;
    if (lzma_alone_decoder(&s, kDecoderMemLimit) != LZMA_OK)
        return lzmaError("cannot start the decoder");
    s.next_in = in.data();
    s.avail_in = in.size();
    s.next_out = out.data();
    s.avail_out = out.size();
    lzma_ret r = lzma_code(&s, LZMA_FINISH);
    const size_t produced = out.size() - s.avail_out;
    lzma_end(&s);
    if (r != LZMA_STREAM_END && !(r == LZMA_OK && produced == actual))
        return lzmaError("corrupt data (liblzma error " + std::to_string(int(r)) + ") after " +
                         std::to_string(produced) + " of " + std::to_string(actual) + " bytes");
    if (produced != actual)
        return lzmaError("data ends after " + std::to_string(produced) + " of " +
                         std::to_string(actual) + " bytes");
    return out;
}

Result<std::vector<uint8_t>> encodeValveLzma(std::span<const uint8_t> data) {
    if (data.size() > kMaxLzmaOutput)
        return lzmaError("input too large");
    lzma_options_lzma opt;
    if (lzma_lzma_preset(&opt, 6))
        return lzmaError("no preset");
    lzma_stream s = LZMA_STREAM_INIT;
    if (lzma_alone_encoder(&s, &opt) != LZMA_OK)
        return lzmaError("cannot start the encoder");
    std::vector<uint8_t> alone(data.size() + data.size() / 2 + 1024);
    s.next_in = data.data();
    s.avail_in = data.size();
    s.next_out = alone.data();
    s.avail_out = alone.size();
    const lzma_ret r = lzma_code(&s, LZMA_FINISH);
    const size_t produced = alone.size() - s.avail_out;
    lzma_end(&s);
    if (r != LZMA_STREAM_END || produced < 13)
        return lzmaError("encoder failed (liblzma error " + std::to_string(int(r)) + ")");
    // .lzma: properties (5), size (8), data. Valve: id, actual, packed, properties, data.
    const size_t packed = produced - 13;
    std::vector<uint8_t> out(kValveLzmaHeaderSize + packed);
    std::memcpy(out.data(), kId, 4);
    putLe32(out.data() + 4, data.size());
    putLe32(out.data() + 8, packed);
    std::memcpy(out.data() + 12, alone.data(), 5);
    std::memcpy(out.data() + kValveLzmaHeaderSize, alone.data() + 13, packed);
    return out;
}

Result<std::vector<uint8_t>> decodeZipLzma(std::span<const uint8_t> member,
                                           uint64_t uncompressed_size) {
    constexpr size_t kZipLzmaHeader = 9; // version (2), properties size (2), properties (5)
    if (member.size() < kZipLzmaHeader)
        return lzmaError("zip LZMA member of " + std::to_string(member.size()) +
                         " bytes is shorter than its 9-byte header");
    const unsigned props = unsigned(member[2]) | unsigned(member[3]) << 8;
    if (props != 5)
        return lzmaError("zip LZMA properties size " + std::to_string(props) + " is not 5");
    if (uncompressed_size > kMaxLzmaOutput)
        return lzmaError("uncompressed size " + std::to_string(uncompressed_size) +
                         " beyond the limit of " + std::to_string(kMaxLzmaOutput));
    // The same stream as a Valve block: id, actual size, packed size, properties, data.
    const size_t packed = member.size() - kZipLzmaHeader;
    std::vector<uint8_t> block(kValveLzmaHeaderSize + packed);
    std::memcpy(block.data(), kId, 4);
    putLe32(block.data() + 4, uncompressed_size);
    putLe32(block.data() + 8, packed);
    std::memcpy(block.data() + 12, member.data() + 4, 5);
    std::memcpy(block.data() + kValveLzmaHeaderSize, member.data() + kZipLzmaHeader, packed);
    return decodeValveLzma(block);
}

uint32_t crc32(std::span<const uint8_t> data, uint32_t crc) {
    return lzma_crc32(data.data(), data.size(), crc);
}

} // namespace core
