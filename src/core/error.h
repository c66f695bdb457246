// Error codes and context for everything that reads untrusted input.
//
// Parsers never throw across module boundaries: they return core::Result<T>, which holds
// either the value or an Error. An Error is a code from the one list below plus the context
// a user needs to find the problem: the file, the lump, the record index, the field and a
// detail sentence. Tests assert codes, never message text.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace core {

// X(name, default text). Add new codes at the end of a group; never reuse a name.
#define BSPV_ERROR_CODES(X)                                                                        \
    X(Ok, "ok")                                                                                    \
    X(FileOpen, "cannot open file")                                                                \
    X(FileRead, "cannot read file")                                                                \
    X(EmptyFile, "empty file")                                                                     \
    X(UnknownFormat, "unrecognised header")                                                        \
    X(UnsupportedVersion, "unsupported version")                                                   \
    X(Truncated, "data ends early")                                                                \
    X(LumpOutOfBounds, "lump lies outside the file")                                               \
    X(LumpSize, "lump size is not a whole number of records")                                      \
    X(LimitExceeded, "count exceeds limit")                                                        \
    X(IndexOutOfRange, "index out of range")                                                       \
    X(BadValue, "invalid value")                                                                   \
    X(BadTree, "malformed BSP tree")                                                               \
    X(BadPatch, "invalid patch")                                                                   \
    X(BadVis, "malformed visibility data")                                                         \
    X(BadLightmap, "malformed lightmap data")                                                      \
    X(BadArchive, "malformed archive")                                                             \
    X(BadImage, "cannot decode image")                                                             \
    X(NotFound, "not found")                                                                       \
    X(BadArgument, "invalid argument")                                                             \
    X(Graphics, "graphics error")                                                                  \
    X(FileWrite, "cannot write file")

enum class ErrorCode : uint16_t {
#define BSPV_X(name, text) name,
    BSPV_ERROR_CODES(BSPV_X)
#undef BSPV_X
};

std::string_view errorCodeName(ErrorCode code);
std::string_view errorCodeText(ErrorCode code);

struct Error {
    ErrorCode code = ErrorCode::Ok;
    std::string file;   // base name or path of the file being read
    std::string lump;   // lump, member or section name; empty when not applicable
    int64_t index = -1; // record index within the lump, -1 when not applicable
    std::string field;  // field of the record, empty when not applicable
    std::string detail; // what was wrong, with the offending value and the limit

    // "crypt.bsp: faces[42].meshvert: range 900+6 beyond 880 meshverts"
    std::string message() const;
};

// Builder used by parsers: makeError(ErrorCode::IndexOutOfRange, "faces", 42, "meshvert",
// "range 900+6 beyond 880 meshverts"). The file name is filled in by the caller that knows it.
Error makeError(ErrorCode code, std::string lump = {}, int64_t index = -1, std::string field = {},
                std::string detail = {});

} // namespace core
