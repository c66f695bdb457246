// Every row of fuzz/targets.def: each of its mutation inputs is accepted as it is, then its
// blob mutants (truncations, byte flips anywhere and in the header, zeroed ranges) are each
// accepted or rejected with a proper core::Error, never a crash or a broken contract, and the
// row's expectation holds (some rejected, or all accepted). A new decoder joins by its row.
#include "robust/mutate.h"
#include "robust/table_inputs.h"
#include "robust/tally.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

namespace {

std::vector<const fuzz::Target*> rows() {
    std::vector<const fuzz::Target*> out;
    for (const fuzz::Target& t : fuzz::targets())
        out.push_back(&t);
    return out;
}

// A fixed seed per row, from its name: the mutants of a row do not change when rows are added.
uint64_t seedOf(const fuzz::Target& t) {
    uint64_t h = 0x5eed000000000000ull;
    for (const char* c = t.name; *c; ++c)
        h = (h ^ uint8_t(*c)) * 1099511628211ull;
    return h;
}

class TableMutations : public testing::TestWithParam<const fuzz::Target*> {};

TEST_P(TableMutations, EveryMutantIsAcceptedOrRejectedCleanly) {
    const fuzz::Target& t = *GetParam();
    const std::vector<robust::TableInput> inputs = robust::tableInputs(t);
    ASSERT_FALSE(inputs.empty()) << t.name << ": the row names no mutation input";
    for (const robust::TableInput& in : inputs) {
        ASSERT_TRUE(in.error.empty()) << t.name << ": " << in.name << ": " << in.error;
        const auto t0 = std::chrono::steady_clock::now();
        robust::Tally tally(std::string(t.name) + " " + in.name);
        const fuzz::Outcome original = t.run(in.bytes);
        ASSERT_TRUE(original.accepted) << in.name << ": " << original.error.message();
        ASSERT_TRUE(original.violation.empty()) << in.name << ": " << original.violation;
        robust::BlobOptions bo;
        bo.seed = seedOf(t);
        bo.flip_mutants = t.flips;
        bo.header_bytes = t.header_bytes;
        robust::blobMutations(in.bytes, bo,
                              [&](std::string_view label, std::span<const uint8_t> b) {
                                  tally.check(label, b, t.run);
                              });
        tally.print(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        EXPECT_GT(tally.total(), 0u);
        if (t.expect == fuzz::Expect::Rejects) {
            EXPECT_LT(tally.accepted(), tally.total()) << in.name << ": no mutant was rejected";
        } else if (t.expect == fuzz::Expect::Accepts) {
            EXPECT_EQ(tally.accepted(), tally.total()) << in.name << ": a mutant was rejected";
        }
    }
}

std::string rowName(const testing::TestParamInfo<const fuzz::Target*>& row) {
    return row.param->name;
}

INSTANTIATE_TEST_SUITE_P(Fuzz, TableMutations, testing::ValuesIn(rows()), rowName);

} // namespace
