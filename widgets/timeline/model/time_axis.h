#pragma once

#include "widgets/timeline/model/timeline_types.h"

#include <QString>

#include <cmath>
#include <vector>

namespace ks::widgets {

// Maps display time to x in pixels of the track area and back. x is computed
// in double from (t - start) taken in int64 first: traces start at epoch-scale
// nanoseconds (~1.7e18), where even a double of the absolute time has lost the
// nanoseconds and a float is off by minutes.
class TimeAxis
{
public:
    TimeAxis() = default;
    TimeAxis(TimeRange range, double widthPx);

    double x(TimeNs t) const { return static_cast<double>(t - m_range.start) * m_pxPerNs; }

    // The time under x, rounded to the nearest nanosecond.
    TimeNs timeAt(double xPx) const;

    // Nanoseconds covered by `px` pixels (at least 0).
    double nsForPixels(double px) const { return px * m_nsPerPx; }

    const TimeRange& range() const { return m_range; }

    double width() const { return m_width; }

    double nsPerPx() const { return m_nsPerPx; }

private:
    TimeRange m_range;
    double m_width = 0;
    double m_pxPerNs = 0;
    double m_nsPerPx = 0;
};

// The narrowest view: below this the integer-ns start would make zooming jump.
constexpr TimeNs kMinViewSpanNs = 250;

// `range` zoomed by `factor` (< 1 zooms in) keeping the time under
// `anchorFraction` (0 = left edge, 1 = right edge) in place, then clamped.
TimeRange zoomRange(TimeRange range, double factor, double anchorFraction, TimeRange bounds);
// `range` moved by `deltaNs`, then clamped.
TimeRange panRange(TimeRange range, TimeNs deltaNs, TimeRange bounds);
// Keeps a view inside the data bounds (plus a 5 % margin) and at least kMinViewSpanNs wide.
TimeRange clampRange(TimeRange range, TimeRange bounds);
// A range that shows [t0, t1] with a margin of `margin` of its span on each side.
TimeRange framedRange(TimeNs t0, TimeNs t1, TimeRange bounds, double margin = 0.1);

// Ruler ticks: a 1-2-5 step with labels at least `minLabelPx` apart.
struct RulerScale
{
    TimeNs majorStep = 1;
    TimeNs minorStep = 1;
    std::vector<TimeNs> majors; // display times (absolute) in view, ascending
    std::vector<TimeNs> minors;
};

RulerScale rulerScale(const TimeAxis& axis, TimeNs origin, double minLabelPx = 110.0);

// A ruler label for `relativeNs` (time since the trace start) with enough
// decimals to tell ticks `stepNs` apart: "0", "250 µs", "12.3455 ms", "1.5 s".
QString formatTickLabel(TimeNs relativeNs, TimeNs stepNs);

// A precise time for the cursor readout and details: "12.345 678 ms" style with
// the nanoseconds shown.
QString formatPreciseTime(TimeNs relativeNs);

} // namespace ks::widgets
