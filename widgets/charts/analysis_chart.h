#pragma once

#include <QStringList>
#include <qcustomplot.h>

namespace ks::widgets {

enum class ChartFormat
{
    Png,
    Svg,
    Pdf
};

// A QCustomPlot styled after the window palette, with the export context menu
// (C3). Copying goes straight to the clipboard; file exports are asked of the
// app through exportRequested, since only the app shows dialogs. After every
// layout its ticks are fitted to the room the axes have (no
// two tick labels overlap at any size), and hovering a category shows its
// full name. It follows the window palette (light or dark, also when the
// system switches), and asks its layout for the height that gives every plot
// rect at least kMinPlotHeight pixels (a chart that reads on a
// 1280x800 screen), so a scroll area around it scrolls instead of squashing it.
class AnalysisChart : public QCustomPlot
{
    Q_OBJECT

public:
    explicit AnalysisChart(QWidget* parent = nullptr);

    // The least height of a plot rect (an axis rect's inner rect) worth drawing.
    static constexpr int kMinPlotHeight = 150;

    // Room for every row of plot rects at kMinPlotHeight besides the axes,
    // titles and legend rows the chart has (as last laid out).
    QSize minimumSizeHint() const override;

    // Removes every plottable and item. Builders that add panels or a title
    // expect a fresh chart: views make a new one for each result.
    void reset();

    // Styles an axis rect's axes (the main one and those builders add).
    void styleAxisRect(QCPAxisRect* rect);

    // Names behind bar keys (key i -> names[i]): a click on such a bar emits
    // nameActivated, so a kernel bar can find that kernel on the timeline. An empty
    // name (nothing to find, like "(no annotation)") emits nothing.
    void setActivatableNames(QStringList names) { m_names = std::move(names); }

    // The chart drawn at `size` (the widget's when empty) times `scale`.
    QImage renderImage(QSize size = {}, double scale = 1.0);
    void copyImage();

    // The category (full label) under `pos` on a category axis; empty elsewhere.
    QString categoryAt(const QPoint& pos) const;

signals:
    void exportRequested(ks::widgets::ChartFormat format);
    void nameActivated(const QString& name);

protected:
    void mouseMoveEvent(QMouseEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    // Background, axes, legend and title rows in the palette's colours.
    void applyPalette();
    // Recomputes minimumSizeHint's height after a layout.
    void updateMinimumHeight();
    void setupContextMenu();
    // Fewer ticks where labels would overlap; called after each layout.
    void fitTicks();
    void onPlottableClick(QCPAbstractPlottable* plottable, int dataIndex);

    QStringList m_names;
    bool m_fitting = false;
    int m_minimumHeight = 220; // until the first layout says better
};

} // namespace ks::widgets
