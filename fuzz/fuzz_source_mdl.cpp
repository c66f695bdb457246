// libFuzzer target: fuzz::runSourceMdl (see entry_points.h). A broken contract aborts, so the
// fuzzer records the input as a crash.
#include "entry_points.h"

#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const fuzz::Outcome o = fuzz::runSourceMdl(std::span<const uint8_t>(data, size));
    if (!o.violation.empty()) {
        std::fprintf(stderr, "contract violation: %s\n", o.violation.c_str());
        std::abort();
    }
    return 0;
}
