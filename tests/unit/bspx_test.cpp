// BSPX lighting lumps (bsp/bspx.h) on the two-face Quake 1 map of tests/support/q1_builder.h:
// each lump's decoded luxels, styles and lightmap coordinates checked exactly against values
// computed by hand, and broken lumps seen to leave the map loading with its standard lighting.
//
// The map: faces 0 (x 0..64) and 1 (x 64..128), both y 0..64 at z 0 with s = x, t = y. With
// 16 texels a luxel each has 5x5 luxels; face 0's samples start at 0 and face 1's at 25. The
// lighting lump here is 50 samples whose value is their index (sample k is grey k).
#include "bsp/bspx.h"
#include "bsp/load.h"
#include "support/q1_builder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace {

using q1test::BspxLump;
using q1test::bytesOf;

std::vector<uint8_t> rampLighting() {
    std::vector<uint8_t> l(50);
    for (size_t i = 0; i < l.size(); ++i)
        l[i] = uint8_t(i);
    return l;
}

std::vector<uint8_t> mapWith(const std::vector<BspxLump>& lumps,
                             std::vector<uint8_t> lighting = rampLighting()) {
    q1test::Q1Options o;
    o.lighting_data = std::move(lighting);
    std::vector<uint8_t> f = q1test::buildQ1(o);
    q1test::appendBspx(f, lumps);
    return f;
}

bsp::Map load(const std::vector<uint8_t>& bytes, const bsp::Companions& c = {}) {
    auto r = bsp::loadMap(bytes, "bspx.bsp", c);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message());
    return r.ok() ? std::move(*r) : bsp::Map{};
}

// The texel (x, y) of face f's block in its page (of the light, or of the directions).
glm::u8vec3 texel(const bsp::Map& m, size_t f, int x, int y, bool dirs = false) {
    const bsp::Face& face = m.faces[f];
    const auto& pages = dirs ? m.deluxe_pages : m.lightmap_pages;
    if (face.lightmap_page < 0 || size_t(face.lightmap_page) >= pages.size())
        return glm::u8vec3(0xee);
    const auto& p = pages[size_t(face.lightmap_page)].rgb;
    const size_t at = ((size_t(face.lightmap_rect.y) + size_t(y)) * size_t(m.lightmap_width) +
                       size_t(face.lightmap_rect.x) + size_t(x)) *
                      3;
    return glm::u8vec3(p[at], p[at + 1], p[at + 2]);
}

glm::u8vec3 grey(int v) {
    return glm::u8vec3(uint8_t(v));
}

// Where vertex i of face f samples its lightmap, in luxels from the block's corner.
glm::vec2 luxelOf(const bsp::Map& m, size_t f, uint32_t i) {
    const bsp::Face& face = m.faces[f];
    const glm::vec2 uv = m.vertices[face.first_vertex + i].lm_uv;
    return glm::vec2(uv.x * float(m.lightmap_width) - face.lightmap_rect.x,
                     uv.y * float(m.lightmap_height) - face.lightmap_rect.y);
}

bool used(const bsp::Map& m, const std::string& name) {
    for (const bsp::ExtraLump& x : m.extra_lumps)
        if (x.name == name)
            return x.used;
    ADD_FAILURE() << name << " not in the BSPX directory";
    return false;
}

bool warned(const bsp::Map& m, const std::string& part) {
    return std::any_of(m.warnings.begin(), m.warnings.end(),
                       [&](const std::string& w) { return w.find(part) != std::string::npos; });
}

std::string allWarnings(const bsp::Map& m) {
    std::string s;
    for (const std::string& w : m.warnings)
        s += w + "\n";
    return s;
}

uint32_t e5(uint32_t e, uint32_t r, uint32_t g, uint32_t b) {
    return (e << 27) | (b << 18) | (g << 9) | r;
}

struct Decoupled {
    uint16_t w, h;
    int32_t offset;
    float s[4], t[4];
};
static_assert(sizeof(Decoupled) == 40);

} // namespace

TEST(Bspx, WithoutLumpsTheRampIsTheLighting) {
    const bsp::Map m = load(mapWith({}));
    EXPECT_EQ(m.faces[0].lightmap_rect.w, 5);
    EXPECT_EQ(texel(m, 0, 4, 1), grey(9));
    EXPECT_EQ(texel(m, 1, 0, 0), grey(25));
    EXPECT_TRUE(m.deluxe_pages.empty());
}

// LMSHIFT 5 on face 0: 32 texels a luxel, s and t 0..64 -> floor(0/32) .. ceil(64/32) = 0..2,
// 3x3 luxels, sample (x, y) = 3y + x. Face 1 keeps shift 4 (5x5 from sample 25).
TEST(Bspx, LmshiftGivesAFaceItsOwnLuxelSize) {
    const bsp::Map m = load(mapWith({{"LMSHIFT", {5, 4}}}));
    EXPECT_TRUE(used(m, "LMSHIFT"));
    EXPECT_FALSE(warned(m, "BSPX")) << allWarnings(m);
    ASSERT_EQ(m.faces[0].lightmap_rect.w, 3);
    ASSERT_EQ(m.faces[0].lightmap_rect.h, 3);
    EXPECT_EQ(texel(m, 0, 0, 0), grey(0));
    EXPECT_EQ(texel(m, 0, 2, 1), grey(5));
    EXPECT_EQ(texel(m, 0, 2, 2), grey(8));
    EXPECT_EQ(m.faces[1].lightmap_rect.w, 5);
    EXPECT_EQ(texel(m, 1, 4, 4), grey(49));
    // Vertex 1 of face 0 is (64, 0): s = (64 + 16) / 32 = 2.5 luxels, t = 16 / 32 = 0.5.
    EXPECT_FLOAT_EQ(luxelOf(m, 0, 1).x, 2.5f);
    EXPECT_FLOAT_EQ(luxelOf(m, 0, 1).y, 0.5f);
    // Face 1's vertex 1 (128, 0): s = (128 - 64 + 8) / 16 = 4.5.
    EXPECT_FLOAT_EQ(luxelOf(m, 1, 1).x, 4.5f);
}

// LMOFFSET swaps the faces' samples; LMSTYLE (one slot a face) gives styles 3 and 7.
TEST(Bspx, LmoffsetAndLmstyleReplaceTheFaceRecord) {
    const bsp::Map m =
        load(mapWith({{"LMOFFSET", bytesOf(std::vector<int32_t>{25, 0})}, {"LMSTYLE", {3, 7}}}));
    EXPECT_TRUE(used(m, "LMOFFSET"));
    EXPECT_TRUE(used(m, "LMSTYLE"));
    EXPECT_FALSE(warned(m, "BSPX")) << allWarnings(m);
    EXPECT_EQ(texel(m, 0, 0, 0), grey(25));
    EXPECT_EQ(texel(m, 0, 4, 4), grey(49));
    EXPECT_EQ(texel(m, 1, 0, 0), grey(0));
    EXPECT_EQ(texel(m, 1, 4, 4), grey(24));
    EXPECT_EQ(m.faces[0].styles, (std::array<uint8_t, 4>{3, 255, 255, 255}));
    EXPECT_EQ(m.faces[1].styles, (std::array<uint8_t, 4>{7, 255, 255, 255}));
}

// LMSTYLE16, two slots: face 0 styles 0 and 300 (drawn in slot 300 % 64 = 44, stored as
// 64 + 44 = 108), its two 5x5 blocks side by side; face 1 none (65535), so it is unlit: black.
TEST(Bspx, Lmstyle16FoldsWideStylesAndNoneMeansUnlit) {
    const bsp::Map m =
        load(mapWith({{"LMSTYLE16", bytesOf(std::vector<uint16_t>{0, 300, 0xffff, 0xffff})}}));
    EXPECT_TRUE(used(m, "LMSTYLE16"));
    EXPECT_TRUE(warned(m, "bspx.bsp: BSPX LMSTYLE16: 1 styles above 254")) << allWarnings(m);
    EXPECT_EQ(m.faces[0].styles, (std::array<uint8_t, 4>{0, 108, 255, 255}));
    ASSERT_EQ(m.faces[0].lightmap_rect.w, 10);
    EXPECT_EQ(texel(m, 0, 4, 4), grey(24));
    EXPECT_EQ(texel(m, 0, 5, 0), grey(25));
    EXPECT_EQ(texel(m, 0, 9, 4), grey(49));
    EXPECT_EQ(m.faces[1].lightmap_page, -1);
    EXPECT_EQ(m.unlit_face_count, 1u);
    EXPECT_TRUE(m.faces[1].unlit); // the game's rule lights it: black in a lit Quake 1 map
    EXPECT_EQ(bsp::foldStyle16(254), 254);
    EXPECT_EQ(bsp::foldStyle16(255), 64 + 255 % 64);
    EXPECT_EQ(bsp::foldStyle16(0xffff), bsp::kNoStyle);
}

// DECOUPLED_LM: face 0 a 3x2 grid at sample 10 with luxel coordinates (x / 32, y / 64), so
// sample (x, y) = 10 + 3y + x; face 1 a 0x0 grid (no samples). LMSHIFT beside it is not used.
TEST(Bspx, DecoupledLmGivesGridOffsetAndCoordinates) {
    const std::vector<Decoupled> d = {{3, 2, 10, {1.0f / 32, 0, 0, 0}, {0, 1.0f / 64, 0, 0}},
                                      {0, 0, -1, {0, 0, 0, 0}, {0, 0, 0, 0}}};
    const bsp::Map m = load(mapWith({{"DECOUPLED_LM", bytesOf(d)}, {"LMSHIFT", {0, 0}}}));
    EXPECT_TRUE(used(m, "DECOUPLED_LM"));
    EXPECT_FALSE(used(m, "LMSHIFT"));
    EXPECT_TRUE(warned(m, "BSPX LMSHIFT: not used")) << allWarnings(m);
    ASSERT_EQ(m.faces[0].lightmap_rect.w, 3);
    ASSERT_EQ(m.faces[0].lightmap_rect.h, 2);
    EXPECT_EQ(texel(m, 0, 0, 0), grey(10));
    EXPECT_EQ(texel(m, 0, 2, 1), grey(15));
    // Vertex 2 is (64, 64): luxel (2, 1), sampled at its centre (2.5, 1.5).
    EXPECT_FLOAT_EQ(luxelOf(m, 0, 2).x, 2.5f);
    EXPECT_FLOAT_EQ(luxelOf(m, 0, 2).y, 1.5f);
    EXPECT_FLOAT_EQ(luxelOf(m, 0, 0).x, 0.5f);
    EXPECT_EQ(m.faces[1].lightmap_page, -1);
    EXPECT_EQ(m.unlit_face_count, 1u);
}

// E5BGR9: a channel is m * 2^(e - 17) of the 8-bit scale (e = 17: the mantissa itself).
TEST(Bspx, E5bgr9DecodesToLuxelsExactly) {
    EXPECT_EQ(bsp::decodeE5bgr9(e5(17, 10, 200, 300)), (std::array<uint8_t, 3>{10, 200, 255}));
    EXPECT_EQ(bsp::decodeE5bgr9(e5(16, 3, 5, 0)), (std::array<uint8_t, 3>{2, 3, 0})); // 1.5, 2.5
    EXPECT_EQ(bsp::decodeE5bgr9(e5(18, 100, 127, 128)), (std::array<uint8_t, 3>{200, 254, 255}));
    EXPECT_EQ(bsp::decodeE5bgr9(e5(0, 511, 511, 511)), (std::array<uint8_t, 3>{0, 0, 0}));
    EXPECT_EQ(bsp::decodeE5bgr9(e5(31, 1, 0, 0)), (std::array<uint8_t, 3>{255, 0, 0}));
    // ericw-tools' HDR_PackE5BRG9 of 128 (1.0 there) is exponent 16, mantissa 256.
    EXPECT_EQ(bsp::decodeE5bgr9(e5(16, 256, 256, 256)), (std::array<uint8_t, 3>{128, 128, 128}));
}

TEST(Bspx, LightingE5bgr9ReplacesTheLightingLump) {
    std::vector<uint32_t> hdr(50, 0);
    hdr[0] = e5(17, 10, 200, 300);
    hdr[1] = e5(16, 3, 5, 0);
    hdr[25] = e5(18, 100, 0, 7);
    const bsp::Map m = load(mapWith({{"LIGHTING_E5BGR9", bytesOf(hdr)}}));
    EXPECT_TRUE(used(m, "LIGHTING_E5BGR9"));
    EXPECT_EQ(texel(m, 0, 0, 0), glm::u8vec3(10, 200, 255));
    EXPECT_EQ(texel(m, 0, 1, 0), glm::u8vec3(2, 3, 0));
    EXPECT_EQ(texel(m, 0, 2, 0), glm::u8vec3(0, 0, 0));
    EXPECT_EQ(texel(m, 1, 0, 0), glm::u8vec3(200, 0, 14));
}

TEST(Bspx, HdrLitFileIsDecodedAndWinsOverTheLump) {
    std::vector<uint8_t> lit = {'Q', 'L', 'I', 'T', 0x01, 0x00, 0x01, 0x00}; // 0x10001
    std::vector<uint32_t> hdr(50, e5(17, 1, 2, 3));
    hdr[26] = e5(18, 100, 0, 0);
    const auto body = bytesOf(hdr);
    lit.insert(lit.end(), body.begin(), body.end());
    bsp::Companions c;
    c.lit = lit;
    const bsp::Map m =
        load(mapWith({{"LIGHTING_E5BGR9", bytesOf(std::vector<uint32_t>(50, 0))}}), c);
    EXPECT_FALSE(used(m, "LIGHTING_E5BGR9"));
    EXPECT_EQ(texel(m, 0, 0, 0), glm::u8vec3(1, 2, 3));
    EXPECT_EQ(texel(m, 1, 1, 0), glm::u8vec3(200, 0, 0));
}

// LIGHTINGDIR: 3 bytes a sample laid out as the light; byte k of the lump is k here, so sample
// s's direction is (3s, 3s + 1, 3s + 2).
TEST(Bspx, LightingdirFillsDeluxePagesBesideTheLight) {
    std::vector<uint8_t> dirs(150);
    for (size_t i = 0; i < dirs.size(); ++i)
        dirs[i] = uint8_t(i);
    const bsp::Map m = load(mapWith({{"LIGHTINGDIR", dirs}}));
    EXPECT_TRUE(used(m, "LIGHTINGDIR"));
    ASSERT_EQ(m.deluxe_pages.size(), m.lightmap_pages.size());
    EXPECT_EQ(texel(m, 0, 0, 0, true), glm::u8vec3(0, 1, 2));
    EXPECT_EQ(texel(m, 0, 1, 1, true), glm::u8vec3(18, 19, 20)); // sample 6
    EXPECT_EQ(texel(m, 1, 0, 0, true), glm::u8vec3(75, 76, 77)); // sample 25
    EXPECT_EQ(texel(m, 1, 0, 0), grey(25));
}

TEST(Bspx, LuxFileWinsOverLightingdir) {
    bsp::Companions c;
    c.lux = {'Q', 'L', 'I', 'T', 1, 0, 0, 0};
    for (int i = 0; i < 50; ++i)
        c.lux.insert(c.lux.end(), {128, 128, 255});
    c.lux[8 + 25 * 3] = 7; // sample 25's first byte
    const bsp::Map m = load(mapWith({{"LIGHTINGDIR", std::vector<uint8_t>(150, 9)}}), c);
    EXPECT_FALSE(used(m, "LIGHTINGDIR"));
    EXPECT_EQ(texel(m, 0, 3, 3, true), glm::u8vec3(128, 128, 255));
    EXPECT_EQ(texel(m, 1, 0, 0, true), glm::u8vec3(7, 128, 255));
    // A .lux of the wrong size is named and left out; LIGHTINGDIR is used instead.
    c.lux.pop_back();
    const bsp::Map w = load(mapWith({{"LIGHTINGDIR", std::vector<uint8_t>(150, 9)}}), c);
    EXPECT_TRUE(warned(w, "bspx.bsp: .lux file does not match this map")) << allWarnings(w);
    EXPECT_TRUE(used(w, "LIGHTINGDIR"));
    EXPECT_EQ(texel(w, 0, 0, 0, true), glm::u8vec3(9));
}

// Broken lumps: each a warning naming the file and lump (and face), never an error; the faces
// keep their standard lightmaps.
TEST(Bspx, BrokenLumpsWarnAndTheStandardLightingStays) {
    {
        const bsp::Map m = load(mapWith({{"LMSHIFT", {5, 4, 4}}, {"LMSTYLE", {3, 7}}}));
        EXPECT_FALSE(used(m, "LMSHIFT"));
        EXPECT_FALSE(used(m, "LMSTYLE"));
        EXPECT_TRUE(warned(m, "bspx.bsp: BSPX LMSHIFT: 3 bytes, needs 2")) << allWarnings(m);
        EXPECT_EQ(m.faces[0].lightmap_rect.w, 5);
        EXPECT_EQ(m.faces[0].styles[0], 0);
    }
    {
        // Face 0's samples at 1000 run past the 50 there are; face 1's (at 0) are fine.
        const bsp::Map m = load(mapWith({{"LMOFFSET", bytesOf(std::vector<int32_t>{1000, 0})}}));
        EXPECT_TRUE(warned(m, "bspx.bsp: BSPX LMOFFSET of faces[0]: 5x5 luxels x 1 styles at "
                              "sample 1000 run past 50 samples; 1 face(s)"))
            << allWarnings(m);
        EXPECT_EQ(texel(m, 0, 0, 0), grey(0));
        EXPECT_EQ(texel(m, 1, 0, 0), grey(0));
    }
    {
        const bsp::Map m = load(mapWith({{"LMSHIFT", {200, 0}}}));
        EXPECT_TRUE(warned(m, "BSPX LMSHIFT of faces[0]: shift 200 is over 12")) << allWarnings(m);
        EXPECT_EQ(m.faces[0].lightmap_rect.w, 5);
        // Shift 0 on face 1: 65x65 luxels need 4225 samples; it falls back too.
        EXPECT_TRUE(warned(m, "2 face(s)")) << allWarnings(m);
        EXPECT_EQ(m.faces[1].lightmap_rect.w, 5);
    }
    {
        const float nan = std::numeric_limits<float>::quiet_NaN();
        const std::vector<Decoupled> d = {{3, 2, 10, {nan, 0, 0, 0}, {0, 1, 0, 0}},
                                          {300, 300, 0, {1, 0, 0, 0}, {0, 1, 0, 0}}};
        const bsp::Map m = load(mapWith({{"DECOUPLED_LM", bytesOf(d)}}));
        EXPECT_TRUE(warned(m, "BSPX DECOUPLED_LM of faces[0]: world-to-luxel axes are not finite"))
            << allWarnings(m);
        EXPECT_EQ(m.faces[0].lightmap_rect.w, 5);
        EXPECT_EQ(m.faces[1].lightmap_rect.w, 5);
        EXPECT_EQ(texel(m, 1, 0, 0), grey(25));
    }
    {
        const bsp::Map m = load(mapWith({{"LIGHTING_E5BGR9", std::vector<uint8_t>(199, 1)},
                                         {"LIGHTINGDIR", std::vector<uint8_t>(10, 1)}}));
        EXPECT_TRUE(warned(m, "BSPX LIGHTING_E5BGR9: 199 bytes, needs 200")) << allWarnings(m);
        EXPECT_TRUE(warned(m, "BSPX LIGHTINGDIR: 10 bytes, needs 150")) << allWarnings(m);
        EXPECT_EQ(texel(m, 0, 1, 0), grey(1));
        EXPECT_TRUE(m.deluxe_pages.empty());
    }
}

TEST(Bspx, BrokenDirectoryEntriesAreNamed) {
    std::vector<uint8_t> f = mapWith({{"LMSHIFT", {5, 4}}, {"LMSHIFT", {4, 4}}});
    {
        const bsp::Map m = load(f);
        EXPECT_TRUE(warned(m, "BSPX lump 1 (LMSHIFT): a second lump of that name"))
            << allWarnings(m);
        EXPECT_EQ(m.faces[0].lightmap_rect.w, 3);
    }
    // Entry 0's length pointed past the end of the file.
    const size_t dir = f.size() - 8 - 2 * 32 - 4 - 4;
    ASSERT_EQ(f[dir], 'B');
    f[dir + 8 + 28] = 0xff;
    f[dir + 8 + 29] = 0xff;
    {
        const bsp::Map m = load(f);
        EXPECT_TRUE(warned(m, "bspx.bsp: BSPX lump 0 (LMSHIFT): ")) << allWarnings(m);
        EXPECT_TRUE(warned(m, "lies outside the file")) << allWarnings(m);
        EXPECT_EQ(m.faces[0].lightmap_rect.w, 5); // the second LMSHIFT (4, 4) is used
    }
    f[dir + 4] = 0xff; // a count of 0x7fff lumps, more than the file holds (and than 256)
    f[dir + 5] = 0x7f;
    const bsp::Map m = load(f);
    EXPECT_TRUE(warned(m, "bspx.bsp: BSPX directory at ")) << allWarnings(m);
    EXPECT_TRUE(m.extra_lumps.empty());
}

// Half-Life: the lighting lump is RGB and offsets count its bytes, in LMOFFSET and
// LIGHTING_E5BGR9 alike (one u32 per 3 bytes of the lump). The two-face map as BSP30: 150
// bytes of lighting, face 1 at byte 75; LMOFFSET swaps the faces.
TEST(Bspx, HalfLifeOffsetsCountBytesOfRgbLighting) {
    std::vector<uint8_t> rgb(150);
    for (size_t i = 0; i < rgb.size(); ++i)
        rgb[i] = uint8_t(i);
    q1test::Q1Options o;
    o.lighting_data = rgb;
    o.face1_lightofs = 75;
    std::vector<uint8_t> f = q1test::buildQ1(o);
    f[0] = 30;
    std::vector<uint32_t> hdr(50, 0);
    hdr[25] = e5(17, 1, 2, 3);
    q1test::appendBspx(
        f, {{"LMOFFSET", bytesOf(std::vector<int32_t>{75, 0})}, {"LIGHTING_E5BGR9", bytesOf(hdr)}});
    const bsp::Map m = load(f);
    EXPECT_EQ(m.format, bsp::Format::HalfLife);
    EXPECT_TRUE(used(m, "LMOFFSET"));
    EXPECT_TRUE(used(m, "LIGHTING_E5BGR9"));
    EXPECT_EQ(texel(m, 0, 0, 0), glm::u8vec3(1, 2, 3)); // sample 25, byte 75
    EXPECT_EQ(texel(m, 1, 0, 0), glm::u8vec3(0, 0, 0));
}
