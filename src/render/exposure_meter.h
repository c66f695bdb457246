// What auto exposure measures (render/tone_map.h): the luminance histogram of the finished
// frame's centre, where the client's histogram looks (viewpostprocess.cpp
// CHistogram_entry_t::IssueQuery: the middle mat_exposure_center_region_x 0.9 of the width and
// _y 0.85 of the height). Rather than one occlusion query per bin over every pixel, a grid of
// kExposureGrid x kExposureGrid pixels is copied from that region (glBlitFramebuffer, nearest:
// each a pixel of the frame, not a mean) and read back through a pixel buffer, and the
// histogram is counted on the CPU from those samples a frame later, without waiting for the GPU.
#pragma once

#include "render/gl.h"
#include "render/tone_map.h"

#include <optional>

namespace render {

inline constexpr int kExposureGrid = 64;

// The pixel rectangle of the region the client measures in a viewport (x, y, width, height):
// IssueQuery's skipped edges, (width * (1 - 0.9) / 2) columns and (height * (1 - 0.85) / 2)
// rows each side, rounded down.
struct PixelRect {
    int x = 0, y = 0, width = 0, height = 0;
    bool operator==(const PixelRect&) const = default;
};
PixelRect exposureRegion(int x, int y, int width, int height);

class ExposureMeter {
public:
    ExposureMeter() = default;
    ~ExposureMeter();
    ExposureMeter(const ExposureMeter&) = delete;
    ExposureMeter& operator=(const ExposureMeter&) = delete;

    // Starts reading the samples of the bound draw framebuffer's viewport; a capture not yet
    // collected is dropped. The framebuffer bindings are left as they were.
    void capture();
    // The histogram of the last capture once its pixels have arrived, else nothing (it does not
    // wait: a later call gets it).
    std::optional<LuminanceHistogram> poll();
    // Drops a capture in flight (a new map).
    void reset();

private:
    bool create();

    Framebuffer m_fbo;
    Renderbuffer m_colour;
    Buffer m_pixels;
    GLsync m_fence = nullptr;
};

} // namespace render
