// The Open panel (Ctrl+O): a path field, the file browser (app/file_browser.h), recent folders,
// the maps found in the current map's search paths, and the game-folder setting (folders
// searched for textures and models by every open, saved in the config) with the game folders
// found on this computer.
#pragma once

#include "app/file_browser.h"
#include "app/settings.h"
#include "content/vfs/game_install.h"

#include <optional>
#include <string>
#include <vector>

namespace app {

struct OpenPanelActions {
    std::optional<std::string> load; // a map spec to open
    bool settings_changed = false;   // game or recent folders changed: save
};

class OpenPanel {
public:
    bool& visible() { return m_visible; }
    // Starts the browser in the folder of `spec` (the map on screen) the first time it opens.
    void showFor(const std::string& spec);
    // Opens the panel on the game folders (the missing-textures notice's button).
    void showGameFolders();
    // `detected`: game folders found on this computer (content::detectGameFolders), offered
    // under the game folders.
    OpenPanelActions draw(Settings& settings, const std::vector<std::string>& search_path_maps,
                          const std::vector<content::DetectedGame>& detected = {});

private:
    void drawBrowser(Settings& settings, OpenPanelActions& actions);
    void drawGameFolders(Settings& settings, OpenPanelActions& actions,
                         const std::vector<content::DetectedGame>& detected);
    void drawDetected(Settings& settings, OpenPanelActions& actions,
                      const std::vector<content::DetectedGame>& detected);

    bool m_visible = false;
    bool m_focus_filter = false;
    bool m_game_folders_open = false;
    FileBrowser m_browser;
    bool m_browser_ready = false;
    char m_path[1024] = {};
    char m_filter[256] = {};
    char m_new_folder[1024] = {};
    int m_sort = 0;
};

} // namespace app
