#include "widgets/timeline/render/timeline_palette.h"

#include "core/analysis/frame/kernel_type.h"

namespace ks::widgets {

namespace {

    QColor blend(const QColor& a, const QColor& b, double t)
    {
        return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * t),
            static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * t),
            static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * t));
    }

    // Kinds of work: saturated enough to tell apart at 1 px, calm enough for hours of looking.
    constexpr std::array<QRgb, static_cast<std::size_t>(SliceKind::Count_)> kKindColors {
        0x3f7fbf, // compute: steel blue
        0xe0603a, // communication: vermilion
        0x3aa45a, // memory: green
        0x9a5cc6, // sync: purple
        0x9aa3ad, // GPU other: grey
        0x7d93a8, // CPU op: slate
        0xe2a23b, // runtime: amber
        0xb3c0cc, // python: light slate
        0x3ea6a0, // annotation: teal
        0xa9a9a9, // CPU other
        0xd81b60, // on the critical path: crimson, apart from every kind
    };

    // Diff classes, indexed by DiffClass (Unchanged unused: it takes the faded kind colour).
    // Green/red for added/removed as in every diff tool; orange/blue for slower/faster.
    constexpr std::array<QRgb, static_cast<std::size_t>(DiffClass::Count_)> kDiffColors {
        0x9aa3ad,
        0x2ca02c, // added: green
        0xd62728, // removed: red
        0xff7f0e, // slower: orange
        0x1f77b4, // faster: blue
    };

    // Job path bound types, indexed by PathBound: apart from each other and from the faded kinds.
    constexpr std::array<QRgb, core::kPathBoundCount> kBoundColors {
        0x7b3fc4, // CPU: violet
        0x1f5fbf, // GPU compute: deep blue
        0xd62728, // GPU communication wait: red
        0x2ca02c, // transfer: green
        0xff8c00, // launch overhead: orange
        0x8c564b, // kernel-kernel gap: brown
    };

    // A 24-colour name palette: hues spread around the wheel at two lightness levels.
    QColor nameColor(int i)
    {
        const int hue = (i * 360 / kNamePaletteSize * 7) % 360; // stride 7 keeps neighbours apart
        // Muted: names are many, and a wall of saturated colour tires the eye.
        const bool light = i % 2 == 1;
        return QColor::fromHsl(hue, light ? 95 : 115, light ? 158 : 128);
    }

} // namespace

QString pathBoundLabel(core::PathBound bound)
{
    switch (bound) {
    case core::PathBound::Cpu:
        return QStringLiteral("CPU");
    case core::PathBound::GpuCompute:
        return QStringLiteral("GPU compute");
    case core::PathBound::GpuCommWait:
        return QStringLiteral("GPU comm wait");
    case core::PathBound::Transfer:
        return QStringLiteral("Transfer");
    case core::PathBound::LaunchOverhead:
        return QStringLiteral("Launch overhead");
    case core::PathBound::KernelGap:
        break;
    }
    return QStringLiteral("Kernel gap");
}

QString diffClassName(DiffClass diff)
{
    switch (diff) {
    case DiffClass::Added:
        return QStringLiteral("Added (only in test)");
    case DiffClass::Removed:
        return QStringLiteral("Removed (only in control)");
    case DiffClass::Slower:
        return QStringLiteral("Slower");
    case DiffClass::Faster:
        return QStringLiteral("Faster");
    case DiffClass::Unchanged:
    case DiffClass::Count_:
        break;
    }
    return QStringLiteral("Unchanged");
}

TimelinePalette::TimelinePalette(const QPalette& palette)
{
    background = palette.color(QPalette::Base);
    m_dark = background.lightnessF() < 0.5;
    foreground = palette.color(QPalette::Text);
    alternateBackground = blend(background, foreground, m_dark ? 0.035 : 0.022);
    headerBackground = blend(background, foreground, m_dark ? 0.09 : 0.055);
    labelBackground = blend(background, palette.color(QPalette::Window), 0.6);
    gridLine = blend(background, foreground, m_dark ? 0.10 : 0.07);
    separator = blend(background, foreground, m_dark ? 0.22 : 0.16);
    mutedText = blend(background, foreground, 0.6);
    selection = m_dark ? QColor(0xff, 0xff, 0xff) : QColor(0x11, 0x11, 0x11);
    highlight = QColor(0xff, 0xc1, 0x07);
    rangeFill = QColor(0x4a, 0x90, 0xe2, m_dark ? 60 : 40);
    rangeEdge = QColor(0x2f, 0x6f, 0xc4);
    cursor = m_dark ? QColor(0xf0, 0x60, 0x60) : QColor(0xd0, 0x30, 0x30);
    flow = m_dark ? QColor(0xf5, 0xd0, 0x5a) : QColor(0x20, 0x20, 0x20);
    counterFill = blend(background, QColor(0x3f, 0x7f, 0xbf), m_dark ? 0.45 : 0.35);
    counterLine = QColor(0x2f, 0x6f, 0xb0);
    for (std::size_t k = 0; k < kKindColors.size(); ++k)
        setKey(static_cast<std::uint8_t>(k), QColor::fromRgb(kKindColors[k]));
    for (std::uint8_t i = 0; i < kNamePaletteSize; ++i)
        setKey(static_cast<std::uint8_t>(kNameKeyBase + i), nameColor(i));
    // Off the critical path: the kind's hue, faded most of the way into the background.
    for (std::size_t k = 0; k < kKindColors.size(); ++k)
        setKey(static_cast<std::uint8_t>(kOffPathKeyBase + k),
            blend(background, QColor::fromRgb(kKindColors[k]), 0.3));
    for (std::size_t d = 1; d < kDiffColors.size(); ++d)
        setKey(static_cast<std::uint8_t>(kDiffKeyBase + d), QColor::fromRgb(kDiffColors[d]));
    for (std::size_t b = 0; b < kBoundColors.size(); ++b)
        setKey(static_cast<std::uint8_t>(kJobPathKeyBase + b), QColor::fromRgb(kBoundColors[b]));
}

void TimelinePalette::setKey(std::uint8_t key, const QColor& base)
{
    // A merged block with little busy time is drawn paler: at a glance a
    // zoomed-out stream shows how busy it was, not just that something ran.
    constexpr std::array<double, kShades> kStrength { 0.38, 0.58, 0.8, 1.0 };
    for (int s = 0; s < kShades; ++s)
        m_fill[key][static_cast<std::size_t>(s)] =
            blend(background, base, kStrength[static_cast<std::size_t>(s)]);
    m_dimmed[key] = blend(background, base, 0.18);
    m_text[key] = base.lightnessF() > 0.62 ? QColor(0x20, 0x20, 0x20) : QColor(0xff, 0xff, 0xff);
}

const QColor& TimelinePalette::fill(std::uint8_t key, int shade) const
{
    return m_fill[key][static_cast<std::size_t>(std::clamp(shade, 0, kShades - 1))];
}

const QColor& TimelinePalette::dimmed(std::uint8_t key) const
{
    return m_dimmed[key];
}

const QColor& TimelinePalette::text(std::uint8_t key) const
{
    return m_text[key];
}

std::vector<SliceKind> legendKinds()
{
    return { SliceKind::Compute, SliceKind::Communication, SliceKind::Memory, SliceKind::Sync,
        SliceKind::CpuOp, SliceKind::Runtime, SliceKind::Python, SliceKind::Annotation };
}

} // namespace ks::widgets
