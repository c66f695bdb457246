// S3TC textures kept compressed (content::CompressedMips, render::uploadsCompressed): an image
// that carries its file's DXT blocks goes up as those blocks with the file's mips, and draws the
// picture its decoded RGBA twin draws (Mesa llvmpipe under xvfb-run).
#include "content/image/image.h"
#include "content/image/vtf.h"
#include "gl_fixture.h"
#include "render/render_target.h"
#include "render/world_gpu.h"
#include "render/world_renderer.h"
#include "render_world.h"
#include "scene/view/visibility.h"
#include "scene/world/light_styles.h"
#include "scene/world/world_mesh.h"
#include "support/map_builder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <memory>
#include <string>

namespace {

constexpr int kW = 320, kH = 180;

// A 64-unit floor at z = 0 with the texture once across it (8 units a texel for an 8x8 image),
// under a lightmap of `luxel` everywhere.
bsp::Map floorMap(uint8_t luxel) {
    return testsupport::litFloorMap(luxel, std::nullopt);
}

// An 8x8 DXT1 image with its whole chain: four blocks of level 0, each two colour ends (red and
// blue, green and white, ...) with its rows on indices 0, 1, 2, 3, and one block per smaller mip.
content::Image dxtImage() {
    const std::array<std::array<uint16_t, 2>, 4> ends = {
        {{0xf800, 0x001f}, {0x07e0, 0xffff}, {0xffe0, 0x0000}, {0x801f, 0x0400}}};
    content::CompressedMips c;
    c.format = content::CompressedMips::Format::Dxt1;
    std::vector<uint8_t> level0;
    for (const auto& e : ends)
        for (const uint8_t b :
             {uint8_t(e[0] & 0xff), uint8_t(e[0] >> 8), uint8_t(e[1] & 0xff), uint8_t(e[1] >> 8),
              uint8_t(0x00), uint8_t(0x55), uint8_t(0xaa), uint8_t(0xff)})
            level0.push_back(b);
    c.levels.push_back(level0);
    for (int level = 1; level < 4; ++level)
        c.levels.emplace_back(level0.begin(), level0.begin() + 8);
    // Blocks are stored row by row: blocks 0, 1 on top, 2, 3 below.
    auto decoded = content::decodeVtfPixels(content::VtfFormat::DXT1, 8, 8, level0, false);
    EXPECT_TRUE(decoded);
    content::Image img = std::move(*decoded);
    img.compressed = std::make_shared<const content::CompressedMips>(std::move(c));
    return img;
}

class CompressedTextures : public gltest::GlFixture {
protected:
    std::vector<uint8_t>
    render(const content::Image& texture, uint32_t* compressed,
           render::CompressedTextures policy = render::CompressedTextures::Blocks) {
        const bsp::Map map = floorMap(128);
        const scene::WorldMesh mesh = scene::buildWorldMesh(map);
        std::vector<content::TextureInfo> textures(1);
        textures[0].image = texture;
        textures[0].missing = false;
        render::WorldSource source{map, mesh, textures};
        source.compressed = policy;
        scene::Camera cam;
        cam.position = {32, 32, 64}; // the whole floor in view, 2.5 pixels a unit
        cam.pitch = 90.0f;
        cam.yaw = 90.0f;
        cam.aspect = static_cast<float>(kW) / static_cast<float>(kH);
        cam.z_near = 1.0f;
        render::GpuStats stats;
        std::vector<uint8_t> pixels =
            testsupport::renderWorld(source, cam, kW, kH, testsupport::testRenderOptions(), &stats);
        *compressed = stats.compressed_textures;
        return pixels;
    }
};

} // namespace

TEST_F(CompressedTextures, DxtBlocksDrawAsTheirDecodedTexels) {
    ASSERT_TRUE(render::caps().texture_s3tc)
        << "the context lacks EXT_texture_compression_s3tc (" << render::caps().renderer << ")";
    const content::Image dxt = dxtImage();
    ASSERT_TRUE(render::uploadsCompressed(dxt, render::CompressedTextures::Blocks));
    content::Image rgba = dxt;
    rgba.compressed.reset();
    EXPECT_FALSE(render::uploadsCompressed(rgba, render::CompressedTextures::Blocks));
    // A level of the wrong size is never handed to GL: the RGBA goes up instead.
    content::Image broken = dxt;
    auto bad = std::make_shared<content::CompressedMips>(*dxt.compressed);
    bad->levels[0].pop_back();
    broken.compressed = bad;
    EXPECT_FALSE(render::uploadsCompressed(broken, render::CompressedTextures::Blocks));

    uint32_t kept = 0, kept_plain = 0;
    const std::vector<uint8_t> a = render(dxt, &kept);
    const std::vector<uint8_t> b = render(rgba, &kept_plain);
    EXPECT_EQ(kept, 1u);
    EXPECT_EQ(kept_plain, 0u);
    ASSERT_EQ(a.size(), b.size());
    // The same picture: the ends decode exactly, the interpolated thirds may round one step
    // apart between Mesa's decoder and content::decodeVtfPixels.
    int worst = 0;
    size_t reddish = 0, blueish = 0;
    for (size_t i = 0; i < a.size(); i += 4) {
        for (size_t c = 0; c < 3; ++c)
            worst = std::max(worst, std::abs(int(a[i + c]) - int(b[i + c])));
        reddish += a[i] > 200 && a[i + 1] < 40 && a[i + 2] < 40 ? 1 : 0;
        blueish += a[i + 2] > 200 && a[i] < 40 && a[i + 1] < 40 ? 1 : 0;
    }
    EXPECT_LE(worst, 2);
    // Not two blank frames: the red and blue rows of the first block are on screen.
    EXPECT_GT(reddish, 100u);
    EXPECT_GT(blueish, 100u);
}

// What becomes of the blocks by policy: Texels never keeps them; Auto keeps them on a GPU and
// decodes them on a software rasteriser (this suite runs on llvmpipe), drawing the same texels.
TEST_F(CompressedTextures, AutoDecodesBlocksOnASoftwareRasteriser) {
    EXPECT_TRUE(render::isSoftwareRenderer("llvmpipe (LLVM 15.0.6, 256 bits)"));
    EXPECT_TRUE(render::isSoftwareRenderer("softpipe"));
    EXPECT_TRUE(render::isSoftwareRenderer("Google SwiftShader"));
    EXPECT_FALSE(render::isSoftwareRenderer("NVIDIA H100 80GB HBM3/PCIe/SSE2"));
    EXPECT_FALSE(render::isSoftwareRenderer("AMD Radeon RX 7900 XTX (radeonsi, navi31)"));
    ASSERT_TRUE(render::caps().texture_s3tc);
    const content::Image dxt = dxtImage();
    EXPECT_FALSE(render::uploadsCompressed(dxt, render::CompressedTextures::Texels));
    EXPECT_EQ(render::uploadsCompressed(dxt, render::CompressedTextures::Auto),
              !render::caps().software);
    uint32_t blocks = 0, texels = 0, automatic = 0;
    const std::vector<uint8_t> a = render(dxt, &blocks, render::CompressedTextures::Blocks);
    const std::vector<uint8_t> b = render(dxt, &texels, render::CompressedTextures::Texels);
    render(dxt, &automatic, render::CompressedTextures::Auto);
    EXPECT_EQ(blocks, 1u);
    EXPECT_EQ(texels, 0u);
    EXPECT_EQ(automatic, render::caps().software ? 0u : 1u);
    ASSERT_EQ(a.size(), b.size());
    int worst = 0;
    for (size_t i = 0; i < a.size(); ++i)
        worst = std::max(worst, std::abs(int(a[i]) - int(b[i])));
    EXPECT_LE(worst, 2); // as DxtBlocksDrawAsTheirDecodedTexels
}
