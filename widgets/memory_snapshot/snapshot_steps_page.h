#pragma once

#include "widgets/memory_snapshot/snapshot_steps.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QTableWidget;

namespace ks::widgets {

// The Memory Snapshot view's Steps tab: one line saying what the snapshot
// was aligned with (or why it could not be, never an empty table), the
// alignment's diagnostics, and a row of memory per trace range of the shown
// device (fillStepsTable). A click on a row asks for that range
// (rangeActivated, an index into the alignment's ranges). With a trace of
// several ranks a chooser above the line says which rank it is aligned with
// and how each fits; choosing one asks for it (rankChosen).
class SnapshotStepsPage : public QWidget
{
    Q_OBJECT

public:
    explicit SnapshotStepsPage(QWidget* parent = nullptr);

    // Only a line (no trace yet, aligning, or why it failed): the table is hidden.
    void showMessage(const QString& text);
    // The ranges of `device` (a device number) of an alignment that succeeded.
    void showSteps(const SnapshotSteps& steps, std::int64_t device);
    // The rank chooser of an alignment with a trace of several ranks (hidden for one rank or null).
    void showRanks(const SnapshotSteps* steps);
    // Selects the row of a range (an index into the alignment's ranges) without asking for it again.
    void selectRange(std::size_t range);

    QString lineText() const;

    QTableWidget* table() const { return m_table; }

    QComboBox* rankChooser() const { return m_rank; }

signals:
    void rangeActivated(std::size_t range);
    void rankChosen(int rankIndex); // an index into the trace set's ranks, -1: the best fit

protected:
    void resizeEvent(QResizeEvent* event) override; // the columns that fit the new width

private:
    QWidget* m_rankRow = nullptr;
    QComboBox* m_rank = nullptr;
    QLabel* m_line = nullptr;
    QTableWidget* m_table = nullptr;
};

} // namespace ks::widgets
