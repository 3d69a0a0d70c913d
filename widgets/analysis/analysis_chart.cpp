#include "widgets/analysis/analysis_chart.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>

namespace ks::widgets {

AnalysisChart::AnalysisChart(QWidget* parent)
    : QCustomPlot(parent)
{
    setBackground(palette().color(QPalette::Base));
    setNoAntialiasingOnDrag(true);
    styleAxisRect(axisRect());
    legend->setBrush(palette().color(QPalette::Base));
    legend->setBorderPen(QPen(palette().color(QPalette::Mid)));
    legend->setTextColor(palette().color(QPalette::Text));
    setMinimumSize(240, 180);
    setupContextMenu();
    connect(this, &QCustomPlot::plottableClick, this,
        [this](QCPAbstractPlottable* plottable, int dataIndex, QMouseEvent*) {
            onPlottableClick(plottable, dataIndex);
        });
}

void AnalysisChart::styleAxisRect(QCPAxisRect* rect)
{
    const QColor text = palette().color(QPalette::Text);
    const QColor grid = palette().color(QPalette::Midlight);
    for (QCPAxis* axis : rect->axes()) {
        axis->setBasePen(QPen(text));
        axis->setTickPen(QPen(text));
        axis->setSubTickPen(QPen(text));
        axis->setTickLabelColor(text);
        axis->setLabelColor(text);
        axis->grid()->setPen(QPen(grid, 1, Qt::DotLine));
    }
}

void AnalysisChart::reset()
{
    clearPlottables();
    clearItems();
    legend->setVisible(false);
    m_names.clear();
}

QImage AnalysisChart::renderImage(QSize size, double scale)
{
    if (size.isEmpty())
        size = this->size();
    return toPixmap(size.width(), size.height(), scale).toImage();
}

void AnalysisChart::copyImage()
{
    QApplication::clipboard()->setImage(renderImage());
}

void AnalysisChart::setupContextMenu()
{
    setContextMenuPolicy(Qt::ActionsContextMenu);
    auto add = [this](const QString& text, ChartFormat format) {
        auto* action = new QAction(text, this);
        connect(action, &QAction::triggered, this, [this, format] { emit exportRequested(format); });
        addAction(action);
    };
    add(tr("Export as &PNG…"), ChartFormat::Png);
    add(tr("Export as &SVG…"), ChartFormat::Svg);
    add(tr("Export as P&DF…"), ChartFormat::Pdf);
    auto* copy = new QAction(tr("&Copy Image"), this);
    connect(copy, &QAction::triggered, this, &AnalysisChart::copyImage);
    addAction(copy);
}

void AnalysisChart::onPlottableClick(QCPAbstractPlottable* plottable, int dataIndex)
{
    auto* bars = qobject_cast<QCPBars*>(plottable);
    if (!bars || dataIndex < 0 || dataIndex >= bars->data()->size())
        return;
    const int key = qRound(bars->data()->at(dataIndex)->key);
    if (key >= 0 && key < m_names.size())
        emit nameActivated(m_names[key]);
}

} // namespace ks::widgets
