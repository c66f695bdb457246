// A temporary folder of files mounted as a content::FileSystem, for tests that read models and
// images through the search paths: put() the files, mount() once, read through `vfs`. The
// folder is named after the test binary's process and `tag`, emptied at the start and removed
// at the end.
#pragma once

#include "content/vfs/vfs.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace testsupport {

struct VfsFolder {
    std::filesystem::path dir;
    content::FileSystem vfs;

    explicit VfsFolder(const std::string& tag)
        : dir(std::filesystem::temp_directory_path() /
              ("bspv_" + tag + "_" + std::to_string(::getpid()))) {
        std::filesystem::remove_all(dir);
    }
    ~VfsFolder() {
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }
    VfsFolder(const VfsFolder&) = delete;
    VfsFolder& operator=(const VfsFolder&) = delete;

    void put(const std::string& name, const std::vector<uint8_t>& bytes) const {
        std::filesystem::create_directories((dir / name).parent_path());
        std::ofstream(dir / name, std::ios::binary)
            .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    }
    void mount() { ASSERT_TRUE(vfs.addDirectory(dir).ok()); }
};

} // namespace testsupport
