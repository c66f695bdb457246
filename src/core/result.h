// Result<T>: a value or a core::Error, the return type of every fallible entry point.
#pragma once

#include "core/error.h"

#include <cassert>
#include <utility>
#include <variant>

namespace core {

template <class T> class [[nodiscard]] Result {
public:
    Result(T value) : m_v(std::in_place_index<0>, std::move(value)) {}
    Result(Error error) : m_v(std::in_place_index<1>, std::move(error)) {}

    bool ok() const { return m_v.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & {
        assert(ok() && "Result::value() called on an error");
        return std::get<0>(m_v);
    }
    const T& value() const& {
        assert(ok() && "Result::value() called on an error");
        return std::get<0>(m_v);
    }
    T&& value() && {
        assert(ok() && "Result::value() called on an error");
        return std::get<0>(std::move(m_v));
    }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }

    const Error& error() const {
        assert(!ok() && "Result::error() called on a value");
        return std::get<1>(m_v);
    }
    Error& error() {
        assert(!ok() && "Result::error() called on a value");
        return std::get<1>(m_v);
    }

private:
    std::variant<T, Error> m_v;
};

// For functions that return nothing but may fail.
struct Unit {};
using Status = Result<Unit>;
inline Status okStatus() {
    return Unit{};
}

} // namespace core
