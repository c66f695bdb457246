// --export and --export-textures: load the map (no GL), write the files, print JSON stats.
#pragma once

#include "app/cli.h"

namespace app {

// The process exit code: 0 on success, 1 when the map does not load or a file cannot be
// written (the error on stderr, naming the file).
int runExport(const Options& options);

// glTF's asset.generator for files written by this build ("bspview 0.4.0 (abc1234)").
std::string exportGenerator();

} // namespace app
