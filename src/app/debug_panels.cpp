#include "app/debug_panels.h"

#include "app/bench.h"
#include "app/pass_times_panel.h"
#include "app/ui_layout.h"
#include "bsp/patch.h"
#include "content/material/q3_shader.h"
#include "core/log.h"
#include "render/gl.h"
#include "render/model_renderer.h"
#include "render/world_renderer.h"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cstdio>
#include <glm/gtc/matrix_transform.hpp>

namespace app {

FramePercentiles framePercentiles(const float* ms, size_t count) {
    FramePercentiles p;
    if (!ms || count == 0)
        return p;
    std::vector<double> v(ms, ms + count);
    p.p50 = percentile(v, 50);
    p.p95 = percentile(v, 95);
    p.p99 = percentile(v, 99);
    p.max = *std::max_element(v.begin(), v.end());
    return p;
}

std::optional<FacePick> pickFaceAlong(const scene::MapBundle& bundle, const glm::vec3& origin,
                                      const glm::vec3& dir, float far,
                                      const std::vector<scene::FaceBounds>* bounds) {
    const auto hit = scene::rayCast(bundle.map, bundle.mesh, origin, dir, far, bounds);
    if (!hit)
        return std::nullopt;
    FacePick pick;
    pick.hit = *hit;
    pick.luxel = scene::luxelAt(bundle.map, bundle.lightmaps, hit->face, hit->lm_uv);
    pick.model = scene::pickEntityModel(bundle.models, origin, dir, hit->distance);
    return pick;
}

std::optional<FacePick> pickFace(const scene::MapBundle& bundle, const scene::Camera& camera,
                                 const std::vector<scene::FaceBounds>* bounds) {
    return pickFaceAlong(bundle, camera.position, camera.forward(), camera.z_far, bounds);
}

DebugPanels::DebugPanels() = default;

void DebugPanels::pickAt(const glm::vec3& origin, const glm::vec3& dir) {
    m_pick = pickFaceAlong(*m_bundle, origin, dir, m_view_camera.z_far, &m_face_bounds);
    m_clip_pick.reset();
    // A collision view on: the ray stops at the solids it draws (the lowest hull shown, or the
    // brushes of the contents filter).
    const int32_t hull = m_views.hull1 ? 1 : m_views.hull2 ? 2 : m_views.hull3 ? 3 : 0;
    const bsp::Map& map = m_bundle->map;
    const bool hulls = map.collision.kind == bsp::CollisionKind::Hulls && hull > 0;
    const bool brushes = map.collision.kind == bsp::CollisionKind::Brushes && m_views.brushes;
    if (hulls || brushes) {
        if (m_world_map != &map) {
            m_world = std::make_unique<physics::CollisionWorld>(map);
            m_world_map = &map;
        }
        const physics::CollisionWorld& world = *m_world;
        const float reach = m_pick ? m_pick->hit.distance : m_view_camera.z_far;
        m_clip_pick = physics::pickCollision(world, origin, dir, reach, hull, m_brush_contents);
        if (m_clip_pick)
            m_pick.reset();
    }
    m_highlight_face = m_pick ? static_cast<int32_t>(m_pick->hit.face) : -1;
}

DebugPanels::~DebugPanels() {
    releaseAtlas();
}

bool DebugPanels::init(const render::GlslLibrary& shaders, const scene::DebugViews& initial,
                       std::string* error) {
    m_views = initial;
    m_ready = m_overlays.init(shaders, error);
    return m_ready;
}

namespace {
// The widest line the panel always shows: its first width fits it.
constexpr const char* kWidestLine = "no .prt, .pts or .lin beside the map (--prt, --pointfile)";
} // namespace

void DebugPanels::collisionSection(const bsp::Map& map) {
    ImGui::Separator();
    ImGui::TextUnformatted("Collision");
    const bsp::Collision& c = map.collision;
    if (c.kind == bsp::CollisionKind::Hulls) {
        // Hull k: the space a box of that size cannot put its origin into.
        const char* names[3] = {"hull 1", "hull 2", "hull 3"};
        bool* views[3] = {&m_views.hull1, &m_views.hull2, &m_views.hull3};
        for (int k = 1; k <= 3; ++k) {
            const bool present = static_cast<size_t>(k) < c.hulls.size();
            ImGui::BeginDisabled(!present);
            ImGui::Checkbox(names[k - 1], views[k - 1]);
            if (present && ImGui::IsItemHovered()) {
                const glm::vec3 size = c.hulls[size_t(k)].maxs - c.hulls[size_t(k)].mins;
                ImGui::SetTooltip("box %.0f x %.0f x %.0f", static_cast<double>(size.x),
                                  static_cast<double>(size.y), static_cast<double>(size.z));
            }
            ImGui::EndDisabled();
            if (k < 3)
                ImGui::SameLine();
        }
    } else if (c.kind == bsp::CollisionKind::Brushes) {
        ImGui::Checkbox("brushes", &m_views.brushes);
        const struct {
            const char* label;
            uint32_t bits;
        } kinds[] = {{"solid", bsp::kCollideSolid},
                     {"clip", bsp::kCollidePlayerClip | bsp::kCollideMonsterClip},
                     {"liquids", bsp::kCollideWater | bsp::kCollideSlime | bsp::kCollideLava},
                     {"triggers", bsp::kCollideTrigger},
                     {"ladders", bsp::kCollideLadder}};
        ImGui::SameLine();
        ImGui::TextDisabled("contents:");
        for (const auto& k : kinds) {
            if (&k != &kinds[0] && &k != &kinds[3])
                ImGui::SameLine();
            bool on = (m_brush_contents & k.bits) != 0;
            if (ImGui::Checkbox(k.label, &on))
                m_brush_contents = on ? (m_brush_contents | k.bits) : (m_brush_contents & ~k.bits);
        }
    } else {
        ImGui::TextDisabled("no collision data in this map");
        return;
    }
    const render::DebugOverlayStats& s = m_overlays.stats();
    if (s.collision_solids)
        ImGui::Text("solids %u  polygons %u", s.collision_solids, s.collision_polygons);
}

void DebugPanels::releaseAtlas() {
    m_atlas_textures.clear();
}

void DebugPanels::setMap(const scene::MapBundle* bundle) {
    m_bundle = bundle;
    m_pick.reset();
    m_highlight_face = -1;
    m_atlas_page = 0;
    releaseAtlas();
    m_face_bounds.clear();
    if (bundle)
        m_face_bounds = scene::faceBounds(bundle->map);
    m_leak_stop = -1;
    m_portal_pick.reset();
    m_camera_request.reset();
    if (bundle) {
        m_overlays.setMap(bundle->map, bundle->mesh);
        m_overlays.setCompileFiles(bundle->leak ? &*bundle->leak : nullptr,
                                   bundle->portals ? &*bundle->portals : nullptr);
    } else {
        m_overlays.clearMap();
    }
}

std::optional<scene::PortalHit> pickPortal(const scene::MapBundle& bundle,
                                           const scene::Camera& camera) {
    if (!bundle.portals)
        return std::nullopt;
    return scene::pickPortal(*bundle.portals, camera.position, camera.forward());
}

std::optional<scene::Camera> DebugPanels::stepLeak(int delta, const scene::Camera& view) {
    if (!m_bundle || !m_bundle->leak || m_bundle->leak->stops.empty())
        return std::nullopt;
    const auto n = static_cast<int32_t>(m_bundle->leak->stops.size());
    // The first step forward goes to stop 0, the first step back to the last stop.
    const int32_t from = m_leak_stop < 0 ? (delta > 0 ? -1 : 0) : m_leak_stop;
    m_leak_stop = ((from + delta) % n + n) % n;
    m_views.leak = true;
    return scene::leakStopCamera(*m_bundle->leak, m_leak_stop, view);
}

void DebugPanels::compileFilesSection() {
    const scene::MapBundle& b = *m_bundle;
    const render::DebugOverlayStats& s = m_overlays.stats();
    ImGui::Separator();
    ImGui::TextUnformatted("Compile files");
    if (!b.portals && !b.leak) {
        ImGui::TextDisabled("%s", kWidestLine);
        return;
    }
    if (b.portals) {
        const content::PortalFile& p = *b.portals;
        ImGui::Checkbox("portals", &m_views.portals);
        ImGui::SameLine();
        ImGui::Text("%s  %s", p.file.c_str(),
                    std::string(content::portalFormatName(p.format)).c_str());
        ImGui::Text("%zu portals (%zu hint)  %u clusters", p.portals.size(), p.hintPortals(),
                    p.num_clusters);
        if (p.num_leaves > 0 || !p.faces.empty())
            ImGui::Text("%u leaves  %zu solid faces", p.num_leaves, p.faces.size());
        if (m_views.portals)
            ImGui::Text("drawn: %u portals joining %u clusters", s.portals, s.portal_clusters);
        ImGui::BeginDisabled(p.portals.empty());
        if (ImGui::Button("pick portal under crosshair")) {
            m_portal_pick = pickPortal(b, m_view_camera);
            m_views.portals = true;
        }
        ImGui::EndDisabled();
        if (m_portal_pick && m_portal_pick->portal < p.portals.size()) {
            const content::Portal& pp = p.portals[m_portal_pick->portal];
            // Quake 1 PRT1 numbers visleafs, which are bspview's Quake 1 clusters too.
            ImGui::SameLine();
            ImGui::Text("portal %u joins clusters %u (front) and %u (back)%s, %u points, %.0f "
                        "units away",
                        m_portal_pick->portal, pp.a, pp.b, pp.hint ? ", hint" : "", pp.num_points,
                        static_cast<double>(m_portal_pick->distance));
            ImGui::SameLine();
            if (ImGui::SmallButton("clear##portal"))
                m_portal_pick.reset();
        }
    }
    if (b.leak) {
        const content::LeakLine& l = *b.leak;
        ImGui::Checkbox("leak line", &m_views.leak);
        ImGui::SameLine();
        ImGui::Text("%s  %zu points  %.0f units", l.file.c_str(), l.points.size(),
                    static_cast<double>(l.length));
        if (ImGui::Button("< previous point ([)"))
            m_camera_request = stepLeak(-1, m_view_camera);
        ImGui::SameLine();
        if (ImGui::Button("next point (]) >"))
            m_camera_request = stepLeak(1, m_view_camera);
        ImGui::SameLine();
        if (m_leak_stop >= 0)
            ImGui::Text("stop %d of %zu", m_leak_stop + 1, l.stops.size());
        else
            ImGui::Text("%zu stops", l.stops.size());
        ImGui::TextDisabled("stops: the first point, every corner, the last point");
    }
}

void DebugPanels::beginFrame(float frame_ms) {
    m_frame_ms[static_cast<size_t>(m_frame_next)] = frame_ms;
    m_frame_next = (m_frame_next + 1) % kFrames;
    m_frame_count = std::min(m_frame_count + 1, kFrames);
    m_timers.beginFrame();
}

void DebugPanels::drawScene(render::WorldRenderer& renderer, const scene::DrawList& list,
                            const scene::Camera& camera, const scene::VisOptions& vis) {
    m_renderer = &renderer;
    // The locked frustum is the camera at the moment visibility was locked.
    if (!vis.lock || !m_was_locked)
        m_vis_camera = camera;
    m_was_locked = vis.lock;
    m_view_projection = camera.viewProjection();
    m_view_camera = camera;
    GLint viewport[4] = {0, 0, 0, 0};
    glGetIntegerv(GL_VIEWPORT, viewport);
    m_screen_w = viewport[2];
    m_screen_h = viewport[3];
    if (!m_ready || !m_bundle)
        return;
    if (m_follow_crosshair)
        pickAt(camera.position, camera.forward());
    render::DebugOverlayInput in;
    in.list = &list;
    in.vis_camera = m_vis_camera;
    in.vis_camera.aspect = camera.aspect;
    in.vis_pvs = vis.pvs;
    in.vis_frustum = vis.frustum;
    in.views = m_views;
    // Unlocked, the visibility camera is the view itself and its frustum only frames the screen.
    in.views.frustum = m_views.frustum && vis.lock;
    in.entity_filter = m_filter;
    in.target_lines = m_target_lines;
    in.highlight_face = m_highlight_face;
    if (m_highlight_faces)
        in.highlight_faces = *m_highlight_faces;
    in.frustum_depth = m_frustum_depth;
    in.changes = m_changes;
    in.brush_contents = m_brush_contents;
    in.compare = m_previous;
    in.leak_stop = m_leak_stop;
    in.highlight_portal = m_portal_pick ? static_cast<int32_t>(m_portal_pick->portal) : -1;
    m_timers.begin("debug overlays");
    m_overlays.draw(renderer, in);
    m_timers.end();
}

void DebugPanels::drawLabels(const scene::Camera& camera) {
    const bool brushes = m_views.brushes && !m_overlays.brushLabels().empty();
    if (!m_bundle || !(m_views.entities || brushes) || !m_labels || m_screen_w <= 0 ||
        m_screen_h <= 0)
        return;
    ImDrawList* dl = ImGui::GetBackgroundDrawList();
    const glm::mat4 vp = camera.viewProjection();
    const ImGuiIO& io = ImGui::GetIO();
    // ImGui works in window points; the viewport is in framebuffer pixels.
    const float sx = io.DisplaySize.x, sy = io.DisplaySize.y;
    int drawn = 0;
    const auto label = [&](const glm::vec3& at3, const std::string& text) {
        const glm::vec4 clip = vp * glm::vec4(at3, 1.0f);
        if (clip.w <= 1.0f)
            return;
        const glm::vec3 ndc = glm::vec3(clip) / clip.w;
        if (std::abs(ndc.x) > 1.0f || std::abs(ndc.y) > 1.0f)
            return;
        if (glm::length(at3 - camera.position) > 3000.0f || ++drawn > 400)
            return;
        const ImVec2 at((ndc.x * 0.5f + 0.5f) * sx, (0.5f - ndc.y * 0.5f) * sy);
        const glm::u8vec4 c = scene::hashColour(
            static_cast<uint32_t>(std::hash<std::string_view>()(text) & 0xffffffu));
        dl->AddText(ImVec2(at.x + 1, at.y + 1), IM_COL32(0, 0, 0, 200), text.c_str());
        dl->AddText(at, IM_COL32(c.r, c.g, c.b, 255), text.c_str());
    };
    if (m_views.entities)
        for (const scene::EntityMarker& m : m_overlays.markers())
            if (scene::classnameMatches(m.classname, m_filter))
                label(m.origin + glm::vec3(0, 0, m.half_size.z), m.classname);
    if (brushes) // triggers and clips of brush entities, by classname
        for (const render::DebugOverlays::BrushLabel& b : m_overlays.brushLabels())
            if (scene::classnameMatches(b.classname, m_filter))
                label(b.centre, b.classname);
}

void DebugPanels::uploadAtlasPages(const scene::LightmapSet& set) {
    const size_t bytes = static_cast<size_t>(set.width) * static_cast<size_t>(set.height) * 3;
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    for (size_t i = 0; i < set.pages.size(); ++i) {
        m_atlas_textures.push_back(render::makeTexture(
            GL_TEXTURE_2D, ("debug/lightmap page " + std::to_string(i)).c_str()));
        const auto& rgb = set.pages[i].rgb;
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB8, set.width, set.height, 0, GL_RGB, GL_UNSIGNED_BYTE,
                     rgb.size() >= bytes ? rgb.data() : nullptr);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    }
    glBindTexture(GL_TEXTURE_2D, 0);
}

// The page as an image, scaled to the window: a click picks the face whose block it hits; the
// highlighted face's block and the picked luxel are outlined.
void DebugPanels::atlasPageView(const bsp::Map& map, const scene::LightmapSet& set) {
    const float avail = std::max(64.0f, ImGui::GetContentRegionAvail().x);
    const float scale = avail / static_cast<float>(set.width);
    const ImVec2 size(avail, static_cast<float>(set.height) * scale);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(
                     m_atlas_textures[static_cast<size_t>(m_atlas_page)].id())),
                 size);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    if (ImGui::IsItemClicked()) {
        const ImVec2 mouse = ImGui::GetMousePos();
        const int tx = static_cast<int>((mouse.x - origin.x) / scale);
        const int ty = static_cast<int>((mouse.y - origin.y) / scale);
        m_highlight_face = -1;
        m_follow_crosshair = false;
        for (size_t f = 0; f < map.faces.size(); ++f) {
            const bsp::Face& face = map.faces[f];
            const bsp::LightmapRect& r = face.lightmap_rect;
            if (set.pageOf(face.lightmap_page) == m_atlas_page && tx >= r.x && tx < r.x + r.w &&
                ty >= r.y && ty < r.y + r.h) {
                m_highlight_face = static_cast<int32_t>(f);
                break;
            }
        }
        m_pick.reset();
    }
    if (m_highlight_face >= 0 && static_cast<size_t>(m_highlight_face) < map.faces.size()) {
        const bsp::Face& face = map.faces[static_cast<size_t>(m_highlight_face)];
        if (set.pageOf(face.lightmap_page) == m_atlas_page) {
            const bsp::LightmapRect& r = face.lightmap_rect;
            dl->AddRect(ImVec2(origin.x + r.x * scale, origin.y + r.y * scale),
                        ImVec2(origin.x + (r.x + r.w) * scale, origin.y + (r.y + r.h) * scale),
                        IM_COL32(255, 230, 20, 255), 0.0f, 0, 2.0f);
            if (m_pick && m_pick->luxel && m_pick->luxel->page == m_atlas_page) {
                const scene::Luxel& l = *m_pick->luxel;
                dl->AddRect(ImVec2(origin.x + l.x * scale, origin.y + l.y * scale),
                            ImVec2(origin.x + (l.x + 1) * scale, origin.y + (l.y + 1) * scale),
                            IM_COL32(255, 40, 40, 255));
            }
        }
    }
}

void DebugPanels::atlasPanel() {
    if (!m_atlas_open || !m_bundle)
        return;
    const bsp::Map& map = m_bundle->map;
    ImGui::SetNextWindowSize(ImVec2(540, 600), ImGuiCond_FirstUseEver);
    if (!ImGui::Begin("Lightmap atlas", &m_atlas_open)) {
        ImGui::End();
        return;
    }
    // The pages drawn: the map's, or q3map2's external images (deluxe maps apart).
    const scene::LightmapSet& set = m_bundle->lightmaps;
    const int pages = static_cast<int>(set.pages.size());
    if (pages == 0 || set.width <= 0 || set.height <= 0) {
        ImGui::TextUnformatted("this map has no lightmaps");
        ImGui::End();
        return;
    }
    if (m_atlas_textures.empty())
        uploadAtlasPages(set);
    if (m_pick && m_pick->luxel && ImGui::Button("show the picked face's page"))
        m_atlas_page = m_pick->luxel->page;
    ImGui::SliderInt("page", &m_atlas_page, 0, pages - 1);
    m_atlas_page = std::clamp(m_atlas_page, 0, pages - 1);
    ImGui::Text("%d x %d texels; click a block to highlight its face", set.width, set.height);
    atlasPageView(map, set);
    ImGui::End();
}

void DebugPanels::modelSection(uint32_t instance) {
    const scene::EntityModelSet& set = m_bundle->models;
    if (instance >= set.instances.size())
        return;
    const scene::EntityModelInstance& inst = set.instances[instance];
    std::optional<uint32_t> lod;
    if (m_renderer && m_renderer->models())
        lod = m_renderer->models()->drawnLod(instance);
    for (const std::string& line : scene::describeInstance(set, instance, lod))
        ImGui::TextUnformatted(line.c_str());
    if (inst.entity < m_bundle->map.entities.size())
        for (const auto& [key, value] : m_bundle->map.entities[inst.entity].pairs)
            ImGui::Text("  %s  %s", key.c_str(), value.c_str());
}

void DebugPanels::shaderSection(int32_t material) {
    if (!m_bundle || material < 0 ||
        static_cast<size_t>(material) >= m_bundle->stages.materials.size())
        return;
    const scene::StagedMaterial& sm = m_bundle->stages.materials[static_cast<size_t>(material)];
    if (!sm.shader) {
        if (m_bundle->map.format == bsp::Format::Quake3 ||
            m_bundle->map.format == bsp::Format::Quake3Rtcw ||
            m_bundle->map.format == bsp::Format::Qfusion)
            ImGui::TextDisabled("no shader script: implicit texture x lightmap");
        return;
    }
    const content::ShaderDef& def = *sm.shader;
    const std::vector<std::string> lines = content::describeShader(def);
    if (!ImGui::TreeNodeEx("shader", ImGuiTreeNodeFlags_DefaultOpen, "shader %s  (%s:%d)",
                           def.name.c_str(), def.file.c_str(), def.line))
        return;
    if (lines.size() > 1)
        ImGui::TextWrapped("%s", lines[1].c_str());
    if (sm.stages.empty())
        ImGui::TextDisabled(sm.sky ? "sky: far box only"
                                   : "drawn in one pass: texture x lightmap (no stage needs more)");
    // One toggle per drawn stage; a collapsed lightmap pair is one draw, so one toggle.
    for (const scene::RenderStage& r : sm.stages) {
        bool on = !m_renderer || m_renderer->stageEnabled(material, r.shader_stage);
        const std::string label = r.shader_stage_count > 1
                                      ? "stages " + std::to_string(r.shader_stage) + "+" +
                                            std::to_string(r.shader_stage + 1) +
                                            " (collapsed with the lightmap)"
                                      : "stage " + std::to_string(r.shader_stage);
        ImGui::PushID(r.shader_stage);
        if (ImGui::Checkbox(label.c_str(), &on) && m_renderer)
            m_renderer->setStageEnabled(material, r.shader_stage, on);
        ImGui::PopID();
        for (int k = 0; k < r.shader_stage_count; ++k) {
            const size_t line = 2 + static_cast<size_t>(r.shader_stage + k);
            if (line < lines.size())
                ImGui::TextWrapped("    %s", lines[line].c_str());
        }
    }
    // Warnings follow the stage lines.
    for (size_t i = 2 + def.stages.size(); i < lines.size(); ++i)
        ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "%s", lines[i].c_str());
    ImGui::TreePop();
}

void DebugPanels::drawPanel(const scene::DrawList& list, bool visible) {
    // I (picking) comes from the viewer's key table (pickCentre), so a short tap is never lost.
    if (!m_open || !visible)
        return;
    // First placed at the window's right edge under the menu bar, as wide as the panel's
    // widest fixed line and 600 high (fitted to its content on the first frame it would fit a
    // panel whose map has not loaded yet), then the user's; kept on the screen by the viewer.
    const float width =
        ImGui::CalcTextSize(kWidestLine).x + 2 * ImGui::GetStyle().WindowPadding.x + 24;
    if (!beginPanel("Debug", &m_open,
                    {{1.0f, 0.0f},
                     {-10.0f, ImGui::GetFrameHeight() + 10.0f},
                     {1.0f, 0.0f},
                     {width, 600.0f}})) {
        ImGui::End();
        return;
    }
    frameSection(list);
    if (!m_ready || !m_bundle) {
        ImGui::End();
        return;
    }
    const bsp::Map& map = m_bundle->map;
    overlaysSection(map);
    collisionSection(map);
    entitiesSection();
    lightmapsSection(map);
    compileFilesSection();
    patchesSection(map);
    ImGui::End();

    atlasPanel();
    if (m_follow_crosshair || m_highlight_face >= 0) {
        // A crosshair at the centre, the point picking uses.
        const ImVec2 c(ImGui::GetIO().DisplaySize.x * 0.5f, ImGui::GetIO().DisplaySize.y * 0.5f);
        ImDrawList* dl = ImGui::GetBackgroundDrawList();
        dl->AddLine(ImVec2(c.x - 8, c.y), ImVec2(c.x + 8, c.y), IM_COL32(255, 255, 255, 220));
        dl->AddLine(ImVec2(c.x, c.y - 8), ImVec2(c.x, c.y + 8), IM_COL32(255, 255, 255, 220));
    }
}

void DebugPanels::frameSection(const scene::DrawList& list) {
    // Frame time: graph and percentiles over the last kFrames frames.
    std::array<float, kFrames> ordered{};
    for (int i = 0; i < m_frame_count; ++i)
        ordered[static_cast<size_t>(i)] =
            m_frame_ms[static_cast<size_t>((m_frame_next - m_frame_count + i + kFrames) % kFrames)];
    const FramePercentiles p = framePercentiles(ordered.data(), static_cast<size_t>(m_frame_count));
    char overlay[96];
    std::snprintf(overlay, sizeof overlay, "p50 %.2f  p95 %.2f  p99 %.2f ms", p.p50, p.p95, p.p99);
    ImGui::PlotLines("##frame", ordered.data(), m_frame_count, 0, overlay, 0.0f,
                     static_cast<float>(std::max(16.7, p.max * 1.1)),
                     ImVec2(std::max(ImGui::GetContentRegionAvail().x, 340.0f), 60));
    // Draw calls, triangles and the state changes the batch order implies (one per change of
    // pass, model or material).
    uint32_t state_changes = 0;
    const scene::DrawBatch* prev = nullptr;
    for (const scene::DrawBatch& b : list.batches) {
        if (!prev || b.pass != prev->pass || b.material != prev->material ||
            b.submodel != prev->submodel)
            ++state_changes;
        prev = &b;
    }
    ImGui::Text("draw calls %u  triangles %llu  state changes %u (batch order)",
                list.stats.draw_calls, static_cast<unsigned long long>(list.stats.triangles),
                state_changes);
    drawPassTimesTable(m_timers);
}

void DebugPanels::overlaysSection(const bsp::Map& map) {
    ImGui::Separator();
    ImGui::TextUnformatted("Overlays");
    ImGui::Checkbox("locked frustum", &m_views.frustum);
    ImGui::SameLine();
    ImGui::Checkbox("leaf bounds", &m_views.leaf_bounds);
    if (ImGui::Checkbox("clusters", &m_views.clusters) && m_views.clusters)
        m_views.areas = false;
    ImGui::SameLine();
    if (ImGui::Checkbox("areas", &m_views.areas) && m_views.areas)
        m_views.clusters = false;
    ImGui::SameLine();
    ImGui::BeginDisabled(map.areas.size() < 2);
    ImGui::Checkbox("area borders", &m_views.area_borders);
    ImGui::EndDisabled();
    ImGui::SliderFloat("frustum depth", &m_frustum_depth, 64.0f, 16384.0f, "%.0f",
                       ImGuiSliderFlags_Logarithmic);
    const render::DebugOverlayStats& s = m_overlays.stats();
    ImGui::Text("visible leaves %u  tinted groups %u  area borders %u", s.visible_leaves,
                s.tinted_groups, s.area_borders);
    if (!map.areas.empty())
        ImGui::Text("areas %zu  area portals %zu", map.areas.size(), map.area_portals.size());
    ImGui::TextDisabled("lock visibility (L) and fly out to see the frustum");
    if (m_changes)
        changesSection(*m_changes);
}

void DebugPanels::changesSection(const scene::MapDiff& d) {
    // After a reload: the previous compile is kept (B flips to it).
    ImGui::Checkbox("changes since the previous compile", &m_views.changes);
    const auto swatch = [](scene::FaceChange c, const char* label, size_t n) {
        const glm::u8vec4 k =
            c == scene::FaceChange::Same ? scene::kRemovedColour : scene::changeColour(c);
        ImGui::TextColored(ImVec4(k.r / 255.0f, k.g / 255.0f, k.b / 255.0f, 1.0f), "%s %zu", label,
                           n);
    };
    swatch(scene::FaceChange::Added, "added", d.added);
    ImGui::SameLine();
    swatch(scene::FaceChange::Moved, "moved", d.moved);
    ImGui::SameLine();
    swatch(scene::FaceChange::Relit, "relit", d.relit);
    ImGui::SameLine();
    swatch(scene::FaceChange::Same, "removed", d.removed.size());
    ImGui::SameLine();
    ImGui::TextDisabled("same %u", d.same);
}

void DebugPanels::entitiesSection() {
    ImGui::Separator();
    ImGui::TextUnformatted("Entities");
    ImGui::Checkbox("markers", &m_views.entities);
    ImGui::SameLine();
    ImGui::Checkbox("labels", &m_labels);
    ImGui::SameLine();
    ImGui::Checkbox("target lines", &m_target_lines);
    ImGui::InputText("classname filter", m_filter, sizeof m_filter);
    ImGui::Text("%u of %zu point entities", m_overlays.stats().markers,
                m_overlays.markers().size());
}

void DebugPanels::lightmapsSection(const bsp::Map& map) {
    ImGui::Separator();
    ImGui::TextUnformatted("Lightmaps");
    ImGui::Checkbox("luxel grid", &m_views.luxels);
    ImGui::SameLine();
    ImGui::Checkbox("follow crosshair", &m_follow_crosshair);
    ImGui::SameLine();
    if (ImGui::Button("atlas..."))
        m_atlas_open = true;
    if (ImGui::Button("pick face under crosshair (I)"))
        pickAt(m_view_camera.position, m_view_camera.forward());
    ImGui::SameLine();
    if (ImGui::Button("clear"))
        clearPick();
    if (m_pick && m_pick->model)
        modelSection(m_pick->model->instance);
    if (m_clip_pick) {
        std::string names;
        for (const bsp::CollisionContentsName& n : bsp::kCollisionContentsNames)
            if (m_clip_pick->contents & n.bit)
                names += (names.empty() ? "" : " ") + std::string(n.name);
        ImGui::Text("collision: %s (model %d)", names.c_str(), m_clip_pick->submodel);
        ImGui::Text("hit %.1f %.1f %.1f at %.1f units", m_clip_pick->point.x, m_clip_pick->point.y,
                    m_clip_pick->point.z, m_clip_pick->distance);
    }
    if (m_highlight_face >= 0 && static_cast<size_t>(m_highlight_face) < map.faces.size())
        faceSection(map);
}

void DebugPanels::faceSection(const bsp::Map& map) {
    const bsp::Face& f = map.faces[static_cast<size_t>(m_highlight_face)];
    const char* material = f.material >= 0 && static_cast<size_t>(f.material) < map.materials.size()
                               ? map.materials[static_cast<size_t>(f.material)].name.c_str()
                               : "?";
    ImGui::Text("face %d  %s", m_highlight_face, material);
    if (f.kind == bsp::FaceKind::Patch)
        ImGui::Text(
            "patch %ux%u control points, %zu triangles at level %d", f.patch_width, f.patch_height,
            bsp::patchTriangleCount(f.patch_width, f.patch_height, m_bundle->mesh.patch_level),
            m_bundle->mesh.patch_level);
    ImGui::Text("lightmap page %d  block %u,%u %ux%u  styles %d", f.lightmap_page,
                f.lightmap_rect.x, f.lightmap_rect.y, f.lightmap_rect.w, f.lightmap_rect.h,
                f.numStyles());
    shaderSection(f.material);
    if (!m_pick || m_pick->hit.face != static_cast<uint32_t>(m_highlight_face))
        return;
    ImGui::Text("hit %.1f %.1f %.1f at %.1f units", m_pick->hit.point.x, m_pick->hit.point.y,
                m_pick->hit.point.z, m_pick->hit.distance);
    if (m_pick->luxel) {
        const scene::Luxel& l = *m_pick->luxel;
        ImGui::Text("luxel %d,%d (page %d,%d)  rgb %u %u %u", l.local_x, l.local_y, l.x, l.y,
                    l.rgb[0], l.rgb[1], l.rgb[2]);
        ImGui::SameLine();
        ImGui::ColorButton("##luxel",
                           ImVec4(l.rgb[0] / 255.0f, l.rgb[1] / 255.0f, l.rgb[2] / 255.0f, 1.0f));
    } else {
        ImGui::TextUnformatted("no lightmap (vertex lit or fullbright)");
    }
}

void DebugPanels::patchesSection(const bsp::Map& map) {
    const size_t patches = scene::patchCount(map);
    if (patches == 0)
        return;
    ImGui::Separator();
    ImGui::TextUnformatted("Patches");
    ImGui::Checkbox("control nets", &m_views.patches);
    ImGui::SameLine();
    const int level = m_bundle->mesh.patch_level;
    size_t controls = 0, triangles = 0;
    for (const bsp::Face& f : map.faces)
        if (f.kind == bsp::FaceKind::Patch) {
            controls += static_cast<size_t>(f.patch_width) * f.patch_height;
            triangles += bsp::patchTriangleCount(f.patch_width, f.patch_height, level);
        }
    ImGui::Text("%zu patches, %zu control points", patches, controls);
    ImGui::Text("tessellation level %d: %zu triangles", level, triangles);
    ImGui::TextDisabled("change the level with the \"patch level\" slider (--patch-level)");
}

core::Status drawDebugOverlaysOnce(render::WorldRenderer& renderer,
                                   const render::GlslLibrary& shaders,
                                   const scene::MapBundle& bundle, const scene::DrawList& list,
                                   const scene::Camera& vis_camera, const scene::VisOptions& vis,
                                   const scene::DebugViews& views, render::DebugOverlayStats* stats,
                                   int32_t leak_stop, const scene::MapDiff* changes,
                                   const bsp::Map* compare) {
    render::DebugOverlays overlays;
    std::string error;
    if (!overlays.init(shaders, &error))
        return core::makeError(core::ErrorCode::Graphics, {}, -1, {}, error);
    overlays.setMap(bundle.map, bundle.mesh);
    overlays.setCompileFiles(bundle.leak ? &*bundle.leak : nullptr,
                             bundle.portals ? &*bundle.portals : nullptr);
    render::DebugOverlayInput in;
    in.list = &list;
    in.vis_camera = vis_camera;
    in.vis_pvs = vis.pvs;
    in.vis_frustum = vis.frustum;
    in.views = views;
    in.changes = changes;
    in.compare = compare;
    in.leak_stop = leak_stop;
    overlays.draw(renderer, in);
    if (stats)
        *stats = overlays.stats();
    return core::okStatus();
}

} // namespace app
