// Builds VPK directory files (and their NAME_NNN.vpk data files) in memory for the tests: the
// layout of content/vfs/vpk.cpp, written independently of it.
#pragma once

#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace vpk_test {

using Bytes = std::vector<uint8_t>;

struct FileSpec {
    std::string ext, path, file; // " " for no extension or the root folder, as Valve writes
    std::string preload;
    uint16_t archive = 0x7fff;
    std::string data; // stored after the preload bytes in the directory file or data file
    uint32_t crc = 0;
    uint32_t pad = 0; // zero bytes put before the data in its file
};

struct Built {
    Bytes dir;
    std::map<uint16_t, Bytes> archives; // NNN -> NAME_NNN.vpk bytes
};

inline void put(Bytes& b, const void* p, size_t n) {
    const auto* c = static_cast<const uint8_t*>(p);
    b.insert(b.end(), c, c + n);
}
inline void putStr(Bytes& b, const std::string& s) {
    put(b, s.c_str(), s.size() + 1);
}
template <class T> void putInt(Bytes& b, T v) {
    put(b, &v, sizeof(v));
}

// Consecutive files with the same extension (and then path) share a tree node. Version 2 adds
// the four section sizes; its file data section holds the 0x7fff data, followed by an empty
// archive MD5 section, a 48-byte other MD5 section and no signature.
inline Built buildVpk(const std::vector<FileSpec>& files, uint32_t version) {
    Built out;
    Bytes tree, embedded;
    for (size_t i = 0; i < files.size(); ++i) {
        const FileSpec& f = files[i];
        const bool new_ext = i == 0 || files[i - 1].ext != f.ext;
        const bool new_path = new_ext || files[i - 1].path != f.path;
        if (new_ext)
            putStr(tree, f.ext);
        if (new_path)
            putStr(tree, f.path);
        putStr(tree, f.file);
        putInt<uint32_t>(tree, f.crc);
        putInt<uint16_t>(tree, static_cast<uint16_t>(f.preload.size()));
        putInt<uint16_t>(tree, f.archive);
        Bytes& data_file = f.archive == 0x7fff ? embedded : out.archives[f.archive];
        data_file.resize(data_file.size() + f.pad, 0);
        putInt<uint32_t>(tree, static_cast<uint32_t>(data_file.size()));
        putInt<uint32_t>(tree, static_cast<uint32_t>(f.data.size()));
        putInt<uint16_t>(tree, 0xffff);
        put(tree, f.preload.data(), f.preload.size());
        put(data_file, f.data.data(), f.data.size());
        const bool last_in_path =
            i + 1 == files.size() || files[i + 1].ext != f.ext || files[i + 1].path != f.path;
        const bool last_in_ext = i + 1 == files.size() || files[i + 1].ext != f.ext;
        if (last_in_path)
            tree.push_back(0);
        if (last_in_ext)
            tree.push_back(0);
    }
    tree.push_back(0);
    putInt<uint32_t>(out.dir, 0x55aa1234);
    putInt<uint32_t>(out.dir, version);
    putInt<uint32_t>(out.dir, static_cast<uint32_t>(tree.size()));
    if (version == 2) {
        putInt<uint32_t>(out.dir, static_cast<uint32_t>(embedded.size()));
        putInt<uint32_t>(out.dir, 0);
        putInt<uint32_t>(out.dir, 48);
        putInt<uint32_t>(out.dir, 0);
    }
    out.dir.insert(out.dir.end(), tree.begin(), tree.end());
    out.dir.insert(out.dir.end(), embedded.begin(), embedded.end());
    if (version == 2)
        out.dir.resize(out.dir.size() + 48, 0);
    return out;
}

// The fixture the tests check by hand: a preload-only material, a texture in pak01_000.vpk at
// offset 2, and a root-folder file split between preload bytes and the directory file's data.
inline std::vector<FileSpec> sampleFiles() {
    return {
        {"vmt", "materials/brick", "wall", "VMT!", 0x7fff, "", 0x11223344, 0},
        {"vtf", "materials/brick", "Wall", "", 0, "VTFDA", 0x55667788, 2},
        {"txt", " ", "readme", "ab", 0x7fff, "cde", 0, 0},
    };
}

} // namespace vpk_test
