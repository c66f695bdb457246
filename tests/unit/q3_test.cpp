// Quake 3 parser on hand-built maps: a valid parse, one test per error path, and hostile
// variations (every truncated prefix, every word of the file overwritten) that must fail
// cleanly or succeed.
#include "support/q3_builder.h"

#include "bsp/load.h"
#include "bsp/parsers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>

using core::ErrorCode;
using namespace q3test;

namespace {

core::Result<bsp::Map> load(const Q3Builder& b, std::string_view name = "tiny.bsp") {
    const std::vector<uint8_t> file = b.build();
    return bsp::loadMap(file, name);
}

ErrorCode codeOf(const core::Result<bsp::Map>& r) {
    return r ? ErrorCode::Ok : r.error().code;
}

bool hasWarning(const bsp::Map& map, std::string_view part) {
    return std::any_of(map.warnings.begin(), map.warnings.end(),
                       [&](const std::string& w) { return w.find(part) != std::string::npos; });
}

} // namespace

TEST(Q3Parse, TinyMapFillsTheModel) {
    const auto r = load(Q3Builder::tiny());
    ASSERT_TRUE(r) << r.error().message();
    const bsp::Map& m = *r;
    EXPECT_EQ(m.name, "tiny.bsp");
    EXPECT_EQ(m.format, bsp::Format::Quake3);
    EXPECT_EQ(m.version, 46);
    EXPECT_TRUE(m.overbright_lighting);
    EXPECT_TRUE(m.mips_round_down);
    EXPECT_TRUE(m.warnings.empty()) << m.warnings.front();

    ASSERT_EQ(m.lumps.size(), 17u);
    EXPECT_EQ(m.lumps[kFaces].name, "faces");
    EXPECT_EQ(m.lumps[kFaces].record_size, 104u);
    EXPECT_EQ(m.lumps[kFaces].count, 5u);
    EXPECT_EQ(m.lumps[kMeshVerts].name, "meshverts");
    EXPECT_EQ(m.lumps[kMeshVerts].count, 15u);
    EXPECT_EQ(m.lumps[kLightmaps].count, 2u);
    EXPECT_EQ(m.lumps[kVisData].record_size, 0u);

    ASSERT_EQ(m.materials.size(), 3u);
    EXPECT_EQ(m.materials[0].name, "textures/base/wall");
    EXPECT_EQ(m.materials[0].game_contents, 1u);
    EXPECT_EQ(m.materials[0].flags, 0u);
    EXPECT_EQ(m.materials[1].flags, uint32_t{bsp::kSurfSky});
    EXPECT_EQ(m.materials[1].game_flags, 0x404u);
    EXPECT_EQ(m.materials[2].flags, uint32_t{bsp::kSurfNoDraw | bsp::kSurfFog});

    ASSERT_EQ(m.planes.size(), 2u);
    EXPECT_EQ(m.planes[1].normal, glm::vec3(0, 0, 1));
    ASSERT_EQ(m.nodes.size(), 1u);
    EXPECT_EQ(m.nodes[0].children[0], -1);
    EXPECT_EQ(m.nodes[0].children[1], -2);
    EXPECT_EQ(m.nodes[0].mins, glm::vec3(-64));
    ASSERT_EQ(m.leaves.size(), 2u);
    EXPECT_EQ(m.leaves[1].cluster, 1);
    EXPECT_EQ(m.leaves[1].first_leaf_face, 2u);
    EXPECT_EQ(m.leaves[1].num_leaf_faces, 2u);
    EXPECT_EQ(m.leaf_faces, (std::vector<uint32_t>{0, 1, 2, 3}));

    ASSERT_EQ(m.submodels.size(), 2u);
    EXPECT_EQ(m.submodels[1].first_face, 4u);
    EXPECT_EQ(m.submodels[1].num_faces, 1u);
    EXPECT_EQ(m.submodels[1].entity, 1);
    EXPECT_EQ(m.submodels[1].origin, glm::vec3(0, 0, 8));
    ASSERT_EQ(m.entities.size(), 2u);
    EXPECT_NE(m.entity_text.find("func_door"), std::string::npos);

    ASSERT_EQ(m.faces.size(), 5u);
    const bsp::Face& quad = m.faces[0];
    EXPECT_EQ(quad.kind, bsp::FaceKind::Polygon);
    EXPECT_EQ(quad.lightmap_page, 0);
    EXPECT_EQ(quad.lightmap_rect.x, 2);
    EXPECT_EQ(quad.lightmap_rect.h, 9);
    EXPECT_EQ(quad.submodel, 0);
    EXPECT_EQ(quad.numStyles(), 1);
    ASSERT_EQ(quad.num_indices, 6u);
    EXPECT_EQ(m.indices[quad.first_index + 1], 2u);

    const bsp::Face& soup = m.faces[1];
    EXPECT_EQ(soup.kind, bsp::FaceKind::Mesh);
    EXPECT_EQ(soup.fog, 0);
    EXPECT_EQ(soup.lightmap_page, 1);
    ASSERT_EQ(soup.num_indices, 3u);
    // Meshverts are relative to the face's first vertex; the model holds absolute indices.
    EXPECT_EQ(m.indices[soup.first_index], 4u);
    EXPECT_EQ(m.indices[soup.first_index + 2], 6u);

    const bsp::Face& patch = m.faces[2];
    EXPECT_EQ(patch.kind, bsp::FaceKind::Patch);
    EXPECT_EQ(patch.patch_width, 3);
    EXPECT_EQ(patch.patch_height, 3);
    EXPECT_EQ(patch.num_vertices, 9u);
    EXPECT_EQ(patch.lightmap_page, -1); // -3: LIGHTMAP_BY_VERTEX
    EXPECT_EQ(m.vertices[patch.first_vertex + 4].position, glm::vec3(32, 232, 32));

    const bsp::Face& flare = m.faces[3];
    EXPECT_EQ(flare.kind, bsp::FaceKind::Billboard);
    EXPECT_EQ(flare.lightmap_page, -1);
    ASSERT_EQ(flare.num_vertices, 1u);
    EXPECT_EQ(m.vertices[flare.first_vertex].position, glm::vec3(10, 20, 30));
    EXPECT_EQ(m.vertices[flare.first_vertex].colour, glm::u8vec4(255, 128, 0, 255));

    EXPECT_EQ(m.faces[4].submodel, 1);
    EXPECT_EQ(m.indices[m.faces[4].first_index], 16u);

    ASSERT_EQ(m.vertices.size(), 21u); // 20 stored + the flare's
    EXPECT_EQ(m.vertices[1].uv, glm::vec2(1, 0));
    EXPECT_EQ(m.vertices[1].lm_uv, glm::vec2(0.5f, 0));

    EXPECT_EQ(m.lightmap_width, 128);
    EXPECT_EQ(m.lightmap_height, 128);
    ASSERT_EQ(m.lightmap_pages.size(), 2u);
    EXPECT_EQ(m.lightmap_pages[1].rgb.size(), 128u * 128 * 3);
    const Q3Builder b = Q3Builder::tiny();
    EXPECT_TRUE(std::equal(m.lightmap_pages[1].rgb.begin(), m.lightmap_pages[1].rgb.end(),
                           b.lightmaps.begin() + 128 * 128 * 3));

    ASSERT_TRUE(m.vis.present());
    EXPECT_EQ(m.vis.num_clusters, 2);
    EXPECT_EQ(m.vis.row_size, 1);
    EXPECT_TRUE(m.vis.visible(0, 1));
    EXPECT_FALSE(m.vis.visible(1, 0));

    ASSERT_EQ(m.fogs.size(), 1u);
    EXPECT_EQ(m.fogs[0].shader, "textures/fog/mist");
    EXPECT_EQ(m.fogs[0].visible_side, 0);
}

TEST(Q3Parse, DirectCallMatchesLoadMap) {
    const std::vector<uint8_t> file = Q3Builder::tiny().build();
    const auto r = bsp::parseQuake3(file, "x.bsp");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->name, "x.bsp");
    EXPECT_EQ(r->faces.size(), 5u);
}

TEST(Q3Parse, RtcwVersion47IsAccepted) {
    Q3Builder b = Q3Builder::tiny();
    b.version = 47;
    const auto r = load(b);
    ASSERT_TRUE(r) << r.error().message();
    EXPECT_EQ(r->format, bsp::Format::Quake3Rtcw);
    EXPECT_EQ(r->version, 47);
    EXPECT_EQ(r->faces.size(), 5u);
}

TEST(Q3Parse, OtherVersionsAreUnsupported) {
    for (int32_t v : {45, 48, 0, -1}) {
        Q3Builder b = Q3Builder::tiny();
        b.version = v;
        EXPECT_EQ(codeOf(load(b)), ErrorCode::UnsupportedVersion) << v;
    }
}

TEST(Q3Parse, FbspRecordsAndStyleZero) {
    Q3Builder b = Q3Builder::tiny();
    b.fbsp();
    b.faces[1].styles = {0, 3, 255, 255};
    b.lightmaps.resize(512 * 512 * 3); // one 512 page (also 16 pages of 128)
    const auto r = load(b);
    ASSERT_TRUE(r) << r.error().message();
    const bsp::Map& m = *r;
    EXPECT_EQ(m.format, bsp::Format::Qfusion);
    EXPECT_EQ(m.lumps[kVertexes].record_size, 80u);
    EXPECT_EQ(m.lumps[kFaces].record_size, 148u);
    EXPECT_EQ(m.lumps[kBrushSides].record_size, 12u);
    EXPECT_EQ(m.lumps[kLightVols].record_size, 30u);
    ASSERT_EQ(m.faces.size(), 5u);
    // Faces name pages 0 and 1, so the lump must be 16 pages of 128, not one of 512.
    EXPECT_EQ(m.lightmap_width, 128);
    EXPECT_EQ(m.lightmap_pages.size(), 16u);
    EXPECT_EQ(m.faces[0].lightmap_rect.x, 2);
    EXPECT_EQ(m.faces[0].lightmap_rect.y, 3);
    EXPECT_EQ(m.faces[0].lightmap_rect.w, 8);
    EXPECT_EQ(m.faces[0].lightmap_rect.h, 9);
    EXPECT_EQ(m.faces[1].numStyles(), 1);
    EXPECT_TRUE(hasWarning(m, "more than one light style"));
    // Style 0 coordinates, normal and colour come from their FBSP offsets.
    EXPECT_EQ(m.vertices[1].lm_uv, glm::vec2(0.5f, 0));
    EXPECT_EQ(m.vertices[1].normal, glm::vec3(0, 0, 1));
    EXPECT_EQ(m.vertices[1].colour, glm::u8vec4(255));
    EXPECT_EQ(m.faces[2].kind, bsp::FaceKind::Patch);

    for (auto& f : b.faces)
        f.lightmap = f.lightmap > 0 ? 0 : f.lightmap;
    const auto big = load(b);
    ASSERT_TRUE(big) << big.error().message();
    EXPECT_EQ(big->lightmap_width, 512);
    EXPECT_EQ(big->lightmap_height, 512);
    EXPECT_EQ(big->lightmap_pages.size(), 1u);
    EXPECT_EQ(big->lumps[kLightmaps].record_size, 512u * 512 * 3);

    b.lightmaps.resize(128 * 128 * 3 * 3); // three 128 pages
    const auto small = load(b);
    ASSERT_TRUE(small) << small.error().message();
    EXPECT_EQ(small->lightmap_width, 128);
    EXPECT_EQ(small->lightmap_pages.size(), 3u);

    b.lightmaps.resize(1000);
    EXPECT_EQ(codeOf(load(b)), ErrorCode::LumpSize);
}

TEST(Q3Parse, EmptyVisAndLightmapLumps) {
    Q3Builder b = Q3Builder::tiny();
    b.vis.clear();
    b.lightmaps.clear();
    const auto r = load(b);
    ASSERT_TRUE(r) << r.error().message();
    EXPECT_FALSE(r->vis.present());
    EXPECT_TRUE(r->vis.visible(0, 1));
    // q3map2 -external: the faces keep naming pages, which are images beside the map.
    EXPECT_TRUE(r->lightmap_pages.empty());
    EXPECT_EQ(r->lightmap_storage, bsp::LightmapStorage::External);
    const std::vector<int32_t> pages = {0, 1, -1, -1, 0}; // quad, soup, patch, flare, door
    ASSERT_EQ(r->faces.size(), pages.size());
    for (size_t i = 0; i < pages.size(); ++i) {
        EXPECT_EQ(r->faces[i].lightmap_page, pages[i]) << i;
        EXPECT_EQ(r->faces[i].lightmap_rect.w, 0) << i; // rectangles mean nothing then
    }
    EXPECT_TRUE(r->warnings.empty());
}

TEST(Q3Parse, InternalPagesAreStoredInTheMap) {
    const auto r = load(Q3Builder::tiny());
    ASSERT_TRUE(r) << r.error().message();
    EXPECT_EQ(r->lightmap_storage, bsp::LightmapStorage::InMap);
    EXPECT_EQ(r->deluxe_maps, bsp::DeluxeMaps::Auto); // no worldspawn key
}

TEST(Q3Parse, WorldspawnDeluxeMapsKey) {
    // DarkPlaces Mod_Q3BSP_LoadEntities: "deluxeMaps" with or without '_', value "1" or "2".
    const std::pair<const char*, bsp::DeluxeMaps> cases[] = {
        {"\"deluxeMaps\" \"1\"", bsp::DeluxeMaps::ModelSpace},
        {"\"_deluxeMaps\" \"2\"", bsp::DeluxeMaps::TangentSpace},
        {"\"deluxeMaps\" \"0\"", bsp::DeluxeMaps::Auto},
        {"\"deluxeMaps\" \"yes\"", bsp::DeluxeMaps::Auto},
        {"\"DeluxeMaps\" \"1\"", bsp::DeluxeMaps::Auto}, // the key is case-sensitive
    };
    for (const auto& [pair, expected] : cases) {
        Q3Builder b = Q3Builder::tiny();
        b.entities = std::string("{\n\"classname\" \"worldspawn\"\n") + pair + "\n}\n";
        const auto r = load(b);
        ASSERT_TRUE(r) << r.error().message();
        EXPECT_EQ(r->deluxe_maps, expected) << pair;
    }
}

// ioquake3 tr_bsp.c R_LoadLightGrid over the tiny map's world bounds (-64..64 on each axis) at
// the default gridsize 64 64 128: x and y from -64 to 64 (3 points), z from 128 ceil(-0.5) = 0
// to 128 floor(0.5) = 0 (1 point).
TEST(Q3Parse, LightGridFromWorldBounds) {
    Q3Builder b = Q3Builder::tiny();
    b.light_vols.assign(9 * 8, 0);
    // Point (2, 1, 0), index 2 + 3 * 1: longitude 64 and latitude 64 (a quarter turn each) point
    // along +y; point 8 with longitude 128 (half a turn) points down.
    const uint8_t p5[8] = {10, 20, 30, 200, 100, 50, 64, 64};
    std::copy(p5, p5 + 8, b.light_vols.begin() + 5 * 8);
    b.light_vols[8 * 8 + 6] = 128;
    const auto r = load(b);
    ASSERT_TRUE(r) << r.error().message();
    EXPECT_TRUE(r->warnings.empty()) << r->warnings.front();
    EXPECT_EQ(r->model_lighting, bsp::ModelLighting::LightGrid);
    ASSERT_TRUE(r->light_grid.has_value());
    const bsp::LightGrid& g = *r->light_grid;
    EXPECT_EQ(g.origin, glm::vec3(-64, -64, 0));
    EXPECT_EQ(g.cell_size, glm::vec3(64, 64, 128));
    EXPECT_EQ(g.counts, (std::array<int32_t, 3>{3, 3, 1}));
    ASSERT_EQ(g.points.size(), 9u);
    EXPECT_EQ(g.points[5].ambient, (std::array<uint8_t, 3>{10, 20, 30}));
    EXPECT_EQ(g.points[5].directed, (std::array<uint8_t, 3>{200, 100, 50}));
    EXPECT_NEAR(g.points[5].direction.x, 0.0f, 1e-6f);
    EXPECT_NEAR(g.points[5].direction.y, 1.0f, 1e-6f);
    EXPECT_NEAR(g.points[5].direction.z, 0.0f, 1e-6f);
    EXPECT_EQ(g.points[0].direction, glm::vec3(0, 0, 1)); // longitude 0: straight up
    EXPECT_NEAR(g.points[8].direction.z, -1.0f, 1e-6f);
    EXPECT_EQ(g.points[0].ambient, (std::array<uint8_t, 3>{0, 0, 0}));
}

TEST(Q3Parse, LightGridGridsizeKey) {
    // "gridsize" "32 64 64": x from -64 to 64 in 5 points, y in 3, z from -64 to 64 in 3.
    Q3Builder b = Q3Builder::tiny();
    b.entities = "{\n\"classname\" \"worldspawn\"\n\"gridsize\" \"32 64 64\"\n}\n";
    b.light_vols.assign(45 * 8, 7);
    const auto r = load(b);
    ASSERT_TRUE(r) << r.error().message();
    ASSERT_TRUE(r->light_grid.has_value());
    EXPECT_EQ(r->light_grid->origin, glm::vec3(-64, -64, -64));
    EXPECT_EQ(r->light_grid->cell_size, glm::vec3(32, 64, 64));
    EXPECT_EQ(r->light_grid->counts, (std::array<int32_t, 3>{5, 3, 3}));
}

TEST(Q3Parse, LightGridGridsizeKeyReadAsTheEngineReadsIt) {
    // R_LoadEntities: Q_stricmp on the key, so "GridSize" counts; sscanf "%f %f %f" stops at
    // "x", so "32 x 16" sets only the cell's x and keeps 64 and 128: over -64..64, x has
    // 64 / 32 * 2 + 1 = 5 points, y 3 and z 1 (the default tiny grid's 3 x 3 x 1 otherwise).
    Q3Builder b = Q3Builder::tiny();
    b.entities = "{\n\"classname\" \"worldspawn\"\n\"GridSize\" \"32 x 16\"\n}\n";
    b.light_vols.assign(15 * 8, 7);
    const auto r = load(b);
    ASSERT_TRUE(r) << r.error().message();
    ASSERT_TRUE(r->light_grid.has_value()) << (r->warnings.empty() ? "" : r->warnings[0]);
    EXPECT_EQ(r->light_grid->cell_size, glm::vec3(32, 64, 128));
    EXPECT_EQ(r->light_grid->counts, (std::array<int32_t, 3>{5, 3, 1}));

    // A later key replaces an earlier one: "gridsize" "32 64 64" then "GRIDSIZE" "64 64 64"
    // gives 3 x 3 x 3 points.
    b.entities = "{\n\"classname\" \"worldspawn\"\n\"gridsize\" \"32 64 64\"\n\"GRIDSIZE\" \"64 64 "
                 "64\"\n}\n";
    b.light_vols.assign(27 * 8, 7);
    const auto later = load(b);
    ASSERT_TRUE(later && later->light_grid.has_value());
    EXPECT_EQ(later->light_grid->cell_size, glm::vec3(64, 64, 64));

    // A "remapshader" key without ';' ends the engine's reading: the gridsize after it is
    // never seen, so the default 3 x 3 x 1 grid fits the 9-point lump.
    b.entities =
        "{\n\"classname\" \"worldspawn\"\n\"remapshader\" \"a\"\n\"gridsize\" \"32 64 64\"\n}\n";
    b.light_vols.assign(9 * 8, 7);
    const auto stopped = load(b);
    ASSERT_TRUE(stopped && stopped->light_grid.has_value());
    EXPECT_EQ(stopped->light_grid->cell_size, glm::vec3(64, 64, 128));
}

TEST(Q3Parse, LightGridMismatchIsIgnoredWithAWarning) {
    // As the engine: a lump of the wrong length gives "light grid mismatch" and no grid.
    Q3Builder b = Q3Builder::tiny();
    b.light_vols.assign(8 * 8, 1);
    const auto r = load(b);
    ASSERT_TRUE(r) << r.error().message();
    EXPECT_FALSE(r->light_grid.has_value());
    EXPECT_EQ(r->model_lighting, bsp::ModelLighting::LightGrid);
    ASSERT_EQ(r->warnings.size(), 1u);
    EXPECT_EQ(
        r->warnings[0],
        "tiny.bsp: lightvols: 8 points, the grid of 3x3x1 needs 9 (light grid mismatch); ignored");

    // A gridsize that makes no grid at all.
    b = Q3Builder::tiny();
    b.entities = "{\n\"classname\" \"worldspawn\"\n\"gridsize\" \"0 64 128\"\n}\n";
    const auto zero = load(b);
    ASSERT_TRUE(zero) << zero.error().message();
    EXPECT_FALSE(zero->light_grid.has_value());
    EXPECT_TRUE(hasWarning(*zero, "gives no grid along axis 0"));

    // An empty lump (a map compiled without light): no grid, nothing to warn about.
    b = Q3Builder::tiny();
    b.light_vols.clear();
    const auto empty = load(b);
    ASSERT_TRUE(empty) << empty.error().message();
    EXPECT_FALSE(empty->light_grid.has_value());
    EXPECT_TRUE(empty->warnings.empty());
}

TEST(Q3Parse, UnknownFaceTypeIsSkippedAndReferencesRenumbered) {
    Q3Builder b = Q3Builder::tiny();
    b.faces[1].type = 256;
    const auto r = load(b);
    ASSERT_TRUE(r) << r.error().message();
    ASSERT_EQ(r->faces.size(), 4u);
    EXPECT_TRUE(hasWarning(*r, "unknown type 256"));
    EXPECT_EQ(r->faces[1].kind, bsp::FaceKind::Patch);
    EXPECT_EQ(r->leaf_faces, (std::vector<uint32_t>{0, 1, 2}));
    EXPECT_EQ(r->leaves[0].num_leaf_faces, 1u);
    EXPECT_EQ(r->leaves[1].first_leaf_face, 1u);
    EXPECT_EQ(r->submodels[0].num_faces, 3u);
    EXPECT_EQ(r->submodels[1].first_face, 3u);
    EXPECT_EQ(r->faces[3].submodel, 1);
}

TEST(Q3Parse, PartialTrianglesAreDroppedWithOneWarning) {
    Q3Builder b = Q3Builder::tiny();
    b.faces[0].num_meshverts = 5; // one whole triangle and two stray indices
    b.faces[4].num_meshverts = 4;
    const auto r = load(b);
    ASSERT_TRUE(r) << r.error().message();
    EXPECT_EQ(r->faces[0].num_indices, 3u);
    EXPECT_EQ(r->faces[4].num_indices, 3u);
    EXPECT_EQ(r->warnings.size(), 1u);
    EXPECT_TRUE(hasWarning(*r, "2 face(s) with meshverts"));
}

TEST(Q3Parse, ManyUnknownTypesGiveFewWarnings) {
    Q3Builder b = Q3Builder::tiny();
    for (int i = 0; i < 1000; ++i) {
        q3test::FaceRec f = b.faces[0];
        f.type = 100 + i;
        b.faces.push_back(f);
    }
    const auto r = load(b);
    ASSERT_TRUE(r) << r.error().message();
    EXPECT_EQ(r->faces.size(), 5u);
    EXPECT_LE(r->warnings.size(), 10u);
    EXPECT_TRUE(hasWarning(*r, "992 more face(s)"));
}

TEST(Q3Errors, TruncatedHeader) {
    std::vector<uint8_t> file = Q3Builder::tiny().build();
    file.resize(100);
    const auto r = bsp::loadMap(file, "t.bsp");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::Truncated);
    EXPECT_EQ(r.error().file, "t.bsp");
}

TEST(Q3Errors, LumpPastTheEnd) {
    std::vector<uint8_t> file = Q3Builder::tiny().build();
    setLump(file, kFaces, static_cast<int32_t>(file.size()) - 8, 104);
    auto r = bsp::loadMap(file, "t.bsp");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::LumpOutOfBounds);
    EXPECT_EQ(r.error().lump, "faces");

    setLump(file, kFaces, -4, 104);
    EXPECT_EQ(codeOf(bsp::loadMap(file, "t.bsp")), ErrorCode::LumpOutOfBounds);
    setLump(file, kFaces, 144, -104);
    EXPECT_EQ(codeOf(bsp::loadMap(file, "t.bsp")), ErrorCode::LumpOutOfBounds);
    setLump(file, kFaces, 0x7fffffff, 0x7fffffff); // offset + length wraps 32 bits
    EXPECT_EQ(codeOf(bsp::loadMap(file, "t.bsp")), ErrorCode::LumpOutOfBounds);
}

TEST(Q3Errors, BadRecordSize) {
    Q3Builder b = Q3Builder::tiny();
    b.extra[kPlanes] = {0, 0, 0};
    const auto r = load(b);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::LumpSize);
    EXPECT_EQ(r.error().lump, "planes");

    Q3Builder lm = Q3Builder::tiny();
    lm.lightmaps.resize(lm.lightmaps.size() - 3);
    EXPECT_EQ(codeOf(load(lm)), ErrorCode::LumpSize);
}

TEST(Q3Errors, MeshvertRangeMessage) {
    Q3Builder b = Q3Builder::tiny();
    b.faces[1].first_meshvert = 900;
    b.faces[1].num_meshverts = 6;
    const auto r = load(b, "crypt.bsp");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::IndexOutOfRange);
    EXPECT_EQ(r.error().message(), "crypt.bsp: faces[1].meshvert: range 900+6 beyond 15 meshverts");
}

TEST(Q3Errors, MeshvertBeyondFaceVertices) {
    Q3Builder b = Q3Builder::tiny();
    b.meshverts[7] = 3; // the soup has 3 vertices: 0..2
    const auto r = load(b);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::IndexOutOfRange);
    EXPECT_EQ(r.error().lump, "faces");
    EXPECT_EQ(r.error().index, 1);
    EXPECT_EQ(r.error().field, "meshvert");

    Q3Builder neg = Q3Builder::tiny();
    neg.meshverts[0] = -1;
    EXPECT_EQ(codeOf(load(neg)), ErrorCode::IndexOutOfRange);
}

TEST(Q3Errors, FaceVertexRange) {
    Q3Builder b = Q3Builder::tiny();
    b.faces[4].first_vertex = 18; // 18 + 4 > 20
    const auto r = load(b);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::IndexOutOfRange);
    EXPECT_EQ(r.error().field, "vertex");
}

TEST(Q3Errors, BadTextureIndex) {
    for (int32_t t : {3, -1, 0x7fffffff}) {
        Q3Builder b = Q3Builder::tiny();
        b.faces[0].texture = t;
        const auto r = load(b);
        ASSERT_FALSE(r);
        EXPECT_EQ(r.error().code, ErrorCode::IndexOutOfRange);
        EXPECT_EQ(r.error().field, "texture");
        EXPECT_EQ(r.error().index, 0);
    }
}

// A lightmap or fog a face names out of range is dropped (tests/unit/tolerance_test.cpp).
TEST(Q3Errors, BadLightmapAndEffectIndexAreDroppedNotRefused) {
    Q3Builder b = Q3Builder::tiny();
    b.faces[0].lightmap = 2;
    auto r = load(b);
    ASSERT_TRUE(r) << r.error().message();
    EXPECT_EQ(r->faces[0].lightmap_page, -1);
    EXPECT_TRUE(hasWarning(*r, "faces[0].lightmap: lightmap 2 beyond 2 pages; vertex lit"));

    Q3Builder e = Q3Builder::tiny();
    e.faces[0].effect = 1;
    r = load(e);
    ASSERT_TRUE(r) << r.error().message();
    EXPECT_EQ(r->faces[0].fog, -1);
    EXPECT_TRUE(hasWarning(*r, "faces[0].effect: effect 1 beyond 1 effects; drawn without fog"));
    e.faces[0].effect = -2;
    r = load(e);
    ASSERT_TRUE(r) << r.error().message();
    EXPECT_EQ(r->faces[0].fog, -1);
}

TEST(Q3Errors, LeafAndModelRanges) {
    Q3Builder lf = Q3Builder::tiny();
    lf.leafs[1].num_faces = 3;
    auto r = load(lf);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().lump, "leafs");
    EXPECT_EQ(r.error().code, ErrorCode::IndexOutOfRange);

    Q3Builder lff = Q3Builder::tiny();
    lff.leaf_faces[2] = 5;
    r = load(lff);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().lump, "leaffaces");

    Q3Builder md = Q3Builder::tiny();
    md.models[1].num_faces = 2;
    r = load(md);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().lump, "models");
    EXPECT_EQ(r.error().code, ErrorCode::IndexOutOfRange);
}

TEST(Q3Errors, OverlappingModelsAreRejected) {
    // 60000 models each claiming every face would cost 60000 x faces steps.
    Q3Builder b = Q3Builder::tiny();
    b.models.resize(60000, b.models[0]);
    for (auto& m : b.models) {
        m.first_face = 0;
        m.num_faces = 5;
    }
    const auto r = load(b);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::BadValue);
    EXPECT_EQ(r.error().lump, "models");
    EXPECT_EQ(r.error().index, 1);
}

TEST(Q3Parse, SkippedFacesWithOverlappingLeafRanges) {
    // Many leaves over the same leaffaces: renumbering must not walk each range.
    Q3Builder b = Q3Builder::tiny();
    b.faces[1].type = 0;
    b.leafs.resize(20000, b.leafs[0]);
    for (auto& l : b.leafs) {
        l.first_face = 0;
        l.num_faces = 4;
        l.cluster = 1;
    }
    b.leafs[0].cluster = 0;
    const auto r = load(b);
    ASSERT_TRUE(r) << r.error().message();
    EXPECT_EQ(r->leaf_faces, (std::vector<uint32_t>{0, 1, 2}));
    for (const bsp::Leaf& l : r->leaves) {
        ASSERT_EQ(l.first_leaf_face, 0u);
        ASSERT_EQ(l.num_leaf_faces, 3u);
    }
    EXPECT_TRUE(hasWarning(*r, "unknown type 0"));
}

TEST(Q3Errors, NodePlaneAndChildRange) {
    Q3Builder p = Q3Builder::tiny();
    p.nodes[0].plane = 2;
    auto r = load(p);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().field, "plane");

    Q3Builder c = Q3Builder::tiny();
    c.nodes[0].children[1] = -3; // leaf 2 of 2
    r = load(c);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::IndexOutOfRange);
    EXPECT_EQ(r.error().field, "children[1]");

    Q3Builder n = Q3Builder::tiny();
    n.nodes[0].children[0] = 1; // node 1 of 1
    EXPECT_EQ(codeOf(load(n)), ErrorCode::IndexOutOfRange);

    Q3Builder m = Q3Builder::tiny();
    m.nodes[0].children[0] = INT32_MIN; // leaf 2^31 - 1
    EXPECT_EQ(codeOf(load(m)), ErrorCode::IndexOutOfRange);
}

TEST(Q3Errors, ChildCycle) {
    Q3Builder b = Q3Builder::tiny();
    b.nodes.resize(2);
    b.nodes[0].children[0] = 1;
    b.nodes[0].children[1] = -1;
    b.nodes[1].children[0] = 0; // back to the root
    b.nodes[1].children[1] = -2;
    const auto r = load(b);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::BadTree);

    Q3Builder self = Q3Builder::tiny();
    self.nodes[0].children[0] = 0;
    EXPECT_EQ(codeOf(load(self)), ErrorCode::BadTree);
}

TEST(Q3Errors, SharedChild) {
    Q3Builder b = Q3Builder::tiny();
    b.nodes.resize(2);
    b.nodes[0].children[0] = 1;
    b.nodes[0].children[1] = 1;
    b.nodes[1].children[0] = -1;
    b.nodes[1].children[1] = -2;
    EXPECT_EQ(codeOf(load(b)), ErrorCode::BadTree);

    b.nodes[0].children[1] = -1; // a proper tree
    EXPECT_EQ(codeOf(load(b)), ErrorCode::Ok);
}

TEST(Q3Errors, DeepChainIsWalkedWithoutRecursion) {
    // 100000 nodes in a chain: a recursive walk would overflow a small stack.
    Q3Builder b = Q3Builder::tiny();
    const int n = 100000;
    b.nodes.resize(n);
    for (int i = 0; i < n; ++i) {
        b.nodes[i].children[0] = i + 1 < n ? i + 1 : -1;
        b.nodes[i].children[1] = -2;
    }
    const auto r = load(b);
    ASSERT_TRUE(r) << r.error().message();
    EXPECT_EQ(r->nodes.size(), size_t(n));
    b.nodes[n - 1].children[0] = 0;
    EXPECT_EQ(codeOf(load(b)), ErrorCode::BadTree);
}

TEST(Q3Errors, EvenPatchWidth) {
    Q3Builder b = Q3Builder::tiny();
    // 4x3 with 12 control points: the count fits, the width does not.
    for (int i = 0; i < 3; ++i)
        b.vertices.push_back(Q3Builder::vertex(float(i), 0, 0));
    b.faces[2].patch_w = 4;
    b.faces[2].num_vertices = 12;
    b.faces[4].first_vertex = 16;
    const auto r = load(b);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::BadPatch);
    EXPECT_EQ(r.error().index, 2);
    EXPECT_EQ(r.error().field, "patch_size");
}

TEST(Q3Errors, PatchSizeLimitsAndCounts) {
    Q3Builder one = Q3Builder::tiny();
    one.faces[2].patch_w = 1;
    one.faces[2].num_vertices = 3;
    EXPECT_EQ(codeOf(load(one)), ErrorCode::BadPatch);

    Q3Builder big = Q3Builder::tiny();
    big.faces[2].patch_w = 67;
    big.faces[2].patch_h = 3;
    EXPECT_EQ(codeOf(load(big)), ErrorCode::LimitExceeded);

    Q3Builder mismatch = Q3Builder::tiny();
    mismatch.faces[2].num_vertices = 8; // 3x3 needs 9
    EXPECT_EQ(codeOf(load(mismatch)), ErrorCode::BadPatch);
}

// A vis lump that does not fit is dropped with a warning: the map is drawn without vis.
TEST(Q3Errors, VisSizesThatDoNotFitDropTheVis) {
    const auto without = [](const Q3Builder& b, std::string_view warning) {
        const auto r = load(b);
        ASSERT_TRUE(r) << r.error().message();
        EXPECT_FALSE(r->vis.present());
        EXPECT_TRUE(hasWarning(*r, warning)) << warning;
        EXPECT_TRUE(hasWarning(*r, "drawn without vis"));
    };
    Q3Builder big = Q3Builder::tiny();
    big.setVis(2, 4, {0, 0, 0, 0}); // 8 bytes claimed, 4 present
    without(big, "visdata.sz_vecs: 2 rows of 4 bytes beyond the lump's 4");

    Q3Builder few = Q3Builder::tiny();
    few.leafs[1].cluster = 2; // vis has 2 clusters: 0 and 1
    without(few, "leafs[1].cluster: cluster 2 beyond 2 vis clusters");

    Q3Builder neg = Q3Builder::tiny();
    neg.setVis(-1, 1, {});
    without(neg, "visdata.n_vecs: negative size -1x1");

    Q3Builder shortlump = Q3Builder::tiny();
    shortlump.vis = {1, 0, 0, 0};
    without(shortlump, "visdata: lump of 4 bytes is shorter than its 8-byte header");

    Q3Builder wide = Q3Builder::tiny();
    wide.leafs[1].cluster = 9; // needs 10 clusters, rows of 2 bytes
    wide.setVis(10, 1, std::vector<uint8_t>(10, 0xff));
    without(wide, "visdata.sz_vecs: rows of 1 bytes cannot hold 10 clusters");
    wide.setVis(10, 2, std::vector<uint8_t>(20, 0xff));
    const auto r = load(wide);
    ASSERT_TRUE(r);
    EXPECT_TRUE(r->vis.present());
    EXPECT_TRUE(r->warnings.empty());
}

TEST(Q3Errors, BrushAndFogIndices) {
    // Leaf brushes are collision only: dropped with the collision, the map loads.
    Q3Builder lb = Q3Builder::tiny();
    lb.leaf_brushes[0] = 1;
    const auto no_collision = load(lb);
    ASSERT_TRUE(no_collision);
    EXPECT_EQ(no_collision->collision.kind, bsp::CollisionKind::None);
    EXPECT_TRUE(hasWarning(*no_collision, "leafbrushes[0].brush: brush 1 beyond 1 brushes"));

    Q3Builder fog = Q3Builder::tiny();
    fog.fogs[0].brush = 1;
    auto r = load(fog);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().lump, "effects");

    Q3Builder side = Q3Builder::tiny();
    side.fogs[0].visible_side = 1; // the brush has 1 side
    EXPECT_EQ(codeOf(load(side)), ErrorCode::IndexOutOfRange);

    Q3Builder bs = Q3Builder::tiny();
    bs.brush_sides[0][0] = 2;
    EXPECT_EQ(codeOf(load(bs)), ErrorCode::IndexOutOfRange);
}

TEST(Q3Errors, RecordCountIsCapped) {
    Q3Builder b = Q3Builder::tiny();
    b.fogs.resize(4097, b.fogs[0]); // effects are capped at 4096
    const auto r = load(b);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::LimitExceeded);
    EXPECT_EQ(r.error().lump, "effects");
    b.fogs.resize(4096);
    EXPECT_EQ(codeOf(load(b)), ErrorCode::Ok);
}

TEST(Q3Errors, IndexTotalIsCapped) {
    // 200 faces each naming the same 100000 meshverts: 20 M indices from a 1 MB file.
    Q3Builder b = Q3Builder::tiny();
    b.meshverts.resize(100000, 0);
    for (int i = 0; i < 200; ++i) {
        q3test::FaceRec f = b.faces[0];
        f.first_meshvert = 0;
        f.num_meshverts = 99999;
        b.faces.push_back(f);
    }
    const auto r = load(b);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::LimitExceeded);
}

TEST(Q3Hostile, EveryTruncatedPrefixFailsCleanly) {
    Q3Builder b = Q3Builder::tiny();
    b.lightmaps.resize(128 * 128 * 3); // one page keeps the file small
    b.faces[1].lightmap = 0;
    const std::vector<uint8_t> file = b.build();
    ASSERT_TRUE(bsp::loadMap(file, "t.bsp"));
    // Every prefix that cuts into a lump fails; only the padding after the last one may go.
    const size_t end = size_t(lumpOffset(file, kVisData) + lumpLength(file, kVisData));
    ASSERT_LT(end, file.size());
    for (size_t n = 0; n < file.size(); ++n) {
        const std::span<const uint8_t> prefix(file.data(), n);
        const auto r = bsp::loadMap(prefix, "t.bsp");
        EXPECT_EQ(bool(r), n >= end) << n;
        if (!r) {
            EXPECT_NE(r.error().code, ErrorCode::Ok);
        }
    }
}

TEST(Q3Hostile, EveryShortenedLumpFailsCleanly) {
    const std::vector<uint8_t> file = Q3Builder::tiny().build();
    for (int lump = 0; lump < kNumLumps; ++lump) {
        for (int32_t cut : {1, 4, 8, 44}) {
            std::vector<uint8_t> f = file;
            const int32_t len = lumpLength(f, lump);
            if (len < cut)
                continue;
            setLump(f, lump, lumpOffset(f, lump), len - cut);
            (void)bsp::loadMap(f, "t.bsp"); // any answer but a crash
        }
    }
    SUCCEED();
}

// Every 4-byte word outside the lightmaps, overwritten with hostile values: any answer but a
// crash, and what loads must be internally consistent.
void overwriteEveryWord(Q3Builder b) {
    b.lightmaps.clear();
    for (auto& f : b.faces)
        f.lightmap = -1;
    const std::vector<uint8_t> file = b.build();
    ASSERT_TRUE(bsp::loadMap(file, "t.bsp"));
    size_t ok = 0, failed = 0;
    for (size_t at = 0; at + 4 <= file.size(); at += 4) {
        for (uint32_t v : {0xffffffffu, 0x7fffffffu, 0x80000000u, 0x10000u, 3u}) {
            std::vector<uint8_t> f = file;
            std::memcpy(f.data() + at, &v, 4);
            const auto r = bsp::loadMap(f, "t.bsp");
            (r ? ok : failed)++;
            if (!r)
                continue;
            for (const bsp::Face& face : r->faces) {
                ASSERT_LE(uint64_t{face.first_vertex} + face.num_vertices, r->vertices.size());
                ASSERT_LE(uint64_t{face.first_index} + face.num_indices, r->indices.size());
                if (r->lightmap_storage == bsp::LightmapStorage::InMap) {
                    ASSERT_LT(face.lightmap_page, int32_t(r->lightmap_pages.size()));
                }
            }
            for (uint32_t i : r->leaf_faces)
                ASSERT_LT(i, r->faces.size());
        }
    }
    EXPECT_GT(failed, 0u);
    EXPECT_GT(ok, 0u);
}

TEST(Q3Hostile, OverwrittenWordsNeverCrash) {
    overwriteEveryWord(Q3Builder::tiny());
}

TEST(Q3Hostile, OverwrittenWordsNeverCrashFbsp) {
    Q3Builder b = Q3Builder::tiny();
    b.fbsp();
    overwriteEveryWord(b);
}
