// 8-bit texture decoders: palettes, Quake / Half-Life miptex, WAD3, Quake 2 .wal and PCX.
#include "bsp/edge_faces.h"
#include "bsp/load.h"
#include "content/image/embedded_texture.h"
#include "content/image/miptex.h"
#include "content/image/palette.h"
#include "content/image/pcx.h"
#include "content/image/wal.h"
#include "content/vfs/wad.h"
#include "core/byte_reader.h"
#include "core/file.h"
#include "game/profile.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <random>

namespace fs = std::filesystem;

namespace {

const fs::path kMaps = BSPV_SHARED_MAPS_DIR;

std::vector<uint8_t> readOrFail(const fs::path& p) {
    auto r = core::readFile(p);
    EXPECT_TRUE(r.ok()) << p;
    return r.ok() ? *r : std::vector<uint8_t>{};
}

// Minimal PACK reader for the test data (the real one lives in content/vfs).
std::vector<uint8_t> pakMember(const std::vector<uint8_t>& pak, const std::string& name) {
    const core::ByteReader r(pak);
    const uint32_t dir = r.u32(4), len = r.u32(8);
    for (uint32_t i = 0; i < len / 64; ++i) {
        const uint64_t at = uint64_t(dir) + uint64_t(i) * 64;
        if (r.fixedString(at, 56) == name) {
            const auto b = r.sub(r.u32(at + 56), r.u32(at + 60)).bytes();
            return std::vector<uint8_t>(b.begin(), b.end());
        }
    }
    ADD_FAILURE() << name << " not in pak";
    return {};
}

const std::vector<uint8_t>& q2Pak() {
    static const std::vector<uint8_t> pak = readOrFail(kMaps / "q2/aq_textures.pak");
    return pak;
}

} // namespace

TEST(Palette, DefaultIsLibreQuakePalette) {
    const auto file = readOrFail(kMaps / "q1/gfx/palette.lmp");
    ASSERT_EQ(file.size(), 768u);
    const auto& p = content::defaultQuakePalette();
    EXPECT_TRUE(std::equal(file.begin(), file.end(), p.rgb.begin()));
    auto parsed = content::parsePalette(file);
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(parsed->rgb, p.rgb);
    EXPECT_EQ(content::parsePalette(std::span<const uint8_t>(file.data(), 767)).error().code,
              core::ErrorCode::BadImage);
}

TEST(Miptex, QuakeEmbeddedTexturesFenceAndFullbright) {
    auto map = bsp::loadMapFile(kMaps / "q1/lq_start.bsp");
    ASSERT_TRUE(map.ok());
    const auto& pal = content::defaultQuakePalette();
    int fences = 0, with_fullbright = 0;
    for (const auto& m : map->materials) {
        if (m.embedded < 0)
            continue;
        const auto& t = map->embedded_textures[size_t(m.embedded)];
        auto d = content::decodeQuakeMiptex(m.name, t.width, t.height, t.indices);
        ASSERT_TRUE(d.ok()) << m.name;
        ASSERT_EQ(d->colour.rgba.size(), t.indices.size() * 4);
        const bool fence = m.name[0] == '{';
        fences += fence;
        bool any_fb = false;
        for (size_t i = 0; i < t.indices.size(); ++i) {
            const uint8_t c = t.indices[i];
            const uint8_t* px = d->colour.rgba.data() + i * 4;
            const bool transparent = fence && c == 255;
            ASSERT_EQ(px[3], transparent ? 0 : 255);
            if (!transparent) {
                ASSERT_EQ(px[0], pal.rgb[c * 3u]);
                ASSERT_EQ(px[2], pal.rgb[c * 3u + 2]);
            }
            const bool fb = c >= 224 && c <= 254;
            ASSERT_EQ(d->fullbright[i], fb ? 255 : 0);
            any_fb |= fb;
        }
        EXPECT_EQ(d->has_fullbright, any_fb);
        with_fullbright += any_fb;
    }
    EXPECT_EQ(fences, 18);
    EXPECT_GT(with_fullbright, 0);
}

TEST(Miptex, HalfLifeOwnPaletteAndFence) {
    auto map = bsp::loadMapFile(kMaps / "hl/cs_awp_india.bsp");
    ASSERT_TRUE(map.ok());
    const content::ByteTable table = game::texGammaTable(2.5f, 2.0f);
    int fences = 0;
    for (const auto& m : map->materials) {
        if (m.embedded < 0)
            continue;
        const auto& t = map->embedded_textures[size_t(m.embedded)];
        auto pal = content::parsePalette(t.palette);
        ASSERT_TRUE(pal.ok());
        auto d = content::decodeHalfLifeMiptex(m.name, t.width, t.height, t.indices, *pal);
        ASSERT_TRUE(d.ok());
        const bool fence = m.name[0] == '{';
        fences += fence;
        size_t clear = 0, idx255 = 0;
        for (size_t i = 0; i < t.indices.size(); ++i) {
            clear += d->rgba[i * 4 + 3] == 0;
            idx255 += t.indices[i] == 255;
            if (t.indices[i] != 255 || !fence) {
                ASSERT_EQ(d->rgba[i * 4 + 1], t.palette[t.indices[i] * 3u + 1]);
            }
        }
        EXPECT_EQ(clear, fence ? idx255 : 0u) << m.name;
        if (fence) {
            EXPECT_GT(idx255, 0u);
        }
        // Through Half-Life's texgammatable: every byte mapped, '{' cut-outs as stored.
        auto g = content::decodeHalfLifeMiptex(m.name, t.width, t.height, t.indices, *pal, &table);
        ASSERT_TRUE(g.ok());
        for (size_t i = 0; i < t.indices.size(); ++i)
            if (t.indices[i] != 255 || !fence) {
                const uint8_t stored = t.palette[t.indices[i] * 3u];
                ASSERT_EQ(g->rgba[i * 4], fence ? stored : table[stored]) << m.name << " " << i;
            }
    }
    EXPECT_GE(fences, 1);
    // Too few pixels is an error, not a read past the end.
    EXPECT_FALSE(content::decodeHalfLifeMiptex("x", 16, 16, std::vector<uint8_t>(255),
                                               content::defaultQuakePalette())
                     .ok());
}

TEST(Wad, Wad3CurrentsCaseInsensitive) {
    auto wad = content::Wad::parse(readOrFail(kMaps / "hl/hl_currents.wad"), "hl_currents.wad");
    ASSERT_TRUE(wad.ok()) << wad.error().message();
    EXPECT_TRUE(wad->isWad3());
    ASSERT_EQ(wad->entries().size(), 6u);
    EXPECT_EQ(wad->entries()[0].name, "!cur_0");
    ASSERT_NE(wad->find("!CUR_90"), nullptr);
    EXPECT_EQ(wad->find("!CUR_90")->name, "!cur_90");
    EXPECT_EQ(wad->find("nope"), nullptr);
    auto mt = wad->miptex("!Cur_Up");
    ASSERT_TRUE(mt.ok()) << mt.error().message();
    EXPECT_EQ(mt->name, "!cur_up");
    EXPECT_EQ(mt->width, 64);
    EXPECT_EQ(mt->height, 64);
    ASSERT_TRUE(mt->palette.has_value());
    auto rgba =
        content::decodeHalfLifeMiptex(mt->name, mt->width, mt->height, mt->indices, *mt->palette);
    ASSERT_TRUE(rgba.ok());
    EXPECT_EQ(rgba->rgba.size(), 64u * 64u * 4u);
    EXPECT_EQ(wad->miptex("missing").error().code, core::ErrorCode::NotFound);
}

TEST(Wad, EveryPrefixFailsCleanly) {
    const auto bytes = readOrFail(kMaps / "hl/hl_currents.wad");
    ASSERT_FALSE(bytes.empty());
    for (size_t n = 0; n < bytes.size(); ++n) {
        auto wad = content::Wad::parse(std::vector<uint8_t>(bytes.begin(), bytes.begin() + n));
        ASSERT_FALSE(wad.ok()) << n; // the directory is at the end of the file
    }
    // A directory entry pointing past the end.
    auto bad = bytes;
    const uint32_t huge = 0x7ffffff0;
    std::memcpy(bad.data() + 0x9294, &huge, 4);
    EXPECT_EQ(content::Wad::parse(bad).error().code, core::ErrorCode::BadArchive);
    // A miptex whose pixel offset lies outside its entry.
    auto bad_mt = bytes;
    std::memcpy(bad_mt.data() + 12 + 24, &huge, 4);
    auto wad = content::Wad::parse(bad_mt);
    ASSERT_TRUE(wad.ok());
    EXPECT_EQ(wad->miptex("!cur_0").error().code, core::ErrorCode::BadImage);
}

TEST(Pcx, ColormapPaletteAndSky) {
    const auto colormap = pakMember(q2Pak(), "pics/colormap.pcx");
    auto img = content::decodePcx(colormap);
    ASSERT_TRUE(img.ok()) << img.error().message();
    EXPECT_EQ(img->width, 256);
    EXPECT_EQ(img->height, 320);
    auto pal = content::paletteFromPcx(colormap);
    ASSERT_TRUE(pal.ok());
    EXPECT_EQ(pal->rgb, img->palette.rgb);
    EXPECT_TRUE(std::equal(colormap.end() - 768, colormap.end(), pal->rgb.begin()));
    const auto sky = pakMember(q2Pak(), "env/night1bk.pcx");
    auto sky_img = content::decodePcx(sky);
    ASSERT_TRUE(sky_img.ok()) << sky_img.error().message();
    auto rgba = content::pcxToRgba(*sky_img);
    ASSERT_TRUE(rgba.ok());
    EXPECT_EQ(rgba->rgba.size(), size_t(sky_img->width) * sky_img->height * 4);
}

TEST(Pcx, HandMadeRunsAcrossLinesAndHostileHeaders) {
    // 3x2 image, bytes_per_line 4: one run of 5 x 7 crosses the line end, a 0xc0 empty run,
    // then literal 9, 9, 9.
    std::vector<uint8_t> f(128, 0);
    f[0] = 0x0a;
    f[1] = 5;
    f[2] = 1;
    f[3] = 8;
    f[8] = 2;  // xmax
    f[10] = 1; // ymax
    f[65] = 1;
    f[66] = 4; // bytes per line
    for (uint8_t b :
         {uint8_t(0xc5), uint8_t(7), uint8_t(0xc0), uint8_t(1), uint8_t(9), uint8_t(9), uint8_t(9)})
        f.push_back(b);
    f.push_back(0x0c);
    for (int i = 0; i < 768; ++i)
        f.push_back(uint8_t(i / 3));
    auto img = content::decodePcx(f);
    ASSERT_TRUE(img.ok()) << img.error().message();
    EXPECT_EQ(img->indices, (std::vector<uint8_t>{7, 7, 7, 7, 9, 9}));
    // Every prefix fails: the palette sits at the end.
    for (size_t n = 0; n < f.size(); ++n)
        ASSERT_FALSE(content::decodePcx(std::span<const uint8_t>(f.data(), n)).ok()) << n;
    auto huge = f;
    huge[8] = huge[9] = 0xff; // 65536 wide
    EXPECT_EQ(content::decodePcx(huge).error().code, core::ErrorCode::BadImage);
    auto short_data = f;
    short_data[10] = 200; // 201 lines from 7 bytes of data
    EXPECT_EQ(content::decodePcx(short_data).error().code, core::ErrorCode::Truncated);
}

TEST(Wal, DecodeWithColormapPalette) {
    const auto colormap = pakMember(q2Pak(), "pics/colormap.pcx");
    auto pal = content::paletteFromPcx(colormap);
    ASSERT_TRUE(pal.ok());
    const auto wal = pakMember(q2Pak(), "textures/a_rok2/tre3sw_1.wal");
    auto w = content::parseWal(wal);
    ASSERT_TRUE(w.ok()) << w.error().message();
    EXPECT_EQ(w->name, "tre3sw_1"); // the tool wrote garbage after the NUL
    EXPECT_EQ(w->width, 64);
    EXPECT_EQ(w->height, 128);
    EXPECT_EQ(w->anim_name, "");
    EXPECT_EQ(size_t(w->width) * w->height, w->indices.size());
    auto rgba = content::decodeWal(wal, *pal);
    ASSERT_TRUE(rgba.ok());
    EXPECT_EQ(rgba->width, w->width);
    for (size_t i = 0; i < w->indices.size(); ++i) {
        const uint8_t c = w->indices[i];
        ASSERT_EQ(rgba->rgba[i * 4 + 3], c == 255 ? 0 : 255);
        if (c != 255) {
            ASSERT_EQ(rgba->rgba[i * 4], pal->rgb[c * 3u]);
        }
    }
    // Truncated .wal: every prefix shorter than header + level-0 pixels is a clean error.
    const size_t need = 100 + size_t(w->width) * w->height;
    ASSERT_LE(need, wal.size());
    for (size_t n = 0; n < need; n += 7)
        ASSERT_FALSE(content::parseWal(std::span<const uint8_t>(wal.data(), n)).ok()) << n;
    EXPECT_EQ(content::parseWal(std::span<const uint8_t>(wal.data(), 50)).error().code,
              core::ErrorCode::Truncated);
}

// A WAD2 (Quake) built from an embedded texture of lq_start: no palette in the record.
TEST(Wad, Wad2FromEmbeddedTexture) {
    auto map = bsp::loadMapFile(kMaps / "q1/lq_start.bsp");
    ASSERT_TRUE(map.ok());
    const bsp::Material* mat = nullptr;
    for (const auto& m : map->materials)
        if (m.embedded >= 0 && m.width == 64 && m.height == 64) {
            mat = &m;
            break;
        }
    ASSERT_NE(mat, nullptr);
    const auto& tex = map->embedded_textures[size_t(mat->embedded)];
    std::vector<uint8_t> rec(40, 0);
    std::memcpy(rec.data(), mat->name.data(), std::min<size_t>(mat->name.size(), 15));
    const uint32_t hdr[6] = {64, 64, 40, 40 + 4096, 40 + 4096 + 1024, 40 + 4096 + 1024 + 256};
    std::memcpy(rec.data() + 16, hdr, sizeof hdr);
    rec.insert(rec.end(), tex.indices.begin(), tex.indices.end());
    rec.resize(40 + 4096 + 1024 + 256 + 64, 0);
    std::vector<uint8_t> wad = {'W', 'A', 'D', '2'};
    const uint32_t count = 1, dir = uint32_t(12 + rec.size());
    wad.insert(wad.end(), reinterpret_cast<const uint8_t*>(&count),
               reinterpret_cast<const uint8_t*>(&count) + 4);
    wad.insert(wad.end(), reinterpret_cast<const uint8_t*>(&dir),
               reinterpret_cast<const uint8_t*>(&dir) + 4);
    wad.insert(wad.end(), rec.begin(), rec.end());
    std::vector<uint8_t> entry(32, 0);
    const uint32_t e[3] = {12, uint32_t(rec.size()), uint32_t(rec.size())};
    std::memcpy(entry.data(), e, sizeof e);
    entry[12] = 0x44;
    std::memcpy(entry.data() + 16, mat->name.data(), std::min<size_t>(mat->name.size(), 15));
    wad.insert(wad.end(), entry.begin(), entry.end());

    auto w = content::Wad::parse(wad, "test.wad");
    ASSERT_TRUE(w.ok()) << w.error().message();
    EXPECT_FALSE(w->isWad3());
    std::string upper = mat->name;
    for (char& c : upper)
        c = char(std::toupper(static_cast<unsigned char>(c)));
    auto mt = w->miptex(upper);
    ASSERT_TRUE(mt.ok()) << mt.error().message();
    EXPECT_FALSE(mt->palette.has_value());
    EXPECT_EQ(mt->indices, tex.indices);
}

// Random corruption of the decoders' inputs: clean results or clean errors, never a crash
// (run under the sanitizer build to catch bad reads).
TEST(Decoders, RandomCorruptionNeverCrashes) {
    std::mt19937 rng(77);
    const auto wal = pakMember(q2Pak(), "textures/a_rok2/tre3sw_1.wal");
    const auto pcx = pakMember(q2Pak(), "env/night1dn.pcx");
    const auto wad = readOrFail(kMaps / "hl/hl_currents.wad");
    int errors = 0;
    for (int iter = 0; iter < 300; ++iter) {
        auto corrupt = [&](std::vector<uint8_t> f) {
            for (int h = 0; h < 6; ++h) {
                const size_t at =
                    (h % 2) ? rng() % std::min<size_t>(f.size(), 140) : rng() % f.size();
                f[at] = uint8_t(rng());
            }
            return f;
        };
        const auto w = corrupt(wal);
        errors += !content::decodeWal(w, content::defaultQuakePalette()).ok();
        const auto p = corrupt(pcx);
        errors += !content::decodePcx(p).ok();
        auto parsed = content::Wad::parse(corrupt(wad));
        if (!parsed.ok()) {
            ++errors;
            continue;
        }
        for (const auto& e : parsed->entries())
            errors += !parsed->miptex(e.name).ok();
    }
    EXPECT_GT(errors, 0);
}

TEST(EmbeddedTexture, QuakeAndHalfLifeMaterials) {
    auto q1 = bsp::loadMapFile(kMaps / "q1/lq_start.bsp");
    auto hl = bsp::loadMapFile(kMaps / "hl/cs_fy_pool_day.bsp");
    auto ext = bsp::loadMapFile(kMaps / "hl/freehl_test_weapons.bsp");
    ASSERT_TRUE(q1.ok() && hl.ok() && ext.ok());
    int decoded = 0;
    for (const auto* map : {&*q1, &*hl})
        for (const auto& m : map->materials) {
            if (m.embedded < 0)
                continue;
            auto t = content::decodeEmbeddedTexture(*map, m);
            ASSERT_TRUE(t.ok()) << m.name << ": " << t.error().message();
            EXPECT_EQ(t->colour.width, m.width);
            EXPECT_EQ(t->colour.rgba.size(), size_t(m.width) * size_t(m.height) * 4);
            // Half-Life colours come from the texture's palette, not Quake's.
            if (map == &*hl) {
                const auto& tex = map->embedded_textures[size_t(m.embedded)];
                const uint8_t c = tex.indices[0];
                if (!(m.name[0] == '{' && c == 255)) {
                    EXPECT_EQ(t->colour.rgba[0], tex.palette[c * 3u]);
                }
                EXPECT_TRUE(t->fullbright.empty());
            } else {
                EXPECT_EQ(t->fullbright.size(), size_t(m.width) * size_t(m.height));
            }
            ++decoded;
        }
    EXPECT_EQ(decoded, 40 + 29);
    for (const auto& m : ext->materials)
        EXPECT_EQ(content::decodeEmbeddedTexture(*ext, m).error().code, core::ErrorCode::NotFound);
}

// Every Quake 2 texinfo name of the three maps has a .wal in the test pak (except the tool
// texture e1u1/origin), found ignoring case, with a size (the scene's material table divides
// the map's texel uv by it).
TEST(Wal, Quake2MapMaterialsResolve) {
    const auto& pak = q2Pak();
    const core::ByteReader r(pak);
    std::vector<std::string> names;
    for (uint32_t i = 0; i < r.u32(8) / 64; ++i)
        names.push_back(core::toLower(r.fixedString(uint64_t(r.u32(4)) + uint64_t(i) * 64, 56)));
    for (const char* map_name : {"q2/aq_credits.bsp", "q2/aq_wizs.bsp", "q2/aq_urbanjungle.bsp"}) {
        auto map = bsp::loadMapFile(kMaps / map_name);
        ASSERT_TRUE(map.ok()) << map_name;
        int resolved = 0;
        for (size_t i = 0; i < map->materials.size(); ++i) {
            const std::string want = "textures/" + core::toLower(map->materials[i].name) + ".wal";
            const auto it = std::find(names.begin(), names.end(), want);
            if (it == names.end()) {
                EXPECT_EQ(core::toLower(map->materials[i].name), "e1u1/origin") << map_name;
                continue;
            }
            const auto bytes = pakMember(
                pak, r.fixedString(uint64_t(r.u32(4)) + uint64_t(it - names.begin()) * 64, 56));
            auto wal = content::parseWal(bytes);
            ASSERT_TRUE(wal.ok()) << want;
            EXPECT_GT(wal->width, 0) << want;
            EXPECT_GT(wal->height, 0) << want;
            ++resolved;
        }
        EXPECT_GT(resolved, 0) << map_name;
    }
}
