// The Export panel (the overlay's "Export..." button): a file path whose extension picks the
// format (.glb, .gltf, .obj), the lighting mode, --export-all and the scale. It only asks; the
// viewer writes the map on screen (its current patch level) through exporter::exportMap.
#pragma once

#include "export/export_scene.h"

#include <optional>
#include <string>

namespace app {

struct ExportRequest {
    std::string path;
    exporter::ExportOptions options; // patch_level 0: the mesh on screen
};

class ExportPanel {
public:
    bool& visible() { return m_visible; }
    // Opens the panel with OUT.glb beside `map_path` (a loose map; for a pk3 member, the
    // archive's folder) the first time, keeping what the user typed afterwards.
    void showFor(const std::string& map_path);
    // The request when the Export button was pressed this frame. `status` is shown under the
    // button (the last export's result).
    std::optional<ExportRequest> draw(const std::string& status);

    // The default file for a map spec: "maps/e1m1.bsp" -> "maps/e1m1.glb",
    // "pak0.pk3:maps/q3dm1.bsp" -> "q3dm1.glb" beside pak0.pk3.
    static std::string defaultPathFor(const std::string& map_spec);

private:
    bool m_visible = false;
    char m_path[1024] = {};
    int m_lighting = 0; // exporter::ExportLighting
    bool m_all = false;
    float m_scale = 0.0254f;
};

} // namespace app
