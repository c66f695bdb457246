// Source VBSP parser (bsp/vbsp.cpp) and Valve LZMA blocks (core/lzma.h): the header's two
// directory orders, compressed lumps, per-lump record versions and the errors hostile files
// get. The maps are the shared Source samples, edited in memory.
#include "bsp/load.h"
#include "bsp/vbsp.h"
#include "core/file.h"
#include "core/lzma.h"
#include "support/vbsp_patch.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>

namespace {

const std::filesystem::path kSource = std::filesystem::path(BSPV_SHARED_MAPS_DIR) / "source";

std::vector<uint8_t> readMap(const char* name) {
    auto bytes = core::readFile(kSource / name);
    EXPECT_TRUE(bytes.ok()) << name;
    return bytes.ok() ? std::move(*bytes) : std::vector<uint8_t>{};
}

int32_t readI32(const std::vector<uint8_t>& b, size_t at) {
    int32_t v = 0;
    std::memcpy(&v, b.data() + at, 4);
    return v;
}
void writeI32(std::vector<uint8_t>& b, size_t at, int32_t v) {
    std::memcpy(b.data() + at, &v, 4);
}

constexpr size_t kDir = 8; // lump_t[64] after ident and version, 16 bytes each

} // namespace

TEST(ValveLzma, RoundTripsAndChecksItsHeader) {
    std::vector<uint8_t> data(5000);
    for (size_t i = 0; i < data.size(); ++i)
        data[i] = uint8_t((i * 7) % 13);
    auto packed = core::encodeValveLzma(data);
    ASSERT_TRUE(packed.ok()) << packed.error().message();
    ASSERT_TRUE(core::isValveLzma(*packed));
    EXPECT_EQ(readI32(*packed, 4), 5000); // actual size
    EXPECT_EQ(size_t(readI32(*packed, 8)) + core::kValveLzmaHeaderSize, packed->size());
    auto out = core::decodeValveLzma(*packed);
    ASSERT_TRUE(out.ok()) << out.error().message();
    EXPECT_EQ(*out, data);

    // The compressed size claims more than is there.
    std::vector<uint8_t> lying = *packed;
    writeI32(lying, 8, readI32(lying, 8) + 1);
    EXPECT_FALSE(core::decodeValveLzma(lying).ok());
    // The uncompressed size claims more than the stream holds.
    lying = *packed;
    writeI32(lying, 4, 6000);
    auto longer = core::decodeValveLzma(lying);
    ASSERT_FALSE(longer.ok());
    EXPECT_EQ(longer.error().code, core::ErrorCode::BadArchive);
    // A hostile size is refused before anything is allocated.
    lying = *packed;
    writeI32(lying, 4, int32_t(0x7fffffff));
    EXPECT_FALSE(core::decodeValveLzma(lying).ok());
    // Corrupt data.
    lying = *packed;
    for (size_t i = core::kValveLzmaHeaderSize + 4; i < lying.size(); i += 3)
        lying[i] ^= 0x5a;
    EXPECT_FALSE(core::decodeValveLzma(lying).ok());
    EXPECT_FALSE(core::decodeValveLzma(std::span<const uint8_t>(packed->data(), 10)).ok());
}

TEST(Vbsp, CompressedLumpsLoadLikeTheirPlainOnes) {
    const std::vector<uint8_t> plain = readMap("tf2_test2.bsp");
    ASSERT_FALSE(plain.empty());
    auto a = bsp::loadMap(plain, "tf2_test2.bsp");
    ASSERT_TRUE(a.ok()) << a.error().message();
    // Compress the planes (1), faces (7) and lighting (8) lumps and append them; the directory
    // then names the compressed copies, as bspzip -repack writes them.
    std::vector<uint8_t> packed = plain;
    for (int lump : {1, 7, 8}) {
        const int32_t ofs = readI32(plain, kDir + size_t(lump) * 16);
        const int32_t len = readI32(plain, kDir + size_t(lump) * 16 + 4);
        auto z = core::encodeValveLzma(std::span<const uint8_t>(plain.data() + ofs, size_t(len)));
        ASSERT_TRUE(z.ok());
        while (packed.size() % 4)
            packed.push_back(0);
        writeI32(packed, kDir + size_t(lump) * 16, int32_t(packed.size()));
        writeI32(packed, kDir + size_t(lump) * 16 + 4, int32_t(z->size()));
        writeI32(packed, kDir + size_t(lump) * 16 + 12, len); // fourCC: uncompressed size
        packed.insert(packed.end(), z->begin(), z->end());
    }
    auto b = bsp::loadMap(packed, "tf2_test2.bsp");
    ASSERT_TRUE(b.ok()) << b.error().message();
    ASSERT_EQ(a->planes.size(), b->planes.size());
    for (size_t i = 0; i < a->planes.size(); ++i) {
        EXPECT_EQ(a->planes[i].normal, b->planes[i].normal);
        EXPECT_EQ(a->planes[i].dist, b->planes[i].dist);
    }
    ASSERT_EQ(a->faces.size(), b->faces.size());
    EXPECT_EQ(a->vertices.size(), b->vertices.size());
    ASSERT_EQ(a->lightmap_pages.size(), b->lightmap_pages.size());
    for (size_t i = 0; i < a->lightmap_pages.size(); ++i)
        EXPECT_EQ(a->lightmap_pages[i].rgb, b->lightmap_pages[i].rgb);

    // A corrupt compressed lump names the lump.
    std::vector<uint8_t> broken = packed;
    const int32_t faces_at = readI32(packed, kDir + 7 * 16);
    broken[size_t(faces_at) + core::kValveLzmaHeaderSize + 2] ^= 0xff;
    broken[size_t(faces_at) + core::kValveLzmaHeaderSize + 5] ^= 0xff;
    auto c = bsp::loadMap(broken, "tf2_test2.bsp");
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.error().lump, "faces") << c.error().message();
}

TEST(Vbsp, ReadsBothDirectoryOrders) {
    // Valve's order rewritten as Left 4 Dead 2's (version, offset, length, fourCC) loads the same.
    const std::vector<uint8_t> valve = readMap("tf2_mp_lobby.bsp");
    ASSERT_FALSE(valve.empty());
    std::vector<uint8_t> l4d2 = valve;
    for (size_t i = 0; i < 64; ++i) {
        const size_t at = kDir + i * 16;
        writeI32(l4d2, at, readI32(valve, at + 8));
        writeI32(l4d2, at + 4, readI32(valve, at));
        writeI32(l4d2, at + 8, readI32(valve, at + 4));
    }
    auto a = bsp::loadMap(valve, "a.bsp");
    auto b = bsp::loadMap(l4d2, "b.bsp");
    ASSERT_TRUE(a.ok()) << a.error().message();
    ASSERT_TRUE(b.ok()) << b.error().message();
    EXPECT_EQ(a->faces.size(), b->faces.size());
    EXPECT_EQ(a->leaves.size(), b->leaves.size());
    EXPECT_EQ(a->vis.rows, b->vis.rows);
}

TEST(Vbsp, HostileHeadersGetErrorsNamingTheLump) {
    const std::vector<uint8_t> good = readMap("tf2_mp_lobby.bsp");
    ASSERT_FALSE(good.empty());
    {
        std::vector<uint8_t> x360 = good;
        std::memcpy(x360.data(), "PSBV", 4);
        auto r = bsp::loadMap(x360, "x360.bsp");
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(r.error().code, core::ErrorCode::UnsupportedVersion);
        EXPECT_NE(r.error().message().find("Xbox 360"), std::string::npos);
    }
    {
        std::vector<uint8_t> v22 = good;
        writeI32(v22, 4, 22);
        auto r = bsp::loadMap(v22, "v22.bsp");
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(r.error().code, core::ErrorCode::UnsupportedVersion);
        EXPECT_NE(r.error().message().find("VBSP version 22"), std::string::npos);
    }
    {
        std::vector<uint8_t> past = good;
        writeI32(past, kDir + 7 * 16 + 4, int32_t(good.size())); // faces longer than the file
        auto r = bsp::loadMap(past, "past.bsp");
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(r.error().code, core::ErrorCode::LumpOutOfBounds);
        EXPECT_EQ(r.error().lump, "faces");
    }
    {
        std::vector<uint8_t> version = good;
        writeI32(version, kDir + 5 * 16 + 8, 7); // nodes lump version 7
        auto r = bsp::loadMap(version, "version.bsp");
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(r.error().code, core::ErrorCode::UnsupportedVersion);
        EXPECT_EQ(r.error().lump, "nodes");
    }
    {
        // A lit face's lightmap mins far outside any map (found by the mutation test under
        // UBSan: mins * 16 overflowed): that face is drawn unlit, with a warning.
        std::vector<uint8_t> far = good;
        const int32_t faces = readI32(good, kDir + 7 * 16);
        size_t lit = 0;
        while (readI32(good, size_t(faces) + lit * 56 + 20) < 0)
            ++lit;
        writeI32(far, size_t(faces) + lit * 56 + 28, 0x7f000000);
        auto r = bsp::loadMap(far, "far.bsp");
        ASSERT_TRUE(r.ok()) << r.error().message();
        EXPECT_EQ(r->faces[lit].lightmap_page, -1);
        ASSERT_FALSE(r->warnings.empty());
        EXPECT_EQ(r->warnings.back(),
                  "far.bsp: faces[" + std::to_string(lit) +
                      "].m_LightmapTextureMinsInLuxels: 2130706432," +
                      std::to_string(readI32(good, size_t(faces) + lit * 56 + 32)) +
                      " outside +-16777216; drawn unlit");
    }
    {
        auto r = bsp::loadMap(std::span<const uint8_t>(good.data(), 600), "short.bsp");
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(r.error().code, core::ErrorCode::Truncated);
    }
}

TEST(Vbsp, DisplacementVertexAlphaIsTheSecondLayerWeight) {
    // tf2_test_displacement's CDispVert alphas (lump 33, 20-byte records: vec3 vector, dist,
    // alpha) rewritten: vertex k gets (7 * k) % 256, and four get values past the ends: 300 ->
    // 255, -7 -> 0, NaN -> 0, 127.5 -> 128 (nearest).
    std::vector<uint8_t> bytes = readMap("tf2_test_displacement.bsp");
    ASSERT_FALSE(bytes.empty());
    const int32_t verts_at = readI32(bytes, kDir + 33 * 16);
    const int32_t verts_len = readI32(bytes, kDir + 33 * 16 + 4);
    ASSERT_EQ(readI32(bytes, kDir + 33 * 16 + 12), 0); // stored plain
    const size_t count = size_t(verts_len) / 20;
    ASSERT_EQ(count, 75u); // three power-2 grids
    std::vector<float> alphas(count);
    for (size_t k = 0; k < count; ++k)
        alphas[k] = float((7 * k) % 256);
    alphas[3] = 300.0f;
    alphas[4] = -7.0f;
    alphas[30] = std::nanf("");
    alphas[31] = 127.5f;
    std::vector<uint8_t> expected(count);
    for (size_t k = 0; k < count; ++k)
        expected[k] = uint8_t((7 * k) % 256);
    expected[3] = 255;
    expected[4] = 0;
    expected[30] = 0;
    expected[31] = 128;
    for (size_t k = 0; k < count; ++k)
        std::memcpy(bytes.data() + size_t(verts_at) + k * 20 + 16, &alphas[k], 4);
    auto m = bsp::loadMap(bytes, "tf2_test_displacement.bsp");
    ASSERT_TRUE(m.ok()) << m.error().message();
    // Each displacement face's grid is its dispinfo's DispVertStart.. in row order: the face's
    // dispinfo index (dface_t +12, 56-byte records of lump 7), then DispVertStart (ddispinfo_t
    // +12, 176-byte records of lump 26).
    const int32_t faces_at = readI32(bytes, kDir + 7 * 16);
    const int32_t infos_at = readI32(bytes, kDir + 26 * 16);
    size_t grids = 0;
    for (size_t f = 0; f < m->faces.size(); ++f) {
        const bsp::Face& face = m->faces[f];
        int16_t disp = 0;
        std::memcpy(&disp, bytes.data() + size_t(faces_at) + f * 56 + 12, 2);
        ASSERT_EQ(face.kind == bsp::FaceKind::Mesh, disp >= 0) << f;
        if (disp < 0) {
            // Brush faces keep the colour's default: no two-layer material reaches them (vbsp
            // gives them a one-layer copy).
            for (uint32_t v = 0; v < face.num_vertices; ++v)
                EXPECT_EQ(m->vertices[face.first_vertex + v].colour.a, 255);
            continue;
        }
        const int32_t start = readI32(bytes, size_t(infos_at) + size_t(disp) * 176 + 12);
        ASSERT_EQ(face.num_vertices, 25u);
        for (uint32_t v = 0; v < 25; ++v) {
            const bsp::Vertex& vertex = m->vertices[face.first_vertex + v];
            EXPECT_EQ(vertex.colour.a, expected[size_t(start) + v])
                << "face " << f << " vertex " << v;
            EXPECT_EQ(vertex.colour.r, 255);
        }
        ++grids;
    }
    EXPECT_EQ(grids, 3u);
}

TEST(Vbsp, BumpLitFacesKeepTheirThreeDirectionalLightmaps) {
    // A lit brush face of tf2_test2 made bump-lit: its texinfo gets SURF_BUMPLIGHT (0x800,
    // texinfo_t +64, 72-byte records of lump 6) and its lightofs (dface_t +20) points at the
    // lighting lump's start, rewritten with four maps (flat, then the three bump basis
    // directions, as vrad writes them) of known ColorRGBExp32 luxels. The builder keeps the
    // flat one where it always was and the three after it, one face width apart.
    std::vector<uint8_t> bytes = readMap("tf2_test2.bsp");
    ASSERT_FALSE(bytes.empty());
    auto plain = bsp::loadMap(bytes, "tf2_test2.bsp");
    ASSERT_TRUE(plain.ok()) << plain.error().message();
    const int faces_lump = readI32(bytes, kDir + 7 * 16 + 4) > 0 ? 7 : 58;
    const int light_lump = readI32(bytes, kDir + 8 * 16 + 4) > 0 ? 8 : 53;
    const size_t faces_at = size_t(readI32(bytes, kDir + size_t(faces_lump) * 16));
    const size_t texinfo_at = size_t(readI32(bytes, kDir + 6 * 16));
    const size_t light_at = size_t(readI32(bytes, kDir + size_t(light_lump) * 16));
    const size_t light_len = size_t(readI32(bytes, kDir + size_t(light_lump) * 16 + 4));
    // tf2_test2 has three bump-lit faces of its own; the face picked is not one of them.
    EXPECT_EQ(plain->bump_light_face_count, 3u);
    size_t pick = plain->faces.size();
    for (size_t f = 0; f < plain->faces.size() && pick == plain->faces.size(); ++f) {
        const bsp::Face& face = plain->faces[f];
        const size_t rec = faces_at + f * 56;
        const int32_t w = readI32(bytes, rec + 36) + 1, h = readI32(bytes, rec + 40) + 1;
        if (face.kind == bsp::FaceKind::Polygon && face.lightmap_page >= 0 && !face.bump_light &&
            face.numStyles() == 1 && w >= 2 && h >= 2 && size_t(w * h * 16) <= light_len)
            pick = f;
    }
    ASSERT_LT(pick, plain->faces.size());
    const size_t rec = faces_at + pick * 56;
    const int32_t w = readI32(bytes, rec + 36) + 1, h = readI32(bytes, rec + 40) + 1;
    int16_t texinfo = 0;
    std::memcpy(&texinfo, bytes.data() + rec + 10, 2);
    const size_t flags_at = texinfo_at + size_t(texinfo) * 72 + 64;
    writeI32(bytes, flags_at, readI32(bytes, flags_at) | 0x800);
    writeI32(bytes, rec + 20, 0);
    const auto luxel = [](int m, int k) {
        return std::array<uint8_t, 4>{uint8_t(40 + 30 * m + k % 5), uint8_t(10 * m + 3),
                                      uint8_t(200 - 20 * m), uint8_t(m % 2 ? 0xff : 0)};
    };
    const int samples = w * h;
    for (int m = 0; m < 4; ++m)
        for (int k = 0; k < samples; ++k)
            std::memcpy(bytes.data() + light_at + size_t(m * samples + k) * 4, luxel(m, k).data(),
                        4);
    auto bumped = bsp::loadMap(bytes, "tf2_test2.bsp");
    ASSERT_TRUE(bumped.ok()) << bumped.error().message();
    const bsp::Face& face = bumped->faces[pick];
    ASSERT_TRUE(face.bump_light);
    EXPECT_GT(bumped->bump_light_face_count, plain->bump_light_face_count);
    EXPECT_EQ(face.lightmap_rect.w, w); // the flat block only, as for any face
    EXPECT_EQ(face.lightmap_rect.h, h);
    const bsp::LightmapPage& page = bumped->lightmap_pages[size_t(face.lightmap_page)];
    const int pw = bumped->lightmap_width;
    for (int m = 0; m < 4; ++m)
        for (int k = 0; k < samples; ++k) {
            const std::array<uint8_t, 4> l = luxel(m, k);
            const size_t at = (size_t(face.lightmap_rect.y + k / w) * size_t(pw) +
                               size_t(face.lightmap_rect.x + m * w + k % w)) *
                              3;
            for (int c = 0; c < 3; ++c)
                ASSERT_EQ(page.rgb[at + size_t(c)],
                          bsp::sourceLightmapByte(l[size_t(c)], int8_t(l[3])))
                    << "map " << m << " luxel " << k << " channel " << c;
        }
    // Unchanged faces keep their layout: the flat map only.
    EXPECT_FALSE(plain->faces[pick].bump_light);
}

namespace {

// darea_t (numareaportals, firstareaportal) and dareaportal_t (m_PortalKey, otherarea,
// m_FirstClipPortalVert, m_nClipPortalVerts as u16, planenum i32): Source SDK 2013
// public/bspfile.h.
std::vector<uint8_t> areasLump(const std::vector<std::array<int32_t, 2>>& areas) {
    std::vector<uint8_t> b(areas.size() * 8);
    for (size_t i = 0; i < areas.size(); ++i)
        std::memcpy(b.data() + i * 8, areas[i].data(), 8);
    return b;
}
std::vector<uint8_t> portalsLump(const std::vector<std::array<uint16_t, 2>>& portals) {
    std::vector<uint8_t> b(portals.size() * 12, 0xcd); // clip verts and plane: not read
    for (size_t i = 0; i < portals.size(); ++i)
        std::memcpy(b.data() + i * 12, portals[i].data(), 4);
    return b;
}

} // namespace

// Lumps 20 (areas) and 21 (areaportals): tf2_test2's as vbsp wrote them (area 0 the outside, area
// 1 the map's one room: 38 leaves with faces; one portal record, all zero), hand-made ones read
// to exact values, and broken ones dropping the areas with one warning while the map opens.
TEST(Vbsp, AreasAndAreaPortalsAreReadAndChecked) {
    const std::vector<uint8_t> plain = readMap("tf2_test2.bsp");
    auto a = bsp::loadMap(plain, "tf2_test2.bsp");
    ASSERT_TRUE(a.ok()) << a.error().message();
    ASSERT_EQ(a->areas.size(), 2u);
    EXPECT_EQ(a->areas[0].num_portals, 0);
    EXPECT_EQ(a->areas[0].first_portal, 0);
    EXPECT_EQ(a->areas[1].num_portals, 0);
    EXPECT_EQ(a->areas[1].first_portal, 1);
    ASSERT_EQ(a->area_portals.size(), 1u);
    EXPECT_EQ(a->area_portals[0].portal, 0);
    EXPECT_EQ(a->area_portals[0].other_area, 0);
    EXPECT_EQ(std::count_if(a->leaves.begin(), a->leaves.end(),
                            [](const bsp::Leaf& l) { return l.area == 1; }),
              38);
    EXPECT_TRUE(a->warnings.empty());

    // Three areas, area 1 with two portals (keys 7 and 9) into areas 2 and 1.
    std::vector<uint8_t> made =
        testsupport::vbspWithLump(plain, 20, areasLump({{0, 0}, {2, 0}, {0, 2}}));
    made = testsupport::vbspWithLump(made, 21, portalsLump({{7, 2}, {9, 1}}));
    auto b = bsp::loadMap(made, "made.bsp");
    ASSERT_TRUE(b.ok()) << b.error().message();
    ASSERT_EQ(b->areas.size(), 3u);
    EXPECT_EQ(b->areas[1].num_portals, 2);
    EXPECT_EQ(b->areas[1].first_portal, 0);
    EXPECT_EQ(b->areas[2].first_portal, 2);
    ASSERT_EQ(b->area_portals.size(), 2u);
    EXPECT_EQ(b->area_portals[0].portal, 7);
    EXPECT_EQ(b->area_portals[0].other_area, 2);
    EXPECT_EQ(b->area_portals[1].portal, 9);
    EXPECT_EQ(b->area_portals[1].other_area, 1);
    EXPECT_TRUE(b->warnings.empty());

    // Strata's version 1 (momentum_mp_lobby's): the four u16 widened to u32, 20 bytes.
    std::vector<uint8_t> wide(40, 0);
    for (const auto& [at, v] :
         {std::pair{0, 70000u}, std::pair{4, 2u}, std::pair{20, 9u}, std::pair{24, 1u}})
        std::memcpy(wide.data() + at, &v, 4);
    auto w = bsp::loadMap(testsupport::vbspWithLump(made, 21, wide, 1), "wide.bsp");
    ASSERT_TRUE(w.ok()) << w.error().message();
    ASSERT_EQ(w->area_portals.size(), 2u);
    EXPECT_EQ(w->area_portals[0].portal, 70000);
    EXPECT_EQ(w->area_portals[0].other_area, 2);
    EXPECT_EQ(w->area_portals[1].portal, 9);
    EXPECT_EQ(w->area_portals[1].other_area, 1);
    EXPECT_TRUE(w->warnings.empty());
    auto lobby = bsp::loadMap(readMap("momentum_mp_lobby.bsp"), "momentum_mp_lobby.bsp");
    ASSERT_TRUE(lobby.ok()) << lobby.error().message();
    EXPECT_EQ(lobby->areas.size(), 2u);
    ASSERT_EQ(lobby->area_portals.size(), 1u);
    EXPECT_EQ(lobby->area_portals[0].other_area, 0);

    const std::string dropped = "; no areas: the area views and area restrictions are off";
    const auto expectDropped = [&](const std::vector<uint8_t>& bytes, const std::string& why) {
        auto m = bsp::loadMap(bytes, "bad.bsp");
        ASSERT_TRUE(m.ok()) << m.error().message();
        EXPECT_TRUE(m->areas.empty());
        EXPECT_TRUE(m->area_portals.empty());
        EXPECT_EQ(m->faces.size(), a->faces.size());
        ASSERT_EQ(m->warnings.size(), 1u);
        EXPECT_EQ(m->warnings[0], "bad.bsp: " + why);
    };
    // A portal into area 5 of 3.
    expectDropped(testsupport::vbspWithLump(made, 21, portalsLump({{7, 2}, {9, 5}})),
                  "areaportals[1].otherarea: 5 beyond 3 areas" + dropped);
    // Area 2's portals 2..4 of 2.
    expectDropped(testsupport::vbspWithLump(made, 20, areasLump({{0, 0}, {2, 0}, {2, 2}})),
                  "areas[2].firstareaportal: 4 beyond 2 areaportals" + dropped);
    // A ragged lump.
    std::vector<uint8_t> ragged = portalsLump({{7, 2}, {9, 1}});
    ragged.resize(13);
    expectDropped(testsupport::vbspWithLump(made, 21, ragged),
                  "areaportals: 13 bytes is not a multiple of 12" + dropped);
    // A version this reader does not know.
    expectDropped(testsupport::vbspWithLump(made, 21, wide, 2),
                  "areaportals.version: lump version 2 is not one this reader knows" + dropped);
    // One area: the leaves of area 1 are past it (the first is leaf 6).
    expectDropped(testsupport::vbspWithLump(plain, 20, areasLump({{0, 0}})),
                  "leafs[6].area: 1 beyond 1 areas" + dropped + " (and 37 more in leafs)");
}
