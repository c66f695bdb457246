// Source cube-map reflections in the content layer: cube VTFs decoded face by face
// (content::decodeVtfCubeFaces), the VMT keys of $envmap, the numbers LightmappedGeneric runs
// with (content::envMapShading), and which cube and mask a material gets through a map's
// pakfile (content::loadEnvMap), with one warning for those that get none.
#include "bsp/load.h"
#include "bsp/map.h"
#include "content/image/vtf.h"
#include "content/material/envmap.h"
#include "content/material/textures.h"
#include "content/material/vmt.h"
#include "content/vfs/vfs.h"
#include "core/file.h"
#include "support/vtf_builder.h"
#include "unit/content_test_util.h"

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

namespace {

using Px = std::array<uint8_t, 4>;
using Rgb = std::array<uint8_t, 3>;

Px pixel(const content::Image& im, int x, int y) {
    const uint8_t* p = im.rgba.data() + (size_t(y) * size_t(im.width) + size_t(x)) * 4;
    return {p[0], p[1], p[2], p[3]};
}

// Right, left, back, front, up, down: six colours no face shares.
const std::array<Rgb, 6> kFaces = {Rgb{200, 0, 0},   Rgb{0, 200, 0},   Rgb{0, 0, 200},
                                   Rgb{200, 200, 0}, Rgb{0, 200, 200}, Rgb{200, 0, 200}};

std::string textOf(const std::vector<uint8_t>& b) {
    return std::string(b.begin(), b.end());
}

content::Vmt vmtOf(const std::string& text) {
    auto vmt = content::parseVmt(text, "t.vmt");
    EXPECT_TRUE(vmt) << vmt.error().message();
    return vmt ? *vmt : content::Vmt();
}

} // namespace

TEST(Vtf, CubeFacesInSourceOrder) {
    // 7.2 stores a seventh face (the sphere map, magenta here) after the six; 7.5 does not.
    for (const uint32_t minor : {2u, 5u}) {
        SCOPED_TRACE(minor);
        const std::vector<uint8_t> file = testsupport::cubeVtf(kFaces, minor, 2, {255, 0, 255});
        auto faces = content::decodeVtfCubeFaces(file, "c.vtf");
        ASSERT_TRUE(faces) << faces.error().message();
        for (size_t k = 0; k < 6; ++k) {
            ASSERT_EQ((*faces)[k].width, 2);
            ASSERT_EQ((*faces)[k].height, 2);
            for (int y = 0; y < 2; ++y)
                for (int x = 0; x < 2; ++x)
                    EXPECT_EQ(pixel((*faces)[k], x, y),
                              (Px{kFaces[k][0], kFaces[k][1], kFaces[k][2], 255}))
                        << "face " << k;
        }
        // The first face is what decodeVtf gives for the file.
        auto first = content::decodeVtf(file, "c.vtf");
        ASSERT_TRUE(first);
        EXPECT_EQ(first->rgba, (*faces)[0].rgba);
    }
}

TEST(Vtf, CubeFaceErrorsNameFileAndField) {
    testsupport::VtfSpec s; // a plain 1x1 texture
    auto flat = content::decodeVtfCubeFaces(testsupport::makeVtf(s, {1, 2, 3, 4}), "flat.vtf");
    ASSERT_FALSE(flat);
    EXPECT_EQ(flat.error().code, core::ErrorCode::BadImage);
    EXPECT_EQ(flat.error().message(),
              "flat.vtf: vtf.flags: not an environment map (no ENVMAP flag 0x4000)");
    s.width = 2;
    s.flags = content::kVtfFlagEnvMap;
    s.first_frame = 0xffff; // six faces
    auto wide = content::decodeVtfCubeFaces(
        testsupport::makeVtf(s, std::vector<uint8_t>(6 * 2 * 4, 9)), "wide.vtf");
    ASSERT_FALSE(wide);
    EXPECT_EQ(wide.error().message(),
              "wide.vtf: vtf.width/height/depth: 2x1x1: a cube face is square and flat");
    std::vector<uint8_t> cut = testsupport::cubeVtf(kFaces);
    cut.resize(cut.size() - 1);
    auto short_file = content::decodeVtfCubeFaces(cut, "cut.vtf");
    ASSERT_FALSE(short_file);
    EXPECT_EQ(short_file.error().code, core::ErrorCode::Truncated);
}

// The shared maps' default cube maps: Left 4 Dead 2's 7.4 file keeps the sphere map as a
// seventh face; each face k is the k-th face-sized block of the largest mip.
TEST(Vtf, SharedMapCubeMapsDecodeSixFaces) {
    for (const char* map_name : {"l4d2_tooltextures", "csgo_tooltextures"}) {
        SCOPED_TRACE(map_name);
        auto map =
            bsp::loadMapFile(std::string(BSPV_SHARED_MAPS_DIR) + "/source/" + map_name + ".bsp");
        ASSERT_TRUE(map) << map.error().message();
        content::FileSystem fs;
        ASSERT_TRUE(fs.addEmbeddedArchive(map->embedded_archive, "m.bsp", "pakfile"));
        const std::string path = std::string("materials/maps/") + map_name + "/cubemapdefault.vtf";
        auto bytes = fs.readChecked(path);
        ASSERT_TRUE(bytes) << bytes.error().message();
        auto h = content::parseVtfHeader(*bytes, path);
        ASSERT_TRUE(h);
        auto faces = content::decodeVtfCubeFaces(*bytes, path);
        ASSERT_TRUE(faces) << faces.error().message();
        const uint64_t face_bytes = content::vtfImageBytes(h->format, 32, 32);
        for (size_t k = 0; k < 6; ++k) {
            auto want =
                content::decodeVtfPixels(h->format, 32, 32,
                                         std::span<const uint8_t>(*bytes).subspan(
                                             h->largest_mip_offset + k * face_bytes, face_bytes),
                                         false);
            ASSERT_TRUE(want);
            EXPECT_EQ((*faces)[k].rgba, want->rgba) << "face " << k;
        }
    }
}

TEST(Vmt, EnvMapKeysAndDefaults) {
    const content::Vmt plain = vmtOf("LightmappedGeneric { $basetexture a }");
    EXPECT_EQ(plain.envmap, "");
    EXPECT_EQ(plain.envmap_tint, (std::array<float, 3>{1.0f, 1.0f, 1.0f}));
    EXPECT_EQ(plain.envmap_mask, "");
    EXPECT_FALSE(plain.base_alpha_envmap_mask);
    EXPECT_FALSE(plain.normalmap_alpha_envmap_mask);
    EXPECT_EQ(plain.envmap_contrast, 0.0f);
    EXPECT_EQ(plain.envmap_saturation, 1.0f);
    EXPECT_EQ(plain.fresnel_reflection, 1.0f);

    const content::Vmt v = vmtOf(R"(LightmappedGeneric {
        $envmap "maps/m/c0_0_64"  $envmaptint "[.5 .25 2]"  $envmapmask metal/mask
        $basealphaenvmapmask 1  $normalmapalphaenvmapmask 1
        $envmapcontrast .5  $envmapsaturation .25  $fresnelreflection .75 })");
    EXPECT_EQ(v.envmap, "maps/m/c0_0_64");
    EXPECT_EQ(v.envmap_tint, (std::array<float, 3>{0.5f, 0.25f, 2.0f}));
    EXPECT_EQ(v.envmap_mask, "metal/mask");
    EXPECT_TRUE(v.base_alpha_envmap_mask);
    EXPECT_TRUE(v.normalmap_alpha_envmap_mask);
    EXPECT_EQ(v.envmap_contrast, 0.5f);
    EXPECT_EQ(v.envmap_saturation, 0.25f);
    EXPECT_EQ(v.fresnel_reflection, 0.75f);

    // Braces are 0..255; a lone number is every component; a short vector is ignored.
    EXPECT_EQ(vmtOf("LightmappedGeneric { $envmaptint \"{255 51 0}\" }").envmap_tint,
              (std::array<float, 3>{1.0f, 0.2f, 0.0f}));
    EXPECT_EQ(vmtOf("LightmappedGeneric { $envmaptint .3 }").envmap_tint,
              (std::array<float, 3>{0.3f, 0.3f, 0.3f}));
    EXPECT_EQ(vmtOf("LightmappedGeneric { $envmaptint \"[1 2]\" }").envmap_tint,
              (std::array<float, 3>{1.0f, 1.0f, 1.0f}));
}

TEST(EnvMap, FastPathKeepsContrastZeroOrOne) {
    const auto shading = [](const std::string& keys) {
        return content::envMapShading(vmtOf("LightmappedGeneric { " + keys + " }"),
                                      content::EnvMapMask::None);
    };
    content::EnvMapShading s = shading("$envmaptint \"[.5 .5 .25]\"");
    EXPECT_FALSE(s.enabled);
    EXPECT_EQ(s.tint, (std::array<float, 3>{0.5f, 0.5f, 0.25f}));
    EXPECT_EQ(s.contrast, 0.0f);
    EXPECT_EQ(s.saturation, 1.0f);
    EXPECT_EQ(s.fresnel, 1.0f);
    EXPECT_EQ(shading("$envmapcontrast 1").contrast, 1.0f);
    // Fast path: contrast .5 with saturation 1 runs as 0; saturation alone is not read.
    EXPECT_EQ(shading("$envmapcontrast .5").contrast, 0.0f);
    s = shading("$envmapcontrast 1 $envmapsaturation .5");
    EXPECT_EQ(s.contrast, 1.0f);
    EXPECT_EQ(s.saturation, 1.0f);
    // Slow path: a fractional contrast with saturation, or any fresnel, keeps the numbers.
    s = shading("$envmapcontrast .5 $envmapsaturation .25");
    EXPECT_EQ(s.contrast, 0.5f);
    EXPECT_EQ(s.saturation, 0.25f);
    s = shading("$envmapsaturation .25 $fresnelreflection .5");
    EXPECT_EQ(s.contrast, 0.0f);
    EXPECT_EQ(s.saturation, 0.25f);
    EXPECT_EQ(s.fresnel, 0.5f);
}

// A map's materials through its pakfile, as vbsp leaves them: a patch material naming the
// nearest sample's cube, an unpatched env_cubemap, cubes that are missing, HDR-only or no cube,
// each mask, and a shader outside the LightmappedGeneric family.
TEST(ValveMaterials, EnvMapCubeAndMaskPerMaterial) {
    testsupport::VtfSpec s;
    s.width = s.height = 2;
    s.format = content::VtfFormat::BGRA8888;
    const std::vector<uint8_t> texels(16, 128);
    const std::string opaque = textOf(testsupport::makeVtf(s, texels));
    s.flags = content::kVtfFlagEightBitAlpha;
    const std::string with_alpha = textOf(testsupport::makeVtf(s, texels));
    const std::string cube = textOf(testsupport::cubeVtf(kFaces));
    const auto lmg = [](const std::string& keys) {
        return "LightmappedGeneric { $basetexture base " + keys + " }";
    };
    const content::FileSystem fs = content_test::pakfileOf({
        {"materials/base.vtf", opaque},
        {"materials/alpha.vtf", with_alpha},
        {"materials/mask.vtf", opaque},
        {"materials/nrm.vtf", opaque},
        {"materials/maps/m/c0_0_64.vtf", cube},
        {"materials/maps/m/c1_1_1.hdr.vtf", cube},
        {"materials/glass.vmt", lmg("$envmap env_cubemap $envmaptint \"[.5 .5 .5]\"")},
        {"materials/maps/m/glass_0_0_64.vmt",
         "patch { include materials/glass.vmt replace { $envmap maps/m/c0_0_64 } }"},
        {"materials/gone.vmt", lmg("$envmap maps/m/c9_9_9")},
        {"materials/hdr.vmt", lmg("$envmap maps/m/c1_1_1")},
        {"materials/flat.vmt", lmg("$envmap base")},
        {"materials/masked.vmt", lmg("$envmap maps/m/c0_0_64 $envmapmask mask")},
        {"materials/nomask.vmt", lmg("$envmap maps/m/c0_0_64 $envmapmask absent")},
        {"materials/alphamask.vmt",
         "LightmappedGeneric { $basetexture alpha $envmap maps/m/c0_0_64 "
         "$basealphaenvmapmask 1 $alphatest 1 }"},
        {"materials/opaquemask.vmt", lmg("$envmap maps/m/c0_0_64 $basealphaenvmapmask 1")},
        {"materials/bumped.vmt", lmg("$envmap maps/m/c0_0_64 $bumpmap nrm $envmapmask mask "
                                     "$normalmapalphaenvmapmask 1")},
        {"materials/model.vmt", "VertexLitGeneric { $basetexture base $envmap env_cubemap }"},
    });
    const std::vector<std::string> names = {
        "maps/m/glass_0_0_64", "glass",      "gone",   "hdr",   "flat", "masked", "nomask",
        "alphamask",           "opaquemask", "bumped", "model", "base"};
    bsp::Map map;
    map.format = bsp::Format::Source;
    map.materials.resize(names.size());
    for (size_t i = 0; i < names.size(); ++i)
        map.materials[i].name = names[i];
    const auto t = content::loadMaterialTextures(map, fs, 1);
    ASSERT_EQ(t.size(), names.size());
    for (size_t i = 0; i < t.size(); ++i)
        ASSERT_FALSE(t[i].missing) << names[i] << ": " << t[i].error;

    // The patched material: the cube in Source's face order, the tint of the included material.
    const content::TextureInfo& patched = t[0];
    ASSERT_TRUE(patched.envmap_shading.enabled) << patched.envmap_error;
    EXPECT_EQ(patched.envmap_source, "materials/maps/m/c0_0_64.vtf");
    for (size_t k = 0; k < 6; ++k)
        EXPECT_EQ(pixel(patched.envmap[k], 1, 1),
                  (Px{kFaces[k][0], kFaces[k][1], kFaces[k][2], 255}));
    EXPECT_EQ(patched.envmap_shading.tint, (std::array<float, 3>{0.5f, 0.5f, 0.5f}));
    EXPECT_EQ(patched.envmap_shading.mask, content::EnvMapMask::None);
    EXPECT_TRUE(patched.envmap_error.empty());

    const auto expectNone = [&](size_t i, const std::string& error) {
        SCOPED_TRACE(names[i]);
        EXPECT_FALSE(t[i].envmap_shading.enabled);
        EXPECT_FALSE(t[i].envmap[0].valid());
        EXPECT_EQ(t[i].envmap_error, error);
    };
    expectNone(1, "glass: $envmap env_cubemap in a material vbsp did not patch (the game ignores "
                  "it on world faces until the map is rebuilt)");
    expectNone(2, "gone: $envmap materials/maps/m/c9_9_9.vtf (or .hdr.vtf): not found");
    expectNone(4, "flat: $envmap materials/base.vtf: vtf.flags: not an environment map (no "
                  "ENVMAP flag 0x4000)");
    expectNone(6, "nomask: $envmapmask materials/absent.vtf: not found");
    expectNone(10, "model: $envmap on shader vertexlitgeneric is not drawn");
    expectNone(11, "");

    EXPECT_TRUE(t[3].envmap_shading.enabled) << t[3].envmap_error; // only the .hdr.vtf
    EXPECT_EQ(t[3].envmap_source, "materials/maps/m/c1_1_1.hdr.vtf");
    EXPECT_EQ(t[5].envmap_shading.mask, content::EnvMapMask::Texture);
    EXPECT_EQ(pixel(t[5].envmap_mask, 0, 0), (Px{128, 128, 128, 128}));
    // Base alpha: only a base texture with alpha; then the material is not alpha-tested.
    EXPECT_EQ(t[7].envmap_shading.mask, content::EnvMapMask::BaseAlpha);
    EXPECT_EQ(t[7].surface_flags & bsp::kSurfAlphaTest, 0u);
    EXPECT_EQ(t[8].envmap_shading.mask, content::EnvMapMask::None);
    // With a $bumpmap the $envmapmask is dropped and the normal map's alpha masks.
    EXPECT_EQ(t[9].envmap_shading.mask, content::EnvMapMask::NormalAlpha);
    EXPECT_FALSE(t[9].envmap_mask.valid());

    // One warning for the map, naming how many and the first three.
    EXPECT_EQ(content::envMapWarning(t),
              "5 materials' $envmap reflection not drawn: " + t[1].envmap_error + "; " +
                  t[2].envmap_error + "; " + t[4].envmap_error + "; ...");
    EXPECT_EQ(content::envMapWarning(std::span(t).first(1)), "");
}

// Water (water.cpp SHADER_INIT): $normalmap becomes the material's normal map (TextureInfo::bump)
// and $envmap its environment cube, each only when named; a missing one leaves it empty (the
// cube's reason in envmap_error), the water still shaded.
TEST(ValveMaterials, WaterNormalMapAndEnvMap) {
    testsupport::VtfSpec s;
    s.width = s.height = 2;
    s.format = content::VtfFormat::BGRA8888;
    const std::vector<uint8_t> texels = {255, 128, 238, 255, 255, 128, 238, 255,
                                         255, 128, 238, 255, 255, 128, 238, 255}; // BGRA
    const std::string normal = textOf(testsupport::makeVtf(s, texels));
    const std::string cube = textOf(testsupport::cubeVtf(kFaces));
    const auto water = [](const std::string& keys) {
        return "Water { $fogcolor \"{10 20 30}\" $forcecheap 1 " + keys + " }";
    };
    const content::FileSystem fs = content_test::pakfileOf({
        {"materials/nrm.vtf", normal},
        {"materials/maps/m/c0_0_64.vtf", cube},
        {"materials/both.vmt", water("$normalmap nrm $envmap maps/m/c0_0_64")},
        {"materials/none.vmt", water("")},
        {"materials/lost.vmt", water("$normalmap gone $envmap maps/m/c9_9_9")},
        {"materials/unpatched.vmt", water("$envmap env_cubemap")},
    });
    const std::vector<std::string> names = {"both", "none", "lost", "unpatched"};
    bsp::Map map;
    map.format = bsp::Format::Source;
    map.materials.resize(names.size());
    for (size_t i = 0; i < names.size(); ++i)
        map.materials[i].name = names[i];
    const auto t = content::loadMaterialTextures(map, fs, 1);
    ASSERT_EQ(t.size(), names.size());
    for (size_t i = 0; i < t.size(); ++i) {
        ASSERT_TRUE(t[i].water.enabled) << names[i] << ": " << t[i].error;
        EXPECT_FALSE(t[i].bump_ssbump);
    }

    ASSERT_TRUE(t[0].bump.valid());
    EXPECT_EQ(pixel(t[0].bump, 1, 1), (Px{238, 128, 255, 255})); // the file's BGRA as RGBA
    ASSERT_TRUE(t[0].envmap_shading.enabled) << t[0].envmap_error;
    EXPECT_EQ(t[0].envmap_source, "materials/maps/m/c0_0_64.vtf");
    for (size_t k = 0; k < 6; ++k)
        EXPECT_EQ(pixel(t[0].envmap[k], 0, 0), (Px{kFaces[k][0], kFaces[k][1], kFaces[k][2], 255}));
    EXPECT_EQ(t[0].envmap_shading.mask, content::EnvMapMask::None);
    EXPECT_TRUE(t[0].envmap_error.empty());

    for (size_t i = 1; i < t.size(); ++i) {
        SCOPED_TRACE(names[i]);
        EXPECT_FALSE(t[i].bump.valid());
        EXPECT_FALSE(t[i].envmap_shading.enabled);
        EXPECT_FALSE(t[i].envmap[0].valid());
    }
    EXPECT_EQ(t[1].envmap_error, "");
    EXPECT_EQ(t[2].envmap_error,
              "lost: $envmap materials/maps/m/c9_9_9.vtf (or .hdr.vtf): not found");
    EXPECT_EQ(t[3].envmap_error, "unpatched: $envmap env_cubemap in a material vbsp did not patch");
}
