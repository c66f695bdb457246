// Counting outcomes of mutants for the robustness tests: accepted, rejected by error code,
// contract violations (each a test failure naming the mutant), and the slowest mutant.
#pragma once

#include "entry_points.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <span>
#include <string>
#include <string_view>

namespace robust {

class Tally {
public:
    explicit Tally(std::string name) : m_name(std::move(name)) {}

    // Runs `run` on the mutant, times it and records the outcome.
    template <class Run>
    void check(std::string_view label, std::span<const uint8_t> bytes, Run&& run) {
        const auto t0 = std::chrono::steady_clock::now();
        const fuzz::Outcome o = run(bytes);
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count();
        ++m_total;
        if (ms > m_slowest_ms) {
            m_slowest_ms = ms;
            m_slowest = std::string(label);
        }
        if (o.accepted)
            ++m_accepted;
        else
            ++m_codes[std::string(core::errorCodeName(o.error.code))];
        if (!o.violation.empty()) {
            ++m_violations;
            ADD_FAILURE() << m_name << " [" << label << "]: " << o.violation;
        }
    }

    uint64_t total() const { return m_total; }
    uint64_t accepted() const { return m_accepted; }
    uint64_t violations() const { return m_violations; }

    void print(double seconds) const {
        std::printf("%-44s %5llu mutants: %5llu accepted, %5llu rejected, %.2f s, slowest %.1f ms "
                    "(%s)\n",
                    m_name.c_str(), static_cast<unsigned long long>(m_total),
                    static_cast<unsigned long long>(m_accepted),
                    static_cast<unsigned long long>(m_total - m_accepted), seconds, m_slowest_ms,
                    m_slowest.c_str());
        std::string codes = "    rejections:";
        for (const auto& [code, n] : m_codes)
            codes += " " + code + "=" + std::to_string(n);
        std::printf("%s\n", codes.c_str());
    }

private:
    std::string m_name;
    uint64_t m_total = 0, m_accepted = 0, m_violations = 0;
    std::map<std::string, uint64_t> m_codes;
    double m_slowest_ms = 0.0;
    std::string m_slowest;
};

} // namespace robust
