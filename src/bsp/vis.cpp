#include "bsp/vis.h"

#include <algorithm>
#include <cstring>

namespace bsp {

bool decompressVisRow(const core::ByteReader& data, uint64_t offset, std::span<uint8_t> out) {
    size_t o = 0;
    uint64_t i = offset;
    const auto bytes = data.bytes();
    while (o < out.size()) {
        if (i >= bytes.size()) {
            std::fill(out.begin() + static_cast<std::ptrdiff_t>(o), out.end(), 0);
            return false;
        }
        const uint8_t b = bytes[i++];
        if (b != 0) {
            out[o++] = b;
            continue;
        }
        if (i >= bytes.size()) {
            std::fill(out.begin() + static_cast<std::ptrdiff_t>(o), out.end(), 0);
            return false;
        }
        const size_t run = std::min<size_t>(bytes[i++], out.size() - o);
        std::memset(out.data() + o, 0, run);
        o += run;
    }
    return true;
}

} // namespace bsp
