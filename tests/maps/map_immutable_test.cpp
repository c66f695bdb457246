// The parsed map is immutable: scene::loadMapBundle resolves shader flags, texture sizes, sort
// and blend order beside it (scene::MaterialTable) and never writes it. Its map must equal a
// fresh parse of the same file field by field, for a Quake 2 map (texel uv divided by the
// .wal sizes) and a Quake 3 map whose shader scripts add surface flags.
#include "scene/load/map_bundle.h"

#include <gtest/gtest.h>

#include <string>

namespace {

void expectSameMaterials(const bsp::Map& a, const bsp::Map& b) {
    ASSERT_EQ(a.materials.size(), b.materials.size());
    for (size_t i = 0; i < a.materials.size(); ++i) {
        const bsp::Material& x = a.materials[i];
        const bsp::Material& y = b.materials[i];
        EXPECT_EQ(x.name, y.name) << i;
        EXPECT_EQ(x.flags, y.flags) << i << " " << x.name;
        EXPECT_EQ(x.game_flags, y.game_flags) << i;
        EXPECT_EQ(x.game_contents, y.game_contents) << i;
        EXPECT_EQ(x.width, y.width) << i << " " << x.name;
        EXPECT_EQ(x.height, y.height) << i << " " << x.name;
        EXPECT_EQ(x.alpha, y.alpha) << i;
        EXPECT_EQ(x.embedded, y.embedded) << i;
        EXPECT_EQ(x.anim_next, y.anim_next) << i;
        EXPECT_EQ(x.anim_fps, y.anim_fps) << i;
        EXPECT_EQ(x.uv_in_texels, y.uv_in_texels) << i << " " << x.name;
    }
}

void expectSameVertices(const bsp::Map& a, const bsp::Map& b) {
    ASSERT_EQ(a.vertices.size(), b.vertices.size());
    size_t differ = 0;
    for (size_t i = 0; i < a.vertices.size(); ++i) {
        const bsp::Vertex& x = a.vertices[i];
        const bsp::Vertex& y = b.vertices[i];
        differ += x.position != y.position || x.uv != y.uv || x.lm_uv != y.lm_uv ||
                  x.normal != y.normal || x.colour != y.colour;
    }
    EXPECT_EQ(differ, 0u);
    EXPECT_EQ(a.indices, b.indices);
    ASSERT_EQ(a.faces.size(), b.faces.size());
    for (size_t i = 0; i < a.faces.size(); ++i)
        ASSERT_EQ(a.faces[i].material, b.faces[i].material) << i;
    EXPECT_EQ(a.warnings, b.warnings);
}

struct Loaded {
    std::unique_ptr<scene::MapBundle> bundle;
    bsp::Map fresh;
};

Loaded load(const std::string& spec) {
    Loaded out;
    auto bundle = scene::loadMapBundle(spec, scene::LoadSettings());
    EXPECT_TRUE(bundle.ok()) << (bundle.ok() ? "" : bundle.error().message());
    auto fresh = scene::loadMapSpec(spec);
    EXPECT_TRUE(fresh.ok()) << (fresh.ok() ? "" : fresh.error().message());
    if (bundle.ok() && fresh.ok()) {
        out.bundle = std::move(*bundle);
        out.fresh = std::move(*fresh);
    }
    return out;
}

} // namespace

TEST(MapImmutable, Quake2MapKeepsTexelUvAfterLoading) {
    const Loaded l = load(std::string(BSPV_SHARED_MAPS_DIR) + "/q2/aq_wizs.bsp");
    ASSERT_TRUE(l.bundle);
    const bsp::Map& map = l.bundle->map;
    expectSameMaterials(map, l.fresh);
    expectSameVertices(map, l.fresh);

    // Sizes were resolved (so a writer would have had something to write) and the mesh has
    // the divided uv.
    const scene::MaterialTable& table = l.bundle->materials;
    ASSERT_EQ(table.size(), map.materials.size());
    size_t divided = 0, checked = 0;
    for (const scene::ResolvedMaterial& m : table)
        divided += m.divide_uv;
    EXPECT_GT(divided, table.size() / 2);
    const scene::WorldMesh& mesh = l.bundle->mesh;
    for (size_t i = 0; i < map.faces.size(); ++i) {
        const bsp::Face& f = map.faces[i];
        const scene::MeshFace& mf = mesh.faces[i];
        if (mf.num_indices == 0 || f.kind != bsp::FaceKind::Polygon)
            continue;
        const scene::ResolvedMaterial& m = table[static_cast<size_t>(f.material)];
        const glm::vec2 texels = map.vertices[map.indices[f.first_index]].uv;
        const glm::vec2 want =
            m.divide_uv ? glm::vec2(texels.x / float(m.width), texels.y / float(m.height)) : texels;
        ASSERT_EQ(mesh.vertices[mesh.indices[mf.first_index]].uv, want) << "face " << i;
        ++checked;
    }
    EXPECT_GT(checked, 100u);
}

TEST(MapImmutable, Quake3MapKeepsItsFlagsAfterShaderScripts) {
    const Loaded l = load(std::string(BSPV_OPENARENA_DIR) + "/pak1-maps.pk3:maps/oa_dm1.bsp");
    ASSERT_TRUE(l.bundle);
    const bsp::Map& map = l.bundle->map;
    expectSameMaterials(map, l.fresh);
    expectSameVertices(map, l.fresh);

    // The scripts did add flags, sort and blend order: in the table, not in the map.
    const scene::MaterialTable& table = l.bundle->materials;
    ASSERT_EQ(table.size(), map.materials.size());
    size_t added = 0, sorted = 0;
    for (size_t i = 0; i < table.size(); ++i) {
        EXPECT_EQ(table[i].flags & map.materials[i].flags, map.materials[i].flags) << i;
        added += table[i].flags != map.materials[i].flags;
        sorted += table[i].sort != 0.0f;
    }
    EXPECT_GT(added, 0u);
    EXPECT_GT(sorted, 0u);
    EXPECT_GT(l.bundle->shaders.definitionCount(), 0u);
}
