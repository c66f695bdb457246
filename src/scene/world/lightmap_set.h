// The lightmap pages a map is drawn with, built beside the parsed map (which stays as read):
// its own pages, or the images q3map2 -external wrote beside it, with q3map2 -deluxe light
// direction maps split off. The renderer uploads `pages` as one array texture (and `deluxe`
// as a second) and never learns where they came from.
//
// The rules are DarkPlaces' (model_brush.c, Mod_Q3BSP_LoadLightmaps and Mod_Q3BSP_LoadFaces),
// the engine q3map2's external and deluxe maps were made for; ioquake3's opengl2 renderer
// (tr_bsp.c R_LoadLightmaps) reads no lm_ images and detects deluxe maps more loosely.
//   - External images: with an empty lightmap lump, maps/NAME/lm_0000, lm_0001, ... (any image
//     extension) are read until the first that is missing. lm_0000 sets the page size; an
//     image of another size ends the list there, as a missing one does. Faces naming a number
//     past the end are drawn with their vertex colours (DarkPlaces: "invalid lightmapindex").
//   - Deluxe maps: the worldspawn key decides; without it a map is deluxe when its page count
//     is even and every lit face names an even page whose partner exists, unless only page 0
//     is used and page 1 is black (q3map2 writes a blank second page now and then).
//   - Texels are taken as they are, internal or external: q3map2 writes the same bytes to
//     both (lightmaps_ydnar.c StoreSurfaceLightmaps), so the map-overbright shift applies alike.
#pragma once

#include "bsp/map.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace content {
class FileSystem;
}

namespace scene {

// Most external images looked for: q3map2 numbers them with four digits.
inline constexpr int32_t kMaxExternalLightmaps = 10000;

struct LightmapSet {
    bsp::LightmapStorage storage = bsp::LightmapStorage::InMap;
    int32_t width = 0, height = 0;        // of every page
    std::vector<bsp::LightmapPage> pages; // light, RGB8, width * height * 3 bytes each
    // Light direction per page (q3map2 -deluxe), parallel to `pages`; empty when the map has
    // none. RGB8 as q3map2 wrote it: a unit direction mapped from [-1,1] to [0,255].
    std::vector<bsp::LightmapPage> deluxe;
    bool deluxe_tangent_space = false; // worldspawn "deluxeMaps" "2"
    // Per map page number (bsp::Face::lightmap_page): its page here, -1 when it has none.
    std::vector<int32_t> page_of;
    // External: the images that became pages (light and direction alike), in number order.
    std::vector<std::string> files;
    // The page a face naming map page number `number` is drawn with; -1: vertex colours.
    int32_t pageOf(int32_t number) const {
        if (number < 0 || static_cast<size_t>(number) >= page_of.size())
            return -1;
        return page_of[static_cast<size_t>(number)];
    }
};

// Faces that name a lightmap page the set does not have (an external image missing or cut
// off); they fall back to vertex colours.
int64_t facesWithoutPages(const bsp::Map& map, const LightmapSet& set);

// One line for the UI and logs: "none", "12 pages of 128x128", "17 pages of 512x512 from
// external images (maps/x/lm_NNNN), deluxe maps (model space)".
std::string describeLightmaps(const LightmapSet& set);

// The map's own pages, deluxe maps split off (q3map2's odd pages), or taken from
// bsp::Map::deluxe_pages (Quake 1 BSPX LIGHTINGDIR / .lux, tangent space). No files are read.
LightmapSet lightmapsInMap(const bsp::Map& map);

// The lightmap set of `map`: lightmapsInMap, or for bsp::LightmapStorage::External the images
// `base`/lm_NNNN (base: the map's virtual path without ".bsp", "maps/nexdm01") read through
// `fs` and decoded by content::decodeImage. Problems (a missing, corrupt or differently sized
// image, faces naming numbers past the end) append a warning naming the file to `warnings`;
// the faces concerned fall back to their vertex colours. Never fails.
LightmapSet loadLightmapSet(const bsp::Map& map, const content::FileSystem& fs,
                            std::string_view base, std::vector<std::string>* warnings);

} // namespace scene
