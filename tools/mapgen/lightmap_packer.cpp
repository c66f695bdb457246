#include "lightmap_packer.h"

#include <algorithm>
#include <numeric>

namespace mapgen {

std::vector<PackedBlock> packBlocks(const std::vector<std::pair<int32_t, int32_t>>& sizes,
                                    int32_t page_size, int32_t* num_pages) {
    std::vector<PackedBlock> out(sizes.size());
    std::vector<size_t> order(sizes.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        if (sizes[a].second != sizes[b].second)
            return sizes[a].second > sizes[b].second;
        return sizes[a].first > sizes[b].first;
    });
    int32_t page = -1, x = 0, y = 0, shelf_h = 0;
    for (size_t i : order) {
        const auto [w, h] = sizes[i];
        if (w <= 0 || h <= 0 || w > page_size || h > page_size)
            continue;                         // stays page -1
        if (page >= 0 && x + w > page_size) { // next shelf
            y += shelf_h;
            x = 0;
            shelf_h = 0;
        }
        if (page < 0 || y + h > page_size) { // next page
            ++page;
            x = 0;
            y = 0;
            shelf_h = 0;
        }
        out[i] = {page, x, y};
        x += w;
        shelf_h = std::max(shelf_h, h);
    }
    if (num_pages)
        *num_pages = page + 1;
    return out;
}

} // namespace mapgen
