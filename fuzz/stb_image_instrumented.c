/* stb_image compiled into fuzz_image with the fuzzer's instrumentation and sanitizers, so the
 * fuzzer sees coverage inside the decoder and ASan checks its reads. Definitions in the
 * executable take precedence over the uninstrumented copy in libstb.so. */
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>
