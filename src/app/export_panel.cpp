#include "app/export_panel.h"

#include "app/ui_layout.h"

#include <imgui.h>

#include <cstring>

namespace app {

namespace fs = std::filesystem;

std::string ExportPanel::defaultPathFor(const std::string& map_spec, const fs::path& folder) {
    // ARCHIVE.pk3:maps/NAME.bsp: the member's name.
    const size_t colon = map_spec.find(".pk3:");
    const fs::path name =
        colon != std::string::npos ? fs::path(map_spec.substr(colon + 5)) : fs::path(map_spec);
    fs::path file = name.filename();
    if (file.empty())
        file = "map";
    file.replace_extension(".glb");
    return (folder / file).string();
}

void ExportPanel::showFor(const std::string& map_spec, const fs::path& folder) {
    if (!m_typed && !map_spec.empty()) {
        const std::string def = defaultPathFor(map_spec, folder);
        std::snprintf(m_path, sizeof m_path, "%s", def.c_str());
    }
    m_question.clear();
    m_visible = true;
}

ExportRequest ExportPanel::request() const {
    ExportRequest r;
    r.path = m_path;
    r.options.lighting = static_cast<exporter::ExportLighting>(m_lighting);
    r.options.include_hidden = m_all;
    r.options.scale = m_scale;
    return r;
}

std::optional<ExportRequest> ExportPanel::press() {
    if (m_path[0] == 0)
        return std::nullopt;
    std::error_code ec;
    const fs::path file(m_path);
    const fs::path folder = file.parent_path();
    if (!folder.empty() && !fs::is_directory(folder, ec)) {
        m_question = "The folder " + folder.string() + " does not exist. Create it and export?";
        return std::nullopt;
    }
    if (fs::exists(file, ec)) {
        m_question = file.string() + " exists. Replace it?";
        return std::nullopt;
    }
    return request();
}

std::optional<ExportRequest> ExportPanel::answer(bool yes) {
    if (m_question.empty())
        return std::nullopt;
    m_question.clear();
    if (!yes)
        return std::nullopt;
    return request(); // exporter::exportMap creates the folder it writes into
}

std::optional<ExportRequest> ExportPanel::draw(const std::string& status, bool has_map) {
    if (!m_visible)
        return std::nullopt;
    std::optional<ExportRequest> out;
    if (beginPanel("Export", &m_visible,
                   {{0.5f, 0.25f}, {0.0f, 0.0f}, {0.5f, 0.0f}, {560.0f, 0.0f}},
                   ImGuiWindowFlags_AlwaysAutoResize)) {
        if (ImGui::InputText("file", m_path, sizeof(m_path))) {
            m_typed = true;
            m_question.clear();
        }
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip(".glb (one file), .gltf (.bin and images beside it)\n"
                              "or .obj (.mtl and textures beside it)");
        ImGui::Combo("lighting", &m_lighting,
                     "lightmap (TEXCOORD_1)\0baked (vertex colours)\0none\0");
        ImGui::Checkbox("keep sky, clip, trigger and tool surfaces", &m_all);
        ImGui::InputFloat("metres per unit", &m_scale, 0.0f, 0.0f, "%.4f");
        if (m_scale <= 0.0f)
            m_scale = 0.0254f;
        ImGui::TextDisabled("Patches at the current level; see docs/export.md.");
        if (!m_question.empty()) {
            // Asked here, in the panel, so it cannot hide under it.
            ImGui::Separator();
            ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.35f, 1.0f), "%s", m_question.c_str());
            if (ImGui::Button("Yes"))
                out = answer(true);
            recordLastItem("Export/Yes");
            ImGui::SameLine();
            if (ImGui::Button("No"))
                answer(false);
        } else {
            ImGui::BeginDisabled(!has_map || m_path[0] == 0);
            if (ImGui::Button("Export"))
                out = press();
            recordLastItem("Export/Export");
            ImGui::EndDisabled();
            if (!has_map) {
                ImGui::SameLine();
                ImGui::TextDisabled("open a map first");
            }
        }
        if (!status.empty())
            ImGui::TextWrapped("%s", status.c_str());
    }
    ImGui::End();
    return out;
}

} // namespace app
