// q3map2 external lightmaps and deluxe maps (scene/world/lightmap_set.h): the tiny Quake 3 map of
// tests/support with an empty lightmap lump, written to a temporary game folder with
// maps/ext/lm_NNNN.tga beside it, loaded through scene::loadMapBundle.
#include "scene/world/lightmap_set.h"

#include "bsp/load.h"
#include "scene/debug/debug_geometry.h"
#include "scene/load/map_bundle.h"
#include "support/q1_builder.h"
#include "support/q3_builder.h"
#include "unit/content_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>

using namespace content_test;
using q3test::Q3Builder;

namespace {

using Rgb = std::array<uint8_t, 3>;

// An uncompressed 24-bit TGA as q3map2's WriteTGA24 writes it: BGR, bottom row first
// (image descriptor 0). `texels` are given top row first.
Bytes tga(int w, int h, const std::vector<Rgb>& texels) {
    Bytes b(18, 0);
    b[2] = 2;
    b[12] = static_cast<uint8_t>(w & 255);
    b[13] = static_cast<uint8_t>(w >> 8);
    b[14] = static_cast<uint8_t>(h & 255);
    b[15] = static_cast<uint8_t>(h >> 8);
    b[16] = 24;
    for (int y = h - 1; y >= 0; --y)
        for (int x = 0; x < w; ++x) {
            const Rgb& c = texels[static_cast<size_t>(y * w + x)];
            b.insert(b.end(), {c[2], c[1], c[0]});
        }
    return b;
}

// 4x2 texels: top row (v, 2v, 3v, 4v) in red, bottom row `v` grey; distinct per image.
std::vector<Rgb> pattern(uint8_t v) {
    return {{v, 0, 0},
            {static_cast<uint8_t>(2 * v), 0, 0},
            {static_cast<uint8_t>(3 * v), 0, 0},
            {static_cast<uint8_t>(4 * v), 0, 0},
            {v, v, v},
            {v, v, v},
            {v, v, v},
            {v, v, v}};
}

Bytes rgbBytes(const std::vector<Rgb>& texels) {
    Bytes out;
    for (const Rgb& c : texels)
        out.insert(out.end(), c.begin(), c.end());
    return out;
}

// The tiny map without lightmap pages: faces 0 (quad) and 4 (door) name page 0, face 1 (soup)
// page 1, the patch is vertex lit and the flare has none.
Q3Builder externalMap() {
    Q3Builder b = Q3Builder::tiny();
    b.lightmaps.clear();
    return b;
}

struct Loaded {
    std::unique_ptr<scene::MapBundle> bundle;
    // The lightmap layer the mesh gives each vertex of map face `face`.
    std::vector<float> layers(size_t face) const {
        std::vector<float> out;
        const scene::MeshFace& mf = bundle->mesh.faces[face];
        for (uint32_t k = 0; k < mf.num_indices; ++k)
            out.push_back(bundle->mesh.vertices[bundle->mesh.indices[mf.first_index + k]].lm_layer);
        return out;
    }
    bool warned(std::string_view text) const {
        return std::any_of(bundle->warnings.begin(), bundle->warnings.end(),
                           [&](const std::string& w) { return w.find(text) != std::string::npos; });
    }
};

Loaded load(const TempDir& dir, const Q3Builder& b, const Files& lightmaps = {},
            const std::vector<std::pair<std::string, Bytes>>& images = {}) {
    writeBytes(dir / "maps/ext.bsp", b.build());
    for (const auto& [name, text] : lightmaps)
        writeText(dir / name, text);
    for (const auto& [name, bytes] : images)
        writeBytes(dir / name, bytes);
    auto r = scene::loadMapBundle((dir / "maps/ext.bsp").string(), {});
    EXPECT_TRUE(r) << (r ? "" : r.error().message());
    return {r ? std::move(*r) : nullptr};
}

bool allEqual(const std::vector<float>& v, float x) {
    return !v.empty() && std::all_of(v.begin(), v.end(), [&](float y) { return y == x; });
}

} // namespace

TEST(ExternalLightmaps, PagesAreTheImagesBesideTheMapTexelForTexel) {
    TempDir dir;
    const Loaded l = load(dir, externalMap(), {},
                          {{"maps/ext/lm_0000.tga", tga(4, 2, pattern(10))},
                           {"maps/ext/lm_0001.tga", tga(4, 2, pattern(20))}});
    ASSERT_TRUE(l.bundle);
    const scene::LightmapSet& set = l.bundle->lightmaps;
    EXPECT_EQ(l.bundle->map.lightmap_storage, bsp::LightmapStorage::External);
    EXPECT_TRUE(l.bundle->map.lightmap_pages.empty()); // the parsed map stays as read
    EXPECT_EQ(set.storage, bsp::LightmapStorage::External);
    EXPECT_EQ(set.width, 4);
    EXPECT_EQ(set.height, 2);
    ASSERT_EQ(set.pages.size(), 2u);
    // Rows top first, whatever order the file stores them in.
    EXPECT_EQ(set.pages[0].rgb, rgbBytes(pattern(10)));
    EXPECT_EQ(set.pages[1].rgb, rgbBytes(pattern(20)));
    // Face 1 names page 1: an odd page in use, so these are not deluxe maps.
    EXPECT_TRUE(set.deluxe.empty());
    EXPECT_EQ(set.page_of, (std::vector<int32_t>{0, 1}));
    EXPECT_EQ(set.files,
              (std::vector<std::string>{"maps/ext/lm_0000.tga", "maps/ext/lm_0001.tga"}));
    EXPECT_TRUE(l.bundle->warnings.empty()) << l.bundle->warnings.front();
    EXPECT_TRUE(allEqual(l.layers(0), 0.0f));
    EXPECT_TRUE(allEqual(l.layers(1), 1.0f));
    EXPECT_TRUE(allEqual(l.layers(2), -1.0f)); // the vertex-lit patch
    EXPECT_TRUE(allEqual(l.layers(4), 0.0f));
    EXPECT_EQ(scene::describeLightmaps(set),
              "2 pages of 4x2 from external images (maps/ext/lm_NNNN)");
}

TEST(ExternalLightmaps, PickedLuxelIsTheImageTexelUnderTheCoordinate) {
    // External images have no blocks: the whole 4x2 page is the face's.
    TempDir dir;
    const Loaded l = load(dir, externalMap(), {},
                          {{"maps/ext/lm_0000.tga", tga(4, 2, pattern(10))},
                           {"maps/ext/lm_0001.tga", tga(4, 2, pattern(20))}});
    ASSERT_TRUE(l.bundle);
    const auto top = scene::luxelAt(l.bundle->map, l.bundle->lightmaps, 1, {0.8f, 0.2f});
    ASSERT_TRUE(top);
    EXPECT_EQ(top->page, 1);
    EXPECT_EQ(top->x, 3);
    EXPECT_EQ(top->y, 0);
    EXPECT_EQ(top->rgb, (std::array<uint8_t, 3>{80, 0, 0})); // 4 x 20 in the top row
    const auto bottom = scene::luxelAt(l.bundle->map, l.bundle->lightmaps, 0, {0.3f, 0.9f});
    ASSERT_TRUE(bottom);
    EXPECT_EQ(bottom->page, 0);
    EXPECT_EQ(bottom->x, 1);
    EXPECT_EQ(bottom->y, 1);
    EXPECT_EQ(bottom->rgb, (std::array<uint8_t, 3>{10, 10, 10}));
    // The map alone has no pages to look in; the vertex-lit patch has none either.
    EXPECT_FALSE(scene::luxelAt(l.bundle->map, 0, {0.3f, 0.9f}));
    EXPECT_FALSE(scene::luxelAt(l.bundle->map, l.bundle->lightmaps, 2, {0.3f, 0.9f}));
}

TEST(ExternalLightmaps, EvenPagesWithPartnersAreLightAndDirection) {
    // Faces name pages 0 and 2 of four: DarkPlaces takes 1 and 3 as their direction maps.
    TempDir dir;
    Q3Builder b = externalMap();
    b.faces[1].lightmap = 2;
    const Loaded l = load(dir, b, {},
                          {{"maps/ext/lm_0000.tga", tga(4, 2, pattern(10))},
                           {"maps/ext/lm_0001.tga", tga(4, 2, pattern(11))},
                           {"maps/ext/lm_0002.tga", tga(4, 2, pattern(12))},
                           {"maps/ext/lm_0003.tga", tga(4, 2, pattern(13))}});
    ASSERT_TRUE(l.bundle);
    const scene::LightmapSet& set = l.bundle->lightmaps;
    ASSERT_EQ(set.pages.size(), 2u);
    ASSERT_EQ(set.deluxe.size(), 2u);
    EXPECT_EQ(set.pages[1].rgb, rgbBytes(pattern(12)));
    EXPECT_EQ(set.deluxe[0].rgb, rgbBytes(pattern(11)));
    EXPECT_EQ(set.deluxe[1].rgb, rgbBytes(pattern(13)));
    EXPECT_FALSE(set.deluxe_tangent_space);
    EXPECT_EQ(set.page_of, (std::vector<int32_t>{0, 0, 1, 1}));
    EXPECT_TRUE(allEqual(l.layers(0), 0.0f));
    EXPECT_TRUE(allEqual(l.layers(1), 1.0f));
    EXPECT_EQ(scene::describeLightmaps(set),
              "2 pages of 4x2 from external images (maps/ext/lm_NNNN), deluxe maps (model space)");
}

TEST(ExternalLightmaps, ABlackSecondPageIsNotADeluxeMap) {
    // Only page 0 in use and page 1 all black: q3map2's spare blank page, not a direction map.
    TempDir dir;
    Q3Builder b = externalMap();
    b.faces[1].lightmap = 0;
    const std::vector<Rgb> black(8, Rgb{0, 0, 0});
    const Loaded l = load(dir, b, {},
                          {{"maps/ext/lm_0000.tga", tga(4, 2, pattern(10))},
                           {"maps/ext/lm_0001.tga", tga(4, 2, black)}});
    ASSERT_TRUE(l.bundle);
    EXPECT_TRUE(l.bundle->lightmaps.deluxe.empty());
    EXPECT_EQ(l.bundle->lightmaps.pages.size(), 2u);

    // The same with a lit page 1 is a light / direction pair.
    TempDir dir2;
    const Loaded d = load(dir2, b, {},
                          {{"maps/ext/lm_0000.tga", tga(4, 2, pattern(10))},
                           {"maps/ext/lm_0001.tga", tga(4, 2, pattern(1))}});
    ASSERT_TRUE(d.bundle);
    EXPECT_EQ(d.bundle->lightmaps.pages.size(), 1u);
    EXPECT_EQ(d.bundle->lightmaps.deluxe.size(), 1u);
}

TEST(ExternalLightmaps, WorldspawnKeyDecidesDeluxeMaps) {
    // "deluxeMaps" "2": deluxe (tangent space) even though face 1 names odd page 1, which
    // then draws with the light page of its pair, as DarkPlaces' n >> 1 does.
    TempDir dir;
    Q3Builder b = externalMap();
    b.entities = "{\n\"classname\" \"worldspawn\"\n\"_deluxeMaps\" \"2\"\n}\n";
    const Loaded l = load(dir, b, {},
                          {{"maps/ext/lm_0000.tga", tga(4, 2, pattern(10))},
                           {"maps/ext/lm_0001.tga", tga(4, 2, pattern(11))}});
    ASSERT_TRUE(l.bundle);
    EXPECT_EQ(l.bundle->map.deluxe_maps, bsp::DeluxeMaps::TangentSpace);
    EXPECT_EQ(l.bundle->lightmaps.pages.size(), 1u);
    EXPECT_EQ(l.bundle->lightmaps.deluxe.size(), 1u);
    EXPECT_TRUE(l.bundle->lightmaps.deluxe_tangent_space);
    EXPECT_TRUE(allEqual(l.layers(1), 0.0f));
}

TEST(ExternalLightmaps, MissingImageFallsBackToVertexColoursWithAWarning) {
    TempDir dir;
    const Loaded l =
        load(dir, externalMap(), {}, {{"maps/ext/lm_0000.tga", tga(4, 2, pattern(10))}});
    ASSERT_TRUE(l.bundle);
    EXPECT_EQ(l.bundle->lightmaps.pages.size(), 1u);
    EXPECT_TRUE(l.warned("external lightmaps: maps/ext/lm_0001: not found; 1 face(s) fall back "
                         "to vertex colours"));
    EXPECT_TRUE(allEqual(l.layers(0), 0.0f));
    EXPECT_TRUE(allEqual(l.layers(1), -1.0f));
}

TEST(ExternalLightmaps, NoImagesAtAllLeaveEveryFaceOnVertexColours) {
    TempDir dir;
    const Loaded l = load(dir, externalMap());
    ASSERT_TRUE(l.bundle);
    EXPECT_TRUE(l.bundle->lightmaps.pages.empty());
    EXPECT_TRUE(l.warned("maps/ext/lm_0000: not found; 3 face(s) fall back to vertex colours"));
    for (size_t face : {0u, 1u, 4u})
        EXPECT_TRUE(allEqual(l.layers(face), -1.0f)) << face;
    EXPECT_EQ(scene::describeLightmaps(l.bundle->lightmaps), "none");
}

TEST(ExternalLightmaps, CorruptImageEndsTheListWithAWarningNamingIt) {
    TempDir dir;
    const Loaded l = load(dir, externalMap(), {{"maps/ext/lm_0001.tga", "not an image"}},
                          {{"maps/ext/lm_0000.tga", tga(4, 2, pattern(10))}});
    ASSERT_TRUE(l.bundle);
    EXPECT_EQ(l.bundle->lightmaps.pages.size(), 1u);
    EXPECT_TRUE(l.warned("maps/ext/lm_0001.tga"));
    EXPECT_TRUE(l.warned("1 face(s) fall back to vertex colours"));
    EXPECT_TRUE(allEqual(l.layers(1), -1.0f));
}

TEST(ExternalLightmaps, ImageOfAnotherSizeEndsTheList) {
    // DarkPlaces reads lm_0000's size and stops at the first image that differs.
    TempDir dir;
    const Loaded l = load(dir, externalMap(), {},
                          {{"maps/ext/lm_0000.tga", tga(4, 2, pattern(10))},
                           {"maps/ext/lm_0001.tga", tga(2, 2, std::vector<Rgb>(4, Rgb{1, 2, 3}))}});
    ASSERT_TRUE(l.bundle);
    EXPECT_EQ(l.bundle->lightmaps.pages.size(), 1u);
    EXPECT_TRUE(l.warned("maps/ext/lm_0001.tga: 2x2, but maps/ext/lm_0000.tga is 4x2"));
    EXPECT_TRUE(allEqual(l.layers(1), -1.0f));
}

TEST(ExternalLightmaps, InternalPagesStayAsTheyWere) {
    // A map with its own pages: copied as they are, page numbers unchanged.
    TempDir dir;
    const Q3Builder b = Q3Builder::tiny();
    const Loaded l = load(dir, b, {}, {{"maps/ext/lm_0000.tga", tga(4, 2, pattern(10))}});
    ASSERT_TRUE(l.bundle);
    const scene::LightmapSet& set = l.bundle->lightmaps;
    EXPECT_EQ(set.storage, bsp::LightmapStorage::InMap);
    EXPECT_EQ(set.width, 128);
    ASSERT_EQ(set.pages.size(), 2u);
    EXPECT_EQ(set.pages[1].rgb, l.bundle->map.lightmap_pages[1].rgb);
    EXPECT_TRUE(set.files.empty());
    EXPECT_TRUE(allEqual(l.layers(1), 1.0f));
    EXPECT_EQ(scene::describeLightmaps(set), "2 pages of 128x128");
}

TEST(ExternalLightmaps, MapVirtualBaseIsTheMapPathWithoutExtension) {
    using content::MapLocation;
    EXPECT_EQ(scene::mapVirtualBase(MapLocation("/x/data.pk3:maps/nexdm01.bsp"), std::nullopt),
              "maps/nexdm01");
    EXPECT_EQ(scene::mapVirtualBase(MapLocation("/x/base/maps/sub/a.bsp"),
                                    std::filesystem::path("/x/base")),
              "maps/sub/a");
    EXPECT_EQ(scene::mapVirtualBase(MapLocation("/y/a.bsp"), std::filesystem::path("/x/base")),
              "a");
}

// Quake 1 light directions (BSPX LIGHTINGDIR) are pages of their own beside the light, in the
// face's tangent space: the set takes them page for page, with no pairing of numbered pages.
TEST(MapLightDirections, BspxLightingdirBecomesTheDeluxePagesInTangentSpace) {
    q1test::Q1Options o;
    o.lighting_data.assign(50, 100);
    std::vector<uint8_t> f = q1test::buildQ1(o);
    std::vector<uint8_t> dirs(150, 128);
    dirs[25 * 3] = 9; // face 1's first luxel
    q1test::appendBspx(f, {{"LIGHTINGDIR", dirs}});
    auto map = bsp::loadMap(f, "dirs.bsp");
    ASSERT_TRUE(map.ok()) << map.error().message();
    const scene::LightmapSet set = scene::lightmapsInMap(*map);
    ASSERT_EQ(set.pages.size(), 1u);
    ASSERT_EQ(set.deluxe.size(), 1u);
    EXPECT_TRUE(set.deluxe_tangent_space);
    EXPECT_EQ(set.pageOf(0), 0);
    const bsp::LightmapRect r = map->faces[1].lightmap_rect;
    const size_t at = (size_t(r.y) * size_t(set.width) + r.x) * 3;
    EXPECT_EQ(set.deluxe[0].rgb[at], 9);
    EXPECT_EQ(set.deluxe[0].rgb[at + 1], 128);
    EXPECT_EQ(set.pages[0].rgb[at], 100);
    EXPECT_EQ(scene::describeLightmaps(set), "1 pages of 1024x1024, deluxe maps (tangent space)");
}
