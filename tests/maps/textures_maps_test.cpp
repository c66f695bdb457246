// Quake 1, Half-Life, Quake 2 and Source maps get their real textures through
// scene::loadMapBundle: embedded miptex with gfx/palette.lmp, Half-Life WAD lookups, Quake 2
// .wal files from q2/aq_textures.pak, Quake 2 texture sizes applied to the uv, sky boxes, and
// Source .vmt / .vtf from a folder or a VPK (see BSPV_SHARED_MAPS_DIR/SOURCES.md). A missing
// map file fails.
#include "content/vfs/wad.h"
#include "scene/load/map_bundle.h"
#include "support/vtf_builder.h"
#include "unit/vpk_builder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

namespace fs = std::filesystem;

namespace {

const fs::path kMaps = BSPV_SHARED_MAPS_DIR;

std::unique_ptr<scene::MapBundle> load(const std::string& relative) {
    const fs::path path = kMaps / relative;
    EXPECT_TRUE(fs::exists(path)) << path;
    auto bundle = scene::loadMapBundle(path.string(), {});
    EXPECT_TRUE(bundle) << (bundle ? "" : bundle.error().message());
    if (!bundle)
        return nullptr;
    EXPECT_EQ((*bundle)->textures.size(), (*bundle)->map.materials.size());
    return std::move(*bundle);
}

// Names of materials with a name whose texture is missing (unused miptex slots have none).
std::vector<std::string> missingNames(const scene::MapBundle& b) {
    std::vector<std::string> out;
    for (size_t i = 0; i < b.textures.size(); ++i)
        if (!b.map.materials[i].name.empty() && b.textures[i].missing)
            out.push_back(b.map.materials[i].name);
    return out;
}

bool hasTransparentTexel(const content::Image& image) {
    for (size_t i = 3; i < image.rgba.size(); i += 4)
        if (image.rgba[i] == 0)
            return true;
    return false;
}

// Distinct colours (up to 1000), to tell decoded textures from flat or blank ones. Some real
// textures are flat ("black", "white", "sky"), so callers check most textures, not each.
size_t distinctColours(const content::Image& image) {
    std::set<uint32_t> colours;
    for (size_t i = 0; i + 3 < image.rgba.size() && colours.size() < 1000; i += 4)
        colours.insert(uint32_t(image.rgba[i]) << 16 | uint32_t(image.rgba[i + 1]) << 8 |
                       image.rgba[i + 2]);
    return colours.size();
}

void expectAllQuake1Resolved(const std::string& relative, bool palette_file) {
    SCOPED_TRACE(relative);
    auto b = load(relative);
    ASSERT_TRUE(b);
    EXPECT_EQ(missingNames(*b), std::vector<std::string>{});
    EXPECT_TRUE(b->missing_textures.empty());
    size_t named = 0, glowing = 0, fences = 0;
    for (size_t i = 0; i < b->textures.size(); ++i) {
        const bsp::Material& m = b->map.materials[i];
        const content::TextureInfo& t = b->textures[i];
        if (m.name.empty())
            continue;
        ++named;
        EXPECT_TRUE(t.image.valid()) << m.name;
        EXPECT_EQ(t.image.width, m.width) << m.name;
        EXPECT_EQ(t.image.height, m.height) << m.name;
        EXPECT_EQ(t.source.rfind("<embedded> + ", 0), 0u) << t.source;
        if (palette_file)
            EXPECT_NE(t.source.find("gfx/palette.lmp"), std::string::npos) << t.source;
        else
            EXPECT_NE(t.source.find("built-in palette"), std::string::npos) << t.source;
        if (t.glow.width > 0) {
            ++glowing;
            EXPECT_TRUE(t.glow.valid());
            EXPECT_EQ(t.glow.width, t.image.width);
            EXPECT_EQ(t.glow.height, t.image.height);
            EXPECT_FALSE(m.flags & bsp::kSurfSky) << m.name;
        }
        if (m.name[0] == '{') {
            ++fences;
            EXPECT_TRUE(hasTransparentTexel(t.image)) << m.name;
        } else {
            EXPECT_FALSE(hasTransparentTexel(t.image)) << m.name;
        }
    }
    EXPECT_GT(named, 0u);
    EXPECT_GT(glowing, 0u) << "Quake 1 maps use fullbright texels (lights, lava)";
    if (relative == "q1/lq_start.bsp") {
        EXPECT_EQ(fences, 18u);
    }
}

} // namespace

TEST(Quake1Textures, LqStartAllEmbeddedWithPaletteFile) {
    expectAllQuake1Resolved("q1/lq_start.bsp", true);
}
TEST(Quake1Textures, LqE1m1AllEmbeddedWithPaletteFile) {
    expectAllQuake1Resolved("q1/lq_e1m1.bsp", true);
}
TEST(Quake1Textures, PdLavaAllEmbeddedWithPaletteFile) {
    expectAllQuake1Resolved("q1/pd_lava.bsp", true);
}
// q1bsp2/ has no gfx/ beside it: the built-in palette stands in.
TEST(Quake1Textures, LqLq1m1Bsp2AllEmbeddedWithBuiltInPalette) {
    expectAllQuake1Resolved("q1bsp2/lq_lq1m1.bsp", false);
}

TEST(Quake1Textures, GlowHoldsExactlyTheFullbrightTexels) {
    auto b = load("q1/lq_start.bsp");
    ASSERT_TRUE(b);
    size_t checked = 0;
    for (size_t i = 0; i < b->textures.size(); ++i) {
        const content::TextureInfo& t = b->textures[i];
        const int32_t e = b->map.materials[i].embedded;
        if (t.glow.width == 0 || e < 0)
            continue;
        const auto& indices = b->map.embedded_textures[size_t(e)].indices;
        ASSERT_EQ(indices.size() * 4, t.glow.rgba.size());
        for (size_t k = 0; k < indices.size(); ++k) {
            const bool bright = indices[k] >= 224 && indices[k] <= 254;
            EXPECT_EQ(t.glow.rgba[k * 4 + 3], bright ? 255 : 0);
            if (bright) {
                EXPECT_TRUE(std::equal(t.glow.rgba.begin() + std::ptrdiff_t(k * 4),
                                       t.glow.rgba.begin() + std::ptrdiff_t(k * 4 + 3),
                                       t.image.rgba.begin() + std::ptrdiff_t(k * 4)));
            }
        }
        ++checked;
    }
    EXPECT_GT(checked, 0u);
}

TEST(HalfLifeTextures, EmbeddedTexturesUseTheirOwnPalettes) {
    for (const char* name : {"hl/cs_fy_pool_day.bsp", "hl/cs_awp_india.bsp"}) {
        SCOPED_TRACE(name);
        auto b = load(name);
        ASSERT_TRUE(b);
        EXPECT_EQ(missingNames(*b), std::vector<std::string>{});
        size_t fences = 0, named = 0, colourful = 0;
        for (size_t i = 0; i < b->textures.size(); ++i) {
            const bsp::Material& m = b->map.materials[i];
            const content::TextureInfo& t = b->textures[i];
            if (m.name.empty())
                continue;
            ++named;
            EXPECT_EQ(t.source, "<embedded>") << m.name;
            EXPECT_EQ(t.glow.width, 0) << m.name;
            colourful += distinctColours(t.image) >= 8;
            if (m.name[0] == '{') {
                ++fences;
                EXPECT_TRUE(hasTransparentTexel(t.image)) << m.name;
            }
        }
        EXPECT_GE(colourful * 4, named * 3); // at least 3 in 4
        if (std::string(name) == "hl/cs_awp_india.bsp") {
            EXPECT_EQ(fences, 1u);
        }
    }
}

TEST(HalfLifeTextures, ExternalTexturesWithoutTheirWadsAreMissing) {
    auto weapons = load("hl/freehl_test_weapons.bsp");
    ASSERT_TRUE(weapons);
    EXPECT_EQ(missingNames(*weapons),
              (std::vector<std::string>{"c1a0_labflrc", "c1a0_wx", "c2a4e_w1"}));
    EXPECT_EQ(weapons->missing_textures.size(), 3u);
    for (const auto& t : weapons->textures) {
        EXPECT_NE(t.error.find("halflife.wad"), std::string::npos) << t.error;
        EXPECT_TRUE(t.image.valid());
    }

    auto train = load("hl/jf_trainride2.bsp");
    ASSERT_TRUE(train);
    EXPECT_EQ(train->map.materials.size(), 53u);
    EXPECT_EQ(missingNames(*train).size(), 53u);
    EXPECT_EQ(train->profile.materials.wads,
              (std::vector<std::string>{"halflife.wad", "liquids.wad"}));
}

TEST(Quake2Textures, WalFilesFromThePakBesideTheMaps) {
    // Every texinfo name but the tool texture e1u1/origin is in aq_textures.pak.
    const std::pair<const char*, size_t> maps[] = {
        {"q2/aq_credits.bsp", 0}, {"q2/aq_wizs.bsp", 0}, {"q2/aq_urbanjungle.bsp", 24}};
    size_t all_resolved = 0, colourful = 0; // credits.bsp's textures are mostly flat
    for (const auto& [name, origin_count] : maps) {
        SCOPED_TRACE(name);
        auto b = load(name);
        ASSERT_TRUE(b);
        const auto missing = missingNames(*b);
        EXPECT_EQ(missing.size(), origin_count);
        for (const auto& n : missing)
            EXPECT_EQ(n, "e1u1/origin");
        size_t resolved = 0;
        for (size_t i = 0; i < b->textures.size(); ++i) {
            const bsp::Material& m = b->map.materials[i];
            const scene::ResolvedMaterial& rm = b->materials[i];
            const content::TextureInfo& t = b->textures[i];
            // Sizes resolved before the mesh: every material's texel uv are divided by them
            // (the map itself keeps its texel uv).
            EXPECT_TRUE(m.uv_in_texels) << m.name;
            EXPECT_TRUE(rm.divide_uv) << m.name;
            EXPECT_GT(rm.width, 0) << m.name;
            EXPECT_EQ(rm.width, t.image.width) << m.name;
            EXPECT_EQ(rm.height, t.image.height) << m.name;
            if (t.missing)
                continue;
            ++resolved;
            EXPECT_EQ(t.origin, "aq_textures.pak") << m.name;
            EXPECT_EQ(t.source.size() > 4 ? t.source.substr(t.source.size() - 4) : "", ".wal");
            colourful += distinctColours(t.image) >= 8;
        }
        EXPECT_GT(resolved, 0u);
        all_resolved += resolved;
    }
    EXPECT_GE(colourful * 4, all_resolved * 3); // at least 3 in 4
}

TEST(Quake2Textures, MixedCaseNamesResolve) {
    auto b = load("q2/aq_urbanjungle.bsp");
    ASSERT_TRUE(b);
    size_t mixed = 0;
    for (size_t i = 0; i < b->textures.size(); ++i) {
        const std::string& n = b->map.materials[i].name;
        if (std::any_of(n.begin(), n.end(), [](char c) { return c >= 'A' && c <= 'Z'; })) {
            ++mixed;
            EXPECT_FALSE(b->textures[i].missing) << n;
        }
    }
    EXPECT_GT(mixed, 0u);
}

TEST(Quake2Textures, UvDividedByTheWalSize) {
    // The mesh is built after the sizes are known: the vertices of a face of a 64-texel
    // texture span uv in repeats, not in texels (a wall spans at most a few dozen repeats).
    // The map keeps its texel uv.
    auto b = load("q2/aq_wizs.bsp");
    ASSERT_TRUE(b);
    float max_uv = 0.0f, max_map_uv = 0.0f;
    for (const scene::WorldVertex& v : b->mesh.vertices)
        max_uv = std::max({max_uv, std::abs(v.uv.x), std::abs(v.uv.y)});
    for (const bsp::Vertex& v : b->map.vertices)
        max_map_uv = std::max({max_map_uv, std::abs(v.uv.x), std::abs(v.uv.y)});
    EXPECT_GT(max_uv, 0.0f);
    EXPECT_LT(max_uv, 400.0f) << "uv still in texels?";
    EXPECT_GT(max_map_uv, 400.0f) << "the map's texel uv were written";
}

TEST(SkyBoxes, Quake2Night1FromThePak) {
    auto b = load("q2/aq_wizs.bsp");
    ASSERT_TRUE(b);
    EXPECT_EQ(b->profile.skybox, "env/night1");
    ASSERT_TRUE(b->skybox.has_value());
    for (size_t i = 0; i < 6; ++i) {
        EXPECT_TRUE(b->skybox->faces[i].valid()) << i;
        EXPECT_EQ(b->skybox->sources[i],
                  "env/night1" + std::string(content::kSkyFaceSuffixes[i]) + ".tga");
    }
}

// A named box whose files are not shipped gives the game's fallback box (game::SkyFallback):
// Yamagi's 8x8 gl3_notexture for Quake 2, Xash3D's 1x1 grey for Half-Life.
TEST(SkyBoxes, NamesFromWorldspawnWithoutFilesGiveTheGamesFallback) {
    auto urban = load("q2/aq_urbanjungle.bsp");
    ASSERT_TRUE(urban);
    EXPECT_EQ(urban->profile.skybox, "env/grimmnight_");
    ASSERT_TRUE(urban->skybox.has_value()); // not shipped: the fallback
    EXPECT_EQ(urban->skybox->base, "fallback");
    EXPECT_EQ(urban->skybox->faces[0].width, 8);
    auto pool = load("hl/cs_fy_pool_day.bsp");
    ASSERT_TRUE(pool);
    EXPECT_EQ(pool->profile.skybox, "gfx/env/desert");
    ASSERT_TRUE(pool->skybox.has_value());
    EXPECT_EQ(pool->skybox->base, "fallback");
    EXPECT_EQ(pool->skybox->faces[0].rgba, (std::vector<uint8_t>{127, 127, 127, 255}));
    auto india = load("hl/cs_awp_india.bsp");
    ASSERT_TRUE(india);
    EXPECT_EQ(india->profile.skybox, "gfx/env/trainyard");
}

// hl/hl_currents.wad (a free WAD3): external textures resolve from a WAD found on disk in a
// search folder, its name matched ignoring case; names it lacks stay missing.
TEST(HalfLifeTextures, ExternalTexturesFromAWadOnDisk) {
    const fs::path wad_path = kMaps / "hl/hl_currents.wad";
    ASSERT_TRUE(fs::exists(wad_path));
    bsp::Map map;
    map.format = bsp::Format::HalfLife;
    game::MaterialSource wads;
    wads.wads = {"nothere.wad", "HL_Currents.WAD"};
    {
        content::FileSystem probe;
        ASSERT_TRUE(probe.addDirectory(kMaps / "hl"));
        auto bytes = probe.read("hl_currents.wad");
        ASSERT_TRUE(bytes);
        auto wad = content::Wad::parse(std::move(*bytes));
        ASSERT_TRUE(wad);
        for (const content::WadEntry& e : wad->entries()) {
            auto tex = wad->miptex(e.name);
            if (!tex)
                continue;
            bsp::Material m;
            m.name = e.name;
            m.width = tex->width;
            m.height = tex->height;
            map.materials.push_back(m);
        }
    }
    ASSERT_FALSE(map.materials.empty());
    bsp::Material absent;
    absent.name = "not_in_wad";
    absent.width = absent.height = 16;
    map.materials.push_back(absent);

    const content::FileSystem empty;
    const std::vector<fs::path> dirs = {kMaps / "q1", kMaps / "hl"};
    const auto sources = content::loadPalettedSources(map, empty, wads, dirs);
    EXPECT_EQ(sources.missing_wads, std::vector<std::string>{"nothere.wad"});
    ASSERT_EQ(sources.wads.size(), 1u);
    EXPECT_EQ(sources.wads[0].origin, wad_path.string());
    const auto tex = content::loadMaterialTextures(map, empty, sources, 2);
    ASSERT_EQ(tex.size(), map.materials.size());
    for (size_t i = 0; i + 1 < tex.size(); ++i) {
        EXPECT_FALSE(tex[i].missing) << map.materials[i].name;
        EXPECT_EQ(tex[i].source, "<wad> HL_Currents.WAD");
        EXPECT_EQ(tex[i].image.width, map.materials[i].width);
        EXPECT_TRUE(tex[i].image.valid());
    }
    EXPECT_TRUE(tex.back().missing);
    EXPECT_NE(tex.back().error.find("nothere.wad"), std::string::npos) << tex.back().error;
}

namespace {

// A 4x4 VTF 7.2 in BGRA8888, one mip, every texel (r, g, b), opaque.
using testsupport::solidVtf;

const char* const kDevVmt = "\"LightmappedGeneric\"\n{\n\t\"$basetexture\" \"dev/red\"\n}\n";

void expectDevMaterialFrom(const fs::path& base, const std::string& origin_ends) {
    scene::LoadSettings settings;
    settings.base_dirs.push_back(base);
    settings.texture_cache_dir.reset();
    auto bundle =
        scene::loadMapBundle((kMaps / "source" / "momentum_mp_lobby.bsp").string(), settings);
    ASSERT_TRUE(bundle) << bundle.error().message();
    const scene::MapBundle& b = **bundle;
    size_t dev = 0;
    for (size_t i = 0; i < b.textures.size(); ++i) {
        if (b.map.materials[i].name != "DEV/DEV_MEASUREGENERIC01B")
            continue;
        ++dev;
        const content::TextureInfo& t = b.textures[i];
        EXPECT_FALSE(t.missing) << t.error;
        EXPECT_EQ(t.source, "materials/dev/red.vtf");
        EXPECT_TRUE(t.origin.ends_with(origin_ends)) << t.origin;
        ASSERT_TRUE(t.image.valid());
        EXPECT_EQ(t.image.rgba[0], 255);
        EXPECT_EQ(t.image.rgba[1], 0);
        EXPECT_EQ(t.image.rgba[2], 0);
    }
    EXPECT_GT(dev, 0u);
    EXPECT_TRUE(b.missing_textures.empty());
}

} // namespace

// Source materials are .vmt files wherever they lie, never WAD or .wal textures (a texdata
// size looks like a Half-Life external miptex): momentum_mp_lobby's DEV/DEV_MEASUREGENERIC01B
// from a --base folder and from a --base _dir.vpk.
TEST(SourceTextures, VmtAndVtfFromABaseFolderAndAVpk) {
    const fs::path dir = fs::path(testing::TempDir()) / "bspv_source_textures";
    fs::remove_all(dir);
    fs::create_directories(dir / "game/materials/dev");
    const auto vtf = solidVtf(255, 0, 0);
    {
        std::ofstream(dir / "game/materials/dev/dev_measuregeneric01b.vmt") << kDevVmt;
        std::ofstream out(dir / "game/materials/dev/red.vtf", std::ios::binary);
        out.write(reinterpret_cast<const char*>(vtf.data()), std::streamsize(vtf.size()));
    }
    expectDevMaterialFrom(dir / "game", "game");

    std::vector<vpk_test::FileSpec> files(2);
    files[0].ext = "vmt";
    files[0].path = "materials/dev";
    files[0].file = "dev_measuregeneric01b";
    files[0].data = kDevVmt;
    files[1].ext = "vtf";
    files[1].path = "materials/dev";
    files[1].file = "red";
    files[1].data.assign(vtf.begin(), vtf.end());
    const auto built = vpk_test::buildVpk(files, 1);
    {
        std::ofstream out(dir / "pak01_dir.vpk", std::ios::binary);
        out.write(reinterpret_cast<const char*>(built.dir.data()),
                  std::streamsize(built.dir.size()));
    }
    expectDevMaterialFrom(dir / "pak01_dir.vpk", "pak01_dir.vpk");
    fs::remove_all(dir);
}

// Source: worldspawn "skyname" names materials/skybox/NAME{rt,bk,lf,ft,up,dn}.vmt. The Team
// Fortress 2 maps name sky_tf2_04, which only the game's VPKs hold: no sky box and a warning
// naming the first face looked for. Faces in a --base folder load through their .vmt.
TEST(SkyBoxes, SourceSkynameFromABaseFolderElseAWarning) {
    const fs::path lobby = kMaps / "source" / "tf2_mp_lobby.bsp";
    scene::LoadSettings settings;
    settings.texture_cache_dir.reset();
    auto bare = scene::loadMapBundle(lobby.string(), settings);
    ASSERT_TRUE(bare) << bare.error().message();
    EXPECT_EQ((*bare)->profile.skybox, "skybox/sky_tf2_04");
    EXPECT_FALSE((*bare)->skybox.has_value());
    const auto& warnings = (*bare)->warnings;
    EXPECT_NE(std::find(warnings.begin(), warnings.end(),
                        "sky box skybox/sky_tf2_04 not loaded: "
                        "materials/skybox/sky_tf2_04rt.vmt: not found"),
              warnings.end())
        << ::testing::PrintToString(warnings);

    const fs::path dir = fs::path(testing::TempDir()) / "bspv_source_sky";
    fs::remove_all(dir);
    fs::create_directories(dir / "materials/skybox");
    for (size_t i = 0; i < 6; ++i) {
        const std::string face = "sky_tf2_04" + std::string(content::kSkyFaceSuffixes[i]);
        std::ofstream(dir / "materials/skybox" / (face + ".vmt"))
            << "\"Sky\"\n{\n\t\"$basetexture\" \"skybox/" << face << "\"\n}\n";
        const auto vtf = solidVtf(uint8_t(40 * i), uint8_t(200 - 30 * i), 7);
        std::ofstream(dir / "materials/skybox" / (face + ".vtf"), std::ios::binary)
            .write(reinterpret_cast<const char*>(vtf.data()), std::streamsize(vtf.size()));
    }
    settings.base_dirs.push_back(dir);
    auto with = scene::loadMapBundle(lobby.string(), settings);
    ASSERT_TRUE(with) << with.error().message();
    const auto& sky = (*with)->skybox;
    ASSERT_TRUE(sky.has_value());
    EXPECT_EQ(sky->base, "skybox/sky_tf2_04");
    for (size_t i = 0; i < 6; ++i) {
        EXPECT_EQ(sky->sources[i], "materials/skybox/sky_tf2_04" +
                                       std::string(content::kSkyFaceSuffixes[i]) + ".vtf");
        ASSERT_EQ(sky->faces[i].width, 4);
        EXPECT_EQ(sky->faces[i].rgba[0], uint8_t(40 * i)) << i;
        EXPECT_EQ(sky->faces[i].rgba[1], uint8_t(200 - 30 * i)) << i;
        EXPECT_EQ(sky->faces[i].rgba[2], 7) << i;
    }
    for (const std::string& w : (*with)->warnings)
        EXPECT_EQ(w.find("sky box"), std::string::npos) << w;
    fs::remove_all(dir);
}

// Missing textures are counted by name (case ignored, as the games' file systems do), with the
// faces each covers: Quake 2's texinfos of one texture and Source's materials listed twice count
// once. Sky, no-draw and unnamed materials are left out.
TEST(MissingTextures, OneEntryPerNameWithItsFaces) {
    bsp::Map map;
    const char* names[] = {"e1u1/origin", "E1U1/Origin",     "e1u1/floor", "sky1", "",
                           "e1u1/clip",   "props_2fort/wall"};
    for (const char* n : names) {
        bsp::Material m;
        m.name = n;
        map.materials.push_back(m);
    }
    scene::MaterialTable table(map.materials.size());
    table[3].flags = bsp::kSurfSky;
    table[5].flags = bsp::kSurfNoDraw;
    std::vector<content::TextureInfo> textures(map.materials.size());
    for (size_t i = 0; i < textures.size(); ++i)
        textures[i].missing = i != 2;
    for (int32_t m : {0, 0, 1, 2, 2, 2, 3, 4, 5, 6}) {
        bsp::Face f;
        f.material = m;
        map.faces.push_back(f);
    }
    uint32_t names_drawn = 0;
    const auto missing = scene::missingTextures(map, game::MaterialFiles::ValveMaterials, textures,
                                                table, &names_drawn);
    ASSERT_EQ(missing.size(), 2u);
    EXPECT_EQ(missing[0], (scene::MissingTexture{"e1u1/origin", 3, ""}));
    EXPECT_EQ(missing[1], (scene::MissingTexture{"props_2fort/wall", 1, "Team Fortress 2"}));
    EXPECT_EQ(names_drawn, 3u); // e1u1/origin, e1u1/floor, props_2fort/wall
}
