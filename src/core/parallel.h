// A work queue over `count` independent items on the calling thread and up to threads - 1
// helpers: each thread takes the next item when it is done with one (one large item next to
// many small ones does not leave a fixed chunk's thread working alone). Each item must write
// only its own output slot, so the result does not depend on timing or the thread count.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <future>
#include <system_error>
#include <thread>
#include <vector>

namespace core {

// The machine's hardware threads, at least 1 and at most `cap` (0: no cap).
inline size_t workerThreads(size_t cap = 0) {
    const size_t n = std::max(1u, std::thread::hardware_concurrency());
    return cap ? std::min(n, cap) : n;
}

// Calls fn(i) for every i in [0, count) on up to `threads` threads (0: workerThreads()).
template <typename Fn> void parallelFor(size_t count, Fn&& fn, size_t threads = 0) {
    if (count == 0)
        return;
    const size_t workers = std::min(threads ? threads : workerThreads(), count);
    std::atomic<size_t> next{0};
    const auto work = [&] {
        for (size_t i = next++; i < count; i = next++)
            fn(i);
    };
    std::vector<std::future<void>> jobs;
    for (size_t w = 1; w < workers; ++w) {
        try {
            jobs.push_back(std::async(std::launch::async, work));
        } catch (const std::system_error&) {
            break; // no more threads: the ones running (and this one) share the rest
        }
    }
    work();
    for (auto& job : jobs)
        job.get();
}

} // namespace core
