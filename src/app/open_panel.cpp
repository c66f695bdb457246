#include "app/open_panel.h"

#include "app/ui_layout.h"
#include "content/vfs/vfs.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace app {

namespace fs = std::filesystem;

void OpenPanel::showFor(const std::string& spec) {
    m_visible = true;
    m_focus_filter = true;
    std::snprintf(m_path, sizeof m_path, "%s", spec.c_str());
    if (!m_browser_ready && !spec.empty()) {
        const content::MapLocation where(spec);
        m_browser.open(where.file().parent_path());
        m_browser_ready = true;
    }
}

void OpenPanel::showGameFolders() {
    m_visible = true;
    m_game_folders_open = true;
}

OpenPanelActions OpenPanel::draw(Settings& settings,
                                 const std::vector<std::string>& search_path_maps,
                                 const std::vector<content::DetectedGame>& detected) {
    OpenPanelActions actions;
    if (!m_visible)
        return actions;
    if (!m_browser_ready) {
        m_browser.open(fs::current_path());
        m_browser_ready = true;
    }
    ImGui::SetNextWindowBgAlpha(1.0f); // a dialog: the overlay behind it must not show through
    if (!beginPanel("Open map", &m_visible,
                    {{0.5f, 0.0f}, {0.0f, 40.0f}, {0.5f, 0.0f}, {640.0f, 600.0f}})) {
        ImGui::End();
        return actions;
    }
    ImGui::TextUnformatted("Path (a .bsp, or ARCHIVE.pk3:maps/NAME.bsp):");
    ImGui::SetNextItemWidth(-80);
    const bool enter =
        ImGui::InputText("##path", m_path, sizeof m_path, ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    if (ImGui::Button("Open") || enter)
        actions.load = std::string(m_path);
    drawBrowser(settings, actions);
    if (ImGui::CollapsingHeader("Maps in the search paths")) {
        ImGui::BeginChild("search_maps", ImVec2(0, 120), true);
        for (const std::string& spec : search_path_maps)
            if (ImGui::Selectable(spec.c_str()))
                actions.load = spec;
        ImGui::EndChild();
    }
    drawGameFolders(settings, actions, detected);
    ImGui::End();
    if (actions.load) {
        addRecentFolder(settings.recent_folders, m_browser.folder().string(), kMaxRecentFolders);
        m_visible = false; // a dialog: done once a map is chosen (Ctrl+O brings it back)
        actions.settings_changed = true;
    }
    return actions;
}

void OpenPanel::drawBrowser(Settings& settings, OpenPanelActions& actions) {
    ImGui::Separator();
    if (ImGui::Button("Up"))
        m_browser.up();
    ImGui::SameLine();
    if (ImGui::Button("Refresh"))
        m_browser.refresh();
    ImGui::SameLine();
    ImGui::SetNextItemWidth(110);
    if (ImGui::Combo("##sort", &m_sort, "by name\0by date\0"))
        m_browser.setSort(m_sort == 0 ? BrowserSort::Name : BrowserSort::Date);
    ImGui::SameLine();
    if (!settings.recent_folders.empty()) {
        ImGui::SetNextItemWidth(-1);
        if (ImGui::BeginCombo("##recent_folders", "recent folders")) {
            for (const std::string& folder : settings.recent_folders)
                if (ImGui::Selectable(folder.c_str()))
                    m_browser.open(folder);
            ImGui::EndCombo();
        }
    }
    ImGui::TextDisabled("%s", m_browser.folder().string().c_str());
    // Type to filter, Up/Down to select, Enter to open, Backspace (empty filter) to go up.
    if (m_focus_filter) {
        ImGui::SetKeyboardFocusHere();
        m_focus_filter = false;
    }
    ImGui::SetNextItemWidth(-1);
    if (ImGui::InputTextWithHint("##filter", "type to filter", m_filter, sizeof m_filter))
        m_browser.setFilter(m_filter);
    // Enter ends the text field's edit (it is no longer active this frame): caught as the
    // deactivation with Enter down.
    const bool enter_pressed = ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter)) ||
                               ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_KeyPadEnter));
    if (ImGui::IsItemActive() || (ImGui::IsItemDeactivated() && enter_pressed)) {
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_UpArrow)))
            m_browser.moveSelection(-1);
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_DownArrow)))
            m_browser.moveSelection(1);
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Backspace)) && m_filter[0] == 0 &&
            m_browser.filter().empty())
            m_browser.up();
        if (enter_pressed) {
            std::string spec = m_browser.activate();
            m_filter[0] = 0;
            m_browser.setFilter({});
            if (!spec.empty())
                actions.load = std::move(spec);
            m_focus_filter = true; // keep typing after entering a folder
        }
    }
    ImGui::BeginChild("browser", ImVec2(0, 240), true);
    const auto& entries = m_browser.entries();
    for (size_t i = 0; i < entries.size(); ++i) {
        const BrowserEntry& e = entries[i];
        if (e.kind == BrowserEntry::Kind::Error) {
            ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", e.label.c_str());
            continue;
        }
        const bool selected = static_cast<int>(i) == m_browser.selected();
        if (ImGui::Selectable(e.label.c_str(), selected, ImGuiSelectableFlags_AllowDoubleClick)) {
            m_browser.select(static_cast<int>(i));
            const bool folder =
                e.kind == BrowserEntry::Kind::Folder || e.kind == BrowserEntry::Kind::Parent;
            if (folder || ImGui::IsMouseDoubleClicked(0)) {
                std::string spec = m_browser.activate();
                if (!spec.empty())
                    actions.load = std::move(spec);
                m_filter[0] = 0;
                break; // the listing changed
            }
        }
        if (selected)
            ImGui::SetScrollHereY();
    }
    ImGui::EndChild();
}

void OpenPanel::drawDetected(Settings& settings, OpenPanelActions& actions,
                             const std::vector<content::DetectedGame>& detected) {
    ImGui::Separator();
    if (ImGui::Checkbox("also search the detected folders of the map's game",
                        &settings.use_detected_games))
        actions.settings_changed = true;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("A Quake map gets the Quake folders below, a Half-Life map the\n"
                          "Half-Life ones, and so on: nothing to type.");
    if (detected.empty()) {
        ImGui::TextDisabled("no game folders found (Steam libraries, /usr/share/games, ...)");
        return;
    }
    ImGui::TextUnformatted("Found on this computer:");
    for (size_t i = 0; i < detected.size(); ++i) {
        const content::DetectedGame& g = detected[i];
        const std::string folder = g.folder.string();
        const bool added = std::find(settings.game_folders.begin(), settings.game_folders.end(),
                                     folder) != settings.game_folders.end();
        ImGui::PushID(static_cast<int>(i) + 10000);
        ImGui::BeginDisabled(added || settings.game_folders.size() >= kMaxGameFolders);
        if (ImGui::SmallButton(added ? "added" : "add")) {
            settings.game_folders.push_back(folder);
            actions.settings_changed = true;
        }
        ImGui::EndDisabled();
        ImGui::SameLine();
        ImGui::Text("%s: %s", g.game.c_str(), folder.c_str());
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s", g.found_by.c_str());
        ImGui::PopID();
    }
}

void OpenPanel::drawGameFolders(Settings& settings, OpenPanelActions& actions,
                                const std::vector<content::DetectedGame>& detected) {
    ImGui::SetNextItemOpen(m_game_folders_open || settings.game_folders.empty() ? true : false,
                           m_game_folders_open ? ImGuiCond_Always : ImGuiCond_Once);
    m_game_folders_open = false;
    if (!ImGui::CollapsingHeader("Game folders (textures and models for every map)"))
        return;
    ImGui::TextWrapped("Searched after the map's own folder, in this order, by every open "
                       "(like --base). Saved in the config.");
    int remove = -1;
    for (size_t i = 0; i < settings.game_folders.size(); ++i) {
        ImGui::PushID(static_cast<int>(i));
        if (ImGui::SmallButton("remove"))
            remove = static_cast<int>(i);
        ImGui::SameLine();
        std::error_code ec;
        const bool exists = fs::is_directory(settings.game_folders[i], ec);
        if (exists)
            ImGui::TextUnformatted(settings.game_folders[i].c_str());
        else
            ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s (not a readable folder)",
                               settings.game_folders[i].c_str());
        ImGui::PopID();
    }
    if (remove >= 0) {
        settings.game_folders.erase(settings.game_folders.begin() + remove);
        actions.settings_changed = true;
    }
    ImGui::SetNextItemWidth(-200);
    const bool enter =
        ImGui::InputTextWithHint("##new_folder", "a game folder (baseq3, id1, ...)", m_new_folder,
                                 sizeof m_new_folder, ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    std::string add;
    if ((ImGui::Button("Add") || enter) && m_new_folder[0])
        add = m_new_folder;
    ImGui::SameLine();
    if (ImGui::Button("Add browsed folder"))
        add = m_browser.folder().string();
    if (!add.empty() && settings.game_folders.size() < kMaxGameFolders &&
        std::find(settings.game_folders.begin(), settings.game_folders.end(), add) ==
            settings.game_folders.end()) {
        settings.game_folders.push_back(add);
        actions.settings_changed = true;
        m_new_folder[0] = 0;
    }
    drawDetected(settings, actions, detected);
}

} // namespace app
