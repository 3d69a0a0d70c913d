#pragma once

#include "core/analysis/cross_rank/cross_rank_path.h"
#include "widgets/timeline/model/slice_kind.h"
#include "widgets/timeline/model/timeline_types.h"

#include <QColor>
#include <QPalette>
#include <QString>

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace ks::widgets {

// "CPU", "GPU compute", … for the legend.
QString pathBoundLabel(core::PathBound bound);
QString diffClassName(DiffClass diff);

// Every colour the timeline paints with, derived once from the widget palette so
// light and dark themes both work. Shades are pre-blended with the background:
// painting stays opaque fillRects without alpha.
class TimelinePalette
{
public:
    static constexpr int kShades = 4; // occupancy levels of merged blocks; kShades - 1 = solid

    explicit TimelinePalette(const QPalette& palette = {});

    const QColor& fill(std::uint8_t key, int shade = kShades - 1) const;
    const QColor& dimmed(std::uint8_t key) const; // search active, not a match
    const QColor& text(std::uint8_t key) const;

    QColor kindColor(SliceKind kind) const { return fill(static_cast<std::uint8_t>(kind)); }

    bool dark() const { return m_dark; }

    QColor background;
    QColor alternateBackground;
    QColor headerBackground;
    QColor labelBackground;
    QColor gridLine;
    QColor separator;
    QColor foreground;
    QColor mutedText;
    QColor selection;
    QColor highlight;
    QColor rangeFill;
    QColor rangeEdge;
    QColor cursor;
    QColor flow;
    QColor counterFill;
    QColor counterLine;

private:
    void setKey(std::uint8_t key, const QColor& base);

    bool m_dark = false;
    std::array<std::array<QColor, kShades>, 256> m_fill {};
    std::array<QColor, 256> m_dimmed {};
    std::array<QColor, 256> m_text {};
};

// The legend entries of a mode: kinds present in the data.
std::vector<SliceKind> legendKinds();

} // namespace ks::widgets
