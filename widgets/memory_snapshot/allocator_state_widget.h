#pragma once

#include "core/analysis/memory_snapshot/allocator_state.h"
#include "core/analysis/memory_snapshot/memory_snapshot.h"

#include <QWidget>

#include <memory>

namespace ks::widgets {

// The allocator at one event, as memory_viz's Allocator State History draws
// it: one bar per segment (by address, each as wide as the view: a 2 MiB small
// segment and a 1 GiB large one are both readable), its active blocks at their
// place in it, the rounding each lost hatched at its end, pending frees in
// orange, the free rest in grey; narrow, each label stands above its bar. Hovering a block shows its sizes
// and frames. Meant to sit in a scroll area: its height grows with the segments.
class AllocatorStateWidget : public QWidget
{
    Q_OBJECT

public:
    explicit AllocatorStateWidget(QWidget* parent = nullptr);

    // The state and the snapshot its stacks index into (kept alive by the caller).
    void setState(std::shared_ptr<const core::AllocatorState> state,
        std::shared_ptr<const core::MemorySnapshot> snapshot);

    const core::AllocatorState* state() const { return m_state.get(); }

    // A segment's bar, in widget pixels (for tests and hit-testing).
    QRect barRect(int segment) const;
    // The tooltip at a point: the block's sizes and frames, or the segment's.
    QString textAt(QPoint pos) const;

    QSize sizeHint() const override;

    QSize minimumSizeHint() const override { return { 300, 60 }; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;

private:
    bool stacked() const; // too narrow for label and bar side by side: the label above
    int rowHeight() const;
    int labelWidth() const;
    QRect labelRect(int segment) const;
    // The blocks of a segment: [first, last) into m_state->blocks.
    std::pair<std::size_t, std::size_t> blocksOf(const core::StateSegment& segment) const;

    std::shared_ptr<const core::AllocatorState> m_state;
    std::shared_ptr<const core::MemorySnapshot> m_snapshot;
};

} // namespace ks::widgets
