#pragma once

#include <QColor>
#include <QString>
#include <QWidget>

#include <vector>

namespace ks::widgets {

// One slice of an AnnotationPie: a name and its time.
struct PieSlice
{
    QString name;
    double nanoseconds = 0;
    bool searchable = true; // false for the folded rest ("other"): a click finds nothing
};

// A pie of named times with a legend beside it (the top user annotations of a
// rank). Painted with QPainter: QCustomPlot has no pie, and a pie of QCPCurves would fake
// the axes and hit-testing this gets from a circle. Times and shares are written with
// the number policy of every table (formatDuration, formatPercent). A slice or legend
// row under the mouse is raised and explained in a tooltip; a click on one emits
// sliceClicked with its name.
class AnnotationPie : public QWidget
{
    Q_OBJECT

public:
    explicit AnnotationPie(QWidget* parent = nullptr);

    // Slices clockwise from 12 o'clock, in the order given (largest first); `caption` is
    // drawn above. When the legend has fewer rows than slices, the last ones that do not
    // fit are drawn as one "other" slice: every slice drawn keeps its legend row.
    void setSlices(std::vector<PieSlice> slices, const QString& caption);

    // The slices drawn (what setSlices gave, the tail folded to fit the legend).
    const std::vector<PieSlice>& slices() const { return m_slices; }

    QString caption() const { return m_caption; }

    // The slice drawn at `pos` (on the pie or its legend row); -1 elsewhere.
    int sliceAt(const QPoint& pos) const;
    // A point inside slice `index` (tests click there); the centre when it has no area.
    QPoint pointInSlice(int index) const;
    // The share of slice `index` in percent.
    double percentOf(int index) const;

    QColor colorOf(int index) const;

    // What fits the widget now: the pie's diameter in pixels, and how many legend rows
    // are drawn whole (the rest only in tooltips).
    double pieDiameter() const { return geometry().pie.width(); }

    int legendRowsShown() const;

    QSize sizeHint() const override { return { 480, 240 }; }

    QSize minimumSizeHint() const override { return { 240, 150 }; }

signals:
    void sliceClicked(const QString& name);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    struct Geometry
    {
        QRectF pie;
        QRectF legend;
        double rowHeight = 0;
        double captionHeight = 0;
    };

    Geometry geometry() const;
    double total() const;
    // Start and span of slice `index`, degrees clockwise from 12 o'clock.
    std::pair<double, double> anglesOf(int index) const;
    void paintLegend(QPainter& painter, const Geometry& g) const;
    // m_slices from m_given: as many as the legend has rows for.
    void fold();

    std::vector<PieSlice> m_given;
    std::vector<PieSlice> m_slices;
    QString m_caption;
    int m_hovered = -1;
};

} // namespace ks::widgets
