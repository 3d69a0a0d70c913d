#pragma once

#include "widgets/analysis/analysis_chart.h"

#include <QColor>
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
void setCategoryAxis(QCPAxis* axis, const QStringList& labels);

// No chart labels more categories than this (setCategoryAxis thins them out).
inline constexpr int kMaxLabelledCategories = 64;

// A bold title row above the plot (shown in exports too).
void addTitle(AnalysisChart& chart, const QString& title);

// Moves the legend out of the plot into a row below it, entries side by side.
void placeLegendBelow(AnalysisChart& chart);

QCPBars* addBars(QCPAxis* keyAxis, QCPAxis* valueAxis, const QString& name, const QColor& color);

// "averyverylongkernelname…" : tick labels stay readable.
QString elided(const QString& text, int maxChars = 36);

} // namespace ks::widgets
