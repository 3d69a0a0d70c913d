#include "widgets/job/job_strip_view.h"

#include "widgets/common/format.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <array>
#include <cmath>

namespace ks::widgets {

namespace {

    constexpr int kLabelWidth = 72;
    constexpr int kAxisHeight = 22;
    constexpr int kMaxRowHeight = 12;
    constexpr int kMaxLabels = 64;
    constexpr double kMinVisibleBins = 4.0;

} // namespace

JobStripView::JobStripView(QWidget* parent)
    : QWidget(parent)
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

core::KindShares JobStripView::columnShares(std::size_t row, double firstBin, double lastBin) const
{
    core::KindShares out {};
    const auto bins = m_job->profiles.row(row);
    if (bins.empty() || lastBin <= firstBin)
        return out;
    const auto begin = static_cast<std::size_t>(std::max(0.0, std::floor(firstBin)));
    const auto end = std::min(bins.size(), static_cast<std::size_t>(std::ceil(lastBin)));
    for (std::size_t b = begin; b < end; ++b) {
        const double lo = std::max(firstBin, static_cast<double>(b));
        const double hi = std::min(lastBin, static_cast<double>(b + 1));
        const auto weight = static_cast<float>((hi - lo) / (lastBin - firstBin));
        for (std::size_t k = 0; k < out.size(); ++k)
            out[k] += bins[b][k] * weight;
    }
    return out;
}

void JobStripView::rebuildImage(int columns)
{
    const std::size_t n = m_job ? m_job->ranks.size() : 0;
    columns = std::max(columns, 1);
    if (m_image.width() != columns || m_image.height() != static_cast<int>(std::max<std::size_t>(n, 1)))
        m_image = QImage(columns, static_cast<int>(std::max<std::size_t>(n, 1)), QImage::Format_RGB32);
    m_image.fill(m_palette.idle);
    std::vector<double> edges(static_cast<std::size_t>(columns) + 1);
    for (int x = 0; x <= columns; ++x)
        edges[static_cast<std::size_t>(x)] =
            m_firstBin + (m_lastBin - m_firstBin) * static_cast<double>(x) / static_cast<double>(columns);
    for (std::size_t row = 0; row < n; ++row) {
        auto* line = reinterpret_cast<QRgb*>(m_image.scanLine(static_cast<int>(row)));
        if (!m_job->ranks[row].ok()) {
            std::fill(line, line + columns, qRgb(200, 60, 60)); // a rank that did not load
            continue;
        }
        for (int x = 0; x < columns; ++x)
            line[x] = stripColor(m_palette,
                columnShares(
                    row, edges[static_cast<std::size_t>(x)], edges[static_cast<std::size_t>(x) + 1]));
    }
    m_imageStale = false;
    m_fittedStale = true;
}

// Several ranks share a pixel row: each pixel shows the rank of its group
// whose colour is farthest from the column's mean over all ranks. Averaging
// (or sampling) would thin a lone straggler to a faint tint or drop it; this
// keeps it at full strength, which is what the overview is for.
void JobStripView::fitImage(int rows)
{
    const int n = m_image.height();
    const int columns = m_image.width();
    if (!m_fittedStale && m_fitted.height() == rows && m_fitted.width() == columns)
        return;
    m_fitted = QImage(columns, rows, QImage::Format_RGB32);
    std::vector<std::array<double, 3>> mean(static_cast<std::size_t>(columns), { 0, 0, 0 });
    for (int y = 0; y < n; ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(m_image.constScanLine(y));
        for (int x = 0; x < columns; ++x) {
            auto& m = mean[static_cast<std::size_t>(x)];
            m[0] += qRed(line[x]);
            m[1] += qGreen(line[x]);
            m[2] += qBlue(line[x]);
        }
    }
    for (auto& m : mean)
        for (double& c : m)
            c /= n;
    for (int row = 0; row < rows; ++row) {
        const int first = static_cast<int>(static_cast<qint64>(row) * n / rows);
        const int last = std::max(first + 1, static_cast<int>(static_cast<qint64>(row + 1) * n / rows));
        auto* out = reinterpret_cast<QRgb*>(m_fitted.scanLine(row));
        for (int x = 0; x < columns; ++x) {
            const auto& m = mean[static_cast<std::size_t>(x)];
            double farthest = -1;
            for (int y = first; y < last; ++y) {
                const QRgb c = reinterpret_cast<const QRgb*>(m_image.constScanLine(y))[x];
                const double d =
                    std::abs(qRed(c) - m[0]) + std::abs(qGreen(c) - m[1]) + std::abs(qBlue(c) - m[2]);
                if (d > farthest) {
                    farthest = d;
                    out[x] = c;
                }
            }
        }
    }
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
    const int stripHeight = rowHeight >= 1 ? n * rowHeight : area.height();
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
    drawLabels(painter, QRect(area.left(), area.top(), area.width(), stripHeight));
    drawAxis(painter, area);
}

void JobStripView::drawLabels(QPainter& painter, const QRect& area) const
{
    const int n = static_cast<int>(m_job->ranks.size());
    const int lineHeight = fontMetrics().height();
    const int fit = std::max(1, std::min(kMaxLabels, area.height() / std::max(lineHeight, 1)));
    const int step = std::max(1, (n + fit - 1) / fit);
    painter.setPen(palette().color(QPalette::Text));
    for (int row = 0; row < n; row += step) {
        const int y =
            area.top() + static_cast<int>((static_cast<qint64>(row) * 2 + 1) * area.height() / (2 * n));
        painter.drawText(QRect(0, y - lineHeight / 2, kLabelWidth - 8, lineHeight),
            Qt::AlignRight | Qt::AlignVCenter,
            tr("rank %1").arg(m_job->ranks[static_cast<std::size_t>(row)].rank));
    }
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
    const core::KindShares shares = columnShares(static_cast<std::size_t>(row), first, last);
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
