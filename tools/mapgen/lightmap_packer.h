// Shelf packing of rectangular lightmap blocks into fixed-size square pages.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace mapgen {

struct PackedBlock {
    int32_t page = -1; // -1: the block does not fit in an empty page
    int32_t x = 0;
    int32_t y = 0;
};

// Places blocks of the given sizes (width, height in texels) without overlap into pages of
// page_size x page_size texels and returns one placement per block, in input order.
// Blocks are placed tallest first (ties by width, then input order), left to right on
// shelves; a new page starts when a shelf does not fit. Deterministic for equal input.
std::vector<PackedBlock> packBlocks(const std::vector<std::pair<int32_t, int32_t>>& sizes,
                                    int32_t page_size, int32_t* num_pages);

} // namespace mapgen
