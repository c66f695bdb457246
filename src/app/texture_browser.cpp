#include "app/texture_browser.h"

#include "app/ui_layout.h"
#include "core/file.h"

#include <imgui.h>

#include <algorithm>
#include <cstdint>
#include <unordered_map>

namespace app {

std::vector<TextureRow> textureRows(const scene::MapBundle& b) {
    const bsp::Map& map = b.map;
    std::vector<uint32_t> faces_of(map.materials.size(), 0);
    for (const bsp::Face& f : map.faces)
        if (f.material >= 0 && static_cast<size_t>(f.material) < faces_of.size())
            ++faces_of[static_cast<size_t>(f.material)];
    std::vector<TextureRow> rows;
    std::unordered_map<std::string, size_t> row_of;
    for (size_t i = 0; i < map.materials.size(); ++i) {
        if (i < b.materials.size() && (b.materials[i].flags & bsp::kSurfNoDraw))
            continue; // tool textures are never drawn
        const std::string key = core::toLower(map.materials[i].name);
        auto [it, inserted] = row_of.emplace(key, rows.size());
        if (inserted) {
            TextureRow r;
            r.name = map.materials[i].name;
            if (i < b.textures.size()) {
                const content::TextureInfo& t = b.textures[i];
                r.missing = t.missing;
                r.source = t.missing ? (t.error.empty() ? "not found" : t.error) : t.source;
                r.origin = t.origin;
                r.width = t.image.width;
                r.height = t.image.height;
            }
            rows.push_back(std::move(r));
        }
        TextureRow& r = rows[it->second];
        r.materials.push_back(static_cast<uint32_t>(i));
        r.faces += faces_of[i];
    }
    return rows;
}

void TextureBrowser::setMap(const scene::MapBundle* bundle) {
    // The selection survives a reload of the same textures (kept by name).
    const std::string previous = m_selected >= 0 && static_cast<size_t>(m_selected) < m_rows.size()
                                     ? m_rows[static_cast<size_t>(m_selected)].name
                                     : std::string();
    m_bundle = bundle;
    m_rows = bundle ? textureRows(*bundle) : std::vector<TextureRow>();
    m_selected = -1;
    for (size_t i = 0; i < m_rows.size() && !previous.empty(); ++i)
        if (m_rows[i].name == previous)
            m_selected = static_cast<int>(i);
    refreshFaces();
}

void TextureBrowser::select(int row) {
    m_selected = row >= 0 && static_cast<size_t>(row) < m_rows.size() ? row : -1;
    refreshFaces();
}

void TextureBrowser::setHighlight(bool on) {
    m_highlight = on;
    refreshFaces();
}

void TextureBrowser::refreshFaces() {
    m_faces.clear();
    if (!m_highlight || !m_bundle || m_selected < 0)
        return;
    const TextureRow& r = m_rows[static_cast<size_t>(m_selected)];
    const bsp::Map& map = m_bundle->map;
    for (uint32_t f = 0; f < map.faces.size(); ++f) {
        const int32_t m = map.faces[f].material;
        if (m >= 0 && std::find(r.materials.begin(), r.materials.end(), static_cast<uint32_t>(m)) !=
                          r.materials.end())
            m_faces.push_back(f);
    }
}

void TextureBrowser::draw(bool* open, const std::function<unsigned(uint32_t)>& thumbnail) {
    if (!*open)
        return;
    if (!beginPanel("Textures", open, {{0.5f, 0.0f}, {0.0f, 40.0f}, {0.5f, 0.0f}, {600, 540}})) {
        ImGui::End();
        return;
    }
    size_t missing = 0;
    for (const TextureRow& r : m_rows)
        missing += r.missing;
    ImGui::Text("%zu textures, %zu missing", m_rows.size(), missing);
    ImGui::SameLine();
    if (ImGui::Checkbox("highlight the faces using the selected one", &m_highlight))
        refreshFaces();
    ImGui::SetNextItemWidth(240);
    ImGui::InputTextWithHint("##filter", "filter by name", m_filter, sizeof m_filter);
    ImGui::SameLine();
    ImGui::Checkbox("only missing", &m_only_missing);
    const std::string needle = core::toLower(m_filter);
    const float thumb = 48.0f;
    ImGui::BeginChild("texture rows", ImVec2(0, 0), true);
    for (size_t i = 0; i < m_rows.size(); ++i) {
        const TextureRow& r = m_rows[i];
        if ((m_only_missing && !r.missing) ||
            (!needle.empty() && core::toLower(r.name).find(needle) == std::string::npos))
            continue;
        ImGui::PushID(static_cast<int>(i));
        const bool selected = m_selected == static_cast<int>(i);
        if (ImGui::Selectable("##row", selected, ImGuiSelectableFlags_AllowItemOverlap,
                              ImVec2(0, thumb)))
            select(selected ? -1 : static_cast<int>(i));
        ImGui::SameLine();
        const unsigned tex = thumbnail && !r.materials.empty() ? thumbnail(r.materials[0]) : 0;
        if (tex != 0 && !r.missing)
            ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<uintptr_t>(tex)),
                         ImVec2(thumb, thumb));
        else
            ImGui::Dummy(ImVec2(thumb, thumb));
        ImGui::SameLine();
        ImGui::BeginGroup();
        if (r.missing)
            ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.4f, 1.0f), "%s  (missing)", r.name.c_str());
        else
            ImGui::TextUnformatted(r.name.c_str());
        ImGui::TextDisabled("%u faces  %dx%d  %s", r.faces, r.width, r.height, r.source.c_str());
        ImGui::EndGroup();
        if (!r.origin.empty() && ImGui::IsItemHovered())
            ImGui::SetTooltip("%s", r.origin.c_str());
        ImGui::PopID();
    }
    ImGui::EndChild();
    ImGui::End();
}

} // namespace app
