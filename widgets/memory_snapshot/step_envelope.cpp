#include "widgets/memory_snapshot/step_envelope.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace ks::widgets {

namespace {

    struct Column
    {
        double enterTotal = 0; // held from the column before
        double highTotal = 0; // smallest y
        double lowTotal = 0; // largest y
        double exitTotal = 0;
        double highDrawn = 0; // the drawn top's lowest point (largest y)
    };

} // namespace

StepEnvelope stepEnvelope(std::span<const StepSample> samples, int left, int right, bool withBand)
{
    StepEnvelope out;
    if (samples.empty() || right <= left)
        return out;
    const auto width = static_cast<std::size_t>(right - left);
    std::vector<Column> columns(width);
    std::size_t next = 0;
    // The values held at the left edge: the last sample at or before it (else the first).
    double total = samples.front().totalY;
    double drawn = samples.front().drawnY;
    while (next < samples.size() && samples[next].x < left) {
        total = samples[next].totalY;
        drawn = samples[next].drawnY;
        ++next;
    }
    for (std::size_t c = 0; c < width; ++c) {
        Column& col = columns[c];
        col.enterTotal = col.highTotal = col.lowTotal = total;
        col.highDrawn = drawn;
        const double end = left + static_cast<double>(c) + 1;
        for (; next < samples.size() && samples[next].x < end; ++next) {
            total = samples[next].totalY;
            drawn = samples[next].drawnY;
            col.highTotal = std::min(col.highTotal, total);
            col.lowTotal = std::max(col.lowTotal, total);
            col.highDrawn = std::max(col.highDrawn, drawn);
        }
        col.exitTotal = total;
    }
    out.outline.reserve(static_cast<qsizetype>(4 * width + 1));
    for (std::size_t c = 0; c < width; ++c) {
        const Column& col = columns[c];
        const double x = left + static_cast<double>(c);
        out.outline << QPointF(x, col.enterTotal);
        if (col.highTotal != col.lowTotal) {
            out.outline << QPointF(x, col.highTotal) << QPointF(x, col.lowTotal);
        }
        out.outline << QPointF(x, col.exitTotal);
    }
    out.outline << QPointF(right, columns.back().exitTotal);
    if (!withBand)
        return out;
    out.band.reserve(static_cast<qsizetype>(4 * width));
    for (std::size_t c = 0; c < width; ++c) {
        const double x = left + static_cast<double>(c);
        out.band << QPointF(x, columns[c].highTotal) << QPointF(x + 1, columns[c].highTotal);
    }
    for (std::size_t c = width; c-- > 0;) {
        const double x = left + static_cast<double>(c);
        out.band << QPointF(x + 1, columns[c].highDrawn) << QPointF(x, columns[c].highDrawn);
    }
    return out;
}

} // namespace ks::widgets
