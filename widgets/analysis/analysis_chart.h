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
// layout its ticks are fitted to the room the axes have (issue 24 item 4: no
// two tick labels overlap at any size), and hovering a category shows its
// full name.
class AnalysisChart : public QCustomPlot
{
    Q_OBJECT

public:
    explicit AnalysisChart(QWidget* parent = nullptr);

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

private:
    void setupContextMenu();
    // Fewer ticks where labels would overlap; called after each layout.
    void fitTicks();
    void onPlottableClick(QCPAbstractPlottable* plottable, int dataIndex);

    QStringList m_names;
    bool m_fitting = false;
};

} // namespace ks::widgets
