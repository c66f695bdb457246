// Leak files (.pts, .lin) and portal files (.prt in its four forms) from text written here,
// with the values worked out by hand; malformed files give the exact code and the line.
#include "content/compile/leak_file.h"
#include "content/compile/portal_file.h"

#include <glm/trigonometric.hpp>
#include <gtest/gtest.h>

#include <cmath>
#include <string>

using content::PortalFormat;
using core::ErrorCode;

namespace {

// A square portal in the plane x = X, as ericw-tools writes windings.
const char* kSquare = "(0 0 0) (0 64 0) (0 64 64) (0 0 64)";

void expectError(const core::Error& e, ErrorCode code, const std::string& lump) {
    EXPECT_EQ(e.code, code) << e.message();
    EXPECT_EQ(e.lump, lump) << e.message();
    EXPECT_EQ(e.file, "t.prt");
    EXPECT_NE(e.message().find("t.prt: " + lump + ": "), std::string::npos) << e.message();
}

core::Error portalError(const std::string& text) {
    auto r = content::parsePortalFile(text, "t.prt");
    EXPECT_FALSE(r.ok()) << text;
    return r.ok() ? core::Error() : r.error();
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Leak files

TEST(LeakFile, DenseTrailKeepsCornersAsStops) {
    // An L of 2-unit steps, as ericw-tools' WriteLeakTrail writes (leakdist 2).
    auto r = content::parseLeakFile("0 0 0\n2 0 0\n4 0 0\n4 2 0\n4 4 0\n", "e1m1.pts");
    ASSERT_TRUE(r.ok()) << r.error().message();
    ASSERT_EQ(r->points.size(), 5u);
    EXPECT_EQ(r->points[3], glm::vec3(4, 2, 0));
    EXPECT_EQ(r->stops, (std::vector<uint32_t>{0, 2, 4}));
    EXPECT_FLOAT_EQ(r->length, 8.0f);
    EXPECT_EQ(r->file, "e1m1.pts");
}

TEST(LeakFile, LinWithCrLfBlankLinesAndDecimals) {
    // q3map2 LeakFile: "%f %f %f\n" per portal centre; here saved with Windows line ends.
    auto r = content::parseLeakFile(
        "-96.000000 32.500000 16.000000\r\n\r\n-96.000000 32.500000 80.000000\r\n"
        "128.000000 32.500000 80.000000\r\n",
        "dm1.lin");
    ASSERT_TRUE(r.ok()) << r.error().message();
    ASSERT_EQ(r->points.size(), 3u);
    EXPECT_EQ(r->points[0], glm::vec3(-96.0f, 32.5f, 16.0f));
    EXPECT_EQ(r->stops, (std::vector<uint32_t>{0, 1, 2}));
    EXPECT_FLOAT_EQ(r->length, 64.0f + 224.0f);
}

TEST(LeakFile, OnePointAndRepeatedPoints) {
    auto one = content::parseLeakFile("1 2 3", "a.pts");
    ASSERT_TRUE(one.ok());
    EXPECT_EQ(one->stops, (std::vector<uint32_t>{0}));
    // A repeated point neither turns nor ends the run.
    auto rep = content::parseLeakFile("0 0 0\n1 0 0\n1 0 0\n2 0 0\n", "a.pts");
    ASSERT_TRUE(rep.ok());
    EXPECT_EQ(rep->stops, (std::vector<uint32_t>{0, 3}));
}

TEST(LeakFile, MalformedLinesNameTheLine) {
    const struct {
        const char* text;
        ErrorCode code;
        const char* lump;
    } kCases[] = {
        {"1 2\n", ErrorCode::BadValue, "line 1"},
        {"0 0 0\n\n1 1 z\n", ErrorCode::BadValue, "line 3"},
        {"0 0 0\n1 2 3 4\n", ErrorCode::BadValue, "line 2"},
        {"0 0 0\n1 2 nan\n", ErrorCode::BadValue, "line 2"},
        {"0 0 1e39\n", ErrorCode::BadValue, "line 1"},
        {"0 0 0\n0 -2000000 0\n", ErrorCode::BadValue, "line 2"},
        {"", ErrorCode::BadValue, ""},
        {"  \n\t\n", ErrorCode::BadValue, ""},
    };
    for (const auto& c : kCases) {
        auto r = content::parseLeakFile(c.text, "x.pts");
        ASSERT_FALSE(r.ok()) << c.text;
        EXPECT_EQ(r.error().code, c.code) << c.text;
        EXPECT_EQ(r.error().lump, c.lump) << c.text;
        EXPECT_EQ(r.error().message().rfind("x.pts: ", 0), 0u) << r.error().message();
    }
}

TEST(LeakFile, StopsOfAGentleCurveAreSpaced) {
    // A quarter circle of 90 one-degree steps: a stop about every 2 degrees of turn, not every
    // point, and the last point always.
    std::vector<glm::vec3> pts;
    for (int i = 0; i <= 90; ++i) {
        const float a = glm::radians(static_cast<float>(i));
        pts.emplace_back(100.0f * std::cos(a), 100.0f * std::sin(a), 0.0f);
    }
    const auto stops = content::leakStops(pts);
    EXPECT_GE(stops.size(), 20u);
    EXPECT_LE(stops.size(), 46u);
    EXPECT_EQ(stops.front(), 0u);
    EXPECT_EQ(stops.back(), 90u);
}

// ---------------------------------------------------------------------------------------------
// Portal files

TEST(PortalFile, Prt1QuakeOne) {
    const std::string text =
        std::string("PRT1\n3\n2\n4 0 1 ") + kSquare + "\n3 1 2 (64 0 0 ) (64 64 0 ) (64 0 64 ) \n";
    auto r = content::parsePortalFile(text, "t.prt");
    ASSERT_TRUE(r.ok()) << r.error().message();
    EXPECT_EQ(r->format, PortalFormat::Prt1);
    EXPECT_EQ(r->num_clusters, 3u);
    EXPECT_EQ(r->num_leaves, 0u);
    ASSERT_EQ(r->portals.size(), 2u);
    ASSERT_EQ(r->points.size(), 7u);
    EXPECT_EQ(r->portals[1].a, 1u);
    EXPECT_EQ(r->portals[1].b, 2u);
    EXPECT_EQ(r->portals[1].first_point, 4u);
    EXPECT_EQ(r->portals[1].num_points, 3u);
    EXPECT_EQ(r->points[4], glm::vec3(64, 0, 0));
    EXPECT_EQ(r->points[2], glm::vec3(0, 64, 64));
    EXPECT_FALSE(r->portals[0].hint);
    EXPECT_TRUE(r->faces.empty());
    EXPECT_TRUE(r->leaf_cluster.empty());
}

TEST(PortalFile, Prt1Q3map2WithHintsAndSolidFaces) {
    // WritePortalFile: clusters, portals, solid faces; "N FRONT BACK HINT (...)"; then faces
    // "N CLUSTER (...)". Decimals as WriteFloat writes them ("%f" when not whole).
    const std::string text = "PRT1\n2\n2\n1\n"
                             "4 0 1 0 (0 0 0 ) (0 8 0 ) (0 8 8 ) (0 0 8 ) \n"
                             "3 1 0 1 (0.500000 0 0 ) (0 8 0 ) (0 8 8 ) \n"
                             "3 1 (1 2 3 ) (4 5 6 ) (7 8 9 ) \n";
    auto r = content::parsePortalFile(text, "t.prt");
    ASSERT_TRUE(r.ok()) << r.error().message();
    EXPECT_EQ(r->format, PortalFormat::Prt1Q3);
    EXPECT_EQ(content::portalFormatName(r->format), "PRT1 (q3map2)");
    ASSERT_EQ(r->portals.size(), 2u);
    EXPECT_FALSE(r->portals[0].hint);
    EXPECT_TRUE(r->portals[1].hint);
    EXPECT_EQ(r->hintPortals(), 1u);
    EXPECT_EQ(r->points[4], glm::vec3(0.5f, 0, 0));
    ASSERT_EQ(r->faces.size(), 1u);
    EXPECT_EQ(r->faces[0].cluster, 1u);
    EXPECT_EQ(r->faces[0].first_point, 7u);
    EXPECT_EQ(r->points[9], glm::vec3(7, 8, 9));
    EXPECT_EQ(r->points.size(), 10u);
}

TEST(PortalFile, Prt1AmClustersThenLeafMap) {
    // LoadPrtFile's PRT1-AM: cluster count, portal count, leaf count; a cluster per leaf.
    const std::string text = std::string("PRT1-AM\n2\n1\n3\n4 0 1 ") + kSquare + "\n0\n0\n1\n";
    auto r = content::parsePortalFile(text, "t.prt");
    ASSERT_TRUE(r.ok()) << r.error().message();
    EXPECT_EQ(r->format, PortalFormat::Prt1Am);
    EXPECT_EQ(r->num_clusters, 2u);
    EXPECT_EQ(r->num_leaves, 3u);
    EXPECT_EQ(r->portals.size(), 1u);
    EXPECT_EQ(r->leaf_cluster, (std::vector<int32_t>{0, 0, 1}));
}

TEST(PortalFile, Prt2LeavesPerClusterEndedByMinusOne) {
    // WritePortalfile's PRT2: leaf count, cluster count, portal count; WritePTR2ClusterMapping
    // writes each cluster's leaves then -1.
    const std::string text = std::string("PRT2\n3\n2\n1\n4 1 0 ") + kSquare + "\n0 2 -1\n1 -1\n";
    auto r = content::parsePortalFile(text, "t.prt");
    ASSERT_TRUE(r.ok()) << r.error().message();
    EXPECT_EQ(r->format, PortalFormat::Prt2);
    EXPECT_EQ(r->num_leaves, 3u);
    EXPECT_EQ(r->num_clusters, 2u);
    EXPECT_EQ(r->portals[0].a, 1u);
    EXPECT_EQ(r->portals[0].b, 0u);
    EXPECT_EQ(r->leaf_cluster, (std::vector<int32_t>{0, 1, 0}));
}

TEST(PortalFile, EricwDebugPortalsWithNoClusters) {
    // WriteDebugPortals: "PRT1", 0, count, portals "N 0 0 (...)".
    const std::string text = std::string("PRT1\n0\n1\n4 0 0 ") + kSquare + "\n";
    auto r = content::parsePortalFile(text, "t.prt");
    ASSERT_TRUE(r.ok()) << r.error().message();
    EXPECT_EQ(r->num_clusters, 0u);
    EXPECT_EQ(r->portals.size(), 1u);
}

TEST(PortalFile, EmptyPrt1AndCrLf) {
    auto r = content::parsePortalFile("PRT1\r\n1\r\n0\r\n", "t.prt");
    ASSERT_TRUE(r.ok()) << r.error().message();
    EXPECT_EQ(r->format, PortalFormat::Prt1);
    EXPECT_EQ(r->num_clusters, 1u);
    EXPECT_TRUE(r->portals.empty());
}

TEST(PortalFile, MalformedFilesNameTheLine) {
    const std::string sq = kSquare;
    expectError(portalError("PRT3\n1\n0\n"), ErrorCode::UnknownFormat, "line 1");
    expectError(portalError(""), ErrorCode::UnknownFormat, "line 1");
    expectError(portalError("PRT1\n"), ErrorCode::Truncated, "line 2");
    expectError(portalError("PRT1\n-1\n0\n"), ErrorCode::BadValue, "line 2");
    expectError(portalError("PRT1\n99999999999\n0\n"), ErrorCode::LimitExceeded, "line 2");
    expectError(portalError("PRT1\n1\n4000000\n"), ErrorCode::LimitExceeded, "line 3");
    // A count the file does not hold: an error at the end, nothing allocated from the count.
    expectError(portalError("PRT1\n2\n1000000\n4 0 1 " + sq + "\n"), ErrorCode::Truncated,
                "line 5");
    expectError(portalError("PRT1\n3\n1\n4 0 5 " + sq + "\n"), ErrorCode::IndexOutOfRange,
                "line 4");
    expectError(portalError("PRT1\n3\n1\n4 -1 0 " + sq + "\n"), ErrorCode::IndexOutOfRange,
                "line 4");
    expectError(portalError("PRT1\n3\n1\n2 0 1 (0 0 0) (1 1 1)\n"), ErrorCode::BadValue, "line 4");
    expectError(portalError("PRT1\n3\n1\n65 0 1 " + sq + "\n"), ErrorCode::LimitExceeded, "line 4");
    expectError(portalError("PRT1\n3\n1\n4 0 1 (0 0 0) (0 64 0) (0 64 64) 0 0 64)\n"),
                ErrorCode::BadValue, "line 4");
    expectError(portalError("PRT1\n3\n1\n4 0 1 (0 0 0) (0 64 0) (0 64 64) (0 0 64\n"),
                ErrorCode::Truncated, "line 5");
    expectError(portalError("PRT1\n3\n1\n4 0 1 (0 0 0) (0 x 0) (0 64 64) (0 0 64)\n"),
                ErrorCode::BadValue, "line 4");
    expectError(portalError("PRT1\n3\n1\n4 0 1 (0 0 0) (0 1e7 0) (0 64 64) (0 0 64)\n"),
                ErrorCode::BadValue, "line 4");
    expectError(portalError("PRT1\n3\n2\n4 0 1 " + sq + "\n\n4 1 2 (0 0 0)\n"),
                ErrorCode::Truncated, "line 7");
    // q3map2 form: hint flag missing (the '(' is not an integer), face cluster out of range.
    expectError(portalError("PRT1\n2\n1\n0\n4 0 1 " + sq + "\n"), ErrorCode::BadValue, "line 5");
    expectError(portalError("PRT1\n2\n0\n1\n3 2 (0 0 0) (1 0 0) (0 1 0)\n"),
                ErrorCode::IndexOutOfRange, "line 5");
    // PRT1-AM leaf map short or out of range; PRT2 leaf out of range or list not ended.
    expectError(portalError("PRT1-AM\n2\n0\n3\n0 1\n"), ErrorCode::Truncated, "line 6");
    expectError(portalError("PRT1-AM\n2\n0\n2\n0 2\n"), ErrorCode::IndexOutOfRange, "line 5");
    // Found by fuzz_portal_file: 0 clusters let a PRT1-AM leaf name cluster 0 (the exemption
    // is for ericw-tools' debug PRT1 portals only), as it must not in PRT2 or a q3map2 face.
    expectError(portalError("PRT1-AM\n0\n0\n1\n0\n"), ErrorCode::IndexOutOfRange, "line 5");
    expectError(portalError("PRT2\n1\n0\n1\n4 0 0 " + sq + "\n"), ErrorCode::IndexOutOfRange,
                "line 5");
    expectError(portalError("PRT1\n0\n0\n1\n3 0 (0 0 0) (1 0 0) (0 1 0)\n"),
                ErrorCode::IndexOutOfRange, "line 5");
    expectError(portalError("PRT2\n2\n1\n0\n0 2 -1\n"), ErrorCode::IndexOutOfRange, "line 5");
    expectError(portalError("PRT2\n2\n2\n0\n0 -1\n1\n"), ErrorCode::Truncated, "line 7");
}
