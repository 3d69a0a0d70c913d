#pragma once

#include "core/common/parallel_for.h"
#include "core/summary/job_overview.h"
#include "widgets/job/strip_colors.h"

#include <QImage>
#include <QList>
#include <QWidget>

#include <memory>
#include <set>
#include <vector>

namespace ks::widgets {

class TaskPools;

// Job mode's timeline: every rank of the job as a strip a few pixels high (one
// pixel row or less per rank when there are more ranks than pixels), each
// pixel column coloured by what the rank's GPUs did in that span of time
// (stripColor: a blend of the kinds of work and idle). Reads only the
// summary's profiles, so 1000 ranks draw from one cached image, rebuilt only
// when the visible bins or the width change (strip_raster.h: a pixel costs
// the two or three bins under it; rows are rastered on the window's workers).
//
// Hover reads out rank, time and busy %; click selects a rank (Ctrl toggles,
// Shift extends); double-click asks for that rank's full trace; the wheel
// zooms time around the cursor (Shift+wheel pans).
class JobStripView : public QWidget
{
    Q_OBJECT

public:
    // `pools` (may be null: one thread) lends the workers a rebuilt image is
    // rastered on.
    explicit JobStripView(TaskPools* pools = nullptr, QWidget* parent = nullptr);

    void setJob(std::shared_ptr<const core::JobOverview> job);

    const core::JobOverview* job() const { return m_job.get(); }

    // Rows are indices into job()->ranks.
    std::set<std::size_t> selectedRows() const { return m_selected; }

    // Rows drawn with a straggler mark (core::computeOutlierRows).
    const std::vector<std::size_t>& stragglerRows() const { return m_stragglers; }

    void setSelectedRows(std::set<std::size_t> rows);

    // The visible bins [first, last), fractional.
    std::pair<double, double> visibleBins() const { return { m_firstBin, m_lastBin }; }

    void setVisibleBins(double first, double last);

    // The strip area (without the rank labels and the time axis).
    QRect stripArea() const;

    // The rank labels in the gutter, where they are drawn: as many as fit a line
    // apart, each beside its row but inside the widget (rank 0's is not cut at the top).
    std::vector<std::pair<QRect, QString>> rankLabels() const;

    // The rank row under a point of the strip area, or -1.
    int rowAt(QPoint point) const;

    // "rank 17 · 12.300 ms · busy 87 % (compute 80 %, communication 7 %)", empty outside the strips.
    QString describeAt(QPoint point) const;

    // The strips as drawn now, one pixel column per widget column and one
    // row per rank (before fitting to the height): what tests and benchmarks inspect.
    const QImage& stripImage();

    QSize sizeHint() const override { return { 900, 600 }; }

signals:
    // Double-click, or Enter with a selection: load these rows' full traces.
    void rowsActivated(const QList<qsizetype>& rows);
    void selectionChanged();
    void hovered(const QString& description);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    void rebuildImage(int columns);
    // m_image fitted to `rows` pixel rows when there are more ranks than that.
    void fitImage(int rows);
    core::ParallelFor parallelFor() const;
    double binAt(int x) const;
    // The rows' extent: the strip area's top, as high as the rows are drawn.
    QRect rowsArea() const;
    void drawAxis(QPainter& painter, const QRect& area) const;

    TaskPools* m_pools = nullptr;
    std::shared_ptr<const core::JobOverview> m_job;
    StripPalette m_palette = StripPalette::standard();
    QImage m_image; // ranks × columns
    QImage m_fitted; // m_image with several ranks per pixel row
    bool m_fittedStale = true;
    bool m_imageStale = true;
    double m_firstBin = 0;
    double m_lastBin = 1;
    std::set<std::size_t> m_selected;
    std::vector<std::size_t> m_stragglers;
    std::size_t m_anchor = 0; // where Shift-click extends from
};

} // namespace ks::widgets
