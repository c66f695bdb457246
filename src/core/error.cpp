#include "core/error.h"

namespace core {

namespace {
struct CodeInfo {
    std::string_view name;
    std::string_view text;
};
constexpr CodeInfo kCodeInfo[] = {
#define BSPV_X(name, text) {#name, text},
    BSPV_ERROR_CODES(BSPV_X)
#undef BSPV_X
};
} // namespace

std::string_view errorCodeName(ErrorCode code) {
    const auto i = static_cast<size_t>(code);
    return i < std::size(kCodeInfo) ? kCodeInfo[i].name : "Unknown";
}

std::string_view errorCodeText(ErrorCode code) {
    const auto i = static_cast<size_t>(code);
    return i < std::size(kCodeInfo) ? kCodeInfo[i].text : "unknown error";
}

std::string Error::message() const {
    std::string out;
    if (!file.empty()) {
        out += file;
        out += ": ";
    }
    if (!lump.empty()) {
        out += lump;
        if (index >= 0) {
            out += '[';
            out += std::to_string(index);
            out += ']';
        }
        if (!field.empty()) {
            out += '.';
            out += field;
        }
        out += ": ";
    }
    out += detail.empty() ? std::string(errorCodeText(code)) : detail;
    return out;
}

Error makeError(ErrorCode code, std::string lump, int64_t index, std::string field,
                std::string detail) {
    Error e;
    e.code = code;
    e.lump = std::move(lump);
    e.index = index;
    e.field = std::move(field);
    e.detail = std::move(detail);
    return e;
}

} // namespace core
