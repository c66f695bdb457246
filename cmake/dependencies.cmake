# Every dependency comes from a Debian package (see README.md, scripts/install-deps.sh).
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)

# glm: header-only (libglm-dev)
find_package(glm CONFIG QUIET)
if(NOT TARGET glm::glm)
    find_path(GLM_INCLUDE_DIR glm/glm.hpp REQUIRED)
    add_library(glm::glm INTERFACE IMPORTED)
    target_include_directories(glm::glm INTERFACE ${GLM_INCLUDE_DIR})
endif()

# stb_image / stb_image_write (libstb-dev)
pkg_check_modules(STB REQUIRED IMPORTED_TARGET stb)

# glTF export (scene/export_gltf.cpp) and the tests that read it back: tinygltf 2.7
# (libtinygltf-dev), whose shared library holds the implementation.
find_package(TinyGLTF CONFIG REQUIRED)

# libzip for .pk3 archives (libzip-dev). Debian's libzip CMake config names the zipcmp/zipmerge
# tools of another package and fails to load without them, so use pkg-config.
pkg_check_modules(LIBZIP REQUIRED IMPORTED_TARGET libzip)
pkg_check_modules(LIBLZMA REQUIRED IMPORTED_TARGET liblzma)
# libdeflate (libdeflate-dev): pk3 members inflated in one call, outside the archive's lock.
pkg_check_modules(LIBDEFLATE REQUIRED IMPORTED_TARGET libdeflate)

if(BSPV_BUILD_APP)
    find_package(SDL2 CONFIG REQUIRED)
    find_package(OpenGL REQUIRED COMPONENTS OpenGL)
    pkg_check_modules(IMGUI REQUIRED IMPORTED_TARGET imgui)
endif()

if(BSPV_BUILD_TESTS)
    find_package(GTest REQUIRED)
endif()
