#include "core/inflate.h"

#include <libdeflate.h>

#include <memory>
#include <string>

namespace core {

namespace {

Error inflateError(std::string detail) {
    return makeError(ErrorCode::BadArchive, "deflate", -1, {}, std::move(detail));
}

struct DecompressorFree {
    void operator()(libdeflate_decompressor* d) const { libdeflate_free_decompressor(d); }
};

// One decompressor per thread (libdeflate's are not shared between threads; making one costs
// an allocation of some 30 kB).
libdeflate_decompressor* threadDecompressor() {
    thread_local std::unique_ptr<libdeflate_decompressor, DecompressorFree> d(
        libdeflate_alloc_decompressor());
    return d.get();
}

} // namespace

Result<std::vector<uint8_t>> inflateZipMember(std::span<const uint8_t> packed,
                                              uint64_t uncompressed_size, uint32_t crc) {
    if (uncompressed_size > kMaxInflateOutput)
        return inflateError("uncompressed size " + std::to_string(uncompressed_size) +
                            " beyond the limit of " + std::to_string(kMaxInflateOutput));
    if (uncompressed_size > uint64_t(packed.size()) * kMaxDeflateRatio + kDeflateSlack)
        return inflateError("uncompressed size " + std::to_string(uncompressed_size) +
                            " beyond what " + std::to_string(packed.size()) +
                            " deflate bytes can hold (1032:1)");
    libdeflate_decompressor* d = threadDecompressor();
    if (!d)
        return inflateError("cannot allocate a decompressor");
    std::vector<uint8_t> out(static_cast<size_t>(uncompressed_size));
    size_t produced = 0;
    // libdeflate wants a non-null output even for an empty member.
    uint8_t none = 0;
    const libdeflate_result r = libdeflate_deflate_decompress(
        d, packed.data(), packed.size(), out.empty() ? &none : out.data(), out.size(), &produced);
    switch (r) {
    case LIBDEFLATE_SUCCESS:
        break;
    case LIBDEFLATE_BAD_DATA:
        return inflateError("corrupt deflate data");
    case LIBDEFLATE_INSUFFICIENT_SPACE:
        return inflateError("deflate data holds more than the " +
                            std::to_string(uncompressed_size) + " bytes of its directory entry");
    default:
        return inflateError("deflate data fails (libdeflate result " + std::to_string(int(r)) +
                            ")");
    }
    if (produced != out.size())
        return inflateError("deflate data holds " + std::to_string(produced) + " bytes, not the " +
                            std::to_string(uncompressed_size) + " of its directory entry");
    if (fastCrc32(out) != crc)
        return inflateError("member fails its CRC check");
    return out;
}

uint32_t fastCrc32(std::span<const uint8_t> data, uint32_t crc) {
    return libdeflate_crc32(crc, data.data(), data.size());
}

} // namespace core
