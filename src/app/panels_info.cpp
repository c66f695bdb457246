// The panels that show the map's data: Map info (lumps against the engine's limits, BSPX,
// missing textures, warnings), Entities (filter, keys, teleport) and Light styles (solo, mute,
// the animation clock). Split from panels.cpp to keep each file to one screenful of purpose.
#include "app/panels.h"

#include "app/ui_layout.h"
#include "bsp/map_limits.h"
#include "core/file.h"

#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <span>
#include <string>

namespace app {

namespace {

const ImVec4 kErrorColour(1.0f, 0.35f, 0.3f, 1.0f);
const ImVec4 kWarnColour(1.0f, 0.8f, 0.3f, 1.0f);

std::string bytesText(uint64_t n) {
    char buf[32];
    if (n >= 10ull * 1024 * 1024)
        std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(n) / (1024.0 * 1024.0));
    else if (n >= 10ull * 1024)
        std::snprintf(buf, sizeof buf, "%.1f KiB", static_cast<double>(n) / 1024.0);
    else
        std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(n));
    return buf;
}

bool contains(std::string_view haystack, std::string_view needle) {
    if (needle.empty())
        return true;
    auto it = std::search(haystack.begin(), haystack.end(), needle.begin(), needle.end(),
                          [](char a, char b) {
                              return std::tolower(static_cast<unsigned char>(a)) ==
                                     std::tolower(static_cast<unsigned char>(b));
                          });
    return it != haystack.end();
}

// The map's lumps against the engine's limits (bsp/map_limits.h).
// The game whose rules the map follows and its lighting rule (src/game/).
void drawGameRules(const game::GameProfile& profile, uint32_t unlit_face_count) {
    const game::LightRule& light = profile.rules.light;
    ImGui::Text("game rules: %s (src/game/)",
                std::string(game::familyName(profile.family)).c_str());
    ImGui::Text("faces without lightmap data: %u, drawn %s", unlit_face_count,
                std::string(game::unlitFacesName(light.unlit_faces)).c_str());
    ImGui::Text("light style 'm' = %.5f", static_cast<double>(light.light_style_scale));
    ImGui::Text("colour: lightmap x %.4f (max %.2f), texture x %.2f (max %.2f), output ^ "
                "%.4f",
                static_cast<double>(light.lightmap_scale), static_cast<double>(light.light_max),
                static_cast<double>(light.texture_scale), static_cast<double>(light.texture_max),
                static_cast<double>(light.output_gamma));
    ImGui::Text("texture palettes: %s", profile.materials.palette_table
                                            ? "through the game's table at load (texgammatable)"
                                            : "as stored");
}

void limitsTable(const bsp::Map& map) {
    ImGui::Text("limits: %s", std::string(bsp::limitsSource(map.format)).c_str());
    const std::vector<bsp::LimitRow> rows = bsp::checkLimits(map);
    const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                                  ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollY;
    // The table takes the window's height but leaves room for the BSPX and warning lines.
    const float line = ImGui::GetTextLineHeightWithSpacing();
    const float table_h = std::max(line * 8.0f, ImGui::GetContentRegionAvail().y - line * 4.0f);
    if (ImGui::BeginTable("lumps", 5, flags, ImVec2(0, table_h))) {
        ImGui::TableSetupScrollFreeze(0, 1);
        ImGui::TableSetupColumn("lump");
        ImGui::TableSetupColumn("size");
        ImGui::TableSetupColumn("records");
        ImGui::TableSetupColumn("limit");
        ImGui::TableSetupColumn("used");
        ImGui::TableHeadersRow();
        for (const bsp::LimitRow& r : rows) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(r.lump.c_str());
            ImGui::TableNextColumn();
            if (r.lump != "entity count")
                ImGui::TextUnformatted(bytesText(r.length).c_str());
            ImGui::TableNextColumn();
            if (r.record_size || r.lump == "entity count")
                ImGui::Text("%llu", static_cast<unsigned long long>(r.count));
            else
                ImGui::TextDisabled("bytes");
            ImGui::TableNextColumn();
            if (r.limit) {
                ImGui::Text("%llu", static_cast<unsigned long long>(r.limit));
                if (ImGui::IsItemHovered())
                    ImGui::SetTooltip("%s", std::string(r.constant).c_str());
            } else {
                ImGui::TextDisabled("-");
            }
            ImGui::TableNextColumn();
            if (r.limit) {
                const double f = r.fraction();
                const ImVec4 c = r.over()  ? kErrorColour
                                 : f > 0.9 ? kWarnColour
                                           : ImGui::GetStyleColorVec4(ImGuiCol_Text);
                ImGui::TextColored(c, "%.0f%%", f * 100.0);
            }
        }
        ImGui::EndTable();
    }
}

} // namespace

void drawMapInfo(OverlayModel& m, bool* open) {
    if (!*open || !m.bundle)
        return;
    const bsp::Map& map = m.bundle->map;
    if (!beginPanel("Map info", open,
                    {{0.5f, 0.0f},
                     {0.0f, ImGui::GetFrameHeight() + 10.0f},
                     {0.5f, 0.0f},
                     {520.0f, 480.0f}})) {
        ImGui::End();
        return;
    }
    ImGui::Text("%s", m.bundle->spec.c_str());
    ImGui::Text("format %s, version %d", std::string(bsp::formatName(map.format)).c_str(),
                map.version);
    ImGui::Text("vis: %s", map.vis.present() ? "present" : "none (everything visible)");
    if (map.vis.present())
        ImGui::SameLine(), ImGui::Text("(%d clusters)", map.vis.num_clusters);
    ImGui::Text("lighting: %s", scene::describeLightmaps(m.bundle->lightmaps).c_str());
    drawGameRules(m.bundle->profile, map.unlit_face_count);
    if (!map.lighting_variants.empty()) {
        std::string sets;
        for (const std::string& v : map.lighting_variants)
            sets += (sets.empty() ? "" : ", ") + v;
        ImGui::Text("lighting sets: %s; drawn: %s (--hdr picks HDR)", sets.c_str(),
                    map.lighting_variant.c_str());
    }
    limitsTable(map);
    if (map.extra_lumps.empty()) {
        ImGui::TextDisabled("no BSPX lumps");
    } else if (ImGui::TreeNode("bspx", "BSPX lumps (%zu)", map.extra_lumps.size())) {
        for (const bsp::ExtraLump& x : map.extra_lumps)
            ImGui::BulletText("%s  %s%s", x.name.c_str(), bytesText(x.length).c_str(),
                              x.used ? "  (used)" : "");
        ImGui::TreePop();
    }
    const std::vector<scene::MissingTexture>& missing = m.bundle->missing_textures;
    if (missing.empty()) {
        ImGui::TextDisabled("no missing textures");
    } else if (ImGui::TreeNode("missing", "missing textures (%zu, drawn as grey tiles)",
                               missing.size())) {
        for (const scene::MissingTexture& t : missing) {
            if (!t.game.empty())
                ImGui::BulletText("%s  %u faces  (likely %s)", t.name.c_str(), t.faces,
                                  t.game.c_str());
            else
                ImGui::BulletText("%s  %u faces", t.name.c_str(), t.faces);
        }
        ImGui::TreePop();
    }
    const std::vector<std::string>& models = m.bundle->models.missing;
    if (models.empty()) {
        ImGui::TextDisabled("no missing models");
    } else if (ImGui::TreeNode("missing models", "missing models (%zu, drawn as boxes)",
                               models.size())) {
        for (const std::string& name : models)
            ImGui::BulletText("%s", name.c_str());
        ImGui::TreePop();
    }
    const std::vector<std::string>& warnings = m.bundle->warnings;
    if (warnings.empty()) {
        ImGui::TextDisabled("no warnings from loading");
    } else if (ImGui::TreeNodeEx("warnings", ImGuiTreeNodeFlags_DefaultOpen, "warnings (%zu)",
                                 warnings.size())) {
        for (const std::string& w : warnings)
            ImGui::TextColored(kWarnColour, "%s", w.c_str());
        ImGui::TreePop();
    }
    ImGui::End();
}

void drawEntities(OverlayModel& m, bool* open, OverlayActions& actions) {
    if (!*open || !m.bundle)
        return;
    const bsp::Map& map = m.bundle->map;
    if (!beginPanel("Entities", open,
                    {{1.0f, 0.0f},
                     {-10.0f, ImGui::GetFrameHeight() + 10.0f},
                     {1.0f, 0.0f},
                     {360.0f, 560.0f}})) {
        ImGui::End();
        return;
    }
    if (ImGui::Button("prev spawn"))
        actions.go_spawn = m.spawn - 1;
    ImGui::SameLine();
    if (ImGui::Button("next spawn (N)"))
        actions.go_spawn = m.spawn + 1;
    ImGui::SameLine();
    ImGui::Text("%d / %zu", m.bundle->spawns.empty() ? 0 : m.spawn + 1, m.bundle->spawns.size());
    ImGui::SetNextItemWidth(-1);
    ImGui::InputTextWithHint("##filter", "filter by classname", m.entity_filter,
                             sizeof m.entity_filter);
    if (m.selected_entity >= static_cast<int>(map.entities.size()))
        m.selected_entity = -1;
    const float list_h = ImGui::GetContentRegionAvail().y * 0.5f;
    if (ImGui::BeginChild("entity list", ImVec2(0, list_h), true)) {
        int shown = 0;
        for (size_t i = 0; i < map.entities.size(); ++i) {
            const bsp::Entity& e = map.entities[i];
            const std::string_view cls = e.classname();
            if (!contains(cls, m.entity_filter))
                continue;
            ++shown;
            char label[160];
            std::snprintf(label, sizeof label, "%4zu  %.*s", i,
                          static_cast<int>(std::min<size_t>(cls.size(), 120)), cls.data());
            if (ImGui::Selectable(label, m.selected_entity == static_cast<int>(i),
                                  ImGuiSelectableFlags_AllowDoubleClick)) {
                m.selected_entity = static_cast<int>(i);
                if (ImGui::IsMouseDoubleClicked(0))
                    actions.teleport_entity = static_cast<int>(i);
            }
        }
        if (shown == 0)
            ImGui::TextDisabled("no entity matches");
    }
    ImGui::EndChild();
    if (m.selected_entity >= 0) {
        const bsp::Entity& e = map.entities[static_cast<size_t>(m.selected_entity)];
        const auto vp = entityViewpoint(e, map);
        ImGui::BeginDisabled(!vp || !m.camera);
        // In front of the entity's box looking at it (app/selection.h teleportCamera).
        if (ImGui::Button("teleport (double-click)") && vp && m.camera)
            actions.teleport_entity = m.selected_entity;
        ImGui::EndDisabled();
        if (!vp) {
            ImGui::SameLine();
            ImGui::TextDisabled("no origin or model");
        }
        if (ImGui::BeginTable("keys", 2,
                              ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                                  ImGuiTableFlags_Resizable)) {
            ImGui::TableSetupColumn("key");
            ImGui::TableSetupColumn("value");
            ImGui::TableHeadersRow();
            for (const auto& [k, v] : e.pairs) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(k.c_str());
                ImGui::TableNextColumn();
                ImGui::TextWrapped("%s", v.c_str());
            }
            ImGui::EndTable();
        }
    }
    ImGui::End();
}

namespace {

void drawLightStyleRows(OverlayModel& m) {
    StyleControls& st = *m.styles;
    ImGui::Checkbox("pause", &st.paused);
    ImGui::SameLine();
    // One style letter lasts 0.1 s: the step moves one letter.
    if (ImGui::ArrowButton("##back", ImGuiDir_Left)) {
        st.paused = true;
        st.time = std::max(0.0, std::floor(st.time * 10.0 + 1e-6) / 10.0 - 0.1);
    }
    ImGui::SameLine();
    if (ImGui::ArrowButton("##fwd", ImGuiDir_Right)) {
        st.paused = true;
        st.time = std::floor(st.time * 10.0 + 1e-6) / 10.0 + 0.1;
    }
    ImGui::SameLine();
    float t = static_cast<float>(std::fmod(st.time, 60.0));
    ImGui::SetNextItemWidth(-1);
    if (ImGui::SliderFloat("##time", &t, 0.0f, 60.0f, "t = %.1f s")) {
        st.paused = true;
        st.time = t;
    }
    if (m.styles_in_use.empty()) {
        ImGui::TextDisabled("the map's faces use no light styles");
        return;
    }
    std::span<const game::LightStyleString> spawn;
    if (m.bundle)
        spawn = m.bundle->profile.entities.light_styles;
    const auto values = scene::lightStyleValues(st.time, nullptr, spawn);
    const auto enabled = st.enabled();
    if (ImGui::BeginTable("styles", 4, ImGuiTableFlags_SizingFixedFit)) {
        for (int s : m.styles_in_use) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            if (s >= scene::kNumLightStyles) {
                ImGui::TextDisabled("%d", s);
                ImGui::TableNextColumn();
                ImGui::TextDisabled("(out of range)");
                continue;
            }
            const size_t i = static_cast<size_t>(s);
            ImGui::PushID(s);
            if (enabled[i])
                ImGui::Text("%2d", s);
            else
                ImGui::TextDisabled("%2d", s);
            ImGui::TableNextColumn();
            ImGui::Checkbox("solo", &st.solo[i]);
            ImGui::SameLine();
            ImGui::Checkbox("mute", &st.mute[i]);
            ImGui::TableNextColumn();
            ImGui::ProgressBar(enabled[i] ? values[i] / 2.0f : 0.0f, ImVec2(60, 0), "");
            ImGui::TableNextColumn();
            ImGui::TextDisabled(
                "%s", std::string(scene::lightStyleString(s, spawn).substr(0, 24)).c_str());
            ImGui::PopID();
        }
        ImGui::EndTable();
    }
    if (ImGui::Button("clear solo/mute")) {
        st.solo.fill(false);
        st.mute.fill(false);
    }
}

} // namespace

void drawLightStyles(OverlayModel& m, bool* open) {
    if (!*open || !m.styles)
        return;
    if (!beginPanel("Light styles", open,
                    {{0.0f, 1.0f}, {10.0f, -10.0f}, {0.0f, 1.0f}, {420.0f, 0.0f}},
                    ImGuiWindowFlags_AlwaysAutoResize)) {
        ImGui::End();
        return;
    }
    drawLightStyleRows(m);
    ImGui::End();
}

} // namespace app
