// Regression tests for bugs found by the robustness tests and the fuzzers (docs/robustness.md
// lists each with its input). Inputs the fuzzers found also live in fuzz/regressions/.
#include "bsp/entities.h"

#include <gtest/gtest.h>

#include <string>

namespace {

// "{{{{..." ended every entity through the "'{' inside an entity" path, which did not check
// kMaxEntities, so a 1 MiB lump made a million entities.
TEST(Regressions, EntityCapHoldsForOpenBraceRuns) {
    const std::string text(bsp::kMaxEntities * 2, '{');
    std::vector<std::string> warnings;
    const auto entities = bsp::parseEntities(text, &warnings);
    EXPECT_EQ(entities.size(), bsp::kMaxEntities);
    // And through keys without values followed by '{' or '}'.
    std::string keys;
    for (size_t i = 0; i < bsp::kMaxEntities + 10; ++i)
        keys += "{ k {";
    EXPECT_LE(bsp::parseEntities(keys, nullptr).size(), bsp::kMaxEntities);
}

} // namespace
