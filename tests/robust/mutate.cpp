#include "robust/mutate.h"

#include <algorithm>
#include <cstring>

namespace robust {

uint64_t Rng::next() {
    uint64_t z = (m_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

int32_t readI32(std::span<const uint8_t> data, uint64_t at) {
    if (at > data.size() || data.size() - at < 4)
        return 0;
    int32_t v;
    std::memcpy(&v, data.data() + at, 4);
    return v;
}

void writeI32(std::vector<uint8_t>& data, uint64_t at, int32_t value) {
    if (at > data.size() || data.size() - at < 4)
        return;
    std::memcpy(data.data() + at, &value, 4);
}

namespace {

// Flips `count` random bytes of [begin, end) in `work`, visits, then restores them.
void flipAndVisit(std::vector<uint8_t>& work, uint64_t begin, uint64_t end, int count, Rng& rng,
                  const std::string& label, const Visit& visit) {
    if (end <= begin)
        return;
    std::vector<std::pair<uint64_t, uint8_t>> saved;
    for (int i = 0; i < count; ++i) {
        const uint64_t at = begin + rng.below(end - begin);
        saved.emplace_back(at, work[at]);
        // Mostly single-bit flips; sometimes extreme values (0x00, 0xff, 0x7f, 0x80), which
        // make counts and offsets huge or negative.
        const uint64_t kind = rng.below(4);
        if (kind == 0) {
            static constexpr uint8_t kExtremes[] = {0x00, 0xff, 0x7f, 0x80};
            work[at] = kExtremes[rng.below(4)];
        } else {
            work[at] ^= static_cast<uint8_t>(1u << rng.below(8));
        }
    }
    visit(label, work);
    for (auto it = saved.rbegin(); it != saved.rend(); ++it)
        work[it->first] = it->second;
}

} // namespace

uint64_t blobMutations(std::span<const uint8_t> data, const BlobOptions& options,
                       const Visit& visit) {
    Rng rng(options.seed);
    uint64_t n = 0;
    const uint64_t size = data.size();
    // Truncations: the empty input, then random prefixes.
    visit("truncate@0", data.first(0));
    ++n;
    for (int i = 0; i < options.random_truncations && size > 1; ++i) {
        const uint64_t at = 1 + rng.below(size - 1);
        visit("truncate@" + std::to_string(at), data.first(static_cast<size_t>(at)));
        ++n;
    }
    std::vector<uint8_t> work(data.begin(), data.end());
    for (int i = 0; i < options.flip_mutants && size > 0; ++i) {
        flipAndVisit(work, 0, size, options.flips_per_mutant, rng, "flip#" + std::to_string(i),
                     visit);
        ++n;
    }
    const uint64_t header =
        std::min<uint64_t>(static_cast<uint64_t>(std::max(0, options.header_bytes)), size);
    for (int i = 0; i < options.flip_mutants && header > 0; ++i) {
        flipAndVisit(work, 0, header, options.flips_per_mutant, rng,
                     "header-flip#" + std::to_string(i), visit);
        ++n;
    }
    for (int i = 0; i < options.zeroed_ranges && size > 0; ++i) {
        const uint64_t begin = rng.below(size);
        const uint64_t len = 1 + rng.below(std::min<uint64_t>(size - begin, 4096));
        std::vector<uint8_t> saved(work.begin() + static_cast<std::ptrdiff_t>(begin),
                                   work.begin() + static_cast<std::ptrdiff_t>(begin + len));
        std::fill_n(work.begin() + static_cast<std::ptrdiff_t>(begin), len, uint8_t{0});
        visit("zero@" + std::to_string(begin) + "+" + std::to_string(len), work);
        std::copy(saved.begin(), saved.end(), work.begin() + static_cast<std::ptrdiff_t>(begin));
        ++n;
    }
    return n;
}

uint64_t spanMutations(std::span<const uint8_t> data, const std::vector<Span>& spans,
                       const SpanOptions& options, const Visit& visit) {
    Rng rng(options.seed);
    uint64_t n = 0;
    const uint64_t size = data.size();
    std::vector<uint8_t> work(data.begin(), data.end());
    for (const Span& s : spans) {
        const bool inside = s.offset <= size && s.length <= size - s.offset;
        // Truncation at both lump boundaries.
        for (const uint64_t at : {s.offset, s.offset + s.length})
            if (at < size) {
                visit("truncate@" + s.name + ":" + std::to_string(at),
                      data.first(static_cast<size_t>(at)));
                ++n;
            }
        if (inside && s.length > 0) {
            const auto b = work.begin() + static_cast<std::ptrdiff_t>(s.offset);
            std::fill_n(b, s.length, uint8_t{0});
            visit("zero " + s.name, work);
            std::copy_n(data.begin() + static_cast<std::ptrdiff_t>(s.offset), s.length, b);
            ++n;
        }
        if (s.dir_offset_at >= 0 && s.dir_length_at >= 0) {
            const auto off_at = static_cast<uint64_t>(s.dir_offset_at);
            const auto len_at = static_cast<uint64_t>(s.dir_length_at);
            const int32_t off = readI32(data, off_at);
            const int32_t len = readI32(data, len_at);
            const auto sz = static_cast<int32_t>(std::min<uint64_t>(size, 0x7fffffff));
            const struct {
                const char* what;
                int32_t offset, length;
            } edits[] = {
                {"offset=size", sz, len},
                {"offset=size+1000", sz > 0x7fffffff - 1000 ? 0x7fffffff : sz + 1000, len},
                {"length=size", off, sz},
                {"offset=max", 0x7fffffff, len},
                {"length=max", off, 0x7fffffff},
                {"offset=-4", -4, len},
                {"length=-1", off, -1},
                {"length+1", off, len == 0x7fffffff ? len : len + 1},
            };
            for (const auto& e : edits) {
                writeI32(work, off_at, e.offset);
                writeI32(work, len_at, e.length);
                visit(std::string("dir ") + s.name + " " + e.what, work);
                ++n;
            }
            writeI32(work, off_at, off);
            writeI32(work, len_at, len);
        }
        for (int i = 0; inside && s.length > 0 && i < options.flip_mutants_per_span; ++i) {
            flipAndVisit(work, s.offset, s.offset + s.length, options.flips_per_mutant, rng,
                         "flip " + s.name + "#" + std::to_string(i), visit);
            ++n;
        }
    }
    return n;
}

} // namespace robust
