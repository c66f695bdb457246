#include "robust/table_inputs.h"

#include "support/md2_builder.h"
#include "support/q1_builder.h"
#include "support/source_model_builder.h"
#include "support/source_props_builder.h"
#include "support/studio_builder.h"
#include "unit/vpk_builder.h"

#include "bsp/load.h"
#include "content/material/texture_cache.h"
#include "content/vfs/vfs.h"
#include "core/file.h"

#include <zip.h>

#include <unistd.h>

#include <filesystem>
#include <functional>
#include <map>
#include <string_view>

namespace fs = std::filesystem;

namespace robust {

namespace {

const fs::path kMaps = BSPV_SHARED_MAPS_DIR;
const fs::path kOpenArena = BSPV_OPENARENA_DIR;

std::vector<uint8_t> bytesOf(std::string_view s) {
    return {s.begin(), s.end()};
}

// A q3map2 lightmap page: a 4x4 TGA, BGR, bottom row first.
std::vector<uint8_t> lightmapTga() {
    std::vector<uint8_t> tga(18, 0);
    tga[2] = 2;
    tga[12] = 4;
    tga[14] = 4;
    tga[16] = 24;
    for (int i = 0; i < 4 * 4 * 3; ++i)
        tga.push_back(static_cast<uint8_t>(i * 5));
    return tga;
}

// A small .pk3 made with libzip: a map, a texture and a shader script, one member stored and
// the others deflated.
std::vector<uint8_t> madePk3() {
    const fs::path path =
        fs::temp_directory_path() / ("bspv_table_" + std::to_string(::getpid()) + ".pk3");
    const std::vector<uint8_t> map = q1test::buildQ1();
    const std::vector<uint8_t> image = lightmapTga();
    static const char kText[] = "textures/x\n{\n\tsurfaceparm nodraw\n}\n";
    int err = 0;
    zip_t* z = zip_open(path.string().c_str(), ZIP_CREATE | ZIP_TRUNCATE, &err);
    if (!z)
        return {};
    auto add = [&](const char* name, const void* data, size_t size, bool store) {
        zip_source_t* s = zip_source_buffer(z, data, size, 0);
        const zip_int64_t idx = zip_file_add(z, name, s, ZIP_FL_OVERWRITE);
        if (idx >= 0 && store)
            zip_set_file_compression(z, static_cast<zip_uint64_t>(idx), ZIP_CM_STORE, 0);
    };
    add("maps/made.bsp", map.data(), map.size(), false);
    add("textures/a.tga", image.data(), image.size(), true);
    add("scripts/x.shader", kText, sizeof(kText) - 1, false);
    if (zip_close(z) != 0)
        return {};
    auto bytes = core::readFile(path);
    std::error_code ec;
    fs::remove(path, ec);
    return bytes.ok() ? std::move(*bytes) : std::vector<uint8_t>{};
}

// A texture cache entry's body (content/texture_cache.h): two textures, one with a glow image,
// the other playing two frames (an AnimatedTexture proxy), and a water material (its shading
// numbers, no pixels kept).
std::vector<uint8_t> cacheBody() {
    std::vector<content::TextureInfo> textures(3);
    textures[0].source = "textures/a.jpg";
    textures[0].image.width = 4;
    textures[0].image.height = 2;
    textures[0].image.rgba.assign(4 * 2 * 4, 0x40);
    textures[1].source = "textures/b.png";
    textures[1].image.width = textures[1].glow.width = 2;
    textures[1].image.height = textures[1].glow.height = 2;
    textures[1].image.rgba.assign(2 * 2 * 4, 0x80);
    textures[1].glow.rgba.assign(2 * 2 * 4, 0xff);
    textures[0].base_animation = {true, 4.0f, false};
    textures[0].base_frames = {textures[0].image, textures[0].image};
    textures[0].base_frames[1].rgba.assign(4 * 2 * 4, 0x41);
    // A Sine on $alpha and a TextureTransform (the number proxies' program).
    textures[1].proxies.vars = {{"$alpha", 1, {1.0f, 0, 0, 0}},
                                {"$basetexturetransform", 0, {}},
                                {"$r", 1, {30.0f, 0, 0, 0}}};
    content::ProxyStep sine;
    sine.op = content::ProxyOp::Sine;
    sine.result = 0;
    sine.in = {content::ProxyInput{content::kNoVar, -1, 2.0f}, content::ProxyInput{-1, -1, 1.0f},
               content::ProxyInput{2, -1, 0.0f}, content::ProxyInput{}};
    content::ProxyStep transform;
    transform.op = content::ProxyOp::TextureTransform;
    transform.result = 1;
    transform.src = {content::kNoVar, content::kDummyVar, 2, content::kNoVar};
    textures[1].proxies.steps = {sine, transform};
    textures[2].source = "materials/w.vmt $fogcolor";
    textures[2].image = textures[1].image;
    textures[2].water.enabled = true;
    textures[2].water.base_colour = {0.1f, 0.2f, 0.3f};
    const std::vector<uint8_t> entry = content::encodeTextureCache("", textures);
    const size_t header = content::wrapTextureCacheBody("", {}).size() - 8; // 8: the checksum
    return {entry.begin() + std::ptrdiff_t(header), entry.end() - 8};
}

std::string trail() {
    std::string s;
    for (int i = 0; i < 300; ++i)
        s += std::to_string(i * 2) + ".000000 " + std::to_string(i % 7) + ".500000 8.000000\n";
    return s;
}

std::string walkScript() {
    std::string s;
    for (int i = 0; i < 40; ++i)
        s += "forward 0.5\nturn -45 # corner\n\nleft 0.25\njump\ncrouch 0.1\nback 1\n"
             "right 2\nwait 0.016\n";
    return s;
}

// The hand-made Source model of the mutation test: two LODs, .vvd fixups, the later .vtx
// layout, two skins over two textures.
const srcmdltest::Files& handMadeSource() {
    static const srcmdltest::Files kFiles = [] {
        srcmdltest::Spec spec;
        spec.version = 49;
        spec.lods = 2;
        spec.fixups = true;
        spec.topology = true;
        spec.textures = {"a", "b"};
        spec.skins = {{0, 1}, {1, 0}};
        srcmdltest::MeshSpec quad;
        quad.vertex_count = 4;
        quad.lods = {{0, 1, 2, 0, 2, 3}, {2, 1, 0}};
        quad.two_groups = true;
        srcmdltest::MeshSpec tri;
        tri.material = 1;
        spec.parts[0].models[0].meshes = {quad, tri};
        return srcmdltest::build(spec);
    }();
    return kFiles;
}

// A prop lump with its kind (0 sprp, 1 dprp) and version in front (fuzz::runPropLumps).
std::vector<uint8_t> propLump(uint8_t kind, uint16_t version, const std::vector<uint8_t>& lump) {
    std::vector<uint8_t> b = {kind, uint8_t(version & 0xff), uint8_t(version >> 8)};
    b.insert(b.end(), lump.begin(), lump.end());
    return b;
}

// A detail prop lump (version 4): one model name, one leaf, a model and a sprite prop.
std::vector<uint8_t> dprpLump() {
    std::vector<uint8_t> dprp;
    srcprops::put<int32_t>(dprp, 1);
    srcprops::putName(dprp, "models/grass.mdl");
    srcprops::put<int32_t>(dprp, 1);
    dprp.resize(dprp.size() + 32, 0);
    srcprops::put<int32_t>(dprp, 2);
    for (int k = 0; k < 2; ++k) {
        const size_t at = dprp.size();
        dprp.resize(at + 52, 0);
        dprp[at + 44] = uint8_t(k); // a model, then a sprite
        dprp[at + 48 + 3] = 0x3f;   // scale 0.5
    }
    return propLump(1, 4, dprp);
}

// A worldlights lump (fuzz::runWorldLights: the version byte, bit 1 HDR) of three lights: a
// point light, a spot light and the sun, each record as bsp/world_lights.h lays it out.
std::vector<uint8_t> worldLightsLump(uint8_t version_byte) {
    const bool v1 = (version_byte & 1) != 0;
    std::vector<uint8_t> b = {version_byte};
    auto f = [&](float v) { srcprops::put<float>(b, v); };
    auto i = [&](int32_t v) { srcprops::put<int32_t>(b, v); };
    const int32_t types[3] = {1, 2, 3};
    for (int k = 0; k < 3; ++k) {
        for (float v : {float(k) * 64.0f, 0.0f, 128.0f, 0.5f, 0.25f, 0.125f, 0.0f, 0.0f, -1.0f})
            f(v);
        if (v1)
            for (int n = 0; n < 3; ++n)
                f(1.0f);
        i(k);        // cluster
        i(types[k]); // type
        i(0);        // style
        for (float v : {0.9f, 0.5f, 1.0f, 0.0f, 0.0f, 0.0f, 1.0f})
            f(v); // stopdot, stopdot2, exponent, radius, constant, linear, quadratic
        i(0);
        i(-1);
        i(0);
    }
    return b;
}

// A cubemaps lump (fuzz::runCubeMaps) of three samples as dcubemapsample_t lays them out: an
// origin of three ints, the size byte (0: the default; 6; the largest, 16) and three bytes of
// padding.
std::vector<uint8_t> cubeMapsLump() {
    std::vector<uint8_t> b;
    const int32_t origins[3][3] = {{-512, 64, 128}, {1000, -2000, 3}, {0, 0, -16384}};
    const uint8_t sizes[3] = {0, 6, 16};
    for (int k = 0; k < 3; ++k) {
        for (const int32_t v : origins[k])
            srcprops::put<int32_t>(b, v);
        b.insert(b.end(), {sizes[k], 0, 0, 0});
    }
    return b;
}

// An overlays lump (fuzz::runOverlays: the version byte 0, the fade count 2 and two fades, then
// the records) of two overlays on fuzz's 128-unit floor: one across both faces (the world's and a
// brush model's), one half off the floor's edge in render order 1 with a V flip on it and a fade
// between 256 and 512 units.
std::vector<uint8_t> overlaysLump() {
    std::vector<uint8_t> b = {0, 2};
    auto f = [&](float v) { srcprops::put<float>(b, v); };
    auto i = [&](int32_t v) { srcprops::put<int32_t>(b, v); };
    for (float v : {0.0f, 0.0f, 256.0f * 256.0f, 512.0f * 512.0f})
        f(v);
    for (int k = 0; k < 2; ++k) {
        i(k);                                                // id
        srcprops::put<int16_t>(b, int16_t(k + 1));           // texinfo
        srcprops::put<uint16_t>(b, uint16_t(2 | (k << 14))); // two faces, render order k
        for (int slot = 0; slot < 64; ++slot)
            i(slot < 2 ? slot : 0);
        for (float v : {0.0f, 1.0f, 0.0f, 1.0f})
            f(v);
        const float flip = k == 1 ? 1.0f : 0.0f;
        for (float v :
             {-24.0f, -24.0f, 1.0f, -24.0f, 24.0f, 0.0f, 24.0f, 24.0f, 0.0f, 24.0f, -24.0f, flip})
            f(v);
        for (float v : {k == 0 ? 64.0f : 120.0f, 64.0f, 0.0f, 0.0f, 0.0f, 1.0f})
            f(v); // origin, basis normal
    }
    return b;
}

const std::map<std::string, std::function<std::vector<uint8_t>()>>& makers() {
    static const std::map<std::string, std::function<std::vector<uint8_t>()>> kMakers = {
        {"lm_0001.tga", lightmapTga},
        {"made.pk3", madePk3},
        {"two_textures.body", cacheBody},
        {"trail.pts", [] { return bytesOf(trail()); }},
        {"walk.txt", [] { return bytesOf(walkScript()); }},
        {"two_frames.md2", [] { return md2test::buildMd2(); }},
        {"two_frames.sp2", [] { return md2test::buildSp2(); }},
        {"hand_made_studio.mdl", [] { return studiotest::buildStudio(); }},
        {"two_quads.bsp", [] { return q1test::buildQ1(); }},
        // Every option of core::TextScanner's syntaxes: both comments (one left open at the
        // end), quotes over a line break and one open at a line's end, VMT brackets, braces,
        // parentheses, .skin commas, numbers, Windows line ends and NUL bytes.
        {"scanner_mix.txt",
         [] {
             using namespace std::string_view_literals;
             return bytesOf("// line comment\r\n{ \"key\" \"two\nlines\" $word 12 -3.5e2 }\n"
                            "\"open quote\nsurf,shader/*block\n*/ ( 1 2 3 ) [$X360] [open\n"
                            "a\0b \0 \"\" {}{}\r\nend /* open"sv);
         }},
        {"lightmapped.vmt",
         [] {
             return bytesOf("// comment\n\"LightmappedGeneric\"\n{\n"
                            "\t\"$basetexture\" \"brick/wall\"\n\t$translucent 1\n"
                            "\t\"$envmap\" \"env_cubemap\" [$X360]\n"
                            "\t\"$nocull\" \"1\" [!$X360 && $WIN32]\n"
                            "\t\"$basetexturetransform\" \"center .5 .5 scale 2 1 rotate 45 "
                            "translate .25 0\"\n\t$bumptransform \"[1 0 0 .5 0 1 0 0 0 0 1 0 "
                            "0 0 0 1]\"\n\t$rate .5\n"
                            "\t\"Proxies\" { \"AnimatedTexture\" { \"animatedtexturevar\" "
                            "\"$basetexture\" }\n\t\tTextureScroll { texturescrollvar "
                            "$basetexturetransform texturescrollrate $rate texturescrollangle "
                            "-30 }\n\t\tAnimatedTexture { animatedtexturevar $basetexture "
                            "animatedtextureframenumvar $frame animatedtextureframerate 7.5 "
                            "animationnowrap 1 } }\n\t$frame 1 $bumpframe 2\n}\n");
         }},
        {"proxies.vmt",
         [] {
             return bytesOf("UnlitGeneric { $basetexture a $x 0 $v \"[1 .5 0]\" $p 2\n"
                            "Proxies {\n Sine { resultVar $x sinePeriod $p sineMin -1 "
                            "timeOffset \"$v[1]\" }\n LinearRamp { resultVar \"$color[1]\" "
                            "rate .25 initialValue .5 }\n Multiply { srcVar1 $x srcVar2 $v "
                            "resultVar $envmaptint }\n Clamp { srcVar1 $x min .2 max .8 "
                            "resultVar $alpha }\n WrapMinMax { srcVar1 $x minVal -1 maxVal 1 "
                            "resultVar $x }\n TextureTransform { centerVar $v rotateVar $x "
                            "translateVar $v resultVar $basetexturetransform }\n Divide { "
                            "srcVar1 $v srcVar2 $x resultVar $v }\n } }\n");
         }},
        {"patch.vmt",
         [] {
             return bytesOf("patch { include materials/fuzz.vmt insert { $additive 1 } "
                            "replace { $basetexture other } }");
         }},
        {"v1_dir.vpk", [] { return vpk_test::buildVpk(vpk_test::sampleFiles(), 1).dir; }},
        {"v2_dir.vpk", [] { return vpk_test::buildVpk(vpk_test::sampleFiles(), 2).dir; }},
        {"hand_made_source.mdl", [] { return handMadeSource().mdl; }},
        {"hand_made_source.vvd", [] { return handMadeSource().vvd; }},
        {"hand_made_source.vtx", [] { return handMadeSource().vtx; }},
        {"sp_0.vhv", [] { return srcprops::vhvFile(); }},
        {"sprp_v10_sdk2013", [] { return propLump(0, 10, srcprops::sprpLump(10, 3, true)); }},
        {"sprp_v9", [] { return propLump(0, 9, srcprops::sprpLump(9, 3)); }},
        {"sprp_v13", [] { return propLump(0, 13, srcprops::sprpLump(13, 3)); }},
        {"dprp_v4", dprpLump},
        {"worldlights_v0", [] { return worldLightsLump(0); }},
        {"worldlights_v1_hdr", [] { return worldLightsLump(3); }},
        {"overlays_v0", overlaysLump},
        // Two fog controllers, the later one the master (spawnflags 1) with fog and farz
        // (game/source.cpp worldFog, worldFarPlane).
        {"fog_entities.txt",
         [] {
             return bytesOf("{\n\"classname\" \"worldspawn\"\n}\n"
                            "{\n\"classname\" \"env_fog_controller\"\n\"farz\" \"800\"\n}\n"
                            "{\n\"classname\" \"env_fog_controller\"\n\"spawnflags\" \"1\"\n"
                            "\"fogenable\" \"1\"\n\"fogblend\" \"1\"\n"
                            "\"fogcolor\" \"255 128 0\"\n\"fogcolor2\" \"0 64 255\"\n"
                            "\"fogdir\" \"1 0 0\"\n\"fogstart\" \"128\"\n"
                            "\"fogend\" \"2048\"\n\"farz\" \"3000\"\n}\n");
         }},
        // A tone map controller and the logic_auto that sets it at spawn (game/source.cpp),
        // actions separated by commas and by ESC.
        {"tonemap_entities.txt",
         [] {
             return bytesOf("{\n\"classname\" \"worldspawn\"\n}\n"
                            "{\n\"classname\" \"env_tonemap_controller\"\n"
                            "\"targetname\" \"tonemap\"\n}\n"
                            "{\n\"classname\" \"logic_auto\"\n"
                            "\"OnMapSpawn\" \"tonemap,SetAutoExposureMin,0.8,0,-1\"\n"
                            "\"OnMapSpawn\" \"tonemap\x1b"
                            "SetAutoExposureMax\x1b"
                            "3\x1b"
                            "0.5\x1b"
                            "-1\"\n"
                            "\"OnNewGame\" \"tone*,BlendTonemapScale,0.5 2,1,-1\"\n"
                            "\"OnMapSpawn\" \"env_tonemap_controller,SetBloomScale,2,0,-1\"\n}\n");
         }},
        {"cubemaps_lump", cubeMapsLump},
        // The go-to field's text (scene/view/camera_text.h), one line of four of its forms.
        {"viewpos.txt", [] { return bytesOf("Viewpos: (544 -312 48) 10 90 0"); }},
        {"getpos.txt",
         [] { return bytesOf("setpos -1.5 2.25 64.03125;setang 12.5 -90 0.000000"); }},
        {"ioq3_viewpos.txt", [] { return bytesOf("(1024 512 88) : 270"); }},
        {"bspview_camera.txt", [] { return bytesOf("--camera 128,-880,46,0,90"); }},
        // libraryfolders.vdf in both layouts (content/vfs/game_install.h).
        {"libraryfolders.vdf",
         [] {
             return bytesOf("\"libraryfolders\"\n{\n\t\"0\"\n\t{\n\t\t\"path\"\t\t"
                            "\"/home/u/.local/share/Steam\"\n\t\t\"apps\"\n\t\t{\n"
                            "\t\t\t\"2310\"\t\"123\"\n\t\t}\n\t}\n\t\"1\"\n\t{\n"
                            "\t\t\"path\"\t\t\"D:\\\\SteamLibrary\"\n\t}\n}\n"
                            "\"LibraryFolders\" { \"1\" \"E:\\\\Steam\" // old\n }\n");
         }},
    };
    return kMakers;
}

// A member of an archive, or of a map's pakfile lump, through content::FileSystem.
core::Result<std::vector<uint8_t>> memberOf(const std::string& container, const std::string& member,
                                            bool pakfile) {
    content::FileSystem vfs;
    if (pakfile) {
        auto map = bsp::loadMapFile(kMaps / container);
        if (!map)
            return map.error();
        if (auto st = vfs.addEmbeddedArchive(map->embedded_archive, container, "pakfile"); !st)
            return st.error();
    } else if (auto st = vfs.addArchive(kOpenArena / container); !st) {
        return st.error();
    }
    return vfs.readChecked(member);
}

core::Result<std::vector<uint8_t>> entityText(const std::string& map_path) {
    auto map = bsp::loadMapFile(kMaps / map_path);
    if (!map)
        return map.error();
    return bytesOf(map->entity_text);
}

// One source: "kind:rest".
core::Result<std::vector<uint8_t>> readSource(const std::string& source) {
    const size_t colon = source.find(':');
    const std::string kind = source.substr(0, colon);
    const std::string rest = colon == std::string::npos ? std::string() : source.substr(colon + 1);
    const size_t second = rest.find(':');
    if (rest.find('*') != std::string::npos || rest.find('@') != std::string::npos)
        return core::makeError(core::ErrorCode::BadArgument, source, -1, {},
                               "patterns and size limits are for seed-only sources ('+')");
    if (kind == "maps")
        return core::readFile(kMaps / rest);
    if (kind == "models")
        return core::readFile(kMaps / ".." / "models" / rest);
    if (kind == "file")
        return core::readFile(rest);
    if (kind == "entities")
        return entityText(rest);
    if ((kind == "oa" || kind == "pak") && second != std::string::npos)
        return memberOf(rest.substr(0, second), rest.substr(second + 1), kind == "pak");
    if (kind == "test") {
        auto it = makers().find(rest);
        if (it != makers().end())
            return it->second();
    }
    return core::makeError(core::ErrorCode::BadArgument, source, -1, {},
                           "no such source (fuzz/targets.def lists the kinds)");
}

} // namespace

std::vector<uint8_t> madeInput(const std::string& name) {
    auto it = makers().find(name);
    return it == makers().end() ? std::vector<uint8_t>{} : it->second();
}

std::vector<TableInput> tableInputs(const fuzz::Target& target) {
    std::vector<TableInput> out;
    const std::string_view all = target.inputs;
    size_t start = 0;
    while (start <= all.size()) {
        const size_t end = std::min(all.find('|', start), all.size());
        const std::string source(all.substr(start, end - start));
        start = end + 1;
        // Seeds only: marked '+', or made by the corpus maker.
        if (source.empty() || source[0] == '+' || source.starts_with("seed:"))
            continue;
        TableInput in{source, {}, {}};
        auto bytes = readSource(source);
        if (bytes && !bytes->empty())
            in.bytes = std::move(*bytes);
        else
            in.error = bytes ? "empty" : bytes.error().message();
        out.push_back(std::move(in));
    }
    return out;
}

} // namespace robust
