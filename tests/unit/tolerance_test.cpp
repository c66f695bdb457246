// Refuse or degrade (docs/robustness.md): a reference that only one feature uses and is out of
// range is dropped with a warning naming the file, lump, record and field, and the map loads.
// One hand-built map per class, each with exactly the defect, and the exact warning asserted.
// tests/render/tolerance_render_test.cpp draws the four classes real maps have.
#include "support/q1_builder.h"
#include "support/q2_builder.h"
#include "support/q3_builder.h"

#include "bsp/dropped.h"
#include "bsp/load.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace {

// Loads `bytes` as `name` and returns the map; fails the test when it is refused.
bsp::Map loadOrFail(const std::vector<uint8_t>& bytes, const char* name) {
    auto r = bsp::loadMap(bytes, name);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message());
    return r.ok() ? std::move(*r) : bsp::Map{};
}

int32_t readI32(const std::vector<uint8_t>& b, size_t at) {
    int32_t v = 0;
    std::memcpy(&v, b.data() + at, 4);
    return v;
}
void writeI32(std::vector<uint8_t>& b, size_t at, int32_t v) {
    std::memcpy(b.data() + at, &v, 4);
}

// Byte offset of lump `i` of a Quake 1 / Half-Life (4-byte header) or Quake 2 (8-byte) file.
size_t lumpAt(const std::vector<uint8_t>& b, size_t header, int i) {
    return size_t(readI32(b, header + size_t(i) * 8));
}

// buildQ1's options with one clipnode (z = 0: empty above, solid below), so that the map has
// clip hulls and no "clipnodes: none" warning.
q1test::Q1Options withClipnode() {
    q1test::Q1Options o;
    o.clipnodes = {{{0, -1, -2}}};
    return o;
}

const std::string kHalfLifeEntities = "{\n\"classname\" \"worldspawn\"\n}\n"
                                      "{\n\"classname\" \"func_wall\"\n\"model\" \"*1\"\n}\n"
                                      "{\n\"classname\" \"func_wall\"\n\"model\" \"*2\"\n}\n";

} // namespace

TEST(DroppedReferences, OneWarningPerKindWithTheFirstRecordAndACount) {
    bsp::DroppedReferences d;
    d.add(core::makeError(core::ErrorCode::IndexOutOfRange, "faces", 7, "effect", "effect 3"),
          "drawn without fog");
    d.add(core::makeError(core::ErrorCode::IndexOutOfRange, "faces", 9, "effect", "effect 4"),
          "drawn without fog");
    d.add(core::makeError(core::ErrorCode::IndexOutOfRange, "faces", 9, "lightmap", "page 2"),
          "vertex lit");
    EXPECT_EQ(d.count(), 3u);
    EXPECT_EQ(d.count("vertex lit"), 1u);
    bsp::Map m;
    d.flush(m);
    ASSERT_EQ(m.warnings.size(), 2u);
    EXPECT_EQ(m.warnings[0], "faces[7].effect: effect 3; drawn without fog (and 1 more in faces)");
    EXPECT_EQ(m.warnings[1], "faces[9].lightmap: page 2; vertex lit");
    EXPECT_EQ(d.count(), 0u);
}

// OpenArena's aggressor: surfaces name fog 0 in a map with no fogs (ioquake3 ParseFace).
TEST(Tolerance, Quake3FogIndexInAMapWithoutFogsIsIgnored) {
    q3test::Q3Builder b = q3test::Q3Builder::tiny();
    b.fogs.clear(); // face 1 still names effect 0
    const bsp::Map m = loadOrFail(b.build(), "nofog.bsp");
    ASSERT_EQ(m.faces.size(), 5u);
    EXPECT_EQ(m.faces[1].fog, -1);
    EXPECT_EQ(m.faces[1].num_indices, 3u); // still drawn
    ASSERT_EQ(m.warnings.size(), 1u);
    EXPECT_EQ(m.warnings[0],
              "nofog.bsp: faces[1].effect: effect 0 beyond 0 effects; drawn without fog");
}

// ioquake3 R_FindShader: a lightmap number past the pages is vertex lighting.
TEST(Tolerance, Quake3LightmapPastThePagesIsVertexLit) {
    q3test::Q3Builder b = q3test::Q3Builder::tiny();
    b.faces[0].lightmap = 5; // the tiny map has 2 pages
    const bsp::Map m = loadOrFail(b.build(), "lm.bsp");
    EXPECT_EQ(m.faces[0].lightmap_page, -1);
    EXPECT_EQ(m.faces[1].lightmap_page, 1);
    ASSERT_EQ(m.warnings.size(), 1u);
    EXPECT_EQ(m.warnings[0], "lm.bsp: faces[0].lightmap: lightmap 5 beyond 2 pages; vertex lit");
}

TEST(Tolerance, Quake3VisThatDoesNotFitTheLeavesIsDropped) {
    q3test::Q3Builder b = q3test::Q3Builder::tiny();
    b.leafs[1].cluster = 2; // the vis lump has clusters 0 and 1
    const bsp::Map m = loadOrFail(b.build(), "vis.bsp");
    EXPECT_FALSE(m.vis.present());
    ASSERT_EQ(m.warnings.size(), 1u);
    EXPECT_EQ(m.warnings[0], "vis.bsp: leafs[1].cluster: cluster 2 beyond 2 vis clusters; drawn "
                             "without vis (every cluster potentially visible)");

    q3test::Q3Builder short_rows = q3test::Q3Builder::tiny();
    short_rows.setVis(2, 4, {0, 0, 0, 0}); // 8 bytes claimed, 4 present
    const bsp::Map s = loadOrFail(short_rows.build(), "rows.bsp");
    EXPECT_FALSE(s.vis.present());
    ASSERT_EQ(s.warnings.size(), 1u);
    EXPECT_EQ(s.warnings[0], "rows.bsp: visdata.sz_vecs: 2 rows of 4 bytes beyond the lump's 4; "
                             "drawn without vis (every cluster potentially visible)");
}

TEST(Tolerance, Quake3CollisionReferencesDropTheCollisionOnly) {
    q3test::Q3Builder b = q3test::Q3Builder::tiny();
    b.leaf_brushes[0] = 1; // one brush
    const bsp::Map m = loadOrFail(b.build(), "clip.bsp");
    EXPECT_EQ(m.collision.kind, bsp::CollisionKind::None);
    EXPECT_TRUE(m.collision.models.empty());
    EXPECT_EQ(m.faces.size(), 5u);
    ASSERT_EQ(m.warnings.size(), 1u);
    EXPECT_EQ(m.warnings[0], "clip.bsp: leafbrushes[0].brush: brush 1 beyond 1 brushes; no "
                             "collision: walk mode and the collision views are off");
}

// ZHLT's empty hulls (a Counter-Strike map's last brush model): heads at the clipnode count.
TEST(Tolerance, HalfLifeClipHeadAtTheClipnodeCountIsAnEmptyHull) {
    q1test::Q1Options o = withClipnode();
    o.half_life = true;
    o.entities = kHalfLifeEntities;
    o.model_clip_heads = {{{0, 0, 0}}, {{1, 1, 1}}}; // model 2: the count
    const bsp::Map m = loadOrFail(q1test::buildQ1(o), "cs_empty.bsp");
    ASSERT_EQ(m.collision.kind, bsp::CollisionKind::Hulls);
    ASSERT_EQ(m.collision.models.size(), 3u);
    EXPECT_EQ(m.collision.models[1].heads, (std::array<int32_t, 4>{0, 0, 0, 0}));
    EXPECT_EQ(m.collision.models[2].heads, (std::array<int32_t, 4>{0, -1, -1, -1}));
    EXPECT_EQ(m.faces.size(), 2u);
    ASSERT_EQ(m.warnings.size(), 1u);
    EXPECT_EQ(m.warnings[0], "cs_empty.bsp: models[2].headnode: hull 1 head 1 beyond 1 clipnodes; "
                             "empty hulls: walk mode's player passes through the model");
}

// GoldSrc reads the last face's samples from the file buffer past the lighting lump.
TEST(Tolerance, HalfLifeLightmapPastTheLumpIsReadAsFarAsItGoes) {
    q1test::Q1Options o = withClipnode();
    o.half_life = true;
    o.luxel = 200;
    o.face1_lightofs = 40; // 5x5 RGB luxels at byte 120 of 150: 10 luxels there
    const bsp::Map m = loadOrFail(q1test::buildQ1(o), "hl_light.bsp");
    ASSERT_EQ(m.warnings.size(), 1u);
    EXPECT_EQ(m.warnings[0], "hl_light.bsp: faces[1].lightofs: lightmap at 120 (1 styles of 75 "
                             "bytes) beyond 150 bytes of lighting; read to the lump's end, the "
                             "rest black");
    const bsp::Face& f = m.faces[1];
    ASSERT_GE(f.lightmap_page, 0);
    ASSERT_EQ(f.lightmap_rect.w, 5);
    ASSERT_EQ(f.lightmap_rect.h, 5);
    const std::vector<uint8_t>& page = m.lightmap_pages[size_t(f.lightmap_page)].rgb;
    for (int y = 0; y < 5; ++y)
        for (int x = 0; x < 5; ++x) {
            const size_t at = ((size_t(f.lightmap_rect.y) + size_t(y)) * size_t(m.lightmap_width) +
                               size_t(f.lightmap_rect.x) + size_t(x)) *
                              3;
            const uint8_t want = y * 5 + x < 10 ? 200 : 0; // two rows read, three black
            EXPECT_EQ(page[at], want) << x << "," << y;
        }
}

// QuakeSpasm Mod_LoadTexinfo: a miptex past the textures draws the missing texture.
TEST(Tolerance, Quake1TexinfoPastTheTexturesDrawsTheMissingTexture) {
    std::vector<uint8_t> bytes = q1test::buildQ1(withClipnode());
    writeI32(bytes, lumpAt(bytes, 4, 6) + 32, 3); // texinfo 0's miptex; one texture
    const bsp::Map m = loadOrFail(bytes, "miptex.bsp");
    ASSERT_EQ(m.materials.size(), 2u); // "floor" and the stand-in
    EXPECT_EQ(m.materials[1].name, "");
    EXPECT_EQ(m.faces[0].material, 1);
    EXPECT_EQ(m.faces[0].num_indices, 6u);
    ASSERT_EQ(m.warnings.size(), 1u);
    EXPECT_EQ(m.warnings[0], "miptex.bsp: texinfo[0].miptex: 3 beyond 1 textures; drawn with the "
                             "missing texture");
}

TEST(Tolerance, Quake1MiptexOutsideTheLumpIsAnUnnamedTexture) {
    std::vector<uint8_t> bytes = q1test::buildQ1(withClipnode());
    writeI32(bytes, lumpAt(bytes, 4, 2) + 4, 100000); // texture 0's header offset
    const bsp::Map m = loadOrFail(bytes, "mipofs.bsp");
    ASSERT_EQ(m.materials.size(), 1u);
    EXPECT_EQ(m.materials[0].name, "");
    EXPECT_EQ(m.materials[0].embedded, -1);
    ASSERT_EQ(m.warnings.size(), 1u);
    EXPECT_EQ(m.warnings[0], "mipofs.bsp: textures[0].offset: miptex header at 100000 beyond the "
                             "lump; an unnamed texture (drawn missing)");
}

TEST(Tolerance, ClipnodesThatDoNotHoldDropTheCollisionOnly) {
    q1test::Q1Options o;
    o.clipnodes = {{{7, -1, -2}}}; // plane 7 of 2
    const bsp::Map m = loadOrFail(q1test::buildQ1(o), "clipplane.bsp");
    EXPECT_EQ(m.collision.kind, bsp::CollisionKind::None);
    EXPECT_EQ(m.faces.size(), 2u);
    ASSERT_EQ(m.warnings.size(), 1u);
    EXPECT_EQ(m.warnings[0], "clipplane.bsp: clipnodes[0].planenum: 7 beyond 2 planes; no "
                             "collision: walk mode and the collision views are off");
}

// yquake2 Mod_LoadTexinfo follows nexttexinfo unchecked.
TEST(Tolerance, Quake2AnimationLinkPastTheTexinfosIsNotAnimated) {
    const bsp::Map m = loadOrFail(q2test::buildQ2(2, 7), "anim.bsp");
    EXPECT_EQ(m.materials[0].anim_next, -1);
    EXPECT_EQ(m.materials[1].anim_next, 0);
    ASSERT_EQ(m.warnings.size(), 1u);
    EXPECT_EQ(m.warnings[0], "anim.bsp: texinfo[0].nexttexinfo: 7 beyond 2 texinfo; not animated");
}

TEST(Tolerance, Quake2VisThatDoesNotFitIsDroppedOrSeesEverything) {
    // One cluster in the lump: leaf 2 names cluster 1.
    const bsp::Map one = loadOrFail(q2test::buildQ2(1), "onecluster.bsp");
    EXPECT_FALSE(one.vis.present());
    ASSERT_EQ(one.warnings.size(), 1u);
    EXPECT_EQ(one.warnings[0], "onecluster.bsp: leafs[2].cluster: 1 beyond 1 clusters; drawn "
                               "without vis (every cluster potentially visible)");

    std::vector<uint8_t> bytes = q2test::buildQ2();
    writeI32(bytes, lumpAt(bytes, 8, 3) + 4, 5000); // cluster 0's PVS offset
    const bsp::Map row = loadOrFail(bytes, "bitofs.bsp");
    ASSERT_TRUE(row.vis.present());
    EXPECT_TRUE(row.vis.visible(0, 1)); // cluster 0 saw only itself; now everything
    EXPECT_TRUE(row.vis.visible(1, 0)); // cluster 1's row is as written
    ASSERT_EQ(row.warnings.size(), 1u);
    EXPECT_EQ(row.warnings[0], "bitofs.bsp: visibility[0].bitofs: offset 5000 beyond 22 bytes; "
                               "the cluster sees every cluster");
}

TEST(Tolerance, Quake2AreaReferencesDropTheAreas) {
    std::vector<uint8_t> bytes = q2test::buildQ2();
    writeI32(bytes, lumpAt(bytes, 8, 17) + 8, 3); // area 1: 3 portals, none in the lump
    const bsp::Map m = loadOrFail(bytes, "areas.bsp");
    EXPECT_TRUE(m.areas.empty());
    EXPECT_TRUE(m.area_portals.empty());
    ASSERT_EQ(m.warnings.size(), 1u);
    EXPECT_EQ(m.warnings[0], "areas.bsp: areas[1].firstareaportal: 3 beyond 0 areaportals; no "
                             "areas: the area views and area restrictions are off");
}

// QuakeSpasm Mod_LoadNodes: a node's leaf child past the leaves is the solid leaf 0.
TEST(Tolerance, Quake1NodeLeafPastTheLeavesIsTheSolidLeaf) {
    std::vector<uint8_t> bytes = q1test::buildQ1(withClipnode());
    const uint16_t leaf9 = 0xffff - 9; // of 3 leaves
    std::memcpy(bytes.data() + lumpAt(bytes, 4, 5) + 4, &leaf9, 2);
    const bsp::Map m = loadOrFail(bytes, "leafchild.bsp");
    EXPECT_EQ(m.nodes[0].children[0], -1);
    EXPECT_EQ(m.nodes[0].children[1], -2);
    ASSERT_EQ(m.warnings.size(), 1u);
    EXPECT_EQ(m.warnings[0], "leafchild.bsp: nodes[0].children[0]: 9 beyond 3 leaves; taken as the "
                             "solid leaf 0");
}

TEST(Tolerance, Quake2NegativeClusterIsNoCluster) {
    std::vector<uint8_t> bytes = q2test::buildQ2();
    const int16_t cluster = -5;
    std::memcpy(bytes.data() + lumpAt(bytes, 8, 8) + 2 * 28 + 4, &cluster, 2); // leaf 2
    const bsp::Map m = loadOrFail(bytes, "cluster.bsp");
    EXPECT_EQ(m.leaves[2].cluster, -1);
    ASSERT_EQ(m.warnings.size(), 1u);
    EXPECT_EQ(m.warnings[0], "cluster.bsp: leafs[2].cluster: -5 beyond 0 clusters; taken as -1 (no "
                             "cluster)");
}
