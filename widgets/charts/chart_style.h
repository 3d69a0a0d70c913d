#pragma once

#include "widgets/charts/analysis_chart.h"

#include <QColor>
#include <QPalette>
#include <QString>
#include <QStringList>

namespace ks::widgets {

// Shared look of the analysis charts: the timeline's kind colours (so "compute"
// is the same blue on the timeline and in a breakdown), category axes, a title
// and a legend under the plot, where it never covers a bar.

// Kind colours from the timeline palette, by meaning.
QColor computeColor();
QColor communicationColor();
QColor memoryColor();
QColor syncColor();
QColor runtimeColor();
QColor idleColor();
// A distinct colour per rank (cycles after 10).
QColor rankColor(int index);

// Labelled integer keys 0..n-1 on `axis`, with half a slot of margin each side.
// Labels are given in full: long ones are elided in the middle on the axis and
// shown whole on hover (AnalysisChart), and fewer are drawn where they would
// overlap (AnalysisChart::fitTicks). Fewer than kMinCategorySlots categories
// keep a slot's width each, centred: one rank is a compact bar, not the chart.
void setCategoryAxis(QCPAxis* axis, const QStringList& labels);

inline constexpr int kMinCategorySlots = 4;

// The full labels setCategoryAxis gave `axis` (empty for a numeric axis).
QStringList categoryLabels(const QCPAxis* axis);

// No chart labels more categories than this (setCategoryAxis thins them out).
inline constexpr int kMaxLabelledCategories = 64;

// A bold title row above the plot (shown in exports too).
void addTitle(AnalysisChart& chart, const QString& title);

// Moves the legend out of the plot into a row below it, entries side by side.
void placeLegendBelow(AnalysisChart& chart);

QCPBars* addBars(QCPAxis* keyAxis, QCPAxis* valueAxis, const QString& name, const QColor& color);

// A dark window palette (its base, where charts draw, is dark).
bool isDarkPalette(const QPalette& palette);

// `color` shaded to read as text or a thin line on the palette's base.
QColor readableOn(const QPalette& palette, const QColor& color);

// "averyverylo…kernel_name": tick labels stay readable and keep both ends,
// where kernel names differ (templates at the start, tile sizes at the end).
QString elided(const QString& text, int maxChars = 36);

// The longest a category label is drawn, in characters.
inline constexpr int kMaxLabelChars = 40;

} // namespace ks::widgets
