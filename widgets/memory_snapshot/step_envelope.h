#pragma once

#include <QPolygonF>

#include <span>

namespace ks::widgets {

// One change of the timeline's two step functions, in pixels: from `x` on the
// total is at `totalY` and the drawn bands' top at `drawnY` (screen y: smaller
// is higher), until the next sample.
struct StepSample
{
    double x = 0;
    double totalY = 0;
    double drawnY = 0;
};

// The two step functions reduced to one column per pixel, so a 1.5 M-event
// snapshot draws a few thousand points: a polygon of millions made Qt's
// rasteriser spend seconds per paint and give up ("Polygon too complex").
// `outline`: the total as a polyline whose every column spans the lowest and
// highest total in it (no peak is lost); `band`, when asked for: the area
// between the drawn bands' top and the total, each column from the highest
// total to the lowest drawn top in it. Columns are [left, right); samples are
// by increasing x, and the value before the first one holds from `left`.
struct StepEnvelope
{
    QPolygonF outline;
    QPolygonF band;
};

StepEnvelope stepEnvelope(std::span<const StepSample> samples, int left, int right, bool withBand);

} // namespace ks::widgets
