#pragma once

#include "core/analysis/memory_snapshot/memory_snapshot.h"

#include <QStringList>

#include <functional>

class QEvent;
class QPoint;
class QWidget;

namespace ks::widgets {

// What hovering a snapshot's allocation or block shows, the same in every
// part of the Memory Snapshot view.

// The stack's frames that memory_viz prints (innermost first, its filter
// applied), "filename:line:name"; at most `max` of them and "…" after
// (max < 0: all).
QStringList keptFrames(const core::MemorySnapshot& snapshot, core::SnapshotStackId stack, int max);

// For a widget's event(): on a tooltip event shows textAt(its position), or
// hides the tooltip when that is empty, and returns true; false for any other event.
bool handleToolTip(QWidget* widget, QEvent* event, const std::function<QString(QPoint)>& textAt);

} // namespace ks::widgets
