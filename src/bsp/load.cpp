#include "bsp/load.h"

#include "bsp/collision_read.h"
#include "bsp/parsers.h"
#include "core/byte_reader.h"
#include "core/file.h"

#include <cstring>

namespace bsp {

Detected detect(std::span<const uint8_t> data) {
    Detected d;
    const core::ByteReader r(data);
    if (data.size() < 8) {
        d.magic = "";
        return d;
    }
    char magic[5] = {};
    std::memcpy(magic, data.data(), 4);
    const int32_t second = r.i32(4);
    const int32_t first = r.i32(0);
    auto printable = [&] {
        for (int i = 0; i < 4; ++i)
            if (magic[i] < 32 || magic[i] > 126)
                return false;
        return true;
    };
    if (std::memcmp(magic, "IBSP", 4) == 0) {
        d.magic = "IBSP";
        d.version = second;
        if (second == 46)
            d.format = Format::Quake3;
        else if (second == 47)
            d.format = Format::Quake3Rtcw;
        else if (second == 38)
            d.format = Format::Quake2;
        return d;
    }
    // Quake 2 re-release extended format (32-bit indices); other versions are unsupported.
    if (std::memcmp(magic, "QBSP", 4) == 0) {
        d.magic = "QBSP";
        d.version = second;
        if (second == 38)
            d.format = Format::Quake2Qbsp;
        return d;
    }
    if (std::memcmp(magic, "VBSP", 4) == 0) {
        d.magic = "VBSP";
        d.version = second;
        if (second == 19 || second == 20 || second == 21 || second == 25)
            d.format = Format::Source;
        return d;
    }
    if (std::memcmp(magic, "FBSP", 4) == 0) {
        d.magic = "FBSP";
        d.version = second;
        if (second == 1)
            d.format = Format::Qfusion;
        return d;
    }
    if (std::memcmp(magic, "BSP2", 4) == 0) {
        d.magic = "BSP2";
        d.format = Format::Quake1Bsp2;
        return d;
    }
    if (std::memcmp(magic, "2PSB", 4) == 0) {
        d.magic = "2PSB";
        d.format = Format::Quake1Rmq;
        return d;
    }
    d.version = first;
    if (first == 29) {
        d.magic = "29";
        d.format = Format::Quake1;
    } else if (first == 30) {
        d.magic = "30";
        d.format = Format::HalfLife;
    } else {
        d.magic = printable() ? std::string(magic, 4) : std::to_string(first);
    }
    return d;
}

namespace {
core::Error withFile(core::Error e, std::string_view name) {
    if (e.file.empty())
        e.file = std::string(name);
    return e;
}

// Every warning names the file, as errors do (core::Error::message): a list of warnings from
// several maps (the corpus test, a log) stays readable. Parsers that name it already are left.
void nameFileInWarnings(Map& map, std::string_view name) {
    if (name.empty())
        return;
    const std::string prefix = std::string(name) + ": ";
    for (std::string& w : map.warnings)
        if (!w.starts_with(prefix))
            w.insert(0, prefix);
}
} // namespace

core::Result<Map> loadMap(std::span<const uint8_t> data, std::string_view name,
                          const Companions& companions, const LoadOptions& options) {
    // Nothing to detect: said as it is, not as a header nobody recognises.
    if (data.empty())
        return withFile(core::makeError(core::ErrorCode::EmptyFile, {}, -1, {},
                                        "empty file (0 bytes): not a map"),
                        name);
    const Detected d = detect(data);
    if (!d.format) {
        if (d.magic == "PSBV")
            return withFile(core::makeError(core::ErrorCode::UnsupportedVersion, "header", -1, {},
                                            "big-endian Source map (Xbox 360 / PS3 \"PSBV\"); "
                                            "only PC (little-endian) VBSP files are read"),
                            name);
        if (d.magic.empty() ||
            (d.magic != "IBSP" && d.magic != "QBSP" && d.magic != "FBSP" && d.magic != "VBSP"))
            return withFile(core::makeError(core::ErrorCode::UnknownFormat, "header", -1, {},
                                            "unrecognised header (not a Quake-family BSP)"),
                            name);
        return withFile(
            core::makeError(core::ErrorCode::UnsupportedVersion, "header", -1, "version",
                            "unsupported " + d.magic + " version " + std::to_string(d.version)),
            name);
    }
    core::Result<Map> result = [&]() -> core::Result<Map> {
        switch (*d.format) {
        case Format::Quake3:
        case Format::Quake3Rtcw:
        case Format::Qfusion:
            return parseQuake3(data, name);
        case Format::Quake1:
        case Format::Quake1Bsp2:
        case Format::Quake1Rmq:
        case Format::HalfLife:
            return parseQuake1(data, name, companions);
        case Format::Quake2:
        case Format::Quake2Qbsp:
            return parseQuake2(data, name);
        case Format::Source:
            return parseSource(data, name, options);
        }
        return core::makeError(core::ErrorCode::UnsupportedVersion, "header", -1, "version",
                               "unsupported format");
    }();
    if (!result)
        return withFile(std::move(result.error()), name);
    result->name = std::string(name);
    nameFileInWarnings(*result, name);
    setModelSolidity(*result);
    return result;
}

core::Result<Map> loadMapFile(const std::filesystem::path& path, const LoadOptions& options) {
    auto bytes = core::readFile(path);
    if (!bytes)
        return bytes.error();
    Companions companions;
    // Quake 1 engines look for NAME.lit (QLIT coloured lighting) and NAME.lux (light
    // directions) beside NAME.bsp.
    const Detected d = detect(*bytes);
    if (d.format == Format::Quake1 || d.format == Format::Quake1Bsp2 ||
        d.format == Format::Quake1Rmq) {
        const auto beside = [&](const char* ext, std::vector<uint8_t>& out) {
            std::filesystem::path p = path;
            p.replace_extension(ext);
            std::error_code ec;
            if (std::filesystem::is_regular_file(p, ec))
                if (auto l = core::readFile(p))
                    out = std::move(*l);
        };
        beside(".lit", companions.lit);
        beside(".lux", companions.lux);
    }
    return loadMap(*bytes, core::baseName(path.string()), companions, options);
}

} // namespace bsp
