// The 8-bit texture paths of content::loadPalettedTexture on small synthetic inputs: which
// decoder applies (from the material's data), palette lookup, Quake 1 glow images, Quake 2
// .wal lookup ignoring case, sky boxes, and findGameDir's game-folder rules.
#include "content/image/palette.h"
#include "content/material/skybox.h"
#include "content/material/textures.h"
#include "content/vfs/vfs.h"
#include "unit/content_test_util.h"

#include <gtest/gtest.h>

using namespace content_test;
namespace fs = std::filesystem;

namespace {

// Palette whose entry i is (i, 255 - i, 7): every index gives a distinct, predictable colour.
Bytes rampPalette() {
    Bytes p(768);
    for (int i = 0; i < 256; ++i) {
        p[size_t(i) * 3] = uint8_t(i);
        p[size_t(i) * 3 + 1] = uint8_t(255 - i);
        p[size_t(i) * 3 + 2] = 7;
    }
    return p;
}

std::string str(const Bytes& b) {
    return std::string(b.begin(), b.end());
}

// Quake 2 .wal: 100-byte header, then mip level 0.
Bytes makeWal(uint32_t w, uint32_t h, const Bytes& indices) {
    Bytes b(100, 0);
    putU32(b, 32, w);
    putU32(b, 36, h);
    putU32(b, 40, 100);
    b.insert(b.end(), indices.begin(), indices.end());
    return b;
}

// 8-bit PCX: header, RLE data (every byte written as a run of one), 0x0c and the palette.
Bytes makePcx(int w, int h, const Bytes& indices, const Bytes& palette) {
    Bytes b(128, 0);
    b[0] = 0x0a;
    b[1] = 5;
    b[2] = 1;
    b[3] = 8;
    b[8] = uint8_t(w - 1);
    b[10] = uint8_t(h - 1);
    b[65] = 1;
    b[66] = uint8_t(w);
    for (uint8_t v : indices) {
        b.push_back(0xc1);
        b.push_back(v);
    }
    b.push_back(0x0c);
    b.insert(b.end(), palette.begin(), palette.end());
    return b;
}

bsp::Map quake1Map(const Bytes& indices, int w, int h, std::string name = "wall") {
    bsp::Map map;
    bsp::Material m;
    m.name = std::move(name);
    m.width = w;
    m.height = h;
    m.embedded = 0;
    map.materials.push_back(m);
    bsp::EmbeddedTexture tex;
    tex.width = w;
    tex.height = h;
    tex.indices = indices;
    map.embedded_textures.push_back(tex);
    return map;
}

} // namespace

TEST(PalettedTextures, Quake1EmbeddedUsesPaletteLmpAndGlows) {
    TempDir tmp;
    writeBytes(tmp / "id1/gfx/palette.lmp", rampPalette());
    content::FileSystem vfs;
    ASSERT_TRUE(vfs.addGameDir(tmp / "id1"));
    const bsp::Map map = quake1Map({10, 230, 254, 255}, 2, 2);
    const auto tex = content::loadMaterialTextures(map, vfs, 1);
    ASSERT_EQ(tex.size(), 1u);
    EXPECT_FALSE(tex[0].missing);
    EXPECT_EQ(tex[0].source, "<embedded> + gfx/palette.lmp (" + (tmp / "id1").string() + ")");
    EXPECT_EQ(tex[0].image.rgba,
              (Bytes{10, 245, 7, 255, 230, 25, 7, 255, 254, 1, 7, 255, 255, 0, 7, 255}));
    // 230 and 254 are fullbright, 10 and 255 are not.
    EXPECT_EQ(tex[0].glow.rgba, (Bytes{0, 0, 0, 0, 230, 25, 7, 255, 254, 1, 7, 255, 0, 0, 0, 0}));
}

TEST(PalettedTextures, Quake1WithoutPaletteFileUsesTheBuiltInOne) {
    content::FileSystem vfs;
    bsp::Map map = quake1Map({1, 2, 3, 4}, 2, 2, "{fence");
    map.embedded_textures[0].indices[3] = 255;
    const auto info = content::loadPalettedTexture(map.materials[0], map, vfs);
    ASSERT_TRUE(info);
    EXPECT_EQ(info->source, "<embedded> + built-in palette");
    const auto& pal = content::defaultQuakePalette().rgb;
    EXPECT_EQ(info->image.rgba[0], pal[3]);
    EXPECT_EQ(info->image.rgba[3], 255);
    EXPECT_EQ(info->image.rgba[15], 0); // '{' texture: index 255 is cut out
    EXPECT_EQ(info->glow.width, 0);     // no fullbright texels
}

TEST(PalettedTextures, SkyTexturesGetNoGlow) {
    content::FileSystem vfs;
    bsp::Map map = quake1Map({240, 240, 240, 240}, 2, 2, "sky1");
    map.materials[0].flags = bsp::kSurfSky;
    const auto info = content::loadPalettedTexture(map.materials[0], map, vfs);
    ASSERT_TRUE(info);
    EXPECT_EQ(info->glow.width, 0);
}

// QuakeSpasm loads '*' textures without a fullbright mask (gl_model.c Mod_LoadTextures): a
// liquid the map lights (lit water: kSurfLiquid without kSurfFullbright) has no glow, while an
// unlit one keeps it.
TEST(PalettedTextures, LitLiquidsGetNoGlow) {
    content::FileSystem vfs;
    bsp::Map map = quake1Map({240, 10, 240, 10}, 2, 2, "*lava1");
    map.materials[0].flags = bsp::kSurfLiquid | bsp::kSurfWarp;
    const auto lit = content::loadPalettedTexture(map.materials[0], map, vfs);
    ASSERT_TRUE(lit);
    EXPECT_EQ(lit->glow.width, 0);
    map.materials[0].flags |= bsp::kSurfFullbright;
    const auto unlit = content::loadPalettedTexture(map.materials[0], map, vfs);
    ASSERT_TRUE(unlit);
    ASSERT_EQ(unlit->glow.width, 2);
    EXPECT_EQ(unlit->glow.rgba[3], 255); // texel 0 (index 240) glows
    EXPECT_EQ(unlit->glow.rgba[7], 0);   // texel 1 (index 10) does not
}

TEST(PalettedTextures, HalfLifeEmbeddedUsesItsOwnPalette) {
    content::FileSystem vfs;
    bsp::Map map = quake1Map({5, 6}, 2, 1);
    map.embedded_textures[0].palette = rampPalette();
    const auto info = content::loadPalettedTexture(map.materials[0], map, vfs);
    ASSERT_TRUE(info);
    EXPECT_EQ(info->source, "<embedded>");
    EXPECT_EQ(info->image.rgba, (Bytes{5, 250, 7, 255, 6, 249, 7, 255}));
}

// Half-Life's texgammatable (game::MaterialSource::palette_table) maps the palette at load
// (Xash3D Image_LoadMIP, LUMP_TEXGAMMA), a '{' cut-out's palette stays as stored (LUMP_MASKED).
// rampPalette: index i is (i, 255 - i, 7). By hand, 255 (i / 255)^0.8 truncated: 5 -> 10.98 ->
// 10, 6 -> 12.70 -> 12, 7 -> 14.37 -> 14, 250 -> 250.99 -> 250, 249 -> 250.19 -> 250.
TEST(PalettedTextures, HalfLifePaletteThroughTheGameTable) {
    content::FileSystem vfs;
    bsp::Map map = quake1Map({5, 6}, 2, 1);
    map.embedded_textures[0].palette = rampPalette();
    game::MaterialSource source;
    source.palette_table = game::texGammaTable(2.5f, 2.0f);
    const auto sources = content::loadPalettedSources(map, vfs, source);
    ASSERT_TRUE(sources.palette_table);
    const auto info = content::loadPalettedTexture(map.materials[0], map, vfs, sources);
    ASSERT_TRUE(info);
    EXPECT_EQ(info->image.rgba, (Bytes{10, 250, 14, 255, 12, 250, 14, 255}));

    bsp::Map fence = quake1Map({5, 255}, 2, 1, "{fence");
    fence.embedded_textures[0].palette = rampPalette();
    const auto cut = content::loadPalettedTexture(fence.materials[0], fence, vfs, sources);
    ASSERT_TRUE(cut);
    ASSERT_EQ(cut->image.rgba.size(), 8u);
    EXPECT_EQ(Bytes(cut->image.rgba.begin(), cut->image.rgba.begin() + 4), (Bytes{5, 250, 7, 255}));
    EXPECT_EQ(cut->image.rgba[7], 0); // index 255 cut out
}

TEST(PalettedTextures, ExternalMiptexWithoutWadsIsMissingAndSaysWhy) {
    content::FileSystem vfs;
    bsp::Map map;
    bsp::Material m;
    m.name = "c1a0_wx";
    m.width = m.height = 64;
    map.materials.push_back(m);
    game::MaterialSource wads;
    wads.wads = {"halflife.wad"};
    const auto sources = content::loadPalettedSources(map, vfs, wads);
    EXPECT_EQ(sources.missing_wads, std::vector<std::string>{"halflife.wad"});
    const auto info = content::loadPalettedTexture(map.materials[0], map, vfs, sources);
    ASSERT_TRUE(info);
    EXPECT_TRUE(info->missing);
    EXPECT_TRUE(info->image.valid());
    EXPECT_NE(info->error.find("halflife.wad"), std::string::npos) << info->error;
}

TEST(PalettedTextures, Quake2WalIgnoresCaseAndUsesColormap) {
    TempDir tmp;
    const Bytes pal = rampPalette();
    writeBytes(tmp / "base.pak",
               makePak({{"textures/HcPeura/Floor1.wal", str(makeWal(2, 1, {9, 200}))},
                        {"pics/colormap.pcx", str(makePcx(1, 1, {0}, pal))}}));
    content::FileSystem vfs;
    ASSERT_TRUE(vfs.addArchive(tmp / "base.pak"));
    bsp::Map map;
    bsp::Material m;
    m.name = "hcpeura/FLOOR1";
    m.uv_in_texels = true;
    map.materials.push_back(m);
    m.name = "e1u1/origin";
    map.materials.push_back(m);
    const auto tex = content::loadMaterialTextures(map, vfs, 1);
    ASSERT_EQ(tex.size(), 2u);
    EXPECT_FALSE(tex[0].missing);
    EXPECT_EQ(tex[0].source, "textures/hcpeura/FLOOR1.wal");
    EXPECT_EQ(tex[0].origin, "base.pak");
    EXPECT_EQ(tex[0].image.rgba, (Bytes{9, 246, 7, 255, 200, 55, 7, 255}));
    EXPECT_TRUE(tex[1].missing);
    EXPECT_TRUE(tex[1].image.valid());
}

TEST(PalettedTextures, Quake3MaterialsAreNotPaletted) {
    content::FileSystem vfs;
    bsp::Map map;
    bsp::Material m;
    m.name = "textures/base_wall/concrete";
    map.materials.push_back(m);
    EXPECT_FALSE(content::loadPalettedTexture(map.materials[0], map, vfs));
}

TEST(SkyBox, SixFacesFromTgaPcxOrPngElseNone) {
    TempDir tmp;
    content::Image red;
    red.width = red.height = 2;
    red.rgba = Bytes(16, 255);
    fs::create_directories(tmp / "game/env");
    for (std::string_view suffix : {"rt", "bk", "lf", "ft", "up"})
        ASSERT_TRUE(
            content::writePng(tmp / ("game/env/night" + std::string(suffix) + ".png"), red));
    content::FileSystem partial;
    ASSERT_TRUE(partial.addGameDir(tmp / "game"));
    EXPECT_FALSE(content::loadSkyBox(partial, "env/night")); // "dn" is missing

    writeBytes(tmp / "game/env/nightdn.pcx", makePcx(1, 1, {3}, rampPalette()));
    content::FileSystem vfs;
    ASSERT_TRUE(vfs.addGameDir(tmp / "game"));
    const auto sky = content::loadSkyBox(vfs, "env/night");
    ASSERT_TRUE(sky);
    EXPECT_EQ(sky->base, "env/night");
    EXPECT_EQ(sky->sources[0], "env/nightrt.png");
    EXPECT_EQ(sky->sources[5], "env/nightdn.pcx");
    EXPECT_EQ(sky->faces[0].width, 2);
    EXPECT_EQ(sky->faces[5].rgba, (Bytes{3, 252, 7, 255}));
    EXPECT_FALSE(content::loadSkyBox(vfs, ""));
    EXPECT_FALSE(content::loadSkyBox(vfs, "env/other"));
}

TEST(GameDir, NearestGameDataWinsAndGfxMarksAGameFolder) {
    TempDir tmp;
    writeText(tmp / "maps/q2/aq.pak", "PACK");
    writeText(tmp / "maps/q2/x.bsp", "IBSP");
    writeText(tmp / "maps/q1/gfx/palette.lmp", "pal");
    writeText(tmp / "maps/q1/y.bsp", "BSP");
    writeText(tmp / "maps/hl/z.bsp", "BSP");
    writeText(tmp / "elsewhere/gfx/palette.lmp", "pal");
    writeText(tmp / "elsewhere/w.bsp", "BSP");
    EXPECT_EQ(content::findGameDir(tmp / "maps/q2/x.bsp"), tmp / "maps/q2");
    EXPECT_EQ(content::findGameDir(tmp / "maps/q1/y.bsp"), tmp / "maps/q1");
    EXPECT_EQ(content::findGameDir(tmp / "maps/hl/z.bsp"), tmp.path());
    EXPECT_EQ(content::findGameDir(tmp / "elsewhere/w.bsp"), tmp / "elsewhere");
}
