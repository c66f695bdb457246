// scene::diffMaps: two builds of a synthetic map, classified face by face.
#include "scene/debug/map_diff.h"
#include "support/map_builder.h"

#include <gtest/gtest.h>

#include <array>

namespace {

using scene::FaceChange;

// A floor, a wall and a ceiling, each a 64x64 quad with its own 4x4 lightmap block on one 16x4
// page (value 100 everywhere). `order` lists which of the three to add, in that order;
// `rotate` starts each quad's vertex list at another corner (as a recompile may).
struct Build {
    std::array<int, 3> order{0, 1, 2};
    int rotate = 0;
    glm::vec3 wall_offset{0.0f};
    bool extra = false; // a fourth quad (a new brush's face)
};

bsp::Map build(const Build& b) {
    bsp::Map m;
    testsupport::addMaterial(m, "floor");
    testsupport::addMaterial(m, "WALL");
    m.lightmap_width = 16;
    m.lightmap_height = 4;
    m.lightmap_pages.push_back({std::vector<uint8_t>(16 * 4 * 3, 100)});
    const std::array<std::array<glm::vec3, 4>, 4> quads = {{
        {{{0, 0, 0}, {64, 0, 0}, {64, 64, 0}, {0, 64, 0}}},
        {{{0, 0, 0}, {0, 64, 0}, {0, 64, 64}, {0, 0, 64}}},
        {{{0, 0, 64}, {64, 0, 64}, {64, 64, 64}, {0, 64, 64}}},
        {{{32, 0, 0}, {32, 64, 0}, {32, 64, 16}, {32, 0, 16}}},
    }};
    auto add = [&](int q) {
        std::array<glm::vec3, 4> c = quads[size_t(q)];
        if (q == 1)
            for (glm::vec3& p : c)
                p += b.wall_offset;
        std::rotate(c.begin(), c.begin() + b.rotate, c.end());
        bsp::Face f;
        f.material = q == 1 ? 1 : 0;
        f.lightmap_page = 0;
        f.lightmap_rect = {static_cast<uint16_t>(4 * q), 0, 4, 4};
        testsupport::addQuad(m, c, f);
    };
    for (int q : b.order)
        add(q);
    if (b.extra)
        add(3);
    testsupport::addWorldLeaf(m, glm::vec3(0), glm::vec3(64));
    return m;
}

} // namespace

TEST(MapDiff, ARecompileOfTheSameMapIsUnchangedWhateverTheFaceOrder) {
    const bsp::Map before = build({});
    Build b;
    b.order = {2, 0, 1};
    b.rotate = 1;
    const bsp::Map after = build(b);
    const scene::MapDiff d = scene::diffMaps(before, after);
    EXPECT_EQ(d.same, 3u);
    EXPECT_EQ(d.added + d.moved + d.relit, 0u);
    EXPECT_TRUE(d.removed.empty());
}

TEST(MapDiff, OneFaceAddedIsCountedOnce) {
    const bsp::Map before = build({});
    Build b;
    b.extra = true;
    const bsp::Map after = build(b);
    const scene::MapDiff d = scene::diffMaps(before, after);
    EXPECT_EQ(d.added, 1u);
    EXPECT_EQ(d.same, 3u);
    EXPECT_EQ(d.faces[3], FaceChange::Added);
    // And the other way round: the face is removed.
    const scene::MapDiff back = scene::diffMaps(after, before);
    EXPECT_EQ(back.added, 0u);
    ASSERT_EQ(back.removed.size(), 1u);
    EXPECT_EQ(back.removed[0], 3u);
    scene::LineList lines;
    scene::addRemovedFaces(lines, after, back);
    EXPECT_EQ(lines.segments(), 6u) << "two triangles, three edges each";
}

TEST(MapDiff, AShiftedWallIsMovedNotAddedAndRemoved) {
    const bsp::Map before = build({});
    Build b;
    b.wall_offset = {8, 0, 0};
    const bsp::Map after = build(b);
    const scene::MapDiff d = scene::diffMaps(before, after);
    EXPECT_EQ(d.moved, 1u);
    EXPECT_EQ(d.faces[1], FaceChange::Moved);
    EXPECT_EQ(d.added, 0u);
    EXPECT_TRUE(d.removed.empty());
    // Less than half a grid step (1/32 unit) is no move at all.
    b.wall_offset = {0.02f, 0, 0};
    EXPECT_EQ(scene::diffMaps(before, build(b)).same, 3u);
}

TEST(MapDiff, ALuxelChangedBeyondTheThresholdRelightsItsFace) {
    const bsp::Map before = build({});
    bsp::Map after = build({});
    // Luxel (1, 2) of the ceiling's block (x 8..11): +4 is within the threshold, +5 is not.
    const size_t at = (2 * 16 + 8 + 1) * 3 + 1;
    after.lightmap_pages[0].rgb[at] = 104;
    EXPECT_EQ(scene::diffMaps(before, after).relit, 0u);
    after.lightmap_pages[0].rgb[at] = 105;
    const scene::MapDiff d = scene::diffMaps(before, after);
    EXPECT_EQ(d.relit, 1u);
    EXPECT_EQ(d.faces[2], FaceChange::Relit);
    EXPECT_EQ(d.same, 2u);
    // A material renamed only in case is the same material (the games compare names so).
    bsp::Map renamed = build({});
    renamed.materials[1].name = "wall";
    EXPECT_EQ(scene::diffMaps(before, renamed).same, 3u);
}
