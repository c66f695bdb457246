// libFuzzer target: fuzz::runImage (see entry_points.h). A broken contract aborts, so the fuzzer
// records the input as a crash.
#include "entry_points.h"

#include <stb_image.h>

#include <climits>
#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    // Headers claiming up to kMaxImageDimension^2 pixels are legal and decode slowly (256 MB of
    // RGBA under ASan); they teach the fuzzer nothing new, so only small images are decoded.
    // JPEGs are left to decodeImage: stbi_info already parses their Huffman tables, which
    // decodeImage checks first (stb 2.27 overflows on bad ones).
    const bool jpeg = size >= 1 && data[0] == 0xFF; // stb accepts fill bytes before SOI
    int w = 0, h = 0, comp = 0;
    if (!jpeg && size <= INT_MAX &&
        stbi_info_from_memory(data, static_cast<int>(size), &w, &h, &comp) &&
        static_cast<int64_t>(w) * h > (1 << 20))
        return 0;
    const fuzz::Outcome o = fuzz::runImage(std::span<const uint8_t>(data, size));
    if (!o.violation.empty()) {
        std::fprintf(stderr, "contract violation: %s\n", o.violation.c_str());
        std::abort();
    }
    return 0;
}
