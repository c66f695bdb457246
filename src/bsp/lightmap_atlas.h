// Rectangle packing for lightmap pages.
//
// A shelf packer: each page is cut into horizontal shelves; a block goes onto the open shelf
// that fits it with the least wasted height (first such shelf on the lowest page), otherwise
// a new shelf is opened on the first page with room, otherwise a new page is started. The
// result depends only on the order of insert() calls, so the same map always packs the same
// way. All pages share one size (map.h: one array texture on the GPU).
//
// Quake lightmap blocks are small (at most a few hundred texels across even with four styles
// side by side), so shelves waste little and the cost per block is O(pages * shelves).
#pragma once

#include "core/result.h"

#include <cstdint>
#include <vector>

namespace bsp {

inline constexpr int32_t kLightmapPageSize = 1024;

struct AtlasPlacement {
    int32_t page = 0;
    uint16_t x = 0;
    uint16_t y = 0;
};

class LightmapAtlas {
public:
    // page_width and page_height are clamped to [1, 32768].
    LightmapAtlas(int32_t page_width, int32_t page_height);

    // Places a block of w x h texels. Fails with BadArgument for an empty block or one larger
    // than a page, and with LimitExceeded when max_pages would be passed.
    core::Result<AtlasPlacement> insert(int32_t w, int32_t h);

    int32_t pageWidth() const { return m_width; }
    int32_t pageHeight() const { return m_height; }
    int32_t pageCount() const { return static_cast<int32_t>(m_pages.size()); }

    // Bound on pages a hostile file can make us allocate (each page is width*height*3 bytes).
    int32_t max_pages = 64;

private:
    struct Shelf {
        int32_t y = 0;
        int32_t height = 0;
        int32_t used_width = 0;
    };
    struct Page {
        std::vector<Shelf> shelves;
        int32_t used_height = 0;
    };

    int32_t m_width;
    int32_t m_height;
    std::vector<Page> m_pages;
};

} // namespace bsp
