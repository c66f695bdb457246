// scene::MaterialTable resolution rules: shader-script flags, pass, Quake 2 texel sizes (and
// the mesh dividing texel uv by them), sort and blend order from the shader stages, Source's
// $envmap numbers (and the one warning buildDrawableWorld gives for those not drawn). The map
// they are resolved from is only read.
#include "scene/world/material_table.h"

#include "bsp/patch.h"
#include "content/material/q3_shader.h"
#include "content/material/textures.h"
#include "scene/load/drawable_world.h"
#include "scene/world/material_stages.h"
#include "scene/world/world_mesh.h"
#include "support/vtf_builder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

namespace {

// One triangle per material, vertices with uv (64, 32), (128, 0), (0, 96).
bsp::Map triangleMap(const std::vector<bsp::Material>& materials) {
    bsp::Map m;
    m.materials = materials;
    for (size_t i = 0; i < materials.size(); ++i) {
        bsp::Face f;
        f.material = static_cast<int32_t>(i);
        f.first_vertex = static_cast<uint32_t>(m.vertices.size());
        f.num_vertices = 3;
        f.first_index = static_cast<uint32_t>(m.indices.size());
        f.num_indices = 3;
        const glm::vec2 uvs[3] = {{64.0f, 32.0f}, {128.0f, 0.0f}, {0.0f, 96.0f}};
        for (int k = 0; k < 3; ++k) {
            bsp::Vertex v;
            v.position = glm::vec3(float(k), float(i), 0.0f);
            v.uv = uvs[k];
            m.vertices.push_back(v);
            m.indices.push_back(f.first_vertex + uint32_t(k));
        }
        m.faces.push_back(f);
    }
    bsp::Submodel world;
    world.num_faces = static_cast<uint32_t>(m.faces.size());
    m.submodels.push_back(world);
    return m;
}

bsp::Material material(const char* name, uint32_t flags = 0) {
    bsp::Material m;
    m.name = name;
    m.flags = flags;
    return m;
}

content::TextureInfo texture(int w, int h) {
    content::TextureInfo t;
    t.image.width = w;
    t.image.height = h;
    t.image.rgba.assign(size_t(w) * size_t(h) * 4, 255);
    return t;
}

} // namespace

TEST(MaterialTable, ShaderFlagsAreOredInAndPickThePass) {
    content::ShaderLibrary shaders;
    shaders.addScript(content::parseShaderScript("textures/t/glass { { map g\nblendfunc add } }\n"
                                                 "textures/t/sky { skyparms env/s 512 -\n}\n"
                                                 "textures/t/clip { surfaceparm nodraw\n}\n",
                                                 "scripts/t.shader"));
    const bsp::Map map = triangleMap({material("textures/t/glass", bsp::kSurfLiquid),
                                      material("textures/t/sky"), material("textures/t/clip"),
                                      material("textures/t/plain", bsp::kSurfAlphaTest)});
    const scene::MaterialTable table = scene::resolveMaterials(map, &shaders);
    ASSERT_EQ(table.size(), 4u);
    EXPECT_EQ(table[0].flags, bsp::kSurfLiquid | bsp::kSurfTranslucent | bsp::kSurfAdditive);
    EXPECT_EQ(table[0].pass, scene::Pass::Translucent);
    EXPECT_EQ(table[1].flags, static_cast<uint32_t>(bsp::kSurfSky));
    EXPECT_EQ(table[1].pass, scene::Pass::Sky);
    EXPECT_TRUE(table[2].flags & bsp::kSurfNoDraw);
    EXPECT_EQ(table[3].flags, static_cast<uint32_t>(bsp::kSurfAlphaTest));
    EXPECT_EQ(table[3].pass, scene::Pass::AlphaTest);
    // The map keeps its own flags; without scripts the table is the map's.
    EXPECT_EQ(map.materials[0].flags, static_cast<uint32_t>(bsp::kSurfLiquid));
    EXPECT_EQ(map.materials[1].flags, 0u);
    const scene::MaterialTable plain = scene::resolveMaterials(map);
    EXPECT_EQ(plain[0].flags, static_cast<uint32_t>(bsp::kSurfLiquid));
    EXPECT_EQ(plain[0].pass, scene::Pass::Liquid);

    // The mesh reads the table: the nodraw face is left out, the others take its passes.
    const scene::WorldMesh mesh = scene::buildWorldMesh(map, table);
    EXPECT_EQ(mesh.faces[0].pass, scene::Pass::Translucent);
    EXPECT_EQ(mesh.faces[1].pass, scene::Pass::Sky);
    EXPECT_EQ(mesh.faces[2].num_indices, 0u);
    EXPECT_EQ(mesh.faces[3].pass, scene::Pass::AlphaTest);
    EXPECT_EQ(mesh.drawable_faces, 3u);
    ASSERT_EQ(mesh.materials.size(), table.size());
    EXPECT_EQ(mesh.materials[0].flags, table[0].flags);
}

// A material file's drawing fields (Source .vmt, content::applyVmtDrawing) join the map's
// flags and pick the pass; the cutoff and full light reach the table for the renderer.
TEST(MaterialTable, MaterialFileFieldsJoinTheMapsFlags) {
    const bsp::Map map =
        triangleMap({material("glass", bsp::kSurfLiquid), material("fence"), material("unlit"),
                     material("plain"), material("water", bsp::kSurfLiquid)});
    std::vector<content::TextureInfo> textures(5);
    textures[0].surface_flags = bsp::kSurfTranslucent;
    textures[1].surface_flags = bsp::kSurfAlphaTest | bsp::kSurfNoCull;
    textures[1].alpha_cutoff = 0.75f;
    textures[2].surface_flags = bsp::kSurfFullbright;
    textures[2].fullbright_light = 1.0f;
    // Opaque water ($forcecheap): fullbright, its shading carried for the renderer.
    textures[4].surface_flags = bsp::kSurfFullbright;
    textures[4].water.enabled = true;
    textures[4].water.blended = false;
    textures[4].water.base_colour = {0.1f, 0.2f, 0.3f};
    textures[4].water.reflect_tint = {0.4f, 0.5f, 0.6f};
    textures[4].water.fade_start = 7.0f;
    textures[4].water.fade_end = 9.0f;
    const scene::MaterialTable table = scene::resolveMaterials(map, nullptr, textures);
    ASSERT_EQ(table.size(), 5u);
    EXPECT_EQ(table[0].flags, bsp::kSurfLiquid | bsp::kSurfTranslucent);
    EXPECT_EQ(table[0].pass, scene::Pass::Translucent);
    EXPECT_EQ(table[1].flags, bsp::kSurfAlphaTest | bsp::kSurfNoCull);
    EXPECT_EQ(table[1].pass, scene::Pass::AlphaTest);
    EXPECT_EQ(table[1].alpha_cutoff, 0.75f);
    EXPECT_EQ(table[2].pass, scene::Pass::Opaque);
    EXPECT_EQ(table[2].fullbright_light, 1.0f);
    EXPECT_EQ(table[3].flags, 0u);
    EXPECT_EQ(table[3].alpha_cutoff, 0.5f);
    EXPECT_EQ(table[3].fullbright_light, 0.0f);
    EXPECT_FALSE(table[3].water.enabled);
    EXPECT_EQ(table[4].pass, scene::Pass::Liquid); // SURF_WARP, not translucent
    EXPECT_TRUE(table[4].water.enabled);
    EXPECT_FALSE(table[4].water.blended);
    EXPECT_EQ(table[4].water.base_colour, (std::array<float, 3>{0.1f, 0.2f, 0.3f}));
    EXPECT_EQ(table[4].water.reflect_tint, (std::array<float, 3>{0.4f, 0.5f, 0.6f}));
    EXPECT_EQ(table[4].water.fade_start, 7.0f);
    EXPECT_EQ(table[4].water.fade_end, 9.0f);
}

// Quake 2: the map's uv are in texels until the decoded texture's size is known; the mesh
// divides them (the map keeps them), as bsp::applyTextureSizes did in place before.
TEST(MaterialTable, TexelUvAreDividedByTheDecodedSize) {
    bsp::Material texels = material("e1u1/floor");
    texels.uv_in_texels = true;
    bsp::Material unknown = texels; // its texture has no size: left in texels
    bsp::Material miptex = material("wall");
    miptex.width = 16;
    miptex.height = 16;
    const bsp::Map map = triangleMap({texels, unknown, miptex});
    const std::vector<content::TextureInfo> textures = {texture(64, 32), content::TextureInfo(),
                                                        texture(128, 128)};
    const scene::MaterialTable table = scene::resolveMaterials(map, nullptr, textures);
    EXPECT_TRUE(table[0].divide_uv);
    EXPECT_EQ(table[0].width, 64);
    EXPECT_EQ(table[0].height, 32);
    EXPECT_FALSE(table[1].divide_uv);
    EXPECT_EQ(table[1].width, 0);
    EXPECT_FALSE(table[2].divide_uv); // the map knows its size: uv are in repeats already
    EXPECT_EQ(table[2].width, 16);

    const scene::WorldMesh mesh = scene::buildWorldMesh(map, table);
    ASSERT_EQ(mesh.vertices.size(), 9u);
    EXPECT_EQ(mesh.vertices[0].uv, glm::vec2(1.0f, 1.0f));
    EXPECT_EQ(mesh.vertices[1].uv, glm::vec2(2.0f, 0.0f));
    EXPECT_EQ(mesh.vertices[2].uv, glm::vec2(0.0f, 3.0f));
    EXPECT_EQ(mesh.vertices[3].uv, glm::vec2(64.0f, 32.0f));
    EXPECT_EQ(mesh.vertices[6].uv, glm::vec2(64.0f, 32.0f));
    EXPECT_EQ(map.vertices[0].uv, glm::vec2(64.0f, 32.0f)); // the map is not written
    EXPECT_TRUE(map.materials[0].uv_in_texels);
    EXPECT_EQ(map.materials[0].width, 0);
}

// A patch's control points are divided before tessellation, as when the map's uv were.
TEST(MaterialTable, TexelUvOfPatchesAreDividedBeforeTessellation) {
    bsp::Material texels = material("patchy");
    texels.uv_in_texels = true;
    bsp::Map map;
    map.materials = {texels};
    bsp::Face f;
    f.kind = bsp::FaceKind::Patch;
    f.material = 0;
    f.num_vertices = 9;
    f.patch_width = 3;
    f.patch_height = 3;
    for (int k = 0; k < 9; ++k) {
        bsp::Vertex v;
        v.position = glm::vec3(float(k % 3), float(k / 3), 0.0f);
        v.uv = glm::vec2(float(k % 3) * 37.0f, float(k / 3) * 11.0f);
        map.vertices.push_back(v);
    }
    map.faces.push_back(f);
    map.submodels.emplace_back();
    const std::vector<content::TextureInfo> textures = {texture(24, 40)};
    const scene::MaterialTable table = scene::resolveMaterials(map, nullptr, textures);
    scene::WorldMeshOptions options;
    options.patch_level = 3;
    const scene::WorldMesh mesh = scene::buildWorldMesh(map, table, options);

    std::vector<bsp::Vertex> divided = map.vertices;
    for (bsp::Vertex& v : divided)
        v.uv = glm::vec2(v.uv.x / 24.0f, v.uv.y / 40.0f);
    const bsp::PatchMesh want = bsp::tessellatePatch(divided, 3, 3, 3);
    ASSERT_EQ(mesh.vertices.size(), want.vertices.size());
    for (size_t i = 0; i < want.vertices.size(); ++i)
        ASSERT_EQ(mesh.vertices[i].uv, want.vertices[i].uv) << i;
    EXPECT_EQ(map.vertices[1].uv, glm::vec2(37.0f, 0.0f));
}

// Sort comes from the shader; blend order from how the renderer draws the material.
TEST(MaterialTable, SortAndBlendOrderComeFromTheStages) {
    content::ShaderLibrary shaders;
    shaders.addScript(content::parseShaderScript(
        "textures/t/glass { sort 9\n{ map $whiteimage\nblendfunc blend } }\n"
        "textures/t/beam { surfaceparm trans\n{ map $whiteimage\nblendfunc add } }\n",
        "scripts/t.shader"));
    const bsp::Map map = triangleMap(
        {material("textures/t/glass"), material("textures/t/beam"), material("+0lava")});
    scene::MaterialTable table = scene::resolveMaterials(map, &shaders);
    for (const scene::ResolvedMaterial& m : table) {
        EXPECT_EQ(m.sort, 0.0f);
        EXPECT_EQ(m.blend_order, scene::BlendOrder::Ordered);
    }
    const content::FileSystem fs;
    const scene::MaterialStages stages = scene::buildMaterialStages(map, table, shaders, fs);
    EXPECT_EQ(table[0].sort, 9.0f);
    EXPECT_EQ(table[0].blend_order, scene::BlendOrder::Ordered);
    EXPECT_EQ(table[1].sort, shaders.find("textures/t/beam")->sort);
    EXPECT_EQ(table[1].blend_order, scene::BlendOrder::Commutes);
    EXPECT_EQ(table[2].sort, 0.0f); // no shader
    EXPECT_EQ(table[2].blend_order, scene::BlendOrder::CommutesInAdditiveModel);
    // The mesh carries the table, which is what scene::Visibility sorts blended faces by.
    const scene::WorldMesh mesh = scene::buildMapMesh(map, table, stages);
    EXPECT_EQ(mesh.materials[0].sort, 9.0f);
    EXPECT_EQ(mesh.materials[1].blend_order, scene::BlendOrder::Commutes);
}

// A Source map's materials through a game folder: the one with a cube gets its reflection's
// numbers in its resolved material; the three whose $envmap is not drawn (an unpatched
// env_cubemap, a missing cube, a cube that is no cube) are one warning for the map, not three.
TEST(DrawableWorld, EnvMapProblemsAreOneWarningForTheMap) {
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() /
        ("bspv_envmap_world_" + std::to_string(std::random_device()()));
    std::filesystem::create_directories(dir / "materials/maps/m");
    const auto write = [&dir](const std::string& name, const std::vector<uint8_t>& bytes) {
        std::ofstream(dir / name, std::ios::binary)
            .write(reinterpret_cast<const char*>(bytes.data()),
                   static_cast<std::streamsize>(bytes.size()));
    };
    const auto text = [](const std::string& s) { return std::vector<uint8_t>(s.begin(), s.end()); };
    write("materials/base.vtf", testsupport::solidVtf(10, 20, 30));
    write(
        "materials/maps/m/c0_0_0.vtf",
        testsupport::cubeVtf({{{1, 0, 0}, {2, 0, 0}, {3, 0, 0}, {4, 0, 0}, {5, 0, 0}, {6, 0, 0}}}));
    const char* vmts[4][2] = {{"shiny", "$envmap maps/m/c0_0_0 $envmaptint \"[.5 .25 1]\""},
                              {"unpatched", "$envmap env_cubemap"},
                              {"gone", "$envmap maps/m/c9_9_9"},
                              {"flat", "$envmap base"}};
    bsp::Map map;
    map.format = bsp::Format::Source;
    for (const auto& [name, keys] : vmts) {
        write(std::string("materials/") + name + ".vmt",
              text(std::string("LightmappedGeneric { $basetexture base ") + keys + " }"));
        bsp::Material m;
        m.name = name;
        map.materials.push_back(m);
    }
    content::FileSystem fs;
    ASSERT_TRUE(fs.addDirectory(dir));
    scene::WorldBuildOptions options;
    options.material_files = game::MaterialFiles::ValveMaterials;
    options.texture_threads = 1;
    scene::WorldBuildLog log;
    const scene::DrawableWorld world =
        scene::buildDrawableWorld(map, fs, content::loadPalettedSources(map, fs), options, &log);
    std::filesystem::remove_all(dir);
    ASSERT_EQ(world.materials.size(), 4u);
    EXPECT_TRUE(world.materials[0].envmap.enabled);
    EXPECT_EQ(world.materials[0].envmap.tint, (std::array<float, 3>{0.5f, 0.25f, 1.0f}));
    for (size_t i = 1; i < 4; ++i)
        EXPECT_FALSE(world.materials[i].envmap.enabled) << i;
    const auto envmap_warnings =
        std::count_if(log.warnings.begin(), log.warnings.end(),
                      [](const std::string& w) { return w.find("$envmap") != std::string::npos; });
    ASSERT_EQ(envmap_warnings, 1);
    const auto it =
        std::find_if(log.warnings.begin(), log.warnings.end(),
                     [](const std::string& w) { return w.find("$envmap") != std::string::npos; });
    EXPECT_EQ(it->rfind("3 materials' $envmap reflection not drawn: unpatched: ", 0), 0u) << *it;
}
