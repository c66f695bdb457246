// Test helper: rewrites a Quake 2 IBSP 38 file as the re-release's QBSP 38 (every 16-bit
// index/count widened to 32 bits, node/leaf bounds as floats), so the QBSP reader can be checked
// against the IBSP reader on the same maps. Optional padding moves indices past 65535, which
// only the QBSP layout can hold. Expects a well-formed IBSP file (test input only).
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

namespace qbsp_test {

struct ConvertOptions {
    // Dummy vertices inserted before the real ones (edges are shifted to match), so edge
    // vertex numbers exceed 65535 when this is 65536 or more.
    uint32_t vertex_padding = 0;
    // Leaffaces entries (face 0) inserted before the real ones (leafs' firstleafface shifted).
    uint32_t leafface_padding = 0;
};

namespace detail {

template <class T> T load(const std::vector<uint8_t>& b, size_t at) {
    T v{};
    std::memcpy(&v, b.data() + at, sizeof(T));
    return v;
}

template <class T> void append(std::vector<uint8_t>& out, T v) {
    const auto* p = reinterpret_cast<const uint8_t*>(&v);
    out.insert(out.end(), p, p + sizeof(T));
}

// Widens `count` int16/uint16 fields at `at` (signed keeps -1 as 0xffffffff).
inline void widen(std::vector<uint8_t>& out, const std::vector<uint8_t>& in, size_t at, int count,
                  bool is_signed, uint32_t add = 0) {
    for (int k = 0; k < count; ++k) {
        const size_t p = at + size_t(k) * 2;
        const int32_t v =
            is_signed ? int32_t(load<int16_t>(in, p)) : int32_t(load<uint16_t>(in, p));
        append(out, uint32_t(v) + add);
    }
}

inline void boundsToFloat(std::vector<uint8_t>& out, const std::vector<uint8_t>& in, size_t at) {
    for (int k = 0; k < 6; ++k)
        append(out, float(load<int16_t>(in, at + size_t(k) * 2)));
}

} // namespace detail

inline std::vector<uint8_t> ibspToQbsp(const std::vector<uint8_t>& in, ConvertOptions opt = {}) {
    using namespace detail;
    constexpr int kLumps = 19;
    std::vector<std::vector<uint8_t>> lumps(kLumps);
    for (int i = 0; i < kLumps; ++i) {
        const uint32_t ofs = load<uint32_t>(in, 8 + size_t(i) * 8);
        const uint32_t len = load<uint32_t>(in, 12 + size_t(i) * 8);
        const std::vector<uint8_t> src(in.begin() + ofs, in.begin() + ofs + len);
        std::vector<uint8_t>& out = lumps[size_t(i)];
        switch (i) {
        case 2: // vertexes
            out.assign(size_t(opt.vertex_padding) * 12, 0);
            out.insert(out.end(), src.begin(), src.end());
            break;
        case 4: // nodes: planenum, children[2], bounds, firstface, numfaces
            for (size_t at = 0; at + 28 <= src.size(); at += 28) {
                out.insert(out.end(), src.begin() + long(at), src.begin() + long(at) + 12);
                boundsToFloat(out, src, at + 12);
                widen(out, src, at + 24, 2, false);
            }
            break;
        case 6: // faces: planenum, side, firstedge, numedges, texinfo, styles, lightofs
            for (size_t at = 0; at + 20 <= src.size(); at += 20) {
                widen(out, src, at, 1, false);
                widen(out, src, at + 2, 1, true);
                append(out, load<int32_t>(src, at + 4));
                widen(out, src, at + 8, 2, true);
                out.insert(out.end(), src.begin() + long(at) + 12, src.begin() + long(at) + 20);
            }
            break;
        case 8: // leafs: contents, cluster, area, bounds, 4 x first/num
            for (size_t at = 0; at + 28 <= src.size(); at += 28) {
                append(out, load<uint32_t>(src, at));
                widen(out, src, at + 4, 2, true);
                boundsToFloat(out, src, at + 8);
                widen(out, src, at + 20, 1, false, opt.leafface_padding);
                widen(out, src, at + 22, 3, false);
            }
            break;
        case 9: // leaffaces
            for (uint32_t k = 0; k < opt.leafface_padding; ++k)
                append(out, uint32_t(0));
            widen(out, src, 0, int(src.size() / 2), false);
            break;
        case 10: // leafbrushes
            widen(out, src, 0, int(src.size() / 2), false);
            break;
        case 11: // edges
            widen(out, src, 0, int(src.size() / 2), false, opt.vertex_padding);
            break;
        case 15: // brushsides: planenum, texinfo (-1: none)
            for (size_t at = 0; at + 4 <= src.size(); at += 4) {
                widen(out, src, at, 1, false);
                widen(out, src, at + 2, 1, true);
            }
            break;
        default:
            out = src;
        }
    }
    std::vector<uint8_t> file = {'Q', 'B', 'S', 'P'};
    append(file, int32_t(38));
    uint32_t offset = 8 + kLumps * 8;
    for (const auto& l : lumps) {
        append(file, offset);
        append(file, uint32_t(l.size()));
        offset += uint32_t(l.size());
    }
    for (const auto& l : lumps)
        file.insert(file.end(), l.begin(), l.end());
    return file;
}

} // namespace qbsp_test
