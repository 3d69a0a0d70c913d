#pragma once

#include "widgets/memory_snapshot/snapshot_steps.h"

#include <QWidget>

class QLabel;
class QTableWidget;

namespace ks::widgets {

// The Memory Snapshot view's Steps tab: one line saying what the snapshot
// was aligned with (or why it could not be, never an empty table), the
// alignment's diagnostics, and a row of memory per trace range of the shown
// device (fillStepsTable). A click on a row asks for that range
// (rangeActivated, an index into the alignment's ranges).
class SnapshotStepsPage : public QWidget
{
    Q_OBJECT

public:
    explicit SnapshotStepsPage(QWidget* parent = nullptr);

    // Only a line (no trace yet, aligning, or why it failed): the table is hidden.
    void showMessage(const QString& text);
    // The ranges of `device` (a device number) of an alignment that succeeded.
    void showSteps(const SnapshotSteps& steps, std::int64_t device);
    // Selects the row of a range (an index into the alignment's ranges) without asking for it again.
    void selectRange(std::size_t range);

    QString lineText() const;

    QTableWidget* table() const { return m_table; }

signals:
    void rangeActivated(std::size_t range);

private:
    QLabel* m_line = nullptr;
    QTableWidget* m_table = nullptr;
};

} // namespace ks::widgets
