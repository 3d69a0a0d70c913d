#pragma once

#include "core/summary/job_overview.h"

#include <QColor>
#include <QRgb>

#include <array>

namespace ks::widgets {

// The colour of one strip pixel: the blend of the kinds of GPU work in it,
// each weighted by its share of the pixel's time, the rest idle. A blend
// rather than the dominant kind, so that a rank that computes twice as long
// and waits less than its neighbours differs from them visibly even where
// both are mostly computing. Shares above 1 in total (overlapping streams)
// are scaled down to 1.
struct StripPalette
{
    std::array<QRgb, 4> kinds; // computation, communication, memory, other
    QRgb idle;

    // The timeline's kind colours; idle near white so busy work stands out.
    static StripPalette standard();
};

QRgb stripColor(const StripPalette& palette, const core::KindShares& shares);

// Fraction of the time busy with any GPU work, capped at 1.
double busyFraction(const core::KindShares& shares);

} // namespace ks::widgets
