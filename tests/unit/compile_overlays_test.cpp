// GL-free geometry of the compile-file overlays (scene/compile_overlays): portal polygons and
// outlines, the leak ribbon, lines and stop markers, the camera at a leak stop; and the map
// bundle finding a map's .prt / .pts beside it or taking named ones.
#include "scene/debug/compile_overlays.h"
#include "scene/load/map_bundle.h"

#include <glm/trigonometric.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

void expectNear(const glm::vec3& a, const glm::vec3& b, float eps = 1e-3f) {
    EXPECT_NEAR(a.x, b.x, eps);
    EXPECT_NEAR(a.y, b.y, eps);
    EXPECT_NEAR(a.z, b.z, eps);
}

// A quad portal between clusters 0 and 1, a hint triangle between 1 and 2, and one whose
// winding lies outside the points (never made by the reader; skipped).
content::PortalFile threePortals() {
    content::PortalFile f;
    f.num_clusters = 3;
    f.points = {{0, 0, 0},  {0, 64, 0},  {0, 64, 64}, {0, 0, 64},
                {64, 0, 0}, {64, 64, 0}, {64, 0, 64}};
    content::Portal quad;
    quad.first_point = 0;
    quad.num_points = 4;
    quad.a = 0;
    quad.b = 1;
    content::Portal tri;
    tri.first_point = 4;
    tri.num_points = 3;
    tri.a = 1;
    tri.b = 2;
    tri.hint = true;
    content::Portal bad;
    bad.first_point = 5;
    bad.num_points = 3;
    f.portals = {quad, tri, bad};
    return f;
}

content::LeakLine corner() {
    auto r = content::parseLeakFile("0 0 0\n100 0 0\n100 100 0\n", "c.lin");
    EXPECT_TRUE(r.ok());
    return r.ok() ? *r : content::LeakLine();
}

} // namespace

TEST(CompileOverlays, PortalsAsFansAndOutlines) {
    scene::TriangleList fill;
    scene::LineList outline;
    const auto stats = scene::addPortals(fill, outline, threePortals(), 90);
    EXPECT_EQ(stats.portals, 2u);
    EXPECT_EQ(stats.hints, 1u);
    EXPECT_EQ(stats.clusters, 3u);
    // Quad: 2 triangles, triangle: 1; outlines 4 + 3 edges.
    ASSERT_EQ(fill.triangles(), 3u);
    ASSERT_EQ(outline.segments(), 7u);
    // The quad's fan from its first point, in its front cluster's colour at alpha 90.
    glm::u8vec4 c0 = scene::hashColour(0);
    c0.a = 90;
    EXPECT_EQ(fill.vertices[0].colour, c0);
    EXPECT_EQ(fill.vertices[3].position, glm::vec3(0, 0, 0));
    EXPECT_EQ(fill.vertices[4].position, glm::vec3(0, 64, 64));
    EXPECT_EQ(fill.vertices[5].position, glm::vec3(0, 0, 64));
    EXPECT_EQ(fill.vertices[6].colour.a, 90);
    EXPECT_EQ(fill.vertices[6].colour, scene::portalColour(threePortals().portals[1], 90));
    // The quad's outline is its colour halfway to white; the hint's is white. The last edge
    // closes the winding.
    const glm::u8vec4 c = scene::hashColour(0);
    EXPECT_EQ(outline.vertices[0].colour,
              glm::u8vec4((c.r + 255) / 2, (c.g + 255) / 2, (c.b + 255) / 2, 255));
    EXPECT_EQ(outline.vertices[6].position, glm::vec3(0, 0, 64));
    EXPECT_EQ(outline.vertices[7].position, glm::vec3(0, 0, 0));
    EXPECT_EQ(outline.vertices[8].colour, glm::u8vec4(255, 255, 255, 255));
}

TEST(CompileOverlays, PickPortalFindsTheNearestCrossed) {
    const content::PortalFile f = threePortals();
    // Along +X at y = z = 32: the x = 0 quad at 10, the x = 64 triangle (y + z <= 64) at 74.
    auto hit = scene::pickPortal(f, {-10, 32, 32}, {2, 0, 0});
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->portal, 0u);
    EXPECT_FLOAT_EQ(hit->distance, 10.0f);
    expectNear(hit->point, {0, 32, 32});
    // From between them the triangle is nearest; from behind, the quad's back side still counts.
    hit = scene::pickPortal(f, {32, 16, 16}, {1, 0, 0});
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->portal, 1u);
    EXPECT_FLOAT_EQ(hit->distance, 32.0f);
    hit = scene::pickPortal(f, {32, 48, 48}, {-1, 0, 0});
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->portal, 0u);
    // Outside the triangle (y + z > 64), beyond max_distance, or a zero direction: nothing.
    EXPECT_FALSE(scene::pickPortal(f, {32, 48, 48}, {1, 0, 0}));
    EXPECT_FALSE(scene::pickPortal(f, {-10, 32, 32}, {1, 0, 0}, 5.0f));
    EXPECT_FALSE(scene::pickPortal(f, {-10, 32, 32}, {0, 0, 0}));
}

TEST(CompileOverlays, LeakRibbonLinesAndStops) {
    const content::LeakLine leak = corner();
    ASSERT_EQ(leak.stops, (std::vector<uint32_t>{0, 1, 2}));
    scene::TriangleList ribbon;
    scene::LineList lines;
    scene::addLeakLine(ribbon, lines, leak, 4.0f, 1);
    // Two segments, two crossed quads each, two triangles per quad.
    EXPECT_EQ(ribbon.triangles(), 8u);
    // Two segment lines, then a 12-edge box per stop.
    ASSERT_EQ(lines.segments(), 2u + 3u * 12u);
    // The first segment runs along +X: its flat quad spans y = +-2 (side = +X x +Z = -Y, the
    // quad starts at a - side), its upright one z = +-2 (lift = side x dir = +Z).
    expectNear(ribbon.vertices[0].position, {0, 2, 0});
    expectNear(ribbon.vertices[1].position, {0, -2, 0});
    expectNear(ribbon.vertices[6].position, {0, 0, -2});
    // Red at the first point, yellow at the last.
    EXPECT_EQ(lines.vertices[0].colour, glm::u8vec4(255, 40, 0, 255));
    EXPECT_EQ(lines.vertices[3].colour, glm::u8vec4(255, 240, 0, 255));
    // Stop 0's box: 1.5 * width around the point; stop 1 (current): 3 * width, white.
    expectNear(lines.vertices[4].position, {-6, -6, -6});
    EXPECT_EQ(lines.vertices[4 + 24].colour, glm::u8vec4(255, 255, 255, 255));
    expectNear(lines.vertices[4 + 24].position, {88, -12, -12});
}

TEST(CompileOverlays, ZeroLengthSegmentsMakeNoRibbon) {
    auto leak = content::parseLeakFile("5 5 5\n5 5 5\n", "z.pts");
    ASSERT_TRUE(leak.ok());
    scene::TriangleList ribbon;
    scene::LineList lines;
    scene::addLeakLine(ribbon, lines, *leak);
    EXPECT_EQ(ribbon.triangles(), 0u);
    EXPECT_EQ(lines.segments(), 1u + 2u * 12u); // the degenerate line, two stop boxes
}

TEST(CompileOverlays, CameraAtLeakStops) {
    const content::LeakLine leak = corner();
    scene::Camera base;
    base.fov_x = 70.0f;
    // Stop 0 looks along +X towards stop 1: 64 behind, 40 above, aimed 64 past the stop.
    auto c0 = scene::leakStopCamera(leak, 0, base);
    ASSERT_TRUE(c0);
    expectNear(c0->position, {-64, 0, 40});
    EXPECT_NEAR(c0->yaw, 0.0f, 1e-3f);
    EXPECT_NEAR(c0->pitch, glm::degrees(std::atan2(40.0f, 128.0f)), 1e-3f);
    EXPECT_EQ(c0->fov_x, 70.0f);
    // The last stop looks on along the way the line arrived (+Y); beyond the last clamps.
    auto c2 = scene::leakStopCamera(leak, 99, base);
    ASSERT_TRUE(c2);
    expectNear(c2->position, {100, 36, 40});
    EXPECT_NEAR(c2->yaw, 90.0f, 1e-3f);
    EXPECT_FALSE(scene::leakStopCamera(content::LeakLine(), 0, base));
}

TEST(CompileOverlays, DebugViewNames) {
    scene::DebugViews v;
    std::string error;
    ASSERT_TRUE(scene::parseDebugViews("portals,leak", &v, &error));
    EXPECT_TRUE(v.portals && v.leak && v.any());
    EXPECT_FALSE(v.clusters);
    ASSERT_TRUE(scene::parseDebugViews("all", &v, &error));
    EXPECT_TRUE(v.patches && v.portals && v.leak);
}

// ---------------------------------------------------------------------------------------------
// Loading beside the map

class CompileFilesBeside : public ::testing::Test {
protected:
    void SetUp() override {
        m_dir = fs::temp_directory_path() / ("bspv_compile_" + std::to_string(::getpid()));
        fs::create_directories(m_dir);
        fs::copy_file(fs::path(BSPV_SHARED_MAPS_DIR) / "lobby/q2_mp_lobby.bsp", map(),
                      fs::copy_options::overwrite_existing);
    }
    void TearDown() override {
        std::error_code ec;
        fs::remove_all(m_dir, ec);
    }
    fs::path map() const { return m_dir / "lobby.bsp"; }
    void write(const char* name, const std::string& text) const {
        std::ofstream(m_dir / name, std::ios::binary) << text;
    }
    core::Result<std::unique_ptr<scene::MapBundle>> load(const scene::LoadSettings& s = {}) {
        return scene::loadMapBundle(map().string(), s);
    }
    fs::path m_dir;
};

TEST_F(CompileFilesBeside, NoneBesideLoadsNone) {
    auto b = load();
    ASSERT_TRUE(b.ok()) << b.error().message();
    EXPECT_FALSE((*b)->portals);
    EXPECT_FALSE((*b)->leak);
}

TEST_F(CompileFilesBeside, FoundByBaseNameLinWhenNoPts) {
    fs::copy_file(fs::path(BSPV_SHARED_MAPS_DIR) / "lobby/q2_mp_lobby.prt", m_dir / "lobby.prt");
    write("lobby.lin", "0 0 0\n64 0 0\n");
    auto b = load();
    ASSERT_TRUE(b.ok()) << b.error().message();
    ASSERT_TRUE((*b)->portals);
    EXPECT_EQ((*b)->portals->portals.size(), 4u);
    ASSERT_TRUE((*b)->leak);
    EXPECT_EQ((*b)->leak->file, "lobby.lin");
    // A .pts wins over a .lin.
    write("lobby.pts", "1 2 3\n");
    auto b2 = load();
    ASSERT_TRUE(b2.ok());
    ASSERT_TRUE((*b2)->leak);
    EXPECT_EQ((*b2)->leak->points.size(), 1u);
}

TEST_F(CompileFilesBeside, BrokenOneBesideWarnsNamedOneFails) {
    write("lobby.prt", "PRT1\n4\n1\n4 0 9 (0 0 0) (1 0 0) (1 1 0) (0 1 0)\n");
    auto b = load();
    ASSERT_TRUE(b.ok()) << b.error().message();
    EXPECT_FALSE((*b)->portals);
    const auto& w = (*b)->warnings;
    EXPECT_TRUE(std::any_of(w.begin(), w.end(), [](const std::string& s) {
        return s.rfind("lobby.prt: line 4: ", 0) == 0;
    }));
    scene::LoadSettings named;
    named.portal_file = m_dir / "lobby.prt";
    auto failed = load(named);
    ASSERT_FALSE(failed.ok());
    EXPECT_EQ(failed.error().code, core::ErrorCode::IndexOutOfRange);
    EXPECT_EQ(failed.error().file, "lobby.prt");
    named.portal_file.clear();
    named.pointfile = m_dir / "missing.pts";
    auto missing = load(named);
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().code, core::ErrorCode::FileOpen);
}
