// The texture browser (Windows > Textures, issue 33): every texture the map's faces use once,
// with a thumbnail, the number of faces that show it, where it came from (embedded, WAD, pak,
// pk3, folder) or "missing" in red, a filter, and "highlight" to tint the faces using the
// selected one in the view. The rows are GL-free (textureRows); the panel takes thumbnails as
// ImGui texture ids from the caller.
#pragma once

#include "scene/load/map_bundle.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace app {

struct TextureRow {
    std::string name;                // as the map names it
    std::vector<uint32_t> materials; // bsp::Map::materials sharing the name (any case)
    uint32_t faces = 0;              // faces of those materials
    bool missing = false;
    std::string source; // file, or the reason it is missing
    std::string origin; // archive or folder it was found in
    int width = 0, height = 0;
};

// One row per texture name (case-insensitive), in the map's order; tool textures that are
// never drawn (nodraw) left out.
std::vector<TextureRow> textureRows(const scene::MapBundle& bundle);

class TextureBrowser {
public:
    void setMap(const scene::MapBundle* bundle);
    // `thumbnail(material)`: the GL texture of a material (0: none). Draws nothing when closed.
    void draw(bool* open, const std::function<unsigned(uint32_t)>& thumbnail);
    const std::vector<TextureRow>& rows() const { return m_rows; }
    // The selected row (-1: none) and whether its faces are tinted in the view.
    int selected() const { return m_selected; }
    void select(int row);
    bool highlighting() const { return m_highlight; }
    void setHighlight(bool on);
    // The faces to tint this frame (empty unless highlighting a row).
    const std::vector<uint32_t>& highlightFaces() const { return m_faces; }

private:
    void refreshFaces();

    const scene::MapBundle* m_bundle = nullptr;
    std::vector<TextureRow> m_rows;
    int m_selected = -1;
    bool m_highlight = false;
    std::vector<uint32_t> m_faces;
    char m_filter[96] = {};
    bool m_only_missing = false;
};

} // namespace app
