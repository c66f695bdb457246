// The Export panel (File > Export): a file path whose extension picks the format (.glb, .gltf,
// .obj), the lighting mode, --export-all and the scale. It only asks; the viewer writes the map
// on screen (its current patch level) through exporter::exportMap.
//
// Issue 33: the file goes to a folder outside the game's (the last folder exported to, else
// the user's documents, settings.h defaultExportFolder), a folder that does not exist is created
// only after the user says so (and a file that does is replaced likewise), asked inside the
// panel; the result stays under the button; nothing can be exported before a map is open.
#pragma once

#include "export/export_scene.h"

#include <filesystem>
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
    // Opens the panel with MAPNAME.glb in `folder`, keeping a path the user typed since.
    void showFor(const std::string& map_spec, const std::filesystem::path& folder);
    // The request when the export was asked (and confirmed) this frame. `status` is the last
    // export's result; `has_map` false disables the button.
    std::optional<ExportRequest> draw(const std::string& status, bool has_map);
    // What the panel is asking the user ("" when nothing): tests and the notice.
    const std::string& question() const { return m_question; }
    // Answers the question as its buttons do (tests).
    std::optional<ExportRequest> answer(bool yes);
    // Presses Export (tests): a request, or a question when a confirmation is needed.
    std::optional<ExportRequest> press();
    const char* path() const { return m_path; }

    // The default file for a map spec in `folder`: "maps/e1m1.bsp" -> folder/e1m1.glb,
    // "pak0.pk3:maps/q3dm1.bsp" -> folder/q3dm1.glb.
    static std::string defaultPathFor(const std::string& map_spec,
                                      const std::filesystem::path& folder);

private:
    ExportRequest request() const;

    bool m_visible = false;
    bool m_typed = false; // the user changed the path: showFor keeps it
    char m_path[1024] = {};
    int m_lighting = 0; // exporter::ExportLighting
    bool m_all = false;
    float m_scale = 0.0254f;
    std::string m_question; // a folder to create or a file to replace, waiting for yes/no
};

} // namespace app
