#pragma once

#include "core/session/memory_estimates.h"

#include <cstdint>

namespace ks::app {

// What the app's own background work (the analysis views, the job's critical
// path and its stragglers, the Overview) may take in all, the loaded store
// included. Work that declares more is not started on its own: its view says
// what it would need and offers to compute it anyway. The estimates it is held
// against are the core's (core/session/memory_estimates.h).

// Above the store when the budget is automatic (Preferences: 0).
inline constexpr std::uint64_t kAutomaticBudgetHeadroom = 2'000'000'000;

// The budget Preferences set: GB, 0 for automatic (QSettings "memory/budgetGb").
double memoryBudgetSettingGb();
void setMemoryBudgetSettingGb(double gigabytes);
// In bytes for a store of `storeBytes`: the setting, or the store plus the headroom.
std::uint64_t memoryBudget(std::uint64_t storeBytes);

} // namespace ks::app
