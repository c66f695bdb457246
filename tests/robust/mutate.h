// Deterministic mutations of untrusted inputs for the robustness tests (issue 7).
//
// Each generator visits mutants one at a time through a callback on a single working copy of
// the input (no per-mutant allocation of a whole map), so hundreds of mutants of a 3 MB map
// cost little memory. Seeds are fixed: a failure names the mutant's label and reproduces
// exactly. Any decoder can be exercised with blobMutations (truncations, byte flips, zeroed
// ranges); container formats with a directory (BSP lumps, pak entries) add spanMutations over
// their own ranges.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace robust {

// splitmix64: small, fast and identical on every platform (std:: distributions are not).
class Rng {
public:
    explicit Rng(uint64_t seed) : m_state(seed) {}
    uint64_t next();
    // Uniform in [0, n); 0 when n == 0.
    uint64_t below(uint64_t n) { return n ? next() % n : 0; }

private:
    uint64_t m_state;
};

// Called with a label ("truncate@1234", "zero faces", ...) and the mutated bytes. The span is
// only valid during the call.
using Visit = std::function<void(std::string_view label, std::span<const uint8_t> bytes)>;

// A named byte range of the input (a lump, an archive member) and, when the range comes from a
// directory entry, where that entry's int32 offset and int32 length are stored.
struct Span {
    std::string name;
    uint64_t offset = 0;
    uint64_t length = 0;
    int64_t dir_offset_at = -1; // byte position of the entry's offset field, -1: none
    int64_t dir_length_at = -1; // byte position of the entry's length field, -1: none
};

struct BlobOptions {
    uint64_t seed = 1;
    int random_truncations = 50;
    int flip_mutants = 64;    // mutants with random byte flips anywhere
    int flips_per_mutant = 4; // bytes changed per flip mutant
    int header_bytes = 0;     // > 0: also flip_mutants mutants with flips inside [0, header_bytes)
    int zeroed_ranges = 8;    // random ranges set to zero
};

// Truncations at random points, random byte flips (whole input and header), zeroed ranges.
// Returns the number of mutants visited.
uint64_t blobMutations(std::span<const uint8_t> data, const BlobOptions& options,
                       const Visit& visit);

struct SpanOptions {
    uint64_t seed = 2;
    int flip_mutants_per_span = 4; // mutants with flips inside each non-empty span
    int flips_per_mutant = 4;
};

// For each span: truncation at its start and at its end, the span zeroed, its directory entry
// pointed past the end of the file (offset = size, offset = size + 1000, length = size, offset
// 0x7fffffff, length 0x7fffffff, negative offset), flips inside it. Returns the count.
uint64_t spanMutations(std::span<const uint8_t> data, const std::vector<Span>& spans,
                       const SpanOptions& options, const Visit& visit);

// The little-endian int32 at `at` (0 when out of range) and a writer for it.
int32_t readI32(std::span<const uint8_t> data, uint64_t at);
void writeI32(std::vector<uint8_t>& data, uint64_t at, int32_t value);

} // namespace robust
