#pragma once

#include "widgets/memory_snapshot/snapshot_steps.h"
#include "widgets/memory_snapshot/snapshot_view_data.h"

#include <QColor>
#include <QPolygonF>
#include <QWidget>

#include <vector>

namespace ks::widgets {

// memory_viz's Active Memory Timeline of one device: every live allocation a
// band stacked over memory_viz's steps (one per alloc or free, three more where
// the bands above a freed one slide down), the allocations it leaves out as
// one grey band on top, the total's outline, the peak and the chosen event
// marked. Hovering a band shows its size and top frames; a click picks the
// event at that step (eventPicked); the wheel zooms the steps around the
// cursor (a double click shows them all again). The polygons are built once
// per size, zoom and data, off the paint path; hover and selection repaint
// from them. Once the snapshot is aligned with its trace, the trace's ranges
// (ProfilerStep#N, then nested user annotations) are bands in lanes above
// the plot, labelled where the label fits (others thin out), a click on one
// picks it (markPicked) and the chosen one is shaded over the memory.
class ActiveMemoryPlot : public QWidget
{
    Q_OBJECT

public:
    explicit ActiveMemoryPlot(QWidget* parent = nullptr);

    // `device`: an index into data->devices; null clears.
    void setData(SnapshotViewDataPtr snapshot, int device);
    // A row of the device's event list (TimelineRow), -1 = none.
    void setSelectedRow(int row);

    int selectedRow() const { return m_selectedRow; }

    // The trace's ranges to mark (SnapshotSteps::marks of this device) in
    // `lanes` lanes; empty clears. Kept until the next setData or setMarks.
    void setMarks(std::vector<StepMark> marks, int lanes);
    // An index into marks(), -1 = none.
    void setSelectedMark(int mark);

    const std::vector<StepMark>& marks() const { return m_marks; }

    int selectedMark() const { return m_selectedMark; }

    // Where a mark's band is drawn, in widget pixels (clipped to the plot's x).
    QRect markRect(int mark) const;
    // The mark under a point (its band in the lanes), or -1.
    int markAt(QPoint pos) const;

    // The labels drawn now: left to right in each lane, only where one fits in
    // its band and clears the label before it.
    struct MarkLabel
    {
        int mark = 0;
        QString text;
        QRect rect;
    };

    std::vector<MarkLabel> markLabels() const;

    // The band under a point of the widget (an index into the layout's bands), or -1.
    std::int64_t bandAt(QPoint pos) const;
    // The tooltip text of a band: its size, how it came to be, its top frames.
    QString bandText(std::int64_t band) const;
    // The row whose event happened at or before the step under `x`.
    int rowAtX(int x) const;
    // Where a step is drawn, in widget pixels.
    double xOfStep(double step) const;
    QRect plotRect() const;

    // The steps shown, [first, last]; the whole axis unless zoomed.
    std::pair<double, double> visibleSteps() const { return { m_first, m_last }; }

    void setVisibleSteps(double first, double last);

    QSize minimumSizeHint() const override { return { 320, 180 }; }

signals:
    void eventPicked(int row);
    void markPicked(int mark);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct DrawnBand
    {
        QPolygonF polygon;
        QColor color;
    };

    const core::ActiveMemoryTimeline* timeline() const;
    const BandLayout* layout() const;
    double yOfBytes(double bytes) const;
    double stepOfX(double x) const;
    double bytesOfY(double y) const;
    double yMax() const;
    void rebuild(); // the draw list, for this size and data
    void paintAxes(QPainter& p) const;
    void paintMarks(QPainter& p) const;
    void paintRanges(QPainter& p) const; // the trace's ranges in their lanes
    int lanesTop() const; // the lanes' top edge, under the peak's label

    SnapshotViewDataPtr m_data;
    int m_device = 0;
    int m_selectedRow = -1;
    std::vector<StepMark> m_marks;
    int m_lanes = 0;
    int m_selectedMark = -1;
    std::vector<DrawnBand> m_drawn;
    QPolygonF m_summarized; // between the drawn bands' top and the total
    QPolygonF m_outline;
    bool m_dirty = true;
    double m_first = 0;
    double m_last = 1;
};

} // namespace ks::widgets
