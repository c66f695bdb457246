#include "bsp/lightmap_atlas.h"

#include <algorithm>
#include <string>

namespace bsp {

LightmapAtlas::LightmapAtlas(int32_t page_width, int32_t page_height)
    : m_width(std::clamp(page_width, 1, 32768)), m_height(std::clamp(page_height, 1, 32768)) {}

core::Result<AtlasPlacement> LightmapAtlas::insert(int32_t w, int32_t h) {
    if (w <= 0 || h <= 0 || w > m_width || h > m_height)
        return core::makeError(core::ErrorCode::BadArgument, "lightmap atlas", -1, "block",
                               "block " + std::to_string(w) + "x" + std::to_string(h) +
                                   " does not fit a " + std::to_string(m_width) + "x" +
                                   std::to_string(m_height) + " page");

    // Best existing shelf: least height waste; ties go to the earlier page and shelf.
    int32_t best_page = -1, best_shelf = -1, best_waste = m_height + 1;
    for (size_t p = 0; p < m_pages.size(); ++p) {
        const Page& page = m_pages[p];
        for (size_t s = 0; s < page.shelves.size(); ++s) {
            const Shelf& shelf = page.shelves[s];
            if (shelf.height < h || m_width - shelf.used_width < w)
                continue;
            const int32_t waste = shelf.height - h;
            if (waste < best_waste) {
                best_waste = waste;
                best_page = static_cast<int32_t>(p);
                best_shelf = static_cast<int32_t>(s);
            }
        }
        if (best_waste == 0)
            break;
    }
    // A shelf much taller than the block wastes more than a new shelf would; open a new one
    // when some page still has the vertical room.
    if (best_page >= 0 && best_waste > h) {
        for (size_t p = 0; p < m_pages.size(); ++p)
            if (m_height - m_pages[p].used_height >= h) {
                best_page = -1;
                break;
            }
    }
    if (best_page >= 0) {
        Shelf& shelf = m_pages[best_page].shelves[best_shelf];
        AtlasPlacement out{best_page, static_cast<uint16_t>(shelf.used_width),
                           static_cast<uint16_t>(shelf.y)};
        shelf.used_width += w;
        return out;
    }
    for (size_t p = 0; p < m_pages.size(); ++p) {
        Page& page = m_pages[p];
        if (m_height - page.used_height < h)
            continue;
        page.shelves.push_back(Shelf{page.used_height, h, w});
        page.used_height += h;
        return AtlasPlacement{static_cast<int32_t>(p), 0,
                              static_cast<uint16_t>(page.shelves.back().y)};
    }
    if (static_cast<int32_t>(m_pages.size()) >= max_pages)
        return core::makeError(core::ErrorCode::LimitExceeded, "lightmap atlas", -1, "pages",
                               "more than " + std::to_string(max_pages) + " lightmap pages");
    Page page;
    page.shelves.push_back(Shelf{0, h, w});
    page.used_height = h;
    m_pages.push_back(std::move(page));
    return AtlasPlacement{static_cast<int32_t>(m_pages.size() - 1), 0, 0};
}

} // namespace bsp
