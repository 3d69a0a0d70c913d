#include "widgets/memory_snapshot/snapshot_tooltips.h"

#include "core/analysis/memory_snapshot/snapshot_frames.h"
#include "widgets/common/format.h"

#include <QHelpEvent>
#include <QToolTip>

namespace ks::widgets {

QStringList keptFrames(const core::MemorySnapshot& snapshot, core::SnapshotStackId stack, int max)
{
    QStringList lines;
    for (const std::uint32_t f : snapshot.stack(stack)) {
        if (!core::memoryVizKeepsFrame(snapshot.frames[f]))
            continue;
        if (max >= 0 && lines.size() == max) {
            lines << QStringLiteral("…");
            break;
        }
        lines << toQString(core::frameText(snapshot.frames[f]));
    }
    return lines;
}

bool handleToolTip(QWidget* widget, QEvent* event, const std::function<QString(QPoint)>& textAt)
{
    if (event->type() != QEvent::ToolTip)
        return false;
    const auto* help = static_cast<QHelpEvent*>(event);
    const QString text = textAt(help->pos());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(help->globalPos(), text, widget);
    return true;
}

} // namespace ks::widgets
