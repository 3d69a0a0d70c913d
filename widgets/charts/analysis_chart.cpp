#include "widgets/charts/analysis_chart.h"

#include "widgets/charts/chart_style.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QScopedValueRollback>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ks::widgets {

AnalysisChart::AnalysisChart(QWidget* parent)
    : QCustomPlot(parent)
{
    setNoAntialiasingOnDrag(true);
    applyPalette();
    setMinimumWidth(240); // the height comes from minimumSizeHint
    setMouseTracking(true);
    setupContextMenu();
    connect(this, &QCustomPlot::afterLayout, this, [this] {
        fitTicks();
        updateMinimumHeight();
    });
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

void AnalysisChart::applyPalette()
{
    setBackground(palette().color(QPalette::Base));
    legend->setBrush(palette().color(QPalette::Base));
    legend->setBorderPen(QPen(palette().color(QPalette::Mid)));
    legend->setTextColor(palette().color(QPalette::Text));
    for (QCPAxisRect* rect : axisRects())
        styleAxisRect(rect);
    // Title rows (addTitle) and colour scales (the rank overview's) live in the layout.
    for (QCPLayoutElement* element : plotLayout()->elements(true)) {
        if (auto* title = qobject_cast<QCPTextElement*>(element))
            title->setTextColor(palette().color(QPalette::Text));
        else if (auto* scale = qobject_cast<QCPColorScale*>(element))
            styleAxisRect(scale->axis()->axisRect());
    }
}

void AnalysisChart::changeEvent(QEvent* event)
{
    QCustomPlot::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyPalette();
        replot(rpQueuedReplot);
    }
}

QSize AnalysisChart::minimumSizeHint() const
{
    return { 240, m_minimumHeight };
}

void AnalysisChart::updateMinimumHeight()
{
    // Rows of plot rects (stacked panels share none), and the smallest of them.
    QList<int> rowTops;
    int smallest = std::numeric_limits<int>::max();
    for (QCPAxisRect* rect : axisRects()) {
        if (!rect->visible() || !rect->layout())
            continue;
        if (!rowTops.contains(rect->outerRect().top()))
            rowTops.append(rect->outerRect().top());
        smallest = std::min(smallest, rect->rect().height());
    }
    if (rowTops.isEmpty() || height() <= 0)
        return;
    // What is not plot (title, axes, legend rows) stays; each row of plots gets the minimum.
    const auto rows = static_cast<int>(rowTops.size());
    const int wanted = std::max(height() - rows * smallest, 0) + rows * kMinPlotHeight;
    if (wanted == m_minimumHeight)
        return;
    m_minimumHeight = wanted;
    updateGeometry();
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

    const char* const kFullTitleProperty = "ksFullTitle";
    const char* const kShownTitleProperty = "ksShownTitle";

    // The space nearest the middle of `text`, or -1.
    qsizetype middleSpace(const QString& text)
    {
        const qsizetype mid = text.size() / 2;
        for (qsizetype d = 0; d <= mid; ++d) {
            if (mid - d >= 0 && text[mid - d] == QChar(u' '))
                return mid - d;
            if (mid + d < text.size() && text[mid + d] == QChar(u' '))
                return mid + d;
        }
        return -1;
    }

    // An axis title drawn centred on its plot may reach the chart's edges but not
    // past them (a long one, "kernel duration (µs): mean, whiskers min–max", was cut
    // at a laptop's width): it is wrapped onto two lines at the space nearest its
    // middle, and elided only when a line is still too long. `room` is the length
    // it has. True when the shown title changed.
    bool fitTitle(QCPAxis* axis, int room)
    {
        QString full = axis->property(kFullTitleProperty).toString();
        if (axis->label() != axis->property(kShownTitleProperty).toString())
            full = axis->label(); // a builder set it since
        const QFontMetrics metrics(axis->labelFont());
        QString shown = full;
        if (metrics.horizontalAdvance(full) > room) {
            const qsizetype cut = middleSpace(full);
            QStringList lines =
                cut > 0 ? QStringList { full.left(cut), full.mid(cut + 1) } : QStringList { full };
            for (QString& line : lines)
                line = metrics.elidedText(line, Qt::ElideRight, room);
            shown = lines.join(QChar(u'\n'));
        }
        axis->setProperty(kFullTitleProperty, full);
        axis->setProperty(kShownTitleProperty, shown);
        if (shown == axis->label())
            return false;
        axis->setLabel(shown);
        return true;
    }

    // The length a title of `axis` may take, centred on its axis rect, inside `bounds`.
    int titleRoom(const QCPAxis* axis, const QRect& bounds)
    {
        const QRect plot = axis->axisRect()->rect();
        if (axis->orientation() == Qt::Horizontal) {
            const int centre = plot.center().x();
            return 2 * std::min(centre - bounds.left(), bounds.right() - centre) - 8;
        }
        const int centre = plot.center().y();
        return 2 * std::min(centre - bounds.top(), bounds.bottom() - centre) - 8;
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
    bool titles = false;
    for (QCPAxisRect* rect : axisRects()) {
        for (QCPAxis* axis : rect->axes()) {
            if (axis->visible() && !axis->label().isEmpty())
                titles = fitTitle(axis, std::max(titleRoom(axis, this->rect()), 40)) || titles;
        }
    }
    if (titles)
        updateLayout();
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
