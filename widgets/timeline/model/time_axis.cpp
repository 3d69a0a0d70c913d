#include "widgets/timeline/model/time_axis.h"

#include <QLocale>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <limits>

namespace ks::widgets {

TimeAxis::TimeAxis(TimeRange range, double widthPx)
    : m_range(range)
    , m_width(std::max(1.0, widthPx))
{
    const double span = static_cast<double>(std::max<TimeNs>(1, range.span()));
    m_pxPerNs = m_width / span;
    m_nsPerPx = span / m_width;
}

TimeNs TimeAxis::timeAt(double xPx) const
{
    // The offset is small (a view's span) so the double holds it exactly enough;
    // only then is it added to the int64 start.
    return m_range.start + static_cast<TimeNs>(std::llround(xPx * m_nsPerPx));
}

TimeRange clampRange(TimeRange range, TimeRange bounds)
{
    const TimeNs boundsSpan = std::max<TimeNs>(bounds.span(), kMinViewSpanNs);
    const TimeNs margin = boundsSpan / 20;
    const TimeNs lo = bounds.start - margin;
    const TimeNs hi = bounds.start + boundsSpan + margin;
    TimeNs span = std::clamp<TimeNs>(range.span(), kMinViewSpanNs, hi - lo);
    TimeNs start = range.start;
    if (range.span() != span) // keep the centre when the span had to change
        start = range.start + (range.span() - span) / 2;
    start = std::clamp(start, lo, hi - span);
    return { start, start + span };
}

TimeRange zoomRange(TimeRange range, double factor, double anchorFraction, TimeRange bounds)
{
    anchorFraction = std::clamp(anchorFraction, 0.0, 1.0);
    const double oldSpan = static_cast<double>(range.span());
    const TimeNs anchor = range.start + static_cast<TimeNs>(std::llround(oldSpan * anchorFraction));
    const double maxSpan = static_cast<double>(std::max<TimeNs>(bounds.span(), kMinViewSpanNs)) * 1.1;
    const double newSpan = std::clamp(oldSpan * factor, static_cast<double>(kMinViewSpanNs), maxSpan);
    const TimeNs span = static_cast<TimeNs>(std::llround(newSpan));
    const TimeNs start = anchor - static_cast<TimeNs>(std::llround(newSpan * anchorFraction));
    return clampRange({ start, start + span }, bounds);
}

TimeRange panRange(TimeRange range, TimeNs deltaNs, TimeRange bounds)
{
    return clampRange({ range.start + deltaNs, range.end + deltaNs }, bounds);
}

TimeRange framedRange(TimeNs t0, TimeNs t1, TimeRange bounds, double margin)
{
    if (t1 < t0)
        std::swap(t0, t1);
    TimeNs span = std::max<TimeNs>(t1 - t0, kMinViewSpanNs / 2);
    const TimeNs pad = static_cast<TimeNs>(static_cast<double>(span) * margin);
    const TimeNs centre = t0 + (t1 - t0) / 2;
    span += 2 * pad;
    return clampRange({ centre - span / 2, centre - span / 2 + span }, bounds);
}

namespace {

    // Smallest 1-2-5 step >= minNs.
    TimeNs niceStep(double minNs)
    {
        TimeNs base = 1;
        while (true) {
            for (TimeNs m : { 1, 2, 5 }) {
                if (static_cast<double>(base * m) >= minNs)
                    return base * m;
            }
            if (base > std::numeric_limits<TimeNs>::max() / 100)
                return base * 10;
            base *= 10;
        }
    }

    // The first multiple of `step` (measured from `origin`) at or after t.
    TimeNs firstMultiple(TimeNs t, TimeNs origin, TimeNs step)
    {
        const TimeNs rel = t - origin;
        TimeNs q = rel / step;
        if (q * step < rel)
            ++q;
        return origin + q * step;
    }

    struct Unit
    {
        TimeNs ns;
        const char16_t* name;
    };

    constexpr std::array<Unit, 4> kUnits { { { 1, u"ns" }, { 1000, u"µs" }, { 1000000, u"ms" },
        { 1000000000, u"s" } } };

    // The largest unit not above the value's magnitude (ns for values under 1 µs).
    const Unit& unitFor(TimeNs value)
    {
        const TimeNs magnitude = std::llabs(value);
        std::size_t u = 0;
        while (u + 1 < kUnits.size() && magnitude >= kUnits[u + 1].ns)
            ++u;
        return kUnits[u];
    }

    QString formatIn(TimeNs value, const Unit& unit, int decimals)
    {
        const double v = static_cast<double>(value) / static_cast<double>(unit.ns);
        return QString::number(v, 'f', decimals) + QChar(u' ') + QString::fromUtf16(unit.name);
    }

} // namespace

RulerScale rulerScale(const TimeAxis& axis, TimeNs origin, double minLabelPx)
{
    RulerScale scale;
    scale.majorStep = niceStep(axis.nsForPixels(minLabelPx));
    // Minor ticks split a 1 or 2 step in 5 or 4 parts, a 5 step in 5.
    TimeNs digits = scale.majorStep;
    while (digits % 10 == 0)
        digits /= 10;
    scale.minorStep = std::max<TimeNs>(1, digits == 2 ? scale.majorStep / 4 : scale.majorStep / 5);
    const TimeRange& r = axis.range();
    for (TimeNs t = firstMultiple(r.start, origin, scale.majorStep); t <= r.end; t += scale.majorStep)
        scale.majors.push_back(t);
    if (scale.minorStep >= 1 && axis.x(r.start + scale.minorStep) - axis.x(r.start) >= 6.0) {
        for (TimeNs t = firstMultiple(r.start, origin, scale.minorStep); t <= r.end; t += scale.minorStep) {
            if ((t - origin) % scale.majorStep != 0)
                scale.minors.push_back(t);
        }
    }
    return scale;
}

QString formatTickLabel(TimeNs relativeNs, TimeNs stepNs)
{
    if (relativeNs == 0)
        return QStringLiteral("0");
    const Unit& unit = unitFor(relativeNs);
    // Decimals so that the step is exact in this unit.
    int decimals = 0;
    TimeNs scale = unit.ns;
    while (decimals < 9 && stepNs % scale != 0) {
        scale /= 10;
        if (scale == 0)
            break;
        ++decimals;
    }
    return formatIn(relativeNs, unit, decimals);
}

QString formatPreciseTime(TimeNs relativeNs)
{
    const Unit& unit = unitFor(relativeNs);
    int decimals = 0;
    for (TimeNs s = unit.ns; s > 1; s /= 10)
        ++decimals;
    return formatIn(relativeNs, unit, decimals);
}

} // namespace ks::widgets
