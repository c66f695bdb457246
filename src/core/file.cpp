#include "core/file.h"

#include <fstream>

#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

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

Result<MappedFile> MappedFile::open(const std::filesystem::path& path) {
    MappedFile out;
#if defined(__unix__) || defined(__APPLE__)
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    struct stat st {};
    if (fd >= 0 && ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        static_cast<uint64_t>(st.st_size) <= kMaxFileBytes) {
        int flags = MAP_PRIVATE;
#ifdef MAP_POPULATE
        flags |= MAP_POPULATE; // the pages are all read: map them in one go
#endif
        void* p = ::mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, flags, fd, 0);
        if (p != MAP_FAILED) {
            ::close(fd);
            out.m_data = static_cast<const uint8_t*>(p);
            out.m_size = static_cast<size_t>(st.st_size);
            out.m_mapped = true;
            return out;
        }
    }
    if (fd >= 0)
        ::close(fd);
#endif
    auto bytes = readFile(path);
    if (!bytes)
        return bytes.error();
    out.m_copy = std::move(*bytes);
    out.m_data = out.m_copy.data();
    out.m_size = out.m_copy.size();
    return out;
}

MappedFile::MappedFile(MappedFile&& other) noexcept {
    *this = std::move(other);
}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
    if (this != &other) {
        release();
        m_mapped = other.m_mapped;
        m_size = other.m_size;
        m_copy = std::move(other.m_copy);
        m_data = m_mapped ? other.m_data : m_copy.data();
        other.m_data = nullptr;
        other.m_size = 0;
        other.m_mapped = false;
        other.m_copy.clear();
    }
    return *this;
}

MappedFile::~MappedFile() {
    release();
}

void MappedFile::release() {
#if defined(__unix__) || defined(__APPLE__)
    if (m_mapped)
        ::munmap(const_cast<uint8_t*>(m_data), m_size);
#endif
    m_data = nullptr;
    m_size = 0;
    m_mapped = false;
    m_copy.clear();
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
