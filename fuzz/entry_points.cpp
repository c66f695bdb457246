#include "entry_points.h"
#include "entry_support.h"

#include "bsp/entities.h"
#include "bsp/load.h"
#include "content/compile/leak_file.h"
#include "content/compile/portal_file.h"
#include "content/image/image.h"
#include "content/image/vtf.h"
#include "content/material/texture_cache.h"
#include "content/material/vmt.h"
#include "content/vfs/game_install.h"
#include "content/vfs/vfs.h"
#include "content/vfs/vpk.h"
#include "game/profile.h"
#include "physics/collision.h"
#include "physics/walk_script.h"
#include "scene/debug/compile_overlays.h"
#include "scene/view/camera_text.h"
#include "scene/view/visibility.h"
#include "scene/world/lightmap_set.h"
#include "scene/world/world_mesh.h"

#include <glm/geometric.hpp>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string_view>

namespace fuzz {

// A rejection must say what went wrong.
Outcome rejected(core::Error e) {
    Outcome o;
    o.accepted = false;
    if (e.code == core::ErrorCode::Ok)
        o.violation = "rejected with code Ok: " + e.message();
    else if (e.message().empty())
        o.violation = "rejected with an empty message";
    o.error = std::move(e);
    return o;
}

std::string rangeProblem(const char* what, uint64_t index, uint64_t first, uint64_t count,
                         uint64_t size) {
    if (first <= size && count <= size - first)
        return {};
    return std::string(what) + "[" + std::to_string(index) + "] range " + std::to_string(first) +
           "+" + std::to_string(count) + " beyond " + std::to_string(size);
}

namespace {

std::string indexProblem(const char* what, uint64_t index, int64_t value, uint64_t size,
                         bool allow_minus_one) {
    if ((allow_minus_one && value == -1) || (value >= 0 && static_cast<uint64_t>(value) < size))
        return {};
    return std::string(what) + "[" + std::to_string(index) + "] = " + std::to_string(value) +
           ", size " + std::to_string(size);
}

// What physics::CollisionWorld relies on: every index of Map::collision inside its array.
std::string checkCollisionInvariants(const bsp::Map& m) {
    const bsp::Collision& c = m.collision;
    if (c.kind == bsp::CollisionKind::None)
        return {};
    if (c.models.size() != m.submodels.size())
        return "collision.models " + std::to_string(c.models.size()) + " != submodels " +
               std::to_string(m.submodels.size());
    for (size_t i = 0; i < c.clipnodes.size(); ++i) {
        if (auto p =
                indexProblem("clipnodes.plane", i, c.clipnodes[i].plane, m.planes.size(), false);
            !p.empty())
            return p;
        for (int32_t child : c.clipnodes[i].children)
            if (child >= 0 && static_cast<size_t>(child) >= c.clipnodes.size())
                return indexProblem("clipnodes.children", i, child, c.clipnodes.size(), false);
    }
    for (size_t i = 0; i < c.models.size(); ++i) {
        const bsp::ModelCollision& mc = c.models[i];
        if (c.kind == bsp::CollisionKind::Hulls) {
            for (size_t h = 1; h < c.hulls.size() && h < 4; ++h)
                if (mc.heads[h] >= 0 && static_cast<size_t>(mc.heads[h]) >= c.clipnodes.size())
                    return indexProblem("collision.models.heads", i, mc.heads[h],
                                        c.clipnodes.size(), false);
        }
        if (mc.heads[0] >= 0 && static_cast<size_t>(mc.heads[0]) >= m.nodes.size())
            return indexProblem("collision.models.head0", i, mc.heads[0], m.nodes.size(), false);
        if (auto p = rangeProblem("collision.models.brushes", i, mc.brushes.first, mc.brushes.count,
                                  c.brushes.size());
            !p.empty())
            return p;
    }
    if (!c.material_contents.empty() && c.material_contents.size() != m.materials.size())
        return "collision.material_contents do not match the materials";
    if (c.kind == bsp::CollisionKind::Hulls && c.leaf_values.size() != m.leaves.size())
        return "collision.leaf_values do not match the leaves";
    for (size_t i = 0; i < c.brushes.size(); ++i)
        if (auto p = rangeProblem("brushes", i, c.brushes[i].first_side, c.brushes[i].num_sides,
                                  c.brush_sides.size());
            !p.empty())
            return p;
    for (size_t i = 0; i < c.brush_sides.size(); ++i)
        if (auto p =
                indexProblem("brushsides.plane", i, c.brush_sides[i].plane, m.planes.size(), false);
            !p.empty())
            return p;
    for (size_t i = 0; i < c.leaf_brushes.size(); ++i)
        if (c.leaf_brushes[i] >= c.brushes.size())
            return indexProblem("leafbrushes", i, c.leaf_brushes[i], c.brushes.size(), false);
    if (c.kind == bsp::CollisionKind::Brushes && c.leaf_brush_ranges.size() != m.leaves.size())
        return "collision.leaf_brush_ranges do not match the leaves";
    for (size_t i = 0; i < c.leaf_brush_ranges.size(); ++i)
        if (auto p = rangeProblem("leafs.leafbrushes", i, c.leaf_brush_ranges[i].first,
                                  c.leaf_brush_ranges[i].count, c.leaf_brushes.size());
            !p.empty())
            return p;
    return {};
}

// Traces from each eye along the axes and to the other eyes, for the point and the player box:
// every trace must return with a fraction in [0, 1].
std::string exerciseCollision(const bsp::Map& map, const std::vector<glm::vec3>& eyes) {
    const physics::CollisionWorld world(map);
    const bsp::HullSize box = world.hullSize(1);
    for (const glm::vec3& eye : eyes) {
        for (int32_t hull = 0; hull < world.hullCount(); ++hull)
            (void)world.pointContents(eye, hull);
        for (const glm::vec3& to : eyes)
            for (const glm::vec3& d :
                 {glm::vec3(4096, 0, 0), glm::vec3(0, -4096, 0), glm::vec3(0, 0, -4096), to - eye})
                for (const bool point : {true, false}) {
                    const physics::TraceResult t =
                        world.trace(eye, eye + d, point ? glm::vec3(0) : box.mins,
                                    point ? glm::vec3(0) : box.maxs);
                    if (!(t.fraction >= 0.0f && t.fraction <= 1.0f))
                        return "trace fraction " + std::to_string(t.fraction);
                }
    }
    return {};
}

// Runs what the viewer runs after loading: the world mesh, then visibility from a few camera
// positions (spawns, the middle of the world, the origin), with and without the PVS.
std::string exerciseScene(const bsp::Map& map) {
    // The map's pages as the scene lays them out (deluxe maps split off by their detection).
    const scene::LightmapSet lightmaps = scene::lightmapsInMap(map);
    if (!lightmaps.deluxe.empty() && lightmaps.deluxe.size() != lightmaps.pages.size())
        return std::to_string(lightmaps.deluxe.size()) + " deluxe pages for " +
               std::to_string(lightmaps.pages.size()) + " light pages";
    scene::WorldMeshOptions options;
    options.lightmaps = &lightmaps;
    const scene::WorldMesh mesh = scene::buildWorldMesh(map, options);
    for (size_t i = 0; i < mesh.vertices.size(); ++i)
        if (mesh.vertices[i].lm_layer >= static_cast<float>(lightmaps.pages.size()))
            return "mesh vertex " + std::to_string(i) + " on lightmap layer " +
                   std::to_string(mesh.vertices[i].lm_layer) + " of " +
                   std::to_string(lightmaps.pages.size());
    if (mesh.faces.size() != map.faces.size())
        return "mesh faces " + std::to_string(mesh.faces.size()) + " != map faces " +
               std::to_string(map.faces.size());
    for (size_t i = 0; i < mesh.indices.size(); ++i)
        if (mesh.indices[i] >= mesh.vertices.size())
            return "mesh index " + std::to_string(i) + " = " + std::to_string(mesh.indices[i]) +
                   " beyond " + std::to_string(mesh.vertices.size()) + " vertices";
    for (size_t i = 0; i < mesh.faces.size(); ++i)
        if (auto p = rangeProblem("mesh.faces", i, mesh.faces[i].first_index,
                                  mesh.faces[i].num_indices, mesh.indices.size());
            !p.empty())
            return p;

    std::vector<glm::vec3> eyes;
    for (const bsp::SpawnPoint& s : bsp::findSpawnPoints(map)) {
        if (eyes.size() >= 4)
            break;
        eyes.push_back(s.origin + glm::vec3(0, 0, 26));
    }
    eyes.push_back((map.worldMins() + map.worldMaxs()) * 0.5f);
    eyes.push_back(glm::vec3(0.0f));
    if (auto p = exerciseCollision(map, eyes); !p.empty())
        return p;
    scene::Visibility vis(map, mesh);
    scene::DrawList list;
    for (const glm::vec3& eye : eyes) {
        for (const bool pvs : {true, false}) {
            scene::Camera cam;
            cam.position = eye;
            cam.yaw = 45.0f;
            scene::VisOptions opts;
            opts.pvs = pvs;
            vis.update(cam, opts, list);
            for (size_t i = 0; i < list.ranges.size(); ++i)
                if (auto p = rangeProblem("draw.ranges", i, list.ranges[i].first_index,
                                          list.ranges[i].count, mesh.indices.size());
                    !p.empty())
                    return p;
            for (const uint32_t f : list.faces)
                if (f >= map.faces.size())
                    return "draw list face " + std::to_string(f) + " beyond " +
                           std::to_string(map.faces.size());
        }
    }
    return {};
}

// One temporary file per process (fuzzers run one input at a time per process).
std::filesystem::path tempArchivePath() {
    static std::atomic<int> counter{0};
    const char* dir = std::getenv("TMPDIR");
    std::filesystem::path base = dir && *dir ? dir : "/tmp";
    return base / ("bspv_fuzz_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) +
                   ".archive");
}

} // namespace

std::string checkMapInvariants(const bsp::Map& m) {
    std::string p;
    for (size_t i = 0; i < m.nodes.size(); ++i) {
        const bsp::Node& n = m.nodes[i];
        if (!(p = indexProblem("nodes.plane", i, n.plane, m.planes.size(), false)).empty())
            return p;
        for (const int32_t c : n.children) {
            if (c >= 0) {
                if (!(p = indexProblem("nodes.child", i, c, m.nodes.size(), false)).empty())
                    return p;
            } else if (!(p = indexProblem("nodes.leaf", i, -1 - static_cast<int64_t>(c),
                                          m.leaves.size(), false))
                            .empty()) {
                return p;
            }
        }
    }
    for (size_t i = 0; i < m.leaves.size(); ++i)
        if (!(p = rangeProblem("leaves", i, m.leaves[i].first_leaf_face, m.leaves[i].num_leaf_faces,
                               m.leaf_faces.size()))
                 .empty())
            return p;
    for (size_t i = 0; i < m.leaf_faces.size(); ++i)
        if (!(p = indexProblem("leaf_faces", i, m.leaf_faces[i], m.faces.size(), false)).empty())
            return p;
    for (size_t i = 0; i < m.submodels.size(); ++i)
        if (!(p = rangeProblem("submodels", i, m.submodels[i].first_face, m.submodels[i].num_faces,
                               m.faces.size()))
                 .empty())
            return p;
    // External lightmaps (q3map2 -external): faces name image numbers the scene maps to pages
    // (scene/world/lightmap_set.h), so they need not lie inside the map's (empty) page list.
    const bool external = m.lightmap_storage == bsp::LightmapStorage::External;
    if (external && !m.lightmap_pages.empty())
        return "external lightmaps with " + std::to_string(m.lightmap_pages.size()) +
               " pages in the map";
    for (size_t i = 0; i < m.faces.size(); ++i) {
        const bsp::Face& f = m.faces[i];
        if (!(p = indexProblem("faces.material", i, f.material, m.materials.size(), true))
                 .empty() ||
            (!external && !(p = indexProblem("faces.lightmap_page", i, f.lightmap_page,
                                             m.lightmap_pages.size(), true))
                               .empty()) ||
            !(p = indexProblem("faces.fog", i, f.fog, m.fogs.size(), true)).empty() ||
            !(p = rangeProblem("faces.vertices", i, f.first_vertex, f.num_vertices,
                               m.vertices.size()))
                 .empty() ||
            !(p = rangeProblem("faces.indices", i, f.first_index, f.num_indices, m.indices.size()))
                 .empty())
            return p;
        if (f.kind == bsp::FaceKind::Patch &&
            static_cast<uint64_t>(f.patch_width) * f.patch_height > f.num_vertices)
            return "faces[" + std::to_string(i) + "] patch " + std::to_string(f.patch_width) + "x" +
                   std::to_string(f.patch_height) + " needs more than " +
                   std::to_string(f.num_vertices) + " vertices";
        if (!external && f.lightmap_page >= 0 &&
            (static_cast<int64_t>(f.lightmap_rect.x) + f.lightmap_rect.w > m.lightmap_width ||
             static_cast<int64_t>(f.lightmap_rect.y) + f.lightmap_rect.h > m.lightmap_height))
            return "faces[" + std::to_string(i) + "] lightmap rect outside the page";
    }
    for (size_t i = 0; i < m.indices.size(); ++i)
        if (m.indices[i] >= m.vertices.size())
            return "indices[" + std::to_string(i) + "] = " + std::to_string(m.indices[i]) +
                   " beyond " + std::to_string(m.vertices.size()) + " vertices";
    for (size_t i = 0; i < m.materials.size(); ++i)
        if (!(p = indexProblem("materials.embedded", i, m.materials[i].embedded,
                               m.embedded_textures.size(), true))
                 .empty() ||
            !(p = indexProblem("materials.anim_next", i, m.materials[i].anim_next,
                               m.materials.size(), true))
                 .empty())
            return p;
    for (size_t i = 0; i < m.embedded_textures.size(); ++i) {
        const bsp::EmbeddedTexture& t = m.embedded_textures[i];
        if (t.width < 0 || t.height < 0 ||
            t.indices.size() != static_cast<size_t>(t.width) * static_cast<size_t>(t.height))
            return "embedded_textures[" + std::to_string(i) + "] pixel count mismatch";
    }
    const size_t page_bytes = static_cast<size_t>(std::max(0, m.lightmap_width)) *
                              static_cast<size_t>(std::max(0, m.lightmap_height)) * 3;
    for (size_t i = 0; i < m.lightmap_pages.size(); ++i)
        if (m.lightmap_pages[i].rgb.size() != page_bytes)
            return "lightmap_pages[" + std::to_string(i) + "] holds " +
                   std::to_string(m.lightmap_pages[i].rgb.size()) + " bytes, not " +
                   std::to_string(page_bytes);
    // Light directions (BSPX LIGHTINGDIR, .lux) are none or one per page, page-sized.
    if (!m.deluxe_pages.empty() && m.deluxe_pages.size() != m.lightmap_pages.size())
        return std::to_string(m.deluxe_pages.size()) + " deluxe pages for " +
               std::to_string(m.lightmap_pages.size()) + " lightmap pages";
    for (size_t i = 0; i < m.deluxe_pages.size(); ++i)
        if (m.deluxe_pages[i].rgb.size() != page_bytes)
            return "deluxe_pages[" + std::to_string(i) + "] holds " +
                   std::to_string(m.deluxe_pages[i].rgb.size()) + " bytes";
    if (auto problem = checkCollisionInvariants(m); !problem.empty())
        return problem;
    if (auto problem = checkSourcePropInvariants(m); !problem.empty())
        return problem;
    if (m.vis.present() && (m.vis.row_size <= 0 ||
                            m.vis.rows.size() != static_cast<size_t>(m.vis.num_clusters) *
                                                     static_cast<size_t>(m.vis.row_size) ||
                            static_cast<int64_t>(m.vis.row_size) * 8 < m.vis.num_clusters))
        return "vis rows do not match the cluster count";
    return {};
}

Outcome runLoadMapWithLit(std::span<const uint8_t> data, std::span<const uint8_t> lit) {
    bsp::Companions companions;
    companions.lit.assign(lit.begin(), lit.end());
    auto map = bsp::loadMap(data, "fuzz.bsp", companions);
    if (!map)
        return rejected(std::move(map.error()));
    // The game's rules and spawn state, read from the same hostile entity text.
    game::spawnBrushModels(game::profileFor(*map), *map);
    Outcome o;
    o.accepted = true;
    o.violation = checkMapInvariants(*map);
    if (o.violation.empty())
        o.violation = exerciseScene(*map);
    return o;
}

Outcome runLoadMap(std::span<const uint8_t> data) {
    return runLoadMapWithLit(data, {});
}

Outcome runArchive(std::span<const uint8_t> data) {
    const std::filesystem::path path = tempArchivePath();
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data.data()),
                  static_cast<std::streamsize>(data.size()));
        if (!out) {
            Outcome o;
            o.violation = "cannot write temporary file " + path.string();
            return o;
        }
    }
    Outcome o;
    {
        content::FileSystem fs;
        core::Status st = fs.addArchive(path);
        if (!st) {
            o = rejected(std::move(st.error()));
        } else {
            o.accepted = true;
            // Read members back (small ones only: a hostile directory may claim up to
            // kMaxMemberBytes per member, which is allowed and only slow).
            int read = 0;
            for (const std::string& name : fs.list("", "")) {
                if (++read > 64)
                    break;
                auto bytes = fs.readChecked(name);
                if (!bytes && (bytes.error().code == core::ErrorCode::Ok ||
                               bytes.error().message().empty())) {
                    o.violation = "member read failed without a proper error";
                    break;
                }
                if (fs.sourceOf(name).empty()) {
                    o.violation = "listed member \"" + name + "\" has no source";
                    break;
                }
            }
        }
    }
    std::error_code ec;
    std::filesystem::remove(path, ec);
    return o;
}

Outcome runImage(std::span<const uint8_t> data) {
    auto img = content::decodeImage(data, "fuzz.img");
    if (!img)
        return rejected(std::move(img.error()));
    Outcome o;
    o.accepted = true;
    if (!img->valid() || img->width > content::kMaxImageDimension ||
        img->height > content::kMaxImageDimension)
        o.violation = "accepted image is invalid or larger than the limit";
    return o;
}

namespace {

// A 4x4 24-bit TGA of one grey level, as q3map2 writes lightmaps (bottom row first).
std::vector<uint8_t> greyTga(uint8_t level) {
    std::vector<uint8_t> b(18, 0);
    b[2] = 2;
    b[12] = 4;
    b[14] = 4;
    b[16] = 24;
    b.resize(18 + 4 * 4 * 3, level);
    return b;
}

} // namespace

bool writeFile(const std::filesystem::path& path, std::span<const uint8_t> data) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data.data()),
              static_cast<std::streamsize>(data.size()));
    return out.good();
}

Outcome runExternalLightmap(std::span<const uint8_t> data) {
    Outcome o;
    o.accepted = true;
    const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                      ("bspv_fuzz_lm_" + std::to_string(::getpid())) / "maps" /
                                      "fuzz";
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (!writeFile(dir / "lm_0000.tga", greyTga(64)) || !writeFile(dir / "lm_0001.tga", data) ||
        !writeFile(dir / "lm_0002.tga", greyTga(32)))
        return rejected(core::makeError(core::ErrorCode::FileOpen, dir.string(), -1, {},
                                        "cannot write the lightmap files"));
    bsp::Map map;
    map.format = bsp::Format::Quake3;
    map.lightmap_storage = bsp::LightmapStorage::External;
    map.deluxe_maps = bsp::DeluxeMaps::Auto;
    for (const int32_t page : {0, 1, 2}) {
        bsp::Face f;
        f.lightmap_page = page;
        map.faces.push_back(f);
    }
    content::FileSystem fs;
    if (auto st = fs.addDirectory(dir.parent_path().parent_path()); !st)
        return rejected(std::move(st.error()));
    std::vector<std::string> warnings;
    const scene::LightmapSet set = scene::loadLightmapSet(map, fs, "maps/fuzz", &warnings);
    std::filesystem::remove_all(dir.parent_path().parent_path(), ec);

    const size_t page_bytes = static_cast<size_t>(set.width) * static_cast<size_t>(set.height) * 3;
    for (const auto* list : {&set.pages, &set.deluxe})
        for (const bsp::LightmapPage& p : *list)
            if (p.rgb.size() != page_bytes) {
                o.violation = "a page of " + std::to_string(p.rgb.size()) + " bytes, not " +
                              std::to_string(page_bytes);
                return o;
            }
    if (!set.deluxe.empty() && set.deluxe.size() != set.pages.size())
        o.violation = "deluxe pages do not pair with light pages";
    for (const int32_t p : set.page_of)
        if (p >= static_cast<int32_t>(set.pages.size()))
            o.violation = "page number mapped past the pages";
    // lm_0000 and lm_0002 are 4x4: lm_0001 can only join them as a 4x4 image, and any other
    // answer leaves a face on vertex colours, which must be said.
    if (set.pages.size() < 3 && warnings.empty())
        o.violation = "faces lost their lightmap without a warning";
    return o;
}

Outcome runEntities(std::span<const uint8_t> data) {
    const std::string_view text(reinterpret_cast<const char*>(data.data()), data.size());
    std::vector<std::string> warnings;
    bsp::Map map;
    map.entities = bsp::parseEntities(text, &warnings);
    Outcome o;
    o.accepted = true;
    if (map.entities.size() > bsp::kMaxEntities) {
        o.violation = "more than kMaxEntities entities";
        return o;
    }
    for (const bsp::Entity& e : map.entities)
        if (e.pairs.size() > bsp::kMaxEntityPairs) {
            o.violation = "entity with more than kMaxEntityPairs pairs";
            return o;
        }
    // What the viewer does with them: spawn points and their numbers.
    const std::vector<bsp::SpawnPoint> spawns = bsp::findSpawnPoints(map);
    if (spawns.size() > map.entities.size())
        o.violation = "more spawn points than entities";
    return o;
}

Outcome runTextureCache(std::span<const uint8_t> data) {
    // The bytes are an entry's body (texture count, then the textures), given a valid header
    // and checksum so the parser past them is reached; the count asked for is the one the
    // body gives, as a real entry's would match.
    constexpr std::string_view kKey = "fuzz";
    const std::vector<uint8_t> entry = content::wrapTextureCacheBody(kKey, data);
    uint32_t count = 0;
    if (data.size() >= 4)
        std::memcpy(&count, data.data(), 4);
    const auto textures = content::decodeTextureCache(entry, kKey, count);
    if (!textures) // the cache's rejection is a miss, not an error to report
        return rejected(core::makeError(core::ErrorCode::BadValue, "texture cache", -1, {},
                                        "not an entry this code wrote"));
    Outcome o;
    o.accepted = true;
    if (textures->size() != count) {
        o.violation = "accepted entry with another texture count";
        return o;
    }
    for (const content::TextureInfo& t : *textures) {
        for (const content::Image* img : {&t.image, &t.glow, &t.layer2})
            if (img->width != 0 && (!img->valid() || img->width > content::kMaxImageDimension ||
                                    img->height > content::kMaxImageDimension)) {
                o.violation = "accepted texture with a broken or oversized image";
                return o;
            }
        // Played frames: none, or 2..kMaxVtfFrames whole images of one size with a finite rate.
        for (const auto* frames : {&t.base_frames, &t.bump_frames}) {
            if (frames->size() == 1 || frames->size() > content::kMaxVtfFrames) {
                o.violation = "accepted " + std::to_string(frames->size()) + " played frames";
                return o;
            }
            for (const content::Image& f : *frames)
                if (!f.valid() || f.width != frames->front().width ||
                    f.height != frames->front().height) {
                    o.violation = "accepted played frames that are not whole images of one size";
                    return o;
                }
        }
        if (!std::isfinite(t.base_animation.rate) || !std::isfinite(t.bump_animation.rate)) {
            o.violation = "accepted an animation with a non-finite rate";
            return o;
        }
    }
    return o;
}

Outcome runLeakFile(std::span<const uint8_t> data) {
    const std::string_view text(reinterpret_cast<const char*>(data.data()), data.size());
    auto leak = content::parseLeakFile(text, "fuzz.pts");
    if (!leak)
        return rejected(std::move(leak.error()));
    Outcome o;
    o.accepted = true;
    const content::LeakLine& l = *leak;
    if (l.points.empty() || l.points.size() > content::kMaxLeakPoints) {
        o.violation = "accepted leak line with " + std::to_string(l.points.size()) + " points";
        return o;
    }
    for (size_t i = 0; i < l.stops.size(); ++i)
        if (l.stops[i] >= l.points.size() || (i > 0 && l.stops[i] <= l.stops[i - 1])) {
            o.violation = "leak stop " + std::to_string(i) + " out of order or range";
            return o;
        }
    if (!std::isfinite(l.length)) {
        o.violation = "accepted leak line of infinite length";
        return o;
    }
    if (l.stops.empty() || l.stops.front() != 0 || l.stops.back() != l.points.size() - 1) {
        o.violation = "leak stops do not start at the first point and end at the last";
        return o;
    }
    // What the viewer draws and where its stop moves put the camera.
    scene::TriangleList ribbon;
    scene::LineList lines;
    scene::addLeakLine(ribbon, lines, l, 4.0f, 0);
    if (lines.segments() < l.points.size() - 1)
        o.violation = "fewer leak line segments than point pairs";
    for (int32_t s = 0; s < static_cast<int32_t>(l.stops.size()) && o.violation.empty(); ++s) {
        const auto cam = scene::leakStopCamera(l, s, scene::Camera());
        if (!cam || !std::isfinite(cam->yaw) || !std::isfinite(cam->pitch) ||
            !std::isfinite(cam->position.x + cam->position.y + cam->position.z))
            o.violation = "no finite camera at leak stop " + std::to_string(s);
    }
    return o;
}

Outcome runWalkScript(std::span<const uint8_t> data) {
    const std::string_view text(reinterpret_cast<const char*>(data.data()), data.size());
    auto steps = physics::parseWalkScript(text, "fuzz.txt");
    if (!steps)
        return rejected(std::move(steps.error()));
    Outcome o;
    o.accepted = true;
    int64_t total = 0;
    for (size_t i = 0; i < steps->size() && o.violation.empty(); ++i) {
        const physics::WalkStep& s = (*steps)[i];
        total += s.ticks;
        if (s.ticks < 0 || !std::isfinite(s.turn))
            o.violation = "walk step " + std::to_string(i) + " has negative ticks or a bad turn";
    }
    if (o.violation.empty() && total > physics::kMaxWalkTicks)
        o.violation = "accepted walk script of " + std::to_string(total) + " ticks";
    return o;
}

Outcome runCameraText(std::span<const uint8_t> data) {
    const std::string_view text(reinterpret_cast<const char*>(data.data()), data.size());
    auto parsed = scene::parseCameraText(text);
    if (!parsed)
        return rejected(std::move(parsed.error()));
    Outcome o;
    o.accepted = true;
    const scene::Camera c = scene::applyCameraText(*parsed, scene::Camera(), 22.0f);
    if (!std::isfinite(c.position.x) || !std::isfinite(c.position.y) ||
        !std::isfinite(c.position.z) || !std::isfinite(c.yaw) || !(c.pitch >= -89.0f) ||
        !(c.pitch <= 89.0f)) {
        o.violation = "accepted camera text gives a non-finite camera or pitch out of range";
        return o;
    }
    for (int f = 0; f < scene::kNumCameraFormats; ++f)
        if (scene::formatCameraText(static_cast<scene::CameraFormat>(f), c, 22.0f).empty())
            o.violation = "empty camera string";
    auto again =
        scene::parseCameraText(scene::formatCameraText(scene::CameraFormat::Bspview, c, 22.0f));
    if (!again || !again->position || glm::distance(*again->position, c.position) > 0.1f)
        o.violation = "bspview's camera string does not read back to the same position";
    return o;
}

Outcome runSteamLibrary(std::span<const uint8_t> data) {
    const std::string_view text(reinterpret_cast<const char*>(data.data()), data.size());
    auto folders = content::parseSteamLibraryFolders(text, "libraryfolders.vdf");
    if (!folders)
        return rejected(std::move(folders.error()));
    Outcome o;
    o.accepted = true;
    if (folders->size() > content::kMaxSteamLibraries)
        o.violation = "more than kMaxSteamLibraries library folders";
    for (size_t i = 0; i < folders->size() && o.violation.empty(); ++i) {
        if ((*folders)[i].empty())
            o.violation = "an empty library folder";
        for (size_t j = 0; j < i; ++j)
            if ((*folders)[j] == (*folders)[i])
                o.violation = "a library folder listed twice";
    }
    return o;
}

Outcome runPortalFile(std::span<const uint8_t> data) {
    const std::string_view text(reinterpret_cast<const char*>(data.data()), data.size());
    auto prt = content::parsePortalFile(text, "fuzz.prt");
    if (!prt)
        return rejected(std::move(prt.error()));
    Outcome o;
    o.accepted = true;
    const content::PortalFile& f = *prt;
    // Clusters below the count, or 0 of 0 for PRT1 portals (ericw-tools' debug portal files).
    const auto windingProblem = [&](const char* what, size_t i, const content::PortalWinding& w,
                                    uint32_t cluster, bool debug_zero) -> std::string {
        if (w.num_points < 3 || w.num_points > content::kMaxPortalWinding)
            return std::string(what) + " " + std::to_string(i) + " has " +
                   std::to_string(w.num_points) + " points";
        if (std::string r = rangeProblem(what, i, w.first_point, w.num_points, f.points.size());
            !r.empty())
            return r;
        if (cluster >= f.num_clusters && !(debug_zero && f.num_clusters == 0 && cluster == 0))
            return std::string(what) + " " + std::to_string(i) + " cluster " +
                   std::to_string(cluster) + " beyond " + std::to_string(f.num_clusters);
        return {};
    };
    const bool prt1 = f.format == content::PortalFormat::Prt1;
    for (size_t i = 0; i < f.portals.size() && o.violation.empty(); ++i) {
        o.violation = windingProblem("portal", i, f.portals[i], f.portals[i].a, prt1);
        if (o.violation.empty())
            o.violation = windingProblem("portal", i, f.portals[i], f.portals[i].b, prt1);
    }
    for (size_t i = 0; i < f.faces.size() && o.violation.empty(); ++i)
        o.violation = windingProblem("solid face", i, f.faces[i], f.faces[i].cluster, false);
    if (!o.violation.empty())
        return o;
    if (f.leaf_cluster.size() > f.num_leaves) {
        o.violation = "more leaf clusters than leaves";
        return o;
    }
    for (int32_t c : f.leaf_cluster)
        if (c < -1 || c >= static_cast<int64_t>(f.num_clusters)) {
            o.violation = "leaf cluster " + std::to_string(c) + " out of range";
            return o;
        }
    // What the viewer draws: every portal, none skipped.
    scene::TriangleList fill;
    scene::LineList outline;
    const scene::PortalOverlayStats stats = scene::addPortals(fill, outline, f);
    if (stats.portals != f.portals.size())
        o.violation = "the overlay skipped an accepted portal";
    return o;
}

Outcome runVtf(std::span<const uint8_t> data) {
    auto image = content::decodeVtf(data, "fuzz.vtf");
    if (!image)
        return rejected(std::move(image.error()));
    Outcome o;
    o.accepted = true;
    if (!image->valid())
        o.violation = "accepted VTF with an invalid image";
    else if (image->width > content::kMaxImageDimension ||
             image->height > content::kMaxImageDimension)
        o.violation =
            "accepted VTF of " + std::to_string(image->width) + "x" + std::to_string(image->height);
    // The same bytes as a cube map: six valid square faces of the image's size, or an error.
    if (auto faces = content::decodeVtfCubeFaces(data, "fuzz.vtf"); faces) {
        for (const content::Image& f : *faces)
            if (!f.valid() || f.width != f.height || f.width != image->width ||
                f.height != image->height)
                o.violation = "accepted cube map with a face that is not the image's square";
    } else if (faces.error().message().empty()) {
        o.violation = "cube map rejected with an empty message";
    }
    // Every frame: as many as the bytes budget holds, each the image's size, the first the
    // image itself.
    if (auto frames = content::decodeVtfFrames(data, "fuzz.vtf"); frames) {
        const uint64_t each = uint64_t(image->width) * uint64_t(image->height) * 4;
        if ((frames->empty() && each <= content::kMaxVtfFrameBytes) ||
            frames->size() > content::kMaxVtfFrames ||
            frames->size() * each > content::kMaxVtfFrameBytes)
            o.violation = "accepted " + std::to_string(frames->size()) + " frames";
        else if (!frames->empty() && (*frames)[0].rgba != image->rgba)
            o.violation = "frame 0 is not the decoded image";
        for (const content::Image& f : *frames)
            if (f.width != image->width || f.height != image->height)
                o.violation = "accepted a frame that is not the image's size";
    } else {
        o.violation = "frames rejected where the image was accepted: " + frames.error().message();
    }
    return o;
}

namespace {

int keyValuesDepth(const content::KeyValues& kv) {
    int deepest = 0;
    for (const content::KeyValues& c : kv.children)
        deepest = std::max(deepest, keyValuesDepth(c));
    return deepest + (kv.block ? 1 : 0);
}

// Number proxies (material_proxy.h): a bounded program whose every index names one of its vars
// (or no var, or the dummy var for a source), vars of size 0..4 with finite values; evaluated at
// any time its drawn values are finite.
std::string checkProxies(const content::MaterialProxies& p) {
    if (p.vars.size() > content::kMaxProxyVars || p.steps.size() > content::kMaxProxySteps)
        return "proxy program past its bounds";
    const auto known = [&p](int16_t v) {
        return v == content::kNoVar || v == content::kDummyVar ||
               (v >= 0 && static_cast<size_t>(v) < p.vars.size());
    };
    for (const content::ProxyVar& v : p.vars)
        if (v.size > 4 ||
            !std::all_of(v.value.begin(), v.value.end(), [](float x) { return std::isfinite(x); }))
            return "proxy var " + v.name + " of size " + std::to_string(v.size) +
                   " or with a non-finite value";
    for (const content::ProxyStep& s : p.steps) {
        if (s.op >= content::ProxyOp::Count || s.result < 0 ||
            static_cast<size_t>(s.result) >= p.vars.size() || s.result_component < -1 ||
            s.result_component > 4)
            return "proxy step with a bad op or result";
        for (const int16_t v : s.src)
            if (!known(v))
                return "proxy step source out of range";
        for (const content::ProxyInput& in : s.in)
            if (!known(in.var) || in.component < -1 || in.component > 4 || !std::isfinite(in.value))
                return "proxy step input out of range or non-finite";
    }
    for (const double time : {0.0, 0.37, 12345.678, 1.0e12}) {
        const content::ProxyValues v = p.evaluate(time);
        bool finite = std::isfinite(v.alpha);
        for (size_t i = 0; i < 3; ++i)
            finite = finite && std::isfinite(v.colour[i]) && std::isfinite(v.envmap_tint[i]);
        for (size_t i = 0; i < 6; ++i)
            finite = finite && std::isfinite(v.base.m[i]) && std::isfinite(v.bump.m[i]);
        if (!finite)
            return "proxy values not finite at t = " + std::to_string(time);
    }
    return {};
}

std::string checkVmt(const content::Vmt& vmt) {
    if (!vmt.params.block)
        return "accepted material without a parameter block";
    if (keyValuesDepth(vmt.params) > content::kMaxKeyValuesDepth + 1)
        return "accepted material nested " + std::to_string(keyValuesDepth(vmt.params)) + " deep";
    // Texture matrices and scrolls: finite numbers only, and a scroll's offsets in [0, 1) at
    // any time the viewer's clock reaches (texture_transform.h).
    const content::TextureMotion& m = vmt.motion;
    for (const content::TextureTransform* t : {&m.base, &m.bump})
        for (const float v : t->m)
            if (!std::isfinite(v))
                return "accepted a texture transform with a non-finite element";
    for (const content::TextureScroll* sc : {&m.base_scroll, &m.bump_scroll}) {
        if (!sc->enabled)
            continue;
        if (!std::isfinite(sc->rate) || !std::isfinite(sc->angle) || !std::isfinite(sc->scale))
            return "accepted a texture scroll with a non-finite value";
        for (const double time : {0.0, 0.5, 12345.678}) {
            const content::TextureTransform at = content::textureScrollAt(*sc, time);
            if (!(at.m[2] >= 0.0f && at.m[2] <= 1.0f && at.m[5] >= 0.0f && at.m[5] <= 1.0f))
                return "texture scroll offset outside [0, 1] at t = " + std::to_string(time);
        }
    }
    // AnimatedTexture: a finite rate, and the frame it picks in [0, frames) for any frame count,
    // time and time since the previous bind.
    for (const content::AnimatedTexture* a : {&vmt.base_animation, &vmt.bump_animation}) {
        if (!a->enabled)
            continue;
        if (!std::isfinite(a->rate))
            return "accepted an animated texture with a non-finite rate";
        for (const int frames : {1, 3, int(content::kMaxVtfFrames)})
            for (const double time : {0.0, 0.7, 12345.678, 1.0e12})
                for (const double step : {0.0, 0.05, 1.0e6}) {
                    const int f = content::animatedTextureFrame(*a, frames, time, step);
                    if (f < 0 || f >= frames)
                        return "animated texture frame " + std::to_string(f) + " of " +
                               std::to_string(frames) + " at t = " + std::to_string(time);
                }
    }
    if (std::abs(vmt.frame) > 1000000 || std::abs(vmt.bump_frame) > 1000000)
        return "accepted a frame var past 1e6";
    return checkProxies(vmt.proxies);
}

} // namespace

Outcome runVmt(std::span<const uint8_t> data) {
    const std::string text(data.begin(), data.end());
    auto vmt = content::parseVmt(text, "fuzz.vmt");
    if (!vmt)
        return rejected(std::move(vmt.error()));
    Outcome o;
    o.accepted = true;
    o.violation = checkVmt(*vmt);
    const content::VmtReader same = [&text](std::string_view) { return std::optional(text); };
    auto resolved = content::resolveVmt("materials/fuzz.vmt", same);
    if (o.violation.empty() && !resolved &&
        (resolved.error().code == core::ErrorCode::Ok || resolved.error().message().empty()))
        o.violation = "resolveVmt rejected without a code or message";
    if (o.violation.empty() && resolved)
        o.violation = checkVmt(*resolved);
    return o;
}

namespace {

std::string checkVpk(const content::VpkDirectory& dir, uint64_t file_size) {
    const uint64_t tree_end = dir.header_size + dir.tree_size;
    if (tree_end > file_size || dir.data_offset != tree_end ||
        dir.data_offset + dir.data_size > file_size)
        return "accepted VPK whose tree or data section leaves the file";
    for (size_t i = 0; i < dir.entries.size(); ++i) {
        const content::VpkEntry& e = dir.entries[i];
        const std::string at = "entry " + std::to_string(i) + ": ";
        if (e.name.empty())
            return at + "empty name";
        if (e.preload_offset < dir.header_size || e.preload_offset + e.preload_size > tree_end)
            return at + "preload bytes outside the tree";
        if (e.archive == content::kVpkDirArchive &&
            (e.offset < dir.data_offset || e.offset + e.size > dir.data_offset + dir.data_size))
            return at + "data outside the directory file's data section";
    }
    return {};
}

} // namespace

Outcome runVpk(std::span<const uint8_t> data) {
    auto dir = content::parseVpkDirectory(data, data.size(), "fuzz_dir.vpk");
    if (!dir)
        return rejected(std::move(dir.error()));
    Outcome o;
    o.accepted = true;
    o.violation = checkVpk(*dir, data.size());
    if (!o.violation.empty())
        return o;
    // Mounted as NAME_dir.vpk beside a 64-byte NAME_000.vpk, every member read back.
    const std::filesystem::path base = tempArchivePath();
    const std::filesystem::path dir_file = base.string() + "_dir.vpk";
    const std::filesystem::path data_file = content::vpkArchivePath(dir_file, 0);
    {
        std::ofstream out(dir_file, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data.data()),
                  static_cast<std::streamsize>(data.size()));
        std::ofstream sibling(data_file, std::ios::binary | std::ios::trunc);
        const std::array<char, 64> fill{};
        sibling.write(fill.data(), fill.size());
        if (!out || !sibling)
            o.violation = "cannot write temporary files beside " + dir_file.string();
    }
    if (o.violation.empty()) {
        content::FileSystem fs;
        core::Status st = fs.addArchive(dir_file);
        if (!st) {
            o.violation = "FileSystem rejected a directory parseVpkDirectory accepted: " +
                          st.error().message();
        } else {
            int read = 0;
            for (const std::string& name : fs.list("", "")) {
                if (++read > 64)
                    break;
                auto bytes = fs.readChecked(name);
                if (!bytes && (bytes.error().code == core::ErrorCode::Ok ||
                               bytes.error().message().empty())) {
                    o.violation = "member read failed without a proper error";
                    break;
                }
            }
        }
    }
    std::error_code ec;
    std::filesystem::remove(dir_file, ec);
    std::filesystem::remove(data_file, ec);
    return o;
}

std::span<const Target> targets() {
    static constexpr Target kTargets[] = {
#define BSPV_FUZZ_TARGET(name, entry, header_bytes, flips, expect, inputs)                         \
    {#name, &entry, header_bytes, flips, Expect::expect, inputs},
#include "targets.def"
#undef BSPV_FUZZ_TARGET
    };
    return kTargets;
}

} // namespace fuzz
