// Every shared map and a few OpenArena maps, mutated: truncated at every lump boundary and at
// random points, each lump zeroed, each lump directory entry pointed past the end, random byte
// flips in the header and in each lump. Every mutant must load or fail with a proper
// core::Error; every mutant that loads goes through the world mesh and visibility and must keep
// the map invariants (fuzz/entry_points.h). Seeds are fixed, so a failure names a mutant that
// reproduces.
#include "robust/mutate.h"
#include "robust/tally.h"

#include "bsp/dropped.h"
#include "bsp/load.h"
#include "content/vfs/vfs.h"
#include "core/file.h"
#include "support/q1_builder.h"
#include "support/qbsp_convert.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

namespace fs = std::filesystem;

namespace {

const fs::path kMaps = BSPV_SHARED_MAPS_DIR;
const fs::path kOpenArena = BSPV_OPENARENA_DIR;

struct MapInput {
    std::string label;
    std::vector<uint8_t> bytes;
    std::vector<uint8_t> lit;
};

// A spec ending in this names an IBSP 38 map converted to QBSP 38 before mutation.
constexpr std::string_view kQbspSuffix = "#qbsp";

// Every .bsp in the shared folders (nothing skipped) and three OpenArena maps from their pk3.
std::vector<std::string> mapSpecs() {
    std::vector<std::string> specs;
    for (const char* dir : {"q1", "q1bsp2", "hl", "q2", "q3", "source"}) {
        std::vector<std::string> in_dir;
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(kMaps / dir, ec))
            if (e.path().extension() == ".bsp")
                in_dir.push_back(e.path().string());
        std::sort(in_dir.begin(), in_dir.end());
        specs.insert(specs.end(), in_dir.begin(), in_dir.end());
    }
    // The Quake 2 re-release QBSP layout has no shared sample: two Quake 2 maps rewritten in it.
    for (const char* q2 : {"q2/aq_credits.bsp", "q2/aq_wizs.bsp"})
        specs.push_back((kMaps / q2).string() + std::string(kQbspSuffix));
    for (const char* member : {"pak1-maps.pk3:maps/oa_ctf2.bsp", "pak1-maps.pk3:maps/oa_dm1.bsp",
                               "pak6-patch088.pk3:maps/am_thornish.bsp"})
        specs.push_back((kOpenArena / member).string());
    return specs;
}

// Where the lump directory starts and how it is laid out: after the int32 version (Quake 1,
// Half-Life) or the magic (BSP2, 2PSB), or after magic and version (IBSP, FBSP, VBSP); 8-byte
// (offset, length) entries, except Source's 64 entries of 16 bytes, whose offset and length
// sit at 0 and 4 in Valve's order and at 4 and 8 in Left 4 Dead 2's.
struct Directory {
    uint64_t start = 8, stride = 8, entries = 0, offset_at = 0, length_at = 4;
};
Directory directoryOf(const bsp::Map& map, const std::vector<uint8_t>& bytes) {
    Directory d;
    d.entries = map.lumps.size();
    switch (map.format) {
    case bsp::Format::Quake1:
    case bsp::Format::Quake1Bsp2:
    case bsp::Format::Quake1Rmq:
    case bsp::Format::HalfLife:
        d.start = 4;
        break;
    case bsp::Format::Source: {
        d.stride = 16;
        d.entries = 64;
        const bsp::LumpInfo& first = map.lumps.front();
        bool valve = false;
        for (uint64_t i = 0; i < 64 && !valve; ++i)
            valve = uint32_t(robust::readI32(bytes, 8 + i * 16)) == first.offset &&
                    uint32_t(robust::readI32(bytes, 8 + i * 16 + 4)) == first.length;
        if (!valve) {
            d.offset_at = 4;
            d.length_at = 8;
        }
        break;
    }
    default:
        break;
    }
    return d;
}

class BspMutations : public ::testing::TestWithParam<std::string> {};

TEST(BspMutationInputs, AllShareFoldersHoldMaps) {
    // The parametrised test below takes its list from the folders; an empty folder would
    // silently test nothing.
    for (const char* dir : {"q1", "q1bsp2", "hl", "q2", "q3", "source"}) {
        size_t n = 0;
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(kMaps / dir, ec))
            n += e.path().extension() == ".bsp";
        EXPECT_GT(n, 0u) << dir;
    }
}

TEST_P(BspMutations, EveryMutantLoadsOrFailsCleanly) {
    std::string spec = GetParam();
    MapInput in;
    in.label = spec.substr(spec.find_last_of('/') + 1);
    const bool to_qbsp = spec.ends_with(kQbspSuffix);
    if (to_qbsp)
        spec.resize(spec.size() - kQbspSuffix.size());
    {
        std::string display;
        auto bytes = content::readMapSpec(spec, &display);
        ASSERT_TRUE(bytes.ok()) << bytes.error().message();
        in.bytes = to_qbsp ? qbsp_test::ibspToQbsp(*bytes) : std::move(*bytes);
        fs::path lit = spec;
        lit.replace_extension(".lit");
        std::error_code ec;
        if (fs::is_regular_file(lit, ec)) {
            auto l = core::readFile(lit);
            ASSERT_TRUE(l.ok()) << l.error().message();
            in.lit = std::move(*l);
        }
    }
    const auto t0 = std::chrono::steady_clock::now();
    robust::Tally tally(in.label);
    const auto run = [&](std::span<const uint8_t> b) { return fuzz::runLoadMapWithLit(b, in.lit); };

    // The original first: it must satisfy the same contract (and, but for the one known
    // broken file, load).
    const fuzz::Outcome original = run(in.bytes);
    ASSERT_TRUE(original.violation.empty()) << original.violation;
    const bool must_fail = in.label == "broken_lq_fw.bsp";
    EXPECT_EQ(original.accepted, !must_fail) << original.error.message();

    // Lump spans from the map's own directory, with where each entry is stored.
    std::vector<robust::Span> spans;
    int header_bytes = 64;
    if (!must_fail) {
        auto map = bsp::loadMap(in.bytes, in.label);
        ASSERT_TRUE(map.ok()) << map.error().message();
        ASSERT_GT(map->lumps.size(), 0u);
        const Directory dir = directoryOf(*map, in.bytes);
        header_bytes = static_cast<int>(dir.start + dir.entries * dir.stride);
        for (uint64_t i = 0; i < dir.entries; ++i) {
            const uint64_t entry = dir.start + i * dir.stride;
            robust::Span s;
            s.dir_offset_at = static_cast<int64_t>(entry + dir.offset_at);
            s.dir_length_at = static_cast<int64_t>(entry + dir.length_at);
            s.offset = static_cast<uint32_t>(robust::readI32(in.bytes, entry + dir.offset_at));
            s.length = static_cast<uint32_t>(robust::readI32(in.bytes, entry + dir.length_at));
            if (map->format == bsp::Format::Source && s.length == 0)
                continue; // unused Source lumps
            s.name = "lump" + std::to_string(i);
            for (const bsp::LumpInfo& l : map->lumps)
                if (l.offset == s.offset && l.length == s.length)
                    s.name = l.name;
            spans.push_back(s);
        }
        // The harness reads the directory itself; it must agree with what the parser saw.
        for (const bsp::LumpInfo& l : map->lumps)
            EXPECT_TRUE(std::any_of(spans.begin(), spans.end(),
                                    [&](const robust::Span& s) {
                                        return s.offset == l.offset && s.length == l.length;
                                    }))
                << "lump " << l.name << " not found in the directory read by the test";
    }

    robust::SpanOptions span_options;
    span_options.seed = 0x5eed0001;
    robust::spanMutations(
        in.bytes, spans, span_options,
        [&](std::string_view label, std::span<const uint8_t> b) { tally.check(label, b, run); });
    robust::BlobOptions blob_options;
    blob_options.seed = 0x5eed0002;
    blob_options.header_bytes = header_bytes;
    robust::blobMutations(
        in.bytes, blob_options,
        [&](std::string_view label, std::span<const uint8_t> b) { tally.check(label, b, run); });
    // A hostile .lit beside a good map.
    if (!in.lit.empty()) {
        robust::BlobOptions lit_options;
        lit_options.seed = 0x5eed0003;
        lit_options.random_truncations = 16;
        lit_options.flip_mutants = 8;
        lit_options.header_bytes = 8;
        lit_options.zeroed_ranges = 2;
        robust::blobMutations(in.lit, lit_options,
                              [&](std::string_view label, std::span<const uint8_t> b) {
                                  tally.check(std::string("lit ") + std::string(label), in.bytes,
                                              [&](std::span<const uint8_t> m) {
                                                  return fuzz::runLoadMapWithLit(m, b);
                                              });
                              });
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    tally.print(seconds);
    EXPECT_GT(tally.total(), must_fail ? 50u : 300u);
    // Truncations and directory edits must be rejected, so not everything can be accepted.
    EXPECT_LT(tally.accepted(), tally.total());
}

INSTANTIATE_TEST_SUITE_P(Maps, BspMutations, ::testing::ValuesIn(mapSpecs()),
                         [](const ::testing::TestParamInfo<std::string>& param_info) {
                             std::string name = param_info.param;
                             name = name.substr(name.find_last_of("/:") + 1);
                             for (char& ch : name)
                                 if (!isalnum(static_cast<unsigned char>(ch)))
                                     ch = '_';
                             return name;
                         });

// Hostile values written into the collision records of one map per family: every int16 and
// int32 field of random clipnode, brush, brush side, leaf brush, leaf and model records set to
// -1, 0x7fffffff, 0xffff, the record count and the count + 1 (hostile counts and indices). Every
// mutant loads or fails with a clean error (and loaded ones are traced, fuzz::exerciseScene).
// Collision is one feature (docs/robustness.md, "Refuse or degrade"): the collision checks are
// seen dropping it (or a hull) with a warning on some mutants, which then load without it.
class CollisionMutations : public ::testing::TestWithParam<std::string> {};

TEST_P(CollisionMutations, HostileIndicesInCollisionRecordsDropTheCollision) {
    const std::string spec = GetParam();
    std::string display;
    auto bytes = content::readMapSpec(spec, &display);
    ASSERT_TRUE(bytes.ok()) << bytes.error().message();
    auto map = bsp::loadMap(*bytes, display);
    ASSERT_TRUE(map.ok()) << map.error().message();
    robust::Tally tally(display);
    robust::Rng rng(0x5eed0c11);
    uint64_t rejected_by_collision = 0, collision_dropped = 0;
    std::vector<uint8_t> work = *bytes;
    for (const bsp::LumpInfo& l : map->lumps) {
        const std::string_view name = l.name;
        if (name != "clipnodes" && name != "brushes" && name != "brushsides" &&
            name != "leafbrushes" && name != "leafs" && name != "models")
            continue;
        if (l.record_size == 0 || l.count == 0)
            continue;
        for (int mutant = 0; mutant < 24; ++mutant) {
            const uint64_t record = rng.below(l.count);
            const uint64_t field = rng.below(l.record_size / 2) * 2;
            const uint64_t at = l.offset + record * l.record_size + field;
            const int32_t values[] = {-1, 0x7fffffff, 0xffff, int32_t(l.count),
                                      int32_t(l.count + 1)};
            const int32_t value = values[rng.below(5)];
            const bool wide = field + 4 <= l.record_size && rng.below(2) == 0;
            std::copy(bytes->begin(), bytes->end(), work.begin());
            if (wide)
                robust::writeI32(work, at, value);
            else {
                work[at] = uint8_t(value & 0xff);
                work[at + 1] = uint8_t((value >> 8) & 0xff);
            }
            const std::string label = std::string(name) + "[" + std::to_string(record) + "]+" +
                                      std::to_string(field) + "=" + std::to_string(value);
            tally.check(label, work, [&](std::span<const uint8_t> b) {
                fuzz::Outcome o = fuzz::runLoadMap(b);
                if (o.accepted) {
                    auto loaded = bsp::loadMap(b, display);
                    const bool dropped =
                        loaded.ok() &&
                        std::any_of(loaded->warnings.begin(), loaded->warnings.end(),
                                    [](const std::string& w) {
                                        return w.find(bsp::kCollisionDropped) !=
                                                   std::string::npos ||
                                               w.find("empty hulls") != std::string::npos;
                                    });
                    collision_dropped += dropped;
                    if (dropped && loaded->collision.kind == bsp::CollisionKind::None) {
                        EXPECT_TRUE(loaded->collision.models.empty()) << label;
                    }
                }
                const std::string& lump = o.error.lump;
                if (!o.accepted &&
                    (lump == "clipnodes" || lump == "brushes" || lump == "brushsides" ||
                     lump == "leafbrushes" || (o.error.field.find("brush") != std::string::npos) ||
                     o.error.field == "headnode"))
                    ++rejected_by_collision;
                return o;
            });
        }
    }
    tally.print(0.0);
    std::printf("%s: collision dropped with a warning in %llu mutants, refused by a collision "
                "check in %llu\n",
                display.c_str(), static_cast<unsigned long long>(collision_dropped),
                static_cast<unsigned long long>(rejected_by_collision));
    EXPECT_GT(tally.total(), 50u);
    EXPECT_GT(collision_dropped, 0u);
}

INSTANTIATE_TEST_SUITE_P(Maps, CollisionMutations,
                         ::testing::Values((kMaps / "q1/lq_e1m1.bsp").string(),
                                           (kMaps / "hl/cs_fy_pool_day.bsp").string(),
                                           (kMaps / "q2/aq_urbanjungle.bsp").string(),
                                           (kOpenArena / "pak1-maps.pk3:maps/oa_dm1.bsp").string()),
                         [](const ::testing::TestParamInfo<std::string>& param_info) {
                             std::string name = param_info.param;
                             name = name.substr(name.find_last_of("/:") + 1);
                             for (char& ch : name)
                                 if (!isalnum(static_cast<unsigned char>(ch)))
                                     ch = '_';
                             return name;
                         });

} // namespace

// A synthetic Quake 1 map carrying every BSPX lighting lump (tests/unit/bspx_test.cpp), its BSPX
// part mutated: each lump truncated, zeroed, flipped and its directory entry pointed away
// (spanMutations), the directory header flipped, and the 4-byte fields of each lump's first 48
// bytes (both DECOUPLED_LM records' sizes and offsets, the first samples of the others) set to
// hostile values (-1, 0x7fffffff, INT_MIN, 0xffff, NaN, infinity, 2^24). The standard lumps stay
// intact, so every mutant must load: a bad BSPX lump is a warning, never an error or a crash.
TEST(BspxMutations, EveryMutantOfTheBspxLumpsLoads) {
    q1test::Q1Options o;
    o.lighting_data.assign(50, 100);
    std::vector<uint8_t> base = q1test::buildQ1(o);
    const size_t bspx_at = (base.size() + 3) & ~size_t(3);
    struct Decoupled {
        uint16_t w, h;
        int32_t offset;
        float s[4], t[4];
    };
    const std::vector<Decoupled> decoupled = {
        {3, 2, 10, {1.0f / 32, 0, 0, 0}, {0, 1.0f / 64, 0, 0}},
        {5, 5, 25, {1.0f / 16, 0, 0, -4}, {0, 1.0f / 16, 0, 0}}};
    const std::vector<q1test::BspxLump> lumps = {
        {"LMSHIFT", {5, 4}},
        {"LMOFFSET", q1test::bytesOf(std::vector<int32_t>{0, 25})},
        {"LMSTYLE", {0, 1, 0, 255}},
        {"LMSTYLE16", q1test::bytesOf(std::vector<uint16_t>{0, 300, 0, 0xffff})},
        {"DECOUPLED_LM", q1test::bytesOf(decoupled)},
        {"LIGHTING_E5BGR9", q1test::bytesOf(std::vector<uint32_t>(50, 0x88000080u))},
        {"LIGHTINGDIR", std::vector<uint8_t>(150, 128)},
        {"RGBLIGHTING", std::vector<uint8_t>(150, 64)},
    };
    q1test::appendBspx(base, lumps);
    const fuzz::Outcome original = fuzz::runLoadMap(base);
    ASSERT_TRUE(original.accepted) << original.error.message();

    std::vector<robust::Span> spans;
    robust::Span dir;
    dir.name = "BSPX directory";
    dir.offset = bspx_at;
    dir.length = 8 + lumps.size() * 32;
    spans.push_back(dir);
    for (size_t i = 0; i < lumps.size(); ++i) {
        robust::Span s;
        s.name = lumps[i].name;
        s.dir_offset_at = int64_t(bspx_at + 8 + i * 32 + 24);
        s.dir_length_at = s.dir_offset_at + 4;
        s.offset = uint32_t(robust::readI32(base, uint64_t(s.dir_offset_at)));
        s.length = uint32_t(robust::readI32(base, uint64_t(s.dir_length_at)));
        spans.push_back(s);
    }
    robust::Tally tally("bspx lumps");
    const auto run = [](std::span<const uint8_t> b) { return fuzz::runLoadMap(b); };
    robust::SpanOptions span_options;
    span_options.seed = 0x5eed0b01;
    span_options.flip_mutants_per_span = 16;
    robust::spanMutations(
        base, spans, span_options,
        [&](std::string_view label, std::span<const uint8_t> b) { tally.check(label, b, run); });
    std::vector<uint8_t> work = base;
    const int32_t values[] = {-1,         0x7fffffff, int32_t(0x80000000u), 0xffff, 0x7fc00000,
                              0x7f800000, 1 << 24};
    for (size_t i = 1; i < spans.size(); ++i)
        for (uint64_t at = spans[i].offset;
             at + 4 <= spans[i].offset + std::min<uint64_t>(spans[i].length, 48); at += 4)
            for (int32_t v : values) {
                std::copy(base.begin(), base.end(), work.begin());
                robust::writeI32(work, at, v);
                tally.check(spans[i].name + "+" + std::to_string(at - spans[i].offset) + "=" +
                                std::to_string(v),
                            work, run);
            }
    tally.print(0.0);
    EXPECT_GT(tally.total(), 500u);
    EXPECT_EQ(tally.accepted(), tally.total());
}
