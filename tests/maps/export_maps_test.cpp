// Real maps of every format exported to .glb and read back with tinygltf: node, triangle and
// material counts and the bounds against the common model and what --info reports (the
// bundle's mesh triangles, submodels + entities, the world model's bounds). A missing map
// file fails. The Khronos validator runs on the same maps in CTest (export_validate_*).
#include "export/export.h"

#include "export/export_scene.h"
#include "scene/load/map_bundle.h"
#include "support/gltf_check.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <tuple>

namespace fs = std::filesystem;

namespace {

const fs::path kMaps = BSPV_SHARED_MAPS_DIR;
constexpr float kInch = 0.0254f;

struct Expected {
    uint64_t triangles = 0; // drawn faces but sky and fog volumes
    uint64_t hidden_triangles = 0;
    // Distinct (texture name, lightmap page, opacity) of those faces: Quake 2 draws one
    // texture at 33% and 66% (TRANS33, TRANS66).
    size_t materials = 0;
    glm::vec3 mins{std::numeric_limits<float>::max()};
    glm::vec3 maxs{std::numeric_limits<float>::lowest()};
};

// What the export should hold, from the bundle's mesh and map (not from the export scene).
Expected expectedOf(const scene::MapBundle& b) {
    Expected e;
    std::set<std::tuple<std::string, int, float>> materials;
    for (size_t i = 0; i < b.mesh.faces.size(); ++i) {
        const scene::MeshFace& f = b.mesh.faces[i];
        if (f.num_indices == 0)
            continue;
        const scene::ResolvedMaterial& m = b.materials[static_cast<size_t>(f.material)];
        if (f.pass == scene::Pass::Sky || (m.flags & bsp::kSurfFog)) {
            e.hidden_triangles += f.num_indices / 3;
            continue;
        }
        e.triangles += f.num_indices / 3;
        const glm::vec3 origin = b.map.submodels[static_cast<size_t>(f.submodel)].origin;
        int page = -1;
        for (uint32_t k = 0; k < f.num_indices; ++k) {
            const scene::WorldVertex& v = b.mesh.vertices[b.mesh.indices[f.first_index + k]];
            const glm::vec3 p = exporter::toExportAxes(v.position + origin, kInch);
            e.mins = glm::min(e.mins, p);
            e.maxs = glm::max(e.maxs, p);
            page = static_cast<int>(v.lm_layer);
        }
        const float alpha = f.pass >= scene::Pass::Liquid ? m.alpha : 1.0f;
        materials.emplace(b.map.materials[static_cast<size_t>(f.material)].name, page, alpha);
    }
    e.materials = materials.size();
    return e;
}

void checkMap(const std::string& relative) {
    SCOPED_TRACE(relative);
    const fs::path path = kMaps / relative;
    ASSERT_TRUE(fs::exists(path)) << path;
    auto loaded = scene::loadMapBundle(path.string(), {});
    ASSERT_TRUE(loaded) << loaded.error().message();
    const scene::MapBundle& b = **loaded;
    const Expected want = expectedOf(b);
    ASSERT_GT(want.triangles, 0u);

    const fs::path out = fs::temp_directory_path() / ("bspv_export_" + std::to_string(::getpid()) +
                                                      "_" + path.stem().string() + ".glb");
    auto r = exporter::exportMap(b, out, {}, "bspview test");
    ASSERT_TRUE(r) << r.error().message();
    tinygltf::Model model;
    const bool read = gltftest::load(out, model);
    fs::remove(out);
    ASSERT_TRUE(read);
    const gltftest::Summary s = gltftest::summarize(model);

    EXPECT_EQ(s.nodes, b.map.submodels.size() + b.map.entities.size());
    EXPECT_EQ(s.triangles, want.triangles);
    EXPECT_EQ(s.triangles + want.hidden_triangles, b.mesh.triangles); // --info "triangles"
    // glTF front faces are counter-clockwise. Clockwise ones are compile slivers: a vertex a
    // float's noise past the edge, or a Quake 2 terrain face a few millimetres wide that is not
    // quite convex. Measured: at most 7.4e-5 of the area (aq_urbanjungle, 809 triangles,
    // 1.7 m2); the unturned winding of before puts all of it there.
    EXPECT_LT(s.clockwise_area, 1e-3 * s.front_area)
        << s.clockwise << " clockwise triangles, " << s.clockwise_area << " of " << s.front_area
        << " m2";
    EXPECT_EQ(s.materials, want.materials);
    std::set<std::string> names;
    for (const tinygltf::Material& m : model.materials)
        names.insert(m.name);
    EXPECT_EQ(names.size(), s.materials) << "material names are unique";
    // Brush models here are unrotated, so node translation + vertex = origin + vertex.
    for (int k = 0; k < 3; ++k) {
        EXPECT_NEAR(s.mins[k], want.mins[k], 1e-4f) << k;
        EXPECT_NEAR(s.maxs[k], want.maxs[k], 1e-4f) << k;
    }
    // Inside the world model's bounds (--info "bounds") and the brush models' bounds where they
    // are placed (Quake 1 doors and trains start away from where they were built), converted
    // the same way.
    glm::vec3 box_min = b.map.worldMins(), box_max = b.map.worldMaxs();
    for (size_t m = 1; m < b.map.submodels.size(); ++m) {
        const bsp::Submodel& sm = b.map.submodels[m];
        box_min = glm::min(box_min, sm.mins + sm.origin);
        box_max = glm::max(box_max, sm.maxs + sm.origin);
    }
    const glm::vec3 a = exporter::toExportAxes(box_min, kInch);
    const glm::vec3 c = exporter::toExportAxes(box_max, kInch);
    const glm::vec3 lo = glm::min(a, c), hi = glm::max(a, c);
    for (int k = 0; k < 3; ++k) {
        EXPECT_GE(s.mins[k], lo[k] - kInch) << k;
        EXPECT_LE(s.maxs[k], hi[k] + kInch) << k;
    }
}

} // namespace

TEST(ExportMaps, Quake1) {
    checkMap("q1/lq_e1m1.bsp");
}
// Quake 1 fullbright texels: the renderer draws them in place of the lit texel (mix by the glow
// alpha), glTF adds the emissive colour to the lit base colour. So where a texel glows the
// base colour is black and the emissive texture holds it; elsewhere the base is the texture.
TEST(ExportMaps, Quake1FullbrightTexelsOnlyInTheEmissiveTexture) {
    auto loaded = scene::loadMapBundle((kMaps / "q1/lq_e1m1.bsp").string(), {});
    ASSERT_TRUE(loaded) << loaded.error().message();
    const scene::MapBundle& b = **loaded;
    const fs::path out =
        fs::temp_directory_path() / ("bspv_export_glow_" + std::to_string(::getpid()) + ".glb");
    ASSERT_TRUE(exporter::exportMap(b, out, {}, "bspview test"));
    tinygltf::Model model;
    const bool read = gltftest::load(out, model);
    fs::remove(out);
    ASSERT_TRUE(read);
    auto imageOf = [&](int texture) -> const tinygltf::Image& {
        return model
            .images[static_cast<size_t>(model.textures[static_cast<size_t>(texture)].source)];
    };
    size_t glowing_materials = 0, glowing = 0, plain = 0;
    for (const tinygltf::Material& m : model.materials) {
        if (m.emissiveTexture.index < 0)
            continue;
        ++glowing_materials;
        const std::string name = m.extras.Get("bsp_material").Get<std::string>();
        const content::TextureInfo* info = nullptr;
        for (size_t i = 0; i < b.map.materials.size() && !info; ++i)
            if (b.map.materials[i].name == name)
                info = &b.textures[i];
        ASSERT_NE(info, nullptr) << name;
        const tinygltf::Image& base = imageOf(m.pbrMetallicRoughness.baseColorTexture.index);
        const tinygltf::Image& glow = imageOf(m.emissiveTexture.index);
        ASSERT_EQ(base.width, info->image.width) << name;
        ASSERT_EQ(base.height, info->image.height) << name;
        ASSERT_EQ(glow.width, base.width) << name;
        const auto bc = static_cast<size_t>(base.component),
                   gc = static_cast<size_t>(glow.component);
        for (size_t t = 0; t < static_cast<size_t>(base.width) * static_cast<size_t>(base.height);
             ++t) {
            const bool lit = info->glow.rgba[t * 4 + 3] == 255;
            (lit ? glowing : plain) += 1;
            for (size_t c = 0; c < 3; ++c) {
                ASSERT_EQ(base.image[t * bc + c], lit ? 0 : info->image.rgba[t * 4 + c])
                    << name << " texel " << t;
                ASSERT_EQ(glow.image[t * gc + c], lit ? info->image.rgba[t * 4 + c] : 0)
                    << name << " texel " << t;
            }
        }
    }
    EXPECT_GT(glowing_materials, 0u);
    EXPECT_GT(glowing, 0u);
    EXPECT_GT(plain, glowing);
}
TEST(ExportMaps, Quake1Bsp2) {
    checkMap("q1bsp2/lq_lq1m1.bsp");
}
TEST(ExportMaps, HalfLife) {
    checkMap("hl/cs_awp_india.bsp");
}
TEST(ExportMaps, Quake2) {
    checkMap("q2/aq_urbanjungle.bsp");
}

// The glTF writer stores the game's light (scene/export_scene.h): every base colour texel
// through the texel part of the lighting rule (Half-Life's: none, its textures were loaded
// through texgammatable already, so they are written as loaded) and every lightmap page texel
// through its light part over lightmap_scale (Half-Life: light x 1.36, clamped at 1, so
// lightmap_scale 1).
TEST(ExportMaps, HalfLifeImagesCarryTheGamesCurves) {
    auto loaded = scene::loadMapBundle((kMaps / "hl/cs_fy_pool_day.bsp").string(), {});
    ASSERT_TRUE(loaded) << loaded.error().message();
    const scene::MapBundle& b = **loaded;
    const exporter::ExportScene scene = exporter::buildExportScene(b, {});
    EXPECT_FALSE(exporter::curvesTextures(scene));
    EXPECT_EQ(exporter::exportedTexel(scene, {146, 84, 255, 7}), glm::u8vec4(146, 84, 255, 7));
    EXPECT_FLOAT_EQ(scene.light_scale, 1.0f);
    const fs::path out =
        fs::temp_directory_path() / ("bspv_export_hl_" + std::to_string(::getpid()) + ".glb");
    ASSERT_TRUE(exporter::exportMap(b, out, {}, "bspview test"));
    tinygltf::Model model;
    const bool read = gltftest::load(out, model);
    fs::remove(out);
    ASSERT_TRUE(read);
    EXPECT_EQ(model.scenes.at(0).extras.Get("lightmap_scale").GetNumberAsDouble(), 1.0);
    size_t bases = 0, pages = 0;
    for (const tinygltf::Image& img : model.images) {
        const auto n = static_cast<size_t>(img.width) * static_cast<size_t>(img.height);
        const auto comp = static_cast<size_t>(img.component);
        if (img.name.starts_with("lightmap_")) {
            const size_t page = std::stoul(img.name.substr(9));
            ASSERT_LT(page, b.lightmaps.pages.size());
            const std::vector<uint8_t>& rgb = b.lightmaps.pages[page].rgb;
            ASSERT_EQ(rgb.size(), n * 3);
            for (size_t t = 0; t < n; ++t) {
                const glm::u8vec3 want =
                    exporter::savedTexel(scene, {rgb[t * 3], rgb[t * 3 + 1], rgb[t * 3 + 2]});
                for (size_t c = 0; c < 3; ++c)
                    ASSERT_EQ(img.image[t * comp + c], want[c]) << img.name << " texel " << t;
            }
            ++pages;
            continue;
        }
        const content::TextureInfo* info = nullptr;
        for (size_t i = 0; i < b.map.materials.size() && !info; ++i)
            if (exporter::textureFileStem(b.map.materials[i].name) == img.name)
                info = &b.textures[i];
        if (!info || info->image.width != img.width || info->image.height != img.height)
            continue;
        for (size_t t = 0; t < n; ++t) {
            const uint8_t* in = &info->image.rgba[t * 4];
            const glm::u8vec4 want =
                exporter::exportedTexel(scene, glm::u8vec4(in[0], in[1], in[2], in[3]));
            for (size_t c = 0; c < 3; ++c)
                ASSERT_EQ(img.image[t * comp + c], want[c]) << img.name << " texel " << t;
        }
        ++bases;
    }
    EXPECT_GT(bases, 5u);
    EXPECT_GT(pages, 0u);
}
TEST(ExportMaps, Quake3Patches) {
    checkMap("q3/bc_crypt.bsp");
}
TEST(ExportMaps, Qfusion) {
    checkMap("q3/fbsp_nuclide_sky_camera.bsp");
}
