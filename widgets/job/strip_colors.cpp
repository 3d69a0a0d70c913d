#include "widgets/job/strip_colors.h"

#include "widgets/analysis/chart_style.h"

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

QRgb stripColor(const StripPalette& palette, const core::KindShares& shares)
{
    float total = 0;
    for (const float s : shares)
        total += s;
    const float scale = total > 1.0f ? 1.0f / total : 1.0f;
    const float idle = 1.0f - std::min(total, 1.0f);
    float r = static_cast<float>(qRed(palette.idle)) * idle;
    float g = static_cast<float>(qGreen(palette.idle)) * idle;
    float b = static_cast<float>(qBlue(palette.idle)) * idle;
    for (std::size_t k = 0; k < shares.size(); ++k) {
        const float w = shares[k] * scale;
        r += static_cast<float>(qRed(palette.kinds[k])) * w;
        g += static_cast<float>(qGreen(palette.kinds[k])) * w;
        b += static_cast<float>(qBlue(palette.kinds[k])) * w;
    }
    auto channel = [](float v) { return std::clamp(static_cast<int>(v + 0.5f), 0, 255); };
    return qRgb(channel(r), channel(g), channel(b));
}

} // namespace ks::widgets
