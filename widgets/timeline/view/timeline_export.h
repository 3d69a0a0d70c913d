#pragma once

#include <QString>

namespace ks::widgets {

class TimelineView;

// T9: the visible tracks and time range, as shown, to a PNG (at the screen's
// pixel ratio) or an SVG (vector rectangles and text).
bool exportTimelineImage(TimelineView& view, const QString& path);
bool exportTimelineSvg(TimelineView& view, const QString& path);

} // namespace ks::widgets
