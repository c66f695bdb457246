#include "bsp/cube_maps.h"

#include "core/byte_reader.h"
#include "core/error.h"

#include <string>

namespace bsp {

core::Result<std::vector<CubeMapSample>> parseCubeMapSamples(std::span<const uint8_t> lump) {
    constexpr const char* kLump = "cubemaps";
    std::vector<CubeMapSample> samples;
    if (lump.size() % kCubeMapSampleBytes != 0)
        return core::makeError(core::ErrorCode::LumpSize, kLump, -1, {},
                               std::to_string(lump.size()) + " bytes is not a multiple of " +
                                   std::to_string(kCubeMapSampleBytes));
    const uint64_t count = lump.size() / kCubeMapSampleBytes;
    if (count > kMaxCubeMapSamples)
        return core::makeError(core::ErrorCode::LimitExceeded, kLump, -1, {},
                               std::to_string(count) + " samples, at most " +
                                   std::to_string(kMaxCubeMapSamples) +
                                   " (MAX_MAP_CUBEMAPSAMPLES)");
    const core::ByteReader r(lump);
    samples.resize(count);
    for (uint64_t i = 0; i < count; ++i) {
        const uint64_t at = i * kCubeMapSampleBytes;
        CubeMapSample& s = samples[i];
        s.origin = {r.i32(at), r.i32(at + 4), r.i32(at + 8)};
        s.size = r.u8(at + 12); // bytes 13-15 are the struct's padding
        if (s.size > kMaxCubeMapSizeField)
            return core::makeError(core::ErrorCode::BadValue, kLump, int64_t(i), "size",
                                   std::to_string(s.size) + ", at most " +
                                       std::to_string(kMaxCubeMapSizeField) +
                                       " (a side of 1 << (size - 1) texels)");
    }
    return samples;
}

} // namespace bsp
