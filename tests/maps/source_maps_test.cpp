// The shared Source maps (../shared/maps/source, SOURCES.md there): every one loads with its
// faces, tree, visibility and spawn points; the record layouts of each lump version, the Left 4
// Dead 2 directory order and displacements are checked against counts read from the files.
#include "bsp/entities.h"
#include "bsp/load.h"
#include "bsp/vbsp.h"
#include "core/file.h"
#include "game/profile.h"

#include <glm/geometric.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>

namespace {

const std::filesystem::path kSource = std::filesystem::path(BSPV_SHARED_MAPS_DIR) / "source";

bsp::Map load(const char* name) {
    auto m = bsp::loadMapFile(kSource / name);
    EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().message());
    return m.ok() ? std::move(*m) : bsp::Map{};
}

} // namespace

TEST(SourceMaps, EveryMapLoadsWithTreeVisibilityAndFaces) {
    size_t n = 0, vis_maps = 0;
    for (const auto& e : std::filesystem::directory_iterator(kSource)) {
        if (e.path().extension() != ".bsp")
            continue;
        ++n;
        auto m = bsp::loadMapFile(e.path());
        ASSERT_TRUE(m.ok()) << m.error().message();
        EXPECT_EQ(m->format, bsp::Format::Source);
        EXPECT_FALSE(m->faces.empty()) << e.path();
        EXPECT_FALSE(m->nodes.empty()) << e.path();
        // Visibility exactly where the map has a visibility lump (vvis ran; the tool-texture
        // samples and the leaking displacement test have none).
        bool vis_lump = false;
        for (const bsp::LumpInfo& l : m->lumps)
            vis_lump |= l.name == "visibility" && l.length > 0;
        EXPECT_EQ(m->vis.present(), vis_lump) << e.path();
        vis_maps += vis_lump;
        EXPECT_FALSE(m->submodels.empty()) << e.path();
        EXPECT_TRUE(m->warnings.empty()) << e.path() << ": " << m->warnings.front();
        // Every leaf face reference and every face's vertex range is inside the map.
        for (uint32_t f : m->leaf_faces)
            ASSERT_LT(f, m->faces.size());
        for (const bsp::Face& f : m->faces)
            ASSERT_LE(uint64_t(f.first_vertex) + f.num_vertices, m->vertices.size());
    }
    EXPECT_EQ(n, 8u);
    EXPECT_EQ(vis_maps, 4u);
}

TEST(SourceMaps, RecordLayoutsFollowEachLumpsVersion) {
    // Counts are the lump lengths divided by the record sizes of each lump version.
    const bsp::Map momentum = load("momentum_mp_lobby.bsp"); // v25: faces 2, leafs 2, nodes 1
    EXPECT_EQ(momentum.version, 25);
    EXPECT_EQ(momentum.faces.size(), 1152u / 72);
    EXPECT_EQ(momentum.leaves.size(), 1624u / 56);
    EXPECT_EQ(momentum.nodes.size(), 1296u / 48);
    const bsp::Map tf2 = load("tf2_mp_lobby.bsp"); // v20: faces 1, leafs 1, nodes 0
    EXPECT_EQ(tf2.faces.size(), 896u / 56);
    EXPECT_EQ(tf2.leaves.size(), 928u / 32);
    EXPECT_EQ(tf2.nodes.size(), 864u / 32);
    // Left 4 Dead 2's directory order: the faces lump is (version 1, offset 30536, 4032 bytes).
    const bsp::Map l4d2 = load("l4d2_tooltextures.bsp");
    EXPECT_EQ(l4d2.version, 21);
    EXPECT_EQ(l4d2.faces.size(), 4032u / 56);
}

TEST(SourceMaps, LightingAndSpawnPoints) {
    const bsp::Map tf2 = load("tf2_mp_lobby.bsp");
    EXPECT_FALSE(tf2.lightmap_pages.empty());
    EXPECT_EQ(game::profileFor(tf2).view.eye_height, 64.0f);
    EXPECT_FALSE(bsp::findSpawnPoints(tf2).empty());
    // The tool-texture samples carry no lighting: drawn full bright, as the engine does.
    const bsp::Map tools = load("csgo_tooltextures.bsp");
    EXPECT_TRUE(tools.lightmap_pages.empty());
    EXPECT_FALSE(tools.has_light_data);
    const game::LightRule tools_rule = game::profileFor(tools).rules.light;
    EXPECT_EQ(tools_rule.unlit_faces, game::UnlitFaces::Fullbright);
    // The engine shows an unlit map's textures as they are (mat_fullbright 1), not at the 2x
    // overbright of luxels: every face's light, vertex colour times the scale, is exactly 1.
    EXPECT_EQ(tools_rule.lightmap_scale, 1.0f);
    EXPECT_TRUE(tf2.has_light_data);
    EXPECT_EQ(game::profileFor(tf2).rules.light.lightmap_scale, 2.0f);
    size_t unlit = 0;
    for (const bsp::Face& f : tools.faces) {
        ASSERT_EQ(f.lightmap_page, -1);
        for (uint32_t v = f.first_vertex; v < f.first_vertex + f.num_vertices; ++v)
            EXPECT_EQ(game::scaledLight(tools_rule, glm::vec3(tools.vertices[v].colour) / 255.0f),
                      glm::vec3(1.0f));
        ++unlit;
    }
    EXPECT_GT(unlit, 0u);
    size_t hidden = 0;
    for (const bsp::Material& m : tools.materials)
        hidden += (m.flags & bsp::kSurfNoDraw) != 0;
    EXPECT_GT(hidden, 0u);
}

TEST(SourceMaps, DisplacementsMeetTheirBaseFacesAtTheCorners) {
    // tf2_test_displacement: three power-2 displacements with zero offsets on 256-unit quads, so
    // each grid's corners are its base face's corners, the first at the start position.
    const bsp::Map m = load("tf2_test_displacement.bsp");
    const glm::vec3 starts[] = {{-384, -128, 64}, {-384, -128, -128}, {128, -128, 64}};
    size_t found = 0;
    for (size_t i = 0; i < m.faces.size(); ++i) {
        const bsp::Face& f = m.faces[i];
        if (f.kind != bsp::FaceKind::Mesh)
            continue;
        ASSERT_LT(found, 3u);
        ASSERT_EQ(f.num_vertices, 25u); // (2^2 + 1)^2
        EXPECT_EQ(f.num_indices, 2u * 16 * 3);
        const bsp::Vertex* v = &m.vertices[f.first_vertex];
        EXPECT_EQ(v[0].position, starts[found]);
        // The four grid corners lie 256 units apart along the quad's two edges.
        EXPECT_EQ(glm::length(v[4].position - v[0].position), 256.0f);
        EXPECT_EQ(glm::length(v[20].position - v[0].position), found == 1 ? 192.0f : 256.0f);
        EXPECT_EQ(v[24].position, v[4].position + (v[20].position - v[0].position));
        // The grid is in the leaves the displacement touches.
        bool linked = false;
        for (uint32_t lf : m.leaf_faces)
            linked |= lf == i;
        EXPECT_TRUE(linked);
        ++found;
    }
    EXPECT_EQ(found, 3u);
    // tf2_test2: a power-3 grid and two power-2 grids, 131 displacement vertices in all.
    const bsp::Map t2 = load("tf2_test2.bsp");
    std::vector<uint32_t> sizes;
    for (const bsp::Face& f : t2.faces)
        if (f.kind == bsp::FaceKind::Mesh)
            sizes.push_back(f.num_vertices);
    EXPECT_EQ(sizes, (std::vector<uint32_t>{81, 25, 25}));
}

TEST(SourceMaps, DisplacementsAndLeavesCarryTheirCollision) {
    // Each displacement collides through its grid face, with its dispinfo contents
    // (CONTENTS_SOLID in these maps) and no flags (minTess 0: no DISP_INFO_FLAG_MAGIC).
    for (const char* name : {"tf2_test_displacement.bsp", "tf2_test2.bsp"}) {
        const bsp::Map m = load(name);
        ASSERT_EQ(m.collision.displacements.size(), 3u) << name;
        for (const bsp::DisplacementCollision& d : m.collision.displacements) {
            ASSERT_LT(d.face, m.faces.size());
            EXPECT_EQ(m.faces[d.face].kind, bsp::FaceKind::Mesh);
            EXPECT_EQ(d.game_contents, 1u);
            EXPECT_EQ(d.contents, bsp::kCollideSolid);
            EXPECT_EQ(d.flags, 0u);
        }
    }
    // tf2_mp_lobby: every leaf's stored contents; the room's 4 leaves (its quarters, split at
    // x = 0 and y = 0) are open, the rest (walls and the void around them) CONTENTS_SOLID.
    const bsp::Map lobby = load("tf2_mp_lobby.bsp");
    ASSERT_EQ(lobby.collision.leaf_contents.size(), lobby.leaves.size());
    size_t open = 0;
    for (size_t i = 0; i < lobby.leaves.size(); ++i) {
        const uint32_t c = lobby.collision.leaf_contents[i];
        EXPECT_TRUE(c == 0 || c == bsp::kCollideSolid) << "leaf " << i;
        EXPECT_EQ(c == 0, lobby.leaves[i].contents == 0) << "leaf " << i;
        open += c == 0;
    }
    EXPECT_EQ(open, 4u);
}

TEST(SourceMaps, StaticPropsAreListedAsEntities) {
    // tf2_test2's sprp game lump (version 10): 10 model names, 17 props of 72 bytes; the first
    // is models/props_2fort/oildrum.mdl at (-232.542, 233.009, -150.194), yaw 316.
    const bsp::Map m = load("tf2_test2.bsp");
    std::vector<const bsp::Entity*> props;
    for (const bsp::Entity& e : m.entities)
        if (e.classname() == "prop_static")
            props.push_back(&e);
    ASSERT_EQ(props.size(), 17u);
    EXPECT_EQ(props[0]->get("model"), "models/props_2fort/oildrum.mdl");
    const auto origin = props[0]->vec3("origin");
    ASSERT_TRUE(origin);
    EXPECT_NEAR(origin->x, -232.542f, 1e-3f);
    EXPECT_NEAR(origin->y, 233.009f, 1e-3f);
    EXPECT_NEAR(origin->z, -150.194f, 1e-3f);
    EXPECT_EQ(props[0]->vec3("angles"), glm::vec3(0, 316, 0));
    for (const bsp::Entity* p : props)
        EXPECT_TRUE(p->get("model").ends_with(".mdl"));
    // They come after the map's own entities, so brush models keep their entity indices.
    EXPECT_EQ(m.entities.size(), 24u + 17u);
    EXPECT_EQ(m.entities[24].classname(), "prop_static");
}

TEST(SourceMaps, LdrAndHdrLightingAreBothSelectable) {
    // tf2_mp_lobby was compiled with both sets: LIGHTING and LIGHTING_HDR (15,872 bytes each, here
    // byte for byte the same), FACES and FACES_HDR. To see which set is drawn, the HDR samples
    // are blacked out (exponent -128) in memory: LDR is drawn unless HDR is asked for.
    auto bytes = core::readFile(kSource / "tf2_mp_lobby.bsp");
    ASSERT_TRUE(bytes.ok());
    int32_t hdr_at = 0, hdr_len = 0;
    std::memcpy(&hdr_at, bytes->data() + 8 + 53 * 16, 4);
    std::memcpy(&hdr_len, bytes->data() + 8 + 53 * 16 + 4, 4);
    ASSERT_EQ(hdr_len, 15872);
    for (int32_t i = 3; i < hdr_len; i += 4)
        (*bytes)[size_t(hdr_at + i)] = 0x80;
    auto ldr = bsp::loadMap(*bytes, "tf2_mp_lobby.bsp");
    auto hdr = bsp::loadMap(*bytes, "tf2_mp_lobby.bsp", {}, bsp::LoadOptions{.hdr_lighting = true});
    ASSERT_TRUE(ldr.ok() && hdr.ok());
    EXPECT_EQ(ldr->lighting_variants, (std::vector<std::string>{"LDR", "HDR"}));
    EXPECT_EQ(ldr->lighting_variant, "LDR");
    EXPECT_EQ(hdr->lighting_variant, "HDR");
    ASSERT_EQ(hdr->lightmap_pages.size(), 1u);
    ASSERT_EQ(ldr->lightmap_pages.size(), 1u);
    const auto& black = hdr->lightmap_pages[0].rgb;
    const auto& lit = ldr->lightmap_pages[0].rgb;
    EXPECT_TRUE(std::all_of(black.begin(), black.end(), [](uint8_t v) { return v == 0; }));
    EXPECT_GT(std::count_if(lit.begin(), lit.end(), [](uint8_t v) { return v > 0; }), 1000);
    // A map with no lighting has nothing to choose.
    const bsp::Map none = load("csgo_tooltextures.bsp");
    EXPECT_TRUE(none.lighting_variants.empty());
    EXPECT_TRUE(none.lighting_variant.empty());
}

TEST(SourceLighting, ColorRgbExp32BecomesTheEnginesLdrLightmapByte) {
    // floor(127.5 * (round(1024 * c * 2^e / 255) / 1024) ^ (1 / 2.2)), linear clamped to 0..4.
    EXPECT_EQ(bsp::sourceLightmapByte(255, 0), 127); // linear 1: 127.5
    EXPECT_EQ(bsp::sourceLightmapByte(128, 0), 93);  // 514/1024 ^ 0.4545 = 0.7310
    EXPECT_EQ(bsp::sourceLightmapByte(64, 1), 93);   // the same linear value
    EXPECT_EQ(bsp::sourceLightmapByte(200, -1), 83); // 402/1024 ^ 0.4545 = 0.6540
    EXPECT_EQ(bsp::sourceLightmapByte(255, 2), 239); // 4095/1024 ^ 0.4545 = 1.8777
    EXPECT_EQ(bsp::sourceLightmapByte(255, 3), 239); // saturates at the table's end
    EXPECT_EQ(bsp::sourceLightmapByte(1, -8), 0);
    EXPECT_EQ(bsp::sourceLightmapByte(255, -128), 0);
    EXPECT_EQ(bsp::sourceLightmapByte(255, 127), 239);
}

TEST(SourceMaps, SkyBoxFromWorldspawnSkyname) {
    const auto sky = [](const char* name) { return game::profileFor(load(name)).skybox; };
    EXPECT_EQ(sky("tf2_mp_lobby.bsp"), "skybox/sky_tf2_04");
    EXPECT_EQ(sky("momentum_mp_lobby.bsp"), "skybox/mpa115");
    EXPECT_EQ(sky("csgo_tooltextures.bsp"), ""); // no skyname key
}

// SURF_SKY (0x4 in public/bspflags.h) becomes the common model's kSurfSky, and nothing else:
// tf2_test2's TOOLS/TOOLSSKYBOX texinfo has flags 0x404 (SURF_SKY | SURF_NOLIGHT).
TEST(SourceMaps, SkyFacesDrawWithTheSky) {
    const bsp::Map m = load("tf2_test2.bsp");
    size_t sky = 0;
    for (const bsp::Material& mat : m.materials) {
        if (mat.name != "TOOLS/TOOLSSKYBOX")
            continue;
        ++sky;
        EXPECT_EQ(mat.flags, uint32_t(bsp::kSurfSky));
    }
    EXPECT_EQ(sky, 1u);
}

// momentum_mp_lobby is lit by one light_spot of brightness 200 with quadratic falloff, 250-400
// units from the walls (docs/source.md): its brightest sample in LIGHTING_HDR is
// (128, 128, 128, -3), linear 128 / 8 / 255 = 0.0627, and the page holds nothing brighter than
// that sample's byte.
TEST(SourceLighting, MomentumLobbyIsAsDarkAsItsOneLight) {
    // round(0.0627 * 1024) = 64; (64 / 1024)^(1 / 2.2) = 0.28358; floor(127.5 * 0.28358) = 36.
    EXPECT_EQ(bsp::sourceLightmapByte(128, -3), 36);
    // (204, -4): 0.05 -> 51 / 1024 -> 0.25577 -> 32.
    EXPECT_EQ(bsp::sourceLightmapByte(204, -4), 32);
    const bsp::Map m = load("momentum_mp_lobby.bsp");
    EXPECT_EQ(m.lighting_variants, (std::vector<std::string>{"HDR"}));
    EXPECT_EQ(m.lighting_variant, "HDR");
    EXPECT_EQ(game::profileFor(m).rules.light.lightmap_scale, 2.0f);
    ASSERT_EQ(m.lightmap_pages.size(), 1u);
    const auto& rgb = m.lightmap_pages[0].rgb;
    EXPECT_EQ(*std::max_element(rgb.begin(), rgb.end()), 36);
}
