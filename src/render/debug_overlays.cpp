#include "render/debug_overlays.h"

#include <algorithm>
#include <unordered_map>

namespace render {

namespace {

glm::vec4 toVec4(glm::u8vec4 c) {
    return glm::vec4(c) / 255.0f;
}

} // namespace

bool DebugOverlays::init(const GlslLibrary& shaders, std::string* error) {
    return m_draw.init(shaders, error);
}

void DebugOverlays::setMap(const bsp::Map& map, const scene::WorldMesh& mesh) {
    m_collision = {};
    m_brush_labels.clear();
    m_map = &map;
    m_mesh = &mesh;
    m_face_cluster = scene::faceClusters(map);
    m_face_area = scene::faceAreas(map);
    m_borders = scene::areaBorders(map);
    m_markers = scene::entityMarkers(map);
    m_links = scene::targetLinks(map);
}

void DebugOverlays::setCompileFiles(const content::LeakLine* leak,
                                    const content::PortalFile* portals) {
    m_leak = leak;
    m_portals = portals;
    m_portal_fill.clear();
    m_portal_lines.clear();
    m_portal_stats = scene::PortalOverlayStats();
    if (portals)
        m_portal_stats = scene::addPortals(m_portal_fill, m_portal_lines, *portals);
    m_leak_ribbon.clear();
    m_leak_lines.clear();
    m_leak_lines_stop = -2;
}

void DebugOverlays::drawCompileFiles(WorldRenderer& renderer, const DebugOverlayInput& in) {
    if (in.views.portals && m_portals) {
        // Fill hidden behind walls (a whole map of portals at once reads as noise), outlines
        // faint there, as the other debug lines.
        m_draw.drawTriangles(m_portal_fill, renderer.glState(), 0.0f);
        m_stats.triangles += m_draw.trianglesDrawn();
        m_draw.draw(m_portal_lines, renderer.glState(), 0.25f);
        m_stats.line_segments += m_draw.segmentsDrawn();
        if (in.highlight_portal >= 0 &&
            static_cast<size_t>(in.highlight_portal) < m_portals->portals.size()) {
            // The picked portal in white over its own colour, seen through walls too.
            const content::Portal& p = m_portals->portals[static_cast<size_t>(in.highlight_portal)];
            const glm::vec3* w = m_portals->points.data() + p.first_point;
            m_picked_fill.clear();
            m_picked_lines.clear();
            m_picked_fill.addFan(w, p.num_points, glm::u8vec4(255, 255, 255, 110));
            for (uint32_t k = 0; k < p.num_points; ++k)
                m_picked_lines.add(w[k], w[(k + 1) % p.num_points],
                                   glm::u8vec4(255, 255, 255, 255));
            m_draw.drawTriangles(m_picked_fill, renderer.glState(), 0.5f);
            m_draw.draw(m_picked_lines, renderer.glState(), 1.0f);
        }
        m_stats.portals = m_portal_stats.portals;
        m_stats.portal_clusters = m_portal_stats.clusters;
        m_stats.hint_portals = m_portal_stats.hints;
    }
    if (in.views.leak && m_leak) {
        if (m_leak_lines_stop != in.leak_stop) {
            m_leak_ribbon.clear();
            m_leak_lines.clear();
            scene::addLeakLine(m_leak_ribbon, m_leak_lines, *m_leak, 4.0f, in.leak_stop);
            m_leak_lines_stop = in.leak_stop;
        }
        // The leak is what the designer looks for: seen through walls, the line at full
        // strength everywhere.
        m_draw.drawTriangles(m_leak_ribbon, renderer.glState(), 0.6f);
        m_stats.triangles += m_draw.trianglesDrawn();
        m_draw.draw(m_leak_lines, renderer.glState(), 1.0f);
        m_stats.line_segments += m_draw.segmentsDrawn();
        m_stats.leak_points = static_cast<uint32_t>(m_leak->points.size());
        m_stats.leak_stops = static_cast<uint32_t>(m_leak->stops.size());
    }
}

void DebugOverlays::labelBrushes(const scene::CollisionSolids& solids) {
    m_brush_labels.clear();
    // Polygons of one brush are consecutive: one label per brush, at the mean of its corners.
    glm::vec3 sum(0.0f);
    size_t count = 0;
    for (size_t i = 0; i < solids.polygons.size(); ++i) {
        const scene::CollisionPolygon& p = solids.polygons[i];
        for (const glm::vec3& q : p.points)
            sum += q;
        count += p.points.size();
        const bool last =
            i + 1 == solids.polygons.size() || solids.polygons[i + 1].brush != p.brush;
        if (!last)
            continue;
        if (p.entity >= 0 && static_cast<size_t>(p.entity) < m_map->entities.size() && count)
            m_brush_labels.push_back(
                {sum / static_cast<float>(count),
                 std::string(m_map->entities[static_cast<size_t>(p.entity)].classname())});
        sum = glm::vec3(0.0f);
        count = 0;
    }
}

void DebugOverlays::drawCollision(WorldRenderer& renderer, const DebugOverlayInput& in) {
    const bool on[4] = {in.views.hull1, in.views.hull2, in.views.hull3, in.views.brushes};
    for (size_t k = 0; k < 4; ++k) {
        if (!on[k])
            continue;
        CollisionView& v = m_collision[k];
        if (!v.built || (k == 3 && v.contents != in.brush_contents)) {
            v = CollisionView();
            const scene::CollisionSolids solids =
                k < 3 ? scene::hullSolids(*m_map, static_cast<int32_t>(k + 1))
                      : scene::brushSolids(*m_map, in.brush_contents);
            for (const scene::CollisionPolygon& p : solids.polygons) {
                glm::u8vec4 c = scene::contentsColour(p.contents);
                c.a = 60;
                v.fill.addFan(p.points.data(), static_cast<uint32_t>(p.points.size()), c);
            }
            scene::addCollisionOutlines(v.lines, solids);
            v.solids = solids.solids;
            v.polygons = static_cast<uint32_t>(solids.polygons.size());
            if (k == 3)
                labelBrushes(solids);
            v.contents = in.brush_contents;
            v.built = true;
        }
        // Solids stand where walls are: the fill shows where nothing hides it, the outlines
        // faintly through walls too.
        m_draw.drawTriangles(v.fill, renderer.glState(), 0.0f);
        m_stats.triangles += m_draw.trianglesDrawn();
        m_draw.draw(v.lines, renderer.glState(), 0.2f);
        m_stats.line_segments += m_draw.segmentsDrawn();
        m_stats.collision_solids += v.solids;
        m_stats.collision_polygons += v.polygons;
    }
}

void DebugOverlays::clearMap() {
    m_collision = {};
    m_brush_labels.clear();
    m_map = nullptr;
    m_mesh = nullptr;
    m_face_cluster.clear();
    m_face_area.clear();
    m_borders.clear();
    m_markers.clear();
    m_links.clear();
    setCompileFiles(nullptr, nullptr);
}

void DebugOverlays::tintFaces(WorldRenderer& renderer, const DebugOverlayInput& in,
                              const std::vector<int32_t>& key) {
    // One group per key among the faces drawn this frame (world faces only: brush models are
    // in no leaf), plus the faces "why culled" tinted, so a locked set seen from outside is
    // coloured too.
    std::unordered_map<int32_t, size_t> group_of;
    m_groups.clear();
    const auto add = [&](uint32_t face) {
        if (face >= key.size() || key[face] < 0)
            return;
        auto [it, inserted] = group_of.emplace(key[face], m_groups.size());
        if (inserted) {
            FaceGroup g;
            g.colour = toVec4(scene::hashColour(static_cast<uint32_t>(key[face])));
            m_groups.push_back(std::move(g));
        }
        m_groups[it->second].faces.push_back(face);
    };
    for (uint32_t face : in.list->faces)
        add(face);
    m_stats.tinted_groups = static_cast<uint32_t>(m_groups.size());
    renderer.drawFaceGroups(m_groups, FaceOverlay::Fill);
}

void DebugOverlays::tintChanges(WorldRenderer& renderer, const DebugOverlayInput& in) {
    // One group per (change, placement) among the faces drawn this frame.
    std::unordered_map<int32_t, size_t> group_of;
    m_groups.clear();
    const std::vector<scene::FaceChange>& change = in.changes->faces;
    for (uint32_t face : in.list->faces) {
        if (face >= change.size() || change[face] == scene::FaceChange::Same)
            continue;
        const int32_t sub = face < m_mesh->faces.size() ? m_mesh->faces[face].submodel : 0;
        const int32_t key = sub * 4 + static_cast<int32_t>(change[face]);
        auto [it, inserted] = group_of.emplace(key, m_groups.size());
        if (inserted) {
            FaceGroup g;
            // A tint: the changed surface stays readable under its colour.
            g.colour =
                glm::vec4(glm::vec3(toVec4(scene::changeColour(change[face]))), kMarkTintAlpha);
            g.submodel = sub;
            m_groups.push_back(std::move(g));
        }
        m_groups[it->second].faces.push_back(face);
        ++m_stats.changed_faces;
    }
    renderer.drawFaceGroups(m_groups, FaceOverlay::Fill);
}

void DebugOverlays::draw(WorldRenderer& renderer, const DebugOverlayInput& in) {
    m_stats = DebugOverlayStats();
    // Everything is seen through the frame's view: its blocks, as the last draw() left them.
    if (!m_map || !m_mesh || !in.list || !renderer.bindFrameBlocks())
        return;
    const scene::DebugViews& v = in.views;
    if (v.clusters)
        tintFaces(renderer, in, m_face_cluster);
    else if (v.areas)
        tintFaces(renderer, in, m_face_area);
    if (v.changes && in.changes)
        tintChanges(renderer, in);
    tintPicks(renderer, in);
    if (v.luxels) {
        // All faces drawn this frame, grouped by placement.
        groupBySubmodel(in.list->faces, glm::vec4(1.0f, 1.0f, 1.0f, 0.55f));
        renderer.drawFaceGroups(m_groups, FaceOverlay::LuxelGrid);
    }
    collectLines(in);
    m_draw.draw(m_lines, renderer.glState());
    m_stats.line_segments = m_draw.segmentsDrawn();
    drawCompileFiles(renderer, in);
    drawCollision(renderer, in);
}

void DebugOverlays::groupBySubmodel(const std::vector<uint32_t>& faces, const glm::vec4& colour) {
    m_groups.clear();
    std::unordered_map<int32_t, size_t> group_of;
    for (uint32_t face : faces) {
        const int32_t sub = face < m_mesh->faces.size() ? m_mesh->faces[face].submodel : 0;
        auto [it, inserted] = group_of.emplace(sub, m_groups.size());
        if (inserted) {
            FaceGroup g;
            g.colour = colour;
            g.submodel = sub;
            m_groups.push_back(std::move(g));
        }
        m_groups[it->second].faces.push_back(face);
    }
}

void DebugOverlays::tintPicks(WorldRenderer& renderer, const DebugOverlayInput& in) {
    if (!in.highlight_faces.empty()) {
        groupBySubmodel(in.highlight_faces, glm::vec4(0.1f, 0.9f, 1.0f, kMarkTintAlpha));
        renderer.drawFaceGroups(m_groups, FaceOverlay::Fill);
    }
    if (in.highlight_face >= 0) {
        // Translucent: the texture shows.
        groupBySubmodel({static_cast<uint32_t>(in.highlight_face)},
                        glm::vec4(1.0f, 0.9f, 0.1f, kMarkTintAlpha));
        renderer.drawFaceGroups(m_groups, FaceOverlay::Fill);
    }
}

void DebugOverlays::collectLines(const DebugOverlayInput& in) {
    const scene::DebugViews& v = in.views;
    m_lines.clear();
    if (v.leaf_bounds) {
        const auto leaves = scene::visibleLeaves(*m_map, in.vis_camera, in.vis_pvs, in.vis_frustum);
        m_stats.visible_leaves = static_cast<uint32_t>(leaves.size());
        for (uint32_t li : leaves) {
            const bsp::Leaf& l = m_map->leaves[li];
            m_lines.addBox(l.mins, l.maxs,
                           scene::hashColour(static_cast<uint32_t>(std::max(l.cluster, 0))));
        }
    }
    if (v.area_borders) {
        m_stats.area_borders = static_cast<uint32_t>(m_borders.size());
        for (const scene::AreaBorder& b : m_borders) {
            const glm::u8vec4 c =
                scene::hashColour(static_cast<uint32_t>(b.area_a * 131 + b.area_b));
            // Thin slabs would vanish as lines; pad them a little so they read as plates.
            m_lines.addBox(b.mins - glm::vec3(1.0f), b.maxs + glm::vec3(1.0f), c);
        }
    }
    if (v.entities) {
        static const std::vector<scene::TargetLink> kNoLinks;
        scene::addEntityMarkers(m_lines, *m_map, m_markers, in.target_lines ? m_links : kNoLinks,
                                in.entity_filter);
        for (const scene::EntityMarker& m : m_markers)
            m_stats.markers += scene::classnameMatches(m.classname, in.entity_filter) ? 1 : 0;
    }
    if (v.patches)
        scene::addPatchNets(m_lines, *m_map, glm::u8vec4(255, 80, 255, 255));
    if (in.highlight_face >= 0) // a picked patch shows its own net (patch inspector)
        scene::addPatchNet(m_lines, *m_map, static_cast<uint32_t>(in.highlight_face),
                           glm::u8vec4(255, 255, 255, 255));
    if (v.changes && in.changes && in.compare)
        scene::addRemovedFaces(m_lines, *in.compare, *in.changes);
    if (v.frustum)
        scene::addFrustum(m_lines, in.vis_camera, glm::u8vec4(255, 255, 60, 255), in.frustum_depth);
}

} // namespace render
