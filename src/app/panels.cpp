#include "app/panels.h"

#include "app/cli.h"
#include "bsp/map_limits.h"
#include "core/file.h"

#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace app {

namespace {

const ImVec4 kErrorColour(1.0f, 0.35f, 0.3f, 1.0f);
const ImVec4 kWarnColour(1.0f, 0.8f, 0.3f, 1.0f);
std::array<float, 4> g_main_rect{};

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

void drawMapInfo(OverlayModel& m) {
    if (!m.show_map_info || !m.bundle)
        return;
    const bsp::Map& map = m.bundle->map;
    // Right of the main window, which auto-sizes to about 420 pixels.
    ImGui::SetNextWindowPos(ImVec2(440, 10), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(480, 460), ImGuiCond_FirstUseEver);
    if (!ImGui::Begin("Map info", &m.show_map_info)) {
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
    ImGui::Text("faces without lightmap data: %u, drawn %s", map.unlit_face_count,
                std::string(bsp::unlitFacesName(map.unlit_faces)).c_str());
    ImGui::Text("light style 'm' = %.5f", static_cast<double>(map.light_style_scale));
    ImGui::Text("colour: lightmap x %.4f (max %.2f), texture x %.2f ^ %.2f, output ^ %.4f",
                static_cast<double>(map.lightmap_scale), static_cast<double>(map.light_max),
                static_cast<double>(map.texture_scale), static_cast<double>(map.texture_gamma),
                static_cast<double>(map.output_gamma));
    if (!map.lighting_variants.empty()) {
        std::string sets;
        for (const std::string& v : map.lighting_variants)
            sets += (sets.empty() ? "" : ", ") + v;
        ImGui::Text("lighting sets: %s; drawn: %s (--hdr picks HDR)", sets.c_str(),
                    map.lighting_variant.c_str());
    }
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

void drawEntities(OverlayModel& m, OverlayActions& actions) {
    if (!m.show_entities || !m.bundle)
        return;
    const bsp::Map& map = m.bundle->map;
    ImGui::SetNextWindowPos(ImVec2(930, 10), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(340, 560), ImGuiCond_FirstUseEver);
    if (!ImGui::Begin("Entities", &m.show_entities)) {
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
                if (ImGui::IsMouseDoubleClicked(0) && m.camera)
                    if (auto vp = entityViewpoint(e, map))
                        applyBookmark(*m.camera, *vp);
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
        if (ImGui::Button("teleport (double-click)") && vp && m.camera)
            applyBookmark(*m.camera, *vp);
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

void drawLightStyles(OverlayModel& m) {
    if (!m.styles || !ImGui::CollapsingHeader("Light styles"))
        return;
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
    const bsp::Map* map = m.bundle ? &m.bundle->map : nullptr;
    const auto values = scene::lightStyleValues(st.time, nullptr, map);
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
            ImGui::TextDisabled("%s",
                                std::string(scene::lightStyleString(s, map).substr(0, 24)).c_str());
            ImGui::PopID();
        }
        ImGui::EndTable();
    }
    if (ImGui::Button("clear solo/mute")) {
        st.solo.fill(false);
        st.mute.fill(false);
    }
}

// Every material's texture with where it came from (embedded, WAD, pak, pk3, folder) or
// "missing", and the Quake 3 stage images likewise.
void drawTextureList(const scene::MapBundle& b) {
    const std::string header = "Textures (" + std::to_string(b.textures.size()) + ", " +
                               std::to_string(b.missing_textures.size()) + " missing)###textures";
    if (!ImGui::CollapsingHeader(header.c_str()))
        return;
    static char filter[96] = {};
    static bool only_missing = false;
    ImGui::InputText("filter##textures", filter, sizeof filter);
    ImGui::SameLine();
    ImGui::Checkbox("only missing", &only_missing);
    const std::string needle = core::toLower(filter);
    const auto row = [&](const std::string& name, content::TextureSourceKind kind,
                         const std::string& file, const std::string& origin) {
        if (only_missing && kind != content::TextureSourceKind::Missing)
            return;
        if (!needle.empty() && core::toLower(name).find(needle) == std::string::npos)
            return;
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(name.c_str());
        ImGui::TableNextColumn();
        const std::string_view k = content::sourceKindName(kind);
        if (kind == content::TextureSourceKind::Missing)
            ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.4f, 1.0f), "%.*s", static_cast<int>(k.size()),
                               k.data());
        else
            ImGui::Text("%.*s", static_cast<int>(k.size()), k.data());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(file.c_str());
        if (!origin.empty() && ImGui::IsItemHovered())
            ImGui::SetTooltip("%s", origin.c_str());
    };
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders |
                                  ImGuiTableFlags_ScrollY | ImGuiTableFlags_Resizable;
    if (!ImGui::BeginTable("##texture_list", 3, flags, ImVec2(0.0f, 220.0f)))
        return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("material");
    ImGui::TableSetupColumn("from");
    ImGui::TableSetupColumn("file (hover: archive or folder)");
    ImGui::TableHeadersRow();
    for (size_t i = 0; i < b.textures.size() && i < b.materials.size(); ++i) {
        const content::TextureInfo& t = b.textures[i];
        const bsp::Material& mat = b.map.materials[i];
        if (b.materials[i].flags & bsp::kSurfNoDraw)
            continue; // tool textures are never drawn
        row(mat.name, content::sourceKindOf(t), t.missing ? t.error : t.source, t.origin);
    }
    for (const scene::StageImage& img : b.stages.images) {
        content::TextureInfo t;
        t.missing = img.missing;
        t.source = img.source;
        t.origin = img.missing || !b.fs ? std::string() : b.fs->sourceOf(img.source);
        row(img.name + " (shader stage)", content::sourceKindOf(t), img.source, t.origin);
    }
    ImGui::EndTable();
}

void drawBookmarks(OverlayModel& m, OverlayActions& actions) {
    if (!m.camera || !ImGui::CollapsingHeader("Bookmarks"))
        return;
    ImGui::TextDisabled("1-9 go to a bookmark, Ctrl+1-9 save one");
    ImGui::SetNextItemWidth(-70);
    const bool enter =
        ImGui::InputTextWithHint("##goto", "X,Y,Z,PITCH,YAW or spawn:N", m.goto_field,
                                 sizeof m.goto_field, ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    if (ImGui::Button("go to") || enter) {
        auto spec = parseCamera(m.goto_field);
        m.goto_error.clear();
        if (!spec) {
            m.goto_error = spec.error().message();
        } else if (spec->from_leak) {
            m.goto_error = "leak stops: the Debug panel's leak buttons or [ and ]";
        } else if (spec->from_spawn) {
            const size_t n = m.bundle ? m.bundle->spawns.size() : 0;
            if (static_cast<size_t>(spec->spawn_index) >= n)
                m.goto_error = "the map has " + std::to_string(n) + " spawn points";
            else
                actions.go_spawn = spec->spawn_index;
        } else {
            applyBookmark(*m.camera, {spec->x, spec->y, spec->z, spec->pitch, spec->yaw});
        }
    }
    if (!m.goto_error.empty())
        ImGui::TextColored(kErrorColour, "%s", m.goto_error.c_str());
    if (!m.settings || m.map_key.empty())
        return;
    for (int slot = 1; slot <= kNumBookmarks; ++slot) {
        ImGui::PushID(slot);
        const auto b = bookmark(*m.settings, m.map_key, slot);
        ImGui::BeginDisabled(!b);
        if (ImGui::Button("go") && b)
            applyBookmark(*m.camera, *b);
        ImGui::EndDisabled();
        ImGui::SameLine();
        if (ImGui::Button("save")) {
            setBookmark(*m.settings, m.map_key, slot, bookmarkOf(*m.camera));
            actions.settings_changed = true;
        }
        ImGui::SameLine();
        ImGui::BeginDisabled(!b);
        if (ImGui::Button("clear")) {
            clearBookmark(*m.settings, m.map_key, slot);
            actions.settings_changed = true;
        }
        ImGui::EndDisabled();
        ImGui::SameLine();
        if (b)
            ImGui::Text("%d: %s", slot, formatCamera(*b).c_str());
        else
            ImGui::TextDisabled("%d: empty", slot);
        ImGui::PopID();
    }
}

void drawRecent(OverlayModel& m, OverlayActions& actions, bool interactive) {
    if (!m.settings || m.settings->recent.empty() || !ImGui::CollapsingHeader("Recent files"))
        return;
    for (const std::string& spec : m.settings->recent) {
        // Files that went away stay listed but greyed out until they drop off the end.
        const bool exists = recentExists(spec);
        ImGui::BeginDisabled(!exists || !interactive);
        if (ImGui::Selectable(spec.c_str()))
            actions.load = spec;
        ImGui::EndDisabled();
    }
}

} // namespace

OverlayActions drawOverlay(OverlayModel& m, bool interactive) {
    OverlayActions actions;
    ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(360, 0), ImGuiCond_FirstUseEver);
    ImGui::Begin("bspview", nullptr, ImGuiWindowFlags_AlwaysAutoResize);
    const ImVec2 pos = ImGui::GetWindowPos();
    const ImVec2 size = ImGui::GetWindowSize();
    g_main_rect = {pos.x, pos.y, size.x, size.y};
    const ImGuiIO& io = ImGui::GetIO();
    if (interactive) // a headless frame has no frame rate
        ImGui::Text("%.1f fps  %.2f ms  (visibility %.3f ms)", io.Framerate,
                    io.Framerate > 0.0f ? 1000.0f / io.Framerate : 0.0f, m.cpu_vis_ms);
    if (m.frame_ms && m.frame_count > 0)
        // An explicit width: "-1" (fill) is zero wide in an auto-resizing window's first
        // frames, and the graph then never appears.
        ImGui::PlotLines("##frametimes", m.frame_ms, m.frame_count, m.frame_next, "frame ms", 0.0f,
                         50.0f, ImVec2(std::max(ImGui::GetContentRegionAvail().x, 340.0f), 40));
    if (!m.error.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, kErrorColour);
        ImGui::TextWrapped("%.*s", static_cast<int>(m.error.size()), m.error.data());
        ImGui::PopStyleColor();
    }
    if (!m.status.empty())
        ImGui::Text("%.*s", static_cast<int>(m.status.size()), m.status.data());
    if (m.bundle && m.camera && m.render_options && m.vis_options) {
        const bsp::Map& map = m.bundle->map;
        render::RenderOptions& ro = *m.render_options;
        scene::VisOptions& vo = *m.vis_options;
        ImGui::Text("%s  (%s v%d)", map.name.c_str(),
                    std::string(bsp::formatName(map.format)).c_str(), map.version);
        const scene::Camera& c = *m.camera;
        ImGui::Text("pos %.1f %.1f %.1f  pitch %.1f yaw %.1f", c.position.x, c.position.y,
                    c.position.z, c.pitch, c.yaw);
        if (m.stats) {
            const scene::DrawStats& s = *m.stats;
            ImGui::Text("leaf %d  cluster %d", s.camera_leaf, s.camera_cluster);
            ImGui::Text("leaves %u visible / %u PVS / %zu", s.visible_leaves, s.pvs_leaves,
                        map.leaves.size());
            ImGui::Text("faces %u / %u   triangles %llu", s.faces_drawn, s.faces_total,
                        static_cast<unsigned long long>(s.triangles));
            if (s.models_total > 0 || !m.bundle->models.missing.empty())
                ImGui::Text("models %u / %u   missing %zu", s.models_drawn, s.models_total,
                            m.bundle->models.missing.size());
            if (m.submit)
                ImGui::Text("batches %u  GL draw calls %u (%s)  ranges %u -> %u", s.draw_calls,
                            m.submit->draw_calls, m.draw_path, m.submit->ranges_appended,
                            m.submit->ranges_drawn);
            else
                ImGui::Text("draw calls %u", s.draw_calls);
        }
        if (!m.bundle->missing_textures.empty()) {
            // The notice a newcomer who opened a map without its game data needs: what is
            // wrong and where to fix it.
            ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.8f, 0.35f, 1.0f));
            ImGui::Text("%zu of %u textures missing (drawn as grey tiles):",
                        m.bundle->missing_textures.size(), m.bundle->drawn_texture_names);
            ImGui::PopStyleColor();
            if (interactive) {
                ImGui::SameLine();
                if (ImGui::SmallButton("add the game folder..."))
                    actions.open_game_folders = true;
            } else {
                ImGui::TextUnformatted("add the game folder that holds them");
            }
        }
        ImGui::Checkbox("map info", &m.show_map_info);
        ImGui::SameLine();
        ImGui::Checkbox("entities", &m.show_entities);
        ImGui::Separator();
        bool changed = false;
        changed |= ImGui::Checkbox("PVS culling", &vo.pvs);
        ImGui::SameLine();
        changed |= ImGui::Checkbox("frustum culling", &vo.frustum);
        ImGui::SameLine();
        changed |= ImGui::Checkbox("models", &vo.models);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("entity models and sprites (monsters, items, torches); off: the "
                              "entity boxes only (--no-models)");
        ImGui::Checkbox("lock visibility (L)", &vo.lock);
        ImGui::SameLine();
        if (ImGui::Checkbox("why culled", &ro.show_culled)) {
            vo.classify = ro.show_culled;
            if (!vo.lock)
                changed = true;
        }
        if (ro.show_culled && m.stats)
            ImGui::TextColored(ImVec4(0.9f, 0.9f, 0.9f, 1.0f),
                               "considered %u: drawn %u, PVS-rejected %u (red), frustum %u (blue)",
                               m.stats->faces_considered, m.stats->drawn_world, m.stats->culled_pvs,
                               m.stats->culled_frustum);
        ImGui::SameLine();
        ImGui::Checkbox("wireframe (F)", &ro.wireframe);
        actions.invalidate_visibility = changed;
        int view = static_cast<int>(ro.view);
        ImGui::Combo("view", &view,
                     "lit\0lightmap only\0fullbright\0flat shaded\0normals\0overdraw\0deluxe "
                     "map\0");
        ro.view = static_cast<render::ViewMode>(view);
        ImGui::Checkbox("neutral lighting", &ro.neutral_lighting);
        if (m.styles) {
            ImGui::SameLine();
            ImGui::Checkbox("pause animation (P)", &m.styles->paused);
        }
        ImGui::Checkbox("shader stages", &ro.shader_stages);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("Quake 3: draw materials stage by stage from their shader "
                              "scripts (off: first image x lightmap)");
        ImGui::SameLine();
        ImGui::Checkbox("fold stages", &ro.fold_stages);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("Quake 3: draw a run of stages in one pass where that gives the "
                              "same picture (off: one pass per stage, as ioquake3)");
        ImGui::SameLine();
        ImGui::Checkbox("flares", &ro.flares); // Quake 3 face type 4
        ImGui::SameLine();
        ImGui::Checkbox("fog", &ro.fog);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("Quake 3 fog volumes: surfaces in a fog brush fade to its "
                              "fogParms colour with distance; Quake 1 worldspawn fog over "
                              "the whole view (lit view)");
        int level = m.patch_level;
        if (ImGui::SliderInt("patch level", &level, 1, 16) && level != m.patch_level)
            actions.patch_level = level;
        ImGui::SliderFloat("liquid alpha", &ro.liquid_alpha, 0.1f, 1.0f, "%.2f");
        drawLightStyles(m);
        drawTextureList(*m.bundle);
        drawBookmarks(m, actions);
        if (m.speed)
            ImGui::SliderFloat("speed", m.speed, 16.0f, 4000.0f, "%.0f u/s",
                               ImGuiSliderFlags_Logarithmic);
        ImGui::SliderFloat("fov", &m.camera->fov_x, 30.0f, 140.0f, "%.0f");
        if (m.walk) {
            ImGui::Checkbox("walk (V)", m.walk);
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("Walk as the game's player: the map's own collision, gravity,\n"
                                  "steps; Space/E jump, Ctrl/Q crouch (docs/movement.md)");
        }
        if (m.drop_teleports) {
            if (ImGui::Button("drop to floor (G)"))
                actions.drop_to_floor = true;
            ImGui::SameLine();
            ImGui::Checkbox("teleports drop to floor", m.drop_teleports);
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("Spawn points, bookmarks, entities and leak steps put the eye\n"
                                  "at the game's eye height above the floor below");
        }
        if (interactive && ImGui::Button("copy camera")) {
            const std::string text = "--camera " + formatCamera(bookmarkOf(c));
            ImGui::SetClipboardText(text.c_str());
            actions.status = "copied: " + text;
        }
        if (interactive)
            ImGui::SameLine();
        if (ImGui::Button("next spawn (N)"))
            actions.go_spawn = m.spawn + 1;
        ImGui::SameLine();
        ImGui::Text("%d / %zu", m.bundle->spawns.empty() ? 0 : m.spawn + 1,
                    m.bundle->spawns.size());
    }
    drawRecent(m, actions, interactive);
    if (interactive) {
        if (m.vsync && ImGui::Checkbox("vsync", m.vsync))
            actions.vsync_changed = true;
        if (m.watch) {
            ImGui::SameLine();
            ImGui::Checkbox("reload on change", m.watch);
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("Load the map again, in place, when a compiler rewrites it\n"
                                  "(.bsp, .lit, .lux, .prt, .pts, .lin, external lightmaps)");
        }
        ImGui::SameLine();
        if (ImGui::Button("Open... (Ctrl+O)"))
            actions.open_panel = true;
        ImGui::SameLine();
        if (ImGui::Button("Export..."))
            actions.export_panel = true;
    }
    ImGui::TextDisabled("RMB look, WASD move, Space/E up, Ctrl/Q down, Shift fast,\n"
                        "wheel speed, M capture mouse, F1 overlay, F12 screenshot,\n"
                        "1-9 bookmark, Ctrl+1-9 save bookmark, P pause animation,\n"
                        "B flip to the previous compile (after a reload), V walk / fly,\n"
                        "G drop to floor");
    ImGui::End();
    drawMapInfo(m);
    drawEntities(m, actions);
    return actions;
}

std::array<float, 4> overlayWindowRect() {
    return g_main_rect;
}

std::vector<int> stylesInUse(const bsp::Map& map) {
    std::array<bool, 256> used{};
    for (const bsp::Face& f : map.faces)
        for (uint8_t st : f.styles)
            if (st != bsp::kNoStyle)
                used[st] = true;
    std::vector<int> out;
    for (int i = 0; i < 256; ++i)
        if (used[static_cast<size_t>(i)])
            out.push_back(i);
    return out;
}

void applyBookmark(scene::Camera& camera, const Bookmark& b) {
    camera.position = {b.x, b.y, b.z};
    camera.pitch = b.pitch;
    camera.yaw = b.yaw;
}

Bookmark bookmarkOf(const scene::Camera& c) {
    return {c.position.x, c.position.y, c.position.z, c.pitch, c.yaw};
}

std::optional<Bookmark> entityViewpoint(const bsp::Entity& e, const bsp::Map& map) {
    std::optional<glm::vec3> pos = e.vec3("origin");
    const std::string_view model = e.get("model");
    if (model.size() > 1 && model[0] == '*') {
        // Brush entity: the centre of its submodel, which an origin key moves (Quake 2/3
        // origin brushes store the model around the entity's origin).
        char* end = nullptr;
        const std::string digits(model.substr(1));
        const long n = std::strtol(digits.c_str(), &end, 10);
        if (end == digits.c_str() + digits.size() && n > 0 &&
            static_cast<size_t>(n) < map.submodels.size()) {
            const bsp::Submodel& sm = map.submodels[static_cast<size_t>(n)];
            const glm::vec3 centre = (sm.mins + sm.maxs) * 0.5f;
            pos = centre + pos.value_or(glm::vec3(0.0f));
        }
    }
    if (!pos || !std::isfinite(pos->x) || !std::isfinite(pos->y) || !std::isfinite(pos->z))
        return std::nullopt;
    Bookmark b{pos->x, pos->y, pos->z, 0.0f, 0.0f};
    if (const auto angles = e.vec3("angles")) {
        b.pitch = angles->x;
        b.yaw = angles->y;
    } else if (const auto angle = e.number("angle")) {
        if (*angle == -1.0f)
            b.pitch = -90.0f; // up
        else if (*angle == -2.0f)
            b.pitch = 90.0f; // down
        else
            b.yaw = *angle;
    }
    if (!std::isfinite(b.pitch) || !std::isfinite(b.yaw))
        b.pitch = b.yaw = 0.0f;
    b.pitch = std::clamp(b.pitch, -89.0f, 89.0f);
    return b;
}

} // namespace app
