#include "app/gui/background/memory_budget.h"

#include "core/analysis/frame/hta_frame.h"
#include "core/model/rank_trace.h"
#include "core/model/trace_set.h"

#include <QSettings>

#include <algorithm>
#include <cmath>

namespace ks::app {

namespace {

    const QString kBudgetKey = QStringLiteral("memory/budgetGb");

    // A frame row and its entry in the event index, twice: the frames and
    // what the analyses copy of them at their peak (sorted intervals, per-rank
    // tables).
    constexpr std::uint64_t kDockBytesPerEvent = 2 * (sizeof(core::FrameRow) + sizeof(std::uint32_t));

} // namespace

double memoryBudgetSettingGb()
{
    return std::max(0.0, QSettings().value(kBudgetKey, 0.0).toDouble());
}

void setMemoryBudgetSettingGb(double gigabytes)
{
    QSettings().setValue(kBudgetKey, std::max(0.0, gigabytes));
}

std::uint64_t memoryBudget(std::uint64_t storeBytes)
{
    const double gigabytes = memoryBudgetSettingGb();
    if (gigabytes <= 0)
        return storeBytes + kAutomaticBudgetHeadroom;
    return static_cast<std::uint64_t>(std::llround(gigabytes * 1e9));
}

std::uint64_t storeBytes(const core::TraceSet& set)
{
    std::uint64_t bytes = 0;
    for (const auto& rank : set.ranks)
        bytes += rank->bytesUsed();
    return bytes;
}

std::uint64_t framesBytes(const core::FrameSet& frames)
{
    std::uint64_t bytes = 0;
    for (const core::RankFrame& frame : frames.ranks)
        bytes += frame.rows.capacity() * sizeof(core::FrameRow)
            + (frame.trace ? frame.trace->keptEvents() : 0) * sizeof(std::uint32_t);
    return bytes;
}

std::size_t concurrentRanks(const core::FrameSet& frames, int workers)
{
    return std::min(frames.ranks.size(), static_cast<std::size_t>(std::max(1, workers)) + 1);
}

std::uint64_t docksMemoryEstimate(const core::TraceSet& set)
{
    std::uint64_t events = 0;
    for (const auto& rank : set.ranks)
        events += rank->keptEvents();
    return events * kDockBytesPerEvent;
}

} // namespace ks::app
