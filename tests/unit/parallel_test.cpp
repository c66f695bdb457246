// core::parallelFor: every item exactly once, whatever the thread count.
#include "core/parallel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

TEST(ParallelFor, EveryItemOnceOnAnyThreadCount) {
    for (size_t threads : {size_t{0}, size_t{1}, size_t{2}, size_t{8}}) {
        for (size_t count : {size_t{0}, size_t{1}, size_t{3}, size_t{1000}}) {
            std::vector<std::atomic<int>> seen(count);
            core::parallelFor(
                count, [&](size_t i) { ++seen[i]; }, threads);
            for (size_t i = 0; i < count; ++i)
                EXPECT_EQ(seen[i].load(), 1)
                    << "item " << i << " of " << count << ", " << threads << " threads";
        }
    }
}

TEST(ParallelFor, UsesMoreThanOneThreadWhenAsked) {
    // Each item waits until two different threads have started one, so a single thread
    // doing everything would never see a second one (it gives up after a while instead of
    // hanging, and the test then fails).
    std::mutex m;
    std::set<std::thread::id> ids;
    core::parallelFor(
        2,
        [&](size_t) {
            {
                std::lock_guard<std::mutex> lock(m);
                ids.insert(std::this_thread::get_id());
            }
            for (int k = 0; k < 2000; ++k) {
                {
                    std::lock_guard<std::mutex> lock(m);
                    if (ids.size() >= 2)
                        return;
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
        },
        2);
    EXPECT_EQ(ids.size(), 2u);
}

TEST(ParallelFor, WorkerThreadsIsAtLeastOneAndCapped) {
    EXPECT_GE(core::workerThreads(), 1u);
    EXPECT_EQ(core::workerThreads(1), 1u);
}
