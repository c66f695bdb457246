#include "bsp/vis.h"

#include "bsp/dropped.h"
#include "bsp/lump_table.h"

#include <algorithm>
#include <cstring>
#include <string_view>

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

core::Status readClusterVisibility(Map& map, const core::ByteReader& vis) {
    if (vis.size() == 0)
        return core::okStatus();
    constexpr std::string_view kNoVis = "drawn without vis (every cluster potentially visible)";
    DroppedReferences dropped;
    int32_t clusters = 0;
    if (!vis.read(0, clusters) || clusters < 0 || uint64_t(clusters) > (vis.size() - 4) / 8) {
        dropped.add(core::makeError(core::ErrorCode::BadVis, "visibility", -1, "numclusters",
                                    std::to_string(clusters) + " clusters do not fit " +
                                        std::to_string(vis.size()) + " bytes"),
                    kNoVis);
        dropped.flush(map);
        return core::okStatus();
    }
    for (size_t i = 0; i < map.leaves.size(); ++i)
        if (map.leaves[i].cluster >= clusters) {
            dropped.add(indexError("leafs", int64_t(i), "cluster", map.leaves[i].cluster,
                                   uint64_t(clusters), "clusters"),
                        kNoVis);
            dropped.flush(map);
            return core::okStatus();
        }
    if (clusters == 0)
        return core::okStatus();
    const uint64_t row_size = (uint64_t(clusters) + 7) / 8;
    if (row_size * uint64_t(clusters) > kMaxVisBytes) {
        map.warnings.push_back("visibility: too many clusters; drawing without vis");
        return core::okStatus();
    }
    map.vis.num_clusters = clusters;
    map.vis.row_size = int32_t(row_size);
    map.vis.rows.assign(row_size * uint64_t(clusters), 0);
    constexpr std::string_view kSeesAll = "the cluster sees every cluster";
    for (int32_t c = 0; c < clusters; ++c) {
        const int32_t ofs = vis.i32(4 + uint64_t(c) * 8);
        const std::span<uint8_t> row(map.vis.rows.data() + uint64_t(c) * row_size, row_size);
        if (ofs < 0 || uint64_t(ofs) >= vis.size()) {
            dropped.add(core::makeError(core::ErrorCode::BadVis, "visibility", c, "bitofs",
                                        "offset " + std::to_string(ofs) + " beyond " +
                                            std::to_string(vis.size()) + " bytes"),
                        kSeesAll);
            std::fill(row.begin(), row.end(), uint8_t(0xff));
        } else if (!decompressVisRow(vis, uint64_t(ofs), row)) {
            dropped.add(core::makeError(core::ErrorCode::BadVis, "visibility", c, "bitofs",
                                        "row at " + std::to_string(ofs) + " runs past the lump"),
                        kSeesAll);
            std::fill(row.begin(), row.end(), uint8_t(0xff));
        }
    }
    dropped.flush(map);
    return core::okStatus();
}

} // namespace bsp
