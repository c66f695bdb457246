// The model registry (content/model/model_asset.h): the decoder is picked by the file's magic,
// never its name; companions are read by the decoder; errors name the file or the format; the
// cache reads a file once and makes each key once. Hand-made files from tests/support.
#include "content/model/model_asset.h"

#include "content/vfs/vfs.h"
#include "core/file.h"

#include "support/md2_builder.h"
#include "support/md3_builder.h"
#include "support/model_builder.h"
#include "support/q1_builder.h"
#include "support/source_model_builder.h"
#include "support/studio_builder.h"
#include "support/vfs_folder.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstring>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace {

using content::ModelFormat;

std::vector<uint8_t> withVersion(std::vector<uint8_t> bytes, int32_t version) {
    std::memcpy(bytes.data() + 4, &version, 4);
    return bytes;
}

// A folder of files mounted as a file system, removed at the end.
struct Folder : testsupport::VfsFolder {
    Folder() : VfsFolder("model_registry") {}
};

TEST(ModelRegistry, RowsArePickedByTheMagic) {
    const std::pair<std::vector<uint8_t>, ModelFormat> files[] = {
        {modeltest::buildMdl(), ModelFormat::QuakeAlias},
        {modeltest::buildSprite(1), ModelFormat::Sprite},
        {modeltest::buildSprite(2), ModelFormat::Sprite},
        {md2test::buildMd2(), ModelFormat::Quake2Alias},
        {md2test::buildSp2(), ModelFormat::Quake2Sprite},
        {md3test::buildMd3(), ModelFormat::Quake3},
        {studiotest::buildStudio(), ModelFormat::HalfLifeStudio},
        {withVersion(studiotest::buildStudio(), 44), ModelFormat::SourceStudio},
        {withVersion(studiotest::buildStudio(), 49), ModelFormat::SourceStudio},
        {q1test::buildQ1(), ModelFormat::Brush},
    };
    for (const auto& [bytes, format] : files) {
        const content::ModelDecoder* d = content::findModelDecoder(bytes);
        ASSERT_NE(d, nullptr) << int(format);
        EXPECT_EQ(d->format, format) << d->name;
    }
    // A version another row does not claim reaches the format's decoder, which names it.
    const auto* hl11 = content::findModelDecoder(withVersion(studiotest::buildStudio(), 11));
    ASSERT_NE(hl11, nullptr);
    EXPECT_EQ(hl11->format, ModelFormat::HalfLifeStudio);
    const std::vector<uint8_t> junk = {'J', 'U', 'N', 'K', 0, 0, 0, 0};
    EXPECT_EQ(content::findModelDecoder(junk), nullptr);
    EXPECT_EQ(content::findModelDecoder(std::vector<uint8_t>{'I', 'D'}), nullptr);
    EXPECT_EQ(content::modelDecoders().size(), 8u);
}

TEST(ModelRegistry, TheMagicDecidesNotTheExtension) {
    Folder f;
    f.put("models/sprite.mdl", modeltest::buildSprite(1));
    f.put("models/alias.spr", modeltest::buildMdl());
    f.put("models/quake2.bsp", md2test::buildMd2());
    f.mount();
    auto sprite = content::loadModelAsset(f.vfs, "models/sprite.mdl");
    ASSERT_TRUE(sprite.ok()) << sprite.error().message();
    EXPECT_EQ(sprite->format, ModelFormat::Sprite);
    ASSERT_EQ(sprite->parts.size(), 1u);
    EXPECT_TRUE(sprite->parts[0].sprite.has_value());
    EXPECT_EQ(sprite->parts[0].name, "models/sprite.mdl");
    auto alias = content::loadModelAsset(f.vfs, "models/alias.spr");
    ASSERT_TRUE(alias.ok()) << alias.error().message();
    EXPECT_EQ(alias->format, ModelFormat::QuakeAlias);
    EXPECT_TRUE(alias->parts[0].mesh.has_value());
    // The .md2's skin (models/test/skin.pcx) is a companion it looks for: missing, a warning.
    auto md2 = content::loadModelAsset(f.vfs, "models/quake2.bsp");
    ASSERT_TRUE(md2.ok()) << md2.error().message();
    EXPECT_EQ(md2->format, ModelFormat::Quake2Alias);
    ASSERT_TRUE(md2->parts[0].mesh.has_value());
    EXPECT_EQ(md2->parts[0].warnings.size(), 1u);
    EXPECT_FALSE(md2->brush.has_value());
}

TEST(ModelRegistry, ErrorsNameTheFileOrTheFormat) {
    Folder f;
    f.put("models/junk.mdl", {'J', 'U', 'N', 'K', 1, 2, 3, 4});
    f.put("models/source.mdl", srcmdltest::build(srcmdltest::Spec{}).mdl); // no .vvd beside it
    f.put("progs/v7.mdl", withVersion(modeltest::buildMdl(), 7));
    f.mount();
    auto missing = content::loadModelAsset(f.vfs, "models/none.mdl");
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().code, core::ErrorCode::NotFound);
    EXPECT_EQ(missing.error().lump, "models/none.mdl");
    auto junk = content::loadModelAsset(f.vfs, "models/junk.mdl");
    ASSERT_FALSE(junk.ok());
    EXPECT_EQ(junk.error().code, core::ErrorCode::UnknownFormat);
    EXPECT_NE(junk.error().message().find("'JUNK'"), std::string::npos) << junk.error().message();
    auto source = content::loadModelAsset(f.vfs, "models/source.mdl");
    ASSERT_FALSE(source.ok());
    EXPECT_EQ(source.error().code, core::ErrorCode::NotFound);
    EXPECT_EQ(source.error().lump, "models/source.vvd") << source.error().message();
    auto v7 = content::loadModelAsset(f.vfs, "progs/v7.mdl");
    ASSERT_FALSE(v7.ok());
    EXPECT_EQ(v7.error().code, core::ErrorCode::UnsupportedVersion);
    EXPECT_EQ(v7.error().lump, "mdl.header");
}

// A .mdl of either engine through the one entry point: GoldSrc's (IDST 10) and Source's (IDST
// 44..49, with its .vvd and .vtx), told apart by the version after the magic.
TEST(ModelRegistry, GoldSrcAndSourceStudioModelsShareTheEntryPoint) {
    srcmdltest::Spec spec;
    spec.textures = {"tex"};
    srcmdltest::ModelSpec quad;
    quad.name = "quad";
    quad.meshes[0].vertex_count = 4;
    quad.meshes[0].lods = {{0, 1, 2, 0, 2, 3}};
    spec.parts[0].models.push_back(quad); // body 1 shows the quad instead of the triangle
    const srcmdltest::Files files = srcmdltest::build(spec);
    Folder f;
    f.put("models/props/thing.mdl", files.mdl);
    f.put("models/props/thing.vvd", files.vvd);
    f.put("models/props/thing.dx90.vtx", files.vtx);
    f.put("models/goldsrc.mdl", studiotest::buildStudio());
    f.mount();
    auto goldsrc = content::loadModelAsset(f.vfs, "models/goldsrc.mdl");
    ASSERT_TRUE(goldsrc.ok()) << goldsrc.error().message();
    EXPECT_EQ(goldsrc->format, ModelFormat::HalfLifeStudio);
    content::ModelCache cache;
    auto source = content::loadModelAsset(f.vfs, "models/props/thing.mdl", {}, &cache);
    ASSERT_TRUE(source.ok()) << source.error().message();
    EXPECT_EQ(source->format, ModelFormat::SourceStudio);
    EXPECT_EQ(source->key, "models/props/thing.mdl");
    ASSERT_EQ(source->parts.size(), 1u);
    const content::ModelPart& part = source->parts[0];
    ASSERT_TRUE(part.mesh.has_value());
    EXPECT_EQ(part.mesh->vertex_count, 3u);
    EXPECT_EQ(part.mesh->indices.size(), 3u);
    // materials/models/test/tex.vmt is not there: the model loads, with a warning naming it.
    ASSERT_EQ(part.warnings.size(), 1u);
    EXPECT_NE(part.warnings[0].find("material tex not found"), std::string::npos)
        << part.warnings[0];
    // "body" 1 picks the second model: another asset, its key saying the choice.
    content::ModelRequest body1;
    body1.studio.body = 1;
    auto quad_asset = content::loadModelAsset(f.vfs, "models/props/thing.mdl", body1, &cache);
    ASSERT_TRUE(quad_asset.ok()) << quad_asset.error().message();
    EXPECT_EQ(quad_asset->key, "models/props/thing.mdl#body 1");
    ASSERT_EQ(quad_asset->parts.size(), 1u);
    ASSERT_TRUE(quad_asset->parts[0].mesh.has_value());
    EXPECT_EQ(quad_asset->parts[0].mesh->vertex_count, 4u);
    EXPECT_EQ(quad_asset->parts[0].mesh->indices.size(), 6u);
    // The same choice again through the cache decodes nothing.
    auto again = content::loadModelAsset(f.vfs, "models/props/thing.mdl", body1, &cache);
    ASSERT_TRUE(again.ok());
    EXPECT_TRUE(again->parts.empty());
}

// A real Source model (Wiremod's gate, ../shared/models/source/wire) through the registry.
TEST(ModelRegistry, RealSourceModelLoads) {
    content::FileSystem vfs;
    const fs::path wire = fs::path(BSPV_SHARED_MAPS_DIR) / ".." / "models" / "source" / "wire";
    ASSERT_TRUE(vfs.addDirectory(wire).ok()) << wire;
    auto gate = content::loadModelAsset(vfs, "models/beer/wiremod/gate_e2.mdl");
    ASSERT_TRUE(gate.ok()) << gate.error().message();
    EXPECT_EQ(gate->format, ModelFormat::SourceStudio);
    ASSERT_EQ(gate->parts.size(), 1u);
    ASSERT_TRUE(gate->parts[0].mesh.has_value());
    EXPECT_GT(gate->parts[0].mesh->vertex_count, 0u);
    EXPECT_EQ(gate->parts[0].mesh->indices.size() % 3, 0u);
    EXPECT_FALSE(gate->parts[0].mesh->indices.empty());
}

TEST(ModelRegistry, BrushModelFilesAreParsedMaps) {
    Folder f;
    f.put("maps/b_box.bsp", q1test::buildQ1());
    f.mount();
    auto box = content::loadModelAsset(f.vfs, "maps/b_box.bsp");
    ASSERT_TRUE(box.ok()) << box.error().message();
    EXPECT_EQ(box->format, ModelFormat::Brush);
    ASSERT_TRUE(box->brush.has_value());
    EXPECT_FALSE(box->brush->submodels.empty());
    ASSERT_EQ(box->parts.size(), 1u);
    EXPECT_FALSE(box->parts[0].mesh || box->parts[0].sprite);
    EXPECT_TRUE(box->parts[0].error.empty());
}

// assimp-testmodels' man.mdl keeps its textures in manT.mdl: the decoder reads it as the
// model's companion, and refuses the model without it, naming the file.
TEST(ModelRegistry, HalfLifeTextureFileIsReadByTheDecoder) {
    const fs::path hl1 = "/usr/share/assimp/models/MDL/MDL (HL1)";
    auto man = core::readFile(hl1 / "man.mdl");
    auto man_t = core::readFile(hl1 / "manT.mdl");
    ASSERT_TRUE(man.ok() && man_t.ok()) << "apt-get install assimp-testmodels";
    Folder f;
    f.put("models/barney.mdl", *man);
    f.put("models/scientist.mdl", *man);
    f.put("models/scientistT.mdl", *man_t);
    f.mount();
    auto without = content::loadModelAsset(f.vfs, "models/barney.mdl");
    ASSERT_FALSE(without.ok());
    EXPECT_EQ(without.error().code, core::ErrorCode::NotFound);
    EXPECT_EQ(without.error().lump, "models/barneyT.mdl");
    auto with = content::loadModelAsset(f.vfs, "models/scientist.mdl");
    ASSERT_TRUE(with.ok()) << with.error().message();
    ASSERT_TRUE(with->parts[0].mesh.has_value());
    EXPECT_FALSE(with->parts[0].mesh->images.empty());
    EXPECT_GT(with->parts[0].mesh->images[0].width, 1);
}

TEST(ModelRegistry, TheCacheReadsAFileOnceAndMakesAKeyOnce) {
    Folder f;
    f.put("models/body.mdl", studiotest::buildStudio({.body_groups = true}));
    f.put("models/thing.md3", md3test::buildMd3());
    f.mount();
    content::ModelCache cache;
    content::ModelRequest body0;
    auto first = content::loadModelAsset(f.vfs, "models/body.mdl", body0, &cache);
    ASSERT_TRUE(first.ok()) << first.error().message();
    EXPECT_EQ(first->key, "models/body.mdl");
    ASSERT_EQ(first->parts.size(), 1u);
    // Body 0 again (its keys as another entity writes them): the key is made, nothing decoded.
    content::ModelRequest body4;
    body4.studio.body = 4; // (4 / 1) % 2 = 0 and (4 / 2) % 2 = 0: body 0's models
    auto again = content::loadModelAsset(f.vfs, "models/body.mdl", body4, &cache);
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(again->key, "models/body.mdl");
    EXPECT_TRUE(again->parts.empty());
    // Body 1 is another choice of the parts' models: a mesh of its own, from the cached bytes
    // even once the file is gone.
    fs::remove(f.dir / "models/body.mdl");
    content::ModelRequest body1;
    body1.studio.body = 1;
    auto other = content::loadModelAsset(f.vfs, "models/body.mdl", body1, &cache);
    ASSERT_TRUE(other.ok()) << other.error().message();
    EXPECT_EQ(other->key, "models/body.mdl#body 1.0 sequence 0");
    ASSERT_EQ(other->parts.size(), 1u);
    EXPECT_TRUE(other->parts[0].mesh.has_value());
    // Without the cache the file is read again: it is gone.
    EXPECT_FALSE(content::loadModelAsset(f.vfs, "models/body.mdl", body1).ok());
    // A misc_model's skin key is part of an .md3's key (its .skin is missing: the model's own
    // shaders, warned on every part).
    content::ModelRequest skinned;
    skinned.skin_key = "blue";
    auto md3 = content::loadModelAsset(f.vfs, "models/thing.md3", skinned, &cache);
    ASSERT_TRUE(md3.ok()) << md3.error().message();
    EXPECT_EQ(md3->key, "models/thing.md3#skin models/thing_blue.skin");
    ASSERT_EQ(md3->parts.size(), 2u);
    EXPECT_EQ(md3->parts[0].name, "models/thing.md3#body");
    EXPECT_EQ(md3->parts[0].warnings.front(),
              "skin models/thing_blue.skin not found: the model's own shaders");
}

} // namespace
