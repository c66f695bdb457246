#include "core/file.h"

#include <fstream>

namespace core {

Result<std::vector<uint8_t>> readFile(const std::filesystem::path& path) {
    const std::string name = path.string();
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        Error e = makeError(ErrorCode::FileOpen, {}, -1, {}, "is a directory");
        e.file = name;
        return e;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        Error e = makeError(ErrorCode::FileOpen, {}, -1, {}, "cannot open file");
        e.file = name;
        return e;
    }
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    if (size < 0 || static_cast<uint64_t>(size) > kMaxFileBytes) {
        Error e = makeError(ErrorCode::LimitExceeded, {}, -1, {},
                            "file size " + std::to_string(size) + " exceeds limit " +
                                std::to_string(kMaxFileBytes));
        e.file = name;
        return e;
    }
    in.seekg(0, std::ios::beg);
    std::vector<uint8_t> data(static_cast<size_t>(size));
    if (size > 0 && !in.read(reinterpret_cast<char*>(data.data()), size)) {
        Error e = makeError(ErrorCode::FileRead, {}, -1, {}, "read failed");
        e.file = name;
        return e;
    }
    return data;
}

std::string baseName(std::string_view path) {
    const size_t slash = path.find_last_of("/\\");
    return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

std::string toLower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return out;
}

} // namespace core
