#include "widgets/job/job_strip_view.h"

#include "widgets/common/format.h"
#include "widgets/common/task_pools.h"
#include "widgets/job/strip_raster.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace ks::widgets {

namespace {

    constexpr int kLabelWidth = 72;
    constexpr int kAxisHeight = 22;
    constexpr int kMaxRowHeight = 12;
    constexpr int kMaxLabels = 64;
    constexpr double kMinVisibleBins = 4.0;

} // namespace

JobStripView::JobStripView(TaskPools* pools, QWidget* parent)
    : QWidget(parent)
    , m_pools(pools)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumHeight(120);
}

void JobStripView::setJob(std::shared_ptr<const core::JobOverview> job)
{
    m_job = std::move(job);
    m_selected.clear();
    m_stragglers = m_job ? core::computeOutlierRows(m_job->profiles) : std::vector<std::size_t> {};
    m_firstBin = 0;
    m_lastBin = m_job ? static_cast<double>(std::max<std::size_t>(m_job->profiles.bins, 1)) : 1.0;
    m_imageStale = true;
    update();
    emit selectionChanged();
}

void JobStripView::setSelectedRows(std::set<std::size_t> rows)
{
    m_selected = std::move(rows);
    update();
    emit selectionChanged();
}

void JobStripView::setVisibleBins(double first, double last)
{
    if (!m_job)
        return;
    const double total = static_cast<double>(m_job->profiles.bins);
    const double span = std::clamp(last - first, std::min(kMinVisibleBins, total), total);
    first = std::clamp(first, 0.0, total - span);
    m_firstBin = first;
    m_lastBin = first + span;
    m_imageStale = true;
    update();
}

QRect JobStripView::stripArea() const
{
    return rect().adjusted(kLabelWidth, 2, -2, -kAxisHeight);
}

double JobStripView::binAt(int x) const
{
    const QRect area = stripArea();
    const double f = static_cast<double>(x - area.left()) / std::max(1, area.width());
    return m_firstBin + f * (m_lastBin - m_firstBin);
}

int JobStripView::rowAt(QPoint point) const
{
    const QRect area = stripArea();
    if (!m_job || m_job->ranks.empty() || !area.contains(point))
        return -1;
    const int n = static_cast<int>(m_job->ranks.size());
    const int rowHeight = std::min(kMaxRowHeight, area.height() / n);
    const int y = point.y() - area.top();
    const int row =
        rowHeight >= 1 ? y / rowHeight : static_cast<int>(static_cast<qint64>(y) * n / area.height());
    return row < n ? row : -1;
}

core::ParallelFor JobStripView::parallelFor() const
{
    return m_pools ? m_pools->parallelFor() : core::ParallelFor(core::runSequentially);
}

void JobStripView::rebuildImage(int columns)
{
    const std::size_t n = m_job ? m_job->ranks.size() : 0;
    columns = std::max(columns, 1);
    const int height = static_cast<int>(std::max<std::size_t>(n, 1));
    if (m_image.width() != columns || m_image.height() != height)
        m_image = QImage(columns, height, QImage::Format_RGB32);
    if (n == 0) {
        m_image.fill(m_palette.idle);
    } else {
        std::vector<bool> failed(n);
        for (std::size_t row = 0; row < n; ++row)
            failed[row] = !m_job->ranks[row].ok();
        const ColumnWeights weights = columnWeights(m_firstBin, m_lastBin, columns, m_job->profiles.bins);
        rasterStrips(m_palette, weights, m_job->profiles, failed, qRgb(200, 60, 60), m_image, parallelFor());
    }
    m_imageStale = false;
    m_fittedStale = true;
}

void JobStripView::fitImage(int rows)
{
    if (!m_fittedStale && m_fitted.height() == rows && m_fitted.width() == m_image.width())
        return;
    m_fitted = fitStripRows(m_image, rows, parallelFor());
    m_fittedStale = false;
}

const QImage& JobStripView::stripImage()
{
    if (m_imageStale || m_image.width() != stripArea().width())
        rebuildImage(stripArea().width());
    return m_image;
}

void JobStripView::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.fillRect(rect(), palette().color(QPalette::Base));
    if (!m_job || m_job->ranks.empty()) {
        painter.drawText(rect(), Qt::AlignCenter, tr("No ranks in this job summary"));
        return;
    }
    const QRect area = stripArea();
    const QImage& image = stripImage();
    const int n = static_cast<int>(m_job->ranks.size());
    const int rowHeight = std::min(kMaxRowHeight, area.height() / n);
    if (rowHeight >= 1) {
        painter.drawImage(QRect(area.left(), area.top(), area.width(), n * rowHeight), image);
    } else {
        fitImage(area.height());
        painter.drawImage(area.topLeft(), m_fitted);
    }
    // Stragglers: a red mark in the gutter and a band at least 3 px high across
    // the strip, so one rank among a thousand stands out as a streak.
    const QColor straggler(200, 30, 30);
    for (const std::size_t row : m_stragglers) {
        const int top = rowHeight >= 1
            ? area.top() + static_cast<int>(row) * rowHeight
            : area.top() + static_cast<int>(static_cast<qint64>(row) * area.height() / n);
        const int height = std::max(rowHeight, 3);
        painter.fillRect(QRect(area.left() - 6, top - 1, 5, height), straggler);
        QColor band = straggler;
        band.setAlpha(110);
        painter.fillRect(QRect(area.left(), top - 1, area.width(), height), band);
    }
    const QColor mark = palette().color(QPalette::Highlight);
    for (const std::size_t row : m_selected) {
        const int top = rowHeight >= 1
            ? area.top() + static_cast<int>(row) * rowHeight
            : area.top() + static_cast<int>(static_cast<qint64>(row) * area.height() / n);
        painter.fillRect(QRect(area.left() - 6, top, 5, std::max(rowHeight, 1)), mark);
        painter.setPen(QPen(mark, 1));
        painter.drawRect(QRect(area.left(), top, area.width() - 1, std::max(rowHeight, 1)));
    }
    painter.setPen(palette().color(QPalette::Text));
    for (const auto& [labelRect, text] : rankLabels())
        painter.drawText(labelRect, Qt::AlignRight | Qt::AlignVCenter, text);
    drawAxis(painter, area);
}

QRect JobStripView::rowsArea() const
{
    const QRect area = stripArea();
    const int n = m_job ? static_cast<int>(m_job->ranks.size()) : 0;
    const int rowHeight = n > 0 ? std::min(kMaxRowHeight, area.height() / n) : 0;
    return { area.left(), area.top(), area.width(), rowHeight >= 1 ? n * rowHeight : area.height() };
}

std::vector<std::pair<QRect, QString>> JobStripView::rankLabels() const
{
    std::vector<std::pair<QRect, QString>> labels;
    if (!m_job || m_job->ranks.empty())
        return labels;
    const QRect area = rowsArea();
    const int n = static_cast<int>(m_job->ranks.size());
    const int lineHeight = fontMetrics().height();
    // One line spare: the first and last labels are moved inside the widget.
    const int fit = std::max(1, std::min(kMaxLabels, area.height() / std::max(lineHeight, 1) - 1));
    const int step = std::max(1, (n + fit - 1) / fit);
    const int lowest = std::max(0, height() - kAxisHeight - lineHeight);
    int free = 0; // where the next label may start
    for (int row = 0; row < n; row += step) {
        const int y =
            area.top() + static_cast<int>((static_cast<qint64>(row) * 2 + 1) * area.height() / (2 * n));
        const int top = std::clamp(y - lineHeight / 2, 0, lowest);
        if (top < free)
            continue; // moved inside, the first or last would cover its neighbour
        free = top + lineHeight;
        labels.emplace_back(QRect(0, top, kLabelWidth - 8, lineHeight),
            tr("rank %1").arg(m_job->ranks[static_cast<std::size_t>(row)].rank));
    }
    return labels;
}

void JobStripView::drawAxis(QPainter& painter, const QRect& area) const
{
    const int y = area.bottom() + 4;
    painter.setPen(palette().color(QPalette::Text));
    painter.drawLine(area.left(), y, area.right(), y);
    constexpr int kTicks = 6;
    const double width = static_cast<double>(m_job->profiles.binWidthNs);
    for (int i = 0; i <= kTicks; ++i) {
        const int x = area.left() + i * (area.width() - 1) / kTicks;
        painter.drawLine(x, y, x, y + 3);
        const auto ns = static_cast<std::int64_t>(binAt(x) * width);
        const QString text = formatDuration(ns);
        const int w = fontMetrics().horizontalAdvance(text);
        const int left = std::clamp(x - w / 2, area.left(), area.right() - w);
        painter.drawText(left, y + 4 + fontMetrics().ascent(), text);
    }
}

QString JobStripView::describeAt(QPoint point) const
{
    const int row = rowAt(point);
    if (row < 0)
        return {};
    const core::JobRank& rank = m_job->ranks[static_cast<std::size_t>(row)];
    const double first = binAt(point.x());
    const double last = binAt(point.x() + 1);
    const auto time = static_cast<std::int64_t>(first * static_cast<double>(m_job->profiles.binWidthNs));
    if (!rank.ok())
        return tr("rank %1 · %2 · did not load: %3")
            .arg(rank.rank)
            .arg(formatDuration(time), QString::fromStdString(rank.error));
    const core::KindShares shares =
        averageShares(m_job->profiles.row(static_cast<std::size_t>(row)), first, last);
    auto pct = [](double f) { return QString::number(std::round(f * 100.0)); };
    return tr("rank %1 · %2 · busy %3 % (compute %4 %, communication %5 %, memory %6 %)")
        .arg(rank.rank)
        .arg(formatDuration(time), pct(busyFraction(shares)), pct(shares[0]), pct(shares[1]), pct(shares[2]));
}

void JobStripView::mouseMoveEvent(QMouseEvent* event)
{
    const QString text = describeAt(event->position().toPoint());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, this);
    emit hovered(text);
}

void JobStripView::leaveEvent(QEvent*)
{
    emit hovered(QString());
}

void JobStripView::mousePressEvent(QMouseEvent* event)
{
    const int row = rowAt(event->position().toPoint());
    if (row < 0 || event->button() != Qt::LeftButton)
        return;
    const auto r = static_cast<std::size_t>(row);
    if (event->modifiers() & Qt::ShiftModifier) {
        for (std::size_t i = std::min(m_anchor, r); i <= std::max(m_anchor, r); ++i)
            m_selected.insert(i);
    } else if (event->modifiers() & Qt::ControlModifier) {
        if (!m_selected.erase(r))
            m_selected.insert(r);
        m_anchor = r;
    } else {
        m_selected = { r };
        m_anchor = r;
    }
    update();
    emit selectionChanged();
}

void JobStripView::mouseDoubleClickEvent(QMouseEvent* event)
{
    const int row = rowAt(event->position().toPoint());
    if (row >= 0)
        emit rowsActivated({ row });
}

void JobStripView::keyPressEvent(QKeyEvent* event)
{
    if ((event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) && !m_selected.empty()) {
        QList<qsizetype> rows;
        for (const std::size_t r : m_selected)
            rows.append(static_cast<qsizetype>(r));
        emit rowsActivated(rows);
        return;
    }
    if (event->key() == Qt::Key_0 && m_job) {
        setVisibleBins(0, static_cast<double>(m_job->profiles.bins));
        return;
    }
    QWidget::keyPressEvent(event);
}

void JobStripView::wheelEvent(QWheelEvent* event)
{
    if (!m_job)
        return;
    const double steps = event->angleDelta().y() / 120.0;
    const double span = m_lastBin - m_firstBin;
    if (event->modifiers() & Qt::ShiftModifier) {
        const double shift = -steps * span * 0.1;
        setVisibleBins(m_firstBin + shift, m_lastBin + shift);
    } else {
        const double at = binAt(static_cast<int>(event->position().x()));
        const double factor = std::pow(0.8, steps);
        setVisibleBins(at - (at - m_firstBin) * factor, at + (m_lastBin - at) * factor);
    }
    event->accept();
}

} // namespace ks::widgets
