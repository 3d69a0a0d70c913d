#pragma once

#include <QWidget>

#include <memory>

class QTreeWidget;
class QTreeWidgetItem;

namespace ks::widgets {

class TimelineData;
class TimelineViewState;

// The ranks of the open job: rank, device, tracks, slices, estimated clock
// offset (with its spread) and file, with a
// check box to show or hide each rank on the timeline (T8). Double-click goes
// to a rank.
class RankListPanel : public QWidget
{
    Q_OBJECT

public:
    explicit RankListPanel(TimelineViewState* state, QWidget* parent = nullptr);

    void setData(std::shared_ptr<const TimelineData> data);

    QTreeWidget* tree() const { return m_tree; }

signals:
    void rankActivated(int rank);

private:
    void syncChecks();
    void showClockOffset(QTreeWidgetItem& item, int rank) const;

    TimelineViewState* m_state = nullptr;
    std::shared_ptr<const TimelineData> m_data;
    QTreeWidget* m_tree = nullptr;
    bool m_syncing = false;
};

} // namespace ks::widgets
