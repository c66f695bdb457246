// bspview: a real-time viewer for Quake-family BSP maps.
#include "app/bench.h"
#include "app/cli.h"
#include "app/export_mode.h"
#include "app/headless.h"
#include "app/viewer.h"

#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    auto options = app::parseArguments(args);
    if (!options) {
        std::fprintf(stderr, "bspview: error: %s\n", options.error().message().c_str());
        return 2;
    }
    switch (options->mode) {
    case app::Mode::Help:
        std::fputs(app::helpText().c_str(), stdout);
        return 0;
    case app::Mode::Version:
        std::fputs(app::versionText().c_str(), stdout);
        return 0;
    case app::Mode::Info:
        return app::runInfo(*options);
    case app::Mode::Screenshot:
        return app::runScreenshot(*options);
    case app::Mode::Bench:
        return app::runBench(*options);
    case app::Mode::Export:
        return app::runExport(*options);
    case app::Mode::Viewer:
        return app::runViewer(*options);
    }
    return 0;
}
