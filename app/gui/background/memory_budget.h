#pragma once

#include <cstddef>
#include <cstdint>

namespace ks::core {
struct FrameSet;
struct TraceSet;
} // namespace ks::core

namespace ks::app {

// Issue 27 item 3: what the app's own background work (the analysis docks, the
// job's critical path and its stragglers) may take in all, the loaded store
// included. Work that declares more is not started on its own: its dock says
// what it would need and offers to compute it anyway.

// Above the store when the budget is automatic (Preferences: 0).
inline constexpr std::uint64_t kAutomaticBudgetHeadroom = 2'000'000'000;

// The budget Preferences set: GB, 0 for automatic (QSettings "memory/budgetGb").
double memoryBudgetSettingGb();
void setMemoryBudgetSettingGb(double gigabytes);
// In bytes for a store of `storeBytes`: the setting, or the store plus the headroom.
std::uint64_t memoryBudget(std::uint64_t storeBytes);

// The loaded store (RankTrace::bytesUsed of every rank).
std::uint64_t storeBytes(const core::TraceSet& set);
// One FrameSet's rows and event index.
std::uint64_t framesBytes(const core::FrameSet& frames);
// What the docks' computation holds beyond the store at its peak: the frames
// and the analyses' working copies, per kept event.
std::uint64_t docksMemoryEstimate(const core::TraceSet& set);

// The ranks jobCriticalPath condenses at once on pools of `workers` threads: one
// per worker and its caller (what its memory estimate is asked for).
std::size_t concurrentRanks(const core::FrameSet& frames, int workers);

// What a piece of work needs, the store included, and the budget it was held against.
struct MemoryNeed
{
    std::uint64_t bytes = 0;
    std::uint64_t budget = 0;

    bool fits() const { return bytes <= budget; }
};

} // namespace ks::app
