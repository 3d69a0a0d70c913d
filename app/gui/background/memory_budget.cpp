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

} // namespace ks::app
