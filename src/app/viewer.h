// The interactive viewer: window, fly camera, overlay, map loading off the render thread.
#pragma once

#include "app/cli.h"

namespace app {

// Runs until the window is closed; returns the process exit code.
int runViewer(const Options& options);

} // namespace app
