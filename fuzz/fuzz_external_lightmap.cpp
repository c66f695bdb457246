// libFuzzer target: fuzz::runExternalLightmap (see entry_points.h): one q3map2 external
// lightmap image among valid ones, through scene::loadLightmapSet. A broken contract aborts,
// so the fuzzer records the input as a crash.
#include "entry_points.h"

#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    // Large images teach nothing new here (fuzz_image covers the decoder); keep inputs small.
    if (size > (1u << 16))
        return 0;
    const fuzz::Outcome o = fuzz::runExternalLightmap(std::span<const uint8_t>(data, size));
    if (!o.violation.empty()) {
        std::fprintf(stderr, "contract violation: %s\n", o.violation.c_str());
        std::abort();
    }
    return 0;
}
