#include "widgets/timeline/render/timeline_legend.h"

#include <QEvent>
#include <QPainter>

namespace ks::widgets {

namespace {
    constexpr int kChip = 10;
    constexpr int kGap = 12;
} // namespace

TimelineLegend::TimelineLegend(QWidget* parent)
    : QWidget(parent)
    , m_palette(palette())
{
    setObjectName(QStringLiteral("timelineLegend"));
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

void TimelineLegend::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        m_palette = TimelinePalette(palette());
        update();
    }
}

void TimelineLegend::setColorMode(ColorMode mode)
{
    m_mode = mode;
    updateGeometry();
    update();
}

void TimelineLegend::setKinds(std::uint32_t mask)
{
    m_mask = mask;
    updateGeometry();
    update();
}

void TimelineLegend::setNote(const QString& note)
{
    m_note = note;
    setToolTip(note);
    updateGeometry();
    update();
}

std::vector<TimelineLegend::Entry> TimelineLegend::entries() const
{
    std::vector<Entry> out;
    switch (m_mode) {
    case ColorMode::KernelType:
        for (SliceKind kind : legendKinds()) {
            if (m_mask & (1u << static_cast<unsigned>(kind)))
                out.push_back({ m_palette.kindColor(kind), sliceKindName(kind) });
        }
        break;
    case ColorMode::Name:
        break;
    case ColorMode::CriticalPath:
        out.push_back(
            { m_palette.kindColor(SliceKind::CriticalPath), sliceKindName(SliceKind::CriticalPath) });
        out.push_back({ m_palette.fill(criticalPathKey(static_cast<std::uint8_t>(SliceKind::Compute), false)),
            tr("Off the path (faded kind colours)") });
        break;
    case ColorMode::JobPath:
        for (std::size_t b = 0; b < core::kPathBoundCount; ++b) {
            const auto bound = static_cast<core::PathBound>(b);
            out.push_back({ m_palette.fill(jobPathKey(0, bound)), pathBoundLabel(bound) });
        }
        out.push_back(
            { m_palette.fill(jobPathKey(static_cast<std::uint8_t>(SliceKind::Compute), std::nullopt)),
                tr("Off the job path") });
        break;
    case ColorMode::Diff:
        for (auto d : { DiffClass::Added, DiffClass::Removed, DiffClass::Slower, DiffClass::Faster })
            out.push_back({ m_palette.fill(diffColorKey(0, d)), diffClassName(d) });
        out.push_back({ m_palette.fill(diffColorKey(
                            static_cast<std::uint8_t>(SliceKind::Compute), DiffClass::Unchanged)),
            tr("Unchanged (faded kind colours)") });
        break;
    }
    return out;
}

QSize TimelineLegend::sizeHint() const
{
    const QFontMetrics fm(font());
    int w = 0;
    for (const Entry& e : entries())
        w += kChip + 4 + fm.horizontalAdvance(e.text) + kGap;
    const QString note = m_mode == ColorMode::Name ? tr("Colours by name (stable across runs)") : m_note;
    return { w + fm.horizontalAdvance(note) + 8, fm.height() + 6 };
}

void TimelineLegend::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QFontMetrics fm(font());
    const int cy = height() / 2;
    p.setPen(palette().color(QPalette::WindowText));
    int x = 0;
    for (const Entry& e : entries()) {
        p.fillRect(QRect(x, cy - kChip / 2, kChip, kChip), e.color);
        x += kChip + 4;
        p.drawText(QRect(x, 0, fm.horizontalAdvance(e.text) + 2, height()), Qt::AlignVCenter | Qt::AlignLeft,
            e.text);
        x += fm.horizontalAdvance(e.text) + kGap;
    }
    const QString note = m_mode == ColorMode::Name ? tr("Colours by name (stable across runs)") : m_note;
    if (!note.isEmpty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(QRect(x, 0, std::max(0, width() - x), height()), Qt::AlignVCenter | Qt::AlignLeft,
            fm.elidedText(note, Qt::ElideRight, std::max(0, width() - x)));
    }
}

} // namespace ks::widgets
