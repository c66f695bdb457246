#include "app/export_panel.h"

#include <imgui.h>

#include <cstring>
#include <filesystem>

namespace app {

std::string ExportPanel::defaultPathFor(const std::string& map_spec) {
    namespace fs = std::filesystem;
    // ARCHIVE.pk3:maps/NAME.bsp: beside the archive.
    const size_t colon = map_spec.find(".pk3:");
    if (colon != std::string::npos) {
        const fs::path archive(map_spec.substr(0, colon + 4));
        const fs::path member(map_spec.substr(colon + 5));
        return (archive.parent_path() / member.stem()).string() + ".glb";
    }
    fs::path p(map_spec);
    return p.replace_extension(".glb").string();
}

void ExportPanel::showFor(const std::string& map_path) {
    if (m_path[0] == 0) {
        const std::string def = defaultPathFor(map_path);
        std::strncpy(m_path, def.c_str(), sizeof(m_path) - 1);
    }
    m_visible = true;
}

std::optional<ExportRequest> ExportPanel::draw(const std::string& status) {
    if (!m_visible)
        return std::nullopt;
    std::optional<ExportRequest> request;
    ImGui::SetNextWindowSize(ImVec2(520, 0), ImGuiCond_FirstUseEver);
    if (ImGui::Begin("Export", &m_visible)) {
        ImGui::InputText("file", m_path, sizeof(m_path));
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
        if (ImGui::Button("Export") && m_path[0] != 0) {
            ExportRequest r;
            r.path = m_path;
            r.options.lighting = static_cast<exporter::ExportLighting>(m_lighting);
            r.options.include_hidden = m_all;
            r.options.scale = m_scale;
            request = std::move(r);
        }
        if (!status.empty())
            ImGui::TextWrapped("%s", status.c_str());
    }
    ImGui::End();
    return request;
}

} // namespace app
