#include "widgets/timeline/timeline_legend.h"

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

void TimelineLegend::setColorMode(ColorMode mode)
{
    m_mode = mode;
    updateGeometry();
    update();
}

void TimelineLegend::setTimelinePalette(const TimelinePalette& palette)
{
    m_palette = palette;
    update();
}

void TimelineLegend::setKinds(std::uint32_t mask)
{
    m_mask = mask;
    updateGeometry();
    update();
}

std::vector<SliceKind> TimelineLegend::kinds() const
{
    std::vector<SliceKind> out;
    for (SliceKind kind : legendKinds()) {
        if (m_mask & (1u << static_cast<unsigned>(kind)))
            out.push_back(kind);
    }
    return out;
}

QSize TimelineLegend::sizeHint() const
{
    const QFontMetrics fm(font());
    if (m_mode == ColorMode::Name)
        return { fm.horizontalAdvance(tr("Colours by name (stable across runs)")) + 8, fm.height() + 6 };
    int w = 0;
    for (SliceKind kind : kinds())
        w += kChip + 4 + fm.horizontalAdvance(sliceKindName(kind)) + kGap;
    return { w, fm.height() + 6 };
}

void TimelineLegend::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QFontMetrics fm(font());
    const int cy = height() / 2;
    p.setPen(palette().color(QPalette::WindowText));
    if (m_mode == ColorMode::Name) {
        p.drawText(rect(), Qt::AlignVCenter | Qt::AlignLeft, tr("Colours by name (stable across runs)"));
        return;
    }
    int x = 0;
    for (SliceKind kind : kinds()) {
        p.fillRect(QRect(x, cy - kChip / 2, kChip, kChip), m_palette.kindColor(kind));
        x += kChip + 4;
        const QString text = sliceKindName(kind);
        p.drawText(QRect(x, 0, fm.horizontalAdvance(text) + 2, height()), Qt::AlignVCenter | Qt::AlignLeft, text);
        x += fm.horizontalAdvance(text) + kGap;
    }
}

} // namespace ks::widgets
