// `--screenshot --overlay`: the image with the overlay differs from the one without inside the
// overlay window's rectangle (reported in the JSON) and is identical everywhere else.
#include "app/cli.h"
#include "app/headless.h"
#include "content/image/image.h"
#include "core/file.h"

#include <gtest/gtest.h>

#include <regex>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

struct Shot {
    content::Image image;
    std::string json;
};

Shot shoot(const fs::path& out, bool overlay) {
    std::vector<std::string> args = {BSPV_SOURCE_DIR "/assets/maps/demo.bsp", "--screenshot",
                                     out.string(), "--size", "640x360"};
    if (overlay)
        args.push_back("--overlay");
    auto options = app::parseArguments(args);
    EXPECT_TRUE(options.ok());
    EXPECT_EQ(options->overlay, overlay);
    testing::internal::CaptureStdout();
    const int rc = app::runScreenshot(*options);
    Shot shot;
    shot.json = testing::internal::GetCapturedStdout();
    EXPECT_EQ(rc, 0) << shot.json;
    auto bytes = core::readFile(out);
    EXPECT_TRUE(bytes.ok());
    if (bytes.ok()) {
        auto image = content::decodeImage(*bytes, out.string());
        EXPECT_TRUE(image.ok());
        if (image.ok())
            shot.image = std::move(*image);
    }
    return shot;
}

} // namespace

TEST(OverlayScreenshot, ChangesOnlyTheOverlayRectangle) {
    const fs::path dir = fs::temp_directory_path() / ("bspv_overlay_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const Shot plain = shoot(dir / "plain.png", false);
    const Shot ui = shoot(dir / "overlay.png", true);
    fs::remove_all(dir);
    EXPECT_EQ(plain.json.find("\"overlay\""), std::string::npos);
    std::smatch m;
    const std::regex rect_re(
        R"re("overlay": \[\s*([0-9.]+),\s*([0-9.]+),\s*([0-9.]+),\s*([0-9.]+)\s*\])re");
    ASSERT_TRUE(std::regex_search(ui.json, m, rect_re)) << ui.json;
    const int x0 = static_cast<int>(std::stof(m[1]));
    const int y0 = static_cast<int>(std::stof(m[2]));
    const int x1 = x0 + static_cast<int>(std::stof(m[3]));
    const int y1 = y0 + static_cast<int>(std::stof(m[4]));
    // The overview is compact (issue 33: the default layout leaves 85 % of the view free) but
    // still a window of several lines.
    EXPECT_GT(x1 - x0, 100);
    EXPECT_GT(y1 - y0, 40);
    ASSERT_EQ(plain.image.width, 640);
    ASSERT_EQ(plain.image.height, 360);
    ASSERT_EQ(ui.image.width, plain.image.width);
    ASSERT_EQ(ui.image.height, plain.image.height);
    size_t inside = 0, inside_changed = 0, outside_changed = 0;
    for (int y = 0; y < plain.image.height; ++y) {
        for (int x = 0; x < plain.image.width; ++x) {
            const size_t i = (static_cast<size_t>(y) * 640 + static_cast<size_t>(x)) * 4;
            const bool same = std::equal(plain.image.rgba.begin() + static_cast<long>(i),
                                         plain.image.rgba.begin() + static_cast<long>(i + 4),
                                         ui.image.rgba.begin() + static_cast<long>(i));
            // One pixel of slack for the window border's anti-aliasing.
            const bool in = x >= x0 - 1 && x <= x1 && y >= y0 - 1 && y <= y1;
            if (in) {
                ++inside;
                inside_changed += !same;
            } else {
                outside_changed += !same;
            }
        }
    }
    EXPECT_EQ(outside_changed, 0u);
    ASSERT_GT(inside, 0u);
    // A translucent panel full of text: most of its pixels change.
    EXPECT_GT(inside_changed, inside / 2) << inside_changed << " of " << inside;
}
