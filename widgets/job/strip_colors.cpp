#include "widgets/job/strip_colors.h"

#include "widgets/charts/chart_style.h"

#include <algorithm>
#include <array>

namespace ks::widgets {

StripPalette StripPalette::standard()
{
    return { { computeColor().rgb(), communicationColor().rgb(), memoryColor().rgb(), qRgb(120, 120, 120) },
        qRgb(245, 245, 245) };
}

double busyFraction(const core::KindShares& shares)
{
    float total = 0;
    for (const float s : shares)
        total += s;
    return std::min(1.0, static_cast<double>(total));
}

} // namespace ks::widgets
