#pragma once

#include "widgets/timeline/model/timeline_types.h"

#include <QObject>

namespace ks::widgets {

class TimelineWidget;

// D2: two timelines on one time axis. Each trace keeps its own display time;
// they meet on ruler time (display time - that trace's start), so after an
// iteration alignment the same step sits at the same x. Zooming, panning and
// the cursor of one are mirrored on the other, and both share the union of
// their bounds so that neither clamps a range the other can show.
class TimelineSync : public QObject
{
    Q_OBJECT

public:
    TimelineSync(TimelineWidget* first, TimelineWidget* second, QObject* parent = nullptr);

    // Recomputes the shared bounds (after new data or a new alignment) and
    // brings the second view to the first one's range.
    void refreshBounds();

    // Ruler time of a display time on one side (0 = first, 1 = second).
    TimeNs toRuler(int side, TimeNs display) const;
    TimeNs fromRuler(int side, TimeNs ruler) const;

private:
    void mirror(int from);
    void mirrorCursor(int from);

    TimelineWidget* m_sides[2] = { nullptr, nullptr };
    bool m_mirroring = false; // a mirrored change must not bounce back
};

} // namespace ks::widgets
