// Helpers shared by the content tests: temporary folders and archives built in code.
#pragma once

#include "content/vfs/vfs.h"
#include "core/file.h"

#include <gtest/gtest.h>
#include <zip.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

namespace content_test {

using Bytes = std::vector<uint8_t>;
using Files = std::vector<std::pair<std::string, std::string>>; // name, contents

inline Bytes bytesOf(const std::string& s) {
    return Bytes(s.begin(), s.end());
}
inline std::string stringOf(const Bytes& b) {
    return std::string(b.begin(), b.end());
}

// A fresh folder under the system temp dir, removed when the object dies.
class TempDir {
public:
    TempDir() {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        std::string name = "bspv_content_" + std::to_string(::getpid()) + "_";
        if (info)
            name += std::string(info->test_suite_name()) + "_" + info->name();
        m_path = std::filesystem::temp_directory_path() / name;
        std::filesystem::remove_all(m_path);
        std::filesystem::create_directories(m_path);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(m_path, ec);
    }
    const std::filesystem::path& path() const { return m_path; }
    std::filesystem::path operator/(const std::string& rel) const { return m_path / rel; }

private:
    std::filesystem::path m_path;
};

inline void writeBytes(const std::filesystem::path& path, const Bytes& data) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data.data()),
              static_cast<std::streamsize>(data.size()));
    ASSERT_TRUE(out.good()) << path;
}
inline void writeText(const std::filesystem::path& path, const std::string& text) {
    writeBytes(path, bytesOf(text));
}

inline void putU32(Bytes& b, size_t at, uint32_t v) {
    std::memcpy(b.data() + at, &v, 4);
}

// A Quake PACK: header, the members' data, then the 64-byte directory entries.
inline Bytes makePak(const Files& files) {
    Bytes out(12, 0);
    std::memcpy(out.data(), "PACK", 4);
    std::vector<std::pair<uint32_t, uint32_t>> pos;
    for (const auto& [name, data] : files) {
        pos.emplace_back(static_cast<uint32_t>(out.size()), static_cast<uint32_t>(data.size()));
        out.insert(out.end(), data.begin(), data.end());
    }
    const auto dir_offset = static_cast<uint32_t>(out.size());
    for (size_t i = 0; i < files.size(); ++i) {
        Bytes entry(64, 0);
        std::memcpy(entry.data(), files[i].first.data(),
                    std::min<size_t>(56, files[i].first.size()));
        putU32(entry, 56, pos[i].first);
        putU32(entry, 60, pos[i].second);
        out.insert(out.end(), entry.begin(), entry.end());
    }
    putU32(out, 4, dir_offset);
    putU32(out, 8, static_cast<uint32_t>(files.size() * 64));
    return out;
}

// A zip written by libzip (deflated members). Names ending in '/' become folder entries.
inline void writeZip(const std::filesystem::path& path, const Files& files) {
    std::filesystem::create_directories(path.parent_path());
    int err = 0;
    zip_t* z = zip_open(path.string().c_str(), ZIP_CREATE | ZIP_TRUNCATE, &err);
    ASSERT_NE(z, nullptr) << "zip_open " << path << " error " << err;
    for (const auto& [name, data] : files) {
        if (!name.empty() && name.back() == '/') {
            ASSERT_GE(zip_dir_add(z, name.c_str(), ZIP_FL_ENC_UTF_8), 0);
            continue;
        }
        // The buffer must stay alive until zip_close: `files` outlives it.
        zip_source_t* src = zip_source_buffer(z, data.data(), data.size(), 0);
        ASSERT_NE(src, nullptr);
        ASSERT_GE(zip_file_add(z, name.c_str(), src, ZIP_FL_ENC_UTF_8), 0) << zip_strerror(z);
    }
    ASSERT_EQ(zip_close(z), 0);
}

// A file system holding `files` as one zip in memory, mounted as a Source map's pakfile is
// (origin "pakfile (t.bsp)").
inline content::FileSystem pakfileOf(const Files& files) {
    TempDir tmp;
    const auto zip = tmp.path() / "pak.zip";
    writeZip(zip, files);
    auto bytes = core::readFile(zip);
    EXPECT_TRUE(bytes);
    content::FileSystem fs;
    if (!bytes)
        return fs;
    auto st = fs.addEmbeddedArchive(std::move(*bytes), "t.bsp", "pakfile (t.bsp)");
    EXPECT_TRUE(st) << st.error().message();
    return fs;
}

} // namespace content_test
