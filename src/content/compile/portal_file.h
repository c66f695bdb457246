// Portal files (.prt): the portals between the leaves or clusters of a compiled map, written
// by the BSP compiler for vis. GL-free; docs/compile_files.md has the grammar of each form and
// the writers and readers it is taken from.
//
//   PRT1     Quake 1 qbsp, ericw-tools without detail, Quake 2 (clusters), Source vbsp:
//            "PRT1", leaf (or cluster) count, portal count, then one portal per line:
//            "N FRONT BACK (x y z) ... (x y z)" (ericw-tools common/prtfile.cc WritePortal).
//   PRT1 q3  q3map2 (tools/quake3/q3map2/prtfile.c WritePortalFile): a fourth header number
//            (solid faces), a hint flag after FRONT BACK, then the solid faces, one per line:
//            "N CLUSTER (x y z) ...". Told apart from PRT1 by the single number on line 4, as
//            GtkRadiant's prtview does (contrib/prtview/portals.cpp CPortals::Load).
//   PRT1-AM  ericw-tools' reader for AguirRe's tools (common/prtfile.cc LoadPrtFile): cluster
//            count, portal count, leaf count; portals between clusters; then one cluster number
//            per leaf.
//   PRT2     ericw-tools with detail (WritePortalfile, WritePTR2ClusterMapping): leaf count,
//            cluster count, portal count; portals between clusters; then per cluster a line of
//            its leaves ended by -1.
//
// Errors name the file and line. Safety: the text is untrusted; header counts are checked
// against limits and never used to size an allocation before the records they count have been
// read; parsing is linear and never reads past the view.
#pragma once

#include "core/result.h"

#include <glm/vec3.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace content {

inline constexpr uint32_t kMaxPortalWinding = 64;        // PRT_MAX_WINDING, MAX_POINTS_ON_WINDING
inline constexpr uint32_t kMaxPortalCount = 1u << 20;    // portals or solid faces per file
inline constexpr uint32_t kMaxPortalClusters = 1u << 20; // clusters or leaves in a header

enum class PortalFormat { Prt1, Prt1Q3, Prt1Am, Prt2 };
// "PRT1", "PRT1 (q3map2)", "PRT1-AM", "PRT2".
std::string_view portalFormatName(PortalFormat format);

struct PortalWinding {
    uint32_t first_point = 0; // into PortalFile::points
    uint32_t num_points = 0;
};

struct Portal : PortalWinding {
    // The two clusters (Quake 1 PRT1: visleafs) it joins, in the order written (front, back).
    uint32_t a = 0, b = 0;
    bool hint = false; // q3map2: made by a hint brush
};

// q3map2 only: a face between a cluster and something opaque.
struct PortalFace : PortalWinding {
    uint32_t cluster = 0;
};

struct PortalFile {
    std::string file; // base name of the file read
    PortalFormat format = PortalFormat::Prt1;
    // The count Portal::a and b are below: clusters, or for a Quake 1 PRT1 the visleafs
    // (bspview's Quake 1 clusters are those: leaf index - 1).
    uint32_t num_clusters = 0;
    // Leaves of PRT1-AM and PRT2 (whose portals join clusters); 0 for the PRT1 forms.
    uint32_t num_leaves = 0;
    std::vector<glm::vec3> points;
    std::vector<Portal> portals;
    std::vector<PortalFace> faces;
    // PRT1-AM and PRT2: the cluster of each leaf (-1 where the file gives none).
    std::vector<int32_t> leaf_cluster;
    size_t hintPortals() const;
};

// Parses a .prt's text; `file` names it in errors. Errors:
// UnknownFormat (first line), Truncated (the file ends before a counted record), BadValue (a
// token that is not what the grammar has there, or a coordinate beyond
// +-kMaxCompileCoordinate), LimitExceeded (a count or winding over the
// limits above), IndexOutOfRange (a cluster or leaf number beyond the header's count).
core::Result<PortalFile> parsePortalFile(std::string_view text, std::string_view file);
// Reads and parses a file (errors name the file's base name).
core::Result<PortalFile> loadPortalFile(const std::filesystem::path& path);

} // namespace content
