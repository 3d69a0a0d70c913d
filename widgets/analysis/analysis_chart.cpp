#include "widgets/analysis/analysis_chart.h"

#include "widgets/analysis/chart_style.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QScopedValueRollback>
#include <QToolTip>

#include <algorithm>
#include <cmath>

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
    setMouseTracking(true);
    setupContextMenu();
    connect(this, &QCustomPlot::afterLayout, this, &AnalysisChart::fitTicks);
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

namespace {

    const char* const kStepProperty = "ksLabelStep";
    constexpr int kLabelGap = 6; // pixels between two tick labels

    // Every `step`-th category of a category axis labelled.
    void labelEvery(QCPAxis* axis, int step)
    {
        auto ticker = axis->ticker().dynamicCast<QCPAxisTickerText>();
        if (!ticker)
            return;
        const QStringList labels = categoryLabels(axis);
        ticker->clear();
        for (int i = 0; i < labels.size(); i += step)
            ticker->addTick(i, elided(labels[i], kMaxLabelChars));
        axis->setProperty(kStepProperty, step);
    }

    // The widest (horizontal axis) or tallest (vertical) drawn tick label.
    int labelExtent(const QCPAxis* axis)
    {
        const QFontMetrics metrics(axis->tickLabelFont());
        const bool horizontal = axis->orientation() == Qt::Horizontal;
        if (!horizontal || axis->tickLabelRotation() != 0)
            return metrics.height();
        int widest = 0;
        for (const QString& label : axis->tickVectorLabels()) {
            for (const QString& line : label.split(QChar(u'\n')))
                widest = std::max(widest, metrics.horizontalAdvance(line));
        }
        return widest;
    }

    // Two neighbouring tick labels of `axis` closer than kLabelGap, as last laid out.
    bool labelsCrowded(const QCPAxis* axis)
    {
        const QVector<double> ticks = axis->tickVector();
        const int extent = labelExtent(axis);
        for (qsizetype i = 1; i < ticks.size(); ++i) {
            const double distance =
                std::fabs(axis->coordToPixel(ticks[i]) - axis->coordToPixel(ticks[i - 1]));
            if (distance < extent + kLabelGap)
                return true;
        }
        return false;
    }

    // The widest (or tallest) label a category axis may draw.
    int categoryExtent(const QCPAxis* axis)
    {
        const QFontMetrics metrics(axis->tickLabelFont());
        if (axis->orientation() != Qt::Horizontal || axis->tickLabelRotation() != 0)
            return metrics.height();
        int widest = 0;
        for (const QString& label : categoryLabels(axis))
            widest = std::max(widest, metrics.horizontalAdvance(elided(label, kMaxLabelChars)));
        return widest;
    }

    // A category axis labels every k-th category, k as small as the room allows
    // (so a chart that grows gets its labels back). True when k changed.
    bool fitCategories(QCPAxis* axis)
    {
        const QStringList labels = categoryLabels(axis);
        const int least =
            static_cast<int>((labels.size() + kMaxLabelledCategories - 1) / kMaxLabelledCategories);
        const double slot = std::fabs(axis->coordToPixel(1) - axis->coordToPixel(0));
        const int wanted = std::max({ least, 1,
            static_cast<int>(std::ceil((categoryExtent(axis) + kLabelGap) / std::max(slot, 1.0))) });
        if (wanted == std::max(axis->property(kStepProperty).toInt(), 1))
            return false;
        labelEvery(axis, wanted);
        return true;
    }

    // A numeric axis: as many ticks as fit, at most the ticker's usual five;
    // fewer while two labels still crowd. True when the count changed.
    bool fitNumbers(QCPAxis* axis, bool start)
    {
        const QSharedPointer<QCPAxisTicker> ticker = axis->ticker();
        const bool horizontal = axis->orientation() == Qt::Horizontal;
        const double length = horizontal ? axis->axisRect()->width() : axis->axisRect()->height();
        const int fits = static_cast<int>(length / (labelExtent(axis) + kLabelGap));
        int count = start ? std::clamp(fits, 1, 5) : ticker->tickCount();
        if (count == ticker->tickCount() && labelsCrowded(axis))
            count = std::max(1, count - 1);
        if (count == ticker->tickCount())
            return false;
        ticker->setTickCount(count);
        return true;
    }

    bool fitAxis(QCPAxis* axis, bool start)
    {
        if (!axis->visible() || !axis->tickLabels())
            return false;
        if (!categoryLabels(axis).isEmpty())
            return start && fitCategories(axis);
        return fitNumbers(axis, start);
    }

} // namespace

void AnalysisChart::fitTicks()
{
    if (m_fitting)
        return;
    const QScopedValueRollback guard(m_fitting, true);
    // A few rounds: a ticker picks "nice" steps near the count it is given.
    for (int round = 0; round < 6; ++round) {
        bool changed = false;
        for (QCPAxisRect* rect : axisRects()) {
            for (QCPAxis* axis : rect->axes())
                changed = fitAxis(axis, round == 0) || changed;
        }
        if (!changed)
            return;
        updateLayout();
    }
}

QString AnalysisChart::categoryAt(const QPoint& pos) const
{
    for (QCPAxisRect* rect : axisRects()) {
        const QRect area = rect->rect();
        for (QCPAxis* axis : rect->axes()) {
            const QStringList labels = categoryLabels(axis);
            if (labels.isEmpty())
                continue;
            const bool horizontal = axis->orientation() == Qt::Horizontal;
            // Over the plot or its labels, along the axis.
            const bool along = horizontal ? pos.x() >= area.left() && pos.x() <= area.right()
                                          : pos.y() >= area.top() && pos.y() <= area.bottom();
            const bool beside = horizontal ? pos.y() >= area.top() : pos.x() <= area.right();
            if (!along || !beside)
                continue;
            const long key = std::lround(axis->pixelToCoord(horizontal ? pos.x() : pos.y()));
            if (key >= 0 && key < labels.size())
                return labels[static_cast<qsizetype>(key)];
        }
    }
    return {};
}

void AnalysisChart::mouseMoveEvent(QMouseEvent* event)
{
    QCustomPlot::mouseMoveEvent(event);
    const QString name = categoryAt(event->pos());
    if (name.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), name, this);
}

void AnalysisChart::onPlottableClick(QCPAbstractPlottable* plottable, int dataIndex)
{
    auto* bars = qobject_cast<QCPBars*>(plottable);
    if (!bars || dataIndex < 0 || dataIndex >= bars->data()->size())
        return;
    const int key = qRound(bars->data()->at(dataIndex)->key);
    if (key >= 0 && key < m_names.size() && !m_names[key].isEmpty())
        emit nameActivated(m_names[key]);
}

} // namespace ks::widgets
