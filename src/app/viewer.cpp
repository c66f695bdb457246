#include "app/viewer.h"

#include "app/viewer_app.h"

#include <cstdio>

namespace app {

int runViewer(const Options& options) {
    ViewerApp viewer(options);
    if (auto st = viewer.init(); !st) {
        std::fprintf(stderr, "bspview: error: %s\n", st.error().message().c_str());
        return 1;
    }
    while (viewer.running())
        viewer.frame();
    return 0;
}

} // namespace app
